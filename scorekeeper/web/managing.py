"""Managing a game from the scorer's phone: correct an earlier turn, abandon the game, change
who starts, hand the spectator screen or the scoring to another phone — and the games this
browser keeps ("your games" on the home page).

Views are thin, as in ``scorekeeper.web.table``: check the scorer's secret, read the input, call
one domain operation, redirect (so a reload never resends) or show the refusal.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from referee import get_ruleset
from scorekeeper.games import domain
from scorekeeper.games.correction import move_of
from scorekeeper.games.counting import options_of
from scorekeeper.games.entries import Change
from scorekeeper.games.replay import effective_turns, number_turns, state_before
from scorekeeper.games.turn_kinds import KINDS, MOVES, describe
from scorekeeper.http.limits import limited, spend_beyond
from scorekeeper.http.links import link_url, scorer_url
from scorekeeper.http.refusals import REFUSALS, message_of, status_of
from scorekeeper.models import Game, Turn
from scorekeeper.web.presenters import board_rows, pad
from scorekeeper.web.scorer_link import hold, scorer_view
from scorekeeper.web.shortcuts import posted_whole, private


# Correcting an earlier turn --------------------------------------------------------------------
@require_http_methods(["GET", "POST"])
@scorer_view
@limited("turns")
@limited("replays", method="GET")
def correct(request: HttpRequest, game: Game) -> HttpResponse:
    """Pick a turn in the log, enter what was really played; the later turns are scored again."""
    in_play = effective_turns(game)
    # As players count them; the form sends entry numbers.
    numbers = number_turns(in_play, options_of(game))
    turns = [t for t in in_play if t.action in MOVES]
    chosen = request.POST.get("target") or request.GET.get("turn", "")
    target = next((t for t in turns if str(t.number) == chosen.strip()), None)
    context: dict[str, Any] = {
        "game": game,
        "turns": [
            {"turn": t, "number": numbers[t.pk], "sentence": describe(t)} for t in reversed(turns)
        ],
        "target": target,
        "target_number": numbers[target.pk] if target else None,
        "sentence": describe(target) if target else "",
        "move": request.POST.get("move", move_of(target) if target else "play"),
        "typed": request.POST.get("play", target.notation if target and target.tiles else ""),
        "count": request.POST.get("count", str(target.count or 1) if target else "1"),
        "next_turn": game.last_entry_number + 1,
        "exchange_exactly_one": get_ruleset(game.ruleset).exchange_exactly_one,
    }
    if target is not None:
        # The board as it was before that turn, to tap the play as it really was.
        before = state_before(game, target)
        context.update(
            {
                "ruleset": before.ruleset,
                "rows": board_rows(before, set()),
                "direction": request.POST.get("direction", _direction_of(target)),
                "typed_preview": domain.preview(game, context["typed"], before=target, on=before),
                **pad(before.ruleset),
            }
        )
    if request.method == "GET" or target is None:
        status = 200 if request.method == "GET" and (target or not chosen) else 400
        if chosen and target is None:
            context["refusal"] = (
                f"Log entry #{chosen[:12]} is not a play, pass or exchange in effect."
            )
        return render(request, "table/correct.html", context, status=status)
    # The move the turn really was (the form's play, pass or exchange).
    move = KINDS.get(request.POST.get("move", "play"))
    plays = move is not None and move.places_tiles
    exchanges = move is not None and move.exchanges_tiles
    try:
        applied = domain.act(
            game.pk,
            domain.TurnCommand(
                "correct",
                expected_turn=posted_whole(request.POST, "expected_turn", "The turn number"),
                by="scorer page",
                target=target.number,
                notation=request.POST.get("play", "") if plays else None,
                count=posted_whole(request.POST, "count", "The number of tiles to exchange")
                if exchanges
                else None,
            ),
        )
    except REFUSALS as error:
        context["refusal"] = message_of(error)
        return render(request, "table/correct.html", context, status=status_of(error))
    spend_beyond(request, applied.rescored)
    messages.success(request, describe(applied.turn))
    messages.info(request, changes_sentence(applied.changes))
    return redirect(scorer_url(game))


@require_POST
@scorer_view
@limited("turns")
def correct_preview(request: HttpRequest, game: Game) -> HttpResponse:
    """The words and score of the tiles placed so far on the board as it was before the turn
    being corrected, or why the play is not legal there."""
    chosen = request.POST.get("target", "").strip()
    target = (
        game.turns.effective().filter(action__in=MOVES, number=int(chosen)).first()
        if chosen.isascii() and chosen.isdigit() and len(chosen) < 10
        else None
    )
    if target is None:
        return render(
            request,
            "table/_preview.html",
            {"preview": domain.Preview("", problem="Choose the turn to correct first.")},
            status=400,
        )
    shown = domain.preview(game, request.POST.get("play", ""), before=target)
    return render(request, "table/_preview.html", {"preview": shown})


def changes_sentence(changes: list[Change]) -> str:
    """ "Scores changed: turn 2 (Ben) 8 → 10; turn 5 (Ann) 12 → 13. Totals: Ann 30 → 31." """
    turns = [f"turn {c.turn} ({c.player}) {c.was} → {c.now}" for c in changes if c.turn]
    totals = [f"{c.player} {c.was} → {c.now}" for c in changes if c.turn is None]
    if not turns and not totals:
        return "No score changed."
    said = f"Scores changed: {'; '.join(turns)}." if turns else "No turn's score changed."
    return said + (f" Totals: {'; '.join(totals)}." if totals else " The totals are the same.")


def _direction_of(turn: Turn) -> str:
    """Which way a play went, for the board entry to carry on that way."""
    rows = {row for row, _, _ in turn.tiles or []}
    cols = {col for _, col, _ in turn.tiles or []}
    return "down" if len(rows) > 1 and len(cols) == 1 else "across"


# Abandoning the game, and who starts -----------------------------------------------------------
@require_POST
@scorer_view
def abandon(request: HttpRequest, game: Game) -> HttpResponse:
    if request.POST.get("confirm") != "yes":
        messages.error(request, "Not abandoned: tick the box to say you mean it.")
        return redirect(scorer_url(game))
    try:
        applied = domain.act(
            game.pk,
            domain.TurnCommand(
                "abandon",
                expected_turn=posted_whole(request.POST, "expected_turn", "The turn number"),
                by="scorer page",
            ),
        )
    except REFUSALS as error:
        messages.error(request, f"Not abandoned. {message_of(error)}")
        return redirect(scorer_url(game))
    messages.success(request, describe(applied.turn) + " Undo reopens it.")
    return redirect(scorer_url(game))


@require_POST
@scorer_view
def first(request: HttpRequest, game: Game) -> HttpResponse:
    try:
        game = domain.do_set_first(game.pk, request.POST.get("first", ""))
    except REFUSALS as error:
        messages.error(request, f"Not changed. {message_of(error)}")
        return redirect(scorer_url(game))
    starter = game.seats.select_related("player").get(order=game.first_seat)
    messages.success(request, f"{starter.player.name} starts.")
    return redirect(scorer_url(game))


# Handing over: QR codes ------------------------------------------------------------------------
def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an SVG document, drawn here (segno): nothing from the network."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title=url
    )
    return out.getvalue().decode()


@require_GET
def watch_qr(request: HttpRequest, game_id: Any) -> HttpResponse:
    game = domain.fetch_game(game_id)
    url = request.build_absolute_uri(reverse("watch", args=[game.pk]))
    response = HttpResponse(qr_svg(url), content_type="image/svg+xml")
    patch_cache_control(response, max_age=3600)
    return response


@require_GET
@scorer_view
def scorer_qr(request: HttpRequest, game: Game) -> HttpResponse:
    response = HttpResponse(
        qr_svg(request.build_absolute_uri(link_url(game))), content_type="image/svg+xml"
    )
    return private(response)


@require_GET
@scorer_view
def hand_over(request: HttpRequest, game: Game) -> HttpResponse:
    """The scorer link as a QR code, for another phone to take over the scoring; and the way
    to make a new link when the old one went somewhere it should not."""
    context = {"game": game, "link": request.build_absolute_uri(link_url(game))}
    return private(render(request, "table/hand_over.html", context))


@require_POST
@scorer_view
def new_link(request: HttpRequest, game: Game) -> HttpResponse:
    """Revoke the scorer link and make a new one; this browser keeps scoring with it."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, "No new link made: tick the box to say you mean it.")
        return redirect("hand_over", game.pk)
    game = domain.do_new_scorer_link(game.pk, by="scorer page")
    messages.success(
        request,
        "New scorer link made. The old link, and every phone that opened it, can no longer "
        "change the game; this phone keeps scoring. Hand the new link over below if needed.",
    )
    return hold(request, redirect("hand_over", game.pk), game)
