"""Where the benchmark's figures are kept: var/bench/<date>-<sha>.json (var/ is git-ignored),
one file a run, with the machine and the revision they were measured on."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from bench.procs import machine
from bench.server import HARNESS, ROOT

# ``python -m bench compare`` keeps its runs' own files apart (BENCH_RESULTS_DIR).
FOLDER = Path(os.environ.get("BENCH_RESULTS_DIR") or HARNESS / "var" / "bench")


def revision(root: Path = ROOT) -> str:
    """The checkout's commit (short), with ``-dirty`` when it has uncommitted changes."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    sha = git("rev-parse", "--short=12", "HEAD") or "unknown"
    return sha + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def path_for(kind: str, day: datetime.date, sha: str, folder: Path = FOLDER) -> Path:
    """The file a run's figures go to: <date>-<sha>.json for the whole suite, with the kind
    after the sha for a part of it, and a number after a run already kept that day.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> path_for("suite", datetime.date(2026, 11, 27), "abc123", folder).name
    '2026-11-27-abc123.json'
    >>> _ = (folder / "2026-11-27-abc123.json").write_text("{}")
    >>> path_for("suite", datetime.date(2026, 11, 27), "abc123", folder).name
    '2026-11-27-abc123-2.json'
    >>> path_for("lighthouse", datetime.date(2026, 11, 27), "abc123", folder).name
    '2026-11-27-abc123-lighthouse.json'
    """
    stem = f"{day:%Y-%m-%d}-{sha}" + ("" if kind == "suite" else f"-{kind}")
    path, number = folder / f"{stem}.json", 1
    while path.exists():
        number += 1
        path = folder / f"{stem}-{number}.json"
    return path


def save(figures: dict[str, Any], kind: str, folder: Path = FOLDER, sha: str | None = None) -> Path:
    """Write ``figures`` with when, where and what was measured (``sha``: the revision, if not
    the checkout's as it is now); the file's path."""
    when = datetime.datetime.now(datetime.UTC)
    sha = sha or revision()
    path = path_for(kind, when.date(), sha, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "kind": kind,
        "revision": sha,
        "measured_at": when.isoformat(timespec="seconds"),
        "machine": machine(),
        "figures": figures,
    }
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path
