"""Train the square reader (``model.onnx``) on made-up photos (``render``).

    python -m scorekeeper.photo.train [--boards 400] [--epochs 6] [--seed 2] [--cache FILE]

(the weights in the repository: exactly those defaults). Needs PyTorch and onnx, which the app
itself never does: ``pip install torch==2.13.0 onnx`` (the CPU build) in a venv of its own,
beside the project's packages, run with the repository on PYTHONPATH. About 5 minutes to
render the squares and 1 to 3 a pass over them on one core; ``--cache`` keeps the squares in
an .npz file for another run. Boards for training are rendered from seeds
``seed * 1_000_000 + i``; the bench's held-out boards start at 9,000,000.
Each square is cut where the photo's true grid lies, moved by up to a tenth of a square (the
board finder's error), so the network learns to read a square that is not quite centred.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from referee import get_ruleset
from scorekeeper.photo.reader import CLASSES, CUT, MODEL, OUTPUTS, TURNED, cuts, decode, straighten
from scorekeeper.photo.render import random_tiles, render

RULESETS = ["crossword-classic"] * 3 + ["upwords-10", "upwords-8"]
# Letters that look the same a quarter turn round, and half a turn round: those keep their
# letter when turned; every other letter turned is TURNED (how the reader tells the way up).
SAME_TURNED = {1: "OX", 2: "HINOSXZ", 3: "OX"}


def board_cuts(seed: int) -> tuple[Any, Any]:
    """The cuts of one made-up photo's squares and their classes."""
    rng = random.Random(seed)
    ruleset = get_ruleset(rng.choice(RULESETS))
    n = ruleset.size
    tiles = random_tiles(rng, ruleset, rng.uniform(0.0, 0.6) if rng.random() < 0.9 else 0.0)
    photo = render(seed, ruleset, tiles)
    rgb = decode(photo.jpeg)
    scale = rgb.shape[1] / _width(photo.jpeg)
    pitch = abs(photo.corners[1][0] - photo.corners[0][0]) / n
    corners = np.array(
        [
            (
                x * scale + rng.uniform(-0.1, 0.1) * pitch * scale,
                y * scale + rng.uniform(-0.1, 0.1) * pitch * scale,
            )
            for x, y in photo.corners
        ],
        np.float32,
    )
    x = cuts(straighten(rgb, corners, n), n)
    labels = np.zeros(n * n, np.int64)
    for (r, c), tile in tiles.items():
        # The Qu tile reads as its Q: the reader names letters, the game knows it is a Qu.
        labels[r * n + c] = CLASSES.index(tile[0] if tile != "?" else "?")
    return x, labels


def _width(jpeg: bytes) -> int:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(jpeg)) as image:
        return int(image.size[0])


def turned(x: Any, y: Any) -> tuple[Any, Any]:
    """A third of the squares turned a quarter, half or three quarters round (a cut holds a
    square and the edges of its neighbours: as the whole board turned), relabelled."""
    import torch

    x, y = x.clone(), y.clone()
    turns = torch.randint(1, 4, (len(x),)) * (torch.rand(len(x)) < 0.33)
    for k in (1, 2, 3):
        chosen = turns == k
        if not chosen.any():
            continue
        x[chosen] = torch.rot90(x[chosen], k, dims=(2, 3))
        letters = y[chosen]
        keep = torch.tensor([CLASSES[int(v)] in SAME_TURNED[k] for v in letters], dtype=torch.bool)
        is_letter = (letters >= 1) & (letters <= 26)
        letters[is_letter & ~keep] = TURNED
        y[chosen] = letters
    return x, y


def network() -> Any:
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.BatchNorm2d(32),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1),
        nn.BatchNorm2d(64),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(64 * (CUT // 8) ** 2, 128),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(128, OUTPUTS),
    )


def main() -> None:
    import torch

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--cache", help="an .npz file to keep the rendered squares in")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    started = time.monotonic()
    if args.cache and Path(args.cache).exists():
        kept = np.load(args.cache)
        data, labels = torch.from_numpy(kept["x"]), torch.from_numpy(kept["y"])
    else:
        xs, ys = [], []
        for i in range(args.boards):
            x, y = board_cuts(args.seed * 1_000_000 + i)
            xs.append(x)
            ys.append(y)
        data = torch.from_numpy(np.concatenate(xs))
        labels = torch.from_numpy(np.concatenate(ys))
        if args.cache:
            np.savez(args.cache, x=data.numpy(), y=labels.numpy())
    print(f"{len(data)} squares in {time.monotonic() - started:.0f} s")
    model = network()
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * (len(data) // 128 + 1)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps)
    loss_of = torch.nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        order = torch.randperm(len(data))
        total, right = 0.0, 0
        for start in range(0, len(data), 128):
            batch = order[start : start + 128]
            x, y = data[batch], labels[batch]
            # Brightness and contrast jitter on top of the rendered light.
            x = x * torch.empty(len(x), 1, 1, 1).uniform_(0.8, 1.2) + torch.empty(
                len(x), 1, 1, 1
            ).uniform_(-0.1, 0.1)
            x, y = turned(x, y)
            logits = model(x)
            loss = loss_of(logits, y)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(x)
            right += int((logits.argmax(1) == y).sum())
        print(
            f"epoch {epoch + 1}: loss {total / len(data):.4f}, right {right / len(data):.4f}, "
            f"{time.monotonic() - started:.0f} s",
            flush=True,
        )
    model.eval()
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, CUT, CUT),),
        str(MODEL),
        input_names=["cuts"],
        output_names=["logits"],
        dynamic_axes={"cuts": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {MODEL} ({MODEL.stat().st_size // 1024} kB)")


if __name__ == "__main__":
    main()
