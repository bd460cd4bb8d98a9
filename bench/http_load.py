"""HTTP load benchmark: gunicorn on loopback, driven by a load generator in a second process.

    .venv/bin/python -m bench http [--clients 50] [--seconds 8] [--warmup 2]

(``make bench`` runs it too.) The server is config/gunicorn.conf.py as
``make serve`` runs it, with two workers, on 127.0.0.1 and a free port, DEBUG and SECURE off,
no rate limits, and max_requests off (see STEADY). Its database is a throwaway one: a
fresh database on the PostgreSQL server of DATABASE_URL when that is a PostgreSQL URL (created,
migrated, dropped at the end), else a fresh SQLite file in a temporary folder. Games use CSW19
(pyscrabbler's list, compiled before the server starts) checked as played (challenge mode
auto), so every play is really judged.

bench/loadgen.py (asyncio, raw HTTP/1.1 keep-alive) connects 50 clients one after another, each
then in a closed loop on its own connection, through four phases, each a warm-up then a
measured window:

  http_trivial_per_s  GET /ping, the smallest JSON view: the stack's own limit; measured first
                      and again last, and the mean of the two taken (the machine is shared)
  http_turns_per_s    turn submissions, each client round-robin over its own 4 games (the
                      Hasbro plays, then one-tile exchanges, with expected_turn)
  http_poll_per_s     scoreboard polls with nothing new: GET /games/<id>/watch/live with
                      If-None-Match, answered 304

Its goals (bench/goals.py): http_turn_ratio (turns / trivial), poll_ratio (poll / trivial) and
p99_turn_ms at 50 concurrent clients. The client shares the machine's cores with the
server: its CPU use is measured and reported with each phase, with the server's own CPU time
per request (gunicorn's processes, and PostgreSQL's backends for the benchmark's database), how
busy the machine was before it started, and how the connections spread over the workers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from typing import Any

from bench import procs
from bench.goals import goals_met
from bench.sequences import HASBRO, tiles
from bench.server import HARNESS, Database, served
from bench.transport import call, create_game

LEXICON = "CSW19"


def hasbro_plays() -> list[list[dict[str, Any]]]:
    return [tiles(triples) for triples, _ in HASBRO]


# What a turn's answer weighs ------------------------------------------------------------------
def answer_sizes(port: int, at: tuple[int, ...] = (10, 300)) -> dict[str, int]:
    """Bytes of a turn's answer (POST .../turns/) and of GET /api/games/<id>/ at these turns
    of one game (exchanges, so the game goes on as long as needed)."""

    game = create_game(port, LEXICON)
    sizes: dict[str, int] = {}
    for number in range(1, max(at) + 1):
        status, data = call(
            port, "POST", f"/api/games/{game['id']}/turns/", {"action": "exchange", "count": 1},
            game["token"],
        )  # fmt: skip
        if status != 201:
            raise RuntimeError(f"answer sizes: turn {number} gave {status}: {data[:300]!r}")
        if number in at:
            sizes[f"turn_answer_bytes_{number}"] = len(data)
            game_answer = call(port, "GET", f"/api/games/{game['id']}/")[1]
            sizes[f"game_answer_bytes_{number}"] = len(game_answer)
    return sizes


# The benchmark -------------------------------------------------------------------------------
def run(
    clients: int = 50,
    seconds: float = 8.0,
    warmup: float = 2.0,
    games_per_client: int = 4,
    say: Any = print,
) -> dict[str, Any]:
    """Run the load benchmark; returns the six figures and, under "http", the details."""
    import gunicorn

    idle_check = procs.machine_busy()
    with served("bench-http-", os.environ.get("DATABASE_URL")) as run_on:
        server, database, port = run_on.server, run_on.database, run_on.port
        sizes = answer_sizes(port)
        say(
            "http answers: a turn's "
            + ", ".join(f"{sizes[f'turn_answer_bytes_{n}']:,} bytes at turn {n}" for n in (10, 300))
            + "; the game's "
            + ", ".join(f"{sizes[f'game_answer_bytes_{n}']:,} at turn {n}" for n in (10, 300))
        )
        config = {
            "port": port,
            "clients": clients,
            "games_per_client": games_per_client,
            "warmup": warmup,
            "duration": seconds,
            "max_per_client": 100_000,
            "lexicon": LEXICON,
            "plays": hasbro_plays(),
            "server_pgid": run_on.pgid,
            "db_marker": database.marker,
        }
        say(
            f"http: gunicorn {gunicorn.__version__} (config/gunicorn.conf.py, 2 workers) on "
            f"{database.description}; {clients} clients, {warmup:g} s warm-up and "
            f"{seconds:g} s measured per phase; max_requests off"
        )
        if idle_check is not None:
            say(f"http: the machine was {idle_check:.0%} busy before the benchmark started")
        generator = subprocess.run(
            [sys.executable, "-m", "bench.loadgen"],
            input=json.dumps(config),
            cwd=HARNESS,
            capture_output=True,
            text=True,
            timeout=120 + 4 * (warmup + seconds + 20),
        )
        lines = generator.stdout.strip().splitlines()
        if generator.returncode != 0 or not lines:
            raise RuntimeError(
                f"the load generator failed ({generator.returncode}):\n"
                f"{generator.stderr[-3000:]}\n{server.tail()}"
            )
        result = json.loads(lines[-1])
        if "error" in result:
            raise RuntimeError(f"the load generator: {result}\n{server.tail()}")
        empty = [k for k, phase in result["phases"].items() if not phase["requests"]]
        if empty:
            raise RuntimeError(f"no request completed in {empty}: {result}\n{server.tail()}")
        boots = server.worker_boots()
    return {**figures(result, database, boots, idle_check, say), **sizes}


def server_cpu_ms(phase: dict[str, Any]) -> float | None:
    """CPU time per request, in ms, of gunicorn and (PostgreSQL) the database's backends."""
    if phase["server_cpu_ms"] is None:
        return None
    return float(phase["server_cpu_ms"] + (phase["db_cpu_ms"] or 0.0))


def figures(
    result: dict[str, Any],
    database: Database,
    boots: int,
    idle_check: float | None,
    say: Any,
) -> dict[str, Any]:
    phases = result["phases"]
    turns, poll = phases["turns"], phases["poll"]
    names = {
        "trivial": "GET /ping",
        "turns": "POST /api/games/<id>/turns/",
        "poll": "GET /games/<id>/watch/live (304)",
        "trivial_end": "GET /ping, again at the end",
    }
    for key, phase in phases.items():
        busy = phase["machine_busy"]
        cpu_ms = server_cpu_ms(phase)
        db_ms = (
            f" ({phase['db_cpu_ms']:.2f} in PostgreSQL)" if phase["db_cpu_ms"] is not None else ""
        )
        say(
            f"http {key:11} {names[key]:33} {phase['per_s']:6.0f}/s  "
            f"p50 {phase['p50_ms']:5.1f} ms  p99 {phase['p99_ms']:6.1f} ms  "
            f"max {phase['max_ms']:6.1f} ms  server CPU "
            + (f"{cpu_ms:5.2f} ms/req{db_ms}" if cpu_ms is not None else "?")
            + f"  client CPU {phase['client_cpu']:4.0%} of a core, machine "
            + (f"{busy:4.0%}" if busy is not None else "?")
            + " busy"
            + (" (the client saturates a core)" if phase["client_cpu"] >= 0.9 else "")
        )
    trivial_per_s = (phases["trivial"]["per_s"] + phases["trivial_end"]["per_s"]) / 2
    non_304 = sum(n for status, n in poll["statuses"].items() if status != "304")
    say(
        f"http turns: {turns['requests']} in the window, {turns['failed']} not 201 "
        f"({turns['resent_landed']} resent after a lost connection and found landed); turns per "
        f"game {result['turns_per_game']['min']}–{result['turns_per_game']['max']} across "
        f"{result['setup']['games']} games"
    )
    say(
        "http fairness: connections held by each gunicorn worker "
        + ", ".join(
            f"{k} {'/'.join(map(str, p['worker_connections'])) or '?'}" for k, p in phases.items()
        )
        + "; requests per client (min/median/max) "
        + ", ".join(
            f"{k} {p['per_client']['min']}/{p['per_client']['median']}/{p['per_client']['max']}"
            for k, p in phases.items()
        )
    )
    say(
        f"http polls: {non_304} of {poll['requests']} not 304; "
        f"gunicorn worker boots {boots} (2: none restarted), "
        f"reconnects {result['reconnects']}"
    )
    for key, phase in phases.items():
        for failure in phase["failures"]:
            say(f"http {key} failure: {failure}")
    for failure in result["etag_failures"][:5]:
        say(f"http poll setup failure: {failure}")
    turn_ratio = turns["per_s"] / trivial_per_s if trivial_per_s else 0.0
    poll_ratio = poll["per_s"] / trivial_per_s if trivial_per_s else 0.0
    say(
        f"http ratios (trivial: the mean of both /ping phases, {trivial_per_s:.0f}/s): "
        f"turns/trivial {turn_ratio:.3f}, polls/trivial {poll_ratio:.3f}"
    )
    values = {
        "http_trivial_per_s": round(trivial_per_s),
        "http_turns_per_s": round(turns["per_s"]),
        "http_turn_ratio": round(turn_ratio, 3),
        "http_poll_per_s": round(poll["per_s"]),
        "poll_ratio": round(poll_ratio, 3),
        "p99_turn_ms": round(turns["p99_ms"], 1),
    }
    details = {
        "database": database.description,
        "cores": os.cpu_count(),
        "cpu": procs.cpu_model(),
        "python": platform.python_version(),
        "clients": result["clients"],
        "window_s": result["window_s"],
        "warmup_s": result["warmup_s"],
        "games": result["setup"]["games"],
        "p50_turn_ms": round(turns["p50_ms"], 1),
        "turns_per_game": result["turns_per_game"],
        "turn_failures": turns["failed"],
        "turns_resent_landed": turns["resent_landed"],
        "poll_non_304": non_304,
        "poll_setup_failures": len(result["etag_failures"]),
        "errors": {k: p["failed"] for k, p in phases.items()},
        "client_cpu": {k: round(p["client_cpu"], 2) for k, p in phases.items()},
        "machine_busy": {
            k: round(p["machine_busy"], 2) if p["machine_busy"] is not None else None
            for k, p in phases.items()
        },
        "server_cpu_ms_per_req": {
            k: round(v, 2) if (v := server_cpu_ms(p)) is not None else None
            for k, p in phases.items()
        },
        "db_cpu_ms_per_req": {
            k: round(p["db_cpu_ms"], 2) if p["db_cpu_ms"] is not None else None
            for k, p in phases.items()
        },
        "trivial_per_s_start_end": [
            round(phases["trivial"]["per_s"]),
            round(phases["trivial_end"]["per_s"]),
        ],
        "machine_busy_before": round(idle_check, 2) if idle_check is not None else None,
        "reconnects": {k: p["reconnects"] for k, p in phases.items()},
        "worker_connections": {k: p["worker_connections"] for k, p in phases.items()},
        "requests_per_client": {k: p["per_client"] for k, p in phases.items()},
        "worker_boots": boots,
        "max_requests": "off",
    }
    return {**values, "http": details}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=8.0, help="measured window per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="warm-up per phase")
    parser.add_argument("--games", type=int, default=4, help="games per client")
    args = parser.parse_args(argv)
    values = run(args.clients, args.seconds, args.warmup, args.games)
    print(json.dumps({**values, "goals_met": goals_met(values)}))
