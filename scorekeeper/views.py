"""The table: start a game, mirror the board, enter turns, settle challenges, follow along.

Views are thin: fetch (checking the scorer's secret), read the input, call one domain
operation, then redirect or render. Nothing here changes a game except through
``scorekeeper.domain``.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import DatabaseError, connection
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.views.decorators.http import condition, require_GET, require_POST

from referee.errors import InputError, RefereeError
from referee.game import draw_for_first
from referee.rulesets import RULESETS, get_ruleset
from scorekeeper import domain
from scorekeeper.actions import describe
from scorekeeper.analysis import best_play
from scorekeeper.domain import StaleTurn
from scorekeeper.errors import REFUSALS, message_of
from scorekeeper.forms import ImportForm, NewGameForm, ruleset_named
from scorekeeper.gcg_import import import_gcg
from scorekeeper.invitations import waiting
from scorekeeper.models import Game, Player, Seat, clubs_of
from scorekeeper.presenters import name_players, table_context
from scorekeeper.replay import turn_phrase, with_turns_played
from scorekeeper.resubmit import same_turn
from scorekeeper.scorer_link import get_game, hold, scorer_url, scorer_view
from scorekeeper.yours import keep, private, remember, your_games


# Pages ---------------------------------------------------------------------------------------
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = (
        with_turns_played(
            Game.objects.filter(status__in=[Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS])
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-updated_at")[:10]
    )
    playing = [{"game": g, "turn": turn_phrase(g)} for g in games]
    context = {
        "playing": playing,
        "rulesets": RULESETS.values(),
        "yours": your_games(request),
        "invitations_waiting": waiting(request.user),
    }
    return private(render(request, "home.html", context))


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For a load balancer: 200 when this server can reach its database, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def ping(request: HttpRequest) -> JsonResponse:
    """The smallest JSON view: the benchmark's measure of the stack's own limit."""
    return JsonResponse({"pong": True})


def new_game(request: HttpRequest) -> HttpResponse:
    """The new-game form, its options set to the chosen ruleset's own rules (``?ruleset=``
    chooses one without JavaScript; the page's script changes them as the choice changes)."""
    clubs = clubs_of(request.user)
    notice = problem = ""
    asked = request.GET.get("ruleset") if request.method == "GET" else None
    if request.method == "POST":
        # An empty POST is still a submission: it gets the form's errors, not a blank form.
        form = NewGameForm(request.POST, clubs=clubs)
    else:
        form = NewGameForm(clubs=clubs, ruleset=ruleset_named(asked))
        if asked is not None and ruleset_named(asked) is None:
            problem = (
                f"There is no ruleset called {asked[:40]!r}: choose one of "
                f"{', '.join(r.name for r in RULESETS.values())}."
            )
    if form.switched_ruleset():
        form = form.with_ruleset_defaults()
        notice = (
            f"The rule options below are now {form.shown.name}'s own: check them, then start "
            "the game. Nothing was started yet."
        )
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = form.players()
        ruleset = get_ruleset(data["ruleset"])
        if data["starter"] == "draw":
            first, rounds = draw_for_first(ruleset, len(players), random.SystemRandom())
        else:
            first, rounds = int(data["starter"]) - 1, []
        try:
            game = domain.create_game(
                ruleset=ruleset.id,
                lexicon=data["lexicon"],
                players=players,
                challenge_mode=data["challenge_mode"],
                options=form.options(),
                first=players[first],
                turn_clock=data["turn_clock"],
                club=data.get("club"),
            )
        except RefereeError as error:
            form.add_error(None, error.message)
        else:
            for draw in rounds:
                shown = ", ".join(
                    f"{name} drew {ruleset.display(tile)}"
                    for name, tile in zip(players, draw, strict=True)
                    if tile
                )
                messages.info(request, f"{shown}.")
            messages.success(
                request,
                f"{players[first]} starts (change it below until the first turn). This browser "
                "keeps the link to this page: see Your games on the home page.",
            )
            return hold(request, keep(request, redirect(scorer_url(game)), game), game)
    status = 400 if (request.method == "POST" and not notice) or problem else 200
    return render(
        request,
        "table/new_game.html",
        {
            "form": form,
            "notice": notice,
            "asked": asked,  # another ruleset's options were asked for: they are shown open
            "problem": problem,
            "known_players": Player.objects.values_list("name", flat=True)[:200],
        },
        status=status,
    )


# A refused turn is kept here for the page the refusal redirects to, so a reload never resends
# the form and the tapped tiles come back.
REFUSAL = "table_refusal"
# The way the scorer was placing tiles, kept with a refused play so it comes back as tapped.
ACROSS, DOWN = "across", "down"


def _back_to_the_board(game: Game) -> HttpResponse:
    """The scorer page, scrolled to the board: what an action said is shown beside it, and
    Submit and the other turns' buttons stay in reach (a phone keeps its place)."""
    return redirect(f"{scorer_url(game)}#board")


@require_GET
@scorer_view
def scorer(request: HttpRequest, game: Game) -> HttpResponse:
    context = table_context(request, game, scorer=True)
    kept = request.session.pop(REFUSAL, None) if REFUSAL in request.session else None
    # Shown once, and only on the game and the turn it was about.
    if kept and kept.get("game") == str(game.pk) and kept.get("turn") == game.turn_number:
        typed = kept["typed"]
        shown = domain.preview(game, typed) if typed else None
        context.update(
            {
                # The reason is said once, here: the play's preview only marks its squares.
                "refusal": kept["message"],
                "typed": typed,
                "typed_direction": kept.get("direction", ACROSS),
                "preview": shown,
            }
        )
    return remember(request, render(request, "table/board.html", context), game)


@require_POST
@scorer_view
def preview(request: HttpRequest, game: Game) -> HttpResponse:
    """The words and score of the tiles placed so far, or why the play is not legal."""
    shown = domain.preview(game, request.POST.get("play", ""))
    return render(request, "table/_preview.html", {"preview": shown})


@require_POST
@scorer_view
def turn(request: HttpRequest, game: Game) -> HttpResponse:
    """Enter one turn from the board page's forms, then redirect to the board page: with the
    turn's sentence, or with the refusal and the play as typed."""
    action = request.POST.get("action", "")
    typed = request.POST.get("play", "")
    direction = DOWN if request.POST.get("direction") == DOWN else ACROSS
    expected = count = None
    # A solo player may give the rack, to be told how the play compares with the best one:
    # searched (within the analysis budget, before the turn's transaction) only for a play
    # the rules take, so a refused play costs no search.
    rack = request.POST.get("rack", "").strip()[:16] if action == "play" else ""
    solo = bool(rack) and game.seats.count() == 1
    best = best_play(game, rack) if solo and domain.preview(game, typed).evaluation else None
    try:
        expected = _whole(request.POST, "expected_turn", "The turn number")
        count = _whole(request.POST, "count", "The number of tiles to exchange")
        applied = domain.act(
            game.pk,
            action,
            expected_turn=expected,
            by="scorer page",
            notation=typed if action == "play" else None,
            count=count,
            racks=_racks_from(request, game) if action == "finish" else None,
            rack=rack,
            best=best.score if best else None,
        )
    except StaleTurn:
        earlier = same_turn(game, expected, action, typed, count)
        if earlier is not None:  # sent twice: the answer the first one got
            if earlier.action != "challenge":
                messages.success(request, describe(earlier))
            return _back_to_the_board(game)
        stale = "Another turn was entered first, perhaps on another device: here is the game now."
        return _refused(request, game, stale, text=typed, direction=direction)
    except REFUSALS as error:
        return _refused(request, game, message_of(error), text=typed, direction=direction)
    if applied.turn.action != "challenge":  # a verdict is shown by the board, in full
        messages.success(request, describe(applied.turn))
    if best is not None:
        made = applied.turn.score
        messages.info(
            request,
            "That was the best play."
            if made >= best.score
            else f"The best play with {rack.upper()} was {best.notation} for {best.score} "
            f"({best.score - made} more).",
        )
    return _back_to_the_board(game)


def _whole(data: QueryDict, name: str, what: str) -> int | None:
    raw = data.get(name, "").strip()
    if not raw:
        return None
    # Nine digits are more than any turn or rack needs, and keep int() far from its limits.
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise InputError(f"bad_{name}", f"{what} must be a whole number, not {raw[:12]!r}.")
    return int(raw)


def _racks_from(request: HttpRequest, game: Game) -> dict[int, str] | None:
    racks = {
        seat.order: request.POST.get(f"rack_{seat.order}", "")
        for seat in game.seats.order_by("order")
        if f"rack_{seat.order}" in request.POST
    }
    return racks or None


def _refused(
    request: HttpRequest, game: Game, message: str, text: str = "", direction: str = ACROSS
) -> HttpResponse:
    """Back to the scorer page's board (303, so a reload never resends), with the reason and
    the play as typed, in the direction it was tapped, kept for it; players are named, not
    numbered."""
    game.refresh_from_db(fields=["turn_number"])
    names = list(game.seats.order_by("order").values_list("player__name", flat=True))
    request.session[REFUSAL] = {
        "game": str(game.pk),
        "turn": game.turn_number,
        "message": name_players(message, names),
        "typed": text[:500],
        "direction": direction,
    }
    response = _back_to_the_board(game)
    response.status_code = 303
    return response


def import_record(request: HttpRequest) -> HttpResponse:
    """Upload a game record (GCG): stored like any other game, then shown with its log."""
    if request.method == "POST" and _body_too_large(request):
        # Not read at all: an upload's file part counts toward no other limit.
        context = {"form": ImportForm(), "refusal": ImportForm.TOO_LARGE}
        return render(request, "history/import.html", context, status=413)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            imported = import_gcg(
                data["source"], ruleset=data["ruleset"] or None, strict=data["strict"]
            )
        except InputError as error:
            form.add_error(None, error.message)
        else:
            shown = imported.mismatches[:20]
            for m in shown:
                messages.warning(
                    request,
                    f"Line {m.line}: {m.text.strip()} — recorded {m.recorded}, the rules give "
                    f"{m.computed}.",
                )
            if len(imported.mismatches) > len(shown):
                messages.warning(
                    request, f"… and {len(imported.mismatches) - len(shown)} more lines differ."
                )
            agreed = "" if imported.mismatches else " Every scored line agrees with the rules."
            messages.success(request, f"Imported.{agreed}")
            return redirect("game", imported.game.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "history/import.html", {"form": form}, status=status)


def _body_too_large(request: HttpRequest) -> bool:
    """The request says its body is over the limit every other body has (2.5 MB)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# The second screen -----------------------------------------------------------------------------
_ETAG_SQL = f"SELECT turn_number, updated_at FROM {Game._meta.db_table} WHERE id = %s"


def _watch_etag(request: HttpRequest, game_id: Any) -> str | None:
    """One primary-key read, no ORM query building and no rendering: this answers every poll
    from a spectator screen, and almost all of them find nothing new (304)."""
    with connection.cursor() as cursor:
        cursor.execute(_ETAG_SQL, [Game._meta.pk.get_db_prep_value(game_id, connection)])
        row = cursor.fetchone()
    return f"{row[0]}-{row[1]}" if row else None


@require_GET
def watch(request: HttpRequest, game_id: Any) -> HttpResponse:
    game = get_game(game_id)
    return render(request, "table/watch.html", table_context(request, game, scorer=False))


@require_GET
@condition(etag_func=_watch_etag)
def watch_live(request: HttpRequest, game_id: Any) -> HttpResponse:
    game = get_game(game_id)
    response = render(request, "table/_live.html", table_context(request, game, scorer=False))
    response["Cache-Control"] = "no-cache"
    return response
