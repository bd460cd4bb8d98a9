"""The board read from a photo, and the legal play it shows (docs/api.md, docs/playing.md).

``reader`` finds the board in a photo and reads each square (OpenCV, and a small network run
by onnxruntime, its weights in ``model.onnx``); ``propose`` holds the reading against the game
and ranks the legal plays; ``render`` makes up photos of boards (training, tests, bench) and
``train`` trains the network on them.

These need the ``photo`` extra (``pip install -e ".[photo]"``): a server without it answers
the photo's routes 501 and its scorer page shows no camera button (``available``). Plain
Python: imports ``referee`` and nothing of Django.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from pathlib import Path

NEEDS = ("cv2", "onnxruntime", "numpy", "PIL")
UNAVAILABLE = (
    "This server reads no photos: its camera support (the photo extra: OpenCV and "
    "onnxruntime) is not installed."
)


@cache
def available() -> bool:
    """Whether this server can read photos: its packages installed and the network's weights
    there, found without importing them (OpenCV alone takes a tenth of a second to import)."""
    weights = Path(__file__).with_name("model.onnx")
    return weights.exists() and all(find_spec(name) is not None for name in NEEDS)
