"""The app's icons for a phone's home screen (static/icons/, named in the web app manifest).

    .venv/bin/python docs/icons.py

A tile on the app's dark ground: a cream square with a bold "S" and its value, drawn with
Pillow at 192 and 512 px. Maskable: the ground fills the whole square, and the tile sits in
the middle 60%, inside the circle a launcher's mask keeps (80% of the width).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
GROUND = "#1d2433"  # --ink, the site's header
TILE = "#f3d9a4"  # --tile
TILE_INK = "#3a2a10"  # --tile-ink
EDGE = "#b0412e"  # --accent
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def icon(size: int) -> Image.Image:
    image = Image.new("RGB", (size, size), GROUND)
    draw = ImageDraw.Draw(image)
    side = round(size * 0.6)
    left = (size - side) // 2
    box = (left, left, left + side, left + side)
    draw.rounded_rectangle(box, radius=side // 9, fill=TILE, outline=EDGE, width=max(2, size // 64))
    letter = ImageFont.truetype(FONT, round(side * 0.62))
    draw.text((size / 2, size / 2), "S", font=letter, fill=TILE_INK, anchor="mm")
    value = ImageFont.truetype(FONT, round(side * 0.2))
    corner = (left + side * 0.86, left + side * 0.86)
    draw.text(corner, "1", font=value, fill=TILE_INK, anchor="rs")
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size).save(OUT / f"icon-{size}.png", optimize=True)
        print(OUT / f"icon-{size}.png")


if __name__ == "__main__":
    main()
