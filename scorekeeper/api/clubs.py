"""The API of a club's settings, as its settings page has them: read them, keep its usual
rules, rename it, rename a roster player, invite a member to direct it (and the invited
account's answer), step down.

A change is a director's (``director_of``: the session with CSRF, or the account's token,
then the one check of who directs, ``access_club_as_director``, which the tournaments' routes
ask too); reading is anyone's, as the club's page is. Each change calls one operation of
``scorekeeper.clubs.club_settings``.
"""

from __future__ import annotations

from typing import Any, Literal

from django.http import Http404, HttpRequest
from ninja import Field, Schema, Status

from scorekeeper.api.accounts import NotSignedIn, account_of
from scorekeeper.api.endpoints import READ, WRITE, ApiError, Text, answers, api
from scorekeeper.api.schemas import ClubSettingsOut, DirectorInvitationOut, RenamedOut
from scorekeeper.clubs import club_settings
from scorekeeper.clubs.access import NotDirector, access_club_as_director
from scorekeeper.models import Club, DirectorInvitation, name_key

DIRECTING = (401, 403, *WRITE)


def club_named(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404
    return club


def director_of(request: HttpRequest, club: Club) -> Any:
    """The account asking, a director of ``club``; else a 401 or 403 with its sentence."""
    try:
        user = account_of(request)
    except NotSignedIn as refused:
        raise ApiError(refused.status, refused.code, refused.message) from None
    try:
        access_club_as_director(user, club)
    except NotDirector as refused:
        raise ApiError(403, "not_director", str(refused)) from None
    return user


class ClubRulesIn(Schema):
    ruleset: str = Field("", examples=["upwords-10"], description="empty: none kept")
    lexicon: str = Field("", examples=["TWL06"], description="a lexicon id, 'honour', or empty")
    challenge_mode: Literal["", "auto", "manual"] = ""
    rejected_challenge: Literal["", "none", "lose_turn", "minus_5", "bonus_5", "bonus_10"] = ""
    clock: Any = Field(
        None,
        description="a clock as POST /api/games/ takes it, or null for none",
        examples=[{"kind": "player", "minutes": 25}],
    )


class ClubNameIn(Schema):
    name: Text = Field(..., max_length=80, examples=["Riverside Word Club"])


class PlayerNameIn(Schema):
    player: Text = Field(..., examples=["Ann Archer"], description="the roster player's name now")
    name: Text = Field(..., examples=["Ann Archer-Lee"], description="their new name")


class DirectorIn(Schema):
    player: Text = Field(
        ..., examples=["Ann Archer"], description="a roster player linked to an account"
    )


def settings_of(club: Club) -> ClubSettingsOut:
    rules = club_settings.rules_of(club)
    return {
        "slug": club.slug,
        "name": club.name,
        "directors": list(club.directors.order_by("username").values_list("username", flat=True)),
        "rules": {
            "ruleset": rules.ruleset,
            "lexicon": rules.lexicon,
            "challenge_mode": rules.challenge_mode,
            "rejected_challenge": rules.rejected_challenge,
            "clock": rules.clock,
        },
    }


def _roster_player(club: Club, name: str) -> Any:
    player = club.roster.filter(name_key=name_key(name)).select_related("user").first()
    if player is None:
        raise ApiError(422, "not_on_roster", f"{name} is not on {club.name}'s roster.")
    return player


@api.get(
    "/clubs/{slug}/settings",
    **answers(200, ClubSettingsOut, *READ, 404),
    summary="A club's name, directors and usual rules",
)
def read_settings(request: HttpRequest, slug: str) -> ClubSettingsOut:
    return settings_of(club_named(slug))


@api.put(
    "/clubs/{slug}/rules",
    **answers(200, ClubSettingsOut, *DIRECTING, 404),
    summary="Keep the club's usual rules, which pre-fill its new games and events",
)
def set_rules(request: HttpRequest, slug: str, payload: ClubRulesIn) -> ClubSettingsOut:
    club = club_named(slug)
    director_of(request, club)
    rules = club_settings.ClubRules(
        ruleset=payload.ruleset,
        lexicon=payload.lexicon,
        challenge_mode=payload.challenge_mode,
        rejected_challenge=payload.rejected_challenge,
        clock=payload.clock,
    )
    return settings_of(club_settings.do_set_rules(club, club_settings.check_rules(rules)))


@api.post(
    "/clubs/{slug}/name",
    **answers(200, ClubSettingsOut, *DIRECTING, 404),
    summary="Rename the club (its slug stays)",
)
def rename_club(request: HttpRequest, slug: str, payload: ClubNameIn) -> ClubSettingsOut:
    club = club_named(slug)
    director_of(request, club)
    name = club_settings.check_club_rename(club, payload.name)
    return settings_of(club_settings.do_rename_club(club, name))


@api.post(
    "/clubs/{slug}/players/rename",
    **answers(200, RenamedOut, *DIRECTING, 404),
    summary="Rename a player who plays for the club",
)
def rename_player(request: HttpRequest, slug: str, payload: PlayerNameIn) -> RenamedOut:
    club = club_named(slug)
    director_of(request, club)
    player = _roster_player(club, payload.player)
    was = player.name
    name = club_settings.check_player_rename(club, player, payload.name)
    renamed = club_settings.do_rename_player(player, name)
    return {"was": was, "name": renamed.name}


@api.post(
    "/clubs/{slug}/directors/",
    **answers(202, DirectorInvitationOut, *DIRECTING, 404),
    summary="Invite a member (a roster player's account) to direct the club",
)
def add_director(
    request: HttpRequest, slug: str, payload: DirectorIn
) -> Status[DirectorInvitationOut]:
    """The member directs the club once they accept (``POST
    /api/director-invitations/{id}/accept``, or their invitations page): 202, the invitation
    waiting. Inviting again answers the same invitation."""
    club = club_named(slug)
    user = director_of(request, club)
    player = _roster_player(club, payload.player)
    if player.user is None:
        raise ApiError(
            422,
            "not_member",
            f"{player.name} has no account: give them one to invite them to direct.",
        )
    return Status(202, _invitation(club_settings.do_invite_director(club, player.user, user)))


def _invitation(invitation: DirectorInvitation) -> DirectorInvitationOut:
    """An invitation waiting (its state "invited")."""
    by = invitation.invited_by
    return {
        "id": invitation.pk,
        "club": invitation.club.slug,
        "club_name": invitation.club.name,
        "username": invitation.user.get_username(),
        "invited_by": by.get_username() if by is not None else None,
        "state": "invited",
    }


def _signed_in(request: HttpRequest) -> Any:
    try:
        return account_of(request)
    except NotSignedIn as refused:
        raise ApiError(refused.status, refused.code, refused.message) from None


def _my_invitation(request: HttpRequest, invitation_id: int) -> tuple[Any, DirectorInvitation]:
    """The account asking and its invitation; someone else's is 404, as one not there."""
    user = _signed_in(request)
    invitation = (
        DirectorInvitation.objects.filter(pk=invitation_id, user=user.pk)
        .select_related("club", "user", "invited_by")
        .first()
    )
    if invitation is None:
        raise Http404
    return user, invitation


@api.get(
    "/director-invitations/",
    **answers(200, list[DirectorInvitationOut], 401, *READ),
    summary="The invitations to direct a club waiting for your account",
)
def director_invitations(request: HttpRequest) -> list[DirectorInvitationOut]:
    user = _signed_in(request)
    return [_invitation(i) for i in club_settings.director_invitations_for(user)]


@api.post(
    "/director-invitations/{invitation_id}/accept",
    **answers(200, ClubSettingsOut, 401, 403, *WRITE, 404),
    summary="Accept an invitation to direct a club: your account directs it from now on",
)
def accept_director(request: HttpRequest, invitation_id: int) -> ClubSettingsOut:
    user, invitation = _my_invitation(request, invitation_id)
    return settings_of(club_settings.do_accept_director(invitation, user))


@api.post(
    "/director-invitations/{invitation_id}/decline",
    **answers(200, DirectorInvitationOut, 401, 403, *WRITE, 404),
    summary="Decline an invitation to direct a club",
)
def decline_director(request: HttpRequest, invitation_id: int) -> DirectorInvitationOut:
    _, invitation = _my_invitation(request, invitation_id)
    answered = _invitation(invitation)
    club_settings.do_decline_director(invitation)
    return {**answered, "state": "declined"}


@api.post(
    "/clubs/{slug}/directors/step-down",
    **answers(200, ClubSettingsOut, *DIRECTING, 404),
    summary="Stop directing the club, while another director remains",
)
def step_down(request: HttpRequest, slug: str) -> ClubSettingsOut:
    club = club_named(slug)
    user = director_of(request, club)
    return settings_of(club_settings.do_step_down(club, user))
