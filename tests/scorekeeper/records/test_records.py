"""The lossless JSON record: export, import back to the identical game, and what import refuses."""

from __future__ import annotations

import copy
import io
import json
import uuid
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from referee.errors import InputError
from scorekeeper.games import consistency, domain, state
from scorekeeper.models import Game, Player, Seat, Turn
from scorekeeper.records import json_record
from scorekeeper.records.json_record import export_record, import_record
from tests.factories import HOUSE, letterup_game, new_game, upwords_game

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> dict[str, Any]:
    """Everything about a game but its id and token, read back from the database."""
    game = Game.objects.get(pk=game.pk)
    seats = list(game.seats.select_related("player").order_by("order"))
    turns = game.turns.select_related("seat", "target").order_by("number")
    return {
        "state": state.load_state(game, seats).to_dict(),
        "game": {
            f: getattr(game, f)
            for f in ("status", "last_entry_number", "created_at", "updated_at", "finished_at")
        },
        "seats": [(s.player.name, s.score, s.adjustment, s.final_score) for s in seats],
        "turns": [
            (
                t.number,
                t.action,
                t.seat.order,
                t.tiles,
                t.notation,
                t.score,
                t.result,
                t.target.number if t.target else None,
                t.undone_at,
                t.undone_by,
                t.created_at,
            )
            for t in turns
        ],
    }


def counts() -> tuple[int, int, int]:
    return Game.objects.count(), Seat.objects.count(), Turn.objects.count()


# The round trip -------------------------------------------------------------------------------
def test_the_upwords_game_is_what_the_round_trip_needs():
    game = upwords_game()
    turns = {t.number: t for t in game.turns.select_related("target")}
    assert [s.final_score for s in game.seats.order_by("order")] == [30 - 35, 13 - 35]
    assert (turns[3].result, turns[3].target.number) == ("rejected", 2)
    assert (turns[7].result, turns[7].target.number) == ("upheld", 6)
    assert turns[10].undone and turns[11].target.number == 10
    assert max(len(square) for row in game.board for square in row) == 2  # stacks


@pytest.mark.parametrize("build", [upwords_game, letterup_game], ids=["upwords", "letterup"])
def test_export_delete_import_gives_the_identical_game(build):
    game = build()
    before, record = snapshot(game), export_record(game)
    old_token = game.token
    game.delete()
    assert not Turn.objects.filter(game_id=record["game"]["id"]).exists()

    imported = import_record(json.loads(json.dumps(record)))

    assert str(imported.pk) == record["game"]["id"]
    assert export_record(imported) == record
    assert snapshot(imported) == before  # state, final scores, turns, targets and times
    assert imported.token != old_token and imported.token
    assert consistency.audit_game(imported) == []


def test_the_record_holds_every_field_but_the_token_and_the_log_s_count():
    record = export_record(upwords_game())
    written = {
        Game: set(record["game"]) - {"id"},
        Seat: set(record["seats"][0]) - {"player"},
        Turn: set(record["turns"][0]) - {"seat", "target"},
    }
    for model, keys in written.items():
        # A field the code names otherwise keeps its record's name (the game's turn_number).
        fields = [f.name for f in model._meta.concrete_fields if not f.primary_key]
        columns = {json_record.RECORD_NAMES.get(name, name) for name in fields}
        # The turns played, each turn's place in the order of play and the checkpoints are the
        # log's to say: found from it when a record is read, as they were written.
        derived = {"turns_played", "place", "checkpoint_place"}
        columns -= {"token", "game", "seat", "player", "target", *derived}
        # A turn's retry slot is the request's that entered it, not the game's.
        columns -= {"retry_slot"}
        # A clock is written only where the game has one (this one has none).
        columns -= json_record.WHEN_SET
        assert keys == columns, model.__name__


def test_the_letterup_record_keeps_the_racks_and_final_scores():
    record = export_record(letterup_game())
    assert record["turns"][-1]["racks"] == {"0": "AEGINRT", "1": "BCJKQVZ"}
    assert [s["final_score"] for s in record["seats"]] == [24 - 9, 0 - 43]
    assert "token" not in json.dumps(record)  # an export is meant to be shared


def test_an_imported_game_plays_on():
    game = new_game("letterup-classic")
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    game.refresh_from_db()
    record = export_record(game)
    game.delete()
    imported = import_record(record)
    domain.act(
        imported.pk, domain.TurnCommand("challenge")
    )  # the last play survives the round trip
    imported.refresh_from_db()
    assert imported.board[7][3] == ["H"] and imported.to_move == 1
    assert consistency.audit_game(imported) == []


def test_new_id_imports_a_copy_beside_the_original():
    game = upwords_game()
    record = export_record(game)

    copied = import_record(record, new_id=True)

    assert copied.pk != game.pk and Game.objects.filter(pk=game.pk).exists()
    again = export_record(copied)
    assert again["game"].pop("id") == str(copied.pk)
    record["game"].pop("id")
    assert again == record
    assert consistency.audit_game(copied) == []


# What import refuses --------------------------------------------------------------------------
def refused(record: Any, code: str, **kwargs: Any) -> InputError:
    before = counts()
    with pytest.raises(InputError) as caught:
        import_record(record, **kwargs)
    assert caught.value.code == code, caught.value.message
    assert counts() == before  # nothing is created
    return caught.value


def tamper(record: dict[str, Any], change) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    record = copy.deepcopy(record)
    change(record)
    return record


def _board_square(record: dict[str, Any]) -> None:
    record["game"]["board"][4][4] = ["A"]  # E5 held an O


def _turn_of(record: dict[str, Any], number: int) -> dict[str, Any]:
    return next(t for t in record["turns"] if t["number"] == number)


TAMPERED = {
    "seat score": (lambda r: r["seats"][0].update(score=31), "scores: stored [31, 13]"),
    "final score": (lambda r: r["seats"][1].update(final_score=0), "final_score of Ben"),
    "adjustment": (lambda r: r["seats"][1].update(adjustment=0), "adjustments"),
    "board square": (_board_square, "board differs from the log at E5"),
    "bag": (lambda r: r["game"].update(bag_count=70), "bag: stored 70"),
    "status": (lambda r: r["game"].update(status="in_progress"), "status"),
    "turn number": (lambda r: r["game"].update(turn_number=13), "turn_number: stored 13"),
    "a play's score": (
        lambda r: _turn_of(r, 4).update(score=11),
        "turn 4 is logged as 6F N.T for 11; the play is 6F N.T for 10",
    ),
    "a play's mover": (
        lambda r: _turn_of(r, 5).update(seat=0),
        "turn 5 is logged for seat 0, not 1",
    ),
    "a verdict": (lambda r: _turn_of(r, 3).update(result="upheld"), "the log does not replay"),
    "the play a challenge judged": (
        lambda r: _turn_of(r, 7).update(target=5),
        "turn 7 names the wrong play: the last play was 6",
    ),
    "the turn an undo took back": (
        lambda r: _turn_of(r, 11).update(target=9),
        "turn 11 undoes turn 9, but the last turn in effect was 10",
    ),
    "an undone mark": (
        lambda r: _turn_of(r, 10).update(undone_at=None),
        "the log does not replay: You can't stack L on L at G5",
    ),
}


@pytest.mark.parametrize("name", TAMPERED)
def test_import_refuses_a_record_whose_state_was_tampered(name):
    change, problem = TAMPERED[name]
    record = export_record(upwords_game())
    error = refused(tamper(record, change), "inconsistent_record", new_id=True)
    assert problem in error.message


def test_the_untampered_record_is_accepted_in_the_same_way():
    record = export_record(upwords_game())
    assert import_record(tamper(record, lambda r: None), new_id=True).pk


def test_import_refuses_a_game_that_is_already_here():
    game = upwords_game()
    error = refused(export_record(game), "game_exists")
    assert str(game.pk) in error.message


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        {"format": "something.else", "version": 1},
        {"version": 1},
    ],
)
def test_import_refuses_what_is_not_a_game_record(record):
    refused(record, "bad_record")


def test_import_refuses_another_version():
    record = tamper(export_record(upwords_game()), lambda r: r.update(version=2))
    error = refused(record, "bad_record", new_id=True)
    assert "version 2" in error.message


MALFORMED = {
    "no game": lambda r: r.pop("game"),
    "no turns": lambda r: r.pop("turns"),
    "no seats": lambda r: r.pop("seats"),
    "a game field missing": lambda r: r["game"].pop("board"),
    "a seat field missing": lambda r: r["seats"][0].pop("score"),
    "a turn field missing": lambda r: r["turns"][0].pop("seat"),
    "a seat that is not there": lambda r: r["turns"][0].update(seat=5),
    "a target that is not there": lambda r: _turn_of(r, 7).update(target=99),
    "an id that is not a uuid": lambda r: r["game"].update(id="game-1"),
    "an unknown status": lambda r: r["game"].update(status="paused"),
    "an unknown ruleset": lambda r: r["game"].update(ruleset="chess"),
    "a time that is not a time": lambda r: r["game"].update(created_at="yesterday"),
    "a turn without a time": lambda r: r["turns"][0].update(created_at=None),
    "two turns with one number": lambda r: r["turns"][1].update(number=1),
    "a negative count": lambda r: _turn_of(r, 9).update(count=-1),
    "a player without a name": lambda r: r["seats"][0].update(player=""),
    "turns as text": lambda r: r.update(turns="none"),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_import_refuses_a_malformed_record(name):
    record = export_record(upwords_game())
    Game.objects.all().delete()  # so the record's own id is free
    refused(tamper(record, MALFORMED[name]), "bad_record")


def test_import_refuses_a_record_longer_than_any_log(monkeypatch):
    # Every way a log grows stops at its cap: importing a record is one of them.
    monkeypatch.setattr(json_record, "LOG_MAX", 5)
    record = export_record(upwords_game())
    assert len(record["turns"]) > 5
    Game.objects.all().delete()
    error = refused(record, "log_full")
    assert error.message == (
        f"This record has {len(record['turns']):,} log entries: a game's log keeps at most 5."
    )


def test_a_game_s_log_holds_the_cap_and_then_the_entries_that_end_a_game():
    assert domain.LOG_MAX == domain.LOG_CAP + 2  # a finish, and a director's void


def test_a_refused_import_leaves_no_new_player_behind():
    record = export_record(upwords_game())
    record = tamper(record, lambda r: r["seats"][0].update(player="Cleo", score=99))
    players = Player.objects.count()
    refused(record, "inconsistent_record", new_id=True)
    assert Player.objects.count() == players


# The management commands and the API ----------------------------------------------------------
def test_export_and_import_commands_round_trip_through_a_file(tmp_path):
    game = upwords_game()
    record = export_record(game)
    out = io.StringIO()
    call_command("export_game", str(game.pk), stdout=out)
    path = tmp_path / "game.json"
    path.write_text(out.getvalue(), "utf-8")
    assert json.loads(path.read_text("utf-8")) == record
    game.delete()

    out = io.StringIO()
    call_command("import_game", str(path), stdout=out)

    imported = Game.objects.get(pk=record["game"]["id"])
    assert f"Imported game {imported.pk}; its new token is {imported.token}" in out.getvalue()
    assert export_record(imported) == record

    out = io.StringIO()
    call_command("import_game", str(path), "--new-id", stdout=out)
    assert Game.objects.count() == 2
    copied = Game.objects.exclude(pk=imported.pk).get()
    assert f"Imported game {copied.pk}" in out.getvalue()


def test_import_command_reports_a_refused_record(tmp_path):
    game = upwords_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_record(game)), "utf-8")
    with pytest.raises(CommandError, match="is already here"):
        call_command("import_game", str(path))
    path.write_text("{not json", "utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_game", str(path))
    with pytest.raises(CommandError, match="Can't read"):
        call_command("import_game", str(tmp_path / "missing.json"))


@pytest.mark.parametrize("game_id", [str(uuid.UUID(int=1)), "not-a-game"])
def test_export_command_reports_an_unknown_game(game_id):
    with pytest.raises(CommandError, match=f"There is no game {game_id}"):
        call_command("export_game", game_id, stdout=io.StringIO())


def test_the_api_export_address_points_to_the_one_json_address(client):
    game = upwords_game()
    response = client.get(f"/api/games/{game.pk}/export")
    assert response.status_code == 308
    assert response["Location"] == f"/games/{game.pk}/export.json"
    record = client.get(response["Location"]).json()
    assert record == json.loads(json.dumps(export_record(game)))


@pytest.mark.django_db
def test_the_record_never_says_which_word_failed_a_challenge(client):
    from tests.factories import ApiGame

    game = ApiGame(client, challenge_mode="manual")
    game.play([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")])
    assert game.turn({"action": "challenge"}).json()["turn"]["result"] == "upheld"
    record = client.get(f"/games/{game.id}/export.json").json()
    challenge = record["turns"][-1]
    assert challenge["result"] == "upheld" and "invalid_words" not in challenge
