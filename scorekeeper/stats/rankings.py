"""Standings and statistics: rankings by ruleset, and what a player's record says.

Every figure counts finished games only, and reads each seat's stored ``result`` (decided
once, when the game finished) rather than working out again who won.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Avg, Count, Max, Q

from referee import RULESETS
from scorekeeper.games.replay import stood
from scorekeeper.games.results import LOSS, TIE, WIN
from scorekeeper.games.word_policy import honour_games
from scorekeeper.models import Game, Player, Seat, Turn

SORTS = {
    "best": ("best", "average", "wins"),
    "average": ("average", "best", "wins"),
    "wins": ("wins", "ties", "best", "average"),
}
SORT_LABELS = {"best": "best score", "average": "average score", "wins": "wins"}


def default_ruleset() -> str:
    """The first ruleset, in the registry's order, that has a finished game."""
    played = set(Game.objects.filter(status=Game.Status.FINISHED).values_list("ruleset", flat=True))
    return next((r for r in RULESETS if r in played), next(iter(RULESETS)))


WORDS = {"checked": "words checked", "honour": "honour system"}


def ranking_rows(ruleset: str, sort: str = "best", words: str = "checked") -> list[dict[str, Any]]:
    """Players by their final scores in finished games of ``ruleset``, ranked by ``sort``:
    games whose words were checked against a list, or (``words="honour"``) honour-system
    games, never the two mixed.

    A win is the strictly highest final score of a game; sharing the highest is a tie. A
    solo game counts as played but is neither a win nor a loss. The unlinked names of an
    imported record (``Player.from_record``) are in no ranking.
    """
    honour = honour_games("game__")
    rows = list(
        Seat.objects.filter(
            game__status=Game.Status.FINISHED, game__ruleset=ruleset, final_score__isnull=False
        )
        # A record's names that no one linked to a player are nobody's: no ranking holds them.
        .filter(player__from_record=False)
        .filter(honour if words == "honour" else ~honour)
        .values("player_id", "player__name")
        .annotate(
            games=Count("pk"),
            best=Max("final_score"),
            average=Avg("final_score"),
            wins=Count("pk", filter=Q(result=WIN)),
            ties=Count("pk", filter=Q(result=TIE)),
            losses=Count("pk", filter=Q(result=LOSS)),
        )
    )
    keys = SORTS[sort]
    rows.sort(key=lambda r: r["player__name"].casefold())
    rows.sort(key=lambda r: tuple(r[k] for k in keys), reverse=True)
    rank, previous = 0, None
    for position, row in enumerate(rows, 1):
        key = tuple(row[k] for k in keys)
        if key != previous:
            rank, previous = position, key
        row["rank"] = rank
    return rows


def player_record(player: Player, seats: list[Seat]) -> dict[str, Any]:
    """A player's best turn, best word and wins/losses/ties over ``seats`` (their games)."""
    plays = stood(Turn.objects.filter(seat__player=player))
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
    record = {result: sum(1 for s in seats if s.result == result) for result in (WIN, LOSS, TIE)}
    return {"best_turn": best_turn, "best_word": best_word, "record": record}


def player_results(seats: list[Seat]) -> list[dict[str, Any]]:
    """A player's finished games counted apart: casual games first, then each club's (by
    name), each with its wins, losses and ties. Void and abandoned games are not finished."""
    groups: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        game = seat.game
        if game.status != Game.Status.FINISHED:
            continue
        group = groups.setdefault(
            game.club_id, {"club": game.club, "games": 0, WIN: 0, LOSS: 0, TIE: 0}
        )
        group["games"] += 1
        if seat.result in (WIN, LOSS, TIE):
            group[seat.result] += 1
    casual = [groups.pop(None)] if None in groups else []
    return casual + sorted(groups.values(), key=lambda g: g["club"].name.casefold())


def player_game(seat: Seat) -> dict[str, Any]:
    """One line of a player's games: the opponents, the score and how it went."""
    game = seat.game
    opponents = [s for s in game.seats.all() if s.pk != seat.pk]
    finished = game.status == Game.Status.FINISHED
    if not finished:
        result = "in progress"
    elif not opponents:
        result = "solo"
    else:
        result = seat.result
    return {
        "game": game,
        "opponents": opponents,
        "score": seat.final_score if finished else seat.score,
        "result": result,
    }
