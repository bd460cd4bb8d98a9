"""The spectator's live part, shared by a server's processes (``LIVE_PARTS_DIR``): drawn by the
first that wants it, read by the others; a shortcut that, failing, changes nothing shown."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.sequences import HASBRO
from scorekeeper.games import domain
from scorekeeper.web import live_parts
from tests.factories import EAR, HOUSE, L_AND_P, L_ON_D, MOOD, N_T, W_ON_M, new_game

pytestmark = pytest.mark.django_db

LIVE = "table/_live.html"


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The templates rendered, as they are; this process's parts forgotten before and after."""
    drawn: list[str] = []
    render = live_parts.render_to_string

    def counted(name: str, *args: object, **kwargs: object) -> str:
        drawn.append(name)
        return render(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(live_parts, "render_to_string", counted)
    live_parts.rendered_parts.parts.clear()
    yield drawn
    live_parts.rendered_parts.parts.clear()
    live_parts.rendered_parts._off_until = 0.0


def another_process() -> None:
    """What another worker has: none of this process's parts, the same shared folder."""
    live_parts.rendered_parts.parts.clear()


def test_a_part_drawn_by_one_process_is_read_by_the_others(settings, tmp_path, renders):
    settings.LIVE_PARTS_DIR = str(tmp_path / "parts")
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    first = live_parts.live_part(game.pk)
    assert first is not None and "Last play: Ann" in first
    another_process()
    assert live_parts.live_part(game.pk) == first
    assert renders == [LIVE]  # drawn once, for both processes

    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[1][0]))
    another_process()
    second = live_parts.live_part(game.pk)
    assert second is not None and "Last play: Ben" in second  # a change: drawn again, once
    another_process()
    assert live_parts.live_part(game.pk) == second
    assert renders == [LIVE, LIVE]


def test_without_a_shared_folder_each_process_draws_its_own(settings, renders):
    settings.LIVE_PARTS_DIR = ""
    game = new_game()
    first = live_parts.live_part(game.pk)
    assert live_parts.live_part(game.pk) == first and renders == [LIVE]  # kept in the process
    another_process()
    assert live_parts.live_part(game.pk) == first
    assert renders == [LIVE, LIVE]


def test_a_shared_folder_that_fails_is_let_be_and_the_part_drawn_here(
    settings, tmp_path: Path, renders, caplog
):
    not_a_folder = tmp_path / "parts"
    not_a_folder.write_text("a file where the folder should be")
    settings.LIVE_PARTS_DIR = str(not_a_folder)
    game = new_game()
    shown = live_parts.live_part(game.pk)
    assert shown is not None and "Ann" in shown
    assert "could not be read: not used for a minute" in caplog.text
    caplog.clear()
    another_process()
    assert live_parts.live_part(game.pk) == shown  # drawn here again, and nothing more said
    assert caplog.text == "" and renders == [LIVE, LIVE]


def test_a_pushed_part_is_kept_by_its_entry_and_found_by_a_fetch_of_that_version(
    settings, tmp_path, renders, django_assert_num_queries
):
    """A change pushed to the screens brings its entry's number: its part is kept by it, so a
    process that heard of it reads nothing but what it draws from (no version read first),
    and another reads nothing at all; a screen that fetches the part finds it too."""
    settings.LIVE_PARTS_DIR = str(tmp_path / "parts")
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    pushed = live_parts.pushed_part(str(game.pk), 1)
    assert pushed is not None and "Last play: Ann" in pushed
    with django_assert_num_queries(0):
        assert live_parts.pushed_part(str(game.pk), 1) == pushed  # every other screen here
    another_process()
    with django_assert_num_queries(0):
        assert live_parts.pushed_part(str(game.pk), 1) == pushed  # read from the shared folder
    assert renders == [LIVE]
    settings.LIVE_PARTS_DIR = ""
    live_parts.rendered_parts.parts.clear()
    assert live_parts.pushed_part(str(game.pk), 1) == pushed
    with django_assert_num_queries(1):  # the version only: the part is the one kept for it
        assert live_parts.live_part(game.pk) == pushed
    assert renders == [LIVE, LIVE]


def test_the_version_of_a_game_read_is_the_one_a_fetch_reads():
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    game.refresh_from_db()
    assert live_parts.etag_of(game) == live_parts.game_version(None, game.pk)


def test_the_shared_folder_lets_old_parts_go_and_keeps_within_its_size(tmp_path, monkeypatch):
    """A part is wanted for seconds: each process that keeps parts removes, now and then, those
    kept more than ``SHARED_PARTS_SECONDS`` ago, then the oldest past ``SHARED_PARTS_BYTES``."""
    folder = tmp_path / "parts"
    shared = live_parts.SharedParts(str(folder))
    now = time.time()
    for age, key in ((30, "old"), (3, "older"), (2, "recent"), (1, "latest")):
        shared.put(key, key * 10)
        os.utime(shared.path(key), (now - age, now - age))
    (folder / "half-written.123-456").write_text("a process stopped while writing it")
    os.utime(folder / "half-written.123-456", (now - 60, now - 60))
    shared.sweep(now)
    assert [shared.get(key) for key in ("old", "older", "recent", "latest")] == [
        None, "older" * 10, "recent" * 10, "latest" * 10
    ]  # fmt: skip
    assert len(list(folder.iterdir())) == 3

    monkeypatch.setattr(live_parts, "SHARED_PARTS_BYTES", 120)  # the two latest (60 + 60 bytes)
    shared.sweep(now)
    assert [shared.get(key) for key in ("older", "recent", "latest")] == [
        None, "recent" * 10, "latest" * 10
    ]  # fmt: skip

    # Keeping a part sweeps, once SHARED_PARTS_SWEEP_SECONDS have gone by since the last.
    os.utime(shared.path("recent"), (now - 20, now - 20))
    shared.put("new", "new")
    assert shared.get("recent") is not None
    shared._swept -= live_parts.SHARED_PARTS_SWEEP_SECONDS + 1
    shared.put("newer", "newer")
    assert shared.get("recent") is None and shared.get("new") == "new"


def test_a_part_drawn_from_what_a_change_stored_is_the_part_drawn_from_the_record(
    settings, monkeypatch, renders, django_capture_on_commit_callbacks
):
    """Where a change commits, its part is drawn from the game, seats and state the change
    stored (``news.announce``), not read back from the record: for every kind of change (a
    stacked play, challenges rejected and upheld, an undo, a correction, a penalty, passes, an
    exchange, the end, the racks of a crossword game's end), that part is, byte for byte, the
    one drawn from the record, and the version it is kept under is the one a fetch reads."""
    from scorekeeper.live import news
    from scorekeeper.live.hub import Hub

    pushed: list[tuple[str, int, str | None]] = []

    def draw(game_id: str, entry: int | None = None, stored: news.Stored | None = None):
        assert stored is not None and entry is not None  # a change's own: drawn from it
        live_parts.rendered_parts.parts.clear()
        with CaptureQueriesContext(connection) as read:
            part = live_parts.pushed_part(game_id, entry, stored)
        # The log's latest entries only: not the game's rows, nor its seats.
        assert read.captured_queries and not [
            query["sql"]
            for query in read.captured_queries
            if 'FROM "scorekeeper_game"' in query["sql"] or "scorekeeper_seat" in query["sql"]
        ]
        pushed.append((game_id, entry, part))
        return part

    settings.LIVE_PARTS_DIR = ""  # no folder: a part not kept here is drawn again
    monkeypatch.setattr(news, "_drawing", [draw])
    monkeypatch.setattr(Hub, "wants_drawn", lambda self, channel: True)
    upwords, letterup = new_game(), new_game("letterup-classic")
    changes = [
        (upwords, "play", {"tiles": MOOD}),
        (upwords, "play", {"tiles": EAR}),
        (upwords, "challenge", {}),  # DEAR stands
        (upwords, "play", {"tiles": N_T}),
        (upwords, "play", {"tiles": W_ON_M}),  # a stack: WOOD
        (upwords, "play", {"tiles": L_ON_D}),  # LEAR
        (upwords, "challenge", {}),  # upheld: the tiles come off
        (upwords, "exchange", {"count": 1}),
        (upwords, "play", {"tiles": L_AND_P}),
        (upwords, "undo", {"by": "Ann"}),
        (upwords, "correct", {"target": 1, "notation": "5D MOOD"}),
        (upwords, "penalty", {"seat": 1, "points": 5}),
        (upwords, "pass", {}),
        (upwords, "pass", {}),  # everyone passed: the end
        (letterup, "play", {"tiles": HOUSE}),
        *[(letterup, "pass", {}) for _ in range(4)],  # the game waits for the racks
        (letterup, "finish", {"racks": {0: "AEGINRT", 1: "BCJKQVZ"}}),
    ]
    for game, action, fields in changes:
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand(action, **fields))
        game_id, entry, part = pushed[-1]
        assert game_id == str(game.pk) and part is not None, action
        with CaptureQueriesContext(connection) as fetch:  # kept by the version a fetch reads
            assert live_parts.live_part(game.pk) == part, f"{action} (entry {entry})"
        assert len(fetch.captured_queries) == 1
        live_parts.rendered_parts.parts.clear()  # drawn afresh from the record
        assert live_parts.live_part(game.pk) == part, f"{action} (entry {entry})"
        live_parts.rendered_parts.parts.clear()
        assert live_parts.pushed_part(game_id, entry) == part, f"{action} (entry {entry})"
    assert len(pushed) == len(changes) and len(renders) == 3 * len(changes)
    for game in (upwords, letterup):
        game.refresh_from_db()
        assert game.status == game.Status.FINISHED


def test_a_challenge_among_the_recent_turns_is_drawn_with_the_play_it_is_about_in_one_read(
    settings, monkeypatch, renders, django_capture_on_commit_callbacks
):
    """The spectator's part tells the recent turns, a challenge among them by the play it was
    about: that play, the entry before the last few shown, comes with them in one read of the
    log, not in a read of its own."""
    from scorekeeper.live import news
    from scorekeeper.live.hub import Hub

    reads: list[list[str]] = []
    parts: list[str | None] = []

    def draw(game_id: str, entry: int | None = None, stored: news.Stored | None = None):
        live_parts.rendered_parts.parts.clear()
        with CaptureQueriesContext(connection) as read:
            parts.append(live_parts.pushed_part(game_id, entry, stored))
        reads.append([query["sql"] for query in read.captured_queries])
        return parts[-1]

    settings.LIVE_PARTS_DIR = ""
    monkeypatch.setattr(news, "_drawing", [draw])
    monkeypatch.setattr(Hub, "wants_drawn", lambda self, channel: True)
    game = new_game()
    for action, fields in [
        ("play", {"tiles": MOOD}),
        ("play", {"tiles": EAR}),
        ("challenge", {}),  # Ann challenges Ben's DEAR: it stands
        ("play", {"tiles": N_T}),
        ("play", {"tiles": W_ON_M}),  # the challenge is the third turn shown, DEAR a fourth
    ]:
        with django_capture_on_commit_callbacks(execute=True):
            domain.act(game.pk, domain.TurnCommand(action, **fields))
    assert len(reads[-1]) == 1 and "scorekeeper_turn" in reads[-1][0]
    recent = (parts[-1] or "").split('class="recent-turns"')[1].split("</ul>")[0]
    assert recent.count("<li>") == 3 and "Ben’s play G5 .EAR stands" in recent, recent
    live_parts.rendered_parts.parts.clear()  # the same part drawn afresh from the record
    assert live_parts.live_part(game.pk) == parts[-1]
