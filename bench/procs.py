"""What /proc says of the server's processes and of the machine: CPU time, memory, connections.

Every reader here returns something harmless (0, an empty list, None) where /proc is not there
or a process went away while it was read: the figures around it still stand.
"""

from __future__ import annotations

import contextlib
import os
import platform
import time
from collections.abc import Iterator
from pathlib import Path

HZ = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int | str) -> list[bytes]:
    """The fields of /proc/<pid>/stat after the command's name (state is field 0)."""
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return stat.read().rpartition(b")")[2].split()


def processes() -> Iterator[tuple[int, list[bytes]]]:
    """(pid, stat fields) of every process that can be read."""
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                yield int(entry.name), _stat_fields(entry.name)


def group(pgid: int | None) -> list[int]:
    """The processes of a process group (the server's master and workers)."""
    if not pgid:
        return []
    return [pid for pid, fields in processes() if int(fields[2]) == pgid]


def children(pid: int) -> list[int]:
    """A process's children (a gunicorn master's workers)."""
    return [child for child, fields in processes() if int(fields[1]) == pid]


def cpu_seconds(pid: int | str = "self", reaped: bool = False) -> float:
    """A process's CPU time (user + system), or (``reaped``) that of the children it reaped."""
    try:
        fields = _stat_fields(pid)
    except OSError:
        return 0.0
    first = 13 if reaped else 11  # cutime, cstime; utime, stime
    return (int(fields[first]) + int(fields[first + 1])) / HZ


def server_ticks(pgid: int | None, marker: str | None = None) -> tuple[int, int]:
    """CPU jiffies (user + system) so far of the server's process group, and of the processes
    whose command line holds ``marker`` (PostgreSQL's backends for the benchmark's database)."""
    app = database = 0
    if not pgid and not marker:
        return 0, 0
    for pid, fields in processes():
        with contextlib.suppress(OSError, IndexError, ValueError):
            ticks = int(fields[11]) + int(fields[12])
            if pgid and int(fields[2]) == pgid:
                app += ticks
            elif marker:
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    if marker.encode() in cmdline.read():
                        database += ticks
    return app, database


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs, from /proc/stat; (0, 0) where there is none."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    total = sum(fields[:8])
    return total - idle, total


def machine_busy(seconds: float = 1.0) -> float | None:
    """How busy the whole machine is over ``seconds`` (other work shares its cores)."""
    busy0, total0 = machine_ticks()
    time.sleep(seconds)
    busy1, total1 = machine_ticks()
    return (busy1 - busy0) / (total1 - total0) if total1 > total0 else None


def status_kb(pid: int | str, field: str) -> int:
    """A memory figure of /proc/<pid>/status in kB (``VmRSS``, ``VmHWM``), 0 if unknown."""
    with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def group_rss_kb(pgid: int | None) -> int:
    """The resident memory of a process group (the server's workers and master), in kB."""
    return sum(status_kb(pid, "VmRSS") for pid in group(pgid))


def worker_connections(pgid: int | None, port: int) -> list[int]:
    """Established connections to ``port`` held by each process of the server's group, most
    first (gunicorn keeps a keep-alive connection on the worker that accepted it)."""
    if not pgid:
        return []
    inodes = set()
    try:
        with open("/proc/net/tcp") as table:
            for line in list(table)[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rpartition(":")[2], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    except (OSError, IndexError, ValueError):
        return []
    counts = []
    for pid in group(pgid):
        with contextlib.suppress(OSError):
            fds = os.listdir(f"/proc/{pid}/fd")
            held = sum(os.readlink(f"/proc/{pid}/fd/{fd}") in inodes for fd in fds)
            if held:
                counts.append(held)
    return sorted(counts, reverse=True)


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine() -> str:
    """The machine in one line: the CPU, its cores and Python."""
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def machine_ms() -> float:
    """How fast the machine is just now: the CPU time, in ms, of a fixed piece of pure Python
    (five million additions), since on a shared machine every figure moves with it."""
    start = time.process_time()
    total = 0
    for i in range(5_000_000):
        total += i
    return round((time.process_time() - start) * 1000, 1)
