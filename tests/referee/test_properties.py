"""Properties over random legal games (Hypothesis).

A game is played with random plays that the engine accepts (no dictionary: the words are
random letters), random passes, exchanges and challenges, checking after every action that
tiles are conserved, no stack passes 5, every score equals an independent recomputation from
the whole board, and taking a play back restores the position exactly.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board
from referee.errors import IllegalAction, IllegalPlay, InputError
from referee.game import GameState
from referee.lexicon import HonourSystem, WordSet
from referee.play import Placement, Play
from referee.rulesets import LETTER_MULTIPLIER, QU, RULESETS, WORD_MULTIPLIER, Ruleset

NOTHING = WordSet("NOTHING", [])  # every challenge against it is upheld


def random_play(rng: random.Random, state: GameState) -> Play | None:
    """A candidate play near the tiles on the board (it may still be illegal)."""
    rs, board = state.ruleset, state.board
    size = rs.size
    across = rng.random() < 0.5
    dr, dc = (0, 1) if across else (1, 0)
    if board.is_empty:
        anchor = rng.choice(sorted(rs.start_squares))
    else:
        anchor = rng.choice([(r, c) for r, c, _ in board.squares()])
    length = rng.randint(1, 7)
    back = rng.randint(0, length)
    r, c = anchor[0] - dr * back, anchor[1] - dc * back
    unseen = state.unseen()
    pool = [t for t, n in unseen.items() for _ in range(n)]
    placements = []
    for _ in range(length):
        if not (0 <= r < size and 0 <= c < size):
            break
        if not board.stack(r, c) or (rs.stacks and rng.random() < 0.35):
            if not pool:
                break
            tile = pool.pop(rng.randrange(len(pool)))
            placements.append(Placement(r, c, tile))
        r, c = r + dr, c + dc
    placements = placements[: state.racks[state.to_move]]
    return Play(tuple(placements)) if placements else None


def recomputed_score(before: Board, play: Play, rs: Ruleset) -> tuple[list[str], int]:
    """Score a play from scratch: every maximal run of the board after it through a new tile."""
    after = before.copy()
    for p in play.placements:
        after.place(p.row, p.col, p.tile)
    new = set(play.squares)
    words, total = [], 0
    lines = [[(r, c) for c in range(rs.size)] for r in range(rs.size)]
    lines += [[(r, c) for r in range(rs.size)] for c in range(rs.size)]
    for line in lines:
        run: list[tuple[int, int]] = []
        for sq in [*line, None]:
            if sq is not None and after.stack(*sq):
                run.append(sq)
                continue
            if len(run) >= 2 and new & set(run):
                tops = [after.top(*s) for s in run]
                words.append("".join(tops))
                if rs.scoring == "stacked":
                    heights = [after.height(*s) for s in run]
                    flat = all(h == 1 for h in heights)
                    total += (2 * len(run) + 2 * (QU in tops)) if flat else sum(heights)
                else:
                    letters, factor = 0, 1
                    for s, t in zip(run, tops, strict=True):
                        mark = rs.layout[s[0]][s[1]] if s in new else "."
                        letters += rs.values[t] * LETTER_MULTIPLIER.get(mark, 1)
                        factor *= WORD_MULTIPLIER.get(mark, 1)
                    total += letters * factor
            run = []
    if len(play) == rs.bingo_tiles:
        total += rs.bingo_bonus
    return sorted(words), total


def check_invariants(state: GameState) -> None:
    rs = state.ruleset
    assert state.tiles_accounted() == rs.total_tiles
    assert state.board.max_height() <= rs.max_height
    counts = state.board.tile_counts()
    assert all(counts[t] <= n for t, n in rs.tiles.items())
    assert state.bag >= 0 and all(0 <= n <= rs.rack_size for n in state.racks)
    assert GameState.from_dict(state.to_dict()).to_dict() == state.to_dict()


def without_last_play(state: GameState) -> dict:
    record = state.to_dict()
    record.pop("last_play")
    return record


@settings(max_examples=100, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    ruleset=st.sampled_from(sorted(RULESETS)),
    players=st.integers(1, 4),
)
def test_random_legal_games_keep_every_invariant(rng, ruleset, players):
    state = GameState.new(ruleset, players)
    logged = [0] * players
    plays = 0
    for _ in range(60):
        if state.status != "in_progress":
            break
        roll = rng.random()
        if roll < 0.04:
            state.pass_turn()
        elif roll < 0.08:
            with contextlib.suppress(IllegalAction):  # the bag may be too small
                state.exchange(1)
        elif roll < 0.2 and state.last_play is not None and players > 1:
            before = state.last_play
            outcome = state.challenge(HonourSystem())
            assert outcome.result == "rejected" and state.last_play is None
            assert before is not None
        else:
            for _attempt in range(40):
                play = random_play(rng, state)
                if play is None:
                    continue
                try:
                    state.evaluate(play)
                except (IllegalPlay, InputError):
                    continue
                before = state.copy()
                outcome = state.play(play)
                words, score = recomputed_score(before.board, play, state.ruleset)
                assert outcome.score == score
                assert sorted(w.word for w in outcome.words) == words
                logged[outcome.seat] += outcome.score
                plays += 1
                if players > 1 and rng.random() < 0.25:
                    # Taking the play back restores the position exactly.
                    state.challenge(NOTHING)
                    assert state.board == before.board
                    assert without_last_play(state) == without_last_play(before)
                    logged[outcome.seat] -= outcome.score
                break
            else:
                state.pass_turn()
        check_invariants(state)
        assert state.scores == logged
    if state.status == "awaiting_racks":
        # Deal the unseen tiles out to the racks, as they would be at the table.
        pool = sorted(state.unseen().elements())
        rng.shuffle(pool)
        racks = {}
        for seat, count in enumerate(state.racks):
            racks[seat], pool = "".join(pool[:count]), pool[count:]
        state.finish(racks)
        values = state.ruleset.values
        assert state.adjustments == [-sum(values[t] for t in racks[s]) for s in range(players)]
    if state.status == "finished":
        assert state.final_scores is not None
        assert [f - a for f, a in zip(state.final_scores, state.adjustments, strict=True)] == logged
