"""Where a write locks the whole database (SQLite), a turn that reads nothing but the game's
rows is worked out before the lock and stored under it only if the game is unchanged since (its
version: the latest entry's number and the last change's time); else it is worked out again
under the lock, as if it had arrived after the change."""

from __future__ import annotations

import threading
import time
from datetime import datetime

import pytest
from django.db import connection
from django.utils import timezone

from config.sqlite import base as sqlite_base
from referee import RefereeError
from scorekeeper.games import domain, rows
from scorekeeper.games.consistency import audit_game
from scorekeeper.models import Game, Turn
from tests.factories import MOOD, new_game

# Transactions of their own: a test's wrapping transaction would hold the lock all along.
pytestmark = pytest.mark.django_db(transaction=True)

WHOLE_DATABASE = pytest.mark.skipif(
    "connection.features.has_select_for_update",
    reason="PostgreSQL locks the game's row only: the turn is worked out under it",
)


@pytest.fixture
def engine_calls(monkeypatch):
    """For each turn entered, whether it was worked out inside a transaction."""
    calls: list[bool] = []
    enter = domain.enter_turn

    def recorded(kind, context):  # type: ignore[no-untyped-def]
        calls.append(connection.in_atomic_block)
        return enter(kind, context)

    monkeypatch.setattr(domain, "enter_turn", recorded)
    return calls


def game_rows_then(monkeypatch, meanwhile) -> list[bool]:  # type: ignore[no-untyped-def]
    """Run ``meanwhile`` (another device's change) right after the first unlocked read of a
    game's rows; which reads were locked."""
    read = rows.game_rows
    reads: list[bool] = []

    def then(pk, *, lock):  # type: ignore[no-untyped-def]
        found = read(pk, lock=lock)
        reads.append(lock)
        if not lock and len(reads) == 1:
            meanwhile()
        return found

    monkeypatch.setattr(rows, "game_rows", then)
    return reads


@WHOLE_DATABASE
def test_a_play_is_worked_out_before_the_lock_and_stored_under_it(engine_calls):
    game = new_game()
    applied = domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD, expected_turn=1))
    assert engine_calls == [False]
    stored = Game.objects.get(pk=game.pk)
    assert stored.last_entry_number == 1 and stored.turns_played == 1 and stored.to_move == 1
    assert applied.turn.pk == Turn.objects.get(game=stored).pk and applied.turn.score == 8
    assert [s.score for s in stored.seats.order_by("order")] == [8, 0]
    assert audit_game(stored) == []


@WHOLE_DATABASE
def test_a_challenge_and_a_correction_read_the_log_ahead_and_an_undo_under_the_lock(
    engine_calls,
):
    # The log changes only with the game's version, which the store checks; an undo may read
    # a club's directors (undoing a void), which it doesn't.
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD))
    domain.act(game.pk, domain.TurnCommand("challenge"))  # judges the last play, read from the log
    domain.act(
        game.pk,
        domain.TurnCommand("correct", target=1, tiles=[(4, 4, "M"), (4, 5, "O"), (4, 6, "D")]),
    )
    domain.act(game.pk, domain.TurnCommand("undo", by="Ben"))
    assert engine_calls == [False, False, False, True]
    assert audit_game(Game.objects.get(pk=game.pk)) == []


@WHOLE_DATABASE
def test_a_turn_entered_meanwhile_makes_a_correction_worked_out_again(monkeypatch, engine_calls):
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD))
    domain.act(game.pk, domain.TurnCommand("pass"))
    engine_calls.clear()
    reads = game_rows_then(
        monkeypatch, lambda: domain.act(game.pk, domain.TurnCommand("undo"))
    )  # the pass goes
    domain.act(
        game.pk,
        domain.TurnCommand("correct", target=1, tiles=[(4, 4, "M"), (4, 5, "O"), (4, 6, "D")]),
    )
    assert reads == [False, True, True]  # ahead, the undo's, the lock's
    assert engine_calls == [True, False, True]  # the undo, the correction, the correction again
    stored = Game.objects.get(pk=game.pk)
    assert audit_game(stored) == []
    correction = Turn.objects.get(game=stored, action="correct")
    # Worked out again on the log as the undo left it: the correction is the last turn.
    assert (correction.notation, stored.turns_played, stored.to_move) == ("5E MOD", 1, 1)


@WHOLE_DATABASE
def test_a_refusal_worked_out_ahead_changes_nothing(engine_calls):
    game = new_game()
    before = rows.game_rows(game.pk, lock=False)
    with pytest.raises(RefereeError):  # not in one line
        domain.act(game.pk, domain.TurnCommand("play", tiles=[(4, 3, "A"), (5, 4, "T")]))
    assert engine_calls == [False]
    assert rows.game_rows(game.pk, lock=False) == before
    assert not Turn.objects.filter(game=game).exists()


@WHOLE_DATABASE
def test_a_turn_entered_meanwhile_makes_the_play_worked_out_again(monkeypatch, engine_calls):
    game = new_game()
    reads = game_rows_then(
        monkeypatch, lambda: domain.act(game.pk, domain.TurnCommand("pass"))
    )  # Ann passes
    # Worked out for Ann; the rows differ under the lock, so it is worked out again there for
    # the player to move now, as if it had arrived after the pass: Ben plays.
    applied = domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD))
    assert reads == [False, False, True]  # ahead, the pass's (ahead too), the lock's
    assert engine_calls == [False, False, True]  # the play, the pass, the play again
    stored = Game.objects.get(pk=game.pk)
    log = list(Turn.objects.filter(game=stored).order_by("number").select_related("seat"))
    assert [(t.number, t.action, t.seat.order) for t in log] == [(1, "pass", 0), (2, "play", 1)]
    assert applied.turn.pk == log[1].pk and stored.last_entry_number == 2 and stored.to_move == 0
    assert [s.score for s in stored.seats.order_by("order")] == [0, 8]
    assert audit_game(stored) == []


@WHOLE_DATABASE
def test_a_turn_entered_meanwhile_makes_a_play_for_the_taken_number_stale(monkeypatch):
    game = new_game()
    game_rows_then(monkeypatch, lambda: domain.act(game.pk, domain.TurnCommand("pass")))
    with pytest.raises(domain.StaleTurn):
        domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD, expected_turn=1))
    stored = Game.objects.get(pk=game.pk)
    assert stored.last_entry_number == 1
    assert list(Turn.objects.filter(game=stored).values_list("action", flat=True)) == ["pass"]


@WHOLE_DATABASE
def test_a_new_scorer_link_meanwhile_makes_the_turn_worked_out_again(monkeypatch, engine_calls):
    game = new_game()
    game_rows_then(monkeypatch, lambda: domain.do_new_scorer_link(game.pk))
    domain.act(game.pk, domain.TurnCommand("pass"))
    assert engine_calls == [False, True]
    assert audit_game(Game.objects.get(pk=game.pk)) == []


def test_every_change_to_a_game_gives_it_a_new_version():
    game = new_game()

    def version():  # type: ignore[no-untyped-def]
        return rows.version_of(rows.game_rows(game.pk, lock=False))

    seen = [version()]
    domain.do_set_first(game.pk, "Ben")
    seen.append(version())
    domain.do_new_scorer_link(game.pk)
    seen.append(version())
    for action in ("pass", "pass", "undo"):
        domain.act(game.pk, domain.TurnCommand(action, by="Ann"))
        seen.append(version())
    assert None not in seen and len(set(seen)) == len(seen)
    assert rows.version_of(rows.game_rows(Game(ruleset="upwords-10").pk, lock=False)) is None


@WHOLE_DATABASE
def test_a_turn_worked_out_ahead_is_stamped_as_it_is_written(monkeypatch, engine_calls):
    # The screens' watch of the record reads the games changed since a moment: a turn stamped
    # when it was worked out, then queued for the lock, could be older than the watch's last
    # look by the time it commits.
    game = new_game()
    locked: list[datetime] = []
    acquire, here = sqlite_base._Writers.acquire, threading.current_thread()

    def later(self, timeout):  # type: ignore[no-untyped-def]
        if threading.current_thread() is not here:  # the checkpoint thread's
            return acquire(self, timeout)
        time.sleep(0.02)  # the queue for the lock
        acquire(self, timeout)
        locked.append(timezone.now())

    monkeypatch.setattr(sqlite_base._Writers, "acquire", later)
    applied = domain.act(game.pk, domain.TurnCommand("play", tiles=MOOD))
    assert engine_calls == [False] and len(locked) == 1  # stored as worked out ahead
    stored = Game.objects.get(pk=game.pk)
    entry = Turn.objects.get(pk=applied.turn.pk)
    assert entry.created_at == stored.updated_at == applied.game.updated_at
    assert entry.created_at > locked[0]
