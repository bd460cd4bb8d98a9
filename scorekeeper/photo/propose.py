"""Which legal play a photo shows: the reading of the board held against the game.

The game knows what no photo reader does: the board before the play, the rack's size, the
tile set and the word list. So a photo need not be read perfectly, only well enough to pick
the play it agrees with most. The squares that read differently from the board before (a
new tile, or in Upwords a new letter on a stack) give the letters of a rack; the move
generator finds the legal plays of that rack, and of a few racks with a doubtful letter read
its second way (or as a blank); and each play is ranked by how likely the photo is if that
play was made: for each square it covers, the reader's chance of the tile played against its
chance of what was there before.

Plain Python (no Django): the API and the scorer's page call ``propose``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from referee import (
    BLANK,
    Board,
    Budget,
    Lexicon,
    Placement,
    Play,
    RefereeError,
    RuleOptions,
    Ruleset,
    evaluate,
    is_blank,
    raw_plays,
    square_name,
)
from scorekeeper.photo.reader import Reading
from scorekeeper.photo.squares import CLASSES, TURNED, Floats

QU = "QU"  # the Upwords Qu tile, as referee.rulesets names it
EMPTY = 0
ALTERNATIVES = 3  # racks with a doubtful square read its second way
DRAWN_BLANK = 0.05  # how much less likely a blank reading as a letter is than that letter
FLOOR = 1e-4  # no reading is taken as certain: a chance of 0 would rule a play out for good


@dataclass(frozen=True)
class Proposal:
    """One legal play and how well the photo agrees with it."""

    notation: str
    score: int
    tiles: list[tuple[int, int, str]]
    agreement: float  # the share of squares that read as the board after this play
    likelihood: float  # log-chance of the photo's squares the play covers, against before


@dataclass(frozen=True)
class Proposals:
    plays: list[Proposal]
    changed: list[str] = field(default_factory=list)  # squares read as changed, by name
    unread: list[str] = field(default_factory=list)  # squares the best play disagrees with
    complete: bool = True
    reading: Reading | None = None  # the photo's reading, the way up the board was found to lie


def _class_of(tile: str) -> int:
    if tile == BLANK or is_blank(tile):
        return CLASSES.index("?")
    return CLASSES.index(QU[0] if tile == QU else tile[0].upper())


def _chance(chances: Floats, row: int, col: int, tile: str | None) -> float:
    """The reader's chance that the square shows ``tile`` (None: empty). A blank is read as
    a blank or as the letter drawn on it, whichever is likelier."""
    square = chances[row, col]
    if tile is None:
        return max(float(square[EMPTY]), FLOOR)
    found = float(square[_class_of(tile)])
    if is_blank(tile):
        # A blank with its letter drawn on reads as that letter, but is rarer than the letter.
        found = max(found, DRAWN_BLANK * float(square[CLASSES.index(tile.upper())]))
    return max(found, FLOOR)


def _before(board: Board, row: int, col: int) -> str | None:
    return board.top(row, col)


def _orientation(reading: Reading, board: Board) -> Reading:
    """The way up the board lies: the quarter turn whose reading agrees best with the tiles
    already on the board (the reader's own choice when the board was empty)."""
    if board.is_empty or len(reading.turns) < 4:
        return reading
    best, chosen = -math.inf, reading.turn
    # The reader's own choice first: it wins a tie (tiles that read the same any way round).
    for turn in sorted(range(4), key=lambda turn: turn != reading.turn):
        chances = reading.turns[turn]
        total = sum(
            math.log(_chance(chances, r, c, _before(board, r, c)))
            for r, c, stack in board.squares()
            if stack
        )
        if total > best:
            best, chosen = total, turn
    return reading.turned(chosen)


def _changed(chances: Floats, board: Board) -> list[tuple[int, int]]:
    """Squares that read as something other than what they held, likeliest first. A tile
    whose letter reads doubtfully but still likeliest is unchanged: taken for a tile of the
    play, it would spend one of the set's letters twice, and no rack with it would be legal."""
    out: list[tuple[float, int, int]] = []
    for r in range(board.size):
        for c in range(board.size):
            before = _before(board, r, c)
            now = _chance(chances, r, c, before)
            if now < 0.5 and not _agrees(chances, r, c, before):
                out.append((now, r, c))
    return [(r, c) for _, r, c in sorted(out)]


def _racks(chances: Floats, squares: list[tuple[int, int]], ruleset: Ruleset) -> list[str]:
    """The rack the changed squares spell, and a few with a doubtful letter read otherwise."""
    reads: list[tuple[float, str, str]] = []  # (sureness, best letter, second letter)
    for r, c in squares:
        order = np.argsort(-chances[r, c, 1:TURNED]) + 1  # the letters and blank, likeliest first
        first, second = CLASSES[int(order[0])], CLASSES[int(order[1])]
        reads.append((float(chances[r, c, order[0]]), first, second))
    # A rack holds so many tiles: the surest squares are kept.
    kept = sorted(reads, reverse=True)[: ruleset.rack_size]

    def spell(letters: list[str]) -> str:
        return "".join(letters)

    base = [first for _, first, _ in kept]
    racks = [spell(base)]
    doubtful = sorted(range(len(kept)), key=lambda i: kept[i][0])[:ALTERNATIVES]
    for i in doubtful:
        if kept[i][0] < 0.9:
            racks.append(spell(base[:i] + [kept[i][2]] + base[i + 1 :]))
            if ruleset.tiles.get(BLANK):
                racks.append(spell(base[:i] + [BLANK] + base[i + 1 :]))
    return list(dict.fromkeys(racks))


def propose(
    reading: Reading,
    board: Board,
    ruleset: Ruleset,
    options: RuleOptions,
    lexicon: Lexicon,
    *,
    limit: int = 5,
    budget: Budget | None = None,
) -> Proposals:
    """The legal plays from ``board`` that the photo may show, likeliest first. On an empty
    board nothing says which way up it lies: each quarter turn's reading is tried, its tiles
    read as laid facing that turn's way up (a first play's are laid by one player)."""
    shown_reading = reading
    if board.is_empty and len(reading.turns) == 4:
        # The reader's own choice first: it stands when no turn shows a play.
        order = [reading.turn] + [t for t in range(4) if t != reading.turn]
        readings = [reading.turned(turn).facing_one_way() for turn in order]
    else:
        readings = [_orientation(reading, board)]
    best: tuple[float, Reading, _Candidates] | None = None
    # The budget's time is for all the searches together, every rack and every turn.
    deadline = None if budget is None else time.monotonic() + budget.seconds
    for candidate in readings:
        found = _candidates(candidate.chances, board, ruleset, options, lexicon, budget, deadline)
        top = max((x for x in found.seen.values() if x > 0), default=-math.inf)
        if best is None or top > best[0]:
            best = (top, candidate, found)
    assert best is not None
    _, reading, found = best
    chances, seen, complete = reading.chances, found.seen, found.complete
    names = [square_name(r, c) for r, c in sorted(found.changed)]
    # A play the photo finds less likely than nothing played on its squares is no proposal.
    ranked = sorted((x for x in seen.items() if x[1] > 0), key=lambda item: -item[1])[:limit]
    proposals = []
    shown: set[tuple[tuple[int, int, str], ...]] = set()
    for tiles, likelihood in ranked:
        # The same letters with a blank for one of them is no other play to offer.
        letters = tuple((r, c, t.upper()) for r, c, t in tiles)
        if letters in shown:
            continue
        shown.add(letters)
        play = Play(tuple(Placement(r, c, t) for r, c, t in tiles))
        try:
            evaluation = evaluate(board, play, ruleset, options, lexicon)
        except RefereeError:  # a blank's letter the set has no more of
            continue
        after = {(r, c): t for r, c, t in tiles}
        proposals.append(
            Proposal(
                play.notation(board, ruleset),
                evaluation.score,
                list(tiles),
                _agreement(chances, board, after),
                round(likelihood, 3),
            )
        )
    unread = names
    if proposals:
        after = {(r, c): t for r, c, t in proposals[0].tiles}
        unread = [
            square_name(r, c)
            for r in range(board.size)
            for c in range(board.size)
            if not _agrees(chances, r, c, after.get((r, c), _before(board, r, c)))
        ]
    # The reading shown reads each tile the way up it lies, in the turn chosen.
    return Proposals(proposals, names, unread, complete, shown_reading.turned(reading.turn))


@dataclass
class _Candidates:
    changed: list[tuple[int, int]]
    seen: dict[tuple[tuple[int, int, str], ...], float]  # a play's tiles: its likelihood
    complete: bool


def _candidates(
    chances: Floats,
    board: Board,
    ruleset: Ruleset,
    options: RuleOptions,
    lexicon: Lexicon,
    budget: Budget | None,
    deadline: float | None = None,
) -> _Candidates:
    """The legal plays of the racks the changed squares spell, each with its likelihood."""
    changed = _changed(chances, board)
    found = _Candidates(changed, {}, True)
    if not changed:
        return found
    for rack in _racks(chances, changed, ruleset):
        share = budget
        if budget is not None and deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                found.complete = False
                break
            share = Budget(plays=budget.plays, seconds=left)
        try:
            plays = raw_plays(
                board, ruleset, options, lexicon, _upwords_qu(rack, ruleset), budget=share
            )
        except RefereeError:  # a rack the set can't hold is no candidate
            continue
        if budget is not None and len(plays) >= budget.plays:
            found.complete = False
        for _, tiles in plays:
            key = tuple(sorted(tiles))
            # A blank tried for a doubtful letter stands for a tile of that letter too: the
            # set has many more of those than blanks (the rules check the play when shown).
            lettered = tuple((r, c, t.upper() if is_blank(t) else t) for r, c, t in key)
            for variant in {key, lettered}:
                if variant not in found.seen:
                    found.seen[variant] = sum(
                        math.log(_chance(chances, r, c, t))
                        - math.log(_chance(chances, r, c, _before(board, r, c)))
                        for r, c, t in variant
                    )
    return found


def _upwords_qu(rack: str, ruleset: Ruleset) -> str:
    # The reader names a Qu tile by its Q; in a set with a Qu tile, a Q is that tile.
    return rack.replace("Q", "Qu") if ruleset.tiles.get(QU) else rack


def _agrees(chances: Floats, row: int, col: int, expected: str | None) -> bool:
    """Whether the square's likeliest reading is ``expected`` (a blank: as blank or letter)."""
    best = int(chances[row, col, :TURNED].argmax())
    if expected is None:
        return best == EMPTY
    return best == _class_of(expected) or (
        is_blank(expected) and best == CLASSES.index(expected.upper())
    )


def _agreement(chances: Floats, board: Board, after: dict[tuple[int, int], str]) -> float:
    """The share of squares that read as they would after the play."""
    right = sum(
        _agrees(chances, r, c, after.get((r, c), _before(board, r, c)))
        for r in range(board.size)
        for c in range(board.size)
    )
    return round(right / (board.size * board.size), 3)
