"""A folder this user's processes share (``LIVE_PARTS_DIR``: the workers' live parts and marks),
trusted only when nobody else can put anything in it, and files in it read and written only as
the regular files they should be: a symbolic link, a FIFO or a folder planted under a file's
name is never followed, opened for reading or written through.

Plain Python (gunicorn's master checks the folder before it starts the workers).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> write_file(os.path.join(folder, "part"), b"<p>Ann played</p>")
    >>> read_file(os.path.join(folder, "part"))
    b'<p>Ann played</p>'
    >>> os.chmod(folder, 0o777)
    >>> refusal(folder)
    'others can write in it (mode 0777): it must be writable by this user only (chmod 700)'
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import threading

__all__ = ["FolderRefused", "make_private_folder", "read_file", "refusal", "write_file"]


class FolderRefused(OSError):
    """A folder others could put files in, or that isn't this user's."""


def refusal(folder: str) -> str | None:
    """Why ``folder`` can't be trusted with what this user's processes share, as a sentence;
    None when it is a folder of this user's that nobody else can write in (or not there yet:
    ``make_private_folder`` makes it so), in a parent where nobody else can replace it."""
    try:
        found = os.lstat(folder)
    except FileNotFoundError:
        found = None
    except OSError as error:
        return f"it can't be read ({error.strerror})"
    if found is not None:
        if stat.S_ISLNK(found.st_mode):
            return "it is a symbolic link: give the folder's own path"
        if not stat.S_ISDIR(found.st_mode):
            return "it is not a folder"
        if found.st_uid != os.getuid():
            return f"it belongs to another user (uid {found.st_uid})"
        if found.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            mode = stat.S_IMODE(found.st_mode)
            return (
                f"others can write in it (mode {mode:04o}): it must be writable by this user "
                "only (chmod 700)"
            )
    parent = os.path.dirname(os.path.abspath(folder))
    try:
        above = os.stat(parent)
    except OSError as error:
        return f"its parent folder {parent} can't be read ({error.strerror})"
    # In a parent others can write, without the sticky bit (/tmp has it), they could rename the
    # folder away and put one of their own in its place.
    if above.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not above.st_mode & stat.S_ISVTX:
        return f"others can replace it: its parent folder {parent} is writable by others"
    return None


def make_private_folder(folder: str) -> None:
    """Make ``folder`` (readable by this user only) if it isn't there, and raise
    ``FolderRefused`` unless it is then one that ``refusal`` accepts."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    reason = refusal(folder)
    if reason is not None:
        raise FolderRefused(errno.EPERM, f"{folder} is refused: {reason}")


def read_file(path: str) -> bytes | None:
    """The content of the regular file at ``path``; None when there is none, or something else
    is there (a symbolic link, a FIFO, a folder, a device), which is neither followed nor read.
    """
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symbolic link
            return None
        raise
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        with os.fdopen(descriptor, "rb", closefd=False) as opened:
            return opened.read()
    finally:
        os.close(descriptor)


def write_file(path: str, data: bytes) -> None:
    """Write ``data`` whole to a new file beside ``path`` (this user's only, 0600; never through
    a link planted there), then rename it onto ``path``: a reader finds the old content or the
    new, never part of it."""
    writing = f"{path}.{os.getpid()}-{threading.get_ident()}"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(writing)  # left by a process stopped while it wrote
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    descriptor = os.open(writing, flags, 0o600)
    try:
        with os.fdopen(descriptor, "wb", closefd=False) as opened:
            opened.write(data)
    finally:
        os.close(descriptor)
    os.replace(writing, path)
