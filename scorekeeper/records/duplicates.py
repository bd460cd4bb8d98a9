"""Whether a game's record is of a game already here: this app's own export of one (its
``#id scorekeeper <game id>``), or the same turns by the same players, on the same date when
the record names one. Stored again, such a game would count twice in the rankings."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from uuid import UUID

from django.db import connection
from django.db.models import Exists, OuterRef, Prefetch
from django.urls import reverse
from django.utils import timezone

from referee import GcgRecord, get_ruleset
from scorekeeper.games.correction import move_of
from scorekeeper.games.domain import Draft, GameHere
from scorekeeper.games.replay import play_order
from scorekeeper.games.turn_kinds import KINDS
from scorekeeper.models import Game, Seat, Turn, name_key

# The authority this app's GCG export writes in ``#id`` (``scorekeeper.records.gcg_export``).
OWN_ID = "scorekeeper"
# Games of the same players and length looked at, newest first: a record is checked against
# these only, so an import costs the same however many games two players have had.
CANDIDATES = 20
_DATE = re.compile(r"\b(\d{4}-\d\d-\d\d)\b")
# What ``moves`` and ``play_order`` read of a log entry.
TURN_FIELDS = ("game", "number", "action", "tiles", "count", "result", "undone_at", "corrected_at",
               "target", "seat__order")  # fmt: skip

Move = tuple[int, str, tuple[tuple[object, ...], ...], int, str]


def check_not_here(record: GcgRecord, ruleset: str, names: Sequence[str], draft: Draft) -> None:
    """Raise ``GameHere``, naming the game and its address, when the record (entered into
    ``draft``) is of a game already here."""
    game = own_export(record)
    if game is None:
        game = same_game(record, ruleset, names, draft)
    if game is not None:
        address = reverse("game", args=[game.pk])
        raise GameHere(
            game,
            f"This game is already here: {_described(game)}, at {address}. Stored again, it "
            "would count twice.",
        )


def hold_import_lock(ruleset: str, names: Sequence[str]) -> None:
    """Hold, until the transaction ends, the lock of imports of these players' games.

    SQLite's write transactions hold the database's one write lock already; PostgreSQL's take a
    transaction-level advisory lock keyed by the players, so imports of other games go on."""
    if connection.vendor != "postgresql":
        return
    players = "\0".join([ruleset, *(name_key(name) for name in names)])
    digest = hashlib.blake2b(players.encode(), digest_size=8, person=b"gcg-import").digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, signed=True)])


def own_export(record: GcgRecord) -> Game | None:
    """The game here whose export this record is, by its ``#id``."""
    authority, _, value = record.id.strip().partition(" ")
    if authority != OWN_ID:
        return None
    try:
        pk = UUID(value.strip())
    except ValueError:
        return None
    return Game.objects.filter(pk=pk).first()


def same_game(record: GcgRecord, ruleset: str, names: Sequence[str], draft: Draft) -> Game | None:
    """A game here with the same players in the same seats, the same turns, and the date the
    record names (if it names one)."""
    keys = [name_key(name) for name in names]
    date = _date_in(record.title)
    board = draft.state.to_dict()["board"]
    seats = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("order"))
    games = Game.objects.filter(ruleset=ruleset, turns_played=draft.turns_played)
    for order, key in enumerate(keys):
        seated = Seat.objects.filter(game=OuterRef("pk"), order=order, player__name_key=key)
        games = games.filter(Exists(seated))
    for game in games.prefetch_related(seats).order_by("-created_at")[:CANDIDATES]:
        if [seat.player.name_key for seat in game.seats.all()] != keys:
            continue  # a game of these players and more
        if (date and _played_on(game) != date) or game.board != board:
            continue  # the board it ended with is on its row: its log is read only if it agrees
        log = game.turns.select_related("seat").only(*TURN_FIELDS)
        if moves(play_order(list(log))) == moves(draft.turns):
            return game
    return None


def moves(turns: Iterable[Turn]) -> list[Move]:
    """Who did what, turn by turn: the scores follow from it, and records differ in how they
    spell a play (``.`` or the letter for a tile already down) but not in its tiles."""
    found: list[Move] = []
    for turn in turns:
        kind = KINDS.get(turn.action)
        if kind is not None and kind.replaces:  # a correction stands for what was played
            kind = KINDS[move_of(turn)]
        if kind is not None and (kind.correctable or kind.judges_play):
            tiles = tuple(sorted(tuple(tile) for tile in turn.tiles or []))
            found.append((turn.seat.order, kind.name, tiles, turn.count, turn.result))
    return found


def _date_in(text: str) -> str:
    match = _DATE.search(text)
    return match.group(1) if match else ""


def _played_on(game: Game) -> str:
    """The date a game was played: its record's, else the day it was started here."""
    return _date_in(game.title) or f"{timezone.localtime(game.created_at):%Y-%m-%d}"


def _described(game: Game) -> str:
    players = " v ".join(seat.player.name for seat in game.seats.all())
    return f"{players}, {get_ruleset(game.ruleset).name}, {_played_on(game)}"
