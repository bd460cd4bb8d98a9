"""How many connections and live streams each client holds open, counted across the workers
of one server, so that one client can't take the descriptors and threads every table needs.

The counts sit in memory the workers share: gunicorn's master makes the table before it forks
them (config/gunicorn.conf.py), gives each worker a row of its own, and clears a row when its
worker exits, so counts never outlive the connections they count, a killed worker's included.
A worker writes only its own row, from its event loop, so no lock is needed; a client's count
is the sum over the rows, and a place is taken before it is checked (``Counts.take``). Served
any other way (one uvicorn, a test), the table is the process's own, with one row.

Clients are counted in buckets by two hashes of their address, and a client's count is the
smaller of its two buckets' (a count-min sketch): another client adds to it only if the two
collide in both. An IPv6 client is counted by its /64, which one host usually holds whole.

A venue's network puts many tables behind one public address: ``SHARED_ADDRESSES`` names such
addresses (or networks) with the tables behind each, and every per-client bound of such an
address grows by what that many tables need (``room_for``).
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import mmap
import resource
from collections.abc import Iterable

from django.core.exceptions import ImproperlyConfigured

BUCKETS = 1 << 14  # per hash, per kind of count
KINDS = {"connections": 0, "streams": 1}
_HASHES = 2
_CELL = 4  # bytes: an unsigned 32-bit count


class Counts:
    """Counts of open connections and streams by client, in ``rows`` rows of shared memory."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.row_cells = len(KINDS) * _HASHES * BUCKETS
        # Anonymous and shared (mmap's default on POSIX): a process forked after this sees
        # and changes the same memory.
        self.memory = mmap.mmap(-1, rows * self.row_cells * _CELL)
        self.cells = memoryview(self.memory).cast("I")
        self.row = 0  # this process's row

    def cells_of(self, kind: str, client: str) -> tuple[int, ...]:
        digest = hashlib.blake2b(client_key(client).encode(), digest_size=8).digest()
        base = KINDS[kind] * _HASHES * BUCKETS
        return tuple(
            base + h * BUCKETS + int.from_bytes(digest[4 * h : 4 * h + 4], "little") % BUCKETS
            for h in range(_HASHES)
        )

    def count(self, cells: tuple[int, ...]) -> int:
        """The client's open count across every row (at least its own, perhaps a little more)."""
        width, rows, view = self.row_cells, self.rows, self.cells
        return min(sum(view[r * width + cell] for r in range(rows)) for cell in cells)

    def take(self, cells: tuple[int, ...], cap: int) -> bool:
        """Count one more for the client if it holds fewer than ``cap``. Counted before it is
        checked: two workers taking a client's last place at once each see the other's, so
        neither passes the cap (both may refuse, leaving the place to the next request)."""
        self.add(cells, 1)
        if self.count(cells) > cap:
            self.add(cells, -1)
            return False
        return True

    def add(self, cells: tuple[int, ...], n: int) -> None:
        at = self.row * self.row_cells
        for cell in cells:
            self.cells[at + cell] = max(0, self.cells[at + cell] + n)

    def clear(self, row: int) -> None:
        """Forget what the process of ``row`` counted (it exited)."""
        start = row * self.row_cells * _CELL
        self.memory[start : start + self.row_cells * _CELL] = bytes(self.row_cells * _CELL)


def client_key(address: str) -> str:
    """What a client is counted by: its IPv4 address, or its IPv6 /64 network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.cache
def shared_addresses(setting: str) -> tuple[tuple[Network, int], ...]:
    """``SHARED_ADDRESSES`` read: ``203.0.113.7=150, 198.51.100.0/28=40`` (an address or a
    network, and how many tables share it); refused loudly when malformed."""
    shared = []
    for entry in (part.strip() for part in setting.split(",")):
        if not entry:
            continue
        where, _, tables = entry.partition("=")
        try:
            network = ipaddress.ip_network(where.strip(), strict=False)
            count = int(tables)
        except ValueError:
            raise ImproperlyConfigured(
                f"SHARED_ADDRESSES is a list of address=tables (203.0.113.7=150); got {entry!r}"
            ) from None
        if count < 1:
            raise ImproperlyConfigured(f"SHARED_ADDRESSES: {entry!r} shares with no table")
        shared.append((network, count))
    return tuple(shared)


def tables_behind(address: str, setting: str) -> int:
    """How many tables share ``address`` (``SHARED_ADDRESSES``): 0 for an address of its own."""
    shared = shared_addresses(setting)
    if not shared:
        return 0
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return 0
    if ip.version == 6 and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return max((tables for network, tables in shared if ip in network), default=0)


# What one table holds open at most: its scorer's phone and a second one, each a page's
# connection and a live stream, and a spectator screen.
CONNECTIONS_A_TABLE = 6
STREAMS_A_TABLE = 3


def room_for(cap: int, per_table: int, address: str, setting: str) -> int:
    """A per-client ``cap`` for ``address``: as it is, or for an address that tables share,
    room for each of them too (0, no bound, stays 0)."""
    return cap and cap + per_table * tables_behind(address, setting)


# Descriptors a process keeps for what is not a connection: its database, logs, word lists,
# the broker, the event loop's own.
SPARE_DESCRIPTORS = 128


def descriptors() -> int:
    """How many files this process may hold open (its soft limit)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_room() -> int:
    """The open connections a process takes before it refuses one (503): its descriptors
    less what it needs beside them."""
    return max(16, descriptors() - SPARE_DESCRIPTORS)


def stream_room(configured: int) -> int:
    """The live streams a process holds before it refuses one (503, the page polls): at most
    ``configured`` (``PUSH_MAX_STREAMS``), leaving an eighth of its connections (at least 64)
    for turns and pages."""
    room = connection_room()
    return max(0, min(configured, room - max(64, room // 8)))


table: Counts | None = None  # made by gunicorn's master, or by the process on first use


def shared(rows: int) -> Counts:
    """The table for a server of forked workers: made once, before they are forked."""
    global table
    if table is None or table.rows != rows:
        table = Counts(rows)
    return table


def counts() -> Counts:
    global table
    if table is None:
        table = Counts(1)
    return table


def client_of(forwarded_for: Iterable[str], peer: str, proxies: int) -> str:
    """Who sent a request, the one rule for the rate limits (a WSGI request's) and the
    connection counts (an ASGI one's). Behind ``proxies`` proxies, each of which appends the
    address it was reached from to X-Forwarded-For (``forwarded_for``: the header's values), the
    client is that many entries from the right: what stands further left was written by the
    client and proves nothing. Else the ``peer`` the connection came from."""
    if proxies:
        hops = [h.strip() for value in forwarded_for for h in value.split(",")]
        hops = [h for h in hops if h]
        if len(hops) >= proxies:
            return hops[-proxies]
    return peer


def forwarded_client(headers: list[tuple[bytes, bytes]], peer: str, proxies: int) -> str:
    """The client of an ASGI request (``client_of``)."""
    values = [value.decode("latin-1") for name, value in headers if name == b"x-forwarded-for"]
    return client_of(values, peer, proxies)
