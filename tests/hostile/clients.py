"""What the hostile tests share: a counting test client, a small word list, the Hypothesis
profile, and the checks that a refused request changed nothing.

Every hostile request goes through ``HostileClient``, which counts it (per test and in total)
and remembers any server error, so the run ends with a line such as
``hostile input: 4,321 requests, 0 server errors``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings

from referee.rulesets import RULESETS
from scorekeeper.api.serialize import game_state
from scorekeeper.games.turn_kinds import KINDS
from scorekeeper.models import Game, Player, Seat, Turn

WORDS = "MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT CATS AT QUIT ZAG AH GO OX QI TO"

# One profile for the whole hostile suite: reproducible (derandomized) and without the
# health checks that fire because each test's game fixture is function-scoped.
hypothesis_settings.register_profile(
    "hostile",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    # Without the explain phase, a failure prints the values that failed.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
HOSTILE = hypothesis_settings.get_profile("hostile")


# The tally ---------------------------------------------------------------------------------------
class Tally:
    """How many hostile requests each test sent, their answers, and any server error."""

    def __init__(self) -> None:
        self.statuses: dict[str, Counter[int]] = {}
        self.server_errors: list[tuple[str, str]] = []
        self.expected: set[str] = set()  # tests marked xfail for a known bug
        self.test = "(outside a test)"

    def record(self, method: str, path: str, status: int) -> None:
        self.statuses.setdefault(self.test, Counter())[status] += 1
        if status >= 500:
            self.server_errors.append((self.test, f"{method} {path[:120]} -> {status}"))

    @property
    def total(self) -> int:
        return sum(sum(c.values()) for c in self.statuses.values())


TALLY = Tally()


class HostileClient(Client):
    """Django's test client that answers a server error with a 500 (not an exception) and counts."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(raise_request_exception=False, **kwargs)

    def request(self, **request: Any) -> Any:
        response = super().request(**request)
        TALLY.record(
            request.get("REQUEST_METHOD", "?"), request.get("PATH_INFO", ""), response.status_code
        )
        return response


# Checking that nothing changed -------------------------------------------------------------------
def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every game, seat, player and turn: whatever a request changed shows here."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Game, Seat, Player, Turn)
    }


def apart_from(rows: dict[str, list[dict[str, Any]]], game_id: str) -> dict[str, list[Any]]:
    """The snapshot without one game's own rows (its game, seats and turns)."""
    return {
        "Game": [r for r in rows["Game"] if str(r["id"]) != game_id],
        "Seat": [r for r in rows["Seat"] if str(r["game_id"]) != game_id],
        "Turn": [r for r in rows["Turn"] if str(r["game_id"]) != game_id],
        "Player": rows["Player"],
    }


@contextmanager
def rolled_back() -> Iterator[None]:
    """Run one example in a savepoint that is always rolled back: each starts from the same games."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


def tiles_conserved(state: dict[str, Any]) -> bool:
    """Board, bag and racks hold exactly the tile set."""
    on_board = sum(len(square) for row in state["board"] for square in row)
    on_racks = sum(p["rack_count"] for p in state["players"])
    return on_board + state["bag_count"] + on_racks == RULESETS[state["ruleset"]].total_tiles


# Checking the API's answers ----------------------------------------------------------------------
ACTIONS = tuple(KINDS)


def api_error(status: int, content_type: str, content: bytes) -> dict[str, Any]:
    """The error of a refused API request: a 4xx, JSON ``{"error": {"code", "message"}}``."""
    assert status < 500, (status, content[:500])
    assert 400 <= status < 500, (status, content[:500])
    assert content_type.startswith("application/json"), content_type
    body = json.loads(content)
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"], error
    assert isinstance(error["message"], str) and error["message"].strip(), error
    return error


def without_undo_marks(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in t.items() if not k.startswith("undone")} for t in turns]


def assert_turn_entered(before: dict[str, Any], game_id: str, action: str) -> Game:
    """Exactly one turn was entered, on this game only, by the rules; the game, stored."""
    after = snapshot()
    game = Game.objects.get(pk=game_id)
    (old,) = [g for g in before["Game"] if str(g["id"]) == game_id]
    # Undo may reopen a finished game (its last pass taken back), and a correction replays
    # it; nothing else may move it.
    assert old["status"] != "finished" or action in ("undo", "correct")
    assert action in ACTIONS
    assert game.last_entry_number == old["last_entry_number"] + 1
    # The log only grows by this turn: earlier entries stay, at most marked undone.
    turns_before = [t for t in before["Turn"] if str(t["game_id"]) == game_id]
    turns_after = [t for t in after["Turn"] if str(t["game_id"]) == game_id]
    if action == "correct":
        # A correction marks the turn it replaces and scores later ones again: what was
        # played stays.
        kept = ("number", "action", "tiles", "count")
        assert [{k: t[k] for k in kept} for t in turns_after[:-1]] == [
            {k: t[k] for k in kept} for t in turns_before
        ]
    else:
        assert without_undo_marks(turns_after[:-1]) == without_undo_marks(turns_before)
    assert (
        turns_after[-1]["number"] == game.last_entry_number and turns_after[-1]["action"] == action
    )
    if action == "play":
        placed = [(r, c) for r, c, _ in turns_after[-1]["tiles"]]
        assert len(placed) == len(set(placed)) <= 7
    assert tiles_conserved(game_state(game))
    assert apart_from(after, game_id) == apart_from(before, game_id)
    return game


def assert_game_created(before: dict[str, Any], game_id: str) -> Game:
    """Exactly one new game, in play with an empty log; nothing else changed but new players."""
    after = snapshot()
    new = [g for g in after["Game"] if g not in before["Game"]]
    assert [str(g["id"]) for g in new] == [game_id]
    assert apart_from(after, game_id) == {**before, "Player": after["Player"]}
    assert all(p in after["Player"] for p in before["Player"])
    game = Game.objects.get(pk=game_id)
    state = game_state(game)
    assert state["last_turn"] is None and state["status"] == "in_progress"
    assert tiles_conserved(state)
    assert all("\x00" not in seat.player.name for seat in game.seats.select_related("player"))
    return game
