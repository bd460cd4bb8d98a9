"""The benchmark's harness (bench/): one definition of each statistic, goal and piece of
set-up, and nothing borrowed from the tests. Its figures are not asserted: a benchmark prints."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench import compare, goals, results, stats, transport

ROOT = Path(__file__).resolve().parents[1]
BENCH = sorted((ROOT / "bench").glob("*.py"))


def defined(name_part: str) -> list[str]:
    """Where bench/ defines a function whose name contains ``name_part``."""
    return [
        f"{path.name}:{node.name}"
        for path in BENCH
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef) and name_part in node.name
    ]


def test_the_benchmark_has_one_percentile() -> None:
    assert defined("percentile") + defined("p90") + defined("p99") == ["stats.py:percentile"]


@pytest.mark.parametrize(
    ("values", "fraction", "expected"),
    [
        (range(1, 101), 0.99, 99),  # the 99th of 100
        (range(1, 101), 0.5, 50),
        (range(1, 51), 0.99, 50),  # of 50, the largest
        (range(1, 11), 0.9, 9),
        (range(1, 101), 0.07, 7),  # 0.07 * 100 is 7.000000000000001 in floating point
        ([5.0], 0.99, 5.0),
        ([3, 1, 2], 0.0, 1),  # the least, not an index below it
        ([3, 1, 2], 1.0, 3),
    ],
)
def test_a_percentile_is_the_nearest_rank(values: object, fraction: float, expected: float) -> None:
    assert stats.percentile(values, fraction) == expected  # type: ignore[arg-type]


def test_no_values_have_no_percentile() -> None:
    assert stats.percentile([], 0.99) is None
    assert stats.spread([]) is None
    assert stats.spread([4, 1, 3, 2]) == [1, 2, 4]


def test_the_goals_are_kept_in_one_table() -> None:
    kept = [
        f"{path.name}:{target.id}"
        for path in BENCH
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and "GOAL" in target.id
    ]
    assert kept == ["goals.py:GOALS"]


def test_a_goal_is_met_only_by_a_figure_within_it() -> None:
    assert goals.goals_met({"p99_turn_ms": 50, "poll_ratio": 0.79, "capacity_tables": None}) == {
        "poll_ratio": False,
        "p99_turn_ms": True,
        "capacity_tables": False,
    }


def test_every_goal_is_a_figure_the_suite_prints() -> None:
    from bench import run

    source = (ROOT / "bench" / "run.py").read_text()
    printed = {*run.MOVEGEN_FIGURES, *run.HTTP_FIGURES, *run.LONG_LOG_FIGURES, *run.EVENT_FIGURES}
    missing = [name for name in goals.GOALS if name not in printed and f'"{name}"' not in source]
    assert missing == []


def test_the_benchmark_imports_nothing_from_the_tests() -> None:
    found = [
        f"{path.name}:{node.lineno}"
        for path in BENCH
        for node in ast.walk(ast.parse(path.read_text()))
        if (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests"))
        or (isinstance(node, ast.Import) and any(a.name.startswith("tests") for a in node.names))
    ]
    assert found == []


def test_the_production_package_starts_no_benchmark_server() -> None:
    assert not (ROOT / "config" / "server.py").exists()


@pytest.mark.parametrize(
    "module", ["bench.loadgen", "bench.capacity_load", "bench.event_load", "bench.sequences"]
)
def test_the_load_generators_run_without_django(module: str) -> None:
    """They run in processes of their own, with no settings."""
    script = f"import sys, {module}; assert 'django' not in sys.modules, 'django'"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-500:]


def test_a_chunked_answer_is_read_whole_or_not_at_all() -> None:
    answer = bytearray(b"4\r\nWiki\r\n5;x=1\r\npedia\r\n0\r\n\r\nNEXT")
    assert transport.dechunk(answer, 0) == (b"Wikipedia", len(answer) - 4)
    assert transport.dechunk(bytearray(b"4\r\nWiki\r\n5\r\nped"), 0) is None


def test_a_request_is_written_as_the_server_reads_it() -> None:
    raw = transport.turn({"id": "g1", "token": "t0k"}, expected=3)
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"POST /api/games/g1/turns/ HTTP/1.1"
    assert b"Authorization: Bearer t0k" in head
    assert f"Content-Length: {len(body)}".encode() in head
    assert json.loads(body) == {"action": "exchange", "count": 1, "expected_turn": 3}
    assert transport.header(b'HTTP/1.1 200 OK\r\nETag: "x"\r\n', b"etag") == '"x"'


def test_results_go_to_a_file_named_by_date_and_revision(tmp_path: Path) -> None:
    saved = results.save({"p99_turn_ms": 12.5}, "suite", tmp_path)
    kept = json.loads(saved.read_text())
    assert saved.name == f"{kept['measured_at'][:10]}-{kept['revision']}.json"
    assert kept["figures"] == {"p99_turn_ms": 12.5} and kept["machine"]
    assert results.save({}, "suite", tmp_path).name.endswith("-2.json")  # never overwritten


def test_var_is_ignored_by_git() -> None:
    done = subprocess.run(
        ["git", "check-ignore", "var/bench/x.json", "var/lighthouse/node_modules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.stdout.split() == ["var/bench/x.json", "var/lighthouse/node_modules"]


def test_a_comparison_pairs_each_figure_and_its_ratio() -> None:
    pairs = [
        {"base": {"p99": 20.0, "per_s": 100}, "this": {"p99": 25.0, "per_s": 110}},
        {"base": {"p99": 30.0, "per_s": 100}, "this": {"p99": 27.0, "per_s": 90}},
        {"base": {"p99": 10.0, "per_s": 0}, "this": {"p99": 10.0, "per_s": 95}},
    ]
    rows = compare.table(pairs)
    assert rows["p99"] == {
        "pairs": [[20.0, 25.0], [30.0, 27.0], [10.0, 10.0]],
        "ratios": [1.25, 0.9, 1.0],
        "median_ratio": 1.0,
    }
    assert rows["per_s"]["ratios"] == [1.1, 0.9, None]  # no ratio to a base of 0
    assert compare.numbers({"a": 1, "b": True, "c": {"d": 2}, "e": 2.5}) == {"a": 1, "e": 2.5}


def test_the_event_bench_times_a_round_of_a_large_field() -> None:
    """The pairing figure, on a field just large enough to be paired as 300 are."""
    from bench import event

    assert event.pairing_ms(players=70) >= 0


def test_real_photos_are_read_against_what_their_boards_show(tmp_path: Path) -> None:
    # A rendered photo stands in for a real one: the bench reads any folder of photos, each
    # beside its board as written by hand, turned a quarter as a photo may show it.
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    from bench import photo_real
    from referee import RULESETS
    from scorekeeper.photo.render import render

    rules = RULESETS["crossword-classic"]
    tiles = {(7, 3 + i): letter for i, letter in enumerate("HOUSE")} | {(8, 7): "?"}
    (tmp_path / "board.jpg").write_bytes(render(8_300_000, rules, tiles).jpeg)
    rows = [["."] * 15 for _ in range(15)]
    for (r, c), tile in tiles.items():
        rows[c][14 - r] = tile  # the board as seen from its right-hand side
    rows[5][14 - 7] = "*"  # U: as a letter the reader has no class for, counted as a tile only
    (tmp_path / "board.txt").write_text("\n".join("".join(row) for row in rows) + "\n")
    (tmp_path / "empty.png").write_bytes(b"no photo")  # no board.txt beside it: not read
    figures = photo_real.run(tmp_path)
    assert figures["real_photos"] == 1 and figures["real_found_share"] == 1.0
    assert figures["real_occupancy_accuracy"] == 1.0
    assert figures["real_letter_accuracy"] == 1.0  # H, O, S, E and the blank


def test_real_photos_are_read_against_their_boards_kept_in_another_folder(tmp_path: Path) -> None:
    pytest.importorskip("cv2")
    pytest.importorskip("onnxruntime")
    from bench import photo_real
    from referee import RULESETS
    from scorekeeper.photo.render import render

    rules = RULESETS["crossword-classic"]
    tiles = {(7, 5 + i): letter for i, letter in enumerate("WORD")}
    photos, truths = tmp_path / "photos", tmp_path / "truths"
    photos.mkdir()
    truths.mkdir()
    (photos / "board.jpg").write_bytes(render(8_300_004, rules, tiles).jpeg)
    (photos / "other.jpg").write_bytes(render(8_300_008, rules, {}).jpeg)  # no board written
    rows = [["."] * 15 for _ in range(15)]
    for (r, c), tile in tiles.items():
        rows[r][c] = tile
    (truths / "board.txt").write_text("\n".join("".join(row) for row in rows) + "\n")
    figures = photo_real.run(photos, truths)
    assert figures["real_photos"] == 1 and figures["real_letter_accuracy"] == 1.0
    with pytest.raises(SystemExit):
        photo_real.run(photos, tmp_path / "elsewhere")


def test_every_real_board_kept_is_named_in_its_sources_and_well_formed() -> None:
    import re

    from bench.photo_real import _truth

    folder = Path(__file__).resolve().parent.parent / "bench" / "real_boards"
    sources = (folder / "SOURCES.md").read_text()
    rows = re.findall(
        r"^\| ([\w-]+) \| ([\w.-]+/[\w.-]+) \| ([0-9a-f]{40}) \| (\S+) \|", sources, re.M
    )
    named = {name for name, *_ in rows}
    boards = {path.stem for path in folder.glob("*.txt")}
    assert boards and boards == named and len(rows) == len(named)
    for board in boards:
        truth = _truth(folder / f"{board}.txt")
        assert len(truth) == 15
        assert all(re.fullmatch(r"[.A-Z?*#]{15}", row) for row in truth), board
