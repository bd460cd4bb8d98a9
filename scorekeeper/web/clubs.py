"""Club pages: the list of clubs, making one, a club's page (roster, standings, recent games),
its directors' roster management, and declaring a club game void.

Views are thin, as everywhere: check who is asking, read the input, change one thing (a void
goes through ``scorekeeper.games.domain`` like every change to a game), redirect after a POST.
Anyone may read a club's page; only its directors change its roster or void its games, and
only the directors of the club a player plays for invite an account to be that player, make
one, or link their own account to them (``scorekeeper.clubs.membership`` keeps those rules).
Taking a player off the roster asks first, on a page of its own (no script needed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.clubs import membership
from scorekeeper.clubs.access import NotDirector, access_club_as_director, viewer_directs
from scorekeeper.games import domain
from scorekeeper.games.turn_kinds import kind_of
from scorekeeper.http.limits import limited
from scorekeeper.http.refusals import REFUSALS, message_of
from scorekeeper.models import NAME_MAX, Club, Player, Seat, clubs_of, name_problem
from scorekeeper.stats.standings import club_standings
from scorekeeper.web.forms import ClubForm
from scorekeeper.web.invitations import waiting

RECENT_GAMES = 20
# A password a director just made for a player, shown once on the next view of the club page
# (kept in the server-side session, never in a cookie or a message).
NEW_ACCOUNT = "club_new_account"
USERNAME_MAX = 150  # Django's username field


def get_club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("There is no club with that name.")
    return club


def refuse(request: HttpRequest, club: Club, what: str) -> HttpResponse:
    """403, naming what was refused and why."""
    message = f"Only a director of {club.name} can {what}."
    context = {"club": club, "message": message}
    return render(request, "clubs/forbidden.html", context, status=403)


# The list, and making a club -------------------------------------------------------------------
@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.annotate(players=Count("roster", distinct=True)).order_by("name")
    context = {"clubs": clubs, "invitations_waiting": waiting(request.user)}
    response = render(request, "clubs/club_list.html", context)
    if request.user.is_authenticated:  # this account's invitations
        patch_cache_control(response, private=True, no_store=True)
    return response


@login_required
@require_http_methods(["GET", "POST"])
@limited("accounts")
def new_club(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        assert isinstance(user, AbstractBaseUser)
        try:
            club = membership.do_create_club(form.cleaned_data["name"], user)
        except REFUSALS as error:
            form.add_error("name", message_of(error))
        else:
            messages.success(request, f"{club.name} is made, and you are its director.")
            return redirect("club", slug=club.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "clubs/new_club.html", {"form": form}, status=status)


# A club's page ---------------------------------------------------------------------------------
@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_club(slug)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
    games = club.games.prefetch_related(seats).order_by("-created_at")[:RECENT_GAMES]
    made = request.session.pop(NEW_ACCOUNT, None) if NEW_ACCOUNT in request.session else None
    context: dict[str, Any] = {
        "new_account": made if made and made.get("club") == club.pk else None,
        "club": club,
        "roster": roster_lines(club, request.user),
        "directors": club.directors.order_by("username"),
        "director": viewer_directs(request.user, club),
        "member": clubs_of(request.user).filter(pk=club.pk).exists(),
        "tables": club_standings(club),
        "games": games,
        "tournaments": club.tournaments.filter(archived=False)[:RECENT_GAMES],
    }
    response = render(request, "clubs/club.html", context)
    if request.user.is_authenticated:  # a director's page (a new password, once): kept nowhere
        patch_cache_control(response, private=True, no_store=True)
    return response


@dataclass(frozen=True)
class RosterLine:
    """A roster player as the club page shows them (the account parts to directors only)."""

    player: Player
    state: str  # "account ann-k3x9", "invited ann, no answer yet", "plays for Hilltop" ...
    can_invite: bool  # this club plays them and they have no account: invite one
    can_make: bool  # ... and have played nowhere else: make one for them
    can_unlink: bool  # this club plays them, and they have an account or an invitation
    invited: bool
    can_be_me: bool  # the director asking is no player yet and could link their account here


def roster_lines(club: Club, viewer: AbstractBaseUser | AnonymousUser) -> list[RosterLine]:
    """The roster, each player with what this club's directors may do about their account;
    ``viewer``, a director of the club who is no player yet, may say "This is me".

    A player's account is named only to the directors of the club they play for."""
    players = list(club.roster.select_related("user").order_by("name"))
    director = isinstance(viewer, AbstractBaseUser) and viewer_directs(viewer, club)
    me_free = (
        isinstance(viewer, AbstractBaseUser) and director and not membership.own_player(viewer)
    )
    homes = membership.home_clubs(players)
    elsewhere = membership.played_elsewhere(players, club) if director else set()
    names = dict(Club.objects.filter(pk__in=set(homes.values())).values_list("pk", "name"))
    invited = dict(club.invitations.values_list("player_id", "username"))
    lines = []
    for player in players:
        home = homes.get(player.pk)
        plays_here = home == club.pk
        username = invited.get(player.pk, "")
        if not plays_here:
            linked = ", has an account" if player.user else ""
            state = f"plays for {names.get(home or 0, 'another club')}{linked}"
        elif player.user:
            state = f"account {player.user.get_username()}"
        elif username:
            state = f"invited {username}, no answer yet"
        else:
            state = "no account"
        lines.append(
            RosterLine(
                player=player,
                state=state,
                can_invite=plays_here and player.user is None,
                can_make=plays_here and player.user is None and player.pk not in elsewhere,
                can_unlink=plays_here and (player.user is not None or bool(username)),
                invited=bool(username),
                can_be_me=me_free
                and plays_here
                and player.user is None
                and player.pk not in elsewhere,
            )
        )
    return lines


# The roster ------------------------------------------------------------------------------------
# Changes that choose a player's account: only the directors of the club the player plays for.
ACCOUNT_CHANGES = ("invite", "unlink", "account", "me")


@require_POST
@limited("accounts", when=lambda request: request.POST.get("change") == "account")
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """A director adds a player (by name: the known player of that name, else a new one) or
    takes one off; for a player who plays for this club, invites an account to be them (by
    username), unlinks their account (or withdraws the invitation), makes an account for
    them (its password shown once), or links the director's own account to them ("me").
    Taking a player off needs ``confirm=yes``; without it the question is asked first."""
    try:
        club = access_club_as_director(request.user, get_club(slug))
    except NotDirector as refused:
        return refuse(request, refused.club, "change its roster")
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    change = request.POST.get("change", "")
    if change == "add":
        _add(request, club, request.POST.get("name", ""))
        return redirect("club", slug=club.slug)
    if change != "remove" and change not in ACCOUNT_CHANGES:
        messages.error(request, "Say what to change: add, remove, invite, unlink, account or me.")
        return redirect("club", slug=club.slug)
    number = number_of(request.POST.get("player"))
    player = club.roster.filter(pk=number).first() if number is not None else None
    if player is None:
        messages.error(request, f"That player is not on {club.name}'s roster.")
    elif change == "remove" and request.POST.get("confirm") != "yes":
        context = {"club": club, "player": player}
        return render(request, "clubs/remove.html", context)
    elif change == "remove":
        club.roster.remove(player)
        membership.withdraw(club, player)
        messages.success(request, f"{player.name} is off {club.name}'s roster.")
    elif (home := membership.home_club(player)) is not None and home != club:
        # A throwaway club that puts a player on its roster too must not choose who they are.
        messages.error(
            request,
            f"Not changed: {player.name} plays for {home.name} (on its roster first), so its "
            f"directors choose {player.name}'s account, or the site's administrator in the admin.",
        )
    elif change == "invite":
        _invite(request, club, player, request.POST.get("username", "").strip(), user)
    elif change == "unlink":
        _unlink(request, club, player)
    elif change == "me":
        _link_me(request, club, player, user)
    else:
        _make_account(request, club, player)
    return redirect("club", slug=club.slug)


def number_of(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 12 else None


def _add(request: HttpRequest, club: Club, raw: str) -> None:
    name = " ".join(raw.split())
    problem = name_problem(raw)
    if not name or problem or len(name) > NAME_MAX:
        reason = problem or f"A player's name has 1 to {NAME_MAX} characters."
        messages.error(request, f"Not added. {reason}")
        return
    player = domain.known_player(name)
    if player is None:
        player = domain.player_named(name)
    if club.roster.filter(pk=player.pk).exists():
        messages.info(request, f"{player.name} is already on {club.name}'s roster.")
        return
    by = request.user if isinstance(request.user, AbstractBaseUser) else None
    try:
        membership.do_put_on_roster(club, player, by, or_new_entrant=False)
    except membership.NotOnRoster as refused:
        messages.error(
            request,
            f"Not added: {refused.message} The site's administrator can add them (in the "
            f'admin), or enter them under a name of their own ("{player.name} (2)").',
        )
        return
    if player.user is not None:
        messages.success(
            request,
            f"{player.name} is on {club.name}'s roster, with the account "
            f"{player.user.get_username()}, now a member.",
        )
        return
    messages.success(request, f"{player.name} is on {club.name}'s roster.")


def _invite(
    request: HttpRequest, club: Club, player: Player, username: str, by: AbstractBaseUser
) -> None:
    """Invite an account to be ``player``. The answer is the same whether an account of that
    name exists, is already another player, or is not there at all."""
    if not username:
        messages.error(request, "Not invited: give the username of the account to invite.")
        return
    try:
        get_user_model().username_validator(username)
    except ValidationError:
        messages.error(request, "Not invited: a username is letters, digits and @ . + - _ only.")
        return
    if len(username) > USERNAME_MAX:
        messages.error(request, f"Not invited: a username has at most {USERNAME_MAX} characters.")
        return
    if player.user is not None:
        messages.error(
            request,
            f"Not invited: {player.name} is already linked to an account; unlink it first.",
        )
        return
    try:
        membership.invite(club, player, username, by)
    except membership.NotLinked as refused:
        messages.error(request, f"Not invited. {refused.message}")
        return
    messages.success(
        request,
        f"If an account called {username} exists, it has been invited to be {player.name}; "
        f"{player.name} is linked to it when its holder accepts.",
    )


def _unlink(request: HttpRequest, club: Club, player: Player) -> None:
    withdrawn = membership.withdraw(club, player)
    if player.user is not None:
        player.user = None
        player.save(update_fields=["user"])
        messages.success(request, f"{player.name} is linked to no account now.")
    elif withdrawn:
        messages.success(request, f"The invitation to be {player.name} is withdrawn.")
    else:
        messages.info(request, f"{player.name} has no account and no invitation: nothing changed.")


def _link_me(request: HttpRequest, club: Club, player: Player, user: AbstractBaseUser) -> None:
    try:
        membership.link_own_account(club, player, user)
    except membership.NotLinked as refused:
        messages.error(request, f"Not linked. {refused.message}")
        return
    messages.success(request, f"You are {player.name} now: your account is linked to them.")


def _make_account(request: HttpRequest, club: Club, player: Player) -> None:
    """An account for ``player``, its username made from their name (never chosen by the
    director, so no answer tells which usernames are taken), its password shown once."""
    if player.user is not None:
        messages.error(request, f"Not made: {player.name} already has an account.")
        return
    try:
        made = membership.make_account(club, player)
    except membership.NotLinked as refused:
        messages.error(request, f"Not made. {refused.message}")
        return
    request.session[NEW_ACCOUNT] = {
        "club": club.pk, "player": player.name, "username": made.username,
        "password": made.password,
    }  # fmt: skip


# Void ------------------------------------------------------------------------------------------
@require_POST
def void_game(request: HttpRequest, game_id: Any) -> HttpResponse:
    """A director of the game's club declares it void (with a reason, confirmed), or undoes
    the void (``undo``). Both go through the domain, which checks the director again."""
    game = domain.fetch_game(game_id)
    page = reverse("game", args=[game.pk])
    club = game.club
    if club is None:
        messages.error(request, "Not voided: a casual game can't be declared void.")
        return redirect(page)
    try:
        access_club_as_director(request.user, club)
    except NotDirector:
        return refuse(request, club, "declare its games void")
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    by = f"director: {user.get_username()}"
    undo = request.POST.get("undo") == "yes"
    if not undo and request.POST.get("confirm") != "yes":
        messages.error(request, "Not voided: tick the box to say you mean it.")
        return redirect(page)
    try:
        if undo:
            last = game.turns.effective().last()
            if last is None or not kind_of(last).voids:
                messages.error(request, "This game is not void: there is nothing to undo.")
                return redirect(page)
            domain.act(game.pk, domain.TurnCommand("undo", by=by, director=user))
        else:
            reason = request.POST.get("reason", "").strip()[:500]
            domain.act(game.pk, domain.TurnCommand("void", by=by, note=reason, director=user))
    except REFUSALS as error:
        messages.error(request, f"Not {'undone' if undo else 'voided'}. {message_of(error)}")
        return redirect(page)
    game.refresh_from_db()
    if undo:
        messages.success(request, f"The void is undone: the game is {game.get_status_display()}.")
    else:
        messages.success(request, "The game is void: it counts in no standings. Undo reopens it.")
    return redirect(page)
