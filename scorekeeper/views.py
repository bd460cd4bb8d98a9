"""The table: start a game, mirror the board, enter turns, settle challenges, follow along.

Views are thin: fetch (checking the scorer's secret), read the input, call one domain
operation, then redirect or render. Nothing here changes a game except through
``scorekeeper.domain``.
"""

from __future__ import annotations

import hmac
import random
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import condition, require_GET, require_POST

from referee.errors import GameOver, IllegalAction, IllegalPlay, InputError, RefereeError
from referee.game import GameState, draw_for_first
from referee.play import Play
from referee.rulesets import RULESETS, get_ruleset
from scorekeeper import domain
from scorekeeper.forms import NewGameForm
from scorekeeper.models import Game, Player, Seat, Turn


# Finding games -------------------------------------------------------------------------------
def get_game(game_id: Any) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404("There is no game with that id.")
    return game


def scorer_game(game_id: Any, token: str) -> Game:
    """The game, if ``token`` is its secret (compared in constant time)."""
    game = get_game(game_id)
    if not hmac.compare_digest(token.encode(), game.token.encode()):
        raise PermissionDenied("This scorer link is not right for this game.")
    return game


def scorer_url(game: Game) -> str:
    return reverse("scorer", args=[game.pk, game.token])


# Pages ---------------------------------------------------------------------------------------
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    playing = (
        Game.objects.filter(status__in=[Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS])
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-updated_at")[:10]
    )
    return render(request, "home.html", {"playing": playing, "rulesets": RULESETS.values()})


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
    # An empty POST is still a submission: it gets the form's errors, not a blank form.
    form = NewGameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = form.players()
        ruleset = get_ruleset(data["ruleset"])
        if data["first"] == "draw":
            first, rounds = draw_for_first(ruleset, len(players), random.SystemRandom())
        else:
            first, rounds = int(data["first"]), []
        try:
            game = domain.create_game(
                ruleset=ruleset.id,
                lexicon=data["lexicon"],
                players=players,
                challenge_mode=data["challenge_mode"],
                options=form.options(),
                first=first,
                turn_clock=data["turn_clock"],
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
            messages.success(request, f"{players[first]} starts. Keep this page's link to score.")
            return redirect(scorer_url(game))
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "table/new_game.html",
        {"form": form, "known_players": Player.objects.values_list("name", flat=True)[:200]},
        status=status,
    )


@require_GET
def scorer(request: HttpRequest, game_id: Any, token: str) -> HttpResponse:
    game = scorer_game(game_id, token)
    return render(request, "table/board.html", table_context(request, game, scorer=True))


@require_POST
def preview(request: HttpRequest, game_id: Any, token: str) -> HttpResponse:
    """The words and score of the tiles placed so far, or why the play is not legal."""
    game = scorer_game(game_id, token)
    text = request.POST.get("play", "").strip()
    context: dict[str, Any] = {"text": text}
    if text:
        seats = list(game.seats.select_related("player").order_by("order"))
        state = domain.load_state(game, seats)
        try:
            play = Play.parse(text, state.ruleset, state.board)
            checking = game.challenge_mode == Game.ChallengeMode.AUTO
            lexicon = domain.lexicon_for(game) if checking else None
            context["evaluation"] = state.evaluate(play, lexicon)
            context["notation"] = play.notation(state.board, state.ruleset)
            context["checked"] = checking and game.lexicon != "honour"
        except IllegalPlay as error:
            context["violations"] = error.violations
        except RefereeError as error:
            context["problem"] = error.message
    return render(request, "table/_preview.html", context)


@require_POST
def turn(request: HttpRequest, game_id: Any, token: str) -> HttpResponse:
    """Enter one turn from the board page's forms, then show the board again."""
    game = scorer_game(game_id, token)
    action = request.POST.get("action", "")
    try:
        expected = int(request.POST["expected_turn"]) if request.POST.get("expected_turn") else None
        kwargs: dict[str, Any] = {}
        if action == "play":
            text = request.POST.get("play", "").strip()
            if not text:
                raise InputError("no_tiles", "Place some tiles first (or type the play).")
            state = domain.load_state(game, list(game.seats.order_by("order")))
            play = Play.parse(text, state.ruleset, state.board)
            kwargs["tiles"] = [(p.row, p.col, p.tile) for p in play]
        elif action == "exchange":
            kwargs["count"] = int(request.POST.get("count") or 0)
        elif action == "finish":
            kwargs["racks"] = _racks_from(request, game)
        entered = domain.act(
            game.pk, action, expected_turn=expected, by="scorer page", **kwargs
        ).turn
    except ValueError:
        return _refused(request, game, 400, "That number is not a whole number.")
    except domain.StaleTurn as error:
        return _refused(request, game, 409, error.message)
    except GameOver as error:
        return _refused(request, game, 409, error.message)
    except IllegalPlay as error:
        return _refused(request, game, 422, error.message, text=request.POST.get("play", ""))
    except IllegalAction as error:
        return _refused(request, game, 422, error.message)
    except RefereeError as error:
        return _refused(request, game, 400, error.message, text=request.POST.get("play", ""))
    _announce(request, entered)
    return redirect(scorer_url(game))


def _racks_from(request: HttpRequest, game: Game) -> dict[int, str] | None:
    racks = {
        seat.order: request.POST.get(f"rack_{seat.order}", "")
        for seat in game.seats.order_by("order")
        if f"rack_{seat.order}" in request.POST
    }
    return racks or None


def _announce(request: HttpRequest, entered: Turn) -> None:
    name = entered.seat.player.name
    if entered.action == Turn.Action.PLAY:
        messages.success(request, f"{name}: {entered.notation} for {entered.score}.")
    elif entered.action == Turn.Action.UNDO:
        messages.info(request, f"Turn {entered.target.number if entered.target else ''} undone.")
    elif entered.action == Turn.Action.PASS:
        messages.info(request, f"{name} passed.")
    elif entered.action == Turn.Action.EXCHANGE:
        messages.info(request, f"{name} exchanged {entered.count}.")


def _refused(
    request: HttpRequest, game: Game, status: int, message: str, text: str = ""
) -> HttpResponse:
    context = table_context(request, game, scorer=True)
    context.update({"refusal": message, "typed": text})
    return render(request, "table/board.html", context, status=status)


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


# Building the page ---------------------------------------------------------------------------
def table_context(request: HttpRequest, game: Game, *, scorer: bool) -> dict[str, Any]:
    seats = list(game.seats.select_related("player").order_by("order"))
    state = domain.load_state(game, seats)
    ruleset = state.ruleset
    last_turn = game.turns.select_related("seat__player", "target").order_by("-number").first()
    highlight = set()
    if game.last_play:
        highlight = {(r, c) for r, c, _ in game.last_play["tiles"]}
    finals = state.final_scores
    # A solo game has a final score but no winner.
    best = max(finals) if finals and len(finals) > 1 else None
    players = [
        {
            "name": seat.player.name,
            "player_id": seat.player_id,
            "score": seat.score,
            "rack": seat.rack_count,
            "adjustment": seat.adjustment,
            "final": seat.final_score,
            "to_move": game.status == Game.Status.IN_PROGRESS and seat.order == state.to_move,
            "winner": best is not None and seat.final_score == best,
            "order": seat.order,
        }
        for seat in seats
    ]
    winners = [p["name"] for p in players if p["winner"]]
    return {
        "game": game,
        "ruleset": ruleset,
        "scorer": scorer,
        "token": game.token if scorer else None,
        "rows": board_rows(state, highlight),
        "columns": [chr(ord("A") + c) for c in range(ruleset.size)],
        "players": players,
        "to_move": seats[state.to_move].player.name,
        "winners": winners,
        "tie": len(winners) > 1,
        "unseen": tracker(state),
        "last_turn": last_turn,
        "verdict": last_turn if last_turn and last_turn.action == Turn.Action.CHALLENGE else None,
        "can_challenge": state.last_play is not None
        and game.challenge_mode == Game.ChallengeMode.MANUAL
        and game.lexicon != "honour",
        "letters": [ruleset.display(t) for t in sorted(ruleset.tiles)],
        "exchange_counts": range(1, min(state.racks[state.to_move], state.bag) + 1),
        "rack_prefill": rack_prefill(state),
        "next_turn": game.turn_number + 1,
        "stacks": ruleset.stacks,
    }


def board_rows(state: GameState, highlight: set[tuple[int, int]]) -> list[list[dict[str, Any]]]:
    ruleset = state.ruleset
    # One square is in the tab order (keyboard users arrow from there): the first start square.
    tab_stop = min(ruleset.start_squares)
    rows = []
    for r in range(ruleset.size):
        row = []
        for c in range(ruleset.size):
            stack = state.board.stack(r, c)
            premium = ruleset.premium(r, c)
            # Start squares matter only for the first play.
            start = state.board.is_empty and (r, c) in ruleset.start_squares
            top = ruleset.display(stack[-1]) if stack else ""
            label = f"{chr(ord('A') + c)}{r + 1}"
            if stack:
                described = f"{top}" + (f", {len(stack)} high" if ruleset.stacks else "")
            else:
                described = "empty"
            if premium:
                described += f", {premium}"
            if start and not stack:
                described += ", start square"
            row.append(
                {
                    "row": r,
                    "col": c,
                    "name": label,
                    "top": top,
                    "height": len(stack),
                    "premium": premium,
                    "start": start,
                    "last": (r, c) in highlight,
                    "tab_stop": (r, c) == tab_stop,
                    "aria": f"{label}: {described}",
                }
            )
        rows.append(row)
    return rows


def tracker(state: GameState) -> list[dict[str, Any]]:
    unseen = state.unseen()
    return [
        {"tile": state.ruleset.display(t), "count": unseen[t], "total": n}
        for t, n in state.ruleset.tiles.items()
    ]


def rack_prefill(state: GameState) -> dict[int, str]:
    """Racks the unseen tiles can only fill one way: when a single rack holds any tiles."""
    holding = [seat for seat, n in enumerate(state.racks) if n]
    prefill = {seat: "" for seat, n in enumerate(state.racks) if not n}
    unseen = state.unseen()
    if len(holding) == 1 and state.bag == 0 and sum(unseen.values()) == state.racks[holding[0]]:
        prefill[holding[0]] = "".join(state.ruleset.display(t) for t in sorted(unseen.elements()))
    return prefill
