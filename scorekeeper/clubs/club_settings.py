"""A club's own settings, changed by its directors: its usual rules (which pre-fill every new
club game and event), its name, its roster players' names, and who its directors are (a
member invited, who accepts).

Each ``do_*`` checks what it is given and changes one thing under the club's row lock; the
caller has checked that whoever asks directs the club (``membership.directs``). A club keeps
its address (its slug) when renamed, so links and screens already handed out still work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from referee import RULESETS, ClockRule, InputError, RuleOptions
from scorekeeper.clubs.membership import CLUB_NAME_MAX, check_club_name_free, directs, home_club
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.games.word_policy import AUTO, MANUAL, resolve_lexicon
from scorekeeper.models import Club, DirectorInvitation, Player, name_key, name_problem

REJECTED_CHALLENGES = tuple(str(value) for value, _ in RuleOptions.CHOICES["rejected_challenge"])


@dataclass(frozen=True)
class ClubRules:
    """A club's usual rules; "" (or no clock) where it keeps none and the form's own default
    stands. ``clock`` is a clock rule as the API states it (``ClockRule.to_json``)."""

    ruleset: str = ""
    lexicon: str = ""
    challenge_mode: str = ""
    rejected_challenge: str = ""
    clock: dict[str, Any] | None = None

    def initial(self) -> dict[str, Any]:
        """The rules a form starts from: only those the club keeps."""
        kept = {
            "ruleset": self.ruleset,
            "lexicon": self.lexicon,
            "challenge_mode": self.challenge_mode,
            "rejected_challenge": self.rejected_challenge,
        }
        return {name: value for name, value in kept.items() if value}


def rules_of(club: Club) -> ClubRules:
    return ClubRules(
        ruleset=club.default_ruleset,
        lexicon=club.default_lexicon,
        challenge_mode=club.default_challenge_mode,
        rejected_challenge=club.default_rejected_challenge,
        clock=club.default_clock,
    )


def check_clock(clock: object) -> dict[str, Any] | None:
    """A clock rule as stored (every setting spelled out), or ``InputError``'s sentence."""
    if clock is None:
        return None
    return ClockRule.from_json(clock).to_json()


def check_rules(rules: ClubRules) -> ClubRules:
    """The rules tidied (a lexicon by its id, the clock spelled out), or the refusal of the
    first that won't do."""
    if rules.ruleset and rules.ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise InputError("bad_ruleset", f"There is no ruleset {rules.ruleset!r}: one of {known}.")
    lexicon = resolve_lexicon(rules.lexicon)[0] if rules.lexicon else ""
    if rules.challenge_mode not in ("", AUTO, MANUAL):
        raise InputError(
            "bad_challenge_mode", "Word checking is auto (checked as played) or manual."
        )
    if rules.rejected_challenge and rules.rejected_challenge not in REJECTED_CHALLENGES:
        raise InputError(
            "bad_option", f"A failed challenge's rule is one of {', '.join(REJECTED_CHALLENGES)}."
        )
    return ClubRules(
        ruleset=rules.ruleset,
        lexicon=lexicon,
        challenge_mode=rules.challenge_mode,
        rejected_challenge=rules.rejected_challenge,
        clock=check_clock(rules.clock),
    )


def do_set_rules(club: Club, checked: ClubRules) -> Club:
    """Keep ``checked`` (``check_rules``'s) as the club's usual rules."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        club.default_ruleset = checked.ruleset
        club.default_lexicon = checked.lexicon
        club.default_challenge_mode = checked.challenge_mode
        club.default_rejected_challenge = checked.rejected_challenge
        club.default_clock = checked.clock
        club.save(
            update_fields=[
                "default_ruleset", "default_lexicon", "default_challenge_mode",
                "default_rejected_challenge", "default_clock",
            ]
        )  # fmt: skip
    return club


def check_club_rename(club: Club, name: str) -> str:
    """The club's new name as it will be kept (spaces collapsed), if it can be one and no other
    club has it; else the refusal."""
    name = " ".join(str(name).split())
    problem = name_problem(name) if name else "Give the club a name."
    if problem or len(name) > CLUB_NAME_MAX:
        raise InputError(
            "bad_name", problem or f"A club's name has at most {CLUB_NAME_MAX} characters."
        )
    check_club_name_free(name, besides=club)
    return name


def do_rename_club(club: Club, name: str) -> Club:
    """Give the club a new name (``check_club_rename``'s); its address stays."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        club.name = name
        club.save(update_fields=["name"])
    return club


def check_player_rename(club: Club, player: Player, name: str) -> str:
    """The player's new name as it will be kept, if ``club``'s directors may give it: only for
    a player who plays for ``club`` (its roster first), and never a name another player is
    known by; else the refusal."""
    (name,) = domain.check_player_names([name])
    if not club.roster.filter(pk=player.pk).exists():
        raise InputError("not_on_roster", f"{player.name} is not on {club.name}'s roster.")
    home = home_club(player)
    if home is not None and home != club:
        raise Conflict(
            "plays_elsewhere",
            f"{player.name} plays for {home.name} (on its roster first), so its directors "
            "rename them.",
        )
    taken = Player.objects.filter(name_key=name_key(name), from_record=False).exclude(pk=player.pk)
    if taken.exists():
        raise Conflict("name_taken", f"Another player is known as {name} already.")
    return name


def do_rename_player(player: Player, name: str) -> Player:
    """Give a player the new name ``check_player_rename`` gave, kept everywhere they appear (a
    new spelling, a married name); another player given it meanwhile is still refused."""
    try:
        with transaction.atomic():
            player = Player.objects.select_for_update().get(pk=player.pk)
            player.name = name
            player.save(update_fields=["name", "name_key"])
    except IntegrityError:
        raise Conflict("name_taken", f"Another player is known as {name} already.") from None
    return player


def members_to_direct(club: Club) -> list[Player]:
    """The roster players with an account who don't direct the club yet: those a director
    may invite to direct it."""
    players = club.roster.filter(user__isnull=False).select_related("user").order_by("name")
    directing = set(club.directors.values_list("pk", flat=True))
    return [p for p in players if p.user_id not in directing]


def do_invite_director(
    club: Club, user: AbstractBaseUser, by: AbstractBaseUser
) -> DirectorInvitation:
    """Invite ``user``, a member of the club (the account of a player on its roster), to direct
    it too: the account directs the club once its holder accepts (``do_accept_director``).
    Inviting again keeps the invitation there is."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if directs(user, club):
            raise Conflict(
                "director_already", f"{user.get_username()} directs {club.name} already."
            )
        if not club.roster.filter(user=user.pk).exists():
            raise InputError(
                "not_member",
                f"Only a member of {club.name} (the account of a player on its roster) can be "
                "invited to direct it.",
            )
        invitation, _ = DirectorInvitation.objects.get_or_create(
            club=club, user=user, defaults={"invited_by": by}
        )
    return invitation


def director_invitations_for(user: AbstractBaseUser) -> list[DirectorInvitation]:
    """The invitations to direct a club waiting for ``user``."""
    waiting = DirectorInvitation.objects.filter(user=user.pk).select_related("club", "invited_by")
    return list(waiting.order_by("pk"))


def do_accept_director(invitation: DirectorInvitation, user: AbstractBaseUser) -> Club:
    """``user``, the invited account, accepts: it directs the club from now on (under the
    club's lock; the invitation is gone). Refused when the account is no longer a member."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=invitation.club_id)
        if not DirectorInvitation.objects.filter(pk=invitation.pk, user=user.pk).exists():
            raise Conflict("no_invitation", "That invitation was withdrawn or answered.")
        DirectorInvitation.objects.filter(pk=invitation.pk).delete()
        if not club.roster.filter(user=user.pk).exists():
            raise Conflict(
                "not_member",
                f"That invitation no longer holds: you are no longer a member of {club.name}.",
            )
        club.directors.add(user)  # type: ignore[arg-type]
    return club


def do_decline_director(invitation: DirectorInvitation) -> None:
    invitation.delete()


def do_step_down(club: Club, user: AbstractBaseUser) -> Club:
    """``user`` stops directing the club, while another director remains (under the club's
    lock, so two directors stepping down at once leave one)."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if not directs(user, club):
            raise Conflict("not_director", f"{user.get_username()} doesn't direct {club.name}.")
        if club.directors.count() < 2:
            raise Conflict(
                "last_director",
                f"You are {club.name}'s only director: make another member a director first.",
            )
        club.directors.remove(user)  # type: ignore[arg-type]
    return club
