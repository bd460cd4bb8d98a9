"""Presenters: a game's state laid out for the templates (the board's squares, the tile
tracker, the scorer's and spectator's page). They read; they decide nothing about the rules.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from referee import (
    BLANK,
    GameState,
    RuleOptions,
    Ruleset,
    challenge_rule,
    challenge_rule_name,
    get_ruleset,
    is_blank,
)
from scorekeeper.games import rows
from scorekeeper.games.counting import options_of
from scorekeeper.games.replay import stood
from scorekeeper.games.sentences import challenge_verdict
from scorekeeper.games.state import load_state
from scorekeeper.games.turn_kinds import PLACING, describe, kind_of, turns_of
from scorekeeper.games.word_policy import policy_for
from scorekeeper.models import Game, Seat, Turn
from scorekeeper.web.clock_faces import clock_faces, time_penalties, time_points

# A table's reads, built once (``rows.Compiled``): every screen of a table reads them again
# for each change. The latest entries, and the one before them (most often what a challenge
# or an undo among them is about); the last play in effect (when the latest entry isn't).
_LATEST = rows.Compiled(
    lambda game_id: Turn.objects.filter(game_id=game_id).order_by("-number")[: RECENT_TURNS + 1]
)
_LAST_PLAY = rows.Compiled(
    lambda game_id: stood(Turn.objects.filter(game_id=game_id)).order_by("-place")[:1]
)


def _with_seats(
    turns: list[Turn], game: Game, seats: list[Seat], read: list[Turn] | None = None
) -> list[Turn]:
    """The turns with their game, seats (and players) and targets, as ``select_related`` gives
    them: the seats are at hand; the targets (a challenge's play, an undo's turn) are most
    often among the entries ``read`` with them (the entry before), and the others are read
    at once."""
    by_id = {seat.pk: seat for seat in seats}
    wanted = {turn.target_id for turn in turns if turn.target_id is not None}
    targets = {turn.pk: turn for turn in read or turns if turn.pk in wanted}
    if missing := wanted - targets.keys():
        targets.update(Turn.objects.in_bulk(missing))
    for turn in [*turns, *targets.values()]:
        turn.game = game
        turn.seat = by_id[turn.seat_id]
    for turn in turns:
        if turn.target_id is not None:
            turn.target = targets[turn.target_id]
    return turns


def table_context(
    request: HttpRequest | None, game: Game, *, scorer: bool, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The scorer's page (``scorer=True``) or the spectator's; ``seats`` (each with its
    player, in order) if they are at hand (``rows.read_game``)."""
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("order"))
    state = load_state(game, seats)
    context = _table_shown(game, seats, state, scorer=scorer)
    policy = policy_for(game)
    return {
        **context,
        "policy": policy,
        "unseen": tracker(state),
        "last_sentence": describe(context["last_turn"]) if context["last_turn"] else "",
        # A pass that ends the game asks first.
        "pass_ends_game": state.passes + 1 >= state.turns_to_end,
        "can_challenge": policy.can_challenge(state),
        **pad(state.ruleset),
        "exchange_counts": range(1, min(state.racks[state.to_move], state.bag) + 1),
        "rack_prefill": rack_prefill(state),
        "next_turn": game.last_entry_number + 1,
        "solo": solo_summary(game) if len(seats) == 1 else None,
    }


def live_context(game: Game, seats: list[Seat], state: GameState | None = None) -> dict[str, Any]:
    """The spectator screen's live part (``table/_live.html``): only what it shows. It is
    drawn for every change a screen is sent, so the scorer's tools (the tile tracker, the
    letter pad, the exchange choices) are not worked out for it. ``state``: the game's, where
    it is at hand (else read off the game and its seats)."""
    if state is None:
        state = load_state(game, seats)
    return _table_shown(game, seats, state, scorer=False)


def _table_shown(
    game: Game, seats: list[Seat], state: GameState, *, scorer: bool
) -> dict[str, Any]:
    """What the scorer's page and the spectator screen both show: the board, the scores,
    whose turn, the last play and turns, the rules."""
    ruleset = state.ruleset
    # The latest entries, read once: the last turn, and the spectator's recent ones.
    read = _LATEST(game.pk)
    latest = _with_seats(read[: 1 if scorer else RECENT_TURNS], game, seats, read)
    last_turn = latest[0] if latest else None
    # One turn number everywhere, as players count it (scorekeeper.games.replay.turn_numbers); the
    # log's entries, undos included, are numbered apart and called log entries where shown.
    played = game.turns_played
    # The last play is the latest in the order of play still standing (a correction stands
    # where the play it replaced stood; a play an upheld challenge took off is gone), and its
    # tiles are the ones marked. The latest entry, a play in effect, is it.
    if last_turn is None:
        last_play = None
    elif (
        kind_of(last_turn).places_tiles
        and last_turn.notation
        and last_turn.undone_at is None
        and last_turn.corrected_at is None
    ):
        last_play = last_turn
    else:
        last_play = next(iter(_with_seats(_LAST_PLAY(game.pk), game, seats)), None)
    highlight = {(r, c) for r, c, _ in last_play.tiles} if last_play else set()
    # Once over, a player's score from turns leaves out their time penalty, shown on its own.
    timed = time_points(game, seats) if game.status == Game.Status.FINISHED else [0] * len(seats)
    players = [
        {
            "name": seat.player.name,
            "player_id": seat.player_id,
            "score": seat.score - timed[seat.order],
            "rack": seat.rack_count,
            "adjustment": seat.adjustment,
            "time": timed[seat.order],
            "final": seat.final_score,
            "to_move": game.status == Game.Status.IN_PROGRESS and seat.order == state.to_move,
            "winner": seat.result in ("win", "tie"),
            "order": seat.order,
        }
        for seat in seats
    ]
    winners = [p["name"] for p in players if p["winner"]]
    verdict = last_turn if last_turn and kind_of(last_turn).judges_play else None
    verdict_word, verdict_cost = challenge_verdict(verdict) if verdict else ("", "")
    return {
        "game": game,
        "ruleset": ruleset,
        "scorer": scorer,
        "rows": board_rows(state, highlight),
        "players": players,
        "to_move": seats[state.to_move].player.name,
        "winners": winners,
        "tie": len(winners) > 1,
        "last_turn": last_turn,
        "last_play": last_play,
        "turns_played": played,
        "turn_now": played + 1,
        "verdict": verdict,
        "verdict_word": verdict_word,
        "verdict_cost": verdict_cost,
        "rules": rules_summary(game, len(seats)),
        "clock": clock_faces(game, [seat.player.name for seat in seats]),
        "time_penalties": time_penalties(game, [seat.player.name for seat in seats]),
        "timed": any(timed),
        # The spectator screen: the last play's words, and the last few turns in sentences.
        "last_play_words": played_words(last_play) if last_play else [],
        "recent": [] if scorer else recent_turns(game, latest, read),
    }


RECENT_TURNS = 3  # the spectator screen's "Recent turns"


def recent_turns(game: Game, latest: list[Turn], read: list[Turn]) -> list[dict[str, Any]]:
    """The spectator's recent entries, newest first: each one's sentence and, for a turn in
    effect, its number as players count it (None for an entry that is no turn, and for a
    correction, whose sentence names the turn it corrected).

    Counted back from the turns played over the latest entries ``read`` (newest first, by
    number), with no other read: every entry after a turn in the order of play was entered
    after it, so is among them."""
    options = options_of(game)
    in_effect = [t for t in read if t.undone_at is None and t.corrected_at is None]
    shown = []
    for turn in latest:
        number = None
        if turn in in_effect and not kind_of(turn).replaces and turns_of(turn, options) > 0:
            later = (t for t in in_effect if t.place > turn.place)
            number = game.turns_played - sum(turns_of(t, options) for t in later)
        shown.append({"number": number, "sentence": describe(turn)})
    return shown


def played_words(turn: Turn) -> list[dict[str, Any]]:
    """The words a play made, each with its score: ``[{"word": "HOUSE", "score": 24}]``."""
    return [{"word": w.get("word", ""), "score": w.get("score")} for w in turn.words or []]


def pad(ruleset: Ruleset) -> dict[str, Any]:
    """What the board entry's letter pad shows (``table/_pad.html``)."""
    return {
        "letters": [
            {"letter": ruleset.display(t), "value": ruleset.values.get(t)}
            for t in sorted(ruleset.tiles)
            if t != BLANK
        ],
        "has_blanks": ruleset.has_blanks,
        "has_values": bool(ruleset.values),
    }


@dataclass(frozen=True)
class BoardView:
    """A board as a page draws it (``board_html``): the ruleset, the stacks square by square,
    row after row, and the squares of the last play, marked."""

    ruleset: Ruleset
    cells: tuple[tuple[str, ...], ...]
    highlight: frozenset[tuple[int, int]]

    @property
    def empty(self) -> bool:
        return not any(self.cells)


def board_rows(state: GameState, highlight: set[tuple[int, int]]) -> BoardView:
    size, board = state.ruleset.size, state.board
    cells = tuple(board.stack(r, c) for r in range(size) for c in range(size))
    return BoardView(state.ruleset, cells, frozenset(highlight))


def board_html(board: BoardView, *, scorer: bool) -> SafeString:
    """The board's squares, as HTML: the columns' letters, then row after row, each square a
    ``gridcell`` named by its square (``E5: …``), a button on the scorer's pages. Built here
    rather than in the template: a template's loop over 100 to 225 squares cost a page several
    milliseconds. Most squares are empty and look the same on every board of the ruleset:
    those are built once."""
    ruleset = board.ruleset
    size, stacks = ruleset.size, ruleset.stacks
    empty_board = board.empty
    blank_squares = _empty_squares(ruleset, empty_board, scorer)
    # One square is in the tab order (keyboard users arrow from there): the first start square.
    tab_stop = min(ruleset.start_squares)
    out = [_columns(size)]
    for r in range(size):
        out.append(
            f'<div class="board-row" role="row"><div class="coord rowlabel" aria-hidden="true">'
            f"{r + 1}</div>"
        )
        for c in range(size):
            stack = board.cells[r * size + c]
            last = (r, c) in board.highlight
            if not stack and not last:
                out.append(blank_squares[r * size + c])
                continue
            start = empty_board and (r, c) in ruleset.start_squares  # for the first play only
            top = ruleset.display(stack[-1]) if stack else ""
            blank = bool(stack) and is_blank(stack[-1])
            # Letter values where the set has them (a blank is worth nothing).
            value = ruleset.tile_value(stack[-1]) if stack and ruleset.values else None
            out.append(
                _square(
                    r,
                    c,
                    premium=ruleset.premium(r, c),
                    top=top,
                    blank=blank,
                    value=value,
                    height=len(stack),
                    start=start,
                    last=last,
                    tab_stop=(r, c) == tab_stop,
                    stacks=stacks,
                    scorer=scorer,
                )
            )
        out.append("</div>")
    return mark_safe("".join(out))  # noqa: S308 - every value is escaped in _square_html


@functools.lru_cache(maxsize=8)
def _columns(size: int) -> str:
    """The board's top row: a corner, then each column's letter."""
    return '<div class="coord corner" aria-hidden="true"></div>' + "".join(
        f'<div class="coord col" aria-hidden="true">{chr(ord("A") + c)}</div>' for c in range(size)
    )


_EMPTY_SQUARES: dict[tuple[Any, ...], tuple[str, ...]] = {}  # by layout and kind of page


def _empty_squares(ruleset: Ruleset, empty_board: bool, scorer: bool) -> tuple[str, ...]:
    """Each empty, unmarked square's HTML on a board of this ruleset's layout, row after row:
    built once for each layout and kind of page."""
    key = (ruleset.layout, ruleset.start_squares, ruleset.stacks, empty_board, scorer)
    found = _EMPTY_SQUARES.get(key)
    if found is None:
        if len(_EMPTY_SQUARES) >= 64:
            _EMPTY_SQUARES.clear()
        tab_stop = min(ruleset.start_squares)
        found = _EMPTY_SQUARES[key] = tuple(
            _square(
                r,
                c,
                premium=ruleset.premium(r, c),
                tab_stop=(r, c) == tab_stop,
                start=empty_board and (r, c) in ruleset.start_squares,
                stacks=ruleset.stacks,
                scorer=scorer,
            )
            for r in range(ruleset.size)
            for c in range(ruleset.size)
        )
    return found


# A premium's name where its mark is hidden under a tile.
PREMIUM_NAMES = {
    "DL": "double letter",
    "TL": "triple letter",
    "DW": "double word",
    "TW": "triple word",
}


def _square(
    r: int, c: int, *, premium: str, top: str = "", blank: bool = False, value: int | None = None,
    height: int = 0, start: bool = False, last: bool = False, tab_stop: bool = False,
    stacks: bool, scorer: bool,
) -> str:  # fmt: skip
    """One square's HTML, with its accessible name. The name starts with the square, then
    what the square shows as it shows it (WCAG's label in name: the letter with its value or
    its stack's height, "H4", "W2"), then what that means: ``D8: H4, double letter``,
    ``E5: W2, 2 high, last play``, ``H8: empty, DW, start square``."""
    top = top.upper() if blank else top  # shown as its letter, drawn as a blank
    label = f"{chr(ord('A') + c)}{r + 1}"
    if height:
        described = top
        if stacks:
            described += f"{height if height > 1 else ''}, {height} high"
        elif value and not blank:
            described += f"{value}"
        if blank:
            described += ", a blank"
        if premium:
            described += f", {PREMIUM_NAMES.get(premium, premium)}"
    else:
        described = "empty" + (f", {premium}" if premium else "")
        if start:
            described += ", start square"
    if last:
        described += ", last play"
    return _square_html(
        r, c, label, top, blank, value, height, premium, start, last, tab_stop,
        f"{label}: {described}", stacks, scorer,
    )  # fmt: skip


@functools.lru_cache(maxsize=20_000)
def _square_html(
    row: int, col: int, name: str, top: str, blank: bool, value: int | None, height: int,
    premium: str | None, start: bool, last: bool, tab_stop: bool, aria: str, stacks: bool,
    scorer: bool,
) -> str:  # fmt: skip
    """One square's HTML. The same squares come again and again (most are empty, a board
    changes a few squares a turn, and every screen of a game draws the same), so each is built
    once: this was most of the cost of drawing a board for each change. An empty square is
    one element: its premium mark is drawn from its class (static/css/app.css), and what an
    empty square holds (no letter, no height) is said by leaving those attributes out."""
    classes = "sq"
    if top:
        classes += f" h{height} filled"
    if blank:
        classes += " blank"
    if premium:
        classes += f" p-{escape(premium)}"
    if start:
        classes += " start"
    if last:
        classes += " last"
    label = escape(aria)
    if scorer:
        held = f' data-top="{escape(top)}" data-height="{height}"' if top else ""
        html = (
            f'<button type="button" role="gridcell" class="{classes}" data-row="{row}" '
            f'data-col="{col}" data-name="{name}"{held} aria-label="{label}" '
            f'tabindex="{0 if tab_stop else -1}">'
        )
    else:
        html = f'<div role="gridcell" class="{classes}" aria-label="{label}">'
    if top:
        html += f'<span class="letter">{escape(top)}</span>'
        if stacks:
            if height > 1:
                html += f'<span class="height" aria-hidden="true">{height}</span>'
        elif value and not blank:
            html += f'<span class="val" aria-hidden="true">{value}</span>'
    return html + ("</button>" if scorer else "</div>")


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


def solo_summary(game: Game) -> dict[str, int]:
    """A solo game's plays against the best each rack allowed (where the rack was given)."""
    compared = game.turns.effective().filter(action__in=PLACING, best__isnull=False)
    found = sum(t.score for t in compared)
    possible = sum(t.best or 0 for t in compared)
    return {"found": found, "possible": possible, "turns": len(compared)}


def rules_summary(game: Game, players: int) -> str:
    """The rules in force in one line, as a club would say them: the scorer's page, the
    spectator screen and the game's page all show this one.

    The crossword game's challenge rules go by their club names (void, single, double,
    five-point, ten-point challenge); Upwords and Letter UP say what a challenge does, and
    Upwords whether an S may simply be added. An option is named only where it changes
    something in this game (challenges in a tournament game, exchanges in a solo game), and
    the way a crossword game ends only when it is not the printed rule (twice the rack).
    """
    ruleset = get_ruleset(game.ruleset)
    options = RuleOptions.from_dict(game.options, ruleset)
    policy = policy_for(game)
    crossword = ruleset.family == "crossword"
    parts = ["honour system, no word check" if policy.honour else game.lexicon]
    if policy.checks_as_played:
        checked = "words checked as played"
        parts.append(f"{challenge_rule_name('void')} ({checked})" if crossword else checked)
    elif policy.challenges:
        parts.append("tournament checking")
        named = challenge_rule(False, options.rejected_challenge) if crossword else None
        if named is not None:
            parts.append(challenge_rule_name(named))
            if options.upheld_challenge == "retry":  # the clubs' rules take the play off
                parts.append("after a phony the player may try again")
        else:
            parts += [_option_said(options, name) for name in CHALLENGE_OPTIONS]
    if "plural_s_rule" in RuleOptions.applies_to(ruleset):
        parts.append(_choice_label("plural_s_rule", options.plural_s_rule))
    if "out_bonus" in RuleOptions.applies_to(ruleset) and options.out_bonus != "sum_of_others":
        parts.append("going out: twice the opponent's rack")
    if players == 1:
        n = options.solo_exchanges
        parts.append(f"{n or 'no'} exchange{'s' if n != 1 else ''}")
    return " · ".join(parts)


CHALLENGE_OPTIONS = ("upheld_challenge", "rejected_challenge")


def _choice_label(name: str, value: object) -> str:
    return next(label for choice, label in RuleOptions.CHOICES[name] if choice == value)


def _option_said(options: RuleOptions, name: str) -> str:
    """``when a challenge fails: no penalty``"""
    return f"{RuleOptions.LABELS[name].lower()}: {_choice_label(name, getattr(options, name))}"
