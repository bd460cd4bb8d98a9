"""The lossless JSON record of a game: export, and import back to the identical game.

The record holds everything but the game's secret token (an export is meant to be shared);
an imported game gets a new token. Import replays the log and refuses a record whose stored
state disagrees with it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils.dateparse import parse_datetime

from referee import InputError, RefereeError
from scorekeeper.games import checkpoints, clocks
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.domain import LOG_MAX, check_player_names, player_named
from scorekeeper.games.replay import count_turns_played, places_of
from scorekeeper.games.results import results
from scorekeeper.models import Game, Seat, Turn

FORMAT = "scorekeeper.game"
VERSION = 1


def _columns(model: type[models.Model], *written_apart: str) -> list[str]:
    """A model's own columns, so a field added to the model is never left out of the record."""
    return [
        f.name
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in written_apart
    ]


# The token is the game's secret and the times are written as ISO text; relations by number.
# The turns played are the log's to say: counted from it when a record is read.
# A retry slot belongs to the request that made the game or entered the turn, not to the record.
GAME_FIELDS = _columns(
    Game, "token", "created_at", "updated_at", "finished_at", "turns_played", "checkpoint_place",
    "retry_slot",
)  # fmt: skip
SEAT_FIELDS = _columns(Seat)
# A turn's place in the order of play is the log's to say, as the checkpoints are: made again.
TURN_FIELDS = _columns(Turn, "undone_at", "corrected_at", "created_at", "place", "retry_slot")
# Fields added after records were first written: a record without them still reads. A seat's
# result follows from the final scores; a turn without totals is read like the log's own
# older entries (the chart replays them).
LATER_FIELDS = {
    "result", "totals", "title", "description", "rack", "note", "corrected_by", "best", "clock",
}  # fmt: skip
# Written only when set: a game without a clock has the record it had before clocks.
WHEN_SET = {"clock"}
# A field the code names otherwise than the record does: the record keeps the name it was
# first written with (the field's column, and the API's name).
RECORD_NAMES = {"last_entry_number": "turn_number"}


def _set(row: models.Model, names: list[str]) -> dict[str, Any]:
    values = {f: getattr(row, f) for f in names}
    return {
        RECORD_NAMES.get(f, f): v for f, v in values.items() if v is not None or f not in WHEN_SET
    }


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_record(game: Game) -> dict[str, Any]:
    """The game's record; everything but the token."""
    seats = list(game.seats.select_related("player").order_by("order"))
    turns = game.turns.select_related("seat", "target").order_by("number")
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": {
            "id": str(game.pk),
            **_set(game, GAME_FIELDS),
            "created_at": _time(game.created_at),
            "updated_at": _time(game.updated_at),
            "finished_at": _time(game.finished_at),
            # Which club's game it was, for the reader; an imported game is always casual (a
            # game enters a club's standings only when a member starts it for the club).
            "club": game.club.slug if game.club else None,
        },
        "seats": [
            {"player": s.player.name, **{f: getattr(s, f) for f in SEAT_FIELDS}} for s in seats
        ],
        "turns": [
            {
                **_set(t, TURN_FIELDS),
                "seat": t.seat.order,
                "target": t.target.number if t.target else None,
                "undone_at": _time(t.undone_at),
                "corrected_at": _time(t.corrected_at),
                "created_at": _time(t.created_at),
            }
            for t in turns
        ],
    }


def import_record(record: Any, *, new_id: bool = False) -> Game:
    """Recreate a game from its record; ``InputError`` if the record is not a sound game."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise InputError("bad_record", "This is not a Scorekeeper game record.")
    if record.get("version") != VERSION:
        raise InputError(
            "bad_record",
            f"This record is version {record.get('version')!r}; this Scorekeeper reads "
            f"version {VERSION}.",
        )
    turns = record.get("turns")
    if isinstance(turns, list) and len(turns) > LOG_MAX:
        raise InputError(
            "log_full",
            f"This record has {len(turns):,} log entries: a game's log keeps at most {LOG_MAX:,}.",
        )
    try:
        with transaction.atomic():
            game = _create(record, new_id)
            try:
                problems = audit_game(game)
            except RefereeError as error:  # a stored last play the board can't hold, say
                problems = [f"the stored state does not read: {error.message}"]
            if problems:
                raise InputError(
                    "inconsistent_record",
                    "The record's state disagrees with its turn log: " + "; ".join(problems),
                )
            checkpoints.rebuild(game, game.seats.count())
            return game
    # A field of the wrong type or out of range surfaces as any of these, from Python, from
    # model validation or from the database's own constraints.
    except (
        LookupError,
        TypeError,
        ValueError,
        AttributeError,
        ValidationError,
        DatabaseError,
    ) as error:
        raise InputError(
            "bad_record", f"The game record is incomplete or malformed ({error})."
        ) from None


def _create(record: dict[str, Any], new_id: bool) -> Game:
    data = record["game"]
    if not new_id and Game.objects.filter(pk=data["id"]).exists():
        raise InputError("game_exists", f"Game {data['id']} is already here.")
    game = Game(**_fields(data, GAME_FIELDS))
    if not new_id:
        game.pk = data["id"]
    game.full_clean(exclude=["board", "options", "last_play"])
    game.save(force_insert=True)
    try:
        names = check_player_names([s["player"] for s in record["seats"]])
    except InputError as error:
        raise InputError(
            "bad_record", f"The record's players are not right: {error.message}"
        ) from None
    seats = {}
    for seat_data, name in zip(record["seats"], names, strict=True):
        seat = Seat.objects.create(
            game=game, player=player_named(name), **_fields(seat_data, SEAT_FIELDS)
        )
        seats[seat.order] = seat
    if not all("result" in s for s in record["seats"]):
        ordered = [seats[order] for order in sorted(seats)]
        finals = [s.final_score for s in ordered]
        known = [s for s in finals if s is not None]
        finished = game.status == "finished" and len(known) == len(finals)
        outcome = results(known, clocks.lost_on_time(game)) if finished else None
        for seat, result in zip(ordered, outcome or [""] * len(ordered), strict=True):
            seat.result = result
            seat.save(update_fields=["result"])
    turns = {}
    for turn_data in record["turns"]:
        turn = Turn.objects.create(
            game=game,
            place=0,  # known once every turn's target is (below)
            seat=seats[turn_data["seat"]],
            undone_at=_parse(turn_data["undone_at"]),
            corrected_at=_parse(turn_data.get("corrected_at")),
            **_fields(turn_data, TURN_FIELDS),
        )
        turn.created_at = _parse(turn_data["created_at"])  # type: ignore[assignment]
        turns[turn.number] = (turn, turn_data["target"])
    for turn, target in turns.values():
        turn.target = turns[target][0] if target is not None else None
    log = sorted((t for t, _ in turns.values()), key=lambda t: t.number)
    places = places_of(log)
    for turn in log:
        turn.place = places[turn.pk]
    Turn.objects.bulk_update(log, ["target", "created_at", "place"])
    # auto_now fields are set on save: put the record's own times back.
    Game.objects.filter(pk=game.pk).update(
        turns_played=count_turns_played(game),
        created_at=_parse(data["created_at"]),
        updated_at=_parse(data["updated_at"]),
        finished_at=_parse(data["finished_at"]),
    )
    game.refresh_from_db()
    return game


def _fields(data: dict[str, Any], names: list[str]) -> dict[str, Any]:
    named = {f: RECORD_NAMES.get(f, f) for f in names}  # by field, its name in the record
    return {f: data[named[f]] for f in names if named[f] in data or f not in LATER_FIELDS}


def _parse(value: str | None) -> datetime | None:
    if value is None:
        return None
    parsed = parse_datetime(value)
    if parsed is None:
        raise ValueError(f"{value!r} is not a date and time")
    return parsed
