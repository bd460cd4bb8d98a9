"""The move generator is exact: on random small positions it finds precisely the plays that a
brute-force search finds, with the same scores, for every ruleset.

The brute force knows nothing of the generator: it puts every ordered choice of rack tiles
on every set of squares of every row and column (stacking included) and keeps what
``rules.evaluate`` accepts. It skips only sets of squares that break rule 2.2 (an empty
square between the new tiles) or rule 2.4 (touching nothing on the board, or off the start
squares for a first play), which the rules refuse anyway, so that it runs in time.
"""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.errors import IllegalPlay, InputError
from referee.lexicon import WordSet
from referee.movegen import generate, raw_plays
from referee.play import Placement, Play
from referee.rules import evaluate
from referee.rulesets import BLANK, RULESETS, RuleOptions, Ruleset

# Short "words" over a few letters, so random positions make many plays. They need not be
# English: a lexicon is whatever list the game uses.
_POOL_TEXT = (
    "AT TA IT TI IS SI AS SA ON NO TO OT AN NA IN NI OE EN NE ES SO OS "
    "ANT TAN TIN NIT SIT ITS SAT OAT TOE ONE EON NET TEN SET EAT TEA ATE SEA "
    "CAT ACT COT CON ICE ACE CAN NOSE NOTE TONE SANE CATS ANTS OATS COAT IONS "
    "QUA QUIT QUITE QUOTE QUAT QI SUQ"
)
POOL = _POOL_TEXT.split()
LETTERS = sorted({ch for word in POOL for ch in word if ch not in "QU"}) + ["U"]


def brute_force(
    board: Board, ruleset: Ruleset, options: RuleOptions, lexicon: WordSet, rack: list[str]
) -> dict[tuple[Placement, ...], int]:
    n = ruleset.size
    lines = [[(r, c) for c in range(n)] for r in range(n)]
    lines += [[(r, c) for r in range(n)] for c in range(n)]

    def touches(squares: tuple[tuple[int, int], ...]) -> bool:
        if board.is_empty:
            return bool(ruleset.start_squares & set(squares))
        return any(
            board.occupied(r + dr, c + dc)
            for r, c in squares
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
        )

    found: dict[tuple[Placement, ...], int] = {}
    for line in lines:
        for k in range(1, len(rack) + 1):
            for squares in combinations(line, k):
                first, last = line.index(squares[0]), line.index(squares[-1])
                if any(sq not in squares and not board.stack(*sq) for sq in line[first:last]):
                    continue
                if not touches(squares):
                    continue
                for tiles in set(permutations(rack, k)):
                    for letters in _blanks_as_letters(tiles):
                        play = Play(
                            tuple(
                                Placement(r, c, t)
                                for (r, c), t in zip(squares, letters, strict=True)
                            )
                        )
                        if play.placements in found:
                            continue  # one tile: found along its row and its column
                        try:
                            evaluation = evaluate(board, play, ruleset, options, lexicon)
                        except (IllegalPlay, InputError):
                            continue
                        found[play.placements] = evaluation.score
    return found


def _blanks_as_letters(tiles: tuple[str, ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for tile in tiles:
        choices = [chr(c) for c in range(ord("a"), ord("z") + 1)] if tile == BLANK else [tile]
        out = [done + (choice,) for done in out for choice in choices]
    return out


@st.composite
def positions(draw, ruleset: Ruleset, max_rack: int = 4, blank: bool = False):
    """A small lexicon, a board with a few of its words (some over others, stacked in
    Upwords), and a short rack; blanks only with ``blank``, and then on every rack (trying
    each as 26 letters is what makes the brute force slow)."""
    words = draw(st.lists(st.sampled_from(POOL), min_size=8, max_size=25, unique=True))
    n = ruleset.size
    board = Board(n)
    middle = n // 2
    for _ in range(draw(st.sampled_from([0, 0, 0, 0, 1, 2]))):
        tiles = ruleset.split(draw(st.sampled_from(words)))
        if not ruleset.has_qu and "QU" in "".join(tiles) and draw(st.booleans()):
            continue
        across = draw(st.booleans())
        row = draw(st.integers(middle - 2, middle + 1))
        col = draw(st.integers(middle - 3, min(middle + 1, n - len(tiles))))
        if not across:
            row, col = col, row
        for i, tile in enumerate(tiles):
            r, c = (row, col + i) if across else (row + i, col)
            if tile not in ruleset.tiles:
                continue  # a plain Q in Upwords
            top = board.top(r, c)
            if top is None:
                for _ in range(draw(st.integers(0, 2)) if ruleset.stacks else 0):
                    board.place(r, c, draw(st.sampled_from(LETTERS)))  # tiles underneath
                if board.top(r, c) != tile:
                    board.place(r, c, tile)
            elif ruleset.stacks and top != tile and board.height(r, c) < ruleset.max_height:
                board.place(r, c, tile)
    alphabet = sorted({t for w in words for t in ruleset.split(w) if t in ruleset.tiles} | {"S"})
    if ruleset.has_qu:
        alphabet.append("QU")
    # Then a few plays of a game, each one of those the generator finds for a random rack.
    lexicon = WordSet("SMALL", words)
    for _ in range(draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6]))):
        letters = 6 if blank else 7
        build = draw(st.lists(st.sampled_from(alphabet), min_size=letters, max_size=letters))
        build_rack = _rack_text(_within_set(board, ruleset, build + [BLANK] * blank))
        found = raw_plays(board, ruleset, RuleOptions(), lexicon, build_rack)
        if found:
            _, tiles = found[draw(st.integers(0, len(found) - 1))]
            for row, col, tile in tiles:
                board.place(row, col, tile)
    # Most racks hold letters of a word in the list, so that there is something to find.
    target = [t for t in ruleset.split(draw(st.sampled_from(words))) if t in ruleset.tiles]
    size = draw(st.integers(1, max_rack - blank))
    rack = draw(st.lists(st.sampled_from(target), max_size=size)) if target else []
    rack += draw(
        st.lists(st.sampled_from(alphabet), min_size=size - len(rack), max_size=size - len(rack))
    )
    if blank:
        rack.append(BLANK)
    rack = _within_set(board, ruleset, rack)
    plural = draw(st.booleans()) if ruleset.plural_s else True
    return lexicon, board, rack, RuleOptions(plural_s_rule=plural)


def _within_set(board: Board, ruleset: Ruleset, rack: list[str]) -> list[str]:
    """The rack less the tiles the set has no more of (a real rack never holds them)."""
    left = {tile: count - board.count(tile) for tile, count in ruleset.tiles.items()}
    kept = []
    for tile in rack:
        if left.get(tile, 0) > 0:
            left[tile] -= 1
            kept.append(tile)
    return kept


def _rack_text(rack: list[str]) -> str:
    return "".join("Qu" if t == "QU" else t for t in rack)


def _check_exact(ruleset: Ruleset, lexicon: WordSet, board: Board, rack, options) -> None:
    moves = generate(board, ruleset, options, lexicon, _rack_text(rack))
    got = {m.play.placements: m.score for m in moves}
    assert len(got) == len(moves), "a play was listed twice"
    assert got == brute_force(board, ruleset, options, lexicon, rack)
    keys = [(-m.score, m.notation) for m in moves]
    assert keys == sorted(keys)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generator_finds_exactly_what_brute_force_finds(ruleset_id, data):
    ruleset = RULESETS[ruleset_id]
    lexicon, board, rack, options = data.draw(positions(ruleset))
    _check_exact(ruleset, lexicon, board, rack, options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_blanks_match_brute_force_trying_every_letter(data):
    ruleset = RULESETS["crossword-classic"]
    lexicon, board, rack, options = data.draw(positions(ruleset, max_rack=3, blank=True))
    _check_exact(ruleset, lexicon, board, rack, options)


def test_brute_force_itself_finds_the_hasbro_plays():
    """The reference is trusted only if it finds what the rules say is there."""
    ruleset = RULESETS["upwords-10"]
    board = Board(10)
    lexicon = WordSet("T", ["MOOD", "DO", "OD"])
    found = brute_force(board, ruleset, RuleOptions(), lexicon, ["M", "O", "O", "D"])
    mood = Play.parse("5D MOOD", ruleset)
    assert found[mood.placements] == 8
    assert len(found) == 2 * 3 * 2 + 2 * 4 * 2 + 2 * 4 * 2  # MOOD, DO, OD over the centre


def test_stacked_position_matches_brute_force():
    """A fixed position with stacks 2-4 high, cross-words and the plural-S rule in play."""
    ruleset = RULESETS["upwords-10"]
    board = Board(10)
    for r, c, tiles in [
        (4, 3, "SOM"), (4, 4, "O"), (4, 5, "TIO"), (4, 6, "D"),
        (5, 6, "E"), (6, 6, "A"), (7, 6, "R"), (5, 5, "NA"),
    ]:  # fmt: skip
        for tile in tiles:
            board.place(r, c, tile)
    lexicon = WordSet("T", POOL + ["MOOD", "DEAR", "NET", "ON", "DOE", "MOOT", "MOOS", "ROD"])
    _check_exact(ruleset, lexicon, board, ["T", "O", "S", "E"], RuleOptions())
