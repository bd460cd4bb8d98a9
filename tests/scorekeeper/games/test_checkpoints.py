"""Checkpoints are a cache of the replay: after imports, undos, challenges and corrections, each
one is the state a replay of the log from the start reaches at its place, the states read
from them are the replay's, and ``check_games`` says so, or says which one is not."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from scorekeeper.games import checkpoints, domain
from scorekeeper.games.consistency import audit_game, checkpoint_problems
from scorekeeper.games.replay import replay, steps
from scorekeeper.models import Checkpoint, Game
from scorekeeper.records.gcg_import import import_gcg
from tests.factories import HOUSE

pytestmark = pytest.mark.django_db

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "gcg" / "real"
# A play with a blank in each of these real records, and the same play with the letter itself:
# a correction that changes that turn's score and every total after it, and stays legal.
BLANK_TO_LETTER = [
    ("capp.gcg", 1, "8B NOCTURN"),
    ("doug_v_emely_double_challenge.gcg", 18, "K5 RE.IGION"),
    ("multiplayer-crash.gcg", 7, "11D MISMOV.D"),
    ("utf8_dos.gcg", 16, "3G BIRTHED"),
]


@pytest.fixture(autouse=True)
def every_few_turns(monkeypatch):
    """A checkpoint every 3 places: real games of 20-30 entries get several."""
    monkeypatch.setattr(checkpoints, "EVERY", 3)


def agrees(game_id: object) -> Game:
    """The game, once every checkpoint and every state read from them is the replay's."""
    game = Game.objects.get(pk=game_id)
    assert audit_game(game) == []
    players = game.seats.count()
    replayed = [step.state.to_dict() for step in steps(game)]
    for at, state in enumerate(replayed, 1):
        assert checkpoints.state_at(game, at, players).to_dict() == state, at
    places = dict(game.turns.effective().values_list("number", "place"))
    stored = set(game.checkpoints.values_list("place", flat=True))
    assert stored <= set(places.values())
    assert game.checkpoint_place == max(stored, default=0)
    return game


@pytest.mark.parametrize(("record", "entry", "letters"), BLANK_TO_LETTER)
def test_a_real_game_s_checkpoints_follow_its_undos_and_corrections(record, entry, letters):
    game = import_gcg((REAL / record).read_bytes()).game
    assert game.checkpoints.count() >= 3
    agrees(game.pk)
    if game.status == Game.Status.FINISHED:
        domain.act(game.pk, domain.TurnCommand("undo"))  # the end of the game, which read the racks
        agrees(game.pk)
    applied = domain.act(game.pk, domain.TurnCommand("correct", target=entry, notation=letters))
    assert applied.changes  # scores changed from that turn on: so did the states after it
    agrees(game.pk)
    domain.act(game.pk, domain.TurnCommand("undo"))
    domain.act(game.pk, domain.TurnCommand("undo"))
    agrees(game.pk)
    domain.act(game.pk, domain.TurnCommand("pass"))
    agrees(game.pk)


def test_checkpoints_follow_challenges_undos_and_corrections_at_the_table(use_words):
    use_words("HOUSE HOUSES EXAM ZA")
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB", challenge_mode="manual"
    )
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    for _ in range(4):
        domain.act(game.pk, domain.TurnCommand("exchange", count=1))
    domain.act(game.pk, domain.TurnCommand("play", notation="H8 .XAM"))
    agrees(game.pk)
    domain.act(game.pk, domain.TurnCommand("challenge"))  # EXAM is good: rejected
    domain.act(game.pk, domain.TurnCommand("play", notation="10G Z."))  # ZA through EXAM's A: good
    domain.act(
        game.pk, domain.TurnCommand("play", tiles=[(11, 7, "Q"), (12, 7, "I")])
    )  # EXAMQI: not a word
    assert (
        domain.act(game.pk, domain.TurnCommand("challenge")).turn.result == "upheld"
    )  # EXAMQI is taken off
    agrees(game.pk)
    domain.act(
        game.pk, domain.TurnCommand("correct", target=1, notation="8D HOUSES")
    )  # every total after it
    agrees(game.pk)
    domain.act(
        game.pk, domain.TurnCommand("undo")
    )  # the upheld challenge: EXAMQI back on the board
    domain.act(game.pk, domain.TurnCommand("undo"))  # EXAMQI
    agrees(game.pk)
    for _ in range(3):
        domain.act(game.pk, domain.TurnCommand("exchange", count=2))
    domain.act(
        game.pk, domain.TurnCommand("correct", target=2, count=3)
    )  # the first exchange, of 3 tiles
    domain.act(game.pk, domain.TurnCommand("finish", racks={0: "AEIOURT", 1: "AEIOUNT"}))
    agrees(game.pk)


def test_an_imported_log_keeps_its_checkpoints(use_words):
    use_words("HOUSE")
    draft = domain.draft_game(ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB")
    draft.enter("play", tiles=HOUSE)
    for _ in range(9):
        draft.enter("exchange", count=1)
    game = draft.save()
    assert list(game.checkpoints.values_list("place", "step")) == [(3, 3), (6, 6), (9, 9)]
    agrees(game.pk)


def test_the_check_finds_a_checkpoint_that_disagrees_with_the_log(use_words):
    use_words("HOUSE")
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    for _ in range(5):
        domain.act(
            game.pk, domain.TurnCommand("pass" if _ % 2 else "exchange", count=None if _ % 2 else 1)
        )
    stale = Checkpoint.objects.get(game=game, place=3)
    stale.state = {**stale.state, "scores": [25, 0]}
    stale.save()
    assert checkpoint_problems(Game.objects.get(pk=game.pk), 2) == [
        "the checkpoint after turn 3 is not the state the log's replay reaches there"
    ]
    assert audit_game(Game.objects.get(pk=game.pk)) != []


def test_check_games_rebuilds_the_checkpoints_of_a_game_stored_without_them(use_words):
    use_words("HOUSE")
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    for _ in range(7):
        domain.act(game.pk, domain.TurnCommand("exchange", count=1))
    Checkpoint.objects.filter(game=game).delete()  # as a game stored before they were kept
    Game.objects.filter(pk=game.pk).update(checkpoint_place=0)
    said = io.StringIO()
    call_command("check_games", str(game.pk), "--rebuild-checkpoints", stdout=said)
    assert f"{game.pk}: 2 checkpoint(s) made from its log" in said.getvalue()
    assert list(Checkpoint.objects.filter(game=game).values_list("place", flat=True)) == [3, 6]
    stored = agrees(game.pk)
    assert replay(stored).to_dict() == checkpoints.state_at(stored, 8, 2).to_dict()


@pytest.mark.django_db(transaction=True)
def test_the_migration_places_the_entries_of_games_already_stored():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = [("scorekeeper", "0011_one_player_per_account")]
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
        # 1 play, corrected by 3, itself corrected by 4; 2 a pass undone by 5; 6 a pass.
        log = [("play", None, "corrected"), ("pass", None, "undone"), ("correct", 1, "corrected")]
        log += [("correct", 3, None), ("undo", 2, None), ("pass", None, None)]
        made = {}
        for number, (action, target, out) in enumerate(log, 1):
            made[number] = Turn_.objects.create(
                game=game, seat=seat, number=number, action=action,
                target=made.get(target) if target else None,
                undone_at=timezone.now() if out == "undone" else None,
                corrected_at=timezone.now() if out == "corrected" else None,
            )  # fmt: skip
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
    places = dict(Game.objects.get(pk=game.pk).turns.values_list("number", "place"))
    assert places == {1: 1, 2: 2, 3: 1, 4: 1, 5: 5, 6: 6}
    assert Game.objects.get(pk=game.pk).checkpoint_place == 0  # none kept: replayed as before
