"""The live parts' folder (``LIVE_PARTS_DIR``) is trusted only when nobody else can put a file
in it, and what is in it is read only as the regular files this user's processes wrote: a
part goes into spectators' pages as HTML."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from bench.sequences import HASBRO
from config.private_folder import FolderRefused
from scorekeeper.games import domain
from scorekeeper.live.marks import FolderMarks
from scorekeeper.web import live_parts
from scorekeeper.web.live_parts import SharedParts
from tests.factories import CLUB_WORDS, new_game

SECRET = "SECRET_KEY=not-for-spectators"


@pytest.fixture(autouse=True)
def club_lexicon(use_words):
    return use_words(CLUB_WORDS)


@pytest.fixture
def parts_forgotten():
    """No part of another test kept in this process, and the shared folder not let be."""
    live_parts.rendered_parts.parts.clear()
    live_parts.rendered_parts._off_until = 0.0
    yield
    live_parts.rendered_parts.parts.clear()
    live_parts.rendered_parts._off_until = 0.0


def read_or_hang(shared: SharedParts, key: str) -> str | None:
    """``shared.get(key)``, which must not wait: a FIFO opened for reading would wait for a
    writer, which is then opened here to let the read go."""
    answers: list[str | None] = []
    reading = threading.Thread(target=lambda: answers.append(shared.get(key)), daemon=True)
    reading.start()
    reading.join(30)
    if reading.is_alive():
        os.close(os.open(shared.path(key), os.O_WRONLY | os.O_NONBLOCK))
        reading.join(30)
        pytest.fail("reading the part waited on a FIFO")
    return answers[0]


@pytest.mark.django_db
@pytest.mark.parametrize("mode", [0o777, 0o770, 0o733], ids=oct)
def test_a_folder_others_can_write_in_is_refused_and_the_part_drawn_here(
    settings, tmp_path, parts_forgotten, caplog, mode
):
    folder = tmp_path / "parts"
    folder.mkdir()
    folder.chmod(mode)
    settings.LIVE_PARTS_DIR = str(folder)
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    part = live_parts.live_part(game.pk)
    assert part is not None and "Last play: Ann" in part
    assert list(folder.iterdir()) == []  # nothing kept there, nothing read
    assert f"LIVE_PARTS_DIR {folder} is refused: others can write in it" in caplog.text


def test_a_folder_of_this_users_own_is_used(tmp_path):
    SharedParts(str(tmp_path / "parts")).put("game:#1", "<p>Ann played</p>")
    assert SharedParts(str(tmp_path / "parts")).get("game:#1") == "<p>Ann played</p>"


def test_a_link_to_a_folder_is_refused(tmp_path):
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "parts").symlink_to(tmp_path / "real")
    with pytest.raises(FolderRefused, match="symbolic link"):
        SharedParts(str(tmp_path / "parts"))


@pytest.mark.parametrize("planted", ["link", "fifo", "folder"])
def test_what_is_planted_under_a_parts_name_is_not_read(tmp_path, planted):
    shared = SharedParts(str(tmp_path / "parts"))
    environ = tmp_path / "environ"
    environ.write_text(SECRET)
    name = shared.path("game:#1")
    if planted == "link":
        os.symlink(environ, name)
    elif planted == "fifo":
        os.mkfifo(name, 0o600)
    else:
        os.mkdir(name)
    assert read_or_hang(shared, "game:#1") is None


@pytest.mark.django_db
def test_a_link_planted_under_a_pushed_parts_name_never_reaches_the_screen(
    settings, tmp_path, parts_forgotten
):
    settings.LIVE_PARTS_DIR = str(tmp_path / "parts")
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", tiles=HASBRO[0][0]))
    environ = tmp_path / "environ"
    environ.write_text(SECRET)
    os.makedirs(settings.LIVE_PARTS_DIR, mode=0o700)
    os.symlink(environ, SharedParts(settings.LIVE_PARTS_DIR).path(f"{game.pk}:#1"))
    assert live_parts.kept_part(str(game.pk), 1) is None
    pushed = live_parts.pushed_part(str(game.pk), 1)
    assert pushed is not None and "Last play: Ann" in pushed and SECRET not in pushed


def test_a_part_is_never_written_through_a_link_planted_beside_its_name(tmp_path):
    shared = SharedParts(str(tmp_path / "parts"))
    victim = tmp_path / "victim"
    victim.write_text("kept")
    os.symlink(victim, f"{shared.path('game:#1')}.{os.getpid()}-{threading.get_ident()}")
    shared.put("game:#1", "<p>Ann played</p>")
    assert victim.read_text() == "kept"
    assert shared.get("game:#1") == "<p>Ann played</p>"
    assert Path(shared.path("game:#1")).stat().st_mode & 0o777 == 0o600


def test_marks_are_never_forgotten_through_a_linked_marks_folder(tmp_path):
    """Forgetting the marks removes the old files in ``marks/``: through a link, another
    folder's."""
    parts = tmp_path / "parts"
    parts.mkdir(mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "notes.txt").write_text("mine")
    (parts / "marks").symlink_to(elsewhere)
    with pytest.raises(FolderRefused):
        FolderMarks(str(parts)).forget(time.time() + 60)
    assert (elsewhere / "notes.txt").read_text() == "mine"
