"""This project's gunicorn, started on loopback in its own process group.

Shared by the HTTP benchmark (bench/http_load.py) and the fault test that kills the server
mid-stream (tests/faults): both run the production server as ``make serve`` does, with
config/gunicorn.conf.py, and stop or kill it as one process group.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                try:
                    conn.request("GET", "/healthz")
                    if conn.getresponse().status == 200:
                        return
                finally:
                    conn.close()
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
