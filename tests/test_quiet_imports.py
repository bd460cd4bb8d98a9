"""Importing a test module only defines things: pytest imports every module it collects before
any test runs, in the thread most tests run in, so a request, a thread or a connection opened
then changes what every test collected with it sees."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh process: Django set up as pytest-django sets it up, then every module under
# tests/ imported with each request, database connection, thread, socket connection and
# process it opens written down.
WATCH = """
import importlib, json, socket, subprocess, sys, threading
import django

django.setup()
from django.core.signals import request_started
from django.db.backends.signals import connection_created

opened = []
request_started.connect(lambda **kwargs: opened.append("a request"), weak=False)
connection_created.connect(
    lambda connection, **kwargs: opened.append(f"a {connection.vendor} connection"), weak=False
)
thread_start, socket_connect, popen_init = (
    threading.Thread.start, socket.socket.connect, subprocess.Popen.__init__
)

def start(self):
    opened.append(f"a thread ({self.name})")
    return thread_start(self)

def connect(self, address):
    opened.append(f"a connection to {address}")
    return socket_connect(self, address)

def popen(self, *args, **kwargs):
    opened.append("a process")
    return popen_init(self, *args, **kwargs)

threading.Thread.start, socket.socket.connect, subprocess.Popen.__init__ = start, connect, popen
found = {}
for name in sys.argv[1:]:
    opened.clear()
    importlib.import_module(name)
    if opened:
        found[name] = sorted(set(opened))
print(json.dumps(found))
"""


def modules_under_tests() -> list[str]:
    names = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_importing_a_test_module_opens_no_request_thread_or_connection():
    names = modules_under_tests()
    assert "tests.hostile.test_schemathesis" in names and "tests.browser.conftest" in names
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "TESTING": "1"}
    done = subprocess.run(
        [sys.executable, "-c", WATCH, *names],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {}
