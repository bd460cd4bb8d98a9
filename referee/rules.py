"""Checking and scoring one play (RULES.md §2–§4).

Validation comes in layers, as a referee would think: is it a move at all (input), where the
tiles lie and what they stand on (geometry and stacking), the words it forms (main word
first, then cross-words), and finally the dictionary. Every broken rule of the first layer
that fails is reported, each as a ``Violation`` with its code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee.board import Board, Square, check_on_board, square_name
from referee.errors import IllegalPlay, InputError, Violation, stacked_on_itself
from referee.play import Play
from referee.rulesets import (
    BLANK,
    LETTER_MULTIPLIER,
    QU,
    WORD_MULTIPLIER,
    RuleOptions,
    Ruleset,
    tile_in_set,
)

if TYPE_CHECKING:
    from referee.lexicon import Lexicon

DEFAULT_OPTIONS = RuleOptions()


@dataclass(frozen=True)
class ScoredWord:
    """A word the play formed, read from the top tiles, with its score explained."""

    word: str  # letters as read, uppercase: the Qu tile gives "QU", a blank its letter
    squares: tuple[Square, ...]
    across: bool
    score: int
    # e.g. "2+1+1+1 = 5" or "H 4×2 + O 1 + U 1 + S 1 + E 1 = 12, ×2 = 24"; a blank is written
    # lowercase ("e 0").
    breakdown: str

    @property
    def position(self) -> str:
        """Where the word starts, GCG style: ``5D`` across, ``D5`` down."""
        row, col = self.squares[0]
        return f"{row + 1}{chr(ord('A') + col)}" if self.across else square_name(row, col)

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "score": self.score,
            "position": self.position,
            "direction": "across" if self.across else "down",
            "breakdown": self.breakdown,
        }


@dataclass(frozen=True)
class Evaluation:
    """A legal play with its words (main word first) and score."""

    play: Play
    words: tuple[ScoredWord, ...]
    bonus: int
    score: int

    @property
    def breakdown(self) -> str:
        parts = [f"{w.word} {w.score}" for w in self.words]
        if self.bonus:
            parts.append(f"all-tiles bonus {self.bonus}")
        return " + ".join(parts) + f" = {self.score}"


def evaluate(
    board: Board,
    play: Play,
    ruleset: Ruleset,
    options: RuleOptions = DEFAULT_OPTIONS,
    lexicon: Lexicon | None = None,
) -> Evaluation:
    """Check ``play`` on ``board`` and score it; ``board`` is left unchanged.

    Raises ``InputError`` when the play is not a move at all and ``IllegalPlay`` listing the
    broken rules otherwise. With ``lexicon=None`` no word is looked up (honour system, or a
    tournament-style game where words stand until challenged).
    """
    _check_input(board, play, ruleset)
    new = {(p.row, p.col): p.tile for p in play.placements}
    violations = _geometry(board, new, ruleset) + _stacking(board, new, ruleset)
    if len(new) < len(play.placements):
        doubled = sorted({sq for sq in play.squares if play.squares.count(sq) > 1})
        violations.insert(
            0,
            Violation(
                "one_tile_per_square",
                f"Only one new tile may go on a square in one turn ({_list(doubled)}).",
                _names(doubled),
            ),
        )
    if violations:
        raise IllegalPlay(violations)
    words = _form_words(board, new, ruleset)
    violations = _word_rules(board, new, words, ruleset, options)
    if violations:
        raise IllegalPlay(violations)
    if lexicon is not None:
        bad = [w for w in words if not lexicon.contains(w.word)]
        if bad:
            raise IllegalPlay(
                Violation(
                    "invalid_word",
                    f"{w.word} is not in {lexicon.id}.",
                    tuple(square_name(*sq) for sq in w.squares),
                    (w.word,),
                )
                for w in bad
            )
    bonus = ruleset.bingo_bonus if len(new) == ruleset.bingo_tiles else 0
    return Evaluation(play, words, bonus, sum(w.score for w in words) + bonus)


# Layer 0: is it a move at all? ---------------------------------------------------------------
def _check_input(board: Board, play: Play, ruleset: Ruleset) -> None:
    if board.size != ruleset.size:
        raise ValueError(f"a {board.size}×{board.size} board is not a {ruleset.name} board")
    if not play.placements:
        raise InputError("no_tiles", "A play needs at least one tile.")
    for p in play.placements:
        check_on_board(p.row, p.col, ruleset.size)
        if ruleset.tile(p.tile) != p.tile:  # tile() explains a tile the set doesn't have
            raise InputError("unknown_tile", f"{p.tile!r} is not a tile in {ruleset.name}.")
    # A blank ("e") counts against the set's blanks ("?"), whatever letter it stands for.
    for tile, wanted in Counter(tile_in_set(p.tile) for p in play.placements).items():
        have, down = ruleset.tiles[tile], board.count(tile)
        if down + wanted > have:
            shown = "blank" if tile == BLANK else f"{ruleset.display(tile)} tile"
            raise InputError(
                "too_many_copies",
                f"The set has only {have} {shown}{'s' if have > 1 else ''} "
                f"and {down} {'are' if down != 1 else 'is'} "
                f"already on the board: check the letter you entered.",
            )


# Layer 1: where the tiles lie and what they stand on -----------------------------------------
def _geometry(board: Board, new: dict[Square, str], ruleset: Ruleset) -> list[Violation]:
    violations = []
    rows = {r for r, _ in new}
    cols = {c for _, c in new}
    if len(rows) > 1 and len(cols) > 1:
        violations.append(
            Violation(
                "not_in_line",
                "All the new tiles must lie in one row or one column.",
                _names(new),
            )
        )
    elif len(new) > 1:
        (r0, c0), (r1, c1) = min(new), max(new)
        gaps = [
            (r, c)
            for r in range(r0, r1 + 1)
            for c in range(c0, c1 + 1)
            if (r, c) not in new and not board.stack(r, c)
        ]
        if gaps:
            violations.append(
                Violation(
                    "gap",
                    f"There is an empty square between your tiles at {_list(gaps)}.",
                    _names(gaps),
                )
            )
    if board.is_empty:
        if not ruleset.start_squares & new.keys():
            starts = _list(sorted(ruleset.start_squares), "or")
            one = len(ruleset.start_squares) == 1
            violations.append(
                Violation(
                    "first_play_off_start",
                    f"The first play must cover {'the centre square' if one else 'one of the centre squares'} {starts}.",  # noqa: E501
                    _names(new),
                )
            )
    elif not any(
        board.stack(r, c)
        or board.occupied(r - 1, c)
        or board.occupied(r + 1, c)
        or board.occupied(r, c - 1)
        or board.occupied(r, c + 1)
        for r, c in new
    ):
        on_one = " or be stacked on one" if ruleset.stacks else ""
        violations.append(
            Violation(
                "not_connected",
                f"Your tiles must touch a tile already on the board{on_one}.",
                _names(new),
            )
        )
    return violations


def _stacking(board: Board, new: dict[Square, str], ruleset: Ruleset) -> list[Violation]:
    violations = []
    stacked = []
    for (r, c), tile in sorted(new.items()):
        stack = board.stack(r, c)
        if not stack:
            continue
        name = square_name(r, c)
        if not ruleset.stacks:
            violations.append(
                Violation(
                    "square_occupied",
                    f"{name} already has a tile, and {ruleset.name} tiles can't be stacked.",
                    (name,),
                )
            )
            continue
        stacked.append((r, c))
        if stack[-1] == tile:
            shown = ruleset.display(tile)
            violations.append(stacked_on_itself(shown, name))
        if len(stack) >= ruleset.max_height:
            violations.append(
                Violation(
                    "stack_too_high",
                    f"The stack at {name} already has {len(stack)} tiles: "
                    f"no stack may be higher than {ruleset.max_height}.",
                    (name,),
                )
            )
    # No covering a whole word: every word on the board before the play keeps a square.
    seen = set()
    for r, c in stacked:
        for dr, dc in ((0, 1), (1, 0)):
            run = _run(board, r, c, dr, dc)
            if len(run) >= 2 and run[0] + (dr,) not in seen and all(sq in new for sq in run):
                seen.add(run[0] + (dr,))
                word = "".join(board.top(*sq) or "" for sq in run)
                violations.append(
                    Violation(
                        "covers_whole_word",
                        f"You can't cover every letter of {word}: "
                        "at least one of its tiles must stay as it was.",
                        _names(run),
                        (word,),
                    )
                )
    return violations


# Layer 2: the words the play forms ---------------------------------------------------------
def _form_words(board: Board, new: dict[Square, str], ruleset: Ruleset) -> tuple[ScoredWord, ...]:
    """The main word along the play's line, then a cross-word through each new tile."""
    squares = sorted(new)
    if len(squares) == 1:
        directions = [(0, 1), (1, 0)]  # one tile: read both ways
        anchors = [squares[0], squares[0]]
    else:
        across = squares[0][0] == squares[-1][0]
        main = (0, 1) if across else (1, 0)
        cross = (1, 0) if across else (0, 1)
        directions = [main] + [cross] * len(squares)
        anchors = [squares[0], *squares]
    words = []
    for (r, c), (dr, dc) in zip(anchors, directions, strict=True):
        run = _run_after(board, new, r, c, dr, dc)
        if len(run) >= 2:
            words.append(_score(board, new, run, dr == 0, ruleset))
    return tuple(words)


def _word_rules(
    board: Board,
    new: dict[Square, str],
    words: tuple[ScoredWord, ...],
    ruleset: Ruleset,
    options: RuleOptions,
) -> list[Violation]:
    if not words:
        code = "first_play_too_short" if board.is_empty else "no_word"
        return [
            Violation(
                code,
                "The first play must form a word of at least two letters."
                if board.is_empty
                else "The play must form a word of at least two letters.",
                _names(new),
            )
        ]
    if ruleset.plural_s and options.plural_s_rule and len(new) == 1:
        (((r, c), tile),) = new.items()
        if tile == "S" and not board.stack(r, c) and len(words) == 1:
            # The only word formed: is it an existing word plus this S at its end?
            word = words[0]
            if word.squares[-1] == (r, c) and len(word.squares) >= 3:
                before = word.word[:-1]
                return [
                    Violation(
                        "plural_s",
                        f"You can't simply add an S to the end of {before}: "
                        "the S must also make another word.",
                        (square_name(r, c),),
                        (word.word,),
                    )
                ]
    return []


def _score(
    board: Board, new: dict[Square, str], run: list[Square], across: bool, ruleset: Ruleset
) -> ScoredWord:
    tops = [new.get(sq) or board.top(*sq) or "" for sq in run]
    word = "".join(tops).upper()  # a blank ("e") reads as its letter
    if ruleset.scoring == "stacked":
        heights = [board.height(*sq) + (sq in new) for sq in run]
        if max(heights) == 1:
            qu = 2 if QU in tops else 0
            score = 2 * len(run) + qu
            breakdown = f"{len(run)} tiles × 2" + (" + 2 for Qu" if qu else "") + f" = {score}"
        else:
            score = sum(heights)
            breakdown = "+".join(map(str, heights)) + f" = {score}"
    else:
        layout = ruleset.layout
        total = 0
        multiplier = 1
        parts = []
        for sq, tile in zip(run, tops, strict=True):
            value = ruleset.tile_value(tile)  # 0 for a blank, whatever the square
            mark = layout[sq[0]][sq[1]] if sq in new else "."
            letter_mult = LETTER_MULTIPLIER.get(mark, 1)
            multiplier *= WORD_MULTIPLIER.get(mark, 1)
            total += value * letter_mult
            parts.append(f"{tile} {value}" + (f"×{letter_mult}" if letter_mult > 1 else ""))
        score = total * multiplier
        breakdown = " + ".join(parts) + f" = {total}"
        if multiplier > 1:
            breakdown += f", ×{multiplier} = {score}"
    return ScoredWord(word, tuple(run), across, score, breakdown)


# Helpers ---------------------------------------------------------------------------------------
def _run(board: Board, r: int, c: int, dr: int, dc: int) -> list[Square]:
    """The maximal run of occupied squares through (r, c) on the board as it is."""
    while board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    run = []
    while board.occupied(r, c):
        run.append((r, c))
        r, c = r + dr, c + dc
    return run


def _run_after(
    board: Board, new: dict[Square, str], r: int, c: int, dr: int, dc: int
) -> list[Square]:
    """The maximal run through (r, c) once the new tiles are down."""
    while (r - dr, c - dc) in new or board.occupied(r - dr, c - dc):
        r, c = r - dr, c - dc
    run = []
    while (r, c) in new or board.occupied(r, c):
        run.append((r, c))
        r, c = r + dr, c + dc
    return run


def _names(squares: Iterable[Square]) -> tuple[str, ...]:
    return tuple(square_name(r, c) for r, c in sorted(squares))


def _list(squares: list[Square], conjunction: str = "and") -> str:
    names = [square_name(r, c) for r, c in squares]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {conjunction} " + names[-1]
