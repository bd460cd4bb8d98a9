"""The whole suite: prints what it measures, then one JSON object as its last line.

    make bench            (or: .venv/bin/python -m bench)

The figures also go to var/bench/<date>-<sha>.json (bench/results.py). Each goal's bound is in
bench/goals.py, the one table of them; the list below says what each figure measures.

The figures (issue 2):
  engine_play_us_median  validate + score a typical mid-game play, the slower of an Upwords
                         play (a stack and a cross-word) and a Letter UP play (premiums)
  lexicon_load_ms        the slowest cold load of a compiled lexicon, each in a fresh
                         process (the compiled cache already on disk)
  lexicon_rss_mb         memory added to a process by loading all six lexica and looking
                         words up in each
  lookups_per_s          dictionary lookups per second (half words, half not)

Move generator (bench/movegen.py, issue 12): "what could I have played?" on fixed mid-game
positions (Upwords 10×10 with stacks of 2-4, Letter UP 15×15, the crossword with a blank):
  movegen_ms_median      every legal play found and scored, the best 20 confirmed
  movegen_ms_p90
  movegen_plays_per_s    plays found per second by the search
  movegen_rss_mb         memory for the DAWG and GADDAG of all the lists
  analysis_worst_ms      the most expensive analysis anyone can ask for (two blanks on a
                         board of scattered tiles), within a request's budget

The board read from a photo (bench/photo.py, issue 47; where the photo extra is installed),
on rendered photos the network was not trained on:
  photo_occupancy_accuracy, photo_letter_accuracy   squares read right as tile or empty;
                         tiles whose letter is read right
  photo_filling_*        the same, of the same photos cut down to the board's grid (and
                         photo_cut_*, photo_facing_*, photo_steep_*, photo_dim_*: bench/photo.py)
  photo_played_*         the same, of boards of self-played games (every tile in a word)
  photo_low_*            the same, of those boards seen from low down (tops half a square off)
  photo_top1_share       photos taken after a play that propose that play first
  photo_read_ms_median, photo_read_ms_p90           one photo read, on one core

HTTP load (bench/http_load.py): gunicorn with 2 workers on loopback, on a throwaway
database (PostgreSQL when DATABASE_URL is set, else SQLite), driven by 50 keep-alive clients
in a second process (bench/loadgen.py):
  http_trivial_per_s     GET /ping, the smallest JSON view: the stack's own limit
  http_turns_per_s       turn submissions across 200 games, checked against CSW19
  http_turn_ratio        http_turns_per_s / http_trivial_per_s
  http_poll_per_s        scoreboard polls with nothing new (304 on If-None-Match)
  poll_ratio             http_poll_per_s / http_trivial_per_s
  p99_turn_ms            99th percentile latency of a turn submission
  turn_answer_bytes_10   bytes of a turn's answer at turn 10 of a game, and at turn 300:
  turn_answer_bytes_300  the answer is the game's state and the new turn, never the log

Imports (bench/import_load.py): the same server, two clients importing the largest record an
import takes (2,000 entries) one after another, while turns on other games are sent on a fixed
schedule (open loop, each timed from its scheduled moment):
  turn_ms_during_import  99th percentile latency of those turns

Live tables, open loop (bench/capacity.py): the same server serving ASGI, tables of one turn
per 20 s each (a Poisson schedule, each turn timed from its moment) and two screens each with
their stream of events open, fetching the live part for each change; the table count stepped up
until turn p99 or delivery p99 is past its goal, a screen misses a turn, or a request fails. On
SQLite (the workers hear each other through the database) and, where PostgreSQL and Redis
answer on 127.0.0.1 (BENCH_PG_URL, BENCH_REDIS_URL), on PostgreSQL with Redis:
  capacity_tables        the most tables served within those bounds (SQLite)
  capacity_tables_postgresql                                  (PostgreSQL + Redis)
  turn_cpu_ms            the server's CPU per turn, nothing else running (SQLite)
  delivery_p50_ms,       from a change's commit to its event at the screen, at capacity
  delivery_p99_ms
  screen_rss_kb          the server's memory per open screen

SQLite's write lock (bench/sqlite_writers.py): on SQLite every table's turns take turns at one
lock; four processes enter turns at once, each on games of its own, closed loop, no HTTP:
  sqlite_turns_per_s     the turns written a second by the four
  sqlite_hold_p50_ms     how long a turn held the lock, at the median

A long game (bench/long_log.py, issue 32): a game as long as the log keeps (2,000 entries)
against one of 20, on SQLite, the domain's calls timed in one process (medians of 7):
  turn_ms_at_20,         a play at entry 20, and at entry ~2,000
  turn_ms_at_2000
  turn_ratio             turn_ms_at_2000 / turn_ms_at_20
  correction_ms_at_20,   a correction of the last play, at entry 20 and ~2,000
  correction_ms_at_2000
  correction_ratio       correction_ms_at_2000 / correction_ms_at_20
  correction_first_ms_at_2000  a correction of the first turn: every later entry scored
                         again, the one cost that grows with the log (and, in long_log, how
                         long it held the write lock)
  (and in long_log: a challenge, an undo and the game's page at an earlier turn, likewise)

A weekend's event (bench/event.py, issue 42): 300 players in 3 divisions at round 8 of 24,
150 tables entering turns open loop, 300 phones on the event's page, 150 scorer streams, for
60 s, on SQLite and (where they answer) PostgreSQL with Redis:
  event_turn_p99_ms      a turn at a table
  event_page_p99_ms      the event's page and live part as the phones asked for them
  event_page_bytes       the event's page on the wire (gzipped, as a phone takes it)
  event_end_p99_ms       a game's end to the new standings on every phone
  event_pairing_ms       a round of 300 in one division paired (Swiss, King of the Hill)
  event_page_ratio       the event's page against /healthz, one request at a time

The word lists come from LEXICON_DIR (../shared/lexica when it is unset and that folder
exists); without any, the CSW19 list from pyscrabbler is used alone.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import capacity as capacity_bench
from bench import event as event_bench
from bench import http_load as http_bench
from bench import import_load as import_bench
from bench import movegen as movegen_bench
from bench import photo as photo_bench
from bench import results
from bench.goals import goals_met
from bench.procs import machine
from bench.server import HARNESS, ROOT, lexicon_library, live_databases
from referee import GameState, LexiconLibrary, Play, compile_lexicon, evaluate
from scorekeeper.photo import available as photo_available

EVENT_FIGURES = (
    "event_turn_p99_ms",
    "event_page_p99_ms",
    "event_page_bytes",
    "event_end_p99_ms",
    "event_pairing_ms",
    "event_page_ratio",
)
LONG_LOG_FIGURES = (
    "turn_ms_at_20",
    "turn_ms_at_2000",
    "turn_ratio",
    "correction_ms_at_20",
    "correction_ms_at_2000",
    "correction_ratio",
    "correction_first_ms_at_2000",
)
MOVEGEN_FIGURES = (
    "movegen_ms_median",
    "movegen_ms_p90",
    "movegen_all_ms_median",
    "movegen_plays_per_s",
    "movegen_rss_mb",
    "analysis_worst_ms",
)
HTTP_FIGURES = (
    "http_trivial_per_s",
    "http_turns_per_s",
    "http_turn_ratio",
    "http_poll_per_s",
    "poll_ratio",
    "p99_turn_ms",
    "turn_answer_bytes_10",
    "turn_answer_bytes_300",
)


def median_us(fn: Callable[[], None], rounds: int = 15, batch: int = 400) -> float:
    """Median over rounds of the mean time per call in a batch, in microseconds."""
    fn()  # warm up
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter_ns() - start) / batch / 1000)
    return statistics.median(samples)


def bench_engine(library: LexiconLibrary) -> dict[str, float]:
    ids = library.ids()
    lexicon = library.get("TWL06" if "TWL06" in ids else ids[0])
    # Upwords mid-game: the Hasbro sequence up to SNACK, which stacks N on P and forms LEAN.
    up = GameState.new("upwords-10", 2)
    for notation in ["5D MOOD", "G6 EAR", "6F N.T", "5D W", "G5 L..P"]:
        up.play(Play.parse(notation, up.ruleset))
    snack = Play.parse("8F SNACK", up.ruleset)
    # Letter UP mid-game: HOUSE and EXAM down, then ZAG above HOUSE with Z on a double
    # letter, forming AH and GO as cross-words (33 points).
    lu = GameState.new("letterup-classic", 2)
    for notation in ["8D HOUSE", "H8 .XAM"]:
        lu.play(Play.parse(notation, lu.ruleset))
    zag = Play.parse("7C ZAG", lu.ruleset)
    for state, play in ((up, snack), (lu, zag)):
        evaluate(state.board, play, state.ruleset, state.options, lexicon)  # must be legal

    def upwords() -> None:
        evaluate(up.board, snack, up.ruleset, up.options, lexicon)

    def letterup() -> None:
        evaluate(lu.board, zag, lu.ruleset, lu.options, lexicon)

    return {"upwords": median_us(upwords), "letterup": median_us(letterup)}


_CHILD_LOAD = """
import json, sys, time
sys.path[:0] = [{harness!r}, {root!r}]
from pathlib import Path
from referee import compile_lexicon
start = time.perf_counter()
lexicon = compile_lexicon(Path({path!r}), Path({cache!r}), {id!r})
lexicon.contains("QI")
print(json.dumps((time.perf_counter() - start) * 1000))
"""

_CHILD_RSS = """
import json, sys
sys.path[:0] = [{harness!r}, {root!r}]
from pathlib import Path
import marisa_trie  # imported before the baseline: the library is not the lexica
from referee import LexiconLibrary
from bench.procs import status_kb

def rss_kb():
    return status_kb("self", "VmRSS")

library = LexiconLibrary([Path(d) for d in {dirs!r}], Path({cache!r}))
ids = library.ids()
words = [w.strip() for w in open({sample!r})][::20]  # read before the baseline: not a lexicon
before = rss_kb()
for lexicon_id in ids:
    lexicon = library.get(lexicon_id)
    for word in words:
        lexicon.contains(word)
print(json.dumps({{"mb": (rss_kb() - before) / 1024, "lexica": len(ids)}}))
"""


def bench_lexica(library: LexiconLibrary) -> dict[str, Any]:
    infos = library.infos()
    for info in infos:  # compile into the cache first: the load figure is for a warm cache
        compile_lexicon(info.path, library.cache_dir, info.id)
    loads = {}
    for info in infos:
        times = []
        for _ in range(3):
            code = _CHILD_LOAD.format(
                harness=str(HARNESS),
                root=str(ROOT),
                path=str(info.path),
                cache=str(library.cache_dir),
                id=info.id,
            )
            out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
            times.append(json.loads(out.stdout))
        loads[info.id] = statistics.median(times)
    biggest = max(infos, key=lambda i: i.path.stat().st_size)
    code = _CHILD_RSS.format(
        harness=str(HARNESS),
        root=str(ROOT),
        dirs=[str(d) for d in library.dirs],
        cache=str(library.cache_dir),
        sample=str(biggest.path),
    )
    rss = json.loads(
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True).stdout
    )

    lexicon = library.get(biggest.id)
    words = [w.strip() for w in biggest.path.read_text().split()]
    rng = random.Random(7)
    hits = rng.sample(words, 50_000)
    misses = ["".join(rng.sample(w, len(w))) + "Q" for w in hits]
    probe = hits + misses
    rng.shuffle(probe)
    contains = lexicon.contains
    rates = []
    for _ in range(5):
        start = time.perf_counter()
        for word in probe:
            contains(word)
        rates.append(len(probe) / (time.perf_counter() - start))
    return {
        "loads_ms": loads,
        "rss_mb": rss["mb"],
        "rss_lexica": rss["lexica"],
        "lookups_per_s": statistics.median(rates),
        "lookup_lexicon": biggest.id,
    }


def in_own_process(part: str) -> dict[str, Any]:
    """``python -m bench <part>`` in a process of its own (it points Django at a throwaway
    database): its figures (its last line), its sentence (the line before) printed."""
    ran = subprocess.run(
        [sys.executable, "-m", "bench", part],
        check=True,
        capture_output=True,
        text=True,
        cwd=HARNESS,
        timeout=600,
    )
    *_, said, figures = ran.stdout.splitlines()
    print(said)
    found: dict[str, Any] = json.loads(figures)
    return found


def main(argv: list[str] | None = None) -> None:
    import argparse

    argparse.ArgumentParser(
        prog="python -m bench", description=__doc__.split("\n\n")[0]
    ).parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-lexica-") as cache:
        library = lexicon_library(Path(cache))
        print(f"machine: {machine()}")
        print(f"lexica: {', '.join(library.ids())}")
        engine = bench_engine(library)
        up, lu = engine["upwords"], engine["letterup"]
        print(f"engine: Upwords play {up:.1f} µs, Letter UP play {lu:.1f} µs")
        lexica = bench_lexica(library)
        for lexicon_id, ms in lexica["loads_ms"].items():
            print(f"cold load {lexicon_id}: {ms:.2f} ms")
        print(f"memory added by {lexica['rss_lexica']} lexica: {lexica['rss_mb']:.1f} MB")
        print(f"lookups ({lexica['lookup_lexicon']}): {lexica['lookups_per_s']:,.0f}/s")
        movegen = movegen_bench.run(library, ROOT)
        for family, figures_ in movegen["families"].items():
            print(
                f"movegen {family} ({figures_['positions']} positions, {movegen['lexicon']}): "
                f"median {figures_['median_ms']} ms, p90 {figures_['p90_ms']} ms, "
                f"max {figures_['max_ms']} ms"
            )
        print(
            f"movegen: all plays confirmed {movegen['movegen_all_ms_median']} ms median, "
            f"{movegen['movegen_plays_per_s']:,} plays/s, automata {movegen['movegen_rss_mb']} MB"
        )
        print(
            f"analysis, worst case within the budget: {movegen['analysis_worst_ms']} ms "
            f"({movegen['analysis_worst_plays']:,} plays looked at)"
        )
    figures: dict[str, Any] = {
        "engine_play_us_median": round(max(engine.values()), 1),
        "lexicon_load_ms": round(max(lexica["loads_ms"].values()), 2),
        "lexicon_rss_mb": round(lexica["rss_mb"], 1),
        "lookups_per_s": round(lexica["lookups_per_s"]),
        **{name: movegen[name] for name in MOVEGEN_FIGURES},
    }
    failed: list[str] = []

    def attempt(name: str, measure: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """``measure()``, or its failure as ``{"error": ...}``: the other figures stand."""
        try:
            return measure()
        except Exception as error:  # noqa: BLE001 - the failure is shown and the run fails
            failed.append(name)
            print(f"{name}: FAILED: {error}")
            return {"error": str(error)[-2000:]}

    web = attempt("http", http_bench.run)
    figures.update({name: web.get(name) for name in HTTP_FIGURES})
    imports = attempt("import load", import_bench.run)
    figures["turn_ms_during_import"] = imports.get("turn_ms_during_import")
    writers = attempt("SQLite writers", lambda: in_own_process("writers"))
    for key in ("sqlite_turns_per_s", "sqlite_hold_p50_ms"):
        figures[key] = writers.get(key)
    long_log = attempt("long log", lambda: in_own_process("long-log"))
    for key in LONG_LOG_FIGURES:
        figures[key] = long_log.get(key)
    capacity: dict[str, Any] = {}
    for name, url, redis in live_databases():
        live = attempt(
            f"capacity ({name})",
            lambda url=url, redis=redis: capacity_bench.run(  # type: ignore[misc]
                seconds=15, database_url=url, redis_url=redis
            ),
        )
        live.setdefault("capacity_tables", None)
        if name == "sqlite":
            figures["capacity_tables"] = live["capacity_tables"]
            for key in ("turn_cpu_ms", "delivery_p50_ms", "delivery_p99_ms", "screen_rss_kb"):
                figures[key] = live.get(key)
        else:
            figures["capacity_tables_postgresql"] = live["capacity_tables"]
        capacity[name] = live
    event = attempt("event", event_bench.measure)
    for key in EVENT_FIGURES:
        figures[key] = event.get(key)
    # The board read from a photo (bench/photo.py), where the server has the photo extra.
    if photo_available():
        photo = attempt("photo", lambda: photo_bench.run())
        figures.update(photo)
    details = {k: v for k, v in movegen.items() if k not in MOVEGEN_FIGURES}
    summary = {
        **figures,
        "lexica": len(lexica["loads_ms"]),
        "movegen": details,
        "http": web.get("http", web),
        "import_load": imports.get("import_load", imports),
        "sqlite_writers": writers,
        "long_log": long_log,
        "capacity": capacity,
        "event": event,
        "goals_met": goals_met(figures),
    }
    saved = results.save(summary, "suite")
    print(f"saved: {saved}")
    print(json.dumps(summary))
    if failed:
        sys.exit(1)
