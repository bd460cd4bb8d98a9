"""Where a server's processes mark the channels they have screens of that want the part drawn
(the spectator's live part): the process where a change commits reads the marks
(``Hub.wants_drawn``) and draws the part once for all of them, if any. Each mark lasts until a
moment; the process that made it renews it while its screens are open (``Hub._marking_loop``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from config.private_folder import make_private_folder

# The channels marked in Redis: a sorted set, each scored by when its mark runs out (seconds
# since 1970), MARKED_AT_ONCE to a command (the marking thread lets the others run between).
DRAWN_KEY = "scorekeeper:live:drawn"
MARKED_AT_ONCE = 256


class Marks(ABC):
    """Where processes mark the channels they have screens of that want the part drawn, each
    until a moment (seconds since 1970); ``local``: whether this process's own screens count
    without a mark read (the marks are read where the change commits, in any process)."""

    local = False

    @abstractmethod
    def marked(self, channel: str) -> bool:
        """Whether some process's mark of ``channel`` runs on."""

    @abstractmethod
    def mark(self, channels: list[str], until: float) -> None:
        """Mark ``channels`` until ``until``."""

    @abstractmethod
    def forget(self, now: float) -> None:
        """Let the marks that ran out before ``now`` go."""


class RedisMarks(Marks):
    """The marks in a sorted set of Redis (``DRAWN_KEY``), each scored by its end."""

    def __init__(self, url: str, client: Callable[[], Any]) -> None:
        self.url = url
        self.client = client  # the process's connection to it

    def marked(self, channel: str) -> bool:
        until = self.client().zscore(DRAWN_KEY, channel)
        return until is not None and float(until) > time.time()

    def mark(self, channels: list[str], until: float) -> None:
        client = self.client()
        for start in range(0, len(channels), MARKED_AT_ONCE):
            client.zadd(DRAWN_KEY, dict.fromkeys(channels[start : start + MARKED_AT_ONCE], until))
            time.sleep(0.001)  # the process's other threads run between

    def forget(self, now: float) -> None:
        self.client().zremrangebyscore(DRAWN_KEY, "-inf", now)


class FolderMarks(Marks):
    """The marks as files in the folder of parts a server's processes share (``marks/`` in
    ``LIVE_PARTS_DIR``), one a channel (named by a hash of it), each lasting until its
    modification time.

    >>> import tempfile
    >>> marks = FolderMarks(tempfile.mkdtemp())
    >>> marks.mark(["game:1"], time.time() + 60)
    >>> marks.marked("game:1"), marks.marked("game:2")
    (True, False)
    >>> marks.forget(time.time() + 61)
    >>> marks.marked("game:1")
    False
    """

    local = True

    def __init__(self, parts: str) -> None:
        self.parts = parts
        self.folder = os.path.join(parts, "marks")

    def path(self, channel: str) -> str:
        name = hashlib.blake2b(channel.encode(), digest_size=16).hexdigest()
        return os.path.join(self.folder, name)

    def marked(self, channel: str) -> bool:
        try:
            return os.lstat(self.path(channel)).st_mtime > time.time()
        except FileNotFoundError:
            return False

    def checked(self) -> None:
        """Raise ``FolderRefused`` unless the parts' folder and its ``marks/`` are this user's
        own (``config.private_folder``): marks are made and removed in it."""
        make_private_folder(self.parts)
        make_private_folder(self.folder)

    def mark(self, channels: list[str], until: float) -> None:
        self.checked()
        flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        for at, channel in enumerate(channels):
            descriptor = os.open(self.path(channel), flags, 0o600)
            try:
                os.utime(descriptor, (until, until))
            finally:
                os.close(descriptor)
            if at % MARKED_AT_ONCE == MARKED_AT_ONCE - 1:
                time.sleep(0.001)

    def forget(self, now: float) -> None:
        self.checked()
        with os.scandir(self.folder) as entries:
            for entry in entries:
                with contextlib.suppress(FileNotFoundError):
                    if (
                        entry.is_file(follow_symlinks=False)
                        and entry.stat(follow_symlinks=False).st_mtime <= now
                    ):
                        os.remove(entry.path)


__all__ = ["DRAWN_KEY", "FolderMarks", "Marks", "RedisMarks"]
