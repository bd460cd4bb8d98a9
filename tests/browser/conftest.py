"""Browser tests: Playwright drives Debian's Chromium against a live server.

They are marked ``browser``. Without /usr/bin/chromium they are skipped with a reason on a
developer's machine, and fail in CI (CI=true), where .ci/run installs Chromium.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# Words the journeys play; anything else is a phony.
WORDS = "MOOD DEAR WOOD WOOL TO OD AT NET ON HOUSE EXAM ZA AH HA OX JO QI"

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run should have installed Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still plain synchronous code, so Django's async-safety guard is lifted while they run.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture(autouse=True)
def journey_lexicon(use_words):
    return use_words(WORDS)


class Camera:
    """Takes each page at desktop and two phone sizes, in order, into var/screenshots/<journey>/."""

    def __init__(self, page: object, journey: str) -> None:
        self.page = page
        self.folder = SHOTS / journey
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.png"):
            old.unlink()
        self.count = 0

    def shoot(self, name: str) -> None:
        self.count += 1
        self.page.wait_for_load_state()  # type: ignore[attr-defined]
        for label, size in (("desktop", DESKTOP), ("small", SMALL), ("phone", PHONE)):
            self.page.set_viewport_size(size)  # type: ignore[attr-defined]
            # Nothing may make the page scroll sideways (wide tables scroll inside themselves).
            width = self.page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
            assert width <= size["width"], f"{name} is {width}px wide at {label} size"
            self.page.screenshot(  # type: ignore[attr-defined]
                path=str(self.folder / f"{self.count:02d}-{name}-{label}.png"), full_page=True
            )


@pytest.fixture
def page(browser: object, live_server: object) -> Iterator[object]:
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations
    # Every page of every journey keeps to the Content-Security-Policy: nothing refused.
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert not refused, refused


def assert_in_view(page: Any, locator: Any) -> None:
    """The element is drawn wholly inside the viewport (half a pixel of rounding allowed)."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{locator} is not rendered"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (locator, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5, (locator, box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (locator, box, size)
