"""What a page with a board costs the browser: its HTML bytes, its DOM nodes (the board's
apart) and Chromium's main-thread times (``Performance.getMetrics``), median of N loads.

    .venv/bin/python -m bench board-weight URL [LOADS]

URL is a page of a running server: a scorer link (``/games/<id>/score/<token>/``, opened
first so the browser holds the scorer's cookie), a spectator screen or a game page. Prints
one line of figures, then one JSON object as its last line. The times move with whatever
else the machine runs: compare before and after in turn, on a quiet machine.
"""

from __future__ import annotations

import json
import statistics
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# The nodes under an element (the page's, or the board's), text and comments included.
COUNT_NODES = """(selector) => { const root = selector ? document.querySelector(selector)
  : document; let n = 0; const w = document.createTreeWalker(root, NodeFilter.SHOW_ALL);
  while (w.nextNode()) n++; return n; }"""


def measure(url: str, loads: int = 9) -> dict[str, float]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        page.goto(url)  # the scorer's cookie, and the static files cached
        url = page.url.split("#")[0]
        html = page.goto(url).body()  # type: ignore[union-attr]
        runs = []
        for _ in range(loads):
            cdp.send("Performance.disable")  # the metrics count from here
            cdp.send("Performance.enable")
            page.goto(url)
            page.wait_for_load_state("load")
            metrics = cdp.send("Performance.getMetrics")["metrics"]
            runs.append({m["name"]: m["value"] for m in metrics})
        nodes = page.evaluate(COUNT_NODES, "")
        board = page.evaluate(COUNT_NODES, ".board")
        browser.close()

    def ms(name: str) -> float:
        return round(float(statistics.median(run[name] for run in runs)) * 1000, 1)

    return {
        "html_bytes": len(html),
        "dom_nodes": nodes,
        "board_nodes": board,
        "script_ms": ms("ScriptDuration"),
        "style_ms": ms("RecalcStyleDuration"),
        "layout_ms": ms("LayoutDuration"),
    }


def main(argv: list[str]) -> None:
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    figures = measure(argv[0], int(argv[1]) if len(argv) > 1 else 9)
    print(" ".join(f"{name}={value}" for name, value in figures.items()))
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1:])
