"""Reading GCG game records (the Poslfit format of Quackle, Woogles, macondo and cross-tables).

A GCG file is a list of lines. ``#pragma`` lines say who played and with which word list;
``>nick:`` lines are the turns, each with the recorded score and the player's running total::

    #player1 doug Doug Smith
    #player2 emely Emely
    #lexicon NWL2023
    >doug: DINNVWY 8D WINDY +32 32
    #note a note belongs to the turn above; lines that follow, not starting with # or >,
    continue it
    >emely: ADEEGIL 7C GALE +16 16

``read_gcg`` turns a file into a ``GcgRecord`` of ``GcgEvent``s, one per turn line, keeping
each line's number and text so that a check can point at the line it disagrees with. The
reader is lenient where real files vary (encodings, spacing, a missing rack, text after the
totals) and strict where a line cannot be a turn at all: that raises ``GcgError`` naming the
line and what was expected.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from referee.board import Board, square_name
from referee.errors import InputError, RefereeError
from referee.game import FINISHED, IN_PROGRESS, GameState
from referee.play import Placement, Play
from referee.rulesets import RuleOptions, Ruleset

if TYPE_CHECKING:
    from referee.lexicon import Lexicon

EventKind = Literal[
    "play",  # >nick: RACK 8D WORD +24 24
    "pass",  # >nick: RACK - +0 24
    "exchange",  # >nick: RACK -ABC +0 24, or -3 for three unknown tiles
    "withdrawn",  # >nick: RACK -- -24 0: the play above came off the board after a challenge
    "challenge_loss",  # >nick: RACK -- +0 24: a failed challenge cost the challenger a turn
    "challenge_bonus",  # >nick: RACK (challenge) +5 29: the challenged play stood
    "end_rack_points",  # >nick: (ABC) +14 300: the opponent's rack, to the player who went out
    "end_rack_penalty",  # >nick: ABC (ABC) -7 293, or >nick: (ABC) -7 293
    "time_penalty",  # >nick: RACK (time) -10 283
]

# Word lists as files name them, to the ids this project uses (RULES.md §7).
_LEXICA = {
    "NWL2023": "NWL2023",
    "NWL23": "NWL2023",
    "CSW21": "CSW21",
    "CSW2021": "CSW21",
    "CSW19": "CSW19",
    "CSW2019": "CSW19",
    "TWL06": "TWL06",
    "TWL2006": "TWL06",
    "TWL6": "TWL06",
    "SOWPODS": "SOWPODS",
    "ENABLE": "ENABLE",
    "ENABLE1": "ENABLE",
    "ENABLE2K": "ENABLE",
}


def lexicon_id(name: str) -> str | None:
    """The project's id of a word list as a GCG file names it, or None if it has none.

    >>> lexicon_id("NWL23"), lexicon_id("twl2006"), lexicon_id("FRA20")
    ('NWL2023', 'TWL06', None)
    """
    key = re.sub(r"[\s_-]", "", name).upper()
    return _LEXICA.get(key)


class GcgError(InputError):
    """A file that is not a GCG game record; ``line`` is the 1-based line that showed it."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__("bad_gcg", f"Line {line}: {message}" if line else message)
        self.line = line

    def to_dict(self) -> dict[str, object]:
        data = super().to_dict()
        data["line"] = self.line
        return data


@dataclass(frozen=True)
class GcgPlayer:
    """A ``#playerN nick Full Name`` line: ``number`` is N (1-based), the nick has no spaces."""

    number: int
    nick: str
    name: str


@dataclass(frozen=True)
class GcgEvent:
    """One turn line, as recorded.

    ``score`` is signed as written (a withdrawn play's ``-24``, a penalty's ``-10``) and
    ``total`` is the player's running total written after it. Plays have ``row``, ``col``
    (0-based) and ``across`` and their ``word`` as written: ``.`` or a letter where the word
    runs through a tile already on the board, a lowercase letter for a blank. Exchanges list
    their ``tiles`` (empty when only the ``count`` is known); end-of-game lines list the rack
    they count in ``tiles``.
    """

    line: int
    text: str
    kind: EventKind
    nick: str
    rack: str
    score: int
    total: int
    position: str = ""
    row: int = -1
    col: int = -1
    across: bool = True
    word: str = ""
    tiles: str = ""
    count: int = 0
    note: str = ""
    comment: str = ""  # text written after the totals
    seat: int = 0  # 0-based index into the record's players

    @property
    def is_play(self) -> bool:
        return self.kind == "play"

    def gcg(self) -> str:
        """This turn as a GCG line (the rack, position and word as recorded).

        >>> parse_event(">doug: DINNVWY 8d WINDY +32 32", 1).gcg()
        '>doug: DINNVWY 8D WINDY +32 32'
        """
        return format_event(self)


@dataclass(frozen=True)
class GcgRecord:
    """A whole GCG file: players, turns, and what its pragmas said."""

    players: tuple[GcgPlayer, ...]
    events: tuple[GcgEvent, ...]
    lexicon: str = ""
    title: str = ""
    description: str = ""
    id: str = ""
    encoding: str = ""
    notes: tuple[str, ...] = ()  # notes written before the first turn
    final_racks: Mapping[int, str] = field(default_factory=dict)  # player number -> #rackN
    pragmas: tuple[tuple[int, str, str], ...] = ()  # every pragma: (line, name, value)
    incomplete: bool = False

    @property
    def lexicon_id(self) -> str | None:
        return lexicon_id(self.lexicon) if self.lexicon else None

    def recorded_totals(self) -> list[int]:
        """Each player's last recorded running total (0 for a player with no turn)."""
        totals = [0] * len(self.players)
        for event in self.events:
            totals[event.seat] = event.total
        return totals


# Reading the text ------------------------------------------------------------------------------

_ENCODING = re.compile(rb"^#character-encoding[ \t]+(\S+)", re.MULTILINE)


def decode_gcg(data: bytes) -> tuple[str, str]:
    """Decode a file's bytes: the encoding its ``#character-encoding`` names, else UTF-8,
    else Latin-1 (which the oldest files use without saying). Returns ``(text, encoding)``.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8"
    declared = _ENCODING.search(data)
    if declared:
        name = declared.group(1).decode("ascii", errors="replace")
        try:
            return data.decode(name), codecs.lookup(name).name
        except (LookupError, UnicodeDecodeError):
            pass  # a wrong or unknown declaration: fall back as if there were none
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "iso8859-1"


_POSITION = re.compile(r"^(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))$")
_SCORE = re.compile(r"^\+?-?\d+$")  # +24, -24, 24, and +-10 as some clocks write it
_TOTAL = re.compile(r"^-?\d+$")
_RACK = re.compile(r"^[^\s#>()+\-.\d][^\s()+\-.]*$|^$")


def parse_position(text: str) -> tuple[int, int, bool]:
    """``8D`` (row first: across) or ``D8`` (column first: down) as ``(row, col, across)``.

    >>> parse_position("8D"), parse_position("h8")
    ((7, 3, True), (7, 7, False))
    """
    match = _POSITION.match(text)
    if not match or int(match.group(1) or match.group(4)) == 0:
        raise InputError("bad_position", f"{text!r} is not a position: write 8D or D8.")
    if match.group(1):
        return int(match.group(1)) - 1, ord(match.group(2).upper()) - ord("A"), True
    return int(match.group(4)) - 1, ord(match.group(3).upper()) - ord("A"), False


def format_position(row: int, col: int, across: bool) -> str:
    """The inverse of ``parse_position``: ``8D`` across, ``D8`` down."""
    column = chr(ord("A") + col)
    return f"{row + 1}{column}" if across else f"{column}{row + 1}"


_MOVE_EXAMPLE = "a turn such as '>nick: RACK 8D WORD +24 24'"


def parse_event(text: str, line: int) -> GcgEvent:
    """Read one ``>nick: ...`` line into an event (not yet checked against the players).

    >>> e = parse_event(">emely: DEIILTZ 4B TIL.. +24 79", 7)
    >>> e.kind, e.row, e.col, e.across, e.word, e.score, e.total
    ('play', 3, 1, True, 'TIL..', 24, 79)
    """
    body = text.strip()
    nick, colon, rest = body[1:].partition(":")
    nick = nick.strip()
    if not colon or not nick or " " in nick:
        raise GcgError(line, f"expected {_MOVE_EXAMPLE}, found {body!r}.")
    tokens = rest.split()
    rack = ""
    if tokens and not _is_action(tokens[0]) and _RACK.match(tokens[0]):
        rack = tokens.pop(0)
    for kind, width, build in _ACTIONS:
        if len(tokens) >= width + 2 and _matches(kind, tokens[:width]):
            score_text, total_text = tokens[width], tokens[width + 1]
            if _SCORE.match(score_text) and _TOTAL.match(total_text):
                event = GcgEvent(
                    line=line,
                    text=text,
                    kind=kind,
                    nick=nick,
                    rack=rack,
                    score=int(score_text.replace("+", "")),
                    total=int(total_text),
                    comment=" ".join(tokens[width + 2 :]),
                )
                return build(event, tokens[: width + 1])
    raise GcgError(line, f"expected {_MOVE_EXAMPLE}, found {body!r}.")


def _is_action(token: str) -> bool:
    return token.startswith(("-", "(")) or bool(_POSITION.match(token))


def _bracketed(token: str) -> str | None:
    return token[1:-1] if len(token) > 2 and token[0] == "(" and token[-1] == ")" else None


def _matches(kind: EventKind, tokens: list[str]) -> bool:
    first = tokens[0]
    if kind == "play":
        return bool(_POSITION.match(first)) and not _is_action(tokens[1])
    if kind in ("withdrawn", "challenge_loss"):
        return first == "--"
    if kind == "pass":
        return first == "-"
    if kind == "exchange":
        return first.startswith("-") and first not in ("-", "--")
    if kind == "challenge_bonus":
        return first.lower() == "(challenge)"
    if kind == "time_penalty":
        return first.lower() == "(time)"
    letters = _bracketed(first)  # end-of-game racks
    return letters is not None and letters.lower() not in ("challenge", "time")


def _play(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    position, word = tokens[0], tokens[1]
    try:
        row, col, across = parse_position(position)
    except InputError as error:
        raise GcgError(event.line, error.message) from None
    if not re.fullmatch(r"[^\s\d()+\-]+", word):
        raise GcgError(event.line, f"{word!r} is not a word: letters, with . for board tiles.")
    position = format_position(row, col, across)
    return replace(event, position=position, row=row, col=col, across=across, word=word)


def _exchange(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    tiles = tokens[0][1:]
    if tiles.isdigit():  # -3: three tiles the recorder did not see
        return replace(event, count=int(tiles))
    return replace(event, tiles=tiles, count=len(tiles))


def _end_rack(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    tiles = _bracketed(tokens[0]) or ""
    penalty = tokens[1].lstrip("+").startswith("-")
    kind: EventKind = "end_rack_penalty" if penalty else "end_rack_points"
    return replace(event, kind=kind, tiles=tiles)


def _same(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    return event


# Each kind of turn line once: how many tokens its action takes and how it is read. The first
# that fits wins (a withdrawn play and a lost challenge share ``--``: the reader tells them
# apart by who played the turn above).
_ACTIONS: tuple[tuple[EventKind, int, Callable[[GcgEvent, list[str]], GcgEvent]], ...] = (
    ("play", 2, _play),
    ("withdrawn", 1, _same),
    ("pass", 1, _same),
    ("exchange", 1, _exchange),
    ("challenge_bonus", 1, _same),
    ("time_penalty", 1, _same),
    ("end_rack_points", 1, _end_rack),
)


def format_event(event: GcgEvent) -> str:
    """A GCG line for an event: the inverse of ``parse_event`` up to spacing and case."""
    if event.kind == "play":
        action = f"{event.position} {event.word}"
    elif event.kind in ("withdrawn", "challenge_loss"):
        action = "--"
    elif event.kind == "pass":
        action = "-"
    elif event.kind == "exchange":
        action = f"-{event.tiles or event.count}"
    elif event.kind == "challenge_bonus":
        action = "(challenge)"
    elif event.kind == "time_penalty":
        action = "(time)"
    else:
        action = f"({event.tiles})"
    score = f"+{event.score}" if event.score >= 0 else str(event.score)
    parts = [f">{event.nick}:", event.rack, action, score, str(event.total), event.comment]
    return " ".join(p for p in parts if p)


# The file --------------------------------------------------------------------------------------

_PRAGMA = re.compile(r"^#([A-Za-z][\w-]*)\s*(.*)$")


def read_gcg(source: str | bytes) -> GcgRecord:
    """Read a GCG file (text, or bytes in UTF-8 or Latin-1) into a ``GcgRecord``.

    >>> record = read_gcg(b"#player1 a Ann\\n#player2 b Bo\\n>a: AEINRST 8D RETAINS +66 66\\n")
    >>> [p.name for p in record.players], record.events[0].word
    (['Ann', 'Bo'], 'RETAINS')
    """
    encoding = ""
    if isinstance(source, bytes):
        text, encoding = decode_gcg(source)
    else:
        text = source.removeprefix("\ufeff")
    return _Reader(encoding).read(text)


# Lines that belong to the player of the last play, not to the next player in turn.
_SAME_PLAYER = ("withdrawn", "challenge_bonus", "end_rack_points")


class _Reader:
    """The state of reading one file, line by line."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.players: dict[int, GcgPlayer] = {}
        self.events: list[GcgEvent] = []
        self.pragmas: list[tuple[int, str, str]] = []
        self.notes: list[str] = []
        self.racks: dict[int, str] = {}
        self.fields: dict[str, str] = {}
        # The free text that plain lines continue: a note, or the description (older files).
        self.continuing: Literal["note", "description", ""] = ""
        self.pending_blank = False
        self.incomplete = False

    def read(self, text: str) -> GcgRecord:
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                self.pending_blank = bool(self.continuing)
                continue
            if line.startswith(">"):
                self.continuing = ""
                self.event(number, raw)
            elif line.startswith("#"):
                self.continuing = ""
                self.pragma(number, line)
            elif self.continuing == "note":
                self.add_note(line, continued=True)
            elif self.continuing == "description":
                self.fields["description"] = _join(
                    self.fields["description"], line, self.pending_blank
                )
                self.pending_blank = False
            else:
                raise GcgError(
                    number, f"expected a #pragma or {_MOVE_EXAMPLE}, found {line[:60]!r}."
                )
        return self.record()

    def pragma(self, number: int, line: str) -> None:
        match = _PRAGMA.match(line)
        if not match:
            if line.startswith("#- "):  # macondo's continuation of a note
                self.continuing = "note"
                self.add_note(line[3:], continued=True)
                return
            raise GcgError(
                number, f"expected a pragma such as '#player1 nick Name', found {line!r}."
            )
        name, value = match.group(1).lower(), match.group(2).strip()
        self.pragmas.append((number, name, value))
        player = re.fullmatch(r"player(\d)", name)
        rack = re.fullmatch(r"rack(\d)", name)
        if player:
            self.player(number, int(player.group(1)), value)
        elif rack:
            self.racks[int(rack.group(1))] = value
        elif name == "note":
            self.continuing = "note"
            self.add_note(value, continued=False)
        elif name in ("lexicon", "title", "description", "id", "character-encoding"):
            self.fields[name] = value
            if name == "description":
                self.continuing = "description"
        elif name == "incomplete":
            self.incomplete = True

    def player(self, number: int, index: int, value: str) -> None:
        nick, _, name = value.partition(" ")
        if not 1 <= index <= 4 or not nick:
            raise GcgError(number, f"expected '#player{index} nick Full Name', found {value!r}.")
        self.players[index] = GcgPlayer(index, nick, name.strip() or nick)

    def add_note(self, text: str, continued: bool) -> None:
        if self.events:
            last = self.events[-1]
            self.events[-1] = replace(last, note=_join(last.note, text, self.pending_blank))
        elif continued and self.notes:
            self.notes[-1] = _join(self.notes[-1], text, self.pending_blank)
        else:
            self.notes.append(text)
        self.pending_blank = False

    def event(self, number: int, raw: str) -> None:
        event = parse_event(raw, number)
        if not self.players:
            raise GcgError(number, "expected #player1 and #player2 lines before the first turn.")
        last_play = next((e for e in reversed(self.events) if e.kind == "play"), None)
        if event.kind == "withdrawn" and (last_play is None or last_play.nick != event.nick):
            # A "--" after someone else's play: the challenger's lost turn.
            event = replace(event, kind="challenge_loss")
        seats = [i for i, p in enumerate(self.ordered_players()) if p.nick == event.nick]
        if not seats:
            names = ", ".join(f"#player{p.number} {p.nick}" for p in self.ordered_players())
            raise GcgError(number, f"{event.nick!r} is not one of the players ({names}).")
        seat = seats[0]
        if len(seats) > 1:  # two players share a nick (Quackle's "NoName"): go by turn order
            if event.kind in _SAME_PLAYER and last_play is not None:
                seat = last_play.seat
            elif self.events:
                after = self.events[-1].seat
                seat = min(seats, key=lambda s: (s - after - 1) % len(self.players))
        self.events.append(replace(event, seat=seat))
        self.pending_blank = False

    def ordered_players(self) -> list[GcgPlayer]:
        return [self.players[k] for k in sorted(self.players)]

    def record(self) -> GcgRecord:
        if not self.players:
            raise GcgError(
                0, "This is not a GCG game record: it has no #player lines and no turns."
            )
        players = self.ordered_players()
        if [p.number for p in players] != list(range(1, len(players) + 1)):
            missing = next(i for i in range(1, 5) if i not in self.players)
            raise GcgError(0, f"The record has no #player{missing} line.")
        return GcgRecord(
            players=tuple(players),
            events=tuple(self.events),
            lexicon=self.fields.get("lexicon", ""),
            title=self.fields.get("title", ""),
            description=self.fields.get("description", ""),
            id=self.fields.get("id", ""),
            encoding=self.encoding or self.fields.get("character-encoding", ""),
            notes=tuple(self.notes),
            final_racks=dict(self.racks),
            pragmas=tuple(self.pragmas),
            incomplete=self.incomplete,
        )


def _join(note: str, text: str, paragraph: bool) -> str:
    if not note:
        return text
    return f"{note}\n\n{text}" if paragraph else f"{note}\n{text}"


# Plays on a board ------------------------------------------------------------------------------


def play_placements(event: GcgEvent, board: Board) -> tuple[Placement, ...]:
    """The new tiles of a play event on ``board`` (the board before the play).

    As in the engine, a blank on the board is the lowercase letter it stands for. A ``.``,
    or a letter written where the board already has that letter, is a square the word runs
    through. Raises ``GcgError`` when the word runs off the board or through an empty ``.``
    or over a different letter.
    """
    if event.kind != "play":
        raise GcgError(event.line, f"a {event.kind.replace('_', ' ')} puts no tiles down.")
    dr, dc = (0, 1) if event.across else (1, 0)
    row, col = event.row, event.col
    placements = []
    for letter in event.word:
        if not (0 <= row < board.size and 0 <= col < board.size):
            raise GcgError(event.line, f"{event.position} {event.word} runs off the board.")
        on_board = board.top(row, col)
        square = square_name(row, col)
        if letter == ".":
            if on_board is None:
                raise GcgError(event.line, f"{event.word} runs through {square}, which is empty.")
        elif on_board is None:
            placements.append(Placement(row, col, letter if letter.islower() else letter.upper()))
        elif on_board.upper() != letter.upper():
            raise GcgError(
                event.line, f"{event.word} needs {letter} at {square}, where {on_board} lies."
            )
        row, col = row + dr, col + dc
    if not placements:
        raise GcgError(event.line, f"{event.position} {event.word} puts no new tile down.")
    return tuple(placements)


# Checking a record against the rules ---------------------------------------------------------

MismatchKind = Literal["score", "total", "final", "turn", "verdict", "replay"]


@dataclass(frozen=True)
class Mismatch:
    """A line where the record and the engine disagree.

    ``what`` says which: the line's ``score``; its ``total`` (the record's own arithmetic: the
    player's previous total plus the line's score); a ``final`` score; the ``turn`` order; a
    challenge ``verdict`` the lexicon would not give; or a ``replay`` the engine refused (the
    check stops there).
    """

    line: int
    text: str
    what: MismatchKind
    recorded: int | None
    computed: int | None
    message: str

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "text": self.text,
            "what": self.what,
            "recorded": self.recorded,
            "computed": self.computed,
            "message": self.message,
        }


_BONUS_RULES: dict[int, Literal["bonus_5", "bonus_10"]] = {5: "bonus_5", 10: "bonus_10"}


def infer_options(record: GcgRecord, ruleset: Ruleset) -> RuleOptions:
    """The rule options a record shows it was played under, the ruleset's defaults otherwise.

    A ``(challenge) +5`` or ``+10`` line shows the five- or ten-point rule and a lost turn
    (``--`` after the opponent's play) the double-challenge rule; the same player moving again
    after a withdrawn play shows they could retry; a player going out, with no penalty line
    for the opponent, shows the two-player rule (twice the opponent's rack).
    """
    options = RuleOptions.defaults(ruleset)
    events = record.events
    # The bonus most lines give: a record that mixes them disagrees with itself somewhere.
    bonuses = Counter(e.score for e in events if e.kind == "challenge_bonus" and e.score)
    if any(e.kind == "challenge_loss" for e in events):
        options = replace(options, rejected_challenge="lose_turn")
    elif bonuses:
        bonus = max(sorted(bonuses), key=lambda points: bonuses[points])
        options = replace(options, rejected_challenge=_BONUS_RULES.get(bonus, "bonus_5"))
    elif any(e.kind == "challenge_bonus" for e in events):
        options = replace(options, rejected_challenge="none")
    for event, after in zip(events, events[1:], strict=False):
        if event.kind == "withdrawn" and after.seat == event.seat and after.kind == "play":
            options = replace(options, upheld_challenge="retry")
    if ruleset.going_out_bonus:
        # Two players, and the one left with tiles loses nothing: the tournament rule.
        kinds = {e.kind for e in events}
        twice = len(record.players) == 2 and kinds >= {"end_rack_points"}
        twice = twice and "end_rack_penalty" not in kinds
        options = replace(options, out_bonus="twice_opponents" if twice else "sum_of_others")
    return options


def check_record(
    record: GcgRecord,
    ruleset: Ruleset,
    lexicon: Lexicon | None = None,
    options: RuleOptions | None = None,
) -> list[Mismatch]:
    """Replay a record through the engine and list every line where they disagree.

    Each scored line is compared with the engine's score for it, each running total with the
    player's previous total plus the line's score, and the end-of-game lines with the engine's
    rack adjustments. Plays stand as recorded; given a ``lexicon``, the record's challenge
    verdicts are judged again. Options default to what the record shows (``infer_options``).
    An empty list means the record and the rules agree on every line.
    """
    return _Replay(record, ruleset, lexicon, options or infer_options(record, ruleset)).run()


class _Refused(Exception):
    """The engine cannot replay this line; the check stops here."""


class _Replay:
    def __init__(
        self, record: GcgRecord, ruleset: Ruleset, lexicon: Lexicon | None, options: RuleOptions
    ) -> None:
        self.record = record
        self.ruleset = ruleset
        self.lexicon = lexicon
        first = record.events[0].seat if record.events else 0
        self.state = GameState.new(ruleset, len(record.players), options, first)
        self.mismatches: list[Mismatch] = []
        self.finished = False
        # Each kind of line once: how the engine replays it, returning the score it computes
        # for the line's player (None where the rules cannot compute one).
        self.handlers: dict[EventKind, Callable[[GcgEvent, int], int | None]] = {
            "play": self.play,
            "pass": self.pass_turn,
            "exchange": self.exchange,
            "withdrawn": self.withdrawn,
            "challenge_loss": self.challenge_loss,
            "challenge_bonus": self.challenge_bonus,
            "end_rack_points": self.end_rack,
            "end_rack_penalty": self.end_rack,
            "time_penalty": self.time_penalty,
        }

    def run(self) -> list[Mismatch]:
        totals = [0] * len(self.record.players)
        stopped = False
        for index, event in enumerate(self.record.events):
            computed: int | None = None
            if not stopped:
                try:
                    computed = self.handlers[event.kind](event, index)
                except (RefereeError, _Refused) as error:
                    message = error.message if isinstance(error, RefereeError) else str(error)
                    self.add(event, "replay", None, None, f"{message} The check stops here.")
                    stopped = True
            score = event.score
            if event.kind == "withdrawn" and score == 0 and computed is not None:
                score = computed  # Quackle writes "-- +0" and lowers the total itself
            elif computed is not None and computed != event.score:
                self.add(event, "score", event.score, computed, "The rules give another score.")
            if totals[event.seat] + score != event.total:
                expected = totals[event.seat] + score
                message = "The total is not the previous total plus this line's score."
                self.add(event, "total", event.total, expected, message)
            totals[event.seat] = event.total
        if not stopped:
            self.check_final(totals)
        return sorted(self.mismatches, key=lambda m: m.line)

    def add(
        self,
        event: GcgEvent,
        what: MismatchKind,
        recorded: int | None,
        computed: int | None,
        message: str,
    ) -> None:
        self.mismatches.append(Mismatch(event.line, event.text, what, recorded, computed, message))

    def check_final(self, totals: list[int]) -> None:
        final = self.state.final_scores if self.state.status == FINISHED else None
        if final is None or not self.record.events:
            return
        flagged = {m.line for m in self.mismatches}
        for seat, (recorded, computed) in enumerate(zip(totals, final, strict=True)):
            lines = {e.line for e in self.record.events if e.seat == seat}
            if recorded != computed and not lines & flagged:  # else the line says it already
                last = [e for e in self.record.events if e.seat == seat][-1]
                self.add(last, "final", recorded, computed, "The final score differs.")

    def take_turn(self, event: GcgEvent) -> None:
        if self.state.to_move != event.seat:
            self.add(
                event,
                "turn",
                event.seat + 1,
                self.state.to_move + 1,
                f"The rules give this turn to player {self.state.to_move + 1}.",
            )
            self.state.to_move = event.seat

    def gain(self, seat: int, action: Callable[[], object]) -> int:
        before = self.state.scores[seat]
        action()
        return self.state.scores[seat] - before

    def play(self, event: GcgEvent, index: int) -> int:
        self.take_turn(event)
        placements = play_placements(event, self.state.board)
        return self.state.play(Play(placements)).score

    def pass_turn(self, event: GcgEvent, index: int) -> int:
        last = self.state.last_play
        if self.state.status != IN_PROGRESS and last is not None and last.seat != event.seat:
            # After a player goes out, Woogles records the opponent's choice not to challenge
            # the last play as a pass.
            return 0
        self.take_turn(event)
        self.state.pass_turn()
        return 0

    def exchange(self, event: GcgEvent, index: int) -> int:
        self.take_turn(event)
        self.state.exchange(event.count)
        return 0

    def judge(self, event: GcgEvent, upheld: bool) -> None:
        last = self.state.last_play
        if self.lexicon is None or last is None:
            return
        invalid = [w.word for w in last.words if not self.lexicon.contains(w.word)]
        if bool(invalid) != upheld:
            found = ", ".join(invalid) if invalid else "every word acceptable"
            self.add(event, "verdict", None, None, f"The lexicon finds {found}.")

    def withdrawn(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=True)
        last = self.state.last_play
        if last is None or last.seat != event.seat:
            raise _Refused("There is no play by this player to withdraw.")
        challenger = (event.seat + 1) % self.state.players
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=challenger, upheld=True)
        )

    def challenge_loss(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=False)
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=event.seat, upheld=False)
        )

    def challenge_bonus(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=False)
        last = self.state.last_play
        if last is None or last.seat != event.seat:
            raise _Refused("There is no play by this player that a challenge could have tested.")
        challenger = (event.seat + 1) % self.state.players
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=challenger, upheld=False)
        )

    def time_penalty(self, event: GcgEvent, index: int) -> None:
        self.state.scores[event.seat] += event.score  # the clock's penalty: nothing to check
        return None

    def end_rack(self, event: GcgEvent, index: int) -> int:
        if not self.finished:
            self.finish(index)
        adjustments = self.state.adjustments or [0] * self.state.players
        return adjustments[event.seat]

    def finish(self, index: int) -> None:
        """End the game with the racks the end-of-game lines (and #rackN lines) show."""
        self.finished = True
        players = len(self.record.players)
        racks: dict[int, str] = {
            number - 1: rack for number, rack in self.record.final_racks.items()
        }
        for event in self.record.events[index:]:
            if event.kind == "end_rack_penalty":
                racks[event.seat] = event.tiles
            elif event.kind == "end_rack_points" and players == 2:
                racks[1 - event.seat] = event.tiles
        racks = {seat: rack for seat, rack in racks.items() if self.state.racks[seat]}
        self.state.finish(racks)
