"""What the browser tests share: the screen sizes, the journeys' words, a camera that saves
each page at every size, and a check that an element is wholly on screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# Words the journeys play; anything else is a phony.
WORDS = "MOOD DEAR WOOD WOOL TO OD AT NET ON HOUSE EXAM ZA AH HA OX JO QI"


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


def assert_in_view(page: Any, locator: Any) -> None:
    """The element is drawn wholly inside the viewport (half a pixel of rounding allowed)."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{locator} is not rendered"
    assert box["x"] >= -0.5 and box["y"] >= -0.5, (locator, box)
    assert box["x"] + box["width"] <= size["width"] + 0.5, (locator, box, size)
    assert box["y"] + box["height"] <= size["height"] + 0.5, (locator, box, size)
