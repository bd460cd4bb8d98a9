"""The README's pictures: the scorer page on a phone, the spectator screen, the director's screen.

    make screenshots      (or: .venv/bin/python docs/screenshots.py)

Serves the app with ``manage.py runserver`` on a throwaway SQLite database, enters a few turns
of an Upwords game through the JSON API, sets up a club night of three tables, and has
Playwright drive Debian's Chromium (``/usr/bin/chromium``; never ``playwright install``) to
photograph each page into docs/img/: the phone at 390 px wide, the screens at 1280. Each PNG
is reduced to a palette of its own, as screenshots have few colours.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IMG = ROOT / "docs" / "img"
CHROMIUM = "/usr/bin/chromium"
PYTHON = sys.executable
PHONE = {"width": 390, "height": 844}
SPECTATOR = {"width": 1280, "height": 720}
DIRECTOR = {"width": 1280, "height": 480}  # the night's cards and standings, no more
# RULES.md's worked Upwords sequence, as tiles (row, column, letter): every score is known.
PLAYS = [
    [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")],
    [(5, 6, "E"), (6, 6, "A"), (7, 6, "R")],
    [(5, 5, "N"), (5, 7, "T")],
    [(4, 3, "W")],
    [(4, 6, "L"), (7, 6, "P")],
]
# The club night: three tables in play, each some PLAYS in.
CLUB_NIGHT = """
from scorekeeper.games import domain
from scorekeeper.models import Club
plays = {plays!r}
club = Club.objects.create(name="Riverside", slug="riverside")
tables = [(["Ann", "Ben"], 3), (["Cy", "Di"], 1), (["Ed", "Flo"], 4)]
club.roster.add(*(domain.player_named(n) for names, _ in tables for n in names))
for names, turns in tables:
    game = domain.check_create_game(ruleset="upwords-10", players=names, club=club)
    for tiles in plays[:turns]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=tiles))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def request(url: str, body: dict[str, Any] | None = None, token: str = "") -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=30) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped (exit {server.returncode})")
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)  # polling the server's start, not waiting for a result
    raise SystemExit("the server did not answer /healthz within 120 s")


def small_png(path: Path) -> None:
    """Rewrite a screenshot with a palette of at most 256 colours, which a page's few fit."""
    from PIL import Image

    with Image.open(path) as shot:
        reduced = shot.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    reduced.save(path, optimize=True)


def photograph(base: str, scorer_url: str, game: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        phone = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = phone.new_page()
        page.goto(scorer_url)
        # The next play of the sequence tapped in, so its words and score show before Submit.
        page.get_by_role("gridcell", name=re.compile("^F8")).click()
        page.keyboard.type("SNACK")
        page.get_by_text("SNACK").first.wait_for()
        page.screenshot(path=str(IMG / "scorer-phone.png"))
        phone.close()

        screen = browser.new_context(viewport=SPECTATOR, device_scale_factor=1)
        page = screen.new_page()
        page.goto(f"{base}/games/{game}/watch")
        page.get_by_text("Ben").first.wait_for()
        page.screenshot(path=str(IMG / "spectator.png"))
        page.set_viewport_size(DIRECTOR)
        page.goto(f"{base}/clubs/riverside/live")
        page.locator("article.live-card").nth(2).wait_for()
        page.screenshot(path=str(IMG / "director.png"))
        screen.close()
        browser.close()


def main() -> None:
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screenshots-") as scratch:
        # A fresh clone's settings on a database of its own: nothing of this machine's.
        env = {k: v for k, v in os.environ.items() if k not in ("LEXICON_DIR", "DATABASE_URL")}
        env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{scratch}/db.sqlite3")
        manage = [PYTHON, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        night = CLUB_NIGHT.format(plays=PLAYS)
        subprocess.run([*manage, "shell", "-c", night], cwd=ROOT, env=env, check=True)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [*manage, "runserver", "--noreload", f"127.0.0.1:{port}"], cwd=ROOT, env=env
        )
        try:
            wait_until_up(base, server)
            game = request(
                f"{base}/api/games/", {"ruleset": "upwords-10", "players": ["Ann", "Ben"]}
            )
            for tiles in PLAYS:
                request(
                    f"{base}/api/games/{game['id']}/turns/",
                    {
                        "action": "play",
                        "tiles": [{"row": r, "col": c, "letter": t} for r, c, t in tiles],
                    },
                    token=game["token"],
                )
            photograph(base, base + game["scorer_url"], game["id"])
        finally:
            server.terminate()
            server.wait(timeout=30)
    for name in ("scorer-phone.png", "spectator.png", "director.png"):
        small_png(IMG / name)
        print(f"docs/img/{name}: {(IMG / name).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
