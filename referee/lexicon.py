"""Word lists: the dictionary the referee checks words against.

The engine sees a dictionary only through the tiny `Lexicon` interface
(`contains(word)`). Three kinds stand behind it:

* `HonourSystem` accepts every word: honour-system games and tests.
* `WordSet` holds a handful of words in memory: tests and small lists.
* `CompiledLexicon` is a real word list compiled once into a marisa trie and
  memory-mapped, so every worker process shares one copy through the page cache.

`LexiconLibrary` finds the word lists in a set of folders and hands out one
lexicon object per id. This module is plain Python: no Django.

    >>> lexicon = WordSet("DEMO", ["up", "words"])
    >>> lexicon.contains("UP"), "DOWN" in lexicon
    (True, False)
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import marisa_trie

from referee.dawg import Dawg

__all__ = [
    "HONOUR_ID",
    "CompiledLexicon",
    "HonourSystem",
    "Lexicon",
    "LexiconFileError",
    "LexiconInfo",
    "LexiconLibrary",
    "UnknownLexicon",
    "WordSet",
    "compile_lexicon",
    "pyscrabbler_csw19_path",
    "read_word_list",
    "write_word_list",
]

HONOUR_ID = "honour"

Progress = Callable[[int], None]

# A word is ASCII letters only. Checked *before* uppercasing, because str.upper()
# turns some non-ASCII letters into ASCII ones ("ß" -> "SS").
_WORD_LINE = re.compile(rb"[A-Za-z]+")
_BOM = b"\xef\xbb\xbf"
_BAD_LINES_SHOWN = 5
_PROGRESS_EVERY = 8192  # lines between progress callbacks: often enough for a smooth bar


@runtime_checkable
class Lexicon(Protocol):
    """What the engine needs from a dictionary."""

    id: str
    word_count: int
    checksum: str  # "sha256:<hex>" of the source file, so users can check it with sha256sum

    def contains(self, word: str) -> bool:
        """True if `word` (uppercase A-Z) is in the list; False for anything else."""
        ...

    def __contains__(self, word: object) -> bool: ...


class LexiconFileError(ValueError):
    """A word list that can't be used: missing, empty, or with lines that aren't words."""


class UnknownLexicon(KeyError):
    """No lexicon has this id."""

    def __init__(self, lexicon_id: str, known: Iterable[str] = ()) -> None:
        super().__init__(lexicon_id)
        self.lexicon_id = lexicon_id
        self.known = sorted(known)

    def __str__(self) -> str:
        # KeyError's own str() is the repr of its argument; people want a sentence.
        known = ", ".join(self.known) or "none"
        return f"There is no lexicon called {self.lexicon_id!r}. Available: {known}."


class HonourSystem:
    """Accepts every word: for honour-system games, where players police themselves."""

    id = HONOUR_ID
    word_count = 0
    checksum = ""

    def contains(self, word: str) -> bool:
        return True

    def __contains__(self, word: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "HonourSystem()"


class WordSet:
    """A lexicon held in a Python set: for tests and small lists.

    Words are uppercased; anything that isn't letters A-Z is refused.
    """

    def __init__(self, lexicon_id: str, words: Iterable[str]) -> None:
        stripped = {word.strip() for word in words}
        # Checked before uppercasing, for the same reason as in read_word_list.
        bad = sorted(w for w in stripped if not _WORD_LINE.fullmatch(w.encode("utf-8")))
        if bad:
            raise ValueError(f"Not words (letters A-Z only): {', '.join(map(repr, bad[:5]))}")
        normalised = {word.upper() for word in stripped}
        self.id = lexicon_id
        self._words = frozenset(normalised)
        self._automata: dict[str, Dawg] = {}
        self.word_count = len(self._words)
        text = "\n".join(sorted(self._words)) + "\n"
        self.checksum = "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()

    def contains(self, word: str) -> bool:
        # A frozenset would happily answer for any hashable; the interface says str only.
        return isinstance(word, str) and word in self._words

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._words

    def analysis_ready(self) -> bool:
        return True  # a small list builds its automata in moments

    def prepare_analysis(self) -> None:
        self.dawg()
        self.gaddag()

    def dawg(self) -> Dawg:
        """The list as an automaton for the move generator, built in memory on first use."""
        if "dawg" not in self._automata:
            self._automata["dawg"] = Dawg.from_words(self._words)
        return self._automata["dawg"]

    def gaddag(self) -> Dawg:
        """The list's GADDAG for the move generator, built in memory on first use."""
        if "gaddag" not in self._automata:
            self._automata["gaddag"] = Dawg.gaddag_from_words(self._words)
        return self._automata["gaddag"]

    def __repr__(self) -> str:
        return f"WordSet({self.id!r}, <{self.word_count} words>)"


class CompiledLexicon:
    """A word list compiled into a marisa trie, memory-mapped from the cache folder.

    Use `compile_lexicon()` to get one. Lookups run at millions per second.
    """

    def __init__(
        self,
        lexicon_id: str,
        trie: marisa_trie.Trie,
        *,
        word_count: int,
        checksum: str,
        path: Path | None = None,
    ) -> None:
        self.id = lexicon_id
        self.word_count = word_count
        self.checksum = checksum
        self.path = path  # the .marisa file, when mapped from disk
        self._trie = trie
        self._automata: dict[str, Dawg] = {}
        self._automata_lock = threading.Lock()

    @classmethod
    def open(
        cls, path: Path, lexicon_id: str, *, word_count: int, checksum: str
    ) -> CompiledLexicon:
        """Memory-map a compiled trie: pages are shared by every process that maps it."""
        trie = marisa_trie.Trie().mmap(os.fspath(path))
        return cls(lexicon_id, trie, word_count=word_count, checksum=checksum, path=path)

    def contains(self, word: str) -> bool:
        # Kept to one `in` on the hot path. The trie only holds A-Z words, so
        # lowercase or other strings are simply absent; non-str raises in marisa.
        try:
            return word in self._trie
        except (AttributeError, TypeError):
            return False

    def __contains__(self, word: object) -> bool:
        try:
            return word in self._trie
        except (AttributeError, TypeError):
            return False

    def analysis_ready(self) -> bool:
        """The move generator's structures are in memory or compiled on disk: using them
        costs no build."""
        if {"dawg", "gaddag"} <= self._automata.keys():
            return True
        if self.path is None:
            return False
        return all(self.path.with_suffix(f".{kind}").is_file() for kind in ("dawg", "gaddag"))

    def prepare_analysis(self) -> None:
        """Build (or map) the move generator's structures now."""
        self.dawg()
        self.gaddag()

    def dawg(self) -> Dawg:
        """The list as a DAWG for the move generator (referee/dawg.py)."""
        return self._automaton("dawg", Dawg.from_words)

    def gaddag(self) -> Dawg:
        """The list as a GADDAG for the move generator (referee/dawg.py)."""
        return self._automaton("gaddag", Dawg.gaddag_from_words)

    def _automaton(self, kind: str, build: Callable[[Iterable[str]], Dawg]) -> Dawg:
        """Compiled on first use from the trie's own words into a ``.dawg`` or ``.gaddag``
        file beside the ``.marisa`` one, named by the same checksum, then memory-mapped like
        the trie. The largest lists take about a second (DAWG) and 40 seconds (GADDAG), once
        per machine: one process builds while the others wait on the file's ``.lock``.
        """
        automaton = self._automata.get(kind)
        if automaton is not None:
            return automaton
        with self._automata_lock:
            automaton = self._automata.get(kind)
            if automaton is None:
                automaton = self._automata[kind] = self._load_automaton(kind, build)
            return automaton

    def _load_automaton(self, kind: str, build: Callable[[Iterable[str]], Dawg]) -> Dawg:
        if self.path is None:
            return build(self._trie.keys())
        path = self.path.with_suffix(f".{kind}")
        with contextlib.suppress(OSError, ValueError):
            return Dawg.open(path)
        # One process of the machine builds it (the GADDAG of the largest lists costs 20-40 s
        # of CPU and 300 MB); any other waits here for its file, then maps it.
        with _machine_lock(path.with_name(f"{path.name}.lock")):
            with contextlib.suppress(OSError, ValueError):
                return Dawg.open(path)
            _write_atomically(path, build(self._trie.keys()).save)
        return Dawg.open(path)

    def __repr__(self) -> str:
        return f"CompiledLexicon({self.id!r}, <{self.word_count} words>, {self.checksum[:19]}…)"


# ---------------------------------------------------------------------------
# Reading and compiling word lists


def read_word_list(path: Path, progress: Progress | None = None) -> list[str]:
    """Read a word list: one word per line; returns the words uppercased, sorted and unique.

    Blank lines and lines starting with '#' are skipped; CR and surrounding
    whitespace are ignored. Any other line that isn't letters A-Z raises
    `LexiconFileError` naming the first few bad lines. `progress(n)` is called
    with the number of bytes read so far.
    """
    return _parse_word_list(_read_bytes(path), path, progress)


def _read_bytes(path: Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise LexiconFileError(f"No word list at {path}: the file does not exist.") from None
    except IsADirectoryError:
        raise LexiconFileError(f"{path} is a folder, not a word list file.") from None
    except OSError as error:
        raise LexiconFileError(f"Can't read the word list {path}: {error.strerror}.") from None


def _parse_word_list(data: bytes, path: Path, progress: Progress | None) -> list[str]:
    words: set[str] = set()
    bad: list[tuple[int, bytes]] = []
    bad_count = 0
    done = 0
    if data.startswith(_BOM):  # Windows editors like to add one; it isn't part of a word
        data = data[len(_BOM) :]
        done = len(_BOM)
    for number, line in enumerate(data.splitlines(keepends=True), start=1):
        done += len(line)
        if progress is not None and number % _PROGRESS_EVERY == 0:
            progress(done)
        word = line.strip()
        if not word or word.startswith(b"#"):
            continue
        if _WORD_LINE.fullmatch(word):
            words.add(word.upper().decode("ascii"))
        else:
            bad_count += 1
            if len(bad) < _BAD_LINES_SHOWN:
                bad.append((number, word))
    if progress is not None:
        progress(done)
    if bad_count:
        shown = "; ".join(
            f"line {number}: {text.decode('utf-8', 'replace')!r}" for number, text in bad
        )
        more = f" (and {bad_count - len(bad)} more)" if bad_count > len(bad) else ""
        lines = "lines that are not words" if bad_count > 1 else "line that is not a word"
        raise LexiconFileError(
            f"{path} has {bad_count} {lines} (a word is letters A-Z only, one per line): "
            f"{shown}{more}."
        )
    if not words:
        raise LexiconFileError(f"{path} has no words in it.")
    return sorted(words)


def write_word_list(path: Path, words: Iterable[str]) -> None:
    """Write words one per line (LF, final newline), replacing `path` atomically."""
    text = "".join(f"{word}\n" for word in words)
    _write_atomically(Path(path), lambda temp: Path(temp).write_text(text, "ascii", newline=""))


def _sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _file_stem(lexicon_id: str) -> str:
    # Ids come from file names, which may hold characters that are awkward in a cache name.
    return re.sub(r"[^A-Za-z0-9_-]", "_", lexicon_id)


def _write_atomically(target: Path, write: Callable[[str], object]) -> None:
    """Write through a temp file in the same folder, then rename over `target`.

    os.replace is atomic, so another process sees the old file or the new one,
    never half of one.
    """
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    try:
        # mkstemp makes the file private (0600); cached lists are for every worker to read.
        os.chmod(temp, 0o644)
        write(temp)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def _machine_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (made if missing, and kept: removing a lock file
    another process has open would let a third take a lock of its own). Every process on the
    machine waits for it, threads of one process too (each opens the file anew); the kernel
    lets it go when its holder exits, killed or not."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _read_sidecar(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None  # missing or torn: treat as absent and rebuild
    return data if isinstance(data, dict) else None


def compile_lexicon(
    source: Path,
    cache_dir: Path,
    lexicon_id: str | None = None,
    progress: Progress | None = None,
) -> CompiledLexicon:
    """Compile a word list into `cache_dir` (once) and memory-map it.

    The trie is stored as `<id>-<first 16 hex of sha256>.marisa` beside a JSON
    sidecar recording the source's size and mtime. When those still match, the
    source isn't read again, so loading a compiled list takes about a millisecond.
    """
    source = Path(source)
    cache_dir = Path(cache_dir)
    lexicon_id = lexicon_id or source.stem
    try:
        stat = source.stat()
    except FileNotFoundError:
        raise LexiconFileError(f"No word list at {source}: the file does not exist.") from None
    stamp = {
        "source": os.fspath(source.resolve()),
        "size": stat.st_size,
        "mtime_ns": stat.st_mtime_ns,
    }
    stem = _file_stem(lexicon_id)

    # Fast path: a sidecar already vouches for this exact file.
    if cache_dir.is_dir():
        for sidecar in sorted(cache_dir.glob(f"{stem}-*.json")):
            meta = _read_sidecar(sidecar)
            if (
                meta
                and meta.get("id") == lexicon_id
                and all(meta.get(k) == v for k, v in stamp.items())
            ):
                loaded = _open_compiled(sidecar.with_suffix(".marisa"), meta)
                if loaded is not None:
                    return loaded

    # The stat was taken before reading, so if the file changes meanwhile the
    # recorded stamp is stale and the next load re-hashes rather than trusting it.
    data = _read_bytes(source)
    checksum = _sha256(data)
    cache_dir.mkdir(parents=True, exist_ok=True)
    trie_path = cache_dir / f"{stem}-{checksum.removeprefix('sha256:')[:16]}.marisa"
    sidecar = trie_path.with_suffix(".json")

    meta = _read_sidecar(sidecar)
    if meta and meta.get("checksum") == checksum:
        # Same words, only the stamp moved (the file was touched or copied): no rebuild.
        loaded = _open_compiled(trie_path, meta)
        if loaded is not None:
            _write_sidecar(sidecar, {**meta, **stamp})
            return loaded

    words = _parse_word_list(data, source, progress)
    trie = marisa_trie.Trie(words)
    _write_atomically(trie_path, trie.save)
    meta = {"id": lexicon_id, "word_count": len(words), "checksum": checksum, **stamp}
    # Written after the trie, so a sidecar on disk always has its trie beside it.
    _write_sidecar(sidecar, meta)
    return CompiledLexicon.open(trie_path, lexicon_id, word_count=len(words), checksum=checksum)


def _write_sidecar(path: Path, meta: dict[str, Any]) -> None:
    text = json.dumps(meta, indent=2, sort_keys=True) + "\n"
    _write_atomically(path, lambda temp: Path(temp).write_text(text, "utf-8"))


def _open_compiled(trie_path: Path, meta: dict[str, Any]) -> CompiledLexicon | None:
    try:
        return CompiledLexicon.open(
            trie_path,
            str(meta["id"]),
            word_count=int(meta["word_count"]),
            checksum=str(meta["checksum"]),
        )
    except (OSError, KeyError, TypeError, ValueError, RuntimeError):
        return None  # trie missing or unreadable: the caller rebuilds it


def pyscrabbler_csw19_path() -> Path | None:
    """The CSW19 list shipped inside the pyscrabbler package (`Dictionary.txt`), if installed.

    It means a fresh clone has a real dictionary without any setup.
    """
    try:
        files = importlib.metadata.distribution("pyscrabbler").files
    except importlib.metadata.PackageNotFoundError:
        return None
    for file in files or ():
        if str(file).endswith("Dictionary.txt"):
            located = Path(os.fspath(file.locate()))
            if located.is_file():
                return located.resolve()
    return None


# ---------------------------------------------------------------------------
# The library of available lexica


@dataclass(frozen=True)
class LexiconInfo:
    """Where a lexicon's word list lives; cheap to list, nothing compiled."""

    id: str
    path: Path
    source: str  # "LEXICON_DIR", "imported" or "pyscrabbler"


class LexiconLibrary:
    """The lexica available to this process, found by file name in a list of folders.

    Each `*.txt` in `dirs` is one word list, its file stem the id; an earlier
    folder wins a clash. Lists in `user_dir` (where `import_lexicon` writes;
    searched after `dirs` if not among them) are labelled "imported". With
    `fallback`, the CSW19 list in the pyscrabbler package is offered when no
    folder has a CSW19. `get()` compiles on first use and keeps one object per id.
    """

    def __init__(
        self,
        dirs: Sequence[Path],
        cache_dir: Path,
        *,
        fallback: bool = True,
        user_dir: Path | None = None,
    ) -> None:
        self.dirs = [Path(d) for d in dirs]
        if user_dir is not None and Path(user_dir) not in self.dirs:
            self.dirs.append(Path(user_dir))
        self.cache_dir = Path(cache_dir)
        self.user_dir = Path(user_dir) if user_dir is not None else None
        self.fallback = fallback
        self._loaded: dict[str, Lexicon] = {HONOUR_ID.upper(): HonourSystem()}
        self._lock = threading.Lock()

    def _found(self) -> dict[str, LexiconInfo]:
        found: dict[str, LexiconInfo] = {}
        for folder in self.dirs:
            if not folder.is_dir():
                continue  # the user folder only appears with the first import
            source = "imported" if folder == self.user_dir else "LEXICON_DIR"
            for path in sorted(folder.glob("*.txt")):
                key = path.stem.upper()
                if key != HONOUR_ID.upper() and key not in found and path.is_file():
                    found[key] = LexiconInfo(path.stem, path, source)
        if self.fallback and "CSW19" not in found:
            packaged = pyscrabbler_csw19_path()
            if packaged is not None:
                found["CSW19"] = LexiconInfo("CSW19", packaged, "pyscrabbler")
        return found

    def infos(self) -> list[LexiconInfo]:
        """Every word list on offer, sorted by id (the honour system isn't a list)."""
        return sorted(self._found().values(), key=lambda info: info.id)

    def ids(self) -> list[str]:
        """Ids of every word list on offer, sorted; `HONOUR_ID` is always valid too."""
        return [info.id for info in self.infos()]

    def info(self, lexicon_id: str) -> LexiconInfo:
        """Where the list with this id (any case) lives; `UnknownLexicon` if none."""
        found = self._found()
        info = found.get(lexicon_id.upper())
        if info is None:
            raise UnknownLexicon(lexicon_id, [i.id for i in found.values()] + [HONOUR_ID])
        return info

    def get(self, lexicon_id: str) -> Lexicon:
        """The lexicon with this id (any case), compiled on first use.

        Raises `UnknownLexicon` for an unknown id and `LexiconFileError` for a broken list.
        """
        key = lexicon_id.upper()
        lexicon = self._loaded.get(key)
        if lexicon is not None:
            return lexicon
        with self._lock:  # one compile and one object per id, even under threads
            lexicon = self._loaded.get(key)
            if lexicon is None:
                info = self.info(lexicon_id)
                lexicon = compile_lexicon(info.path, self.cache_dir, info.id)
                self._loaded[key] = lexicon
            return lexicon

    def __contains__(self, lexicon_id: object) -> bool:
        if not isinstance(lexicon_id, str):
            return False
        return lexicon_id.upper() in self._loaded or lexicon_id.upper() in self._found()

    def __repr__(self) -> str:
        return (
            f"LexiconLibrary({[os.fspath(d) for d in self.dirs]!r}, {os.fspath(self.cache_dir)!r})"
        )
