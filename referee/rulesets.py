"""Rulesets as data (RULES.md §1).

A new edition is a new entry in ``RULESETS``, not a new branch through the engine. Premium
layouts are ASCII rows, one character a square::

    .  plain square          '  double letter (DL)     "  triple letter (TL)
    -  double word (DW)      =  triple word (TW)

Tiles are uppercase strings (``"E"``, Upwords' ``"QU"``). A set with blanks has ``"?"``: on a
rack, in the bag and in the tile tracker a blank is ``"?"``; on the board and in plays it is the
lowercase letter it stands for (``"e"``), worth 0, and words are read uppercase.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Literal

from referee.errors import InputError

Scoring = Literal["stacked", "premium"]
Penalty = Literal["per_tile", "letter_values"]

QU = "QU"
# A blank tile on a rack, in the bag and in the tile tracker. On the board and in a play it is
# the lowercase letter it stands for ("e"); words are read uppercase, and it is worth 0.
BLANK = "?"

LETTER_MULTIPLIER = {"'": 2, '"': 3}
WORD_MULTIPLIER = {"-": 2, "=": 3}
PREMIUM_LABELS = {"'": "DL", '"': "TL", "-": "DW", "=": "TW"}

# The 15×15 premium layout of Letter UP and the classic crossword game (RULES.md §4).
_PREMIUM_15 = (
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


def is_blank(tile: str) -> bool:
    """A tile on the board is a blank when it is written lowercase (``"e"``)."""
    return tile.islower()


def tile_in_set(tile: str) -> str:
    """The tile of the set a board tile is: a blank standing for E (``"e"``) is ``"?"``.

    >>> tile_in_set("e"), tile_in_set("E"), tile_in_set("QU")
    ('?', 'E', 'QU')
    """
    return BLANK if is_blank(tile) else tile


def _counts(spec: str) -> dict[str, int]:
    """Parse ``"1: J QU V · 2: K W"`` into ``{"J": 1, "QU": 1, ...}``."""
    counts: dict[str, int] = {}
    for group in spec.split("·"):
        number, letters = group.split(":")
        for tile in letters.split():
            counts[tile] = int(number)
    return counts


@dataclass(frozen=True)
class RuleOptions:
    """Per-game choices where editions disagree (RULES.md §3, §5, §6).

    The defaults here are RULES.md's; a ruleset may set its own (``Ruleset.default_options``),
    and ``RuleOptions.defaults(ruleset)`` or ``from_dict(data, ruleset)`` start from those.
    An option that does not apply to a ruleset (``applies_to``) is still checked for a valid
    value, and kept, but the engine never reads it for that ruleset: stored records and forms
    can carry every option whatever the game.
    """

    # Upwords: one S added to the end of a word, forming nothing else, is illegal.
    plural_s_rule: bool = True
    # A successful challenge: the mover may try again ("retry") or loses the turn.
    upheld_challenge: Literal["retry", "lose_turn"] = "retry"
    # A failed challenge costs the challenger nothing, their next turn or 5 points, or gives the
    # challenged player 5 or 10 points (the crossword game's five- and ten-point rules).
    rejected_challenge: Literal["none", "lose_turn", "minus_5", "bonus_5", "bonus_10"] = "none"
    # Solo games: how many exchanges the lone player may make (0 to 5).
    solo_exchanges: int = 0
    # Crossword game, a player goes out: they add the others' rack values and each of the others
    # subtracts their own (the classic rule, any number of players), or they add twice the
    # opponent's rack value and the opponent loses nothing (the two-player tournament rule).
    out_bonus: Literal["sum_of_others", "twice_opponents"] = "sum_of_others"

    # Each option's question and its choices, for forms: option -> (value, label).
    LABELS: ClassVar[Mapping[str, str]] = {
        "plural_s_rule": "No simply adding an S",
        "upheld_challenge": "When a challenge succeeds",
        "rejected_challenge": "When a challenge fails",
        "solo_exchanges": "Solo games: exchanges allowed",
        "out_bonus": "When a player goes out",
    }
    CHOICES: ClassVar[Mapping[str, tuple[tuple[Any, str], ...]]] = {
        "plural_s_rule": (
            (True, "a word can't be made by simply adding an S"),
            (False, "an S may simply be added to a word"),
        ),
        "upheld_challenge": (
            ("retry", "the player may try again"),
            ("lose_turn", "the play comes off and the player loses the turn"),
        ),
        "rejected_challenge": (
            ("none", "no penalty"),
            ("lose_turn", "the challenger loses the next turn"),
            ("minus_5", "the challenger loses 5 points"),
            ("bonus_5", "the challenged player gains 5 points"),
            ("bonus_10", "the challenged player gains 10 points"),
        ),
        "solo_exchanges": ((0, "none"), *((n, str(n)) for n in range(1, 6))),
        "out_bonus": (
            ("sum_of_others", "they gain the others' rack values, and each loses their own"),
            ("twice_opponents", "they gain twice the opponent's rack value (two players)"),
        ),
    }
    # Which rulesets an option concerns (every ruleset when not listed).
    _APPLIES: ClassVar[Mapping[str, Callable[[Ruleset], bool]]] = {
        "plural_s_rule": lambda ruleset: ruleset.plural_s,
        "out_bonus": lambda ruleset: ruleset.going_out_bonus,
    }

    @classmethod
    def applies_to(cls, ruleset: Ruleset) -> tuple[str, ...]:
        """The options that change something in games of ``ruleset``, in form order.

        >>> RuleOptions.applies_to(LETTERUP_CLASSIC)
        ('upheld_challenge', 'rejected_challenge', 'solo_exchanges')
        """
        return tuple(
            f.name
            for f in fields(cls)
            if f.name not in cls._APPLIES or cls._APPLIES[f.name](ruleset)
        )

    @classmethod
    def defaults(cls, ruleset: Ruleset | None = None) -> RuleOptions:
        """The options a game of ``ruleset`` has unless told otherwise.

        >>> RuleOptions.defaults(CROSSWORD_CLASSIC).upheld_challenge
        'lose_turn'
        """
        if ruleset is None or not ruleset.default_options:
            return cls()
        return replace(cls(), **ruleset.default_options)

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any] | None, ruleset: Ruleset | None = None
    ) -> RuleOptions:
        """Build options from user input, refusing unknown names and bad values.

        Options not given take the ``ruleset``'s defaults (RULES.md's without a ruleset).

        >>> RuleOptions.from_dict({"plural_s_rule": False}).plural_s_rule
        False
        """
        options = cls.defaults(ruleset)
        if not data:
            return options
        if not isinstance(data, Mapping):
            raise InputError("bad_options", "Rule options must be a mapping of name to value.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known, key=str)
        if unknown:
            raise InputError(
                "unknown_option",
                f"Unknown rule option {unknown[0]!r}; the options are {', '.join(sorted(known))}.",
            )
        return replace(options, **{name: cls._checked(name, value) for name, value in data.items()})

    @classmethod
    def _checked(cls, name: str, value: Any) -> Any:
        choices = [choice for choice, _ in cls.CHOICES[name]]
        # Compare types too: True == 1, but True is not a number of exchanges.
        if any(type(value) is type(choice) and value == choice for choice in choices):
            return value
        if name == "plural_s_rule":
            raise InputError("bad_option", "plural_s_rule must be true or false.")
        if name == "solo_exchanges":
            raise InputError("bad_option", "solo_exchanges must be a whole number from 0 to 5.")
        raise InputError("bad_option", f"{name} must be one of: {', '.join(choices)}.")

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
    # Exchanges only while the bag holds at least this many tiles (the crossword game: 7). With
    # 0, the bag need only hold as many tiles as are exchanged.
    exchange_min_bag: int = 0
    # The game ends after this many consecutive passes by each player (an exchange is no pass)...
    passes_each_to_end: int = 1
    # ...or, where set, after this many consecutive scoreless turns by each player (six in a
    # two-player crossword game): passes, exchanges, plays withdrawn after a challenge, turns
    # lost to a failed challenge and plays that score 0.
    scoreless_turns_each_to_end: int = 0
    # A player who goes out (bag empty) is credited with the other racks' values, as the rule
    # option ``out_bonus`` says; otherwise every player just loses their own rack's value.
    going_out_bonus: bool = False
    # Upwords' "no simply adding an S" rule applies (the game's option can still turn it off).
    plural_s: bool = False
    # Games of this ruleset can be written as GCG (the crossword games' record format).
    gcg: bool = False
    # The seconds its rules give a turn (Letter UP: 1:15); 0 where they set none.
    turn_seconds: int = 0
    # Rule options where this ruleset's own rules differ from RULES.md's defaults.
    default_options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        assert len(self.layout) == self.size and all(len(r) == self.size for r in self.layout)
        if self.scoring == "premium":
            assert set(self.values) == set(self.tiles)
        RuleOptions.from_dict(self.default_options)  # every default is a valid choice

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

    @property
    def blank_letters(self) -> frozenset[str]:
        """The letters a blank can stand for: every one-letter tile of the set."""
        if not self.has_blanks:
            return frozenset()
        return frozenset(t for t in self.tiles if len(t) == 1 and t.isalpha())

    def premium(self, row: int, col: int) -> str:
        """The premium mark of a square: ``"DL"``, ``"TL"``, ``"DW"``, ``"TW"`` or ``""``."""
        return PREMIUM_LABELS.get(self.layout[row][col], "")

    def tile(self, token: str) -> str:
        """Read one tile of a play or the board as people write it into its canonical form.

        Where the set has blanks a lowercase letter is a blank standing for that letter;
        otherwise case does not matter.

        >>> UPWORDS_10.tile("qu"), CROSSWORD_CLASSIC.tile("e"), CROSSWORD_CLASSIC.tile("E")
        ('QU', 'e', 'E')
        """
        text = token.strip()
        if not text.isascii():
            # str.upper() would read the dotless ı as I and the long ſ as S: letters are A–Z.
            raise InputError("unknown_tile", f"{token!r} is not a letter A–Z.")
        if self.has_blanks:
            if text.islower() and text.upper() in self.blank_letters:
                return text
            if text == BLANK:
                raise InputError(
                    "blank_letter",
                    "Say which letter the blank stands for: write it lowercase (e for a blank E).",
                )
        tile = text.upper()
        if tile in self.tiles and tile != BLANK:
            return tile
        if tile == "Q" and self.has_qu:
            raise InputError("unknown_tile", "Upwords has no Q tile: the Qu tile is written QU.")
        shown = token if text else "an empty letter"
        raise InputError("unknown_tile", f"{shown!r} is not a tile in {self.name}.")

    def split(self, text: str) -> list[str]:
        """Split written letters into tiles, reading ``Qu`` as one tile where the set has it.

        Where the set has blanks, letters keep their case (lowercase is a blank); otherwise
        they come back uppercase. Other characters (such as GCG's ``.``) come back as they
        are, one each.

        >>> UPWORDS_10.split("QuIT"), LETTERUP_CLASSIC.split("quit")
        (['QU', 'I', 'T'], ['Q', 'U', 'I', 'T'])
        >>> CROSSWORD_CLASSIC.split("qUi.")
        ['q', 'U', 'i', '.']
        """
        if not text.isascii():
            # str.upper() would read the dotless ı as I and the long ſ as S: letters are A–Z.
            odd = next(ch for ch in text if not ch.isascii())
            raise InputError("unknown_tile", f"{odd!r} is not a letter A–Z.")
        if not self.has_blanks:
            text = text.upper()
        upper = text.upper()
        has_qu = self.has_qu
        tiles = []
        i = 0
        while i < len(text):
            if has_qu and upper.startswith(QU, i):
                tiles.append(QU)
                i += 2
            else:
                tiles.append(text[i])
                i += 1
        return tiles

    def read_tiles(self, text: str) -> list[str]:
        """Read a rack's letters (``"QZ"``, ``"a b"``, ``"AE?"``) into tiles of this set.

        On a rack a blank is ``?`` and letters are read whatever their case.
        """
        tiles = []
        for token in self.split("".join(text.split())):
            token = token.upper()
            tiles.append(BLANK if token == BLANK and self.has_blanks else self.tile(token))
        return tiles

    def tile_value(self, tile: str) -> int:
        """Points for a tile: a blank on the board (``"e"``) or on a rack (``"?"``) is worth 0."""
        return self.values.get(tile_in_set(tile), 0)

    def display(self, tile: str) -> str:
        """How a tile is shown to people: ``Qu`` for the Qu tile, a blank as its lowercase
        letter (``?`` on a rack), the letter otherwise."""
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
    layout=_PREMIUM_15,
    tiles={letter: classic for letter, (classic, _, _) in _LETTERUP.items()},
    values={letter: points for letter, (_, _, points) in _LETTERUP.items()},
    scoring="premium",
    start_squares=frozenset({(7, 7)}),
    bingo_bonus=45,
    penalty="letter_values",
    passes_each_to_end=2,
    gcg=True,
    turn_seconds=75,
)

LETTERUP_RUSH = replace(
    LETTERUP_CLASSIC,
    id="letterup-rush",
    name="Letter UP Rush",
    tiles={letter: rush for letter, (_, rush, _) in _LETTERUP.items()},
)

# The classic crossword game: (count, points) per tile, "?" the blank.
_CROSSWORD = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4), "G": (3, 2),
    "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1), "M": (2, 3), "N": (6, 1),
    "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1), "S": (4, 1), "T": (6, 1), "U": (4, 1),
    "V": (2, 4), "W": (2, 4), "X": (1, 8), "Y": (2, 4), "Z": (1, 10), BLANK: (2, 0),
}  # fmt: skip

CROSSWORD_CLASSIC = Ruleset(
    id="crossword-classic",
    name="Crossword (classic, 15×15)",
    family="crossword",
    layout=_PREMIUM_15,
    tiles={tile: count for tile, (count, _) in _CROSSWORD.items()},
    values={tile: points for tile, (_, points) in _CROSSWORD.items()},
    scoring="premium",
    start_squares=frozenset({(7, 7)}),
    bingo_bonus=50,
    penalty="letter_values",
    exchange_min_bag=7,
    scoreless_turns_each_to_end=3,
    going_out_bonus=True,
    gcg=True,
    # The rules printed with the game: a phony comes off and its player loses the turn; a
    # challenger who is wrong loses their next turn ("double challenge").
    default_options={"upheld_challenge": "lose_turn", "rejected_challenge": "lose_turn"},
)

RULESETS: dict[str, Ruleset] = {
    r.id: r for r in (UPWORDS_10, UPWORDS_8, LETTERUP_CLASSIC, LETTERUP_RUSH, CROSSWORD_CLASSIC)
}

# How the crossword game's challenge rules map onto the engine: (label, words checked as they
# are played, the ``rejected_challenge`` option). With words checked as played no challenge is
# needed ("void"); the others let plays stand until challenged.
CHALLENGE_RULES: dict[str, tuple[str, bool, str]] = {
    "void": ("Void: every word is checked as it is played", True, "none"),
    "single": ("Single: a failed challenge costs nothing", False, "none"),
    "double": ("Double: a failed challenge costs the challenger's next turn", False, "lose_turn"),
    "five_point": ("Five-point: a failed challenge gives the player 5 points", False, "bonus_5"),
    "ten_point": ("Ten-point: a failed challenge gives the player 10 points", False, "bonus_10"),
}


def challenge_rule(checked_as_played: bool, rejected_challenge: str) -> str | None:
    """The name clubs give a game's challenge rule: a key of ``CHALLENGE_RULES``, or None for
    a rule they have no name for (a failed challenge costing the challenger 5 points).

    >>> challenge_rule(True, "lose_turn"), challenge_rule(False, "none")
    ('void', 'single')
    >>> challenge_rule(False, "bonus_5"), challenge_rule(False, "minus_5")
    ('five_point', None)
    """
    if checked_as_played:
        return "void"  # nothing to challenge, whatever a failed challenge would have cost
    return next(
        (
            key
            for key, (_, checked, rejected) in CHALLENGE_RULES.items()
            if not checked and rejected == rejected_challenge
        ),
        None,
    )


def challenge_rule_name(rule: str) -> str:
    """How clubs say a challenge rule (a key of ``CHALLENGE_RULES``).

    >>> challenge_rule_name("void"), challenge_rule_name("five_point")
    ('void', 'five-point challenge')
    """
    return "void" if rule == "void" else f"{rule.replace('_', '-')} challenge"


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise InputError(
            "unknown_ruleset",
            f"Unknown ruleset {ruleset_id!r}; choose one of {', '.join(RULESETS)}.",
        ) from None
