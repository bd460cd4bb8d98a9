"""History pages: past games, and a game's page: its log with replay, chart and review.

Everything here reads; nothing changes a game. These pages are public, so they never show
or link a game's token (the scorer's secret): the spectator screen is the only live link.

A game's page costs the same however long the game: the log is shown a page at a time, the
chart reads the totals each entry recorded, and the board is the stored one, or for an
earlier turn the nearest checkpoint's and the few turns after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET
from django_htmx.middleware import HtmxDetails

from referee import (
    HONOUR_ID,
    GameState,
    InputError,
    RefereeError,
    RuleOptions,
    Ruleset,
    get_ruleset,
)
from scorekeeper.clubs.membership import voidable
from scorekeeper.games import checkpoints
from scorekeeper.games.analysis import analyse, cost_units, incomplete_note
from scorekeeper.games.domain import fetch_game
from scorekeeper.games.replay import number_turns, steps, turn_phrase
from scorekeeper.games.results import totals
from scorekeeper.games.sentences import challenge_verdict
from scorekeeper.games.state import load_state
from scorekeeper.games.turn_kinds import (
    JUDGING,
    KINDS,
    TURNS,
    VOIDING,
    describe,
    kind_of,
)
from scorekeeper.http.limits import analysis_limit, limited, refusal, spend
from scorekeeper.models import Game, Seat, Turn
from scorekeeper.stats.chart import COLOURS, chart
from scorekeeper.web.clock_faces import time_penalties, time_points
from scorekeeper.web.forms import GameFilter
from scorekeeper.web.presenters import board_rows, rules_summary
from scorekeeper.web.shortcuts import error_page, query_whole


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


PER_PAGE = 25
LOG_ROWS = 100  # log entries shown at once on a game's page
LIVE = (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS)


def _seats_with_players() -> Prefetch[Any]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))


TURN = ("turn", "turns")
STEP = ("replay step", "replay steps")
ENTRY = ("log entry", "log entries")


# The list of games -----------------------------------------------------------------------------
@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    form = GameFilter(request.GET or None)
    games = Game.objects.prefetch_related(_seats_with_players())
    games = games.order_by("-created_at", "-pk")
    if form.is_bound and not form.is_valid():
        for name in form.errors:
            if name in form.fields:
                form.fields[name].widget.attrs["aria-describedby"] = f"id_{name}_error"
        return render(request, "history/game_list.html", {"form": form}, status=400)
    data = form.cleaned_data if form.is_bound else {}
    if data.get("player"):
        games = games.filter(
            Exists(Seat.objects.filter(game=OuterRef("pk"), player__name__icontains=data["player"]))
        )
    if data.get("ruleset"):
        games = games.filter(ruleset=data["ruleset"])
    if data.get("status"):
        games = games.filter(status=data["status"])
    if data.get("date_from"):
        games = games.filter(created_at__date__gte=data["date_from"])
    if data.get("date_to"):
        games = games.filter(created_at__date__lte=data["date_to"])
    page = Paginator(games, PER_PAGE).get_page(request.GET.get("page"))
    rows = [_game_row(game) for game in page.object_list]
    filtered = any(data.values()) if data else False
    context = {"form": form, "page": page, "rows": rows, "filtered": filtered}
    return render(request, "history/game_list.html", context)


def _game_row(game: Game) -> dict[str, Any]:
    seats = list(game.seats.all())
    finished = game.status == Game.Status.FINISHED
    winners = [s for s in seats if s.result in ("win", "tie")]
    return {
        "game": game,
        "turn": turn_phrase(game),
        "tie": len(winners) > 1,
        "players": [
            {
                "name": s.player.name,
                "score": s.final_score if finished else s.score,
                "winner": s in winners,
            }
            for s in seats
        ],
    }


# A game's page ---------------------------------------------------------------------------------
class Indexed(NamedTuple):
    """A turn in effect as the index reads it: a row, not a model (a long log has 2,000)."""

    pk: int
    number: int
    action: str
    result: str
    totals: Any


Index = list[Indexed]  # the turns in effect in the order of play (the replay's steps)


def _index(game: Game) -> Index:
    # A correction stands where the turn it corrected stood: its place.
    turns = game.turns.effective().order_by("place")
    columns = ("pk", "number", "action", "result", "totals")
    return [Indexed(*row) for row in turns.values_list(*columns)]


@dataclass(frozen=True)
class LogSteps:
    """Where each log entry in effect stands in the replay, by entry (pk).

    ``step``: its place in the order of play (the replay's ``?step=``, the chart's points);
    ``number``: its turn as players count it; ``reached``: the furthest step of the turns in
    effect entered up to it, whose totals are the running totals at that point of the log (a
    correction stands at an early step, but is read in the log where it was entered);
    ``counts``: the turns players count after each step, from 0 at the start.
    """

    step: dict[int, int]
    number: dict[int, int]
    reached: dict[int, int]
    counts: list[int]

    @classmethod
    def of(cls, index: Index, options: RuleOptions) -> LogSteps:
        step = {t.pk: n for n, t in enumerate(index, 1)}
        reached, furthest = {}, 0
        for turn in sorted(index, key=lambda t: t.number):
            furthest = max(furthest, step[turn.pk])
            reached[turn.pk] = furthest
        counts = [0]
        for turn in index:
            counts.append(counts[-1] + TURNS[turn.action](turn.result, options))
        return cls(step, number_turns(index, options), reached, counts)

    def played(self) -> list[int]:
        """The turns players count after each step, from 0 at the start."""
        return self.counts

    def labels(self, index: Index) -> list[str]:
        """What each step is after, for the chart: the turn as players count it, "end" for an
        entry that only ends the game, else the entry's kind ("challenge")."""
        said = ["0"]
        for row in index:
            kind = KINDS[row.action]
            number = self.number.get(row.pk)
            said.append(str(number) if number else "end" if kind.ends else kind.name)
        return said

    def step_after(self, turn: int) -> int | None:
        """The step that ends turn ``turn`` as players count it (a play an upheld challenge
        took off ends with the retry that follows); 0 for the start, None if there is none."""
        if turn == 0:
            return 0
        ending = [self.step[pk] for pk, number in self.number.items() if number == turn]
        return max(ending) if ending else None


def _points(game: Game, index: Index, players: int) -> list[list[int]]:
    """Every seat's score at the start and after each turn in effect: the chart's points."""
    recorded: list[Any] = [t.totals for t in index]
    if all(isinstance(t, list) for t in recorded):
        return [[0] * players, *recorded]
    # Entries made before totals were recorded: replay once instead.
    return [[0] * players] + [totals(step.state) for step in steps(game, players=players)]


def _replay_at(game: Game, seats: list[Seat], index: Index, at: int) -> GameState:
    """The state after ``at`` turns in effect: the stored one at the end, else the nearest
    checkpoint's and the few turns after it."""
    if at == len(index):
        return load_state(game, seats)
    return checkpoints.state_at(game, at, len(seats))


def _log_rows(
    game: Game, turns: list[Turn], at: LogSteps, points: list[list[int]]
) -> list[dict[str, Any]]:
    names = [s.player.name for s in game.seats.select_related("player").order_by("order")]
    # What became of each play on this page that was challenged (by a challenge in effect).
    verdicts = {
        t.target_id: t
        for t in game.turns.filter(
            action__in=JUDGING, undone_at__isnull=True, target__in=[t.pk for t in turns]
        )
    }
    rows = []
    for turn in turns:
        kind = kind_of(turn)
        step = at.step.get(turn.pk)
        total = ""
        if step is not None:
            scores = points[at.reached[turn.pk]]
            if kind.shows_every_total:
                total = " · ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True))
            else:
                seat = turn.seat.order
                if kind.judges_play and turn.result == Turn.Result.UPHELD and turn.target:
                    seat = turn.target.seat.order
                total = (
                    f"{names[seat]} {scores[seat]}"
                    if seat != turn.seat.order
                    else str(scores[seat])
                )
        # Like the verdict at the table, the log never says which word a challenge found
        # wanting (RULES.md §5): only whether the play was acceptable.
        words = [{"word": w.get("word", ""), "score": w.get("score")} for w in turn.words or []]
        racks = []
        if kind.counts_racks and turn.racks:
            for order, letters in sorted(turn.racks.items(), key=lambda kv: int(kv[0])):
                if 0 <= int(order) < len(names):
                    racks.append(f"{names[int(order)]}: {letters or 'nothing'}")
        rows.append(
            {
                "turn": turn,
                "kind": kind,
                "label": kind.label(turn),
                "scored": kind.has_score,
                "step": step,
                "number": at.number.get(turn.pk),
                "words": words,
                "racks": racks,
                "total": total,
                "verdict": verdicts.get(turn.pk) if kind.may_place_tiles else None,
                # What a challenge's verdict cost whom, in the words the table was told.
                "cost": challenge_verdict(turn)[1] if kind.judges_play else "",
            }
        )
    return rows


@require_GET
# An earlier board is asked for by the turn as players count it or by the replay's step.
@limited("replays", method="GET", when=lambda request: bool({"turn", "step"} & set(request.GET)))
def game_page(request: HtmxHttpRequest, game_id: object) -> HttpResponse:
    game = fetch_game(game_id)
    seats = list(game.seats.select_related("player").order_by("order"))
    ruleset = get_ruleset(game.ruleset)
    index = _index(game)
    options = RuleOptions.from_dict(game.options, ruleset)
    steps_at = LogSteps.of(index, options)
    try:
        at = _step_asked(request, steps_at, len(index))
        after = query_whole(request.GET.get("after"), game.last_entry_number, ENTRY)
    except InputError as error:
        return error_page(request, 400, "No such turn", error.message, game=game)
    names = [s.player.name for s in seats]
    problem = ""
    context: dict[str, Any] = {}
    points: list[list[int]] | None = None
    try:
        points = _points(game, index, len(seats))
        state = _replay_at(game, seats, index, at)
    except RefereeError as error:  # a damaged log: say so rather than fail
        problem = f"This game’s log does not replay ({error.message}), so there is no replay."
    else:
        turn = (
            Turn.objects.select_related("seat__player", "target__seat__player").get(
                pk=index[at - 1].pk
            )
            if at
            else None
        )
        context["replay"] = _replay_context(ruleset, turn, steps_at, state, at, names, points)
        if game.status == Game.Status.FINISHED and turn is not None:
            context["review"] = _review(request, game, seats, index, at, turn, context["replay"])
        finished = game.status == Game.Status.FINISHED
        context["chart"] = chart(points, names, finished, steps_at.labels(index))
    if request.htmx and not request.htmx.history_restore_request and not problem:
        # The part swapped in needs what the whole page has: the ruleset draws its board.
        swapped = {**context, "game": game, "ruleset": ruleset, "swapped": True}
        response = render(request, "history/_replay.html", swapped)
        patch_vary_headers(response, ["HX-Request"])
        return response
    context.update(_log_context(game, after or 0, steps_at, points))
    finished = game.status == Game.Status.FINISHED
    winners = [names[s.order] for s in seats if s.result in ("win", "tie")]
    # Once over, a player's score from turns leaves out their time penalty, shown on its own.
    timed = time_points(game, seats) if finished else [0] * len(seats)
    context.update(
        {
            "game": game,
            "ruleset": ruleset,
            "seats": [
                {
                    "seat": s,
                    "name": s.player.name,
                    "from_turns": s.score - timed[s.order],
                    "time": timed[s.order],
                    "winner": s.result in ("win", "tie"),
                    "colour": COLOURS[i],
                }
                for i, s in enumerate(seats)
            ],
            "winner_names": winners,
            "tie": len(winners) > 1,
            "finished": finished,
            "timed": any(timed),
            "time_penalties": time_penalties(game, names),
            "live": game.status in LIVE,
            "names": names,
            "problem": problem,
            "gcg": ruleset.gcg,
            "checksum_short": game.lexicon_checksum[:19],
            "rules": rules_summary(game, len(seats)),
            "voidable": voidable(game, request.user),
            "void_turn": _void_sentence(game),
        }
    )
    response = render(request, "history/game.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _step_asked(request: HttpRequest, steps_at: LogSteps, last: int) -> int:
    """The replay's step the query asks for: ``step`` (a step of the order of play: the
    stepper's and the log's links), or ``turn`` (a turn as players count it, as the caption
    says it: the "Go to turn" box); the end of the game when neither is given."""
    step = query_whole(request.GET.get("step"), last, STEP)
    if step is not None:
        return step
    played = steps_at.counts[-1]
    turn = query_whole(request.GET.get("turn"), played, TURN)
    if turn is None:
        return last
    found = steps_at.step_after(turn)
    if found is None:
        raise InputError(
            "bad_number", f"This game has turns 0 to {played}; there is no turn {turn}."
        )
    return found


def _void_sentence(game: Game) -> str:
    if game.status != Game.Status.VOID:
        return ""
    voids = game.turns.filter(action__in=VOIDING, undone_at=None)
    void = voids.select_related("seat__player").last()
    return describe(void) if void else ""


def _log_context(
    game: Game, after: int, at: LogSteps, points: list[list[int]] | None
) -> dict[str, Any]:
    """One page of the log: the entries numbered above ``after``."""
    page = list(
        game.turns.filter(number__gt=after)
        .select_related("seat__player", "target__seat__player")
        .order_by("number")[: LOG_ROWS + 1]
    )
    more = len(page) > LOG_ROWS
    page = page[:LOG_ROWS]
    if points is None:  # a log that does not replay: no board to open, no totals
        at = LogSteps({}, at.number, {}, at.counts)
        points = []
    return {
        "log": _log_rows(game, page, at, points),
        "log_after": after,
        "log_next": page[-1].number if more else None,
    }


@require_GET
def game_log(request: HttpRequest, game_id: object) -> HttpResponse:
    """The next page of a game's log, as table rows for the game page's "later turns"."""
    game = fetch_game(game_id)
    try:
        after = query_whole(request.GET.get("after"), game.last_entry_number, ENTRY) or 0
    except InputError as error:
        return error_page(request, 400, "No such log entry", error.message, game=game)
    index = _index(game)
    try:
        points: list[list[int]] | None = _points(game, index, game.seats.count())
    except RefereeError:
        points = None
    options = RuleOptions.from_dict(game.options, get_ruleset(game.ruleset))
    steps_at = LogSteps.of(index, options)
    context = {"game": game, **_log_context(game, after, steps_at, points)}
    return render(request, "history/_log_rows.html", context)


def _replay_context(
    ruleset: Ruleset,
    turn: Turn | None,
    steps_at: LogSteps,
    state: GameState,
    at: int,
    names: list[str],
    points: list[list[int]],
) -> dict[str, Any]:
    placed = {(r, c) for r, c, _ in turn.tiles} if turn and kind_of(turn).places_tiles else set()
    last = len(steps_at.step)
    played = steps_at.played()
    return {
        "at": at,
        "last": last,
        # As players count turns: after which turn this is (after an entry that is no turn,
        # the end of the game, the turns before it), of how many.
        "number": played[at],
        "of": played[-1],
        "turn": turn,
        "caption": describe(turn) if turn else "The empty board, before the first turn.",
        "rows": board_rows(state, placed),
        "bag": state.bag,
        "scores": list(zip(names, points[at], strict=True)),
        "first": 0 if at > 0 else None,
        "previous": at - 1 if at > 0 else None,
        "next": at + 1 if at < last else None,
        "final": last if at < last else None,
    }


# What could have been played ------------------------------------------------------------------
REVIEW_PLAYS = 10


def _review(
    request: HttpRequest,
    game: Game,
    seats: list[Seat],
    index: Index,
    at: int,
    turn: Turn,
    replay: dict[str, Any],
) -> dict[str, Any]:
    """The best plays from the position before turn ``at`` with the rack the player had
    (typed, or the record's), beside the one made; ``show`` draws one of them on the board."""
    rack = request.GET.get("rack", turn.rack or "").strip()[:16]
    review: dict[str, Any] = {"rack": rack, "turn": turn, "asked": "rack" in request.GET}
    if game.lexicon == HONOUR_ID:
        review["problem"] = "An honour-system game has no word list to find plays in."
        return review
    if not rack:
        return review
    limit = analysis_limit()
    wait = spend(request, limit)
    if wait is not None:
        review["problem"] = refusal(limit, wait)
        return review
    before = _replay_at(game, seats, index, at - 1)
    try:
        found = analyse(
            game.ruleset, game.lexicon, before.board.rows(), rack, REVIEW_PLAYS,
            RuleOptions.from_dict(game.options, before.ruleset),
        )  # fmt: skip
    except RefereeError as error:
        review["problem"] = error.message
        return review
    spend(request, limit, cost_units(found) - 1)
    count, moves = found.count, found.moves
    if not found.complete:
        review["note"] = incomplete_note(found)
    made = turn.score if kind_of(turn).places_tiles else 0
    better = sum(1 for m in moves if m.score > made)
    review.update(
        {
            "count": count,
            "plays": moves,
            "made": made,
            "better": better if better < len(moves) else f"{better} or more",
        }
    )
    shown = request.GET.get("show", "")
    if shown.isascii() and shown.isdigit() and int(shown) < len(moves):
        move = moves[int(shown)]
        board = before.board.copy()
        for p in move.play.placements:
            board.place(p.row, p.col, p.tile)
        drawn = GameState(before.ruleset, before.options, board, before.scores, before.racks, 0)
        replay["rows"] = board_rows(drawn, set(move.play.squares))
        review["shown"] = move
    return review
