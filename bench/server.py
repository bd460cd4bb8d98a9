"""The server as ``make serve`` runs it, for the benchmark and the tests that need a real one.

``Gunicorn``: this project's gunicorn (config/gunicorn.conf.py) on loopback in its own process
group, stopped or killed as one (the benchmark's drivers, and tests/faults, tests/security).
``served``: the benchmark's fixture around it, a throwaway database (a fresh database on
DATABASE_URL's PostgreSQL server, else a SQLite file in a temporary folder), migrated, the
server started on a free port with DEBUG and SECURE off, no rate limits, max_requests off;
everything stopped and dropped on the way out.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.transport import call
from referee import LexiconLibrary

HARNESS = Path(__file__).resolve().parent.parent  # where the bench package is
# The app measured: this checkout, or another revision's (``python -m bench compare``).
ROOT = Path(os.environ.get("BENCH_APP_ROOT") or HARNESS).resolve()


def lexicon_library(cache: Path) -> LexiconLibrary:
    """The word lists the figures are taken with: ``LEXICON_DIR``, else ../shared/lexica."""
    folder = os.environ.get("LEXICON_DIR") or str(HARNESS.parent / "shared" / "lexica")
    dirs = [Path(folder)] if Path(folder).is_dir() else []
    return LexiconLibrary(dirs, cache)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def gunicorn_args(*extra: str) -> list[str]:
    args = [sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.conf.py", *extra]
    from gunicorn.config import KNOWN_SETTINGS

    # gunicorn ≥ 25.1 opens a control socket at one fixed path per user: not for a server
    # started beside others on one machine.
    if any(setting.name == "control_socket_disable" for setting in KNOWN_SETTINGS):
        args.append("--no-control-socket")
    return args


class ServerFailed(RuntimeError):
    """gunicorn exited, or did not answer /healthz in time."""


class Gunicorn:
    """gunicorn bound to 127.0.0.1:``port``, with its output in ``log``."""

    def __init__(
        self,
        env: dict[str, str],
        port: int,
        log: Path,
        extra: Sequence[str] = (),
        ready_timeout: float = 60,
        descriptors: int | None = None,
    ) -> None:
        self.env = {**env, "BIND": f"127.0.0.1:{port}"}
        self.port, self.log, self.extra, self.ready_timeout = port, log, extra, ready_timeout
        self.descriptors = descriptors  # the files each of its processes may hold open
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until /healthz answers 200."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                gunicorn_args(*self.extra),
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped or killed as one
                preexec_fn=self._limit_descriptors if self.descriptors else None,
            )
        deadline = time.monotonic() + self.ready_timeout
        while True:
            if self.process.poll() is not None:
                raise ServerFailed(f"gunicorn exited ({self.process.returncode}):\n{self.tail()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                if call(self.port, "GET", "/healthz", timeout=2)[0] == 200:
                    return
            if time.monotonic() > deadline:
                raise ServerFailed(f"gunicorn not ready in {self.ready_timeout} s:\n{self.tail()}")
            time.sleep(0.1)

    def _limit_descriptors(self) -> None:
        import resource

        assert self.descriptors is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.descriptors, self.descriptors))

    def signal_group(self, signum: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signum)

    def kill(self) -> None:
        """SIGKILL the whole group: no worker finishes its request or closes anything."""
        assert self.process is not None
        self.signal_group(signal.SIGKILL)
        self.process.wait(timeout=10)
        deadline = time.monotonic() + 5  # the workers, reaped by init, leave the group too
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop gracefully (closing its database connections), by force if it takes too long."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.signal_group(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.signal_group(signal.SIGKILL)
                self.process.wait(timeout=10)
        self.signal_group(signal.SIGKILL)  # any worker the master left behind

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def worker_boots(self) -> int:
        try:
            return self.log.read_text(errors="replace").count("Booting worker")
        except OSError:
            return 0


# The benchmark's fixture ---------------------------------------------------------------------
READY_TIMEOUT = 60  # seconds for gunicorn to answer /healthz
STEP_TIMEOUT = 120  # seconds for migrate and the lexicon compile
# max_requests (5000 in the config) restarts a worker after that many requests: at the
# benchmark's load every second or two, so left on it would measure worker boots more than
# requests; the benchmark measures the steady state.
STEADY = ("--max-requests", "0")
# Environment variables passed through to the server: nothing else of the caller's settings.
PASSED = (
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "VIRTUAL_ENV",
    "PGSSLMODE",
    "PGPASSWORD",
    "PUSH_WATCH_SECONDS",
    "WORKER_CLASS",
    "THREADS",
    "GC_THRESHOLD",
)


class Database:
    """A throwaway database: on ``configured``'s PostgreSQL server, else a SQLite file."""

    def __init__(self, configured: str | None, folder: Path) -> None:
        self.admin_url: str | None = None
        self.name = ""
        if configured and urlsplit(configured).scheme in ("postgres", "postgresql", "pgsql"):
            import psycopg

            self.admin_url = configured.replace("pgsql://", "postgres://", 1)
            self.name = f"scorekeeper_bench_{os.getpid()}_{os.urandom(3).hex()}"
            with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=10) as conn:
                version = conn.execute("SHOW server_version").fetchone()
                conn.execute(f'CREATE DATABASE "{self.name}"')
            parts = urlsplit(self.admin_url)
            self.url = urlunsplit(parts._replace(path=f"/{self.name}"))
            where = parts.hostname or "local socket"
            self.description = f"PostgreSQL {version[0] if version else '?'} ({where})"
            self.vendor = "postgresql"
        else:
            path = folder / "bench.sqlite3"
            self.url = f"sqlite:///{path}"
            self.description = f"SQLite {sqlite3.sqlite_version} (WAL, a temporary file)"
            self.vendor = "sqlite"

    @property
    def marker(self) -> str | None:
        """What PostgreSQL's backends for this database show in their process titles."""
        return f" {self.name} " if self.vendor == "postgresql" else None

    def drop(self) -> None:
        if self.admin_url is None:
            return
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=10) as conn:
            try:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            except psycopg.errors.SyntaxError:  # PostgreSQL before 13
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')


def server_env(database_url: str, folder: Path, port: int) -> dict[str, str]:
    """The server's environment: production settings on loopback, no rate limits."""
    env = {key: os.environ[key] for key in PASSED if key in os.environ}
    env.update(
        BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY=os.environ.get("WEB_CONCURRENCY", "2"),
        DEBUG="0",
        SECURE="0",
        SECRET_KEY="bench-" + os.urandom(24).hex(),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url,
        RATE_LIMIT_TURNS="0",
        RATE_LIMIT_JUDGE="0",
        RATE_LIMIT_GAMES="0",
        RATE_LIMIT_IMPORTS="0",
        # The load generator is one client (127.0.0.1) with thousands of tables' connections.
        CLIENT_MAX_CONNECTIONS="0",
        CLIENT_MAX_STREAMS="0",
        LEXICON_USER_DIR=str(folder / "lexica"),
        LEXICON_CACHE_DIR=str(folder / "lexicon-cache"),
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
    )
    return env  # no LEXICON_DIR: CSW19 is pyscrabbler's list, the same on every machine


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py`` with the server's environment; its output, or an error with it."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@dataclass
class Served:
    """A running server and what it runs on."""

    server: Gunicorn
    database: Database
    folder: Path

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def pgid(self) -> int | None:
        """The server's process group (its master's pid)."""
        return self.server.process.pid if self.server.process else None


@contextlib.contextmanager
def served(
    prefix: str,
    database_url: str | None = None,
    env: dict[str, str | None] | None = None,
    compile_lexicon: bool = True,
    extra: Sequence[str] = STEADY,
) -> Iterator[Served]:
    """The production server on a throwaway database, for the time of the ``with``.

    ``env`` adds to (or, with None, takes from) the server's environment; ``compile_lexicon``
    compiles CSW19 before the server starts, so no request pays for it.
    """
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        folder = Path(tmp)
        database = Database(database_url, folder)
        server: Gunicorn | None = None
        try:
            port = free_port()
            server_environment = server_env(database.url, folder, port)
            for key, value in (env or {}).items():
                if value is None:
                    server_environment.pop(key, None)
                else:
                    server_environment[key] = value
            manage(server_environment, "migrate", "--noinput", "-v0")
            if compile_lexicon:
                manage(server_environment, "lexicons")
            server = Gunicorn(
                server_environment, port, folder / "gunicorn.log", extra, READY_TIMEOUT
            )
            server.start()
            yield Served(server, database, folder)
        finally:
            if server is not None:
                server.stop()
            database.drop()


def live_databases() -> list[tuple[str, str | None, str | None]]:
    """Where to measure live tables: SQLite always; PostgreSQL with Redis where both answer."""
    import socket

    def answers(port: int) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            return False

    found: list[tuple[str, str | None, str | None]] = [("sqlite", None, None)]
    pg = os.environ.get("BENCH_PG_URL") or (
        "postgres://postgres@127.0.0.1:5432/postgres" if answers(5432) else None
    )
    redis = os.environ.get("BENCH_REDIS_URL") or (
        "redis://127.0.0.1:6379/13" if answers(6379) else None
    )
    if pg and redis:
        found.append(("postgresql", pg, redis))
    return found
