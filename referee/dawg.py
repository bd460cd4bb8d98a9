"""A word list as minimal automata that the move generator walks letter by letter.

Two are built from each list: the DAWG of its words, and the GADDAG (Gordon, 1994), the
DAWG of every word written as ``reversed(prefix) + "[" + rest`` for each way of cutting it
(``CARE`` gives ``C[ARE``, ``AC[RE``, ``RAC[E`` and ``ERAC``), so that a play can be grown
from a square in the middle of it: leftwards first, then, past the separator, rightwards.

Each state is one 32-bit mask — bit ``k`` set when letter ``chr(65 + k)`` leads on (bit 26
is the separator ``[``), bit 27 set when the letters read so far are a word — plus the
index of its first child in one flat
array of children, stored in letter order. The child for letter ``k`` is found with one
popcount, and the letters a state accepts are its mask: the generator intersects that with
the rack and the cross-checks as bitmasks, so a whole set of letters is tested at once.

The three arrays are written once per word list (next to its marisa trie, named by the
list's checksum) and memory-mapped, so every worker process shares one copy through the page
cache. Small lists (tests) are built in memory.

    >>> dawg = Dawg.from_words(["CAT", "CATS", "DOG"])
    >>> dawg.contains("CATS"), dawg.contains("CA")
    (True, False)
"""

from __future__ import annotations

import mmap
import os
import struct
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["SEPARATOR", "TERMINAL", "Dawg", "gaddag_strings", "letter_index"]

SEPARATOR = 26  # "[" is chr(65 + 26)
TERMINAL = 1 << 27
_MAGIC = b"DAWG2\0\0\0"
_HEADER = struct.Struct("<8sIII")  # magic, states, children, root


def letter_index(letter: str) -> int:
    """``letter_index("C") == 2``."""
    return ord(letter) - 65


def gaddag_strings(word: str) -> list[str]:
    """``gaddag_strings("CAT") == ["C[AT", "AC[T", "TAC"]``."""
    cuts = [word[:i][::-1] + "[" + word[i:] for i in range(1, len(word))]
    return [*cuts, word[::-1]]


class Dawg:
    """A minimal automaton over A-Z: ``masks[s]``, ``firsts[s]`` and ``children``."""

    __slots__ = ("masks", "firsts", "children", "root", "states", "_mmap")

    def __init__(
        self,
        masks: Sequence[int],
        firsts: Sequence[int],
        children: Sequence[int],
        root: int,
        mapped: mmap.mmap | None = None,
    ) -> None:
        self.masks = masks
        self.firsts = firsts
        self.children = children
        self.root = root
        self.states = len(masks)
        self._mmap = mapped  # kept alive as long as the views into it

    # Building ------------------------------------------------------------------------------
    @classmethod
    def from_words(cls, words: Iterable[str]) -> Dawg:
        """Build the minimal automaton of uppercase A-Z words (Daciuk's incremental method).

        Words are sorted first; each finished branch is merged with an equal one already
        registered, so the automaton stays minimal as it grows.
        """
        masks = array("I")
        firsts = array("I")
        children = array("I")
        register: dict[tuple[int, ...], int] = {}

        def freeze(node: list[int]) -> int:
            # node = [terminal, letter, child, letter, child, ...] with children already frozen
            key = tuple(node)
            state = register.get(key)
            if state is None:
                state = len(masks)
                register[key] = state
                mask = TERMINAL if node[0] else 0
                firsts.append(len(children))
                for k in range(1, len(node), 2):
                    mask |= 1 << node[k]
                    children.append(node[k + 1])
                masks.append(mask)
            return state

        # The path of the last word, as unfrozen nodes: path[i] is the node after i letters.
        path: list[list[int]] = [[0]]
        previous = ""
        for word in sorted(set(words)):
            common = 0
            limit = min(len(word), len(previous))
            while common < limit and word[common] == previous[common]:
                common += 1
            while len(path) > common + 1:  # freeze the branch the new word leaves
                child = freeze(path.pop())
                path[-1].append(child)
            for letter in word[common:]:
                path[-1].append(letter_index(letter))
                path.append([0])
            path[-1][0] = 1
            previous = word
        while len(path) > 1:
            child = freeze(path.pop())
            path[-1].append(child)
        root = freeze(path[0])
        return cls(masks, firsts, children, root)

    @classmethod
    def gaddag_from_words(cls, words: Iterable[str]) -> Dawg:
        """The GADDAG of the words (about 40 s and 300 MB while building a 280,000-word list;
        the result is about 10 MB)."""
        return cls.from_words(s for word in words for s in gaddag_strings(word))

    # Storage -------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as out:
            out.write(_HEADER.pack(_MAGIC, self.states, len(self.children), self.root))
            for part in (self.masks, self.firsts, self.children):
                out.write(array("I", part).tobytes())

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Dawg:
        """Memory-map a saved automaton; raises ``ValueError`` if the file is not one."""
        with open(path, "rb") as source:
            mapped = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
        if len(mapped) < _HEADER.size:
            raise ValueError(f"{path} is not a DAWG file")
        magic, states, count, root = _HEADER.unpack_from(mapped)
        if magic != _MAGIC or len(mapped) != _HEADER.size + 4 * (2 * states + count):
            raise ValueError(f"{path} is not a DAWG file")
        view = memoryview(mapped)[_HEADER.size :].cast("I")
        return cls(
            view[:states], view[states : 2 * states], view[2 * states :], root, mapped=mapped
        )

    # Walking -------------------------------------------------------------------------------
    def child(self, state: int, k: int) -> int:
        """The state after letter ``k`` (0 for A), or -1 when no word goes on that way."""
        mask = self.masks[state]
        if not mask >> k & 1:
            return -1
        return self.children[self.firsts[state] + (mask & ((1 << k) - 1)).bit_count()]

    def walk(self, letters: str, state: int | None = None) -> int:
        """The state after reading ``letters`` (uppercase) from ``state`` (the root), or -1."""
        state = self.root if state is None else state
        for letter in letters:
            state = self.child(state, ord(letter) - 65)
            if state < 0:
                return -1
        return state

    def is_word(self, state: int) -> bool:
        return state >= 0 and bool(self.masks[state] & TERMINAL)

    def contains(self, word: str) -> bool:
        plain = word.isascii() and word.isalpha() and word.isupper()
        return plain and self.is_word(self.walk(word))

    def words(self) -> list[str]:
        """Every word, sorted (for tests: the automaton holds exactly its list)."""
        found: list[str] = []

        def visit(state: int, prefix: str) -> None:
            mask = self.masks[state]
            if mask & TERMINAL:
                found.append(prefix)
            first = self.firsts[state]
            rank = 0
            for k in range(27):
                if mask >> k & 1:
                    visit(self.children[first + rank], prefix + chr(65 + k))
                    rank += 1

        visit(self.root, "")
        return found

    def __repr__(self) -> str:
        return f"Dawg(<{self.states} states, {len(self.children)} edges>)"


def build_file(words: Iterable[str], path: Path) -> None:
    """Build and save (the caller writes atomically: this writes ``path`` directly)."""
    Dawg.from_words(words).save(path)
