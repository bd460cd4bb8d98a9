"""Train the square reader (``model.onnx``) on made-up photos (``render``).

    python -m scorekeeper.photo.train [--boards 2500] [--epochs 8] [--seed 3] [--jobs 2]
                                      [--threads 1] [--steep 0] [--dim 0] [--low 0.2]
                                      [--facing 0] [--low-facing 0] [--cache FILE] [--out FILE]

(the weights in the repository: those defaults, on two threads, from the boards drawn before
the low ones' tops grew off with their distance from the camera and a steep view was drawn in
perspective (as at 6cb8b8c): trained on the boards drawn now, each of three runs read the boards
seen from low down better and the others worse; ``--steep``, ``--dim``,
``--low`` and ``--facing`` render that share of the boards seen from well to the side, in a
dark room, from low down, and with each tile laid facing one of the board's sides;
``--low-facing``, that share of the boards seen from low down with their tiles so laid). Needs
PyTorch and onnx, which the app itself never does, in a venv of its own outside the
repository, with the packages the renderer needs at the project's locked versions::

    python3.11 -m venv /tmp/trainvenv
    /tmp/trainvenv/bin/pip install torch==2.13.0 onnx marisa-trie==1.4.1 \
        opencv-python-headless==5.0.0.93 pillow==13.0.0
    PYTHONPATH=. nice -n 19 /tmp/trainvenv/bin/python -m scorekeeper.photo.train --threads 2

(torch 2.13.0 is the CPU build here). On a 2-core Intel Xeon it took 45 minutes: 17 to render
the 420,000 squares (two processes), then about 3½ minutes a pass over them on two threads;
``--cache`` keeps the squares in an .npz file for another run. Boards for training
are rendered from seeds ``seed * 1_000_000 + i`` (``--seed`` 0 to 7, refused where they would
reach ``render.VALIDATION``, 8,000,000: the reader's tests and the renders its geometry was
mended on); the bench's held-out boards start at ``render.HELD_OUT`` (9,000,000), and only
those letter tiles in the fonts kept back.
Each square is cut where the photo's true grid lies, moved by up to a tenth of a square (the
board finder's error), so the network learns to read a square that is not quite centred; in a
board seen from low down, where its tiles' tops lie (``render.LOW_TOPS`` at the centre, further
off the further from the camera), give or take an eighth of a square, as far as
``flat.REACH``: the reader cuts the squares where it finds the tops (``flat.tops``), so the
network learns a letter above a tall tile's side, and the sides alone below it as empty
squares. With ``--facing``, a tile laid facing another side than the
board's foot is learned as seen turned (``TURNED``) where the photo shows it so, its side and
shadow where the view puts them (a cut turned round, as a third are, turns those too). On top
of the rendered light, each batch is recoloured (a cast, brightness, contrast), blurred or
sharpened and made grainy, so that no one rendering's look is learned.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from referee import get_ruleset
from scorekeeper.photo.flat import (
    CONTEXT,
    CUT,
    REACH,
    SQUARE,
    cuts,
    for_network,
    seen_at,
    spread_out,
    straighten,
)
from scorekeeper.photo.reader import MODEL, decode
from scorekeeper.photo.render import VALIDATION, low_tops, random_tiles, render
from scorekeeper.photo.squares import CLASSES, OUTPUTS, TURNED

RULESETS = ["crossword-classic"] * 3 + ["upwords-10", "upwords-8"]
# Letters that look the same a quarter turn round, and half a turn round: those keep their
# letter when turned; every other letter turned is TURNED (how the reader tells the way up).
SAME_TURNED = {1: "OX", 2: "HINOSXZ", 3: "OX"}
EMPTY_SHARE = 0.4  # of the empty squares, seen in each pass
LOW = 0.2  # of the boards, seen from low down (``render.LOW_TOPS``)
FACING = 0.0  # of the boards, each tile laid facing one of the board's sides
# A cut's label is its class plus this times the quarter turns anticlockwise its tile is laid.
LAID = 32
TURNED_ROUND = 0.33  # of the cuts in each pass, turned round
LOW_FACING = 0.0  # of the boards seen from low down, each tile laid facing a side


def board_cuts(
    seed: int,
    steep: float = 0.0,
    dim: float = 0.0,
    low: float = LOW,
    facing: float = FACING,
    low_facing: float = LOW_FACING,
) -> tuple[Any, Any]:
    """The cuts of one made-up photo's squares (as bytes) and their labels (class and way laid,
    ``LAID``); ``steep``, ``dim``, ``low`` and ``facing``: the chances that it is taken from
    well to the side, in a dark room, from low down (each tile's top seen well off its square,
    where it is cut), and with each tile laid facing one of the board's sides; ``low_facing``,
    that a board seen from low down has its tiles laid so."""
    rng = random.Random(seed)
    ruleset = get_ruleset(rng.choice(RULESETS))
    n = ruleset.size
    fill = rng.uniform(0.0, 0.6) if rng.random() < 0.9 else 0.0
    tiles = random_tiles(rng, ruleset, fill, blanks=None)
    if ruleset.family == "crossword":
        # Twice the blanks the boards are drawn with: a plain face is what tells a tile from a
        # square, and too few are drawn to learn it from (a stream of its own: the photos drawn
        # are otherwise the same).
        more = random.Random(f"{seed}/blanks")
        tiles = {square: "?" if more.random() < 0.03 else tile for square, tile in tiles.items()}
    # Drawn only when asked for: the default run renders exactly the committed weights' boards.
    seen_steep = steep > 0 and rng.random() < steep
    seen_dim = dim > 0 and rng.random() < dim
    below = random.Random(f"{seed}/low")
    tops = low_tops(below) if low > 0 and below.random() < low else None
    faced = facing > 0 and random.Random(f"{seed}/facing").random() < facing
    if tops is not None and low_facing > 0:
        faced = faced or random.Random(f"{seed}/low facing").random() < low_facing
    photo = render(
        seed,
        ruleset,
        tiles,
        facing=faced,
        steep=seen_steep or tops is not None,
        dim=seen_dim,
        tops=tops,
    )
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
    if tops is None:
        x = cuts(straighten(rgb, corners, n), n)
    else:
        # Cut where the reader looks for the tops (``flat.tops``): towards the far side in
        # steps, so up to a few pixels either way off where they are.
        off = np.rint([below.uniform(-0.12, 0.12) * SQUARE for _ in tops]).astype(np.int32)
        offsets = spread_out(n, tops[0] * SQUARE, tops[1] * SQUARE, photo.spread)
        offsets = np.clip(offsets + off, -REACH, REACH)
        x = for_network(seen_at(straighten(rgb, corners, n, CONTEXT + REACH), n, offsets, REACH))
    labels = np.zeros(n * n, np.int64)
    for (r, c), tile in tiles.items():
        # The Qu tile reads as its Q: the reader names letters, the game knows it is a Qu.
        labels[r * n + c] = CLASSES.index(tile[0] if tile != "?" else "?")
        labels[r * n + c] += LAID * photo.laid.get((r, c), 0)
    # Kept as bytes: a tenth of the memory of floats.
    return np.clip((x + 0.5) * 255 + 0.5, 0, 255).astype(np.uint8), labels


def _width(jpeg: bytes) -> int:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(jpeg)) as image:
        return int(image.size[0])


def turned(x: Any, y: Any) -> tuple[Any, Any]:
    """A share of the squares (``TURNED_ROUND``) turned a quarter, half or three quarters
    round (a cut holds a square and the edges of its neighbours: as the whole board turned),
    and each labelled as it is then seen (``as_seen``)."""
    import torch

    x = x.clone()
    turns = torch.randint(1, 4, (len(x),)) * (torch.rand(len(x)) < TURNED_ROUND)
    for k in (1, 2, 3):
        chosen = turns == k
        if chosen.any():
            x[chosen] = torch.rot90(x[chosen], k, dims=(2, 3))
    return x, torch.from_numpy(as_seen(y.numpy(), turns.numpy()))


def as_seen(y: Any, turns: Any) -> Any:
    """The classes of cuts labelled ``y`` (class and way laid, ``LAID``) turned ``turns``
    quarter turns anticlockwise: a letter seen turned is ``TURNED``, unless it looks the same
    that way round (``SAME_TURNED``)."""
    y, turns = np.asarray(y), np.asarray(turns)
    classes, seen = y % LAID, (y // LAID + turns) % 4
    same = np.zeros((4, OUTPUTS), bool)
    same[0] = True
    for k, letters in SAME_TURNED.items():
        same[k, [CLASSES.index(letter) for letter in letters]] = True
    is_letter = (classes >= 1) & (classes <= 26)
    return np.where(is_letter & ~same[seen, classes], TURNED, classes)


def augmented(x: Any) -> Any:
    """Cuts recoloured, blurred or sharpened, and grainy, each its own way."""
    import torch
    import torch.nn.functional as F

    n = len(x)
    gain = torch.empty(n, 3, 1, 1).uniform_(0.8, 1.2) * torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.3)
    x = (x - mean) * contrast + mean
    x = (x + 0.5) * gain - 0.5 + torch.empty(n, 1, 1, 1).uniform_(-0.1, 0.1)
    kernel = torch.tensor([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=x.dtype) / 16
    blurred = F.conv2d(
        F.pad(x, (1, 1, 1, 1), mode="replicate"), kernel.expand(3, 1, 3, 3), groups=3
    )
    # Between sharpened (-1) and blurred (+1).
    amount = torch.empty(n, 1, 1, 1).uniform_(-0.8, 1.0)
    x = x + amount * (blurred - x)
    x = x + torch.randn_like(x) * torch.empty(n, 1, 1, 1).uniform_(0, 0.04)
    return x.clamp(-0.6, 0.6)


def network() -> Any:
    import torch.nn as nn

    def block(inputs: int, outputs: int) -> list[Any]:
        return [nn.Conv2d(inputs, outputs, 3, padding=1), nn.BatchNorm2d(outputs), nn.ReLU()]

    return nn.Sequential(
        *block(3, 16),
        nn.MaxPool2d(2),
        *block(16, 32),
        nn.MaxPool2d(2),
        *block(32, 64),
        nn.MaxPool2d(2),
        *block(64, 128),
        nn.Flatten(),
        nn.Dropout(0.2),
        nn.Linear(128 * (CUT // 8) ** 2, 192),
        nn.ReLU(),
        nn.Dropout(0.2),
        nn.Linear(192, OUTPUTS),
    )


def squares(
    boards: int,
    seed: int,
    jobs: int,
    steep: float = 0.0,
    dim: float = 0.0,
    low: float = LOW,
    facing: float = FACING,
    low_facing: float = LOW_FACING,
) -> tuple[Any, Any]:
    """The rendered squares of ``boards`` boards, as bytes, and their labels."""
    seeds = [seed * 1_000_000 + i for i in range(boards)]
    if not 0 <= seeds[0] <= seeds[-1] < min(VALIDATION, (seed + 1) * 1_000_000):
        raise SystemExit(f"seeds {seeds[0]}-{seeds[-1]} would reach the held-out ones")
    if jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(jobs) as pool:
            found = pool.starmap(
                board_cuts, [(s, steep, dim, low, facing, low_facing) for s in seeds], chunksize=4
            )
    else:
        found = [board_cuts(s, steep, dim, low, facing, low_facing) for s in seeds]
    return np.concatenate([x for x, _ in found]), np.concatenate([y for _, y in found])


def main() -> None:
    import torch

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=2500)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="processes rendering")
    parser.add_argument("--threads", type=int, default=1, help="threads training")
    parser.add_argument("--steep", type=float, default=0.0, help="share of boards seen steeply")
    parser.add_argument("--dim", type=float, default=0.0, help="share of boards in a dark room")
    parser.add_argument("--low", type=float, default=LOW, help="share of boards seen from low")
    parser.add_argument("--facing", type=float, default=FACING, help="share of boards facing")
    parser.add_argument(
        "--low-facing", type=float, default=LOW_FACING, help="share of low boards facing"
    )
    parser.add_argument("--cache", help="an .npz file to keep the rendered squares in")
    parser.add_argument("--out", default=str(MODEL), help="where the weights go")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    started = time.monotonic()
    if args.cache and Path(args.cache).exists():
        kept = np.load(args.cache)
        pixels, classes = kept["x"], kept["y"]
    else:
        pixels, classes = squares(
            args.boards,
            args.seed,
            args.jobs,
            args.steep,
            args.dim,
            args.low,
            args.facing,
            args.low_facing,
        )
        if args.cache:
            np.savez(args.cache, x=pixels, y=classes)
    data, labels = torch.from_numpy(pixels), torch.from_numpy(classes)
    print(f"{len(data)} squares in {time.monotonic() - started:.0f} s", flush=True)
    model = network()
    empty = labels == 0
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * (int((~empty).sum() + EMPTY_SHARE * 1.05 * empty.sum()) // 128 + 2)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps)
    loss_of = torch.nn.CrossEntropyLoss(label_smoothing=0.05, reduction="none")
    for epoch in range(args.epochs):
        model.train()
        # Each pass sees every tile and a share of the empty squares (most of a board), their
        # loss weighed up by as much, so that empty stays as likely as it is on a board.
        chosen = torch.nonzero(~empty | (torch.rand(len(data)) < EMPTY_SHARE)).ravel()
        order = chosen[torch.randperm(len(chosen))]
        total, right = 0.0, 0
        for start in range(0, len(order), 128):
            batch = order[start : start + 128]
            x = data[batch].float() / 255.0 - 0.5
            x, y = turned(augmented(x), labels[batch])
            logits = model(x)
            weight = torch.where(y == 0, 1 / EMPTY_SHARE, 1.0)
            loss = (loss_of(logits, y) * weight).sum() / weight.sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(x)
            right += int((logits.argmax(1) == y).sum())
        print(
            f"epoch {epoch + 1}: loss {total / len(order):.4f}, right {right / len(order):.4f}, "
            f"{time.monotonic() - started:.0f} s",
            flush=True,
        )
    model.eval()
    torch.onnx.export(
        model,
        (torch.zeros(1, 3, CUT, CUT),),
        args.out,
        input_names=["cuts"],
        output_names=["logits"],
        dynamic_axes={"cuts": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} kB)")


if __name__ == "__main__":
    main()
