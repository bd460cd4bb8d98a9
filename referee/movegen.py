"""What could I have played? Every legal play for a rack, best first.

    >>> from referee.board import Board
    >>> from referee.lexicon import WordSet
    >>> from referee.rulesets import UPWORDS_10
    >>> moves = generate(Board(10), UPWORDS_10, RuleOptions(), WordSet("T", ["MOOD"]), "DOOM")
    >>> [(m.notation, m.score) for m in moves][:2]
    [('5B MOOD', 8), ('5C MOOD', 8)]

How it works (Gordon's GADDAG method). Every play covers an *anchor*: a start square for the
first play; later a square holding a tile, or an empty square with a tile beside it across
the line. For each row (across) and column (down), each play is grown from the first anchor
it covers: the walk places or reads the anchor's letter, goes left over the empty squares
before it (placing rack tiles, reading the GADDAG's reversed prefixes), crosses the
separator, and goes right, reading the tiles on the board and placing rack tiles on empty
squares and (Upwords) on stacks. A tile may go on a square only if its letter is in the
square's cross-check: the letters that make a word with the tiles above and below it (left
and right, for down plays), a bitmask computed once per square with the DAWG, so the rack,
the automaton and the cross-check are intersected as bitmasks; a blank tries every letter in
the intersection. Scores are summed as the walk goes (main word and cross-words), and the
Upwords rules (one tile per stack, never the same letter, at most five high, never covering
a whole word, the plural-S rule, the Qu tile reading QU) are applied as the walk meets them.

Each play is found once: its line and its first anchor fix where it is grown from. A one-tile
play that makes words both ways is kept from the across pass only.

The plays returned are confirmed by ``rules.evaluate`` — which also gives their words — and
a disagreement raises ``RuntimeError``: the engine's rules stay the one authority.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from referee.board import Board
from referee.dawg import SEPARATOR, TERMINAL, Dawg
from referee.errors import InputError
from referee.lexicon import Lexicon
from referee.play import Placement, Play
from referee.rules import ScoredWord, evaluate
from referee.rulesets import BLANK, LETTER_MULTIPLIER, QU, WORD_MULTIPLIER, RuleOptions, Ruleset

__all__ = ["Budget", "Found", "Move", "Walkable", "generate", "raw_plays", "search"]

QU_CODE = 26  # the Upwords Qu tile, read as Q then U
ANY = (1 << 27) - 1  # no cross-word: every letter and the Qu tile may go here
_Q, _U = 16, 20


@runtime_checkable
class Walkable(Protocol):
    """A lexicon that can hand the generator its automaton (WordSet, CompiledLexicon)."""

    id: str

    def dawg(self) -> Dawg: ...

    def gaddag(self) -> Dawg: ...


@dataclass(frozen=True)
class Move:
    """One legal play, as ``rules.evaluate`` scores it."""

    play: Play
    notation: str  # Play.notation on the board before the play: "8D HOUSE", "G5 L..P"
    score: int
    words: tuple[ScoredWord, ...]  # main word first, then cross-words
    bonus: int

    def to_dict(self) -> dict[str, object]:
        return {
            "notation": self.notation,
            "score": self.score,
            "tiles": [[p.row, p.col, p.tile] for p in self.play.placements],
            "words": [w.to_dict() for w in self.words],
            "bonus": self.bonus,
        }


RawPlay = tuple[int, tuple[tuple[int, int, str], ...]]  # score, (row, col, tile) as placed


@dataclass(frozen=True)
class Budget:
    """How much one search may do: at most ``plays`` legal plays looked at, and at most
    ``seconds`` of time. A position and rack with more (two blanks on a board of scattered
    tiles has millions) stop there, and the search says it is incomplete."""

    plays: int = 250_000
    seconds: float = 1.0


@dataclass(frozen=True)
class Found:
    """What a search found: how many legal plays, and the best of them."""

    count: int  # the legal plays found: all of them when ``complete``, else a lower bound
    moves: list[Move] = field(default_factory=list)  # the best ``limit``, best first
    complete: bool = True  # False: the budget ran out before every play was found


def generate(
    board: Board,
    ruleset: Ruleset,
    options: RuleOptions,
    lexicon: Lexicon,
    rack: str,
    *,
    limit: int | None = None,
) -> list[Move]:
    """Every legal play of tiles from ``rack`` on ``board``, best first.

    ``rack`` is the letters as people write them: ``"AEINRST"``, ``"?"`` for a blank (where
    the set has blanks), ``"Qu"`` or ``"QU"`` for the Upwords Qu tile. A blank is placed as
    the lowercase letter it stands for. Plays come sorted by score (highest first), then by
    notation (alphabetically), then by their squares, so the order is the same on every run;
    ``limit`` keeps only the first so many (``None``: all).

    ``lexicon`` must be a word list the generator can walk (``WordSet`` or a compiled list);
    an honour-system game has no list, and ``InputError`` says so.
    """
    return search(board, ruleset, options, lexicon, rack, limit=limit).moves


def search(
    board: Board,
    ruleset: Ruleset,
    options: RuleOptions,
    lexicon: Lexicon,
    rack: str,
    *,
    limit: int | None = None,
    budget: Budget | None = None,
) -> Found:
    """How many legal plays there are, and the best ``limit`` of them as ``generate`` gives
    them, within ``budget`` (``None``: no bound). Only the plays that can still be among the
    best ``limit`` are kept while the search runs, so ``limit`` bounds the memory and the
    confirming, and ``budget`` the search itself.

        >>> from referee.lexicon import WordSet
        >>> from referee.rulesets import UPWORDS_10
        >>> words = WordSet("T", ["MOOD", "DOOM"])
        >>> found = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM", limit=1)
        >>> found.count, found.moves[0].notation, found.complete
        (40, '5B DOOM', True)
        >>> cut = search(Board(10), UPWORDS_10, RuleOptions(), words, "DOOM", budget=Budget(5))
        >>> cut.count, len(cut.moves), cut.complete
        (5, 5, False)
    """
    tally = _Tally(None if limit is None else max(limit, 0), budget)
    complete = tally.run(board, ruleset, options, lexicon, rack)
    raw = tally.best()
    if not complete and limit is not None:
        raw = raw[:limit]  # ties at the cut of a search cut short are as good as any others
    grid = tally.grid
    assert grid is not None  # run() reads the board before it searches
    # Ordered as Play.notation and Play.placements would order them, without making a Play
    # for each of what may be many thousands of plays tied at the cut.
    ranked = sorted(
        (-score, grid.notation(tiles, ruleset), tuple(sorted(tiles))) for score, tiles in raw
    )
    if limit is not None:
        ranked = ranked[:limit]
    moves = []
    for negative, notation, tiles in ranked:
        play = Play(tuple(Placement(r, c, t) for r, c, t in tiles))
        evaluation = evaluate(board, play, ruleset, options, lexicon)
        if evaluation.score != -negative or notation != play.notation(board, ruleset):
            raise RuntimeError(
                f"move generator scored {notation} {-negative}, the rules "
                f"{play.notation(board, ruleset)} {evaluation.score}"
            )
        moves.append(Move(play, notation, evaluation.score, evaluation.words, evaluation.bonus))
    return Found(tally.found[0], moves, complete)


def raw_plays(
    board: Board,
    ruleset: Ruleset,
    options: RuleOptions,
    lexicon: Lexicon,
    rack: str,
    *,
    budget: Budget | None = None,
) -> list[RawPlay]:
    """Every legal play as ``(score, ((row, col, tile), ...))``, unsorted and unchecked (those
    found within ``budget``, if one is given).

    The fast part of ``generate``, for callers that only need scores (and for the benchmark).
    """
    tally = _Tally(None, budget)
    tally.run(board, ruleset, options, lexicon, rack)
    return tally.out


class _Spent(Exception):
    """The search's budget ran out."""


class _Tally:
    """The plays a search finds: counted, and kept while they can be among the best ``keep``
    (all of them when ``keep`` is None); the budget is checked every ``_CHECK_EVERY`` plays
    and at every anchor."""

    def __init__(self, keep: int | None, budget: Budget | None) -> None:
        self.keep = keep
        self.budget = budget
        self.out: list[RawPlay] = []
        self.found = [0]  # cells the walk's closures update in place
        # A play scoring less can't be among the best ``keep`` (none can when ``keep`` is 0).
        self.floor = [_NEVER if keep == 0 else 0]
        self.check_at = [min(_CHECK_EVERY, budget.plays) if budget else _CHECK_EVERY]
        self.deadline = time.monotonic() + budget.seconds if budget else 0.0
        self.grid: _Grid | None = None

    def run(
        self, board: Board, ruleset: Ruleset, options: RuleOptions, lexicon: Lexicon, rack: str
    ) -> bool:
        """Search every line; False when the budget ran out first."""
        if not isinstance(lexicon, Walkable):
            raise InputError(
                "no_word_list",
                "Finding plays needs a word list: this game has none (honour system).",
            )
        if board.size != ruleset.size:
            raise ValueError(f"a {board.size}×{board.size} board is not a {ruleset.name} board")
        dawg, gaddag = lexicon.dawg(), lexicon.gaddag()
        counts = _rack_counts(board, ruleset, rack)
        grid = self.grid = _Grid(board, ruleset)
        if not any(counts):
            return True
        try:
            for across in (True, False):
                _Direction(grid, ruleset, options, dawg, gaddag, counts, across, self).run()
        except _Spent:
            return False
        return True

    def check(self) -> None:
        """Called as plays are found: prune what can't be among the best, and stop the
        search when its budget is spent."""
        found = self.found[0]
        budget = self.budget
        step = min(_CHECK_EVERY, budget.plays - found) if budget else _CHECK_EVERY
        self.check_at[0] = found + max(step, 1)
        keep = self.keep
        if keep and len(self.out) > 2 * keep + _CHECK_EVERY:
            self.out.sort(key=lambda item: -item[0])
            floor = self.floor[0] = self.out[keep - 1][0]
            self.out[:] = [item for item in self.out if item[0] >= floor]  # ties stay
        if budget and (found >= budget.plays or time.monotonic() > self.deadline):
            raise _Spent

    def best(self) -> list[RawPlay]:
        """The plays kept, best first: at least the best ``keep``, with any tied at the cut."""
        self.out.sort(key=lambda item: -item[0])
        keep = self.keep
        if keep == 0:
            return []
        if keep is not None and len(self.out) > keep:
            cutoff = self.out[keep - 1][0]
            return [item for item in self.out if item[0] >= cutoff]
        return self.out


_CHECK_EVERY = 1024
_NEVER = 1 << 62


# The rack ---------------------------------------------------------------------------------------
def _rack_counts(board: Board, ruleset: Ruleset, rack: str) -> list[int]:
    """Tiles on the rack by code (0-25 letters, 26 Qu, 27 blank), capped by the tile set."""
    tiles = ruleset.read_tiles(rack.replace(BLANK, f" {BLANK} "))
    if len(tiles) > ruleset.rack_size:
        raise InputError(
            "rack_too_big",
            f"A rack holds at most {ruleset.rack_size} tiles; {rack!r} has {len(tiles)}.",
        )
    counts = [0] * 28
    on_board = board.tile_counts()  # blanks on the board count as "?"
    for tile in tiles:
        code = 27 if tile == BLANK else _code(tile)
        counts[code] += 1
    for code in range(28):
        tile = BLANK if code == 27 else _tile(code)
        # The board and the rack never hold more copies of a tile than the set has (§2.6).
        left = ruleset.tiles.get(tile, 0) - on_board[tile]
        if counts[code] and counts[code] > left:
            shown = ruleset.display(tile)
            have = ruleset.tiles.get(tile, 0)
            raise InputError(
                "rack_tile_used_up",
                f"The set has {have} {shown}; {on_board[tile]} on the board and {counts[code]} "
                f"on the rack is more than that: check the rack and the board.",
            )
    return counts


def _code(tile: str) -> int:
    return QU_CODE if tile == QU else ord(tile.upper()) - 65


def _tile(code: int) -> str:
    return QU if code == QU_CODE else chr(65 + code)


# The board, read once --------------------------------------------------------------------------
class _Grid:
    """Top tiles, heights and letter values of every square, as flat lists."""

    def __init__(self, board: Board, ruleset: Ruleset) -> None:
        n = self.size = board.size
        self.tops: list[str | None] = [board.top(r, c) for r in range(n) for c in range(n)]
        self.heights = [board.height(r, c) for r in range(n) for c in range(n)]
        # A blank (lowercase) is worth nothing; so is every tile in stacked scoring.
        self.values = [ruleset.tile_value(t) if t else 0 for t in self.tops]
        self.empty = board.is_empty

    def notation(self, tiles: tuple[tuple[int, int, str], ...], ruleset: Ruleset) -> str:
        """``Play.notation`` of a play the walk found (always one line), from its raw tiles:
        the same text, at a fraction of the cost."""
        n, tops = self.size, self.tops
        new = {(r, c): t for r, c, t in tiles}
        (r0, c0, _), (r1, _, _) = min(tiles), max(tiles)

        def occupied(r: int, c: int) -> bool:
            return 0 <= r < n and 0 <= c < n and tops[r * n + c] is not None

        if len(tiles) == 1:
            across = occupied(r0, c0 - 1) or occupied(r0, c0 + 1)
            across = across or not (occupied(r0 - 1, c0) or occupied(r0 + 1, c0))
        else:
            across = r0 == r1
        dr, dc = (0, 1) if across else (1, 0)
        r, c = r0, c0
        while (r - dr, c - dc) in new or occupied(r - dr, c - dc):
            r, c = r - dr, c - dc
        position = f"{r + 1}{chr(65 + c)}" if across else f"{chr(65 + c)}{r + 1}"
        letters = []
        while (r, c) in new or occupied(r, c):
            tile = new.get((r, c))
            letters.append("." if tile is None else ruleset.display(tile))
            r, c = r + dr, c + dc
        return f"{position} {''.join(letters)}"


class _Direction:
    """Plays along every row (across) or every column (down)."""

    def __init__(
        self,
        grid: _Grid,
        ruleset: Ruleset,
        options: RuleOptions,
        dawg: Dawg,
        gaddag: Dawg,
        counts: list[int],
        across: bool,
        tally: _Tally,
    ) -> None:
        self.grid = grid
        self.ruleset = ruleset
        self.dawg = dawg
        self.gaddag = gaddag
        self.counts = counts
        self.across = across
        self.tally = tally
        self.premium = ruleset.scoring == "premium"
        self.stacks = ruleset.stacks
        self.plural_s = ruleset.plural_s and options.plural_s_rule

    def run(self) -> None:
        n = self.grid.size
        for line in range(n):
            squares = [(line, i) if self.across else (i, line) for i in range(n)]
            self._line(squares)

    # Cross-checks ------------------------------------------------------------------------------
    def _cross(self, row: int, col: int) -> tuple[bool, int, int, int, int, bool]:
        """(has cross-word, allowed codes, then the other squares' score parts).

        The parts are: premium — sum of letter values, 0, 0; stacked — sum of heights,
        highest stack, number of squares; and whether they hold the Qu tile.
        """
        grid, n = self.grid, self.grid.size
        dr, dc = (1, 0) if self.across else (0, 1)
        before: list[int] = []
        r, c = row - dr, col - dc
        while r >= 0 and c >= 0 and grid.tops[r * n + c]:
            before.append(r * n + c)
            r, c = r - dr, c - dc
        before.reverse()
        after: list[int] = []
        r, c = row + dr, col + dc
        while r < n and c < n and grid.tops[r * n + c]:
            after.append(r * n + c)
            r, c = r + dr, c + dc
        if not before and not after:
            return False, ANY, 0, 0, 0, False
        others = before + after
        tops = [grid.tops[i] or "" for i in others]
        if self.premium:
            parts = (sum(grid.values[i] for i in others), 0, 0)
        else:
            heights = [grid.heights[i] for i in others]
            parts = (sum(heights), max(heights), len(others))
        dawg = self.dawg
        state = dawg.walk("".join(t.upper() for t in tops[: len(before)]))
        allowed = 0
        if state >= 0:
            tail = "".join(t.upper() for t in tops[len(before) :])
            mask = dawg.masks[state]
            for k in range(26):
                if mask >> k & 1 and dawg.is_word(dawg.walk(tail, dawg.child(state, k))):
                    allowed |= 1 << k
            if self.ruleset.has_qu:
                q = dawg.child(state, _Q)
                qu = dawg.child(q, _U) if q >= 0 else -1
                if qu >= 0 and dawg.is_word(dawg.walk(tail, qu)):
                    allowed |= 1 << QU_CODE
        return True, allowed, *parts, QU in tops

    # One line ------------------------------------------------------------------------------------
    def _line(self, squares: list[tuple[int, int]]) -> None:  # noqa: C901 - one walk, kept whole
        grid, ruleset = self.grid, self.ruleset
        n = grid.size
        index = [r * n + c for r, c in squares]
        tops = [grid.tops[i] for i in index]
        if not grid.empty and not any(tops) and not self._has_neighbours(squares):
            return
        heights = [grid.heights[i] for i in index]
        values = [grid.values[i] for i in index]
        # Letters read through each occupied square ("QU" reads two); the code a new tile on
        # it may not repeat (stacking A on A is out).
        reads = [tuple(ord(ch) - 65 for ch in t.upper()) if t else () for t in tops]
        same = [(1 << _code(t)) if t and not t.islower() else 0 for t in tops]
        can_place = [
            not t or (self.stacks and heights[i] < ruleset.max_height) for i, t in enumerate(tops)
        ]
        cross = [
            self._cross(r, c) if can_place[i] else _NO_CROSS for i, (r, c) in enumerate(squares)
        ]
        # Every play covers an anchor: a start square for the first play, later a tile on the
        # board or an empty square beside one across the line. A play is grown from the first
        # anchor it covers, so it is found once.
        if grid.empty:
            anchor = [sq in ruleset.start_squares for sq in squares]
        else:
            anchor = [bool(t) or x[0] for t, x in zip(tops, cross, strict=True)]
        # Occupied runs along the line: how long each is (the rule against covering a word).
        run_len = [0] * n
        i = 0
        while i < n:
            j = i
            while j < n and tops[j]:
                j += 1
            for k in range(i, j):
                run_len[k] = j - i
            i = max(j, i + 1)
        ends_run = [bool(tops[i]) and (i + 1 == n or not tops[i + 1]) for i in range(n)]
        premium = self.premium
        if premium:
            marks = [ruleset.layout[r][c] for r, c in squares]
            letter_mult = [LETTER_MULTIPLIER.get(m, 1) for m in marks]
            word_mult = [WORD_MULTIPLIER.get(m, 1) for m in marks]
            tile_values = [ruleset.values.get(_tile(k), 0) for k in range(27)] + [0] * 26
        else:
            letter_mult = word_mult = [1] * n
            tile_values = [0] * 53

        counts = self.counts
        gaddag = self.gaddag
        masks, firsts, children = gaddag.masks, gaddag.firsts, gaddag.children
        tally = self.tally
        out, found, floor, check_at = tally.out, tally.found, tally.floor, tally.check_at
        plural_s, across = self.plural_s, self.across
        bingo_tiles, bingo_bonus = ruleset.bingo_tiles, ruleset.bingo_bonus
        placed: list[tuple[int, int, str]] = []  # (row, col, tile), in the order placed
        in_rack = [sum(1 << k for k in range(26) if counts[k])]
        # Letters the rack's tiles can still put down, blanks aside (the Qu tile: Q or U).
        usable = [in_rack[0] | (_QU_BITS if counts[QU_CODE] else 0)]
        tiles_left = [sum(counts)]
        # Set for each anchor and each left end the walk tries.
        where = [0, 0, 0]  # the anchor, the leftmost square the left part may use, word start

        # What a square's cross-check allows, as letters the automaton can step on (the Qu tile
        # as its Q, or its U when read leftwards): a quick test before trying the rack's tiles.
        hints = [x[1] & _LETTERS | (_QU_BITS if x[1] >> QU_CODE & 1 else 0) for x in cross]

        def step(state: int, k: int) -> int:
            mask = masks[state]
            if not mask >> k & 1:
                return -1
            return int(children[firsts[state] + (mask & ((1 << k) - 1)).bit_count()])

        def finish(end: int, msum: int, mflag: int, xsum: int) -> None:
            start = where[2]
            if len(placed) == 1:
                row, col, tile = placed[0]
                i = col if across else row
                has_cross = cross[i][0]
                if not across and has_cross:
                    return  # the across pass has it
                if (
                    plural_s
                    and tile == "S"
                    and not tops[i]
                    and not has_cross
                    and i == end - 1
                    and end - start >= 3
                ):
                    return  # you can't simply add an S
            if premium:
                score = msum * mflag + xsum
            elif mflag & 1:
                score = msum + xsum
            else:
                score = 2 * (end - start) + (2 if mflag & 2 else 0) + xsum
            if len(placed) == bingo_tiles:
                score += bingo_bonus
            if score >= floor[0]:
                out.append((score, tuple(placed)))
            found[0] += 1
            if found[0] >= check_at[0]:
                tally.check()

        def place(
            i: int,
            state: int,
            leftwards: bool,
            msum: int,
            mflag: int,
            xsum: int,
            stacked: int,
            mode: int,
        ) -> None:
            """Each rack tile that may go on square i, then on from there: ``mode`` 0 at the
            anchor, 1 leftwards, 2 rightwards."""
            has_cross, allowed, xa, xb, xc, xqu = cross[i]
            top = tops[i]
            if top:
                allowed &= ~same[i]
                stacked += 1
                if stacked == run_len[i] >= 2 and ends_run[i]:
                    return  # this would cover every letter of a word on the board
            mask = masks[state]
            first = firsts[state]
            row, col = squares[i]
            h = heights[i] + 1
            lm, wm = letter_mult[i], word_mult[i]
            # Where the word must end on this square, only a word's last letter will do, and
            # it is recorded here without a call.
            leaf = mode == 2 and (i + 1 == n or (not tops[i + 1] and tiles_left[0] == 1))
            real = mask & allowed & in_rack[0]
            if counts[QU_CODE] and allowed >> QU_CODE & 1:
                real |= 1 << QU_CODE
            while real:
                low = real & -real
                real ^= low
                k = low.bit_length() - 1
                if k == QU_CODE:
                    one, two = (_U, _Q) if leftwards else (_Q, _U)
                    nxt = step(state, one)
                    if nxt < 0:
                        continue
                    nxt = step(nxt, two)
                    if nxt < 0:
                        continue
                else:
                    nxt = int(children[first + (mask & (low - 1)).bit_count()])
                if leaf and not masks[nxt] & TERMINAL:
                    continue
                if premium:
                    value = tile_values[k] * lm
                    new_x = xsum + (xa + value) * wm if has_cross else xsum
                    new_m = msum + value
                    new_f = mflag * wm
                else:
                    new_m = msum + h
                    new_f = mflag | (h > 1) | (2 if k == QU_CODE else 0)
                    if not has_cross:
                        new_x = xsum
                    elif h > 1 or xb > 1:
                        new_x = xsum + xa + h
                    else:
                        new_x = xsum + 2 * (xc + 1) + (2 if xqu or k == QU_CODE else 0)
                placed.append((row, col, _TILES[k]))
                if leaf:
                    finish(i + 1, new_m, new_f, new_x)
                    placed.pop()
                    continue
                counts[k] -= 1
                tiles_left[0] -= 1
                if not counts[k]:
                    if k < 26:
                        in_rack[0] ^= low
                    usable[0] = in_rack[0] | (_QU_BITS if counts[QU_CODE] else 0)
                if mode == 2:
                    after_right(i, nxt, new_m, new_f, new_x, stacked)
                elif mode == 1:
                    after_left(i, nxt, new_m, new_f, new_x, anchor_stacked[0])
                else:
                    anchor_stacked[0] = stacked
                    after_left(i, nxt, new_m, new_f, new_x, stacked)
                placed.pop()
                counts[k] += 1
                tiles_left[0] += 1
                if counts[k] == 1:
                    if k < 26:
                        in_rack[0] ^= low
                    usable[0] = in_rack[0] | (_QU_BITS if counts[QU_CODE] else 0)
            if not counts[27]:
                return
            # A blank: every letter the automaton and the cross-check allow, each worth 0,
            # so the scores are the same whichever letter it is.
            if premium:
                new_x = xsum + xa * wm if has_cross else xsum
                new_m, new_f = msum, mflag * wm
            else:
                new_m, new_f = msum + h, mflag | (h > 1)
                if not has_cross:
                    new_x = xsum
                elif h > 1 or xb > 1:
                    new_x = xsum + xa + h
                else:
                    new_x = xsum + 2 * (xc + 1) + (2 if xqu else 0)
            blanks = mask & allowed & _LETTERS
            if not leaf:
                counts[27] -= 1
                tiles_left[0] -= 1
            while blanks:
                low = blanks & -blanks
                blanks ^= low
                k = low.bit_length() - 1
                tile = _BLANKS[k]
                if top == tile:
                    continue
                nxt = int(children[first + (mask & (low - 1)).bit_count()])
                if leaf:
                    if masks[nxt] & TERMINAL:
                        placed.append((row, col, tile))
                        finish(i + 1, new_m, new_f, new_x)
                        placed.pop()
                    continue
                placed.append((row, col, tile))
                if mode == 2:
                    after_right(i, nxt, new_m, new_f, new_x, stacked)
                elif mode == 1:
                    after_left(i, nxt, new_m, new_f, new_x, anchor_stacked[0])
                else:
                    anchor_stacked[0] = stacked
                    after_left(i, nxt, new_m, new_f, new_x, stacked)
                placed.pop()
            if not leaf:
                counts[27] += 1
                tiles_left[0] += 1

        def read(i: int, state: int, leftwards: bool) -> int:
            for k in reversed(reads[i]) if leftwards else reads[i]:
                state = step(state, k)
                if state < 0:
                    return -1
            return state

        def read_score(i: int, msum: int, mflag: int) -> tuple[int, int]:
            if premium:
                return msum + values[i], mflag
            h = heights[i]
            return msum + h, mflag | (h > 1) | (2 if reads[i] == (_Q, _U) else 0)

        def after_left(i: int, state: int, msum: int, mflag: int, xsum: int, stacked: int) -> None:
            # Squares i..anchor are read, right to left.
            a = where[0]
            if i == 0 or not tops[i - 1]:
                # The word may start on square i.
                where[2] = i
                if (
                    placed
                    and a - i >= 1
                    and masks[state] & TERMINAL
                    and (a + 1 == n or not tops[a + 1])
                ):
                    finish(a + 1, msum, mflag, xsum)
                mask = masks[state]
                if a + 1 < n and mask >> SEPARATOR & 1:
                    turn = int(children[firsts[state] + (mask & _BEFORE_SEPARATOR).bit_count()])
                    after_right(a, turn, msum, mflag, xsum, stacked)
            if i - 1 >= where[1] and masks[state] & (_LETTERS if counts[27] else usable[0]):
                place(i - 1, state, True, msum, mflag, xsum, 0, 1)

        anchor_stacked = [0]  # stacked squares of the anchor's run, for the right part

        def after_right(i: int, state: int, msum: int, mflag: int, xsum: int, stacked: int) -> None:
            # Squares up to i are read, left to right; i + 1 is next.
            j = i + 1
            top = tops[j] if j < n else None
            mask = masks[state]
            if not top:
                if placed and mask & TERMINAL:
                    finish(j, msum, mflag, xsum)
                if j < n and mask & hints[j] & (_LETTERS if counts[27] else usable[0]):
                    place(j, state, False, msum, mflag, xsum, 0, 2)
                return
            run = stacked if tops[i] else 0
            letters = reads[j]
            if len(letters) == 1:  # one letter (all but the Qu tile): stepped here
                k = letters[0]
                if mask >> k & 1:
                    nxt = int(children[firsts[state] + (mask & ((1 << k) - 1)).bit_count()])
                    if premium:
                        after_right(j, nxt, msum + values[j], mflag, xsum, run)
                    else:
                        m, f = read_score(j, msum, mflag)
                        after_right(j, nxt, m, f, xsum, run)
            else:
                nxt = read(j, state, False)
                if nxt >= 0:
                    m, f = read_score(j, msum, mflag)
                    after_right(j, nxt, m, f, xsum, run)
            if can_place[j] and mask & hints[j] & (_LETTERS if counts[27] else usable[0]):
                place(j, state, False, msum, mflag, xsum, run, 2)

        root = gaddag.root
        start_mflag = 1 if premium else 0
        for a in range(n):
            if not anchor[a] or (a and tops[a - 1]):
                continue  # not an anchor, or not the first one of the plays through it
            tally.check()
            b = a
            while b > 0 and not tops[b - 1] and not anchor[b - 1]:
                b -= 1
            where[0], where[1] = a, b
            if tops[a]:
                state = read(a, root, True)
                if state >= 0:
                    m, f = read_score(a, 0, start_mflag)
                    anchor_stacked[0] = 0
                    after_left(a, state, m, f, 0, 0)
                if can_place[a] and tiles_left[0]:
                    place(a, root, True, 0, start_mflag, 0, 0, 0)
            elif tiles_left[0]:
                place(a, root, True, 0, start_mflag, 0, 0, 0)

    def _has_neighbours(self, squares: list[tuple[int, int]]) -> bool:
        grid, n = self.grid, self.grid.size
        for r, c in squares:
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n and grid.tops[rr * n + cc]:
                    return True
        return False


_NO_CROSS = (False, 0, 0, 0, 0, False)
_LETTERS = (1 << 26) - 1
_BEFORE_SEPARATOR = (1 << SEPARATOR) - 1
_QU_BITS = 1 << _Q | 1 << _U
_TILES = [_tile(k) for k in range(27)]
_BLANKS = [chr(97 + k) for k in range(26)]
