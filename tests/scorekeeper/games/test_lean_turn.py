"""The lean turn: one locked read of the game with its seats and players, the engine, one insert
and one update (and a seat's, when its numbers change); the turns played kept on the game."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.games import domain, rows
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.replay import count_turns_played
from scorekeeper.models import Game, Turn
from tests.factories import ApiGame, finished_game, letterup_game, make_club, upwords_game

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:  # type: ignore[no-untyped-def]
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.mark.parametrize("made", ["upwords", "letterup", "club"])
def test_the_one_read_gives_what_the_orm_reads(made):
    if made == "club":
        game = finished_game(["Ann", "Ben"], club=make_club("Riverside"))
    else:
        game = upwords_game() if made == "upwords" else letterup_game()
    with transaction.atomic():
        found = rows.lock_game(game.pk)
    assert found is not None
    read, seats = found
    stored = Game.objects.get(pk=game.pk)
    assert fields(read) == fields(stored)  # JSON, times, the id and the club alike
    orm = list(stored.seats.select_related("player").order_by("order"))
    assert [fields(s) for s in seats] == [fields(s) for s in orm]
    assert [fields(s.player) for s in seats] == [fields(s.player) for s in orm]
    assert all(s.game is read for s in seats)
    assert not read._state.adding and read._state.db == connection.alias


def test_the_one_read_of_no_game_is_none():
    with transaction.atomic():
        assert rows.lock_game(Game(ruleset="upwords-10").pk) is None


def test_a_turn_reads_once_inserts_once_and_updates_what_changed(client):
    game = ApiGame(client, ruleset="letterup-classic")
    statements = []
    for body in ({"action": "play", "notation": "8D HOUSE"}, {"action": "pass"}):
        with CaptureQueriesContext(connection) as queries:
            assert game.turn(body).status_code == 201
        statements.append([q["sql"].split()[0] for q in queries.captured_queries])
    # Beyond the rate limit's count and the transaction's savepoint: the locked read, the log
    # entry, the game; a play changes Ann's score too. The answer is built from what is at hand.
    for sent in statements:
        assert sent.count("SELECT") == 1 and sent.count("INSERT") == 2, sent  # + the rate count
    assert statements[0].count("UPDATE") == 2 and statements[1].count("UPDATE") == 1
    stored = Game.objects.get(pk=game.id)
    assert audit_game(stored) == []
    turn = Turn.objects.get(game=stored, number=1)
    assert (turn.action, turn.notation, turn.score, turn.totals) == (
        "play",
        "8D HOUSE",
        24,
        [24, 0],
    )


def test_the_turns_played_follow_undos_corrections_and_the_end():
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )

    def played() -> int:
        stored = Game.objects.get(pk=game.pk)
        assert stored.turns_played == count_turns_played(stored)
        return stored.turns_played

    domain.act(game.pk, domain.TurnCommand("play", notation="8D HOUSE"))
    domain.act(game.pk, domain.TurnCommand("pass"))
    assert played() == 2
    domain.act(game.pk, domain.TurnCommand("undo"))  # Ben's pass taken back
    assert played() == 1
    domain.act(game.pk, domain.TurnCommand("exchange", count=2))
    first = Turn.objects.get(game=game, number=1)
    domain.act(game.pk, domain.TurnCommand("correct", target=first.number, notation="8E WOOD"))
    assert played() == 2  # the correction stands where the play stood
    domain.act(game.pk, domain.TurnCommand("abandon"))
    assert played() == 2  # the end is no turn
    assert audit_game(Game.objects.get(pk=game.pk)) == []


def test_a_wrong_count_of_turns_played_is_named():
    game = upwords_game()
    counted = count_turns_played(game)
    Game.objects.filter(pk=game.pk).update(turns_played=counted + 1)
    problems = audit_game(Game.objects.get(pk=game.pk))
    assert problems == [f"turns_played: stored {counted + 1}, the log counts {counted}"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_turns_played_of_games_already_stored():
    from django.db.migrations.executor import MigrationExecutor

    before = [("scorekeeper", "0008_shared_limits")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        Game_, Seat_, Player_, Turn_ = (
            apps.get_model("scorekeeper", name) for name in ("Game", "Seat", "Player", "Turn")
        )
        game = Game_.objects.create(ruleset="upwords-10", lexicon="CLUB", challenge_mode="auto")
        seat = Seat_.objects.create(
            game=game, order=0, player=Player_.objects.create(name="Ann", name_key="ann")
        )
        empty = Game_.objects.create(ruleset="upwords-10", lexicon="CLUB", challenge_mode="auto")
        log = [("play", None), ("pass", "undone"), ("undo", None), ("play", "corrected")]
        log += [("correct", None), ("exchange", None), ("finish", None)]
        for number, (action, out) in enumerate(log, 1):
            Turn_.objects.create(
                game=game, seat=seat, number=number, action=action,
                undone_at=timezone.now() if out == "undone" else None,
                corrected_at=timezone.now() if out == "corrected" else None,
            )  # fmt: skip
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        # Up to the latest, 0009_game_turns_played among them: the tests after this one
        # need every later column.
        executor.migrate(executor.loader.graph.leaf_nodes())
    # In effect and counted: the first play, the correction, the exchange.
    assert Game.objects.get(pk=game.pk).turns_played == 3
    assert Game.objects.get(pk=empty.pk).turns_played == 0
