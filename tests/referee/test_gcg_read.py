"""Reading GCG game records: pragmas, every kind of turn line, encodings, and real files."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.board import Board
from referee.errors import InputError
from referee.gcg import (
    MAX_LINES,
    MAX_SIZE,
    EventKind,
    GcgError,
    GcgEvent,
    GcgNote,
    GcgPlayer,
    GcgRecord,
    format_position,
    lexicon_id,
    parse_event,
    parse_position,
    play_placements,
    read_gcg,
    write_gcg,
)
from referee.play import Placement

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gcg"
REAL = sorted((FIXTURES / "real").glob("*.gcg"))


def own(name: str) -> GcgRecord:
    return read_gcg((FIXTURES / "own" / name).read_bytes())


def real(name: str) -> GcgRecord:
    return read_gcg((FIXTURES / "real" / name).read_bytes())


def kinds(record: GcgRecord) -> list[str]:
    return [e.kind for e in record.events]


# Pragmas -----------------------------------------------------------------------------------


def test_players_have_a_nick_and_a_full_name_with_spaces() -> None:
    record = own("plays.gcg")
    assert [(p.number, p.nick, p.name) for p in record.players] == [
        (1, "ann", "Ann Example-Smith"),
        (2, "bo", "Bo"),
    ]


def test_a_player_line_without_a_full_name_uses_the_nick() -> None:
    record = read_gcg("#player1 ann\n#player2 bo\n")
    assert [p.name for p in record.players] == ["ann", "bo"]


def test_title_description_id_and_lexicon_are_kept_as_written() -> None:
    record = own("plays.gcg")
    assert record.title == "Club night, board 3"
    assert record.description == "Typed up from the score sheet"
    assert record.id == "club 2024-03-07-3"
    assert record.lexicon == "NWL23"
    assert record.lexicon_id == "NWL2023"


def test_every_pragma_is_kept_with_its_line_even_unknown_ones() -> None:
    record = real("issue_476.gcg")
    assert (5, "game-type", "classic") in record.pragmas


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("NWL23", "NWL2023"),
        ("NWL2023", "NWL2023"),
        ("nwl2023", "NWL2023"),
        ("CSW21", "CSW21"),
        ("CSW19", "CSW19"),
        ("TWL06", "TWL06"),
        ("TWL2006", "TWL06"),
        ("SOWPODS", "SOWPODS"),
        ("ENABLE", "ENABLE"),
        ("NWL18", None),
        ("OSPS44", None),
    ],
)
def test_lexicon_names_map_to_the_projects_ids(name: str, expected: str | None) -> None:
    assert lexicon_id(name) == expected


def test_final_racks_may_come_before_or_after_the_turns() -> None:
    assert own("endgame_penalties.gcg").final_racks == {1: "QZ", 2: "?E"}
    assert own("endgame.gcg").final_racks == {2: "EILRT"}


def test_four_players() -> None:
    record = own("four_players.gcg")
    assert [p.nick for p in record.players] == ["a1", "b2", "c3", "d4"]
    assert [e.seat for e in record.events] == [0, 1, 2, 3, 0]


# Plays -------------------------------------------------------------------------------------


def test_a_play_across_is_written_row_first() -> None:
    event = own("plays.gcg").events[0]
    assert (event.kind, event.nick, event.rack, event.position) == ("play", "ann", "AEINRST", "8D")
    assert (event.row, event.col, event.across, event.word) == (7, 3, True, "RETAINS")
    assert (event.score, event.total, event.line) == (66, 66, 8)


def test_a_play_down_is_written_column_first_and_case_does_not_matter() -> None:
    event = own("plays.gcg").events[1]  # "e7     DOG"
    assert (event.row, event.col, event.across, event.position) == (6, 4, False, "E7")


def test_padded_columns_read_like_single_spaces() -> None:
    event = own("plays.gcg").events[1]
    assert (event.rack, event.word, event.score, event.total) == ("DGO", "DOG", 12, 12)
    assert event.text == ">bo:   DGO      e7     DOG   +12   12"


def test_blanks_are_lowercase_in_the_word_and_question_marks_on_the_rack() -> None:
    event = own("plays.gcg").events[2]
    assert (event.rack, event.position, event.word) == ("?EQU", "9D", "qUEy")


def test_text_after_the_totals_is_kept_as_a_comment() -> None:
    event = own("plays.gcg").events[3]
    assert (event.score, event.total) == (18, 30)
    assert event.comment == "checked by the director"


def test_the_last_line_needs_no_newline() -> None:
    assert not (FIXTURES / "own" / "plays.gcg").read_bytes().endswith(b"\n")
    assert own("plays.gcg").events[-1].word == "R..Z"


def test_a_rack_may_list_only_the_tiles_played() -> None:
    event = parse_event(">ann: CTXZ d8 R..Z +24 120", 1)
    assert (event.rack, event.word) == ("CTXZ", "R..Z")


def test_a_play_line_may_leave_the_rack_out() -> None:
    event = parse_event(">ann: 8D RETAINS +66 66", 1)
    assert (event.rack, event.word, event.score) == ("", "RETAINS", 66)


def test_a_score_may_be_written_without_its_plus_sign() -> None:
    event = real_line(">Johannes: EINOOSU -OOU 0 0")
    assert (event.kind, event.tiles, event.score) == ("exchange", "OOU", 0)


def real_line(text: str) -> GcgEvent:
    return parse_event(text, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("8D", (7, 3, True)), ("D8", (7, 3, False)), ("15o", (14, 14, True)), ("a1", (0, 0, False))],
)
def test_positions_read_row_first_across_and_column_first_down(
    text: str, expected: tuple[int, int, bool]
) -> None:
    assert parse_position(text) == expected
    assert format_position(*expected) == text.upper()


@pytest.mark.parametrize("text", ["DD", "88", "0A", "A0", "8DD"])
def test_a_position_must_be_a_row_from_1_and_a_column(text: str) -> None:
    with pytest.raises(InputError):
        parse_position(text)


def test_a_turn_at_row_0_names_its_line() -> None:
    with pytest.raises(GcgError, match=r"Line 5: '0A' is not a position"):
        parse_event(">a: ABC 0A CAB +7 7", 5)


# Other turns -------------------------------------------------------------------------------


def test_exchanges_list_their_tiles_or_only_how_many() -> None:
    events = own("exchanges.gcg").events
    assert [(e.kind, e.tiles, e.count) for e in events[1:4]] == [
        ("exchange", "QVVWW", 5),
        ("exchange", "", 3),  # -3: three tiles nobody saw
        ("exchange", "?", 1),  # -?: the blank was exchanged
    ]


def test_a_single_dash_is_a_pass() -> None:
    events = own("exchanges.gcg").events
    assert [(e.kind, e.score, e.total) for e in events[4:]] == [("pass", 0, 66), ("pass", 0, 0)]


def test_a_withdrawn_phony_follows_the_play_with_its_score_negated() -> None:
    events = own("challenges.gcg").events
    assert (events[1].kind, events[1].score) == ("play", 34)
    assert (events[2].kind, events[2].nick, events[2].score, events[2].total) == (
        "withdrawn",
        "bo",
        -34,
        0,
    )


def test_a_real_withdrawn_phony_is_on_the_line_after_the_play_by_the_same_player() -> None:
    record = real("polish_endgame.gcg")
    assert kinds(record)[:3] == ["play", "withdrawn", "play"]
    assert [e.nick for e in record.events[:4]] == ["1", "1", "2", "1"]


def test_a_challenge_bonus_goes_to_the_player_whose_play_stood() -> None:
    events = own("challenges.gcg").events
    assert (events[4].kind, events[4].nick, events[4].score, events[4].total) == (
        "challenge_bonus",
        "ann",
        5,
        83,
    )


def test_a_challenge_bonus_may_be_zero() -> None:
    event = own("challenges.gcg").events[-1]
    assert (event.kind, event.score, event.total) == ("challenge_bonus", 0, 36)


def test_a_double_dash_after_the_opponents_play_is_the_challengers_lost_turn() -> None:
    events = own("challenges.gcg").events
    assert (events[6].kind, events[6].nick) == ("challenge_loss", "ann")
    assert [e.nick for e in events[6:8]] == ["ann", "bo"]
    assert [e.nick for e in events[7:9]] == ["bo", "bo"]  # bo plays on: ann lost her turn


def test_quackle_writes_a_withdrawn_play_with_plus_zero_and_the_lowered_total() -> None:
    (event,) = [e for e in real("capp.gcg").events if e.line == 14]
    assert (event.line, event.kind, event.nick, event.score, event.total) == (
        14,
        "withdrawn",
        "Pakorn",
        0,
        59,
    )


def test_the_player_who_went_out_scores_the_opponents_rack() -> None:
    event = own("endgame.gcg").events[-1]
    assert (event.kind, event.nick, event.rack, event.tiles, event.score) == (
        "end_rack_points",
        "ann",
        "",
        "EILRT",
        12,
    )


def test_rack_penalties_in_both_written_forms() -> None:
    events = own("endgame_penalties.gcg").events
    assert [(e.kind, e.rack, e.tiles, e.score) for e in events[2:4]] == [
        ("end_rack_penalty", "QZ", "QZ", -20),
        ("end_rack_penalty", "?E", "?E", -1),
    ]
    bare = parse_event(">bo: (EILRT) -12 280", 1)
    assert (bare.kind, bare.tiles, bare.score) == ("end_rack_penalty", "EILRT", -12)


def test_time_penalties_with_or_without_a_plus_sign() -> None:
    assert (own("endgame.gcg").events[1].kind, own("endgame.gcg").events[1].score) == (
        "time_penalty",
        -10,
    )
    event = own("endgame_penalties.gcg").events[-1]
    assert (event.kind, event.score, event.total) == ("time_penalty", -5, -6)


def test_two_players_with_the_same_nick_take_their_turns_in_order() -> None:
    record = read_gcg(
        "#player1 NoName Ann\n#player2 NoName Bo\n"
        ">NoName: ABELNUW 8D BLAWN +26 26\n>NoName: ADRSTYZ F8 ADZ +33 33\n"
        ">NoName: EEFGRTU 11E REFUGE +34 60\n"
    )
    assert [e.seat for e in record.events] == [0, 1, 0]


# Notes -------------------------------------------------------------------------------------


def test_a_note_before_the_first_turn_belongs_to_the_game() -> None:
    assert own("notes.gcg").notes == ("The last round of the day.",)


def test_a_note_belongs_to_the_turn_above_and_continues_on_plain_lines() -> None:
    events = own("notes.gcg").events
    assert events[0].note == (
        "A bingo to start,\nand a note on two lines.\n\nA new paragraph after a blank line."
    )


def test_two_note_lines_under_one_turn_are_joined() -> None:
    assert own("notes.gcg").events[1].note == "first note\nsecond note"


def test_a_description_continues_on_plain_lines_too() -> None:
    record = read_gcg("#player1 a A\n#description Round 5,\ntable 2\n#player2 b B\n")
    assert record.description == "Round 5,\ntable 2"


def test_a_real_multi_line_note_with_windows_line_ends() -> None:
    record = real("utf8_dos.gcg")
    noted = [e for e in record.events if "since ive been behind" in e.note]
    assert len(noted) == 1
    assert noted[0].note.startswith("tennises dentines way more points\nsince ive")
    assert "\r" not in noted[0].note


# Encodings and line ends -------------------------------------------------------------------


def test_latin_1_bytes_without_a_declaration_are_read_as_latin_1() -> None:
    record = real("name_iso8859-1.gcg")
    assert [p.nick for p in record.players] == ["césar", "hércules"]
    assert record.encoding == "iso8859-1"


def test_utf_8_bytes_are_read_as_utf_8() -> None:
    record = real("polish_endgame.gcg")
    assert record.events[2].word == "STĘPIĆ"


def test_a_declared_encoding_is_honoured() -> None:
    data = "#character-encoding ISO-8859-1\n#player1 zoë Zoë\n#player2 b B\n".encode("latin-1")
    assert read_gcg(data).players[0].nick == "zoë"


def test_a_wrong_declaration_falls_back_to_what_decodes() -> None:
    data = "#character-encoding UTF-8\n#player1 zoë Zoë\n#player2 b B\n".encode("latin-1")
    assert read_gcg(data).players[0].nick == "zoë"


def test_windows_line_ends_and_a_byte_order_mark() -> None:
    data = b"\xef\xbb\xbf#player1 a A\r\n#player2 b B\r\n>a: AEINRST 8D RETAINS +66 66\r\n"
    event = read_gcg(data).events[0]
    assert (event.word, event.total, event.text) == ("RETAINS", 66, ">a: AEINRST 8D RETAINS +66 66")


# Files that are not games ------------------------------------------------------------------


def test_a_plain_text_file_is_not_a_game() -> None:
    with pytest.raises(GcgError, match=r"Line 1: expected a #pragma") as caught:
        read_gcg("Dear club members,\nthe next meeting is on Monday.\n")
    assert caught.value.line == 1
    assert isinstance(caught.value, InputError)


def test_a_json_file_is_not_a_game() -> None:
    with pytest.raises(GcgError, match="Line 1"):
        read_gcg(b'{"players": ["ann", "bo"]}')


def test_an_empty_file_is_not_a_game() -> None:
    with pytest.raises(GcgError, match="no #player lines"):
        read_gcg(b"")


def test_a_malformed_turn_names_its_line_and_what_was_expected() -> None:
    text = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>b: ABC 8Z\n"
    with pytest.raises(GcgError, match=r"Line 4: expected a turn such as") as caught:
        read_gcg(text)
    assert caught.value.line == 4
    assert caught.value.to_dict()["line"] == 4


def test_the_same_turn_well_formed_reads() -> None:
    text = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n>b: ABC 9C AB +8 8\n"
    assert read_gcg(text).events[1].word == "AB"


def test_a_turn_by_someone_who_is_not_a_player() -> None:
    with pytest.raises(GcgError, match=r"Line 3: 'cy' is not one of the players"):
        read_gcg("#player1 a A\n#player2 b B\n>cy: AEINRST 8D RETAINS +66 66\n")


def test_turns_before_any_player_line() -> None:
    with pytest.raises(GcgError, match=r"Line 1: expected #player1 and #player2"):
        read_gcg(">a: AEINRST 8D RETAINS +66 66\n")


def test_a_missing_player_line() -> None:
    with pytest.raises(GcgError, match="no #player2 line"):
        read_gcg("#player1 a A\n#player3 c C\n")


def test_a_word_with_digits_is_not_a_play() -> None:
    with pytest.raises(GcgError, match="Line 1"):
        parse_event(">a: ABC 8D A1B +5 5", 1)


# Parse and format --------------------------------------------------------------------------

_letters = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ?", min_size=1, max_size=7)
_word = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz.", min_size=2, max_size=15)


@st.composite
def events(draw: st.DrawFn) -> GcgEvent:
    nick = draw(st.sampled_from(["ann", "bo", "Mark_Ogden", "césar"]))
    rack = draw(st.one_of(st.just(""), _letters))
    total = draw(st.integers(-50, 900))
    kind = draw(st.sampled_from(["play", "pass", "exchange", "challenge_bonus", "end"]))
    if kind == "play":
        row, col, across = draw(st.integers(0, 14)), draw(st.integers(0, 14)), draw(st.booleans())
        return GcgEvent(
            line=1,
            text="",
            kind="play",
            nick=nick,
            rack=rack,
            score=draw(st.integers(0, 2000)),
            total=total,
            position=format_position(row, col, across),
            row=row,
            col=col,
            across=across,
            word=draw(_word),
        )
    if kind == "exchange":
        tiles = draw(st.one_of(st.just(""), _letters))
        count = len(tiles) or draw(st.integers(1, 7))
        return GcgEvent(1, "", "exchange", nick, rack, 0, total, tiles=tiles, count=count)
    if kind == "end":
        tiles = draw(_letters)
        score = draw(st.integers(-100, 100))
        end: EventKind = "end_rack_points" if score >= 0 else "end_rack_penalty"
        return GcgEvent(1, "", end, nick, rack, score, total, tiles=tiles)
    other: EventKind = "pass" if kind == "pass" else "challenge_bonus"
    score = 0 if other == "pass" else draw(st.integers(0, 10))
    return GcgEvent(1, "", other, nick, rack, score, total)


@given(events())
def test_a_formatted_turn_reads_back_as_the_same_turn(event: GcgEvent) -> None:
    line = event.gcg()
    assert parse_event(line, 1) == GcgEvent(**{**event.__dict__, "text": line})


ALL = sorted(FIXTURES.rglob("*.gcg"))


def as_read(record: GcgRecord) -> GcgRecord:
    """The record without what writing it cannot keep: line numbers and the lines' text."""
    events = tuple(GcgEvent(**{**e.__dict__, "line": 0, "text": ""}) for e in record.events)
    return GcgRecord(**{**record.__dict__, "events": events, "pragmas": (), "encoding": ""})


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_written_record_reads_back_as_the_same_record(path: Path) -> None:
    record = read_gcg(path.read_bytes())
    assert as_read(read_gcg(write_gcg(record))) == as_read(record)


def test_a_withdrawn_play_that_scored_nothing_is_written_minus_zero() -> None:
    record = read_gcg("#player1 a A\n#player2 b B\n>a: ?? 8G qi +0 0\n>a: ?? -- +0 0\n")
    assert write_gcg(record).splitlines()[-1] == ">a: ?? -- -0 0"
    assert as_read(read_gcg(write_gcg(record))) == as_read(record)


def test_a_built_record_puts_each_note_after_its_turn_and_writes_as_read() -> None:
    players = [GcgPlayer(1, "a", "Ann"), GcgPlayer(2, "b", "Bo")]
    play = parse_event(">a: ?EQU 9D qUEy +30 30", 0)
    passed = replace(parse_event(">b: ?? - +0 0", 0), seat=1)
    entries = [GcgNote("Before."), play, GcgNote("One."), GcgNote("Two\nlines."), passed]
    record = GcgRecord.of(players, entries, lexicon="CSW21", title="T", record_id="x 1")
    assert record.notes == ("Before.",)
    assert [e.note for e in record.events] == ["One.\nTwo\nlines.", ""]
    assert write_gcg(record).splitlines()[1:] == [
        "#player1 a Ann",
        "#player2 b Bo",
        "#lexicon CSW21",
        "#title T",
        "#id x 1",
        "#note Before.",
        ">a: ?EQU 9D qUEy +30 30",
        "#note One.",
        "#note Two",
        "#note lines.",
        ">b: ?? - +0 0",
    ]
    assert as_read(read_gcg(write_gcg(record))) == as_read(record)


def test_each_line_of_a_note_is_written_as_a_note_line() -> None:
    text = write_gcg(own("notes.gcg"))
    assert "#note and a note on two lines.\n#note\n#note A new paragraph" in text


# Placements --------------------------------------------------------------------------------


def board_with(*tiles: tuple[int, int, str]) -> Board:
    board = Board(15)
    for row, col, tile in tiles:
        board.place(row, col, tile)
    return board


def test_a_first_play_places_every_letter() -> None:
    event = parse_event(">a: AEINRST 8D RETAINS +66 66", 1)
    placements = play_placements(event, Board(15))
    assert "".join(p.tile for p in placements) == "RETAINS"
    assert placements[0] == Placement(7, 3, "R")


def test_a_dot_runs_through_the_tile_on_the_board() -> None:
    event = parse_event(">a: ALLY F8 .ALLY +18 30", 1)
    placements = play_placements(event, board_with((7, 5, "T")))
    assert [(p.row, p.col, p.tile) for p in placements] == [
        (8, 5, "A"),
        (9, 5, "L"),
        (10, 5, "L"),
        (11, 5, "Y"),
    ]


def test_a_spelled_out_letter_on_its_own_tile_runs_through_it() -> None:
    event = parse_event(">a: ALLY F8 TALLY +18 30", 1)
    assert len(play_placements(event, board_with((7, 5, "T")))) == 4


def test_a_spelled_out_letter_runs_through_a_blank_standing_for_it() -> None:
    event = parse_event(">a: ALLY F8 TALLY +18 30", 1)
    assert len(play_placements(event, board_with((7, 5, "t")))) == 4


def test_a_blank_is_placed_as_the_lowercase_letter_it_stands_for() -> None:
    event = parse_event(">a: ?EQU 9D qUEy +30 96", 1)
    assert [p.tile for p in play_placements(event, Board(15))] == ["q", "U", "E", "y"]


def test_a_dot_over_an_empty_square_is_refused() -> None:
    event = parse_event(">a: ALLY F8 .ALLY +18 30", 7)
    with pytest.raises(GcgError, match=r"Line 7: .ALLY runs through F8, which is empty"):
        play_placements(event, Board(15))


def test_a_different_letter_over_a_tile_is_refused() -> None:
    event = parse_event(">a: ALLY F8 SALLY +18 30", 7)
    with pytest.raises(GcgError, match="needs S at F8, where T lies"):
        play_placements(event, board_with((7, 5, "T")))


def test_a_word_running_off_the_board_is_refused() -> None:
    event = parse_event(">a: AEINRST 8K RETAINS +66 66", 3)
    with pytest.raises(GcgError, match="runs off the board"):
        play_placements(event, Board(15))


def test_a_pass_puts_no_tiles_down() -> None:
    with pytest.raises(GcgError):
        play_placements(parse_event(">a: ABC - +0 0", 1), Board(15))


# Real files --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_files_read_with_a_turn_for_every_turn_line(path: Path) -> None:
    data = path.read_bytes()
    record = read_gcg(data)
    turn_lines = [line for line in data.splitlines() if line.lstrip().startswith(b">")]
    assert len(record.events) == len(turn_lines) > 0
    assert len(record.players) >= 2


def test_real_files_keep_their_running_totals_except_quackles_withdrawal() -> None:
    """Every recorded total is the player's previous total plus the recorded score, except
    where Quackle writes a withdrawn play as ``-- +0`` and lowers the total itself."""
    disagreements = []
    for path in REAL:
        record = read_gcg(path.read_bytes())
        totals = [0] * len(record.players)
        for event in record.events:
            if totals[event.seat] + event.score != event.total:
                disagreements.append((path.name, event.line))
            totals[event.seat] = event.total
    assert disagreements == [("capp.gcg", 14)]


def test_a_real_four_player_game() -> None:
    record = real("multiplayer-crash.gcg")
    assert [p.name for p in record.players][2:] == ["Nicole Gorham", "Daniel Southam"]


def test_a_real_challenge_bonus_and_time_penalty() -> None:
    assert "challenge_bonus" in kinds(real("vs_frentz.gcg"))
    assert "time_penalty" in kinds(real("issue_476.gcg"))
    assert kinds(real("doug_v_emely_double_challenge.gcg"))[5:8] == ["play", "withdrawn", "play"]


_gcg_ish = st.lists(
    st.sampled_from(
        [
            "#player1 a A",
            "#player2 b B",
            "#note n",
            "#lexicon CSW21",
            ">a:",
            ">b:",
            " ",
            "AEI?",
            "8D",
            "D8",
            "0A",
            "WORD",
            ".A.",
            "-",
            "--",
            "-3",
            "(challenge)",
            "(time)",
            "(ABC)",
            "+5",
            "-5",
            "12",
            "\n",
            "\r\n",
            "é",
        ]
    ),
    max_size=40,
).map("".join)


@given(st.one_of(st.text(max_size=200), _gcg_ish))
def test_any_text_reads_as_a_record_or_fails_with_a_gcg_error(text: str) -> None:
    try:
        record = read_gcg(text)
    except GcgError as error:
        assert error.message.startswith(("Line ", "This is not", "The record"))
    else:
        assert record.players
        assert all(e.text.lstrip().startswith(">") for e in record.events)


# Files from anyone ---------------------------------------------------------------------------

HEADER = "#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n"


def read_cpu_seconds(text: str) -> float:
    """CPU time (this process's: other work on the machine doesn't count) to read ``text``
    with no size limit."""
    start = time.process_time()
    read_gcg(text, max_size=None, max_lines=None)
    return time.process_time() - start


# Read in linear time, each of these takes well under a second; read in quadratic time, as
# they were, 10 to 15 s. The bound between is generous both ways.
LINEAR_BOUND = 4.0


def test_a_megabyte_note_continued_over_many_lines_reads_in_linear_time() -> None:
    # Joined again at every line, the note cost the square of its length (6.4 s for an
    # attacker's 500 kB record); joined once, it costs its length.
    note = "#note " + "\n".join(["x"] * 500_000)
    assert len(note) > 1_000_000
    assert read_cpu_seconds(HEADER + note + "\n") < LINEAR_BOUND


def test_a_megabyte_description_continued_over_many_lines_reads_in_linear_time() -> None:
    description = "#description " + "\n".join(["x"] * 500_000)
    assert read_cpu_seconds(HEADER.replace(">", description + "\n>", 1)) < LINEAR_BOUND


def test_many_turns_after_the_last_play_read_in_linear_time() -> None:
    # Each turn line looked back through the ones before it for the last play.
    penalties = "".join(f">b: (time) -1 -{n}\n" for n in range(1, 30_001))
    assert read_cpu_seconds(HEADER + penalties) < LINEAR_BOUND


def test_a_continued_note_keeps_its_lines_and_paragraphs() -> None:
    record = read_gcg(HEADER + "#note one\ntwo\n\nthree\n#note four\n")
    assert record.events[0].note == "one\ntwo\n\nthree\nfour"


def test_a_file_over_the_size_limit_is_refused_before_it_is_read() -> None:
    data = (HEADER + "#note " + "x" * MAX_SIZE).encode()
    with pytest.raises(GcgError, match=f"at most {MAX_SIZE:,}"):
        read_gcg(data)


def test_a_file_over_the_line_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(GcgError, match=f"{MAX_LINES + 1:,} lines: a game record has at most"):
        read_gcg(HEADER + "\n" * (MAX_LINES - 2))


def test_a_file_within_both_limits_reads() -> None:
    assert read_gcg(HEADER + "\n" * (MAX_LINES - 3)).events[0].word == "RETAINS"


@pytest.mark.parametrize(
    ("line", "number"),
    [
        (">b: ABC (time) -" + "9" * 4400 + " -10", 4),  # past Python's int digit limit
        (">b: ABC 9C AB +" + "9" * 7 + " 8", 4),
        (">b: ABC 9C AB +8 " + "9" * 5000, 4),
        (">b: ABC -" + "9" * 4400 + " +0 0", 4),  # an exchange of that many tiles
    ],
    ids=["score", "7-digit score", "total", "exchange count"],
)
def test_a_huge_number_is_refused_naming_its_line(line: str, number: int) -> None:
    with pytest.raises(GcgError, match=rf"^Line {number}: a number of [\d,]+ digits") as caught:
        read_gcg(HEADER + line + "\n")
    assert len(caught.value.message) < 200  # the number is not quoted whole


def test_a_six_digit_score_reads() -> None:
    assert read_gcg(HEADER + ">b: ABC (time) -999999 -999999\n").events[1].score == -999999


def test_an_exchange_of_digits_that_are_not_ascii_is_an_exchange_of_those_tiles() -> None:
    event = read_gcg(HEADER + ">b: ABC -\N{SUPERSCRIPT TWO} +0 0\n").events[1]
    assert (event.kind, event.tiles, event.count) == ("exchange", "\N{SUPERSCRIPT TWO}", 1)


def test_a_final_rack_of_a_player_who_is_not_there_is_refused_naming_its_line() -> None:
    text = HEADER + ">b: ABC (AB) +8 8\n#rack9 ABC\n"
    with pytest.raises(GcgError, match=r"^Line 5: #rack9 names no player: the record has 2"):
        read_gcg(text)


def test_a_final_rack_of_a_player_reads() -> None:
    assert read_gcg(HEADER + "#rack2 ABC\n").final_racks == {2: "ABC"}


@pytest.mark.parametrize("codec", ["punycode", "idna", "unicode_escape", "raw_unicode_escape"])
def test_a_codec_that_is_not_a_character_set_is_refused_naming_its_line(codec: str) -> None:
    data = f"#player1 a A\n#character-encoding {codec}\n#player2 b B\n".encode() + b"-\xff\\ud800"
    with pytest.raises(GcgError, match=rf"^Line 2: '{codec}' is not a character set"):
        read_gcg(data)


def test_punycode_is_refused_before_its_quadratic_decoding() -> None:
    data = b"#character-encoding punycode\n" + b"a" * 90_000 + b"-" + b"b" * 90_000
    start = time.process_time()
    with pytest.raises(GcgError, match="^Line 1"):
        read_gcg(data)
    assert time.process_time() - start < 1.0  # decoding it would take seconds


@pytest.mark.parametrize(
    "text",
    ["#note a\x00b\n", "#note \ud800\n", ">b: A\udcff 9C AB +8 8\n"],
    ids=["NUL", "lone surrogate", "lone surrogate in a rack"],
)
def test_text_no_database_stores_is_refused_naming_its_line(text: str) -> None:
    with pytest.raises(GcgError, match=r"^Line 4: a NUL character or a lone surrogate"):
        read_gcg(HEADER + text)


def test_a_nul_in_utf8_bytes_is_refused_naming_its_line() -> None:
    with pytest.raises(GcgError, match="^Line 4: a NUL"):
        read_gcg((HEADER + "#note a\x00b\n").encode())


def test_a_long_malformed_line_is_quoted_short() -> None:
    with pytest.raises(GcgError, match=r"^Line 4: expected") as caught:
        read_gcg(HEADER + ">b: " + "Z" * 100_000 + "\n")
    assert len(caught.value.message) < 200
