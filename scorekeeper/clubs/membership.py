"""Who a player is: the rules and the writes that tie a roster player to an account.

An account linked to a player is a member of every club whose roster has that player, so a
link is made only with the consent of the account's holder: a director *invites* a username
and the player is linked when the account's holder accepts. Nothing here answers differently
for a username that exists and one that does not.

A player *plays for* the club whose roster they have been on longest (the first club, of those
that have them now, to put them on its roster): only its directors invite an account for them
or make one, so putting a player on another roster never takes them from their own club.
A director links *their own* account to a player of their club who has none ("This is me"):
no invitation, since the consent asked for is their own. A player who has played outside the
club (a casual game, another club's) has a past no one club's director may take alone, so a
director neither says "This is me" for them, nor makes them an account, nor invites their own
account to be them: the player is linked when the holder of an account someone else chose,
or a fellow director invited, accepts. Staff link anyone directly in the admin.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.text import slugify

from referee import InputError
from scorekeeper.clubs.access import directs as directs
from scorekeeper.clubs.access import viewer_directs
from scorekeeper.games.domain import player_named
from scorekeeper.games.errors import Conflict
from scorekeeper.models import NAME_MAX, Club, Game, Invitation, Player, Seat, name_problem

# A made account's username: a stem from the player's name and a random tail that never
# depends on which usernames are taken (a director learns nothing from the name they get).
USERNAME_TAIL = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o or 1/l to misread
TAIL_LENGTH = 4
STEM_MAX = 30


class NotAccepted(Exception):
    """An invitation that can't be accepted, with the sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotLinked(Exception):
    """A director's own account that can't be linked to a player, with the sentence saying why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def speaks_for(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """Whether ``user`` may put a game (an imported record) on ``player``'s record: the
    player's own account, or a director of a club whose roster has them, who can start that
    club's games for them already."""
    if not user.is_authenticated:
        return False
    if player.user_id is not None and player.user_id == user.pk:
        return True
    return Club.objects.filter(roster=player, directors=user.pk).exists()


class NotOnRoster(Exception):
    """A player who can't go on a club's roster, with the sentence that says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def roster_refusal(club: Club, player: Player, by: AbstractBaseUser | None) -> str | None:
    """Why ``by``, a director of ``club``, may not put ``player`` on its roster, or None.

    The one consent rule for a roster, whatever the door (the roster form, an event's entries
    from the form, the API or a ``.t`` file, late entries): a player linked to an account
    brings that account into the club as a member, so they join only with the account's
    consent: it is ``by``'s own, or ``by`` directs every club the account is a member of
    through them already (so no new club can follow them). Staff add anyone in the admin."""
    if player.user_id is None or club.roster.filter(pk=player.pk).exists():
        return None
    if by is not None and player.user_id == by.pk:
        return None
    others = player.clubs.exclude(directors=by.pk if by is not None else None).order_by("name")
    if by is not None and player.clubs.exists() and not others.exists():
        return None
    where = (
        f"through {', '.join(c.name for c in others)}, which you don't direct"
        if others
        else "by no club"
    )
    return (
        f"{player.name} is linked to an account {where}, and the account would become a member "
        f"of {club.name} without its holder's consent."
    )


@dataclass(frozen=True)
class RosterPlace:
    """A player on a club's roster: ``instead_of`` is the linked player of the name asked for,
    whom this one (an unlinked player of a distinguishing name) is not."""

    player: Player
    instead_of: Player | None = None


DISTINGUISHING_TRIES = 50


def do_put_on_roster(
    club: Club, player: Player, by: AbstractBaseUser | None, *, or_new_entrant: bool
) -> RosterPlace:
    """Put ``player`` on ``club``'s roster at ``by``'s hand, as ``roster_refusal`` allows.
    Refused, raise ``NotOnRoster`` naming why; or, when ``or_new_entrant`` (an event's
    entries), put a new unlinked player on it instead, of the same name with a number after
    it ("Ann Archer (2)"): the event has its entrant, and the linked player's record and
    account are left alone. Every door that puts a player on a roster calls this."""
    problem = roster_refusal(club, player, by)
    if problem is None:
        club.roster.add(player)
        return RosterPlace(player)
    if not or_new_entrant:
        raise NotOnRoster(problem)
    stem = player.name[: NAME_MAX - len(f" ({DISTINGUISHING_TRIES})")].rstrip()
    for number in range(2, DISTINGUISHING_TRIES + 1):
        other = player_named(f"{stem} ({number})")
        if roster_refusal(club, other, by) is None:
            club.roster.add(other)
            return RosterPlace(other, instead_of=player)
    raise NotOnRoster(problem)


def voidable(game: Game, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether the game page offers ``user`` the director's void (or its undo)."""
    return game.club is not None and viewer_directs(user, game.club)


def random_password() -> str:
    """A password for a made account, shown once to whoever made it."""
    return secrets.token_urlsafe(12)


def home_clubs(players: Iterable[Player]) -> dict[int, int]:
    """The club each player plays for, by player id: the first roster they are on still.

    The roster's rows are numbered as they are made (an auto-increment key, never reused),
    so the lowest row of a player is their oldest place on a roster."""
    entries = Club.roster.through.objects.filter(player_id__in=[p.pk for p in players])
    first: dict[int, int] = {}
    for player_id, club_id in entries.order_by("pk").values_list("player_id", "club_id"):
        first.setdefault(player_id, club_id)
    return first


def home_club(player: Player) -> Club | None:
    """The club ``player`` plays for, or None for a player on no roster."""
    club_id = home_clubs([player]).get(player.pk)
    return Club.objects.filter(pk=club_id).first() if club_id is not None else None


def played_elsewhere(players: Iterable[Player], club: Club) -> set[int]:
    """The ids of ``players`` who have played a game that is not ``club``'s: a casual game, or
    another club's."""
    seats = Seat.objects.filter(player_id__in=[p.pk for p in players]).exclude(game__club=club)
    return set(seats.values_list("player_id", flat=True).distinct())


def _own_claim_refused(club: Club, player: Player) -> None:
    """Raise ``NotLinked`` when ``player`` has a past outside ``club``, which its director may
    not take alone ("This is me", a made account, an invitation to their own account)."""
    if played_elsewhere([player], club):
        raise NotLinked(
            f"{player.name} has played outside {club.name}, so no director links them alone: "
            f"{player.name} accepts an invitation to their own account (another director of "
            f"{club.name} may invite yours), or the site's administrator links them."
        )


def invite(club: Club, player: Player, username: str, by: AbstractBaseUser) -> Invitation:
    """Invite the account called ``username`` to be ``player`` (replacing the club's last
    invitation for them); raise ``NotLinked`` when it is the inviting director's own and the
    player has played outside the club. The caller has checked that ``club`` is the player's
    home club."""
    if username == by.get_username():
        _own_claim_refused(club, player)
    invitation, _ = Invitation.objects.update_or_create(
        club=club, player=player, defaults={"username": username, "invited_by": by}
    )
    return invitation


def withdraw(club: Club, player: Player) -> bool:
    """Withdraw the club's invitation for ``player``; whether there was one."""
    deleted, _ = Invitation.objects.filter(club=club, player=player).delete()
    return deleted > 0


@dataclass(frozen=True)
class NewAccount:
    username: str
    password: str


def new_username(name: str) -> str:
    """A free username for the player called ``name``: ``ann-k3x9``.

    The tail is random, so the name says nothing of the usernames already taken."""
    stem = slugify(name)[:STEM_MAX].strip("-") or "player"
    User = get_user_model()
    attempt = 0
    while True:
        length = TAIL_LENGTH + attempt // 10  # a longer tail, should a stem ever fill up
        tail = "".join(secrets.choice(USERNAME_TAIL) for _ in range(length))
        username = f"{stem}-{tail}"
        if not User.objects.filter(username=username).exists():
            return username
        attempt += 1


def make_account(club: Club, player: Player) -> NewAccount:
    """Make an account for ``player`` (who has none) and link it: a director of ``club`` hands
    its one-time password to the player. Raise ``NotLinked`` when the player has played outside
    the club: the director would hold the account of someone else's past. The caller has
    checked that the player plays for ``club``."""
    _own_claim_refused(club, player)
    User = get_user_model()
    with transaction.atomic():
        username, password = new_username(player.name), random_password()
        player.user = User.objects.create_user(username, password=password)
        player.save(update_fields=["user"])
        Invitation.objects.filter(player=player).delete()
    return NewAccount(username, password)


def link_own_account(club: Club, player: Player, user: AbstractBaseUser) -> Player:
    """Link ``user``, a director of ``club``, to ``player``: "This is me". The account is the
    director's own, so no invitation is asked for; raise ``NotLinked``, naming why, when the
    player has an account, plays for another club or has played outside this one, or the
    account is already another player.

    Under the player's row lock, then the account's, like ``accept``, so neither an answer to
    an invitation nor another "This is me" can link the player, or the account, a second time.
    The caller has checked that ``user`` directs ``club``."""
    try:
        with transaction.atomic():
            player = Player.objects.select_for_update().get(pk=player.pk)
            if player.user_id == user.pk:
                raise NotLinked(f"You are {player.name} already.")
            if player.user_id is not None:
                raise NotLinked(f"{player.name} is linked to another account.")
            if home_clubs([player]).get(player.pk) != club.pk:
                raise NotLinked(f"{player.name} doesn't play for {club.name}.")
            _own_claim_refused(club, player)
            _lock_account(user)
            other = own_player(user)
            if other is not None:
                raise NotLinked(_one_player(other, own=True))
            player.user_id = user.pk
            player.save(update_fields=["user"])
            Invitation.objects.filter(player=player).delete()
            return player
    except IntegrityError:
        raise NotLinked(_one_player(own_player(user), own=True)) from None


def own_player(user: AbstractBaseUser) -> Player | None:
    """The player ``user``'s account is, if any."""
    return Player.objects.filter(user_id=user.pk).first()


def invitations_for(user: AbstractBaseUser) -> list[Invitation]:
    """The invitations waiting for ``user``, with the clubs whose roster has each player."""
    waiting = Invitation.objects.filter(username=user.get_username())
    return list(
        waiting.select_related("club", "player").prefetch_related("player__clubs").order_by("pk")
    )


def accept(invitation: Invitation, user: AbstractBaseUser) -> Player:
    """Link the invited player to ``user``, the invitation's account; raise ``NotAccepted``,
    naming why, when the account is already another player, or when the invitation no longer
    holds (then it is gone).

    Under the player's row lock, so two answers for one player can't both link it, then the
    account's, so two answers from one account can't both be taken (the database's
    ``one_player_per_account`` stands behind it)."""
    try:
        with transaction.atomic():
            player = Player.objects.select_for_update().get(pk=invitation.player_id)
            if not Invitation.objects.filter(pk=invitation.pk).exists():
                raise NotAccepted("That invitation was withdrawn.")
            stale = _no_longer_holds(invitation, player, user)
            if stale is None:
                _lock_account(user)
                other = Player.objects.filter(user_id=user.pk).exclude(pk=player.pk).first()
                if other is not None:
                    raise NotAccepted(_one_player(other))
                player.user_id = user.pk
                player.save(update_fields=["user"])
                Invitation.objects.filter(player=player).delete()
                return player
    except IntegrityError:
        raise NotAccepted(_one_player(own_player(user))) from None
    Invitation.objects.filter(pk=invitation.pk).delete()
    raise NotAccepted(f"That invitation no longer holds: {stale}")


def _lock_account(user: AbstractBaseUser) -> None:
    """Hold ``user``'s row until the transaction ends: whoever links it next waits, then sees
    the player it is now."""
    list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


def _one_player(other: Player | None, own: bool = False) -> str:
    """The refusal of an account that is another player already (``own``: to "This is me")."""
    who = other.name if other is not None else "another player"
    said = f"Your account is already {who}, and an account is one player."
    if own:
        return said
    return f"{said} Decline this invitation, or ask the site's administrator to join the two."


def _no_longer_holds(invitation: Invitation, player: Player, user: AbstractBaseUser) -> str | None:
    """Why an invitation can't be accepted by anyone any more, or None."""
    if player.user_id is not None and player.user_id != user.pk:
        return f"{player.name} is linked to another account now."
    if home_clubs([player]).get(player.pk) != invitation.club_id:
        return f"{player.name} no longer plays for {invitation.club.name}."
    return None


def decline(invitation: Invitation) -> None:
    invitation.delete()


# Addresses a club's slug can't take: /clubs/new and /clubs/invitations are pages.
RESERVED_SLUGS = frozenset({"new", "invitations"})
CLUB_NAME_MAX = 80


def check_club_name_free(name: str, besides: Club | None = None) -> None:
    """Refuse a club name that another club has, or whose address (slug) another club has:
    one club can't pass for another, when made or renamed."""
    others = Club.objects.exclude(pk=besides.pk) if besides is not None else Club.objects.all()
    if others.filter(Q(name__iexact=name) | Q(slug=slugify(name)[:80])).exists():
        raise Conflict("club_exists", f"There is already a club called {name} (or close to it).")


def do_create_club(name: str, director: AbstractBaseUser) -> Club:
    """A new club, with ``director`` as its director; its slug from its name."""
    name = " ".join(str(name).split())
    problem = name_problem(name) if name else "Give the club a name."
    if problem or len(name) > CLUB_NAME_MAX:
        raise InputError(
            "bad_name", problem or f"A club's name has at most {CLUB_NAME_MAX} characters."
        )
    slug = slugify(name)[:80]
    if not slug or slug in RESERVED_SLUGS:
        raise InputError("bad_name", "Give the club a name with some letters or digits in it.")
    check_club_name_free(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug)
            club.directors.add(director)  # type: ignore[arg-type]
    except IntegrityError:
        raise Conflict(
            "club_exists", f"There is already a club called {name} (or close to it)."
        ) from None
    return club
