"""Importing GCG records: real files, every construct, and export → import giving the same game."""

from __future__ import annotations

import io
import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError, connection
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.sequences import largest_gcg_record
from referee.errors import IllegalAction, IllegalPlay, InputError
from referee.gcg import read_gcg
from scorekeeper.games import domain
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.replay import turn_numbers
from scorekeeper.games.state import load_state
from scorekeeper.models import Game, Player, Seat, Turn
from scorekeeper.records import gcg_import
from scorekeeper.records.gcg_export import game_to_gcg
from scorekeeper.records.gcg_import import import_gcg, player_names
from scorekeeper.web import records as upload_page
from tests.factories import ApiGame
from tests.positions import random_play

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "gcg"
REAL = sorted((FIXTURES / "real").glob("*.gcg"))
# The Polish game's letters (Ę, Ć, …) are not tiles of the English set.
ENGLISH = [path for path in REAL if path.name != "polish_endgame.gcg"]


def summary(game: Game) -> dict[str, object]:
    """What must come back the same from a record: the position, the scores and the log."""
    game.refresh_from_db()
    seats = list(game.seats.select_related("player").order_by("order"))
    turns = list(game.turns.effective())
    return {
        "board": game.board,
        "status": game.status,
        "players": [(s.player.name, s.score, s.final_score, s.result) for s in seats],
        "turns": [(t.seat.order, t.action, t.notation, t.score, t.result) for t in turns],
        # The turns as a scoresheet counts them, each entry's and in all.
        "numbers": [turn_numbers(game).get(t.pk) for t in turns],
        "played": game.turns_played,
    }


# Real records ----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_a_real_record_imports_with_every_score_agreeing(path):
    record = read_gcg(path.read_bytes())
    imported = import_gcg(path.read_bytes())
    game = imported.game
    assert imported.mismatches == []
    assert audit_game(game) == []
    seats = list(game.seats.order_by("order"))
    # The referee's scores are the record's own, line by line and in the end.
    state = load_state(game, seats)
    assert (state.final_scores or state.scores) == record.recorded_totals()
    assert game.challenge_mode == "manual" and game.ruleset == "crossword-classic"


def test_a_record_keeps_its_notes_title_and_racks():
    path = FIXTURES / "real" / "vs_frentz.gcg"
    game = import_gcg(path.read_bytes()).game
    first = game.turns.order_by("number").first()
    assert (
        first is not None
        and first.rack
        and first.rack == read_gcg(path.read_bytes()).events[0].rack
    )
    record = read_gcg(path.read_bytes())
    noted = [e for e in record.events if e.note]
    assert noted and game.turns.filter(note=noted[0].note).exists()


def test_a_record_is_judged_by_the_lexicon_it_names_when_installed(use_words):
    use_words("WORDS ARE HERE", name="NWL2023")
    game = import_gcg((FIXTURES / "real" / "issue_476.gcg").read_bytes()).game
    assert game.lexicon == "NWL2023"  # the file says NWL23


def test_a_record_whose_lexicon_is_not_installed_is_an_honour_game():
    game = import_gcg((FIXTURES / "real" / "issue_476.gcg").read_bytes()).game
    assert game.lexicon == "honour"


def test_a_record_with_letters_the_set_lacks_is_refused_naming_the_line():
    with pytest.raises(InputError) as caught:
        import_gcg((FIXTURES / "real" / "polish_endgame.gcg").read_bytes())
    assert caught.value.code == "gcg_unplayable" and "Line 6" in caught.value.message
    assert Game.objects.count() == 0


# The command -----------------------------------------------------------------------------------
WRONG_SCORE = """#player1 ann Ann Lee
#player2 bo Bo
>ann: EHOSU? 8D HOUSE +25 25
>bo: AMXZZZZ H8 .XAM +13 13  (E 1 + X 8 + A 1 + M 3)
"""


def test_the_command_prints_one_json_object_with_the_mismatches(tmp_path):
    path = tmp_path / "game.gcg"
    path.write_text(WRONG_SCORE)
    out = io.StringIO()
    call_command("import_game", str(path), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["ruleset"] == "crossword-classic"
    assert data["players"] == [
        {"name": "Ann Lee", "final_score": None},
        {"name": "Bo", "final_score": None},
    ]
    assert data["mismatches"] == [
        {"line": 3, "text": ">ann: EHOSU? 8D HOUSE +25 25", "recorded": 25, "computed": 24}
    ]
    game = Game.objects.get(pk=data["id"])
    assert [s.score for s in game.seats.order_by("order")] == [24, 13]  # the referee's scores


def test_strict_refuses_a_record_with_any_difference(tmp_path):
    path = tmp_path / "game.gcg"
    path.write_text(WRONG_SCORE)
    with pytest.raises(CommandError, match="line 3"):
        call_command("import_game", str(path), "--strict", stdout=io.StringIO())
    assert Game.objects.count() == 0


def test_a_file_that_is_not_a_game_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "notes.gcg"
    path.write_text("#player1 a A\n#player2 b B\nthis is a shopping list\n")
    with pytest.raises(CommandError, match="Line 3"):
        call_command("import_game", str(path), stdout=io.StringIO())


def test_the_format_option_reads_gcg_from_any_file_name(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(WRONG_SCORE)
    out = io.StringIO()
    call_command("import_game", str(path), "--format", "gcg", stdout=out)
    assert "1 line differ" in out.getvalue()


# Export, then import: the same game ------------------------------------------------------------
def crossword(**options: object) -> Game:
    return domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"],
        challenge_mode="manual", options=options,
    )  # fmt: skip


def act(game: Game, action: str, **fields: object) -> None:
    domain.act(game.pk, domain.TurnCommand(action, **fields))  # type: ignore[arg-type]


HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]
XAM = [(8, 7, "X"), (9, 7, "A"), (10, 7, "M")]


def round_trip(game: Game) -> Game:
    """Export, delete, import: the same game (while the game is here, its export is refused)."""
    text = game_to_gcg(game)
    expected = summary(game)
    game.delete()
    imported = import_gcg(text)
    assert imported.mismatches == [], text
    assert audit_game(imported.game) == []
    assert summary(imported.game)["players"] == expected["players"]
    assert summary(imported.game) == expected, text
    return imported.game


def test_round_trip_of_plays_with_a_blank_an_exchange_and_a_pass():
    game = crossword()
    act(game, "play", tiles=[(7, 3, "h"), *HOUSE[1:]])
    act(game, "exchange", count=7)
    act(game, "play", tiles=XAM)
    act(game, "pass")
    round_trip(game)


def test_a_rack_field_holds_only_known_tiles_and_a_blank_stays_a_question_mark():
    game = crossword()
    act(game, "play", tiles=[(7, 3, "h"), *HOUSE[1:]])  # Ann, a blank for the H
    act(game, "pass")  # Ben: what he plays next was on his rack
    act(game, "exchange", count=7)  # Ann: nothing of her rack is known
    act(game, "play", tiles=[(8, 7, "x"), *XAM[1:]])  # Ben, a blank for the X
    act(game, "pass")  # Ann: nothing known after it
    racks = [event.rack for event in read_gcg(game_to_gcg(game)).events]
    assert racks == ["?EOSU", "?AM", "", "?AM", ""]
    round_trip(game)


def test_round_trip_of_a_withdrawn_phony_and_the_double_challenge():
    game = crossword()  # the crossword default: a failed challenge loses the challenger's turn
    act(game, "play", tiles=[(7, 5, "Q"), (7, 6, "I"), (7, 7, "Z")])  # QIZ: not a word
    act(game, "challenge")  # upheld: Ann's play comes off, Ann loses her turn
    act(game, "play", tiles=[(7, 7, "Q"), (7, 8, "I")])  # Ben: QI
    act(game, "challenge")  # QI is good: Ann loses her next turn
    # QIZ was Ann's turn 1 (it scored 0), QI Ben's 2, the turn Ann lost her 3.
    assert summary(round_trip(game))["numbers"] == [1, None, 2, 3]


def test_round_trip_of_the_five_point_rule_and_a_time_penalty():
    game = crossword(rejected_challenge="bonus_5")
    act(game, "play", tiles=HOUSE)
    act(game, "challenge")  # HOUSE is good: Ann gains 5
    act(game, "penalty", seat=1, points=-10)
    round_trip(game)


@pytest.mark.parametrize("path", ENGLISH, ids=[p.name for p in ENGLISH])
def test_a_real_record_exports_and_imports_to_the_same_game(path):
    round_trip(import_gcg(path.read_bytes()).game)


# Random games ---------------------------------------------------------------------------------
def random_game(seed: int, out_bonus: str) -> Game:
    rng = random.Random(seed)
    game = crossword(rejected_challenge=rng.choice(["none", "lose_turn", "bonus_5", "bonus_10"]),
                     out_bonus=out_bonus)  # fmt: skip
    for _ in range(rng.randint(10, 250)):
        game.refresh_from_db()
        seats = list(game.seats.order_by("order"))
        state = load_state(game, seats)
        if game.status == Game.Status.AWAITING_RACKS:
            unseen = [t for t, n in state.unseen().items() for _ in range(n)]
            rng.shuffle(unseen)
            racks = {}
            for seat, n in enumerate(state.racks):
                racks[seat], unseen = "".join(unseen[:n]), unseen[n:]
            act(game, "finish", racks=racks)
            break
        if game.status == Game.Status.FINISHED:
            break
        choice = rng.random()
        try:
            if choice < 0.72:
                play = random_play(rng, state)
                if play is not None:
                    act(game, "play", tiles=[(p.row, p.col, p.tile) for p in play])
            elif choice < 0.8 and state.last_play is not None:
                # The verdict as a record gives it: random words are rarely in any list.
                act(game, "challenge", verdict=rng.choice(["upheld", "rejected"]))
            elif choice < 0.9 and state.bag >= 7:
                act(game, "exchange", count=rng.randint(1, state.racks[state.to_move]))
            else:
                act(game, "pass")
        except (IllegalPlay, IllegalAction, InputError):
            continue
    return game


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), out_bonus=st.sampled_from(["sum_of_others", "twice_opponents"]))
def test_any_crossword_game_exports_and_imports_to_the_same_game(seed, out_bonus):
    # The examples share the database: a seed run twice would find its own game still here.
    round_trip(random_game(seed, out_bonus)).delete()


# The API and the page --------------------------------------------------------------------------
def test_the_api_imports_a_record_and_lists_the_mismatches(client):
    response = client.post(
        "/api/games/import", {"gcg": WRONG_SCORE}, content_type="application/json"
    )
    assert response.status_code == 201
    data = response.json()
    assert data["mismatches"][0]["line"] == 3 and data["token"]
    strict = client.post(
        "/api/games/import", {"gcg": WRONG_SCORE, "strict": True}, content_type="application/json"
    )
    assert strict.status_code == 400 and strict.json()["error"]["code"] == "gcg_mismatch"


def test_the_api_refuses_text_that_is_not_a_game(client):
    response = client.post(
        "/api/games/import", {"gcg": "hello\nworld"}, content_type="application/json"
    )
    assert response.status_code == 400 and "Line" in response.json()["error"]["message"]


def test_the_upload_page_imports_a_file_and_shows_the_game_with_its_record(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = (FIXTURES / "real" / "vs_frentz.gcg").read_bytes()
    response = client.post(
        "/games/import", {"file": SimpleUploadedFile("game.gcg", data)}, follow=True
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Every scored line agrees with the rules" in page
    game = Game.objects.get()
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/"
    step = client.get(f"/games/{game.pk}/?turn=1").content.decode()
    assert "Rack:" in step


def test_the_upload_page_says_why_a_record_is_refused(client):
    response = client.post("/games/import", {"text": "#player1 a A\nnot a turn\n"})
    assert response.status_code == 400 and "Line 2" in response.content.decode()
    assert Game.objects.count() == 0


def another_record(n: int) -> str:
    """WRONG_SCORE with its second player renamed: a record of another game each time."""
    return WRONG_SCORE.replace("#player2 bo Bo", f"#player2 bo Bo {n}")


def test_imports_are_rate_limited_per_client(client, settings):
    settings.RATE_LIMIT_IMPORTS = 2
    answers = [
        client.post(
            "/api/games/import", {"gcg": another_record(n)}, content_type="application/json"
        )
        for n in range(3)
    ]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert "game imports" in answers[-1].json()["error"]["message"]
    assert Game.objects.count() == 2


def test_a_large_import_counts_against_the_limit_by_its_size(client, settings):
    # 1 + one per 50,000 bytes: a record of about 160 kB counts 4 of the 6 a minute allows.
    settings.RATE_LIMIT_IMPORTS = 6
    big = {"gcg": largest_gcg_record()}
    assert client.post("/api/games/import", big, content_type="application/json").status_code == 201
    answers = [
        client.post(
            "/api/games/import", {"gcg": another_record(n)}, content_type="application/json"
        ).status_code
        for n in range(3)
    ]
    assert answers == [201, 201, 429]


# Records from anyone ---------------------------------------------------------------------------
def penalty_lines(count: int) -> str:
    """The attack: a player's clock penalised a point a line, ``count`` lines (~20 bytes each)."""
    return "#player1 ann Ann\n#player2 bo Bo\n" + "".join(
        f">bo: (time) -1 {-n}\n" for n in range(1, count + 1)
    )


def rows() -> dict[str, int]:
    return {
        "games": Game.objects.count(),
        "players": Player.objects.count(),
        "seats": Seat.objects.count(),
        "turns": Turn.objects.count(),
    }


NOTHING = {"games": 0, "players": 0, "seats": 0, "turns": 0}


def test_a_record_over_the_log_cap_is_refused_up_front_writing_nothing(client, monkeypatch):
    def not_reached(*args: object) -> None:
        raise AssertionError("the record was checked: it should have been refused before")

    monkeypatch.setattr(gcg_import, "check_record", not_reached)
    text = penalty_lines(9000)
    assert len(text) < 200_000  # within the size limit: the count refuses it
    response = client.post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "log_full"
    assert error["message"] == (
        "This record has 9,000 turns: a game's log keeps at most 2,000 entries."
    )
    assert rows() == NOTHING


def test_a_record_of_as_many_turns_as_the_log_keeps_imports_whole():
    game = import_gcg(largest_gcg_record(domain.LOG_CAP)).game
    assert game.last_entry_number == game.turns.count() == domain.LOG_CAP
    assert audit_game(game) == []  # the stored game is the replay of its log
    seats = list(game.seats.order_by("order"))
    assert [s.score for s in seats] == [66, -(domain.LOG_CAP - 1)]
    noted = game.turns.get(number=2)
    assert (noted.action, noted.note) == (
        "penalty",
        "turn 1: a note of the kind annotated records carry",
    )


def test_a_time_penalty_on_the_player_not_to_move_imports():
    # A penalty is no one's turn: the log's check once took it for a turn out of order.
    game = import_gcg(A_PLAY + ">a: (time) -10 56\n").game
    assert audit_game(game) == []
    assert [s.score for s in game.seats.order_by("order")] == [56, 0]


def test_the_largest_import_writes_in_a_handful_of_statements(django_assert_max_num_queries):
    # One domain call and save per line made some ten statements a line, all in one
    # transaction holding SQLite's write lock: 31 s for the attacker's 9,000 lines.
    record = largest_gcg_record(domain.LOG_CAP)
    with django_assert_max_num_queries(20):
        import_gcg(record)


A_PLAY = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n"
HOSTILE_RECORDS = {
    # name: (the file, the line the refusal names)
    "a final rack of player 9": (A_PLAY + ">a: (ABCDEFG) +20 86\n#rack9 ABC\n", 5),
    "a 4,400-digit score": (A_PLAY + ">b: ABC 9C AB +" + "9" * 4400 + " 8\n", 4),
    "a 4,400-digit exchange": (A_PLAY + ">b: ABC -" + "9" * 4400 + " +0 0\n", 4),
    "a 4,400-digit total": (A_PLAY + ">b: ABC 9C AB +8 " + "9" * 4400 + "\n", 4),
    "punycode": ("#character-encoding punycode\n" + A_PLAY + "-99999999999\n", 1),
    "idna": ("#character-encoding idna\n" + A_PLAY + "#note " + "a" * 80 + ".\n", 1),
    "unicode_escape": (A_PLAY + "#character-encoding unicode_escape\n#note \\ud800\n", 4),
    "a NUL": (A_PLAY + "#note a\x00b\n", 4),
}


@pytest.mark.parametrize(("text", "line"), HOSTILE_RECORDS.values(), ids=list(HOSTILE_RECORDS))
def test_a_hostile_file_uploaded_is_refused_naming_its_line(client, text, line):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.gcg", text.encode())
    response = client.post("/games/import", {"file": upload})
    assert response.status_code == 400
    assert f"Line {line}:" in response.content.decode()
    assert rows() == NOTHING


@pytest.mark.parametrize(("text", "line"), HOSTILE_RECORDS.values(), ids=list(HOSTILE_RECORDS))
def test_a_hostile_file_given_to_the_command_is_refused_naming_its_line(tmp_path, text, line):
    path = tmp_path / "game.gcg"
    path.write_bytes(text.encode())
    with pytest.raises(CommandError, match=f"^Line {line}:"):
        call_command("import_game", str(path), stdout=io.StringIO())
    assert rows() == NOTHING


API_HOSTILE = ["a final rack of player 9", "a 4,400-digit score", "a 4,400-digit exchange"]


@pytest.mark.parametrize("name", API_HOSTILE)
def test_a_hostile_record_sent_to_the_api_is_refused_naming_its_line(client, name):
    text, line = HOSTILE_RECORDS[name]
    response = client.post("/api/games/import", {"gcg": text}, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bad_gcg" and error["line"] == line
    assert error["message"].startswith(f"Line {line}:")
    assert rows() == NOTHING


def test_a_record_too_large_for_the_upload_page_is_refused_unread(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("game.gcg", b"#note " + b"x" * 3_000_000)
    response = client.post("/games/import", {"file": upload})
    assert response.status_code == 413
    assert "at most 200,000 bytes" in response.content.decode()


def test_a_record_over_the_size_limit_is_refused_by_the_command(tmp_path):
    path = tmp_path / "game.gcg"
    path.write_bytes(A_PLAY.encode() + b"#note " + b"x" * 200_000)
    with pytest.raises(CommandError, match="at most 200,000"):
        call_command("import_game", str(path), stdout=io.StringIO())


def test_names_clashing_once_cut_to_length_can_not_loop_forever():
    x = "X" * 37
    record = read_gcg(f"#player1 a {x} #3\n#player2 b {x}yyy\n#player3 c {x}yyy\n")
    names: list[list[str]] = []
    worker = threading.Thread(target=lambda: names.append(player_names(record)), daemon=True)
    worker.start()
    worker.join(timeout=10)  # microseconds of work; the old loop never ended
    assert not worker.is_alive()
    assert names == [[f"{x} #3", f"{x}yyy", f"{x} #4"]]


def test_a_name_with_invisible_characters_imports_without_them():
    game = import_gcg("#player1 a A\u200bnn\n#player2 b B\u202eo\n>a: AEINRST 8D RETAINS +66 66\n")
    assert [s.player.name for s in game.game.seats.order_by("order")] == ["Ann", "Bo"]


# A turn while a record is imported -------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_turn_on_another_game_is_answered_while_the_largest_record_is_imported(
    monkeypatch, settings
):
    """The import is held still halfway through its work, then let go: a turn on another game
    lands meanwhile (on SQLite, no write lock is held while a record is read and checked), and
    every turn sent while the import is written lands too."""
    # Turns are sent back to back for as long as the import is written (longer on PostgreSQL):
    # more than a client's turns a minute, which is not what this asks about.
    settings.RATE_LIMIT_TURNS = 0
    other = ApiGame(Client())
    reached, release = threading.Event(), threading.Event()
    place = gcg_import.play_placements

    def held(*args: Any) -> Any:
        reached.set()
        assert release.wait(60)
        return place(*args)

    monkeypatch.setattr(gcg_import, "play_placements", held)
    imported: list[int] = []

    def send_import() -> None:
        try:
            record = largest_gcg_record(domain.LOG_CAP)
            response = Client().post(
                "/api/games/import", {"gcg": record}, content_type="application/json"
            )
            imported.append(response.status_code)
        finally:
            connection.close()

    worker = threading.Thread(target=send_import)
    worker.start()
    try:
        assert reached.wait(60)
        statuses = [other.turn({"action": "exchange", "count": 1}).status_code]
    finally:
        release.set()
    while worker.is_alive():
        statuses.append(other.turn({"action": "exchange", "count": 1}).status_code)
    worker.join()
    assert imported == [201]
    assert set(statuses) == {201}
    assert Game.objects.get(pk=other.id).last_entry_number == len(statuses)


@pytest.mark.django_db(transaction=True)
def test_an_import_checks_and_prepares_its_log_before_its_transaction(monkeypatch):
    """The write lock (on SQLite, every table's) is held for the duplicate check and the
    inserts only: the log's check against the engine and its rows, the slow part of a large
    record, are done before."""
    from scorekeeper.games import drafts

    inside: dict[str, list[bool]] = {"check": [], "rows": []}
    check, values = drafts.log_problems, drafts.rows.turn_values

    def checked(*args: Any) -> Any:
        inside["check"].append(connection.in_atomic_block)
        return check(*args)

    def prepared(turn: Any) -> Any:
        inside["rows"].append(connection.in_atomic_block)
        return values(turn)

    monkeypatch.setattr(drafts, "log_problems", checked)
    monkeypatch.setattr(drafts.rows, "turn_values", prepared)
    imported = import_gcg(largest_gcg_record(200))
    assert imported.game.turns.count() == 200
    assert inside["check"] == [False]
    assert len(inside["rows"]) == 200 and not any(inside["rows"])


def test_a_turn_that_waits_out_the_busy_timeout_is_answered_503_not_500(client, monkeypatch):
    def locked(*args: object, **kwargs: object) -> None:
        raise OperationalError("database is locked")

    monkeypatch.setattr(domain, "act", locked)
    game = ApiGame(client)
    response = game.turn({"action": "exchange", "count": 1})
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["error"]["code"] == "database_busy"


def test_an_import_page_that_waits_out_the_busy_timeout_is_answered_503(client, monkeypatch):
    def locked(*args: object, **kwargs: object) -> None:
        raise OperationalError("database is locked")

    monkeypatch.setattr(upload_page, "import_gcg", locked)
    response = client.post("/games/import", {"text": A_PLAY})
    assert response.status_code == 503 and response["Retry-After"]
    assert "Try again" in response.content.decode()
