"""The pages as a phone on a slow network sees them: Lighthouse on the scorer page, the game
page and the spectator screen of a 15×15 game in play.

    python -m bench lighthouse [--runs 3] [--pages scorer,game,spectator] [--keep DIR]
    (or: make lighthouse)

The server is ``make serve``'s (bench/server.py's ``served``, static files collected as
``make serve`` collects them) on a throwaway database; the game is a crossword game of a few
plays, made through the API. Lighthouse (the npm package, pinned below) runs with node and
Debian's Chromium (CHROME_PATH, headless), its mobile preset and simulated throttling (a slow
4G network and a 4× slower CPU, worked out from one unthrottled load), its performance and
accessibility categories. It is installed from the npm registry into var/lighthouse/
(git-ignored) on first use; nothing is fetched while it measures. Not part of ``make test``: it
needs node, npm and Chromium.

Printed as one JSON object, for each page the median of ``--runs`` runs: the performance and
accessibility scores (0-100), first contentful paint, largest contentful paint and total
blocking time (ms), cumulative layout shift, the bytes transferred in all and the HTML
document's, and how many elements fail ``label-content-name-mismatch`` (a control whose
accessible name doesn't contain its visible text); and whether Chromium finds the page
installable (its own check, ``Page.getInstallabilityErrors``, which Lighthouse 12 no longer
runs): the errors it names, none when it is. Also kept in
var/bench/<date>-<sha>-lighthouse.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench import results
from bench.procs import machine
from bench.server import HARNESS, manage, served, server_env
from bench.transport import call, create_game

VERSION = "12.8.2"  # the last Lighthouse that runs on Debian's node 20
FOLDER = HARNESS / "var" / "lighthouse"
CLI = FOLDER / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = "/usr/bin/chromium"
# A few plays of the crossword game, as API tiles (row and column from 0): HOUSE at 8D, then
# EXAM down through its E, then ZA across under the X.
PLAYS = [
    [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")],
    [(8, 7, "X"), (9, 7, "A"), (10, 7, "M")],
]
METRICS = {
    "first_contentful_paint_ms": "first-contentful-paint",
    "largest_contentful_paint_ms": "largest-contentful-paint",
    "total_blocking_time_ms": "total-blocking-time",
    "transfer_bytes": "total-byte-weight",
    "cumulative_layout_shift": "cumulative-layout-shift",
}
DIGITS = {"cumulative_layout_shift": 3}  # the others in whole units


def install(say: Any = print) -> Path:
    """Lighthouse's command line, installed into var/lighthouse/ if it is not there yet."""
    if not CLI.exists():
        if not shutil.which("npm"):
            raise RuntimeError("Lighthouse needs node and npm (apt-get install nodejs npm)")
        say(f"lighthouse: installing lighthouse@{VERSION} into {FOLDER} (once)")
        FOLDER.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(FOLDER), "--no-audit", "--no-fund",
             "--loglevel=error", f"lighthouse@{VERSION}"],
            check=True,
        )  # fmt: skip
    return CLI


def game_in_play(port: int) -> dict[str, Any]:
    """A crossword game with the plays of PLAYS entered: its id and scorer token."""
    game = create_game(port, "CSW19", ruleset="crossword-classic")
    for number, play in enumerate(PLAYS, start=1):
        body = {
            "action": "play",
            "tiles": [{"row": r, "col": c, "letter": t} for r, c, t in play],
            "expected_turn": number,
        }
        status, data = call(port, "POST", f"/api/games/{game['id']}/turns/", body, game["token"])
        if status != 201:
            raise RuntimeError(f"a play was refused: {status} {data[:300]!r}")
    return game


def measure(
    cli: Path, url: str, headers: dict[str, str], scratch: Path, keep: Path | None = None
) -> dict[str, float]:
    """One Lighthouse run on ``url``: the figures of METRICS and the HTML's bytes; its whole
    report copied to ``keep`` if given."""
    extra = scratch / "headers.json"
    extra.write_text(json.dumps(headers))
    report = scratch / "report.json"
    done = subprocess.run(
        [
            "node", str(cli), url,
            "--quiet", "--output=json", f"--output-path={report}",
            "--only-categories=performance,accessibility",
            "--form-factor=mobile", "--throttling-method=simulate",
            "--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage",
            f"--extra-headers={extra}",
        ],
        env={**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)},
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    if done.returncode != 0 or not report.exists():
        said = done.stderr[-2000:]
        raise RuntimeError(f"lighthouse failed on {url} ({done.returncode}):\n{said}")
    found = json.loads(report.read_text())
    if keep is not None:
        keep.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(report, keep)
    report.unlink()
    if found.get("runtimeError"):
        raise RuntimeError(f"lighthouse on {url}: {found['runtimeError']}")
    audits = found["audits"]
    figures = {name: float(audits[audit]["numericValue"]) for name, audit in METRICS.items()}
    requests = audits["network-requests"]["details"]["items"]
    documents = [r for r in requests if r.get("resourceType") == "Document"]
    if [r.get("statusCode") for r in documents] != [200]:
        raise RuntimeError(f"lighthouse on {url}: the page answered {documents}")
    missing = [r["url"] for r in requests if r.get("statusCode", 200) >= 400]
    if missing:  # a stylesheet or script not served would flatter every figure
        raise RuntimeError(f"lighthouse on {url}: not served: {missing}")
    figures["html_bytes"] = float(documents[0].get("transferSize", 0))
    for category in ("performance", "accessibility"):
        figures[f"{category}_score"] = 100 * float(found["categories"][category]["score"])
    mismatch = audits["label-content-name-mismatch"]
    failed = mismatch.get("score") == 0
    figures["label_content_name_mismatch"] = len(mismatch["details"]["items"]) if failed else 0
    return figures


# The page's service worker active, or ten seconds gone (a page that registers none).
WORKER_READY = """navigator.serviceWorker && Promise.race([
  navigator.serviceWorker.ready, new Promise(function (done) { setTimeout(done, 10000); })
]).then(function () { return true; })"""


def installability(url: str, headers: dict[str, str]) -> list[str]:
    """What Chromium says keeps ``url`` from being installed as an app (none: installable),
    once the page's service worker controls it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver, tempfile.TemporaryDirectory(prefix="bench-") as profile:
        # A profile of its own: a browser's private window installs nothing.
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=["--no-sandbox"], extra_http_headers=headers
        )
        try:
            page = context.new_page()
            page.goto(url, wait_until="load")
            page.evaluate(WORKER_READY)
            page.reload(wait_until="load")  # now controlled by it
            session = context.new_cdp_session(page)
            errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        finally:
            context.close()
    return [error["errorId"] for error in errors]


def run(
    runs: int = 3, say: Any = print, only: tuple[str, ...] = (), keep: Path | None = None
) -> dict[str, Any]:
    cli = install(say)
    pages: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as scratch:
        # Before the server starts: WhiteNoise lists the files it serves as it starts.
        env = server_env(f"sqlite:///{scratch}/unused.sqlite3", Path(scratch), 0)
        manage(env, "collectstatic", "--noinput", "-v0")
    with served("bench-lighthouse-", os.environ.get("DATABASE_URL")) as run_on:
        game = game_in_play(run_on.port)
        base = f"http://127.0.0.1:{run_on.port}/games/{game['id']}"
        cookie = {"Cookie": f"scorer_{game['id'].replace('-', '')}={game['token']}"}
        urls = {
            "scorer": (f"{base}/score/", cookie),
            "game": (f"{base}/", {}),
            "spectator": (f"{base}/watch", {}),
        }
        with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as scratch:
            for page, (url, headers) in urls.items():
                if only and page not in only:
                    continue
                kept = keep / f"{page}.json" if keep is not None else None
                found = [measure(cli, url, headers, Path(scratch), kept) for _ in range(runs)]
                pages[page] = {
                    name: round(statistics.median(f[name] for f in found), DIGITS.get(name))
                    for name in found[0]
                }
                pages[page]["installability_errors"] = installability(url, headers)
                say(f"lighthouse {page}: {pages[page]}")
    return {
        "lighthouse": VERSION,
        "preset": "mobile, simulated throttling",
        "categories": "performance, accessibility",
        "runs": runs,
        "machine": machine(),
        "pages": pages,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench lighthouse", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--runs", type=int, default=3, help="runs a page, the median taken")
    parser.add_argument(
        "--pages", default="scorer,game,spectator", help="the pages to measure, by name"
    )
    parser.add_argument(
        "--keep", type=Path, help="a folder for each page's last Lighthouse report (JSON)"
    )
    args = parser.parse_args(argv)
    figures = run(args.runs, only=tuple(args.pages.split(",")), keep=args.keep)
    print(f"saved: {results.save(figures, 'lighthouse')}")
    print(json.dumps(figures))
