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
each line's number and text so that a check can point at the line it disagrees with.
``write_gcg`` is the one writer: a record read from a file, or one built with ``GcgRecord.of``
from a game's turns and ``GcgNote``s, prints the same way. The
reader is lenient where real files vary (encodings, spacing, a missing rack, text after the
totals) and strict where a line cannot be a turn at all: that raises ``GcgError`` naming the
line and what was expected. ``referee.gcg_check`` replays a record through the engine.

The reader takes files from anyone: its time is linear in the file's size (a note continued
over many lines is joined once, at the end), a file is at most ``MAX_SIZE`` long and
``MAX_LINES`` lines, a number at most ``MAX_DIGITS`` digits, and text that no database can
store (a NUL, a lone surrogate) or an encoding that is not a character set (``punycode``,
``unicode_escape``) is refused naming its line.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from referee.board import Board, square_name
from referee.errors import InputError
from referee.play import Placement

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

    def gcg(self) -> str:
        """This turn as a GCG line (the rack, position and word as recorded).

        >>> parse_event(">doug: DINNVWY 8d WINDY +32 32", 1).gcg()
        '>doug: DINNVWY 8D WINDY +32 32'
        """
        return format_event(self)


@dataclass(frozen=True)
class GcgNote:
    """A ``#note`` written between turns: it is about the turn before it (before the first
    turn, about the game). Its lines are written as ``#note`` lines."""

    text: str


# What a record is built from, in the order of the file: turn lines and the notes between them.
GcgEntry = GcgEvent | GcgNote


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

    @classmethod
    def of(
        cls,
        players: Sequence[GcgPlayer],
        entries: Iterable[GcgEntry],
        *,
        lexicon: str = "",
        title: str = "",
        record_id: str = "",
    ) -> GcgRecord:
        """A record to write, from its turns in order with the notes between them: each note
        joins the note of the turn before it, and notes before the first turn are the game's.

        >>> ann, bo = GcgPlayer(1, "a", "Ann"), GcgPlayer(2, "b", "Bo")
        >>> passed = parse_event(">a: ??????? - +0 0", 0)
        >>> print(write_gcg(GcgRecord.of([ann, bo], [GcgNote("Hi."), passed, GcgNote("Oh.")])))
        #character-encoding UTF-8
        #player1 a Ann
        #player2 b Bo
        #note Hi.
        >a: ??????? - +0 0
        #note Oh.
        <BLANKLINE>
        """
        events: list[GcgEvent] = []
        notes: list[str] = []
        for entry in entries:
            if isinstance(entry, GcgEvent):
                events.append(entry)
            elif events:
                before = events[-1]
                note = f"{before.note}\n{entry.text}" if before.note else entry.text
                events[-1] = replace(before, note=note)
            else:
                notes.append(entry.text)
        return cls(
            players=tuple(players),
            events=tuple(events),
            lexicon=lexicon,
            title=title,
            id=record_id,
            notes=tuple(notes),
        )

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

# A game's record is a few kilobytes, an annotated one some tens: these bound what a file from
# anyone can cost to read.
MAX_SIZE = 200_000  # bytes of a file (characters of a text)
MAX_LINES = 10_000
MAX_DIGITS = 6  # of a score, a running total or a count

_ENCODING = re.compile(rb"^#character-encoding[ \t]+(\S+)", re.MULTILINE)
# Codecs Python decodes text with that are not character sets: they turn escapes into any code
# point (a NUL, a lone surrogate), and punycode takes quadratic time.
_NOT_CHARSETS = {"idna", "punycode", "unicode-escape", "raw-unicode-escape", "undefined"}
# What no text column stores: PostgreSQL refuses NUL, and a lone surrogate is not UTF-8.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def decode_gcg(data: bytes) -> tuple[str, str]:
    """Decode a file's bytes: the encoding its ``#character-encoding`` names, else UTF-8,
    else Latin-1 (which the oldest files use without saying). Returns ``(text, encoding)``.

    A declaration that names no character set Python knows, or that the bytes do not follow,
    is ignored; one that names a codec that is not a character set raises ``GcgError``.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace"), "utf-8"
    declared = _ENCODING.search(data)
    if declared:
        name = declared.group(1).decode("ascii", errors="replace")
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            codec = ""  # an unknown declaration: fall back as if there were none
        if codec in _NOT_CHARSETS:
            line = len(data[: declared.start()].splitlines()) + 1
            raise GcgError(
                line,
                f"{_shown(name)} is not a character set: declare the one the file is written "
                "in, such as UTF-8 or ISO-8859-1.",
            )
        if codec:
            try:
                return data.decode(codec), codec
            except ValueError:  # UnicodeError: the bytes don't follow the declaration
                pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "iso8859-1"


def _shown(text: str, most: int = 60) -> str:
    """Text from a file as an error message quotes it: cut short, with its quotes."""
    return repr(text[:most]) + ("…" if len(text) > most else "")


def _number(text: str, line: int) -> int:
    """A score, total or count as written; refused beyond ``MAX_DIGITS`` digits (Python's
    ``int`` refuses past 4,300, and no game comes near a million points)."""
    digits = text.lstrip("+-")
    if len(digits) > MAX_DIGITS:
        raise GcgError(
            line,
            f"a number of {len(digits):,} digits ({_shown(text, 12)}): scores, totals and "
            f"counts have at most {MAX_DIGITS}.",
        )
    return int(text.replace("+", ""))


_POSITION = re.compile(r"^(?:([0-9]{1,2})([A-Za-z])|([A-Za-z])([0-9]{1,2}))$")
_SCORE = re.compile(r"^\+?-?[0-9]+$")  # +24, -24, 24, and +-10 as some clocks write it
_TOTAL = re.compile(r"^-?[0-9]+$")
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
        raise GcgError(line, f"expected {_MOVE_EXAMPLE}, found {_shown(body)}.")
    tokens = rest.split()
    rack = ""
    if tokens and not _is_action(tokens[0]) and _RACK.match(tokens[0]):
        rack = tokens.pop(0)
    for form in _FORMS:
        width = form.width
        if len(tokens) >= width + 2 and form.matches(tokens[:width]):
            score_text, total_text = tokens[width], tokens[width + 1]
            if _SCORE.match(score_text) and _TOTAL.match(total_text):
                event = GcgEvent(
                    line=line,
                    text=text,
                    kind=form.kinds[0],
                    nick=nick,
                    rack=rack,
                    score=_number(score_text, line),
                    total=_number(total_text, line),
                    comment=" ".join(tokens[width + 2 :]),
                )
                return form.read(event, tokens[: width + 1])
    raise GcgError(line, f"expected {_MOVE_EXAMPLE}, found {_shown(body)}.")


def _is_action(token: str) -> bool:
    return token.startswith(("-", "(")) or bool(_POSITION.match(token))


def _bracketed(token: str) -> str | None:
    return token[1:-1] if len(token) > 2 and token[0] == "(" and token[-1] == ")" else None


def _is_end_rack(tokens: list[str]) -> bool:
    letters = _bracketed(tokens[0])
    return letters is not None and letters.lower() not in ("challenge", "time")


def _play(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    position, word = tokens[0], tokens[1]
    try:
        row, col, across = parse_position(position)
    except InputError as error:
        raise GcgError(event.line, error.message) from None
    if not re.fullmatch(r"[^\s\d()+\-]+", word):
        raise GcgError(
            event.line, f"{_shown(word, 20)} is not a word: letters, with . for board tiles."
        )
    position = format_position(row, col, across)
    return replace(event, position=position, row=row, col=col, across=across, word=word)


def _exchange(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    tiles = tokens[0][1:]
    if tiles.isascii() and tiles.isdigit():  # -3: three tiles the recorder did not see
        return replace(event, count=_number(tiles, event.line))
    return replace(event, tiles=tiles, count=len(tiles))


def _end_rack(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    tiles = _bracketed(tokens[0]) or ""
    penalty = tokens[1].lstrip("+").startswith("-")
    kind: EventKind = "end_rack_penalty" if penalty else "end_rack_points"
    return replace(event, kind=kind, tiles=tiles)


def _same(event: GcgEvent, tokens: list[str]) -> GcgEvent:
    return event


@dataclass(frozen=True)
class _Form:
    """One form of turn line: the kinds it writes, how many tokens its action takes (between
    the rack and the score), how to recognise, read and write that action."""

    kinds: tuple[EventKind, ...]
    width: int
    matches: Callable[[list[str]], bool]
    read: Callable[[GcgEvent, list[str]], GcgEvent]
    action: Callable[[GcgEvent], str]


# Each form of turn line once; the first that fits wins. A withdrawn play and a lost challenge
# share "--" (the reader tells them apart by who played the turn above), and the end-of-game
# lines are points or a penalty by the sign of their score.
_FORMS = (
    _Form(
        ("play",),
        2,
        lambda t: bool(_POSITION.match(t[0])) and not _is_action(t[1]),
        _play,
        lambda e: f"{e.position} {e.word}",
    ),
    _Form(("withdrawn", "challenge_loss"), 1, lambda t: t[0] == "--", _same, lambda e: "--"),
    _Form(("pass",), 1, lambda t: t[0] == "-", _same, lambda e: "-"),
    _Form(
        ("exchange",),
        1,
        lambda t: t[0].startswith("-") and t[0] not in ("-", "--"),
        _exchange,
        lambda e: f"-{e.tiles or e.count}",
    ),
    _Form(
        ("challenge_bonus",),
        1,
        lambda t: t[0].lower() == "(challenge)",
        _same,
        lambda e: "(challenge)",
    ),
    _Form(("time_penalty",), 1, lambda t: t[0].lower() == "(time)", _same, lambda e: "(time)"),
    _Form(
        ("end_rack_points", "end_rack_penalty"),
        1,
        _is_end_rack,
        _end_rack,
        lambda e: f"({e.tiles})",
    ),
)
_FORM_OF = {kind: form for form in _FORMS for kind in form.kinds}


def format_event(event: GcgEvent) -> str:
    """A GCG line for an event: the inverse of ``parse_event`` up to spacing and case."""
    action = _FORM_OF[event.kind].action(event)
    # A withdrawn play's points come off: a play that scored nothing is withdrawn for -0.
    taken_off = event.score < 0 or (event.score == 0 and event.kind == "withdrawn")
    score = f"-{abs(event.score)}" if taken_off else f"+{event.score}"
    parts = [f">{event.nick}:", event.rack, action, score, str(event.total), event.comment]
    return " ".join(p for p in parts if p)


# The file --------------------------------------------------------------------------------------

_PRAGMA = re.compile(r"^#([A-Za-z][\w-]*)\s*(.*)$")


def read_gcg(
    source: str | bytes, *, max_size: int | None = MAX_SIZE, max_lines: int | None = MAX_LINES
) -> GcgRecord:
    """Read a GCG file (text, or bytes in UTF-8 or Latin-1) into a ``GcgRecord``.

    A file longer than ``max_size`` (bytes, or characters of a text) or ``max_lines`` is
    refused before it is read (``None``: no limit).

    >>> record = read_gcg(b"#player1 a Ann\\n#player2 b Bo\\n>a: AEINRST 8D RETAINS +66 66\\n")
    >>> [p.name for p in record.players], record.events[0].word
    (['Ann', 'Bo'], 'RETAINS')
    """
    if max_size is not None and len(source) > max_size:
        unit = "bytes" if isinstance(source, bytes) else "characters"
        raise GcgError(
            0,
            f"This file has {len(source):,} {unit}: a game record has at most {max_size:,}.",
        )
    encoding = ""
    if isinstance(source, bytes):
        text, encoding = decode_gcg(source)
    else:
        text = source.removeprefix("\ufeff")
    lines = text.splitlines()
    if max_lines is not None and len(lines) > max_lines:
        raise GcgError(
            0, f"This file has {len(lines):,} lines: a game record has at most {max_lines:,}."
        )
    return _Reader(encoding).read(lines)


# Lines that belong to the player of the last play, not to the next player in turn.
_SAME_PLAYER = ("withdrawn", "challenge_bonus", "end_rack_points")


class _Text:
    """Free text continued line by line (a note, a description), joined once when the file has
    been read: joining it again at every line would cost the square of its length.

    Lines join with a newline, or a blank line where the file had one between them.
    """

    def __init__(self, first: str = "") -> None:
        self.parts = [first] if first else []

    def add(self, text: str, paragraph: bool) -> None:
        if self.parts:
            self.parts += ["\n\n" if paragraph else "\n", text]
        elif text:
            self.parts = [text]

    def __str__(self) -> str:
        return "".join(self.parts)


class _Reader:
    """The state of reading one file, line by line."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.players: dict[int, GcgPlayer] = {}
        self.events: list[GcgEvent] = []
        self.event_notes: list[_Text] = []  # each event's note, by its index
        self.last_play: GcgEvent | None = None
        self.pragmas: list[tuple[int, str, str]] = []
        self.notes: list[_Text] = []
        self.racks: dict[int, tuple[int, str]] = {}  # player number -> (line, rack)
        self.fields: dict[str, str] = {}
        self.description = _Text()
        # The free text that plain lines continue: a note, or the description (older files).
        self.continuing: Literal["note", "description", ""] = ""
        self.pending_blank = False
        self.incomplete = False

    def read(self, lines: list[str]) -> GcgRecord:
        for number, raw in enumerate(lines, start=1):
            if _UNSTORABLE.search(raw):
                raise GcgError(number, "a NUL character or a lone surrogate: that is not text.")
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
                self.description.add(line, self.pending_blank)
                self.pending_blank = False
            else:
                raise GcgError(
                    number, f"expected a #pragma or {_MOVE_EXAMPLE}, found {_shown(line)}."
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
                number, f"expected a pragma such as '#player1 nick Name', found {_shown(line)}."
            )
        name, value = match.group(1).lower(), match.group(2).strip()
        self.pragmas.append((number, name, value))
        player = re.fullmatch(r"player([0-9])", name)
        rack = re.fullmatch(r"rack([0-9])", name)
        if player:
            self.player(number, int(player.group(1)), value)
        elif rack:
            self.racks[int(rack.group(1))] = (number, value)
        elif name == "note":
            self.continuing = "note"
            self.add_note(value, continued=False)
        elif name == "description":
            self.description = _Text(value)
            self.continuing = "description"
        elif name in ("lexicon", "title", "id", "character-encoding"):
            self.fields[name] = value
        elif name == "incomplete":
            self.incomplete = True

    def player(self, number: int, index: int, value: str) -> None:
        nick, _, name = value.partition(" ")
        if not 1 <= index <= 4 or not nick:
            raise GcgError(
                number, f"expected '#player{index} nick Full Name', found {_shown(value)}."
            )
        self.players[index] = GcgPlayer(index, nick, name.strip() or nick)

    def add_note(self, text: str, continued: bool) -> None:
        if self.events:
            self.event_notes[-1].add(text, self.pending_blank)
        elif continued and self.notes:
            self.notes[-1].add(text, self.pending_blank)
        else:
            self.notes.append(_Text(text))
        self.pending_blank = False

    def event(self, number: int, raw: str) -> None:
        event = parse_event(raw, number)
        if not self.players:
            raise GcgError(number, "expected #player1 and #player2 lines before the first turn.")
        last_play = self.last_play
        if event.kind == "withdrawn" and (last_play is None or last_play.nick != event.nick):
            # A "--" after someone else's play: the challenger's lost turn.
            event = replace(event, kind="challenge_loss")
        seats = [i for i, p in enumerate(self.ordered_players()) if p.nick == event.nick]
        if not seats:
            names = ", ".join(f"#player{p.number} {p.nick}" for p in self.ordered_players())
            raise GcgError(number, f"{_shown(event.nick)} is not one of the players ({names}).")
        seat = seats[0]
        if len(seats) > 1:  # two players share a nick (Quackle's "NoName"): go by turn order
            if event.kind in _SAME_PLAYER and last_play is not None:
                seat = last_play.seat
            elif self.events:
                after = self.events[-1].seat
                seat = min(seats, key=lambda s: (s - after - 1) % len(self.players))
        event = replace(event, seat=seat)
        self.events.append(event)
        self.event_notes.append(_Text())
        if event.kind == "play":
            self.last_play = event
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
        for number, (line, _) in sorted(self.racks.items()):
            if not 1 <= number <= len(players):
                raise GcgError(
                    line,
                    f"#rack{number} names no player: the record has {len(players)} players, "
                    f"#player1 to #player{len(players)}.",
                )
        events = [
            replace(event, note=str(note)) if note.parts else event
            for event, note in zip(self.events, self.event_notes, strict=True)
        ]
        return GcgRecord(
            players=tuple(players),
            events=tuple(events),
            lexicon=self.fields.get("lexicon", ""),
            title=self.fields.get("title", ""),
            description=str(self.description),
            id=self.fields.get("id", ""),
            encoding=self.encoding or self.fields.get("character-encoding", ""),
            notes=tuple(str(note) for note in self.notes),
            final_racks={number: rack for number, (_, rack) in self.racks.items()},
            pragmas=tuple(self.pragmas),
            incomplete=self.incomplete,
        )


_HEADER_PRAGMAS = {"title", "description", "id", "lexicon", "character-encoding", "note"}


def write_gcg(record: GcgRecord) -> str:
    """A record as GCG text, UTF-8 declared: ``read_gcg(write_gcg(r))`` gives ``r`` back, up to
    line numbers, spacing and the order of pragmas.

    >>> print(write_gcg(read_gcg("#player1 a Ann\\n#player2 b Bo\\n>a: ?EQU 9d qUEy +30 30")))
    #character-encoding UTF-8
    #player1 a Ann
    #player2 b Bo
    >a: ?EQU 9D qUEy +30 30
    <BLANKLINE>
    """
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{p.number} {p.nick} {p.name}" for p in record.players]
    for name in ("lexicon", "title", "description", "id"):
        value = getattr(record, name)
        if value:
            lines.append(f"#{name} {value}")
    for _, name, value in record.pragmas:
        if name not in _HEADER_PRAGMAS and not re.fullmatch(r"(player|rack)[0-9]", name):
            lines.append(f"#{name} {value}".rstrip())
    for note in record.notes:
        lines += _note_lines(note)
    for event in record.events:
        lines.append(format_event(event))
        lines += _note_lines(event.note)
    lines += [f"#rack{number} {rack}" for number, rack in sorted(record.final_racks.items())]
    return "\n".join(lines) + "\n"


def _note_lines(note: str) -> list[str]:
    # One #note line for each line of the note: a plain line starting with # or > would not
    # read back as part of it.
    return [f"#note {line}".rstrip() for line in note.split("\n")] if note else []


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
