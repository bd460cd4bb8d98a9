"""The table of action kinds, and the domain's one path through it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.errors import IllegalAction
from scorekeeper import models
from scorekeeper.games import domain, entering
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.turn_kinds import (
    JUDGING,
    KINDS,
    MOVES,
    PLAYS,
    TAKING_BACK,
    describe,
)
from scorekeeper.models import Game, Turn
from tests.factories import ApiGame, scorer, start

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


def test_every_kind_names_its_handler_replay_sentence_label_and_gcg():
    assert set(KINDS) == {
        "play", "pass", "exchange", "challenge", "penalty", "undo", "finish", "correct", "abandon",
        "void", "clock",
    }  # fmt: skip
    for name, kind in KINDS.items():
        assert kind.name == name
        assert callable(kind.enter) and callable(kind.describe) and callable(kind.label)
        assert callable(kind.gcg)
        # Only a kind that rebuilds the game from the log is not itself replayed.
        assert (kind.replay is None) == kind.rebuilds


def test_each_kind_is_described_in_one_sentence(client):
    game = ApiGame(client, challenge_mode="manual")
    game.play(MOOD)
    game.turn({"action": "challenge"})
    game.turn({"action": "exchange", "count": 1})
    game.turn({"action": "undo"})
    game.turn({"action": "pass"})
    turns = list(Turn.objects.filter(game_id=game.id).order_by("number"))
    assert [describe(t) for t in turns] == [
        "Ann played 5D MOOD for 8 (MOOD 8).",
        "Ben challenged: ACCEPTABLE – Ann’s play 5D MOOD stands; the challenge costs Ben nothing.",
        "Ben exchanged 1 tile (undone).",
        "Turn 2 was undone: Ben exchanged 1 tile.",
        "Ben passed.",
    ]


def test_the_scorer_is_told_the_same_sentence_the_log_shows(client):
    game = start(client)
    response = client.post(
        scorer(game) + "turn",
        {"action": "play", "play": "5D MOOD", "expected_turn": 1},
        follow=True,
    )
    assert "Ann played 5D MOOD for 8 (MOOD 8)." in response.content.decode()


def test_a_second_phone_sending_the_same_play_is_told_it_was_entered(client):
    game = start(client)
    data = {"action": "play", "play": "5D MOOD", "expected_turn": 1}
    assert client.post(scorer(game) + "turn", data).status_code == 302
    # The board now holds MOOD, so the same notation would read as "no new tiles": the stale
    # turn is what the second phone must hear about, before the play is read at all, and
    # since it is the very turn entered, it hears that turn's own sentence.
    again = client.post(scorer(game) + "turn", data, follow=True)
    assert "Ann played 5D MOOD for 8 (MOOD 8)." in again.content.decode()
    assert "needs at least one tile" not in again.content.decode()
    assert Game.objects.get(pk=game.pk).last_entry_number == 1


def test_a_stale_api_play_is_a_409_before_the_play_is_read(client):
    game = ApiGame(client)
    body = {"action": "play", "notation": "5D MOOD", "expected_turn": 1}
    assert game.turn(body).status_code == 201
    again = game.turn(body)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_turn"


def test_the_api_takes_a_play_in_notation_read_against_the_board_under_the_lock(client):
    game = ApiGame(client)
    game.play(MOOD)
    answer = game.turn({"action": "play", "notation": "D5 W", "expected_turn": 2})
    assert answer.status_code == 201
    assert answer.json()["turn"]["notation"] == "5D W..." and answer.json()["turn"]["score"] == 5
    stale = game.turn({"action": "play", "notation": "D5 W", "expected_turn": 2})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_turn"


@pytest.mark.parametrize(
    ("count", "message"),
    [("one", "The number of tiles to exchange must be a whole number"), ("-1", "whole number")],
)
def test_a_bad_count_on_the_page_names_the_count(client, count, message):
    game = start(client)
    response = client.post(
        scorer(game) + "turn", {"action": "exchange", "count": count, "expected_turn": 1}
    )
    assert response.status_code == 303  # back to the scorer page, with the reason
    assert message in client.get(response["Location"]).content.decode()
    assert Game.objects.get(pk=game.pk).last_entry_number == 0


def test_an_engine_error_is_not_mistaken_for_a_bad_number(client):
    game = start(client)
    response = client.post(
        scorer(game) + "turn", {"action": "play", "play": "5D ZZ", "expected_turn": 1}
    )
    page = client.get(response["Location"]).content.decode()
    assert "whole number" not in page
    assert "only 1 Z tile" in page


def test_an_unknown_action_changes_nothing(client):
    game = ApiGame(client)
    response = game.turn({"action": "resign"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "unknown_action"
    assert Game.objects.get(pk=game.id).last_entry_number == 0


def test_each_turn_records_the_totals_the_chart_reads(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.play([(5, 6, "E"), (6, 6, "A"), (7, 6, "R")])
    game.turn({"action": "pass"})
    game.turn({"action": "pass"})  # both passed: the game ends, 35 off each
    totals = list(Turn.objects.filter(game_id=game.id).values_list("totals", flat=True))
    assert totals == [[8, 0], [8, 8], [8, 8], [8 - 35, 8 - 35]]
    assert audit_game(Game.objects.get(pk=game.id)) == []


def test_a_game_knows_who_won_once_it_ends(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.turn({"action": "pass"})
    answer = game.turn({"action": "pass"}).json()
    assert [(p["name"], p["result"]) for p in answer["game"]["players"]] == [
        ("Ann", "win"),
        ("Ben", "loss"),
    ]
    # Undo reopens the game: nobody has won any more.
    reopened = game.turn({"action": "undo"}).json()["game"]
    assert [p["result"] for p in reopened["players"]] == [None, None]


def test_a_wrong_recorded_total_is_caught_by_the_check(client):
    game = ApiGame(client)
    game.play(MOOD)
    Turn.objects.filter(game_id=game.id, number=1).update(totals=[9, 0])
    assert audit_game(Game.objects.get(pk=game.id)) == [
        "turn 1 records totals [9, 0], the log gives [8, 0]"
    ]


def test_a_full_log_refuses_more_turns_but_the_game_can_still_end(client, monkeypatch):
    monkeypatch.setattr(entering, "LOG_CAP", 3)
    game = ApiGame(client)
    for _ in range(3):
        assert game.turn({"action": "exchange", "count": 1}).status_code == 201
    refused = game.turn({"action": "exchange", "count": 1})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "log_full"
    assert "3 entries" in refused.json()["error"]["message"]
    assert game.turn({"action": "finish"}).status_code == 201


def test_a_full_log_refuses_a_time_penalty_too(monkeypatch):
    # A penalty changes no one's turn, so nothing else stops it: it once grew a log past the
    # cap without end (6,001 entries from one import).
    monkeypatch.setattr(entering, "LOG_CAP", 3)
    game = domain.check_create_game(
        ruleset="crossword-classic", players=["Ann", "Ben"], lexicon="CLUB"
    )
    for _ in range(3):
        domain.act(game.pk, domain.TurnCommand("penalty", seat=0, points=-1))
    with pytest.raises(IllegalAction) as caught:
        domain.act(game.pk, domain.TurnCommand("penalty", seat=1, points=-1))
    assert caught.value.code == "log_full"
    assert Game.objects.get(pk=game.pk).last_entry_number == 3


def test_a_play_of_every_tile_on_the_rack_says_its_bonus(use_words):
    use_words("RETAINS")
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"]
    )
    domain.act(
        game.pk,
        domain.TurnCommand(
            "play", tiles=[(7, 3 + i, letter) for i, letter in enumerate("RETAINS")]
        ),
    )
    turn = Turn.objects.get(game=game, number=1)
    assert describe(turn) == "Ann played 8D RETAINS for 66 (RETAINS 16 + 50 for all seven)."


# What a kind is, asked of its flags -------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[3]
# A copy the table can't give, because it sits below the table, checked against it below.
COPIES = {("scorekeeper/models/games.py", "TAKING_BACK")}


def _names_in(node: ast.AST) -> list[str]:
    """The kind names a string or a literal tuple, list or set of strings holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in KINDS else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [name for element in node.elts for name in _names_in(element)]
    return []


def _is_action(node: ast.AST) -> bool:
    """An expression that holds a kind's name: ``action``, ``turn.action``, ``move``,
    ``kind``, ``kind.name``."""
    if isinstance(node, ast.Name):
        return node.id in ("action", "move", "kind")
    if isinstance(node, ast.Attribute):
        if node.attr == "action":
            return True
        if node.attr == "name":
            owner = node.value
            named = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
            return "kind" in named
    return False


def _name_comparisons(source: str, where: str) -> list[str]:
    """Each place in a module's ``source`` (at ``where``) that compares an action's name."""
    tree = ast.parse(source, where)
    copies = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and (where, target.id) in COPIES
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_action(side) for side in sides) and any(_names_in(s) for s in sides):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.keyword) and node.arg in ("action", "action__in"):
            if _names_in(node.value):
                found.append(f"{where}:{node.value.lineno}: {node.arg}={ast.unparse(node.value)}")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and id(node) not in copies:
            names = _names_in(node)
            if len(names) >= 2 and len(names) == len(node.elts):
                found.append(f"{where}:{node.lineno}: a list of kinds {ast.unparse(node)}")
    return found


def test_no_module_but_the_table_compares_action_names():
    """Outside ``turn_kinds`` a kind is asked what it is (``kind.places_tiles``,
    ``action__in=JUDGING``), never compared by name: a new kind then needs its entry only."""
    found = [
        line
        for path in sorted((ROOT / "scorekeeper").rglob("*.py"))
        if "migrations" not in path.parts and path.name != "turn_kinds.py"
        for line in _name_comparisons(path.read_text(), str(path.relative_to(ROOT)))
    ]
    templates = [
        f"{path.relative_to(ROOT)}: {match.group()}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in re.finditer(r"\.action\s*(?:[!=]=|(?:not )?in)\s*\S+", path.read_text())
    ]
    assert found + templates == []


def test_the_scan_finds_a_comparison_by_name():
    sample = (
        'if turn.action == "play" or kind.name in ("undo",) or event.kind == "play":\n'
        '    turns.filter(action="challenge")\n'
        'WHAT = ("play", "pass")\nGCG = ("pass", "time_penalty")\n'
    )
    assert sorted(_name_comparisons(sample, "sample.py")) == [
        "sample.py:1: kind.name in ('undo',)",
        "sample.py:1: turn.action == 'play'",
        "sample.py:2: action='challenge'",
        "sample.py:3: a list of kinds ('play', 'pass')",
    ]


def test_the_models_copy_of_the_kinds_that_take_back_agrees_with_the_table():
    assert TAKING_BACK == models.TAKING_BACK == ("undo",)


def test_each_flag_picks_the_kinds_it_says():
    def having(flag: str) -> set[str]:
        return {name for name, kind in KINDS.items() if getattr(kind, flag)}

    assert having("places_tiles") == {"play"}
    assert having("may_place_tiles") == set(PLAYS) == {"play", "correct"}
    assert having("exchanges_tiles") == {"exchange"}
    assert having("judges_play") == set(JUDGING) == {"challenge"}
    assert having("replaces") == {"correct"}
    assert having("correctable") == set(MOVES) == {"play", "pass", "exchange", "correct"}
    assert having("voids") == {"void"}
    assert having("counts_racks") == {"finish"}
    assert having("scoreless") == {"pass", "exchange", "abandon"}
    assert having("shows_every_total") == {"finish", "void"}
    assert set(KINDS) - having("has_score") == {"undo", "finish", "abandon", "void"}
    assert set(KINDS) - having("in_play") == {"undo"}
    # What reads nothing but the game's rows: not a void (the club's directors), an undo or a
    # clock action.
    assert set(KINDS) - having("worked_out_ahead") == {"undo", "void", "clock"}
