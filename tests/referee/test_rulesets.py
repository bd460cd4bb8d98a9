"""Each ruleset's tile set, letter values, layout and constants (RULES.md §1, §4)."""

from __future__ import annotations

import pytest

from referee.errors import InputError
from referee.rulesets import (
    LETTERUP_CLASSIC,
    LETTERUP_RUSH,
    RULESETS,
    UPWORDS_8,
    UPWORDS_10,
    RuleOptions,
    get_ruleset,
)


@pytest.mark.parametrize(
    ("ruleset", "total", "size"),
    [
        (UPWORDS_10, 100, 10),
        (UPWORDS_8, 64, 8),
        (LETTERUP_CLASSIC, 102, 15),
        (LETTERUP_RUSH, 54, 15),
    ],
)
def test_tile_totals_and_board_sizes(ruleset, total, size):
    assert ruleset.total_tiles == total
    assert ruleset.size == size


def test_upwords_10_tile_table():
    expected = {
        **dict.fromkeys(["J", "QU", "V", "X", "Z"], 1),
        **dict.fromkeys(["K", "W", "Y"], 2),
        **dict.fromkeys(["B", "F", "G", "H", "P"], 3),
        "C": 4,
        **dict.fromkeys(["D", "L", "M", "N", "R", "T", "U"], 5),
        "S": 6,
        **dict.fromkeys(["A", "I", "O"], 7),
        "E": 8,
    }
    assert dict(UPWORDS_10.tiles) == expected
    assert "Q" not in UPWORDS_10.tiles


def test_upwords_8_tile_table():
    expected = {
        **dict.fromkeys(["F", "J", "K", "QU", "V", "W", "X", "Z"], 1),
        **dict.fromkeys(["B", "C", "G", "H", "R", "Y"], 2),
        **dict.fromkeys(["D", "L", "M", "N", "P", "S", "U"], 3),
        **dict.fromkeys(["I", "O", "T"], 4),
        "A": 5,
        "E": 6,
    }
    assert dict(UPWORDS_8.tiles) == expected


# (letter, classic count, rush count, points) — RULES.md table 2.
LETTERUP_TABLE = """
A 10 5 1, B 2 1 3, C 2 1 3, D 4 2 2, E 12 5 1, F 2 1 4, G 3 2 3, H 3 1 4, I 10 5 1,
J 1 1 8, K 1 1 5, L 4 2 2, M 2 1 4, N 6 3 1, O 8 5 1, P 2 1 4, Q 1 1 10, R 6 3 1,
S 5 3 1, T 6 3 1, U 4 2 1, V 2 1 4, W 2 1 5, X 1 1 8, Y 2 1 4, Z 1 1 10
"""


@pytest.mark.parametrize(
    ("letter", "classic", "rush", "points"),
    [
        (entry.split()[0], *map(int, entry.split()[1:]))
        for entry in LETTERUP_TABLE.replace("\n", " ").split(",")
    ],
)
def test_letterup_counts_and_values(letter, classic, rush, points):
    assert LETTERUP_CLASSIC.tiles[letter] == classic
    assert LETTERUP_RUSH.tiles[letter] == rush
    assert LETTERUP_CLASSIC.values[letter] == LETTERUP_RUSH.values[letter] == points


def test_letterup_values_are_not_the_familiar_crossword_values():
    values = LETTERUP_CLASSIC.values
    assert (values["L"], values["M"], values["P"], values["H"], values["W"], values["Y"]) == (
        2, 4, 4, 4, 5, 4,
    )  # fmt: skip


def test_premium_layout_matches_the_rules():
    premiums = {"TW": set(), "DW": set(), "TL": set(), "DL": set()}
    for r in range(15):
        for c in range(15):
            mark = LETTERUP_CLASSIC.premium(r, c)
            if mark:
                premiums[mark].add((r, c))
    assert premiums["TW"] == {(0, 0), (0, 7), (0, 14), (7, 0), (7, 14), (14, 0), (14, 7), (14, 14)}
    assert len(premiums["DW"]) == 17 and (7, 7) in premiums["DW"]
    assert premiums["TL"] == {
        (1, 5), (1, 9), (5, 1), (5, 5), (5, 9), (5, 13),
        (9, 1), (9, 5), (9, 9), (9, 13), (13, 5), (13, 9),
    }  # fmt: skip
    assert len(premiums["DL"]) == 24 and {(7, 3), (0, 3), (14, 11)} <= premiums["DL"]
    # The layout is symmetric about both axes and the diagonal.
    for r in range(15):
        for c in range(15):
            mark = LETTERUP_CLASSIC.premium(r, c)
            assert mark == LETTERUP_CLASSIC.premium(c, r) == LETTERUP_CLASSIC.premium(14 - r, c)


def test_upwords_boards_have_no_premiums_and_four_start_squares():
    assert not any(UPWORDS_10.premium(r, c) for r in range(10) for c in range(10))
    assert UPWORDS_10.start_squares == {(4, 4), (4, 5), (5, 4), (5, 5)}
    assert UPWORDS_8.start_squares == {(3, 3), (3, 4), (4, 3), (4, 4)}
    assert LETTERUP_CLASSIC.start_squares == {(7, 7)}


def test_bonuses_penalties_and_stacking_limits():
    assert (UPWORDS_10.bingo_bonus, LETTERUP_CLASSIC.bingo_bonus) == (20, 45)
    assert UPWORDS_10.max_height == UPWORDS_8.max_height == 5
    assert LETTERUP_RUSH.max_height == 1
    assert UPWORDS_8.penalty == "per_tile" and LETTERUP_RUSH.penalty == "letter_values"
    assert all(r.rack_size == 7 for r in RULESETS.values())


def test_the_qu_tile_reads_as_one_tile_in_upwords():
    assert UPWORDS_10.tile("Qu") == "QU"
    assert UPWORDS_10.split("QUIT") == ["QU", "I", "T"]
    assert LETTERUP_CLASSIC.split("QUIT") == ["Q", "U", "I", "T"]


def test_upwords_has_no_plain_q():
    with pytest.raises(InputError, match="no Q tile") as error:
        UPWORDS_10.tile("Q")
    assert error.value.code == "unknown_tile"


def test_unknown_ruleset_is_an_input_error():
    with pytest.raises(InputError) as error:
        get_ruleset("scrabble")
    assert error.value.code == "unknown_ruleset"


def test_rule_options_default_as_the_rules_state():
    options = RuleOptions()
    assert options.plural_s_rule is True
    assert options.upheld_challenge == "retry"
    assert options.rejected_challenge == "none"
    assert options.solo_exchanges == 0


@pytest.mark.parametrize(
    "bad",
    [{"plural_s": True}, {"plural_s_rule": "yes"}, {"rejected_challenge": "minus_10"},
     {"solo_exchanges": 6}, {"solo_exchanges": True}],
)  # fmt: skip
def test_bad_rule_options_are_refused(bad):
    with pytest.raises(InputError):
        RuleOptions.from_dict(bad)


def test_rule_options_round_trip():
    options = RuleOptions.from_dict({"rejected_challenge": "minus_5", "solo_exchanges": 3})
    assert RuleOptions.from_dict(options.to_dict()) == options
