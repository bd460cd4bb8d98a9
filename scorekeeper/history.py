"""History pages: past games, a game's log with replay and chart, rankings, players.

Everything here reads; nothing changes a game. These pages are public, so they never show
or link a game's token (the scorer's secret): the spectator screen is the only live link.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.db.models import Avg, Count, Exists, Max, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from referee.errors import InputError, RefereeError
from referee.game import GameState
from referee.rulesets import RULESETS, RuleOptions, Ruleset, get_ruleset
from scorekeeper.domain import apply_logged
from scorekeeper.gcg import game_to_gcg
from scorekeeper.models import Game, Player, Seat, Turn
from scorekeeper.records import export_game
from scorekeeper.views import board_rows

PER_PAGE = 25
# Okabe–Ito colours, told apart with colour-blindness too; the dashes tell them apart in grey.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 2", "1 2")
LIVE = (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS)


def _seats_with_players() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))


def _game_or_404(game_id: object) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise Http404("There is no game with that id.")
    return game


def _error(
    request: HttpRequest, status: int, title: str, message: str, **links: Any
) -> HttpResponse:
    context = {"title": title, "message": message, **links}
    return render(request, "history/error.html", context, status=status)


# The list of games -----------------------------------------------------------------------------
class GameFilter(forms.Form):
    player = forms.CharField(required=False, max_length=40, label="Player")
    ruleset = forms.ChoiceField(
        required=False,
        choices=[("", "Any ruleset"), *[(r.id, r.name) for r in RULESETS.values()]],
        error_messages={"invalid_choice": "There is no ruleset called %(value)s."},
    )
    status = forms.ChoiceField(
        required=False,
        choices=[("", "Any status"), *Game.Status.choices],
        error_messages={"invalid_choice": "There is no status called %(value)s."},
    )
    date_from = forms.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],  # what a date input sends; 03/04 is ambiguous
        label="Started from",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Write the date as YYYY-MM-DD, such as 2025-03-01."},
    )
    date_to = forms.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        label="Started until",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Write the date as YYYY-MM-DD, such as 2025-03-31."},
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "This date is before the first one: no game fits.")
        return data


@require_GET
def game_list(request: HttpRequest) -> HttpResponse:
    form = GameFilter(request.GET or None)
    games = Game.objects.prefetch_related(_seats_with_players()).order_by("-created_at", "-pk")
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
    scores = [s.final_score if finished else s.score for s in seats]
    winners = _winners(scores) if finished else set()
    return {
        "game": game,
        "tie": len(winners) > 1,
        "players": [
            {"name": s.player.name, "score": score, "winner": i in winners}
            for i, (s, score) in enumerate(zip(seats, scores, strict=True))
        ],
    }


def _winners(scores: list[int | None]) -> set[int]:
    """Seats with the highest final score: two or more is a tie; a solo game has none."""
    known = [s for s in scores if s is not None]
    if len(scores) < 2 or not known:
        return set()
    best = max(known)
    return {i for i, s in enumerate(scores) if s == best}


# A game's page ---------------------------------------------------------------------------------
class BadStep(ValueError):
    pass


def _step(raw: str | None, last: int) -> int:
    if raw is None or raw == "":
        return last
    try:
        step = int(raw)
    except ValueError:
        raise BadStep(
            f"“{raw}” is not a turn number: use a whole number from 0 to {last}."
        ) from None
    if not 0 <= step <= last:
        raise BadStep(f"This game has turns 0 to {last}; there is no turn {step}.")
    return step


@dataclass
class Story:
    """A game replayed through the engine: the scores after every turn, and one board."""

    points: list[list[int]]  # points[n]: every seat's score after effective turn n
    totals: dict[int, tuple[int, int]] = field(default_factory=dict)  # turn pk: (seat, total)
    board: list[list[dict[str, Any]]] = field(default_factory=list)
    bag: int = 0


def _replay(
    game: Game, seats: list[Seat], effective: list[Turn], ruleset: Ruleset, at: int
) -> Story:
    state = GameState.new(ruleset, len(seats), RuleOptions.from_dict(game.options), game.first_seat)
    story = Story(points=[list(state.scores)])
    if at == 0:
        story.board, story.bag = board_rows(state, set()), state.bag
    for n, turn in enumerate(effective, 1):
        apply_logged(state, turn)
        # The turn that ends the game carries the end-of-game adjustment: the last point of
        # the chart is the final score.
        scores = list(state.final_scores or state.scores)
        story.points.append(scores)
        affected = turn.seat.order
        if turn.action == Turn.Action.CHALLENGE and turn.result == Turn.Result.UPHELD:
            affected = turn.target.seat.order if turn.target else affected
        story.totals[turn.pk] = (affected, scores[affected])
        if n == at:
            placed = (
                {(r, c) for r, c, _ in turn.tiles} if turn.action == Turn.Action.PLAY else set()
            )
            story.board, story.bag = board_rows(state, placed), state.bag
    return story


def _describe(turn: Turn) -> str:
    """One sentence for what a turn did, for the replay's caption."""
    name = turn.seat.player.name
    if turn.action == Turn.Action.PLAY:
        words = ", ".join(f"{w.get('word')} {w.get('score')}" for w in turn.words or [])
        return f"{name} played {turn.notation} ({words}) for {turn.score}."
    if turn.action == Turn.Action.PASS:
        return f"{name} passed."
    if turn.action == Turn.Action.EXCHANGE:
        return f"{name} exchanged {turn.count} tile{'s' if turn.count != 1 else ''}."
    if turn.action == Turn.Action.CHALLENGE:
        target = turn.target
        what = f"{target.seat.player.name}’s {target.notation}" if target else "the last play"
        if turn.result == Turn.Result.UPHELD:
            return f"{name} challenged {what}: upheld, not acceptable; the play came off."
        lost = f" {name} lost {-turn.score} points." if turn.score < 0 else ""
        return f"{name} challenged {what}: rejected, the play stands.{lost}"
    if turn.action == Turn.Action.FINISH:
        return "The game ended: what was left on the racks came off the scores."
    return f"{name}: {turn.action}."


def _log_rows(
    turns: list[Turn], effective: list[Turn], story: Story | None, names: list[str]
) -> list[dict[str, Any]]:
    step_of = {turn.pk: n for n, turn in enumerate(effective, 1)}
    # What became of each play that was challenged (by a challenge still in effect).
    verdicts = {
        t.target_id: t
        for t in turns
        if t.action == Turn.Action.CHALLENGE and not t.undone and t.target_id
    }
    rows = []
    for turn in turns:
        total = story.totals.get(turn.pk) if story else None
        total_label = ""
        if total is not None and turn.action == Turn.Action.FINISH and story:
            finals = story.points[step_of[turn.pk]]
            total_label = " · ".join(f"{n} {s}" for n, s in zip(names, finals, strict=True))
        elif total is not None:
            seat, points = total
            total_label = f"{names[seat]} {points}" if seat != turn.seat.order else str(points)
        # Like the verdict at the table, the log never says which word a challenge found
        # wanting (RULES.md §5): only whether the play was acceptable.
        words = [{"word": w.get("word", ""), "score": w.get("score")} for w in turn.words or []]
        racks = []
        if turn.action == Turn.Action.FINISH and turn.racks:
            for order, letters in sorted(turn.racks.items(), key=lambda kv: int(kv[0])):
                if 0 <= int(order) < len(names):
                    racks.append(f"{names[int(order)]}: {letters or 'nothing'}")
        rows.append(
            {
                "turn": turn,
                "step": step_of.get(turn.pk),
                "words": words,
                "racks": racks,
                "total": total_label,
                "verdict": verdicts.get(turn.pk) if turn.action == Turn.Action.PLAY else None,
            }
        )
    return rows


@require_GET
def game_page(request: HttpRequest, game_id: object) -> HttpResponse:
    game = _game_or_404(game_id)
    seats = list(game.seats.select_related("player").order_by("order"))
    turns = list(
        game.turns.select_related("seat__player", "target__seat__player").order_by("number")
    )
    effective = [t for t in turns if not t.undone and t.action != Turn.Action.UNDO]
    ruleset = get_ruleset(game.ruleset)
    try:
        at = _step(request.GET.get("turn"), len(effective))
    except BadStep as error:
        return _error(request, 400, "No such turn", str(error), game=game)
    names = [s.player.name for s in seats]
    story: Story | None = None
    problem = ""
    try:
        story = _replay(game, seats, effective, ruleset, at)
    except RefereeError as error:  # a damaged log: say so rather than fail
        problem = f"This game’s log does not replay ({error.message}), so there is no replay."
    finished = game.status == Game.Status.FINISHED
    finals = [s.final_score for s in seats]
    winners = _winners(finals) if finished else set()
    context: dict[str, Any] = {
        "game": game,
        "ruleset": ruleset,
        "seats": [
            {"seat": s, "name": s.player.name, "winner": i in winners, "colour": COLOURS[i]}
            for i, s in enumerate(seats)
        ],
        "winner_names": [names[i] for i in sorted(winners)],
        "tie": len(winners) > 1,
        "finished": finished,
        "live": game.status in LIVE,
        "log": _log_rows(turns, effective, story, names),
        "names": names,
        "problem": problem,
        "gcg": ruleset.family == "letterup",
        "checksum_short": game.lexicon_checksum[:19],
    }
    if story is not None:
        context["replay"] = _replay_context(ruleset, effective, story, at, names)
        context["chart"] = _chart(story.points, names, finished)
    if request.htmx and not request.htmx.history_restore_request and story is not None:
        response = render(request, "history/_replay.html", {**context, "swapped": True})
    else:
        response = render(request, "history/game.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _replay_context(
    ruleset: Ruleset, effective: list[Turn], story: Story, at: int, names: list[str]
) -> dict[str, Any]:
    last = len(effective)
    turn = effective[at - 1] if at else None
    return {
        "at": at,
        "last": last,
        "turn": turn,
        "caption": _describe(turn) if turn else "The empty board, before the first turn.",
        "rows": story.board,
        "columns": [chr(ord("A") + c) for c in range(ruleset.size)],
        "stacks": ruleset.stacks,
        "bag": story.bag,
        "scores": list(zip(names, story.points[at], strict=True)),
        "first": 0 if at > 0 else None,
        "previous": at - 1 if at > 0 else None,
        "next": at + 1 if at < last else None,
        "final": last if at < last else None,
    }


# The chart -------------------------------------------------------------------------------------
WIDTH, HEIGHT = 480, 280
LEFT, RIGHT, TOP, BOTTOM = 46, 14, 14, 42


def _nice_step(span: float, ticks: int) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals."""
    raw = max(span, 1) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 5, 10):
        if multiple * magnitude >= raw:
            return multiple * magnitude
    return 10 * magnitude  # pragma: no cover - the loop always returns


def _chart(points: list[list[int]], names: list[str], finished: bool) -> dict[str, Any]:
    """Each player's cumulative score by turn, laid out for an SVG with a fixed viewBox."""
    turns = len(points) - 1
    values = [v for row in points for v in row]
    low, high = min(0, *values), max(1, *values)
    y_step = _nice_step(high - low, 5)
    low = math.floor(low / y_step) * y_step
    high = math.ceil(high / y_step) * y_step
    x_step = max(1, int(_nice_step(turns, 8)))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(turn: int) -> float:
        return LEFT + plot_w * turn / max(turns, 1)

    def y(score: float) -> float:
        return TOP + plot_h * (high - score) / (high - low)

    series = []
    for seat, name in enumerate(names):
        scores = [row[seat] for row in points]
        series.append(
            {
                "name": name,
                "colour": COLOURS[seat % len(COLOURS)],
                "dash": DASHES[seat % len(DASHES)],
                "points": " ".join(f"{x(n):.1f},{y(s):.1f}" for n, s in enumerate(scores)),
                "count": len(scores),
                "last": scores[-1],
                "end": (round(x(turns), 1), round(y(scores[-1]), 1)),
            }
        )
    y_ticks = []
    value = low
    while value <= high + y_step / 2:
        y_ticks.append({"y": round(y(value), 1), "label": f"{value:g}"})
        value += y_step
    x_ticks = [{"x": round(x(n), 1), "label": n} for n in range(0, turns + 1, x_step)]
    ending = "final" if finished else "latest"
    summary = "; ".join(f"{s['name']} {s['last']}" for s in series)
    rows = [{"turn": n, "scores": row} for n, row in enumerate(points)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "top": TOP,
        "bottom": HEIGHT - BOTTOM,
        "mid_x": LEFT + plot_w / 2,
        "mid_y": TOP + plot_h / 2,
        "series": series,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "zero": round(y(0), 1) if low < 0 else None,
        "label": f"Cumulative score by turn, turns 0 to {turns}; {ending} scores: {summary}.",
        "rows": rows,
    }


# Exports ---------------------------------------------------------------------------------------
def _filename(game: Game, extension: str) -> str:
    return f"{game.ruleset}-{game.created_at:%Y-%m-%d}-{str(game.pk)[:8]}.{extension}"


@require_GET
def export_json(request: HttpRequest, game_id: object) -> HttpResponse:
    game = _game_or_404(game_id)
    body = json.dumps(export_game(game), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "json")}"'
    return response


@require_GET
def export_gcg(request: HttpRequest, game_id: object) -> HttpResponse:
    game = _game_or_404(game_id)
    try:
        text = game_to_gcg(game)
    except InputError:
        return _error(
            request,
            404,
            "No GCG for this game",
            f"GCG is a format for Letter UP games; this is a game of "
            f"{get_ruleset(game.ruleset).name}. Its JSON record holds everything.",
            game=game,
            json=True,
        )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "gcg")}"'
    return response


# Rankings --------------------------------------------------------------------------------------
SORTS = {
    "best": ("best", "average", "wins"),
    "average": ("average", "best", "wins"),
    "wins": ("wins", "ties", "best", "average"),
}


SORT_LABELS = {"best": "best score", "average": "average score", "wins": "wins"}


class RankingsFilter(forms.Form):
    ruleset = forms.ChoiceField(
        required=False,
        choices=[(r.id, r.name) for r in RULESETS.values()],
        error_messages={"invalid_choice": "There is no ruleset called %(value)s."},
    )
    sort = forms.ChoiceField(
        required=False,
        choices=[(key, label.capitalize()) for key, label in SORT_LABELS.items()],
        error_messages={"invalid_choice": "Rankings sort by best, average or wins, not %(value)s."},
    )


def _default_ruleset() -> str:
    played = set(Game.objects.filter(status=Game.Status.FINISHED).values_list("ruleset", flat=True))
    return next((r for r in RULESETS if r in played), "upwords-10")


def ranking_rows(ruleset: str, sort: str = "best") -> list[dict[str, Any]]:
    """Players by their final scores in finished games of ``ruleset``, ranked by ``sort``.

    A win is the strictly highest final score of a game; sharing the highest is a tie. A
    solo game counts as played but is neither.
    """
    others = Seat.objects.filter(game=OuterRef("game")).exclude(pk=OuterRef("pk"))
    has_opponent = Exists(others)
    beaten = Exists(others.filter(final_score__gt=OuterRef("final_score")))
    level = Exists(others.filter(final_score=OuterRef("final_score")))
    rows = list(
        Seat.objects.filter(
            game__status=Game.Status.FINISHED, game__ruleset=ruleset, final_score__isnull=False
        )
        .values("player_id", "player__name")
        .annotate(
            games=Count("pk"),
            best=Max("final_score"),
            average=Avg("final_score"),
            wins=Count("pk", filter=Q(has_opponent) & ~Q(beaten) & ~Q(level)),
            ties=Count("pk", filter=Q(level) & ~Q(beaten)),
        )
    )
    keys = SORTS[sort]
    rows.sort(key=lambda r: r["player__name"].casefold())
    rows.sort(key=lambda r: tuple(r[k] for k in keys), reverse=True)
    rank, previous = 0, None
    for position, row in enumerate(rows, 1):
        row["losses"] = row["games"] - row["wins"] - row["ties"]
        key = tuple(row[k] for k in keys)
        if key != previous:
            rank, previous = position, key
        row["rank"] = rank
    return rows


@require_GET
def rankings(request: HttpRequest) -> HttpResponse:
    form = RankingsFilter(request.GET)
    if not form.is_valid():
        for name in form.errors:
            form.fields[name].widget.attrs["aria-describedby"] = f"id_{name}_error"
        return render(request, "history/rankings.html", {"form": form}, status=400)
    ruleset = form.cleaned_data["ruleset"] or _default_ruleset()
    sort = form.cleaned_data["sort"] or "best"
    form = RankingsFilter({"ruleset": ruleset, "sort": sort})
    form.is_valid()
    context = {
        "form": form,
        "ruleset": get_ruleset(ruleset),
        "sort": sort,
        "sort_label": SORT_LABELS[sort],
        "rows": ranking_rows(ruleset, sort),
    }
    return render(request, "history/rankings.html", context)


# A player's page -------------------------------------------------------------------------------
def _stood(turns: QuerySet[Turn]) -> QuerySet[Turn]:
    """Plays in effect: neither undone nor taken off by an upheld challenge still in effect."""
    taken_off = Turn.objects.filter(
        target=OuterRef("pk"),
        action=Turn.Action.CHALLENGE,
        result=Turn.Result.UPHELD,
        undone_at__isnull=True,
    )
    return turns.filter(action=Turn.Action.PLAY, undone_at__isnull=True).exclude(Exists(taken_off))


@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("There is no player with that number.")
    seats = (
        Seat.objects.filter(player=player)
        .select_related("game")
        .prefetch_related(
            Prefetch(
                "game__seats", queryset=Seat.objects.select_related("player").order_by("order")
            )
        )
        .order_by("-game__created_at")
    )
    games = [_player_game(seat) for seat in seats]
    plays = _stood(Turn.objects.filter(seat__player=player))
    best_turn = plays.select_related("game").order_by("-score", "created_at", "pk").first()
    best_word = None
    # The words sit in a JSON list on each turn: reading them here is simpler and portable
    # across SQLite and PostgreSQL, and a player's plays are few.
    for turn_id, game_id, notation, words in plays.order_by("created_at", "pk").values_list(
        "pk", "game_id", "notation", "words"
    ):
        for word in words or []:
            score = word.get("score")
            if isinstance(score, int) and (best_word is None or score > best_word["score"]):
                best_word = {
                    "word": word.get("word", ""),
                    "score": score,
                    "notation": notation,
                    "game_id": game_id,
                    "turn_id": turn_id,
                }
    record = {
        result: sum(1 for g in games if g["result"] == result) for result in ("win", "loss", "tie")
    }
    context = {
        "player": player,
        "games": games,
        "best_turn": best_turn,
        "best_word": best_word,
        "record": record,
        "rulesets": RULESETS,
    }
    return render(request, "history/player.html", context)


def _player_game(seat: Seat) -> dict[str, Any]:
    game = seat.game
    seats = list(game.seats.all())
    opponents = [s for s in seats if s.pk != seat.pk]
    finished = game.status == Game.Status.FINISHED
    if not finished:
        result = "in progress"
    elif not opponents:
        result = "solo"
    else:
        winners = _winners([s.final_score for s in seats])
        mine = next(i for i, s in enumerate(seats) if s.pk == seat.pk)
        result = ("tie" if len(winners) > 1 else "win") if mine in winners else "loss"
    return {
        "game": game,
        "opponents": opponents,
        "score": seat.final_score if finished else seat.score,
        "result": result,
    }
