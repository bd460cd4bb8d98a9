"""Rulesets as data (RULES.md §1).

A new edition is a new entry in ``RULESETS``, not a new branch through the engine. Premium
layouts are ASCII rows, one character a square::

    .  plain square          '  double letter (DL)     "  triple letter (TL)
    -  double word (DW)      =  triple word (TW)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Literal

from referee.errors import InputError

Scoring = Literal["stacked", "premium"]
Penalty = Literal["per_tile", "letter_values"]

QU = "QU"
BLANK = "?"  # a blank tile on a rack; on the board it is the lowercase letter it stands for

LETTER_MULTIPLIER = {"'": 2, '"': 3}
WORD_MULTIPLIER = {"-": 2, "=": 3}
PREMIUM_LABELS = {"'": "DL", '"': "TL", "-": "DW", "=": "TW"}

_LETTERUP_LAYOUT = (
    "=..'...=...'..=",
    '.-..."..."...-.',
    "..-...'.'...-..",
    "'..-...'...-..'",
    "....-.....-....",
    '."..."..."...".',
    "..'...'.'...'..",
    "=..'...-...'..=",
    "..'...'.'...'..",
    '."..."..."...".',
    "....-.....-....",
    "'..-...'...-..'",
    "..-...'.'...-..",
    '.-..."..."...-.',
    "=..'...=...'..=",
)


def _counts(spec: str) -> dict[str, int]:
    """Parse ``"1: J QU V · 2: K W"`` into ``{"J": 1, "QU": 1, ...}``."""
    counts: dict[str, int] = {}
    for group in spec.split("·"):
        number, letters = group.split(":")
        for tile in letters.split():
            counts[tile] = int(number)
    return counts


@dataclass(frozen=True)
class OptionSpec:
    """How a rule option is offered to people: its label, and its choices or bounds."""

    label: str
    choices: tuple[tuple[str, str], ...] = ()  # (value, label); empty for a number or a flag
    bounds: tuple[int, int] | None = None  # a whole number's range


@dataclass(frozen=True)
class RuleOptions:
    """Per-game choices where editions disagree (RULES.md §3, §5, §6); defaults as stated there."""

    # Upwords: one S added to the end of a word, forming nothing else, is illegal.
    plural_s_rule: bool = True
    # A successful challenge: the mover may try again ("retry") or loses the turn.
    upheld_challenge: Literal["retry", "lose_turn"] = "retry"
    # A failed challenge costs the challenger nothing, their next turn, or 5 points.
    rejected_challenge: Literal["none", "lose_turn", "minus_5"] = "none"
    # Solo games: how many exchanges the lone player may make (0 to 5).
    solo_exchanges: int = 0

    # Each option as people are offered it: forms and the API's checks read this table.
    FIELDS: ClassVar[dict[str, OptionSpec]] = {
        "plural_s_rule": OptionSpec("Upwords: no simply adding an S"),
        "upheld_challenge": OptionSpec(
            "When a challenge succeeds",
            (("retry", "the player may try again"), ("lose_turn", "the player loses the turn")),
        ),
        "rejected_challenge": OptionSpec(
            "When a challenge fails",
            (
                ("none", "no penalty"),
                ("lose_turn", "the challenger loses the next turn"),
                ("minus_5", "the challenger loses 5 points"),
            ),
        ),
        "solo_exchanges": OptionSpec("Solo games: exchanges allowed", bounds=(0, 5)),
    }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RuleOptions:
        """Build options from user input, refusing unknown names and bad values.

        >>> RuleOptions.from_dict({"plural_s_rule": False}).plural_s_rule
        False
        """
        if not data:
            return cls()
        if not isinstance(data, Mapping):
            raise InputError("bad_options", "Rule options must be a mapping of name to value.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InputError(
                "unknown_option",
                f"Unknown rule option {unknown[0]!r}; the options are {', '.join(sorted(known))}.",
            )
        options = cls()
        for name, value in data.items():
            options = replace(options, **{name: cls._checked(name, value)})
        return options

    @classmethod
    def _checked(cls, name: str, value: Any) -> Any:
        spec = cls.FIELDS[name]
        if spec.choices:
            values = [v for v, _ in spec.choices]
            if value not in values:
                raise InputError("bad_option", f"{name} must be one of: {', '.join(values)}.")
            return value
        if spec.bounds:
            low, high = spec.bounds
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InputError(
                    "bad_option", f"{name} must be a whole number from {low} to {high}."
                )
            return value
        if not isinstance(value, bool):
            raise InputError("bad_option", f"{name} must be true or false.")
        return value

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    family: Literal["upwords", "letterup", "crossword"]
    layout: tuple[str, ...]
    tiles: Mapping[str, int]
    scoring: Scoring
    start_squares: frozenset[tuple[int, int]]
    values: Mapping[str, int] = field(default_factory=dict)
    max_height: int = 1
    rack_size: int = 7
    bingo_tiles: int = 7
    bingo_bonus: int = 0
    penalty: Penalty = "per_tile"
    penalty_per_tile: int = 5
    # Upwords exchanges exactly one tile; Letter UP any number.
    exchange_exactly_one: bool = False
    # The game ends after this many consecutive passes by each player.
    passes_each_to_end: int = 1
    # Upwords' "no simply adding an S" rule applies (the game's option can still turn it off).
    plural_s: bool = False
    # Games of this ruleset can be written as GCG (the crossword games' record format).
    gcg: bool = False

    def __post_init__(self) -> None:
        assert len(self.layout) == self.size and all(len(r) == self.size for r in self.layout)
        if self.scoring == "premium":
            assert set(self.values) == set(self.tiles)

    @property
    def size(self) -> int:
        return len(self.layout)

    @property
    def total_tiles(self) -> int:
        return sum(self.tiles.values())

    @property
    def stacks(self) -> bool:
        return self.max_height > 1

    @property
    def has_qu(self) -> bool:
        """The set has Upwords' one ``Qu`` tile (and no plain Q)."""
        return QU in self.tiles

    @property
    def has_blanks(self) -> bool:
        return BLANK in self.tiles

    def premium(self, row: int, col: int) -> str:
        """The premium mark of a square: ``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or ``""``."""
        return PREMIUM_LABELS.get(self.layout[row][col], "")

    def tile(self, token: str) -> str:
        """Read one tile as people write it (``"a"``, ``"Qu"``) into its canonical form.

        >>> UPWORDS_10.tile("qu")
        'QU'
        """
        tile = token.strip().upper()
        if tile in self.tiles:
            return tile
        if tile == "Q" and self.has_qu:
            raise InputError("unknown_tile", "Upwords has no Q tile: the Qu tile is written QU.")
        shown = token if token.strip() else "an empty letter"
        raise InputError("unknown_tile", f"{shown!r} is not a tile in {self.name}.")

    def split(self, text: str) -> list[str]:
        """Split written letters into tiles, reading ``Qu`` as one tile where the set has it.

        Other characters (such as GCG's ``.``) come back as they are, one each.

        >>> UPWORDS_10.split("QuIT"), LETTERUP_CLASSIC.split("QUIT")
        (['QU', 'I', 'T'], ['Q', 'U', 'I', 'T'])
        """
        upper = text.upper()
        has_qu = self.has_qu
        tiles = []
        i = 0
        while i < len(upper):
            if has_qu and upper.startswith(QU, i):
                tiles.append(QU)
                i += 2
            else:
                tiles.append(upper[i])
                i += 1
        return tiles

    def read_tiles(self, text: str) -> list[str]:
        """Read a rack's letters (``"QZ"``, ``"a b"``) into tiles of this set."""
        return [self.tile(t) for t in self.split("".join(text.split()))]

    def tile_value(self, tile: str) -> int:
        return self.values.get(tile, 0)

    def display(self, tile: str) -> str:
        """How a tile is shown to people: ``Qu`` for the Qu tile, the letter otherwise."""
        return "Qu" if tile == QU else tile


UPWORDS_10 = Ruleset(
    id="upwords-10",
    name="Upwords (10×10)",
    family="upwords",
    layout=("." * 10,) * 10,
    tiles=_counts(
        "1: J QU V X Z · 2: K W Y · 3: B F G H P · 4: C · 5: D L M N R T U · 6: S · 7: A I O · 8: E"
    ),
    scoring="stacked",
    start_squares=frozenset({(4, 4), (4, 5), (5, 4), (5, 5)}),
    max_height=5,
    bingo_bonus=20,
    exchange_exactly_one=True,
    plural_s=True,
)

UPWORDS_8 = Ruleset(
    id="upwords-8",
    name="Upwords (8×8)",
    family="upwords",
    layout=("." * 8,) * 8,
    tiles=_counts(
        "1: F J K QU V W X Z · 2: B C G H R Y · 3: D L M N P S U · 4: I O T · 5: A · 6: E"
    ),
    scoring="stacked",
    start_squares=frozenset({(3, 3), (3, 4), (4, 3), (4, 4)}),
    max_height=5,
    bingo_bonus=20,
    exchange_exactly_one=True,
    plural_s=True,
)

# Letter UP letters: (Classic count, Rush count, points) — RULES.md table 2.
_LETTERUP = {
    "A": (10, 5, 1), "B": (2, 1, 3), "C": (2, 1, 3), "D": (4, 2, 2), "E": (12, 5, 1),
    "F": (2, 1, 4), "G": (3, 2, 3), "H": (3, 1, 4), "I": (10, 5, 1), "J": (1, 1, 8),
    "K": (1, 1, 5), "L": (4, 2, 2), "M": (2, 1, 4), "N": (6, 3, 1), "O": (8, 5, 1),
    "P": (2, 1, 4), "Q": (1, 1, 10), "R": (6, 3, 1), "S": (5, 3, 1), "T": (6, 3, 1),
    "U": (4, 2, 1), "V": (2, 1, 4), "W": (2, 1, 5), "X": (1, 1, 8), "Y": (2, 1, 4),
    "Z": (1, 1, 10),
}  # fmt: skip

LETTERUP_CLASSIC = Ruleset(
    id="letterup-classic",
    name="Letter UP Classic",
    family="letterup",
    layout=_LETTERUP_LAYOUT,
    tiles={letter: classic for letter, (classic, _, _) in _LETTERUP.items()},
    values={letter: points for letter, (_, _, points) in _LETTERUP.items()},
    scoring="premium",
    start_squares=frozenset({(7, 7)}),
    bingo_bonus=45,
    penalty="letter_values",
    passes_each_to_end=2,
    gcg=True,
)

LETTERUP_RUSH = replace(
    LETTERUP_CLASSIC,
    id="letterup-rush",
    name="Letter UP Rush",
    tiles={letter: rush for letter, (_, rush, _) in _LETTERUP.items()},
)

RULESETS: dict[str, Ruleset] = {
    r.id: r for r in (UPWORDS_10, UPWORDS_8, LETTERUP_CLASSIC, LETTERUP_RUSH)
}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise InputError(
            "unknown_ruleset",
            f"Unknown ruleset {ruleset_id!r}; choose one of {', '.join(RULESETS)}.",
        ) from None
