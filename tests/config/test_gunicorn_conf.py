"""config/gunicorn.conf.py's hooks, run as gunicorn's master runs them (the servers themselves
are tried in tests/faults)."""

from __future__ import annotations

import importlib.util
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

CONF = Path(__file__).resolve().parents[2] / "config" / "gunicorn.conf.py"


@pytest.fixture(autouse=True)
def environ_kept() -> Iterator[None]:
    """The config sets variables for the workers it starts (LIVE_PARTS_DIR,
    PUSH_WATCH_SECONDS): none outlives a test here."""
    before = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(before)


def loaded(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """The config as gunicorn's master reads it, with ``env`` (and no Redis, no folder set)."""
    for name in ("REDIS_URL", "LIVE_PARTS_DIR", "WORKER_CLASS", "PUSH_WATCH_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("gunicorn_conf_under_test", CONF)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def master() -> SimpleNamespace:
    return SimpleNamespace(log=logging.getLogger("gunicorn.error"))


def test_workers_with_no_broker_get_a_parts_folder_that_goes_with_the_server(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    conf = loaded(monkeypatch, WEB_CONCURRENCY="2")
    conf.on_starting(master())
    folder = Path(conf.os.environ["LIVE_PARTS_DIR"])
    assert folder.parent == tmp_path and folder.is_dir()
    conf.on_exit(master())
    assert not folder.exists()


@pytest.mark.parametrize(
    "env", [{"WEB_CONCURRENCY": "1"}, {"WEB_CONCURRENCY": "2", "REDIS_URL": "redis://x:6379/0"}]
)
def test_one_worker_or_a_broker_needs_no_parts_folder(monkeypatch, env):
    conf = loaded(monkeypatch, **env)
    conf.on_starting(master())
    assert "LIVE_PARTS_DIR" not in conf.os.environ


def test_with_no_room_for_the_folder_the_server_starts_and_says_so(monkeypatch, caplog):
    conf = loaded(monkeypatch, WEB_CONCURRENCY="2")

    def full(*args: object, **kwargs: object) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    conf.on_starting(master())  # no exception: the workers draw their own parts
    assert "LIVE_PARTS_DIR" not in conf.os.environ
    assert "No folder for the workers' live parts" in caplog.text
    conf.on_exit(master())


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_parts_folder_others_can_write_in_is_refused_at_start_and_none_shared(
    monkeypatch, tmp_path, caplog, workers
):
    folder = tmp_path / "parts"
    folder.mkdir()
    folder.chmod(0o777)
    conf = loaded(monkeypatch, WEB_CONCURRENCY=workers, LIVE_PARTS_DIR=str(folder))
    conf.on_starting(master())
    assert "LIVE_PARTS_DIR" not in conf.os.environ  # the workers draw their own parts
    assert f"LIVE_PARTS_DIR {folder} is refused: others can write in it" in caplog.text
    conf.on_exit(master())
    assert folder.is_dir()  # the operator's folder is let be


def test_a_parts_folder_of_this_users_own_is_given_to_the_workers(monkeypatch, tmp_path, caplog):
    folder = tmp_path / "parts"
    folder.mkdir(mode=0o700)
    conf = loaded(monkeypatch, WEB_CONCURRENCY="2", LIVE_PARTS_DIR=str(folder))
    conf.on_starting(master())
    assert conf.os.environ["LIVE_PARTS_DIR"] == str(folder) and caplog.text == ""
