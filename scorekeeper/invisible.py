"""What can't be seen: one definition for every name and line of text the app takes in.

A player's or a club's name, or a record's title and notes, shown on a page, may not carry
characters that draw nothing or that reorder what is drawn: "Ann" followed by a Hangul filler
looks like Ann and is not, and a right-to-left override turns a title around. ``unseen`` says
which characters those are; ``visible`` removes them. Names refuse them
(``scorekeeper.models.name_problem``); titles and notes from an imported record lose them.

Python's ``unicodedata`` knows general categories but not the Default_Ignorable_Code_Point
property, so its ranges are kept here as data, copied from the Unicode Character Database.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right

# Default_Ignorable_Code_Point, from DerivedCoreProperties.txt of Unicode 17.0.0 (4,174 code
# points; the same set as 15.1 and 16.0). Besides the ranges reserved for future ignorables,
# it holds every bidi control, zero-width character, variation selector and Hangul filler.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE, (NON-)JOINER, LEFT-TO-RIGHT and RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # bidi embeddings, POP DIRECTIONAL FORMATTING, bidi overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, bidi isolates, deprecated formats
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1..16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE (byte order mark)
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP..UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM..END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17..256, reserved
)

# Named by the rules, whether or not Unicode counts them ignorable: what draws as a blank
# (the Hangul fillers, the braille blank) and the bidi controls.
HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"
BRAILLE_BLANK = "\u2800"
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

_EXTRA = frozenset(HANGUL_FILLERS + BRAILLE_BLANK + BIDI_CONTROLS)
_STARTS = [start for start, _ in DEFAULT_IGNORABLE]


def default_ignorable(ch: str) -> bool:
    """Whether Unicode says ``ch`` draws nothing unless a program knows to show it.

    >>> default_ignorable("\\u200b"), default_ignorable("\\U000e0041"), default_ignorable("A")
    (True, True, False)
    """
    point = ord(ch)
    index = bisect_right(_STARTS, point) - 1
    return index >= 0 and point <= DEFAULT_IGNORABLE[index][1]


def unseen(ch: str) -> bool:
    """Whether ``ch`` is a character nobody can see or that reorders what they see: a control
    or format character, a default-ignorable one, a Hangul filler, the braille blank, a bidi
    control.

    >>> [unseen(c) for c in "A\\u3164\\u2800\\u202e\\x07 é"]
    [False, True, True, True, True, False, False]
    """
    return ch in _EXTRA or unicodedata.category(ch) in ("Cc", "Cf") or default_ignorable(ch)


def visible(text: str, keep: str = "") -> str:
    """``text`` without what can't be seen (``unseen``), but for the characters in ``keep``
    (``"\\n"`` for text of several lines).

    >>> visible("\\u202eAnn\\u3164")
    'Ann'
    >>> visible("first line\\nsecond\\u200b line", keep="\\n")
    'first line\\nsecond line'
    """
    return "".join(ch for ch in text if ch in keep or not unseen(ch))
