"""Two revisions, back to back: this checkout against ``--base REV``, in pairs, alternately.

    python -m bench compare --base REV [--pairs 3] [PART [part options]]
    python -m bench compare --base main --pairs 3 capacity --steps 2000 --seconds 30

The machine's speed moves by more than most changes gain, so a change is measured as pairs:
the base and this checkout run one right after the other, the order swapped each pair (base
first, then this first, ...) so that a drift favours neither. Each side runs the same harness
(this checkout's bench/, copied aside) on its own app: the base is a ``git worktree`` of REV
in a temporary folder, run with this venv when its pyproject.toml asks for the same packages,
else with a venv of its own made there. PART is a part of ``python -m bench`` (default
``http``); this checkout runs as it is, uncommitted changes included.

Printed: every numeric figure of the part's JSON (its top level) for each pair, base → this
and this / base, then the median ratio; the whole goes to var/bench/<date>-<sha>-compare.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from bench import results
from bench.server import HARNESS, ROOT

RUN_TIMEOUT = 3600  # seconds for one side of one pair


def git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def requirements(pyproject: Path) -> Any:
    """What a checkout asks to be installed: its project's dependencies and extras."""
    project = tomllib.loads(pyproject.read_text()).get("project", {})
    keys = ("requires-python", "dependencies", "optional-dependencies")
    return [project.get(key) for key in keys]


def python_for(base: Path, folder: Path, say: Any = print) -> str:
    """The interpreter to run the base with: this one if the base asks for the same packages,
    else a venv made for it in ``folder``."""
    if requirements(base / "pyproject.toml") == requirements(ROOT / "pyproject.toml"):
        return sys.executable
    venv = folder / "venv"
    say(f"compare: the base asks for other packages: installing them in {venv}")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "--upgrade", "pip"], check=True)
    subprocess.run([*pip, "-e", f"{base}[dev]"], check=True)
    return str(venv / "bin" / "python")


def run_side(python: str, app: Path, harness: Path, part: list[str], kept: Path) -> dict[str, Any]:
    """One run of ``python -m bench PART`` on the app at ``app``: its JSON (its last line)."""
    env = {
        **os.environ,
        "BENCH_APP_ROOT": str(app),
        "BENCH_RESULTS_DIR": str(kept),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(app), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [python, "-m", "bench", *part],
        cwd=harness,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise RuntimeError(f"{' '.join(part)} on {app} said nothing:\n{done.stderr[-3000:]}")
    try:
        found: dict[str, Any] = json.loads(lines[-1])
    except json.JSONDecodeError as error:
        raise RuntimeError(f"{' '.join(part)} on {app}: {error}\n{done.stderr[-3000:]}") from error
    return found


def numbers(figures: dict[str, Any]) -> dict[str, float]:
    """The part's numeric figures (its top level: the details below are not compared)."""
    return {
        name: value
        for name, value in figures.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }


def ratio(base: float | None, this: float | None) -> float | None:
    """this / base, None where either is missing or the base is 0.

    >>> ratio(20.0, 25.0), ratio(0, 3), ratio(None, 1)
    (1.25, None, None)
    """
    if base is None or this is None or base == 0:
        return None
    return round(this / base, 3)


def table(pairs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, Any]]:
    """Each figure's pairs (base, this), their ratios and the median ratio.

    >>> first = {"base": {"p99": 20}, "this": {"p99": 25}}
    >>> table([first, {"base": {"p99": 30}, "this": {"p99": 27}}])
    {'p99': {'pairs': [[20, 25], [30, 27]], 'ratios': [1.25, 0.9], 'median_ratio': 1.075}}
    """
    names = [name for name in pairs[0]["base"] if any(name in p["this"] for p in pairs)]
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        values = [[p["base"].get(name), p["this"].get(name)] for p in pairs]
        ratios = [ratio(base, this) for base, this in values]
        known = [r for r in ratios if r is not None]
        median = round(statistics.median(known), 3) if known else None
        out[name] = {"pairs": values, "ratios": ratios, "median_ratio": median}
    return out


def show(name: str, row: dict[str, Any]) -> str:
    pairs = ", ".join(f"{base} → {this}" for base, this in row["pairs"])
    ratios = ", ".join("?" if r is None else f"{r:.3f}" for r in row["ratios"])
    return f"{name:32} {pairs}   this/base {ratios}   median {row['median_ratio']}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench compare", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--base", required=True, help="the revision to compare with (git)")
    parser.add_argument("--pairs", type=int, default=3, help="how many pairs (default 3)")
    parser.add_argument("part", nargs=argparse.REMAINDER, help="the part and its options")
    args = parser.parse_args(argv)
    part = args.part or ["http"]
    if part[0] == "--":
        part = part[1:]
    if part and part[0] in ("compare", "suite", "lighthouse"):
        parser.error(f"compare runs one measuring part, not {part[0]!r}")
    base_sha = git("rev-parse", "--short=12", f"{args.base}^{{commit}}")
    this_sha = results.revision()
    folder = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    base = folder / "base"
    harness = folder / "harness"
    git("worktree", "add", "--detach", str(base), base_sha)
    try:
        shutil.copytree(
            HARNESS / "bench", harness / "bench", ignore=shutil.ignore_patterns("__pycache__")
        )
        base_python = python_for(base, folder)
        sides = {"base": (base_python, base), "this": (sys.executable, ROOT)}
        print(f"compare: {' '.join(part)}, base {base_sha} against this {this_sha}, in pairs")
        pairs: list[dict[str, dict[str, float]]] = []
        for number in range(args.pairs):
            order = ["base", "this"] if number % 2 == 0 else ["this", "base"]
            pair: dict[str, dict[str, float]] = {}
            for side in order:
                python, app = sides[side]
                started = time.monotonic()
                found = run_side(python, app, harness, part, folder / "results")
                pair[side] = numbers(found)
                print(f"compare: pair {number + 1}, {side} in {time.monotonic() - started:.0f} s")
            pairs.append(pair)
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)
    rows = table(pairs)
    for name, row in rows.items():
        print(show(name, row))
    summary = {
        "part": part,
        "base": base_sha,
        "this": this_sha,
        "order": "alternating, base first in the first pair",
        "figures": rows,
    }
    saved = results.save(summary, "compare", sha=this_sha)
    print(f"saved: {saved}")
    print(json.dumps(summary))
