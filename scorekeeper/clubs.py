"""Club pages: the list of clubs, making one, a club's page (roster, standings, recent games),
its directors' roster management, and declaring a club game void.

Views are thin, as everywhere: check who is asking, read the input, change one thing (a void
goes through ``scorekeeper.domain`` like every change to a game), redirect after a POST.
Anyone may read a club's page; only its directors change its roster or void its games.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import domain
from scorekeeper.club_standings import club_standings
from scorekeeper.errors import REFUSALS, message_of
from scorekeeper.forms import ClubForm
from scorekeeper.management.commands.account import random_password
from scorekeeper.models import NAME_MAX, Club, Game, Player, Seat, name_key, name_problem
from scorekeeper.scorer_link import get_game

RECENT_GAMES = 20
# A password a director just made for a player, shown once on the next view of the club page
# (kept in the server-side session, never in a cookie or a message).
NEW_ACCOUNT = "club_new_account"
RESERVED_SLUGS = {"new"}  # /clubs/new is the page that makes a club


def get_club(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("There is no club with that name.")
    return club


def directs(user: AbstractBaseUser | AnonymousUser, club: Club) -> bool:
    return bool(user.is_authenticated and club.directors.filter(pk=user.pk).exists())


def _refuse(request: HttpRequest, club: Club, what: str) -> HttpResponse:
    """403, naming what was refused and why."""
    message = f"Only a director of {club.name} can {what}."
    context = {"club": club, "message": message}
    return render(request, "clubs/forbidden.html", context, status=403)


# The list, and making a club -------------------------------------------------------------------
@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.annotate(players=Count("roster", distinct=True)).order_by("name")
    return render(request, "clubs/club_list.html", {"clubs": clubs})


@login_required
@require_http_methods(["GET", "POST"])
def new_club(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data["name"]
        slug = slugify(name)[:80]
        if not slug or slug in RESERVED_SLUGS:
            form.add_error("name", "Give the club a name with some letters or digits in it.")
        else:
            try:
                with transaction.atomic():
                    club = Club.objects.create(name=name, slug=slug)
                    club.directors.add(request.user)  # type: ignore[arg-type]
            except IntegrityError:
                form.add_error("name", f"There is already a club called {name} (or close to it).")
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
        "roster": club.roster.select_related("user").order_by("name"),
        "directors": club.directors.order_by("username"),
        "director": directs(request.user, club),
        "tables": club_standings(club),
        "games": games,
    }
    response = render(request, "clubs/club.html", context)
    if request.user.is_authenticated:  # a director's page (a new password, once): kept nowhere
        patch_cache_control(response, private=True, no_store=True)
    return response


# The roster ------------------------------------------------------------------------------------
@require_POST
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """A director adds a player (by name: the known player of that name, else a new one),
    takes one off, links one to an account (by username; empty to unlink), or makes an
    account for one (its password shown once)."""
    club = get_club(slug)
    if not directs(request.user, club):
        return _refuse(request, club, "change its roster")
    change = request.POST.get("change", "")
    if change == "add":
        _add(request, club, request.POST.get("name", ""))
    elif change in ("remove", "link", "account"):
        number = _number(request.POST.get("player"))
        player = club.roster.filter(pk=number).first() if number is not None else None
        if player is None:
            messages.error(request, f"That player is not on {club.name}'s roster.")
        elif change == "remove":
            club.roster.remove(player)
            messages.success(request, f"{player.name} is off {club.name}'s roster.")
        elif (elsewhere := _other_clubs(player, request.user)) and change != "remove":
            # A player's account makes its holder a member of every club the player is on: only
            # someone who directs all of them may choose that account.
            messages.error(
                request,
                f"Not changed: {player.name} is also on {elsewhere}'s roster, which you don't "
                "direct. The site's administrator can link them (in the admin).",
            )
        elif change == "link":
            _link(request, player, request.POST.get("username", "").strip())
        else:
            _make_account(request, club, player, request.POST.get("username", "").strip())
    else:
        messages.error(request, "Say what to change: add, remove or link a player.")
    return redirect("club", slug=club.slug)


def _other_clubs(player: Player, user: AbstractBaseUser | AnonymousUser) -> str:
    """The other clubs whose roster has ``player`` and which ``user`` does not direct."""
    others = player.clubs.exclude(directors=user.pk).order_by("name")
    return ", ".join(c.name for c in others)


def _number(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 12 else None


def _add(request: HttpRequest, club: Club, raw: str) -> None:
    name = " ".join(raw.split())
    problem = name_problem(raw)
    if not name or problem or len(name) > NAME_MAX:
        reason = problem or f"A player's name has 1 to {NAME_MAX} characters."
        messages.error(request, f"Not added. {reason}")
        return
    player = Player.objects.filter(name_key=name_key(name)).first()
    if player is None:
        player = domain.player_named(name)
    if club.roster.filter(pk=player.pk).exists():
        messages.info(request, f"{player.name} is already on {club.name}'s roster.")
        return
    if player.user is not None:
        # A linked player brings their account into the club as a member. Only someone who
        # vouched for that link (directs every club the player is on) may bring it in;
        # otherwise a made-up club could link a known player to any account first.
        elsewhere = _other_clubs(player, request.user)
        if elsewhere or not player.clubs.exists():
            where = f"through {elsewhere}, which you don't direct" if elsewhere else "by no club"
            messages.error(
                request,
                f"Not added: {player.name} is linked to an account {where}, and the account "
                f"would become a member of {club.name}. The site's administrator can add them "
                "(in the admin).",
            )
            return
        club.roster.add(player)
        messages.success(
            request,
            f"{player.name} is on {club.name}'s roster, with the account "
            f"{player.user.get_username()}, now a member.",
        )
        return
    club.roster.add(player)
    messages.success(request, f"{player.name} is on {club.name}'s roster.")


def _link(request: HttpRequest, player: Player, username: str) -> None:
    if not username:
        player.user = None
        player.save(update_fields=["user"])
        messages.success(request, f"{player.name} is linked to no account now.")
        return
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        messages.error(request, f"Not linked: there is no account called {username}.")
        return
    taken = Player.objects.filter(user=user).exclude(pk=player.pk).first()
    if taken is not None:
        messages.error(request, f"Not linked: {username} is already {taken.name}.")
        return
    player.user = user
    player.save(update_fields=["user"])
    messages.success(request, f"{player.name} is linked to the account {username}.")


def _make_account(request: HttpRequest, club: Club, player: Player, username: str) -> None:
    if player.user is not None:
        messages.error(request, f"Not made: {player.name} already has an account.")
        return
    if not username:
        messages.error(request, "Not made: give the account a username.")
        return
    User = get_user_model()
    try:
        User.username_validator(username)
    except ValidationError:
        messages.error(request, "Not made: a username is letters, digits and @ . + - _ only.")
        return
    if len(username) > 150 or User.objects.filter(username=username).exists():
        messages.error(request, f"Not made: choose another username than “{username}”.")
        return
    password = random_password()
    with transaction.atomic():
        player.user = User.objects.create_user(username, password=password)
        player.save(update_fields=["user"])
    request.session[NEW_ACCOUNT] = {
        "club": club.pk, "player": player.name, "username": username, "password": password,
    }  # fmt: skip


# Void ------------------------------------------------------------------------------------------
@require_POST
def void_game(request: HttpRequest, game_id: Any) -> HttpResponse:
    """A director of the game's club declares it void (with a reason, confirmed), or undoes
    the void (``undo``). Both go through the domain, which checks the director again."""
    game = get_game(game_id)
    page = reverse("game", args=[game.pk])
    club = game.club
    if club is None:
        messages.error(request, "Not voided: a casual game can't be declared void.")
        return redirect(page)
    if not directs(request.user, club):
        return _refuse(request, club, "declare its games void")
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
            if last is None or last.action != "void":
                messages.error(request, "This game is not void: there is nothing to undo.")
                return redirect(page)
            domain.act(game.pk, "undo", by=by, director=user)
        else:
            reason = request.POST.get("reason", "").strip()[:500]
            domain.act(game.pk, "void", by=by, note=reason, director=user)
    except REFUSALS as error:
        messages.error(request, f"Not {'undone' if undo else 'voided'}. {message_of(error)}")
        return redirect(page)
    game.refresh_from_db()
    if undo:
        messages.success(request, f"The void is undone: the game is {game.get_status_display()}.")
    else:
        messages.success(request, "The game is void: it counts in no standings. Undo reopens it.")
    return redirect(page)


def voidable(game: Game, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether the game page offers ``user`` the director's void (or its undo)."""
    return game.club is not None and directs(user, game.club)
