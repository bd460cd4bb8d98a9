"""Checking GCG records against the rules: every scored line, the totals, the end of the game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.gcg import read_gcg
from referee.gcg_check import Mismatch, check_record, infer_options
from referee.lexicon import Lexicon, WordSet
from referee.rulesets import CROSSWORD_CLASSIC

REAL = Path(__file__).parent.parent / "fixtures" / "gcg" / "real"
ENGLISH = sorted(p for p in REAL.glob("*.gcg") if p.name != "polish_endgame.gcg")

# A short game by the crossword rules (double challenge), each score worked out by hand:
# RETAINS 66 = (R 1×2 + E T A I N S) ×2 + 50; B.D 6 = B 3 + E 1 + D 2; yE. 2 = blank 0 +
# E 1 + S 1; ZO 26 = ZO 10+1×2 + IZ 1+10 + NO 1+1×2; VOTE 29 = VOTE 4×2+1+1×2+1 + AV 9 +
# IO 2 + NT 3 + YESE 3; L... 4 = LYESE 1+0+1+1+1.
GAME = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETAINS +66 66
>bo: BDEFGOX E7 B.D +6 6
>ann: ?ACELOT -AC +0 66
>bo: EFGOTUX - +0 6
>ann: ?EELOTY J6 yE. +2 68
>bo: EFGOTXZ 9H ZO +26 32
>bo: EFGOTXZ -- -26 6
>ann: EELOTUV 9G VOTE +29 97
>bo: EFGOTXZ -- +0 6
>ann: EELLU J5 L... +4 101
"""


def check(
    text: str, lexicon: Lexicon | None = None
) -> list[tuple[int, str, int | None, int | None]]:
    mismatches = check_record(read_gcg(text), CROSSWORD_CLASSIC, lexicon)
    return [(m.line, m.what, m.recorded, m.computed) for m in mismatches]


def changed(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


def test_a_game_scored_by_the_rules_has_no_mismatches() -> None:
    assert check(GAME) == []


def test_a_wrong_score_is_reported_with_the_recorded_and_the_computed_score() -> None:
    text = changed(GAME, "B.D +6 6", "B.D +8 8")
    assert check(text)[0] == (4, "score", 8, 6)


def test_a_total_that_is_not_the_previous_total_plus_the_score() -> None:
    text = changed(GAME, "-AC +0 66", "-AC +0 67")
    assert check(text) == [(5, "total", 67, 66), (7, "total", 68, 69)]


def test_a_withdrawn_play_must_take_back_what_it_scored() -> None:
    text = changed(GAME, "-- -26 6", "-- -25 7")
    assert (9, "score", -25, -26) in check(text)


def test_quackles_withdrawal_written_as_plus_zero_is_accepted() -> None:
    text = changed(GAME, "-- -26 6", "-- +0 6")
    assert check(text) == []


def test_a_turn_out_of_order_is_reported() -> None:
    # bo's failed challenge costs bo the next turn: ann moves twice, bo may not.
    text = changed(GAME, ">ann: EELLU J5 L... +4 101", ">bo: EELLU J5 L... +4 10")
    assert check(text) == [(12, "turn", 2, 1)]


def test_an_illegal_play_stops_the_check_and_says_why() -> None:
    mismatches = check_record(
        read_gcg("#player1 a A\n#player2 b B\n>a: AEINRST 1A RETAINS +66 66\n"), CROSSWORD_CLASSIC
    )
    assert [(m.line, m.what) for m in mismatches] == [(3, "replay")]
    assert "The check stops here." in mismatches[0].message


def test_a_tile_the_set_does_not_have_stops_the_check() -> None:
    record = read_gcg((REAL / "polish_endgame.gcg").read_bytes())
    stop = [m for m in check_record(record, CROSSWORD_CLASSIC) if m.what == "replay"]
    assert [(m.line, m.message.split(" is not")[0]) for m in stop] == [(6, "'Ę'")]


# Challenges and the rule options a record shows -------------------------------------------

FIVE_POINT = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETAINS +66 66
>bo: BDEFGOX E7 B.D +6 6
>bo: BDEFGOX (challenge) +5 11
>ann: ?ACELOT -AC +0 66
"""


def test_a_five_point_challenge_bonus() -> None:
    assert infer_options(read_gcg(FIVE_POINT), CROSSWORD_CLASSIC).rejected_challenge == "bonus_5"
    assert check(FIVE_POINT) == []


def test_a_challenge_bonus_the_rules_do_not_give() -> None:
    # OF 16 = OF 1+4 + RETAINSF 7+4
    text = FIVE_POINT + ">bo: EFGOTUX K7 OF +16 27\n>bo: EFGOTUX (challenge) +10 37\n"
    assert (8, "score", 10, 5) in check(text)


def test_a_double_challenge_record_is_read_as_the_double_challenge_rule() -> None:
    assert infer_options(read_gcg(GAME), CROSSWORD_CLASSIC).rejected_challenge == "lose_turn"


RETRY = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETINAS +66 66
>ann: AEINRST -- -66 0
>ann: AEINRST 8D RETAINS +66 66
>bo: BDEFGOX E7 B.D +6 6
"""


def test_a_player_who_plays_again_after_a_withdrawal_shows_the_retry_rule() -> None:
    assert infer_options(read_gcg(RETRY), CROSSWORD_CLASSIC).upheld_challenge == "retry"
    assert check(RETRY) == []


def test_without_a_retry_a_withdrawn_play_loses_the_turn() -> None:
    # BEDROX 38 = (B 3×2 + E 1 + D 2 + R 1 + O 1 + X 8) ×2
    text = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETINAS +66 66
>ann: AEINRST -- -66 0
>bo: BDEORXZ 8D BEDROX +38 38
"""
    assert infer_options(read_gcg(text), CROSSWORD_CLASSIC).upheld_challenge == "lose_turn"
    assert check(text) == []


def test_given_a_lexicon_the_verdicts_are_judged_again() -> None:
    words = ["RETAINS", "BED", "YES", "YESE", "VOTE", "AV", "IO", "NT", "LYESE"]
    assert check(GAME, lexicon=WordSet("CLUB", words)) == []
    # A list with ZO, IZ and NO would not have taken ZO off; one without VOTE would have.
    assert check(GAME, lexicon=WordSet("CLUB", [*words, "ZO", "IZ", "NO"])) == [
        (9, "verdict", None, None)
    ]
    assert check(GAME, lexicon=WordSet("CLUB", words[:4])) == [(11, "verdict", None, None)]


def test_the_two_player_going_out_rule_is_read_from_the_record() -> None:
    record = read_gcg((REAL / "vs_frentz.gcg").read_bytes())
    assert infer_options(record, CROSSWORD_CLASSIC).out_bonus == "twice_opponents"


# Real records -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ENGLISH, ids=lambda p: p.name)
def test_real_english_records_agree_with_the_rules_on_every_line(path: Path) -> None:
    assert check_record(read_gcg(path.read_bytes()), CROSSWORD_CLASSIC) == []


def test_the_end_of_game_rack_is_checked() -> None:
    text = (REAL / "vs_frentz.gcg").read_text()
    assert check(text) == []
    mismatches = check(changed(text, "(AHNTT) +16 550", "(AHNTT) +18 552"))
    assert mismatches == [(40, "score", 18, 16)]


def test_a_time_penalty_counts_but_cannot_be_checked() -> None:
    text = (REAL / "issue_476.gcg").read_text()
    assert check(changed(text, "(time) -10 422", "(time) -20 412")) == []


def test_a_pass_after_a_player_went_out_declines_to_challenge() -> None:
    record = read_gcg((REAL / "doug_v_emely_double_challenge.gcg").read_bytes())
    assert [e.kind for e in record.events][-2:] == ["pass", "end_rack_points"]
    assert check_record(record, CROSSWORD_CLASSIC) == []


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ENGLISH), st.data())
def test_any_play_scored_one_point_more_is_caught_on_its_line(
    path: Path, data: st.DataObject
) -> None:
    record = read_gcg(path.read_bytes())
    plays = [e for e in record.events if e.kind == "play"]
    event = data.draw(st.sampled_from(plays))
    lines = path.read_bytes().decode(record.encoding or "utf-8").splitlines()
    lines[event.line - 1] = event.text.replace(f"+{event.score} ", f"+{event.score + 1} ", 1)
    found = check_record(read_gcg("\n".join(lines)), CROSSWORD_CLASSIC)
    first: Mismatch = found[0]
    assert (first.line, first.what, first.recorded, first.computed) == (
        event.line,
        "score",
        event.score + 1,
        event.score,
    )
