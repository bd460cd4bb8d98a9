"""Benchmark of the move generator (referee/movegen.py): part of the suite, or alone as
``python -m bench movegen``.

Positions are mid-game positions of games the generator plays against itself from a seeded
bag (each turn one of the three best plays, chosen by a seeded random generator), so they
are the same on every run for the same word list:

  Upwords 10×10   positions whose highest stack is 2 to 4 tiles
  Letter UP 15×15 positions from turn 4 on
  crossword 15×15 the same (``crossword-classic``), with a blank on the rack

Figures:
  movegen_ms_median, movegen_ms_p90  generate(limit=20) over all positions: every legal play
                                     is found and scored, the best 20 are confirmed by
                                     rules.evaluate with their words and notation
  movegen_all_ms_median              generate(limit=None): every play confirmed
  movegen_plays_per_s                plays found per second by the search alone (raw_plays)
  movegen_rss_mb                     memory added to a process by the DAWG and GADDAG of every
                                     list, every page touched (measured in a fresh process)

The automata are compiled once into a cache folder that outlives the run (GADDAG: about
half a minute per list), named by each list's checksum like the tries.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.server import HARNESS, ROOT, lexicon_library
from bench.stats import percentile, rounded
from referee import (
    BLANK,
    RULESETS,
    Board,
    Budget,
    LexiconLibrary,
    RuleOptions,
    Ruleset,
    compile_lexicon,
    generate,
    raw_plays,
    search,
)

CACHE = Path(tempfile.gettempdir()) / "scorekeeper-movegen-cache"
LIMIT = 20
PER_FAMILY = 10


@dataclass
class Position:
    family: str
    ruleset: Ruleset
    board: Board
    rack: str


def _rack_text(tiles: list[str]) -> str:
    return "".join("Qu" if t == "QU" else t for t in tiles)


def self_play(
    ruleset: Ruleset, lexicon: Any, seed: int, turns: int
) -> list[tuple[int, Board, list[str]]]:
    """The positions (turn, board, rack) of one seeded game of the generator against itself."""
    rng = random.Random(seed)
    bag = [tile for tile, count in sorted(ruleset.tiles.items()) for _ in range(count)]
    rng.shuffle(bag)
    board = Board(ruleset.size)
    rack = [bag.pop() for _ in range(ruleset.rack_size)]
    seen = []
    options = RuleOptions()
    for turn in range(turns):
        seen.append((turn, board.copy(), list(rack)))
        raw = raw_plays(board, ruleset, options, lexicon, _rack_text(rack))
        if not raw:  # exchange the whole rack
            bag.extend(rack)
            rng.shuffle(bag)
            rack = [bag.pop() for _ in range(min(ruleset.rack_size, len(bag)))]
            continue
        raw.sort(key=lambda item: (-item[0], sorted(item[1])))
        _, tiles = raw[rng.randrange(min(3, len(raw)))]
        for row, col, tile in tiles:
            board.place(row, col, tile)
            rack.remove(BLANK if tile.islower() else tile)
        while len(rack) < ruleset.rack_size and bag:
            rack.append(bag.pop())
    return seen


def positions(lexicon: Any) -> list[Position]:
    out: list[Position] = []
    upwords = RULESETS["upwords-10"]
    seed = 0
    while sum(p.family == "upwords" for p in out) < PER_FAMILY and seed < 40:
        for turn, board, rack in self_play(upwords, lexicon, seed, 16):
            if turn >= 4 and 2 <= board.max_height() <= 4:
                out.append(Position("upwords", upwords, board, _rack_text(rack)))
                break
        seed += 1
    letterup = RULESETS["letterup-classic"]
    for seed in range(PER_FAMILY):
        turn, board, rack = self_play(letterup, lexicon, seed, 4 + seed)[-1]
        out.append(Position("letterup", letterup, board, _rack_text(rack)))
    crossword = RULESETS["crossword-classic"]
    for seed in range(PER_FAMILY):
        turn, board, rack = self_play(crossword, lexicon, 100 + seed, 4 + seed)[-1]
        if BLANK not in rack:
            rack[-1] = BLANK
        out.append(Position("crossword", crossword, board, _rack_text(rack)))
    return out


def _timed(fn: Any, rounds: int = 3) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


_CHILD_RSS = """
import json, sys
sys.path[:0] = [{harness!r}, {root!r}]
from pathlib import Path
import marisa_trie, mmap  # imported before the baseline: libraries are not the structures
from referee import compile_lexicon  # the whole engine, dawg and movegen included
from bench.procs import status_kb

def rss_kb():
    return status_kb("self", "VmRSS")

lexica = [compile_lexicon(Path(p), Path({cache!r}), i) for i, p in {lists!r}]
before = rss_kb()
for lexicon in lexica:
    for automaton in (lexicon.dawg(), lexicon.gaddag()):
        sum(automaton.masks), sum(automaton.firsts), sum(automaton.children)
print(json.dumps((rss_kb() - before) / 1024))
"""


def run(library: LexiconLibrary, root: Path) -> dict[str, Any]:
    infos = library.infos()
    CACHE.mkdir(parents=True, exist_ok=True)
    builds = {}
    files_mb = {}
    lexica = {}
    for info in infos:  # compile every list's automata once (kept in CACHE between runs)
        lexicon = compile_lexicon(info.path, CACHE, info.id)
        start = time.perf_counter()
        lexicon.dawg()
        lexicon.gaddag()
        builds[info.id] = round(time.perf_counter() - start, 2)  # 0 once cached
        lexica[info.id] = lexicon
        if lexicon.path is not None:
            files_mb[info.id] = round(
                sum(lexicon.path.with_suffix(s).stat().st_size for s in (".dawg", ".gaddag")) / 1e6,
                1,
            )
    chosen = "CSW21" if "CSW21" in lexica else max(lexica, key=lambda i: lexica[i].word_count)
    lexicon = lexica[chosen]
    options = RuleOptions()
    times: dict[str, list[float]] = {}
    everything: list[float] = []
    plays = 0
    search_s = 0.0
    for position in positions(lexicon):
        args = (position.board, position.ruleset, options, lexicon, position.rack)
        start = time.perf_counter()
        found = raw_plays(*args)
        search_s += time.perf_counter() - start
        plays += len(found)
        ms = _timed(lambda a=args: generate(*a, limit=LIMIT))
        everything.append(_timed(lambda a=args: generate(*a), rounds=1))
        times.setdefault(position.family, []).append(ms)
    every = [ms for family in times.values() for ms in family]
    worst_ms, worst_plays = worst_case(lexicon)
    code = _CHILD_RSS.format(
        harness=str(HARNESS),
        root=str(root),
        cache=str(CACHE),
        lists=[(i.id, str(i.path)) for i in infos],
    )
    rss = json.loads(
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True).stdout
    )
    return {
        "lexicon": chosen,
        "builds_s": builds,
        "files_mb": files_mb,
        "families": {
            family: {
                "positions": len(values),
                "median_ms": round(statistics.median(values), 1),
                "p90_ms": rounded(percentile(values, 0.9)),
                "max_ms": round(max(values), 1),
            }
            for family, values in times.items()
        },
        "movegen_ms_median": round(statistics.median(every), 1),
        "movegen_ms_p90": rounded(percentile(every, 0.9)),
        "movegen_all_ms_median": round(statistics.median(everything), 1),
        "movegen_plays_per_s": round(plays / search_s),
        "movegen_rss_mb": round(rss, 1),
        "analysis_worst_ms": worst_ms,
        "analysis_worst_plays": worst_plays,
    }


def worst_case(lexicon: Any) -> tuple[float, int]:
    """The attacker's analysis, within the budget a request gets (``Budget()``, the settings'
    defaults): two blanks, on a board of tiles scattered every twelfth square and on an empty
    one, asking for the best play and for a thousand. The slowest, in ms, and the plays it
    had looked at when it stopped."""
    crossword = RULESETS["crossword-classic"]
    scattered = Board(15)
    for k, square in enumerate(range(0, 225, 12)):
        scattered.place(square // 15, square % 15, "AERT"[k % 4])
    slowest, plays = 0.0, 0
    for board in (scattered, Board(15)):
        for limit in (1, 1000):
            start = time.perf_counter()
            found = search(
                board, crossword, RuleOptions(), lexicon, "??ESTAR", limit=limit, budget=Budget()
            )
            ms = (time.perf_counter() - start) * 1000
            if ms > slowest:
                slowest, plays = ms, found.count
    return round(slowest, 1), plays


def main(argv: list[str] | None = None) -> None:
    """The move generator's figures alone: ``python -m bench movegen``."""
    with tempfile.TemporaryDirectory() as cache:
        figures = run(lexicon_library(Path(cache)), ROOT)
    print(json.dumps(figures, indent=2))
