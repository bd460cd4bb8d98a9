"""The turn path's statements, built once from the models: the locked read of a game with its
seats and players, the insert of a log entry, the update of a game's or a seat's state.

The ORM builds each statement again on every call, and on a turn that costs more than the
database does (``turn_cpu_ms`` in ``make bench``). These are the statements the ORM would
send, built once per database vendor from the models' fields, with Django's own conversions of
values on the way in (``get_db_prep_save``) and out (the backend's and the fields' converters):
the rows they read and write are the ORM's rows, and a field added to a model is in them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, Generic, TypeVar
from uuid import UUID

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model, QuerySet

from scorekeeper.models import Game, Player, Seat, Turn

Converter = Callable[[Any, Any, Any], Any]


def _db() -> Any:
    """The default database's connection itself: ``connection`` is a proxy that finds it for
    each use, and a turn's statements use it some fifty times (passed to the fields'
    conversions, which use it in turn)."""
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), name
    return field


def _column(model: type[Model], name: str) -> str:
    return _quote(_field(model, name).column)


def _key(model: type[Model]) -> str:
    return _quote(model._meta.pk.column)


class _Columns:
    """One model's columns in a statement under a table alias, and its rows read back."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
        self.names = [field.attname for field in self.fields]
        self.sql = ", ".join(f"{_quote(alias)}.{_quote(f.column)}" for f in self.fields)
        converters: list[tuple[int, list[Converter], Any]] = []
        for position, field in enumerate(self.fields):
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if found:
                converters.append((position, found, column))
        self.converters = converters

    def instance(self, row: Sequence[Any], start: int) -> Any:
        db = _db()
        values = list(row[start : start + len(self.fields)])
        for position, found, column in self.converters:
            value = values[position]
            for convert in found:
                value = convert(value, column, db)
            values[position] = value
        return self.model.from_db(db.alias, self.names, values)


class _GameRead:
    """``SELECT`` a game, its seats in order and their players in one statement; on a database
    that locks rows (PostgreSQL), the game's row is locked until the transaction ends."""

    def __init__(self, vendor: str) -> None:
        self.game = _Columns(Game, "g")
        self.seat = _Columns(Seat, "s")
        self.player = _Columns(Player, "p")
        column = _column
        seat_game, seat_player = column(Seat, "game"), column(Seat, "player")
        game_id, player_id = _key(Game), _key(Player)
        lock = ""
        if connection.features.has_select_for_update:
            of = ("g",) if connection.features.has_select_for_update_of else ()
            lock = " " + connection.ops.for_update_sql(of=of)
        self.plain = (
            f"SELECT {self.game.sql}, {self.seat.sql}, {self.player.sql} "
            f"FROM {_quote(Game._meta.db_table)} g "
            f"INNER JOIN {_quote(Seat._meta.db_table)} s ON s.{seat_game} = g.{game_id} "
            f"INNER JOIN {_quote(Player._meta.db_table)} p ON p.{player_id} = s.{seat_player} "
            f"WHERE g.{game_id} = %s ORDER BY s.{column(Seat, 'order')}"
        )
        self.locked = self.plain + lock
        self.version_at = [self.game.names.index(name) for name in VERSION]


# A game's version: the number of its latest log entry and the time of its last change. Every
# change to a game is stored with its row, which takes a new ``updated_at`` (``auto_now``): a
# log entry, with the seats' numbers it changed (``store_state``), the first player, the
# scorer's link.
VERSION = ("last_entry_number", "updated_at")


@cache
def _game_read(vendor: str) -> _GameRead:
    return _GameRead(vendor)


def lock_game(pk: UUID) -> tuple[Game, list[Seat]] | None:
    """The game with this id and its seats (each with its player) in order, read at once and
    locked until the transaction ends; None if there is no such game. Inside a transaction."""
    return game_of(game_rows(pk, lock=True))


def read_game(pk: UUID) -> tuple[Game, list[Seat]] | None:
    """``lock_game`` without the lock: for the pages that show a game."""
    return game_of(game_rows(pk, lock=False))


def game_rows(pk: UUID, *, lock: bool) -> list[tuple[Any, ...]]:
    """The rows ``lock_game`` (or ``read_game``) reads, as the database gives them: two reads
    are of the same game, seats and players exactly when their rows are equal."""
    db = _db()
    read = _game_read(db.vendor)
    key = Game._meta.pk.get_db_prep_value(pk, db)
    with db.cursor() as cursor:
        cursor.execute(read.locked if lock else read.plain, [key])
        found: list[tuple[Any, ...]] = cursor.fetchall()
    return found


def version_of(rows: Sequence[Sequence[Any]]) -> tuple[Any, ...] | None:
    """The game's version (``VERSION``) in rows ``game_rows`` read, as the database gave it;
    None for no rows. Two versions of one game are equal exactly when nothing about it
    changed in between."""
    if not rows:
        return None
    return tuple(rows[0][at] for at in _game_read(_db().vendor).version_at)


def game_of(rows: Sequence[Sequence[Any]]) -> tuple[Game, list[Seat]] | None:
    """The game and its seats (each with its player) of ``game_rows``; None for no rows."""
    if not rows:
        return None
    read = _game_read(_db().vendor)
    game: Game = read.game.instance(rows[0], 0)
    seats = []
    seat_at = len(read.game.fields)
    player_at = seat_at + len(read.seat.fields)
    for row in rows:
        seat: Seat = read.seat.instance(row, seat_at)
        seat.player = read.player.instance(row, player_at)
        seat.game = game
        seats.append(seat)
    return game, seats


# Writes ---------------------------------------------------------------------------------------
TURN_FIELDS = [f for f in Turn._meta.concrete_fields if not f.primary_key]


def turn_values(turn: Turn) -> list[Any]:
    """A new log entry's row as the database takes it, as ``bulk_create`` prepares one
    (``pre_save`` fills the creation time; JSON is encoded)."""
    db = _db()
    return [field.get_db_prep_save(field.pre_save(turn, True), db) for field in TURN_FIELDS]


@cache
def _turn_insert(vendor: str, returning: bool) -> str:
    columns = ", ".join(_quote(field.column) for field in TURN_FIELDS)
    marks = ", ".join(["%s"] * len(TURN_FIELDS))
    sql = f"INSERT INTO {_quote(Turn._meta.db_table)} ({columns}) VALUES ({marks})"
    if returning:
        sql += f" RETURNING {_key(Turn)}"
    return sql


def insert_turns(rows: Sequence[list[Any]]) -> None:
    """Insert new log entries' rows (``turn_values``) by one statement run for each."""
    with connection.cursor() as cursor:
        cursor.executemany(_turn_insert(connection.vendor, False), rows)


def insert_turn(turn: Turn, write: Write | None = None) -> None:
    """Insert a new log entry (its row made already by ``turn_write``, or now), and give it
    its id."""
    write = turn_write(turn) if write is None else write
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(write.sql, write.values)
        returning = db.features.can_return_columns_from_insert
        turn.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    turn._state.adding, turn._state.db = False, db.alias


@cache
def _update(
    vendor: str, model: type[Model], names: tuple[str, ...], unless: tuple[str, ...] = ()
) -> tuple[str, list[Field[Any, Any]]]:
    fields = [_field(model, name) for name in names]
    sets = ", ".join(f"{_quote(field.column)} = %s" for field in fields)
    where = " AND ".join([f"{_key(model)} = %s", *(f"{_column(model, n)} = %s" for n in unless)])
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {where}", fields


def _update_values(instance: Model, fields: Sequence[Field[Any, Any]]) -> list[Any]:
    db = _db()
    values = [f.get_db_prep_save(f.pre_save(instance, False), db) for f in fields]
    values.append(type(instance)._meta.pk.get_db_prep_value(instance.pk, db))
    return values


@dataclass
class Write:
    """A statement made ready to run, with its values, those of ``fields`` in order (an
    update's row's id after them)."""

    sql: str
    values: list[Any]
    instance: Model
    fields: Sequence[Field[Any, Any]]
    adding: bool  # an insert

    def stamp(self, now: datetime) -> None:
        """Give the fields that take the time they are saved (``auto_now``, and on an insert
        ``auto_now_add``) the time ``now``, on the instance and in the values: a row made
        ahead of its transaction is stamped as it is written, not as it was made (the
        screens' watch of the record reads the games changed since a moment)."""
        for at, field in enumerate(self.fields):
            if getattr(field, "auto_now", False) or (
                self.adding and getattr(field, "auto_now_add", False)
            ):
                setattr(self.instance, field.attname, now)
                self.values[at] = field.get_db_prep_save(now, _db())


def turn_write(turn: Turn) -> Write:
    """The insert of a new log entry, its row made now (``turn_values``)."""
    db = _db()
    returning = db.features.can_return_columns_from_insert
    sql = _turn_insert(db.vendor, returning)
    return Write(sql, turn_values(turn), turn, TURN_FIELDS, adding=True)


def update_of(instance: Model, names: Sequence[str]) -> Write:
    """The statement ``update`` runs, its values made now (``auto_now`` fields among them take
    the time now), to be run by ``run``."""
    sql, fields = _update(_db().vendor, type(instance), tuple(names))
    return Write(sql, _update_values(instance, fields), instance, fields, adding=False)


def game_update_of(game: Game, names: Sequence[str], version: tuple[Any, ...]) -> Write:
    """``update_of`` the game, that changes its row only if its version (``version_of``) is
    still ``version``: ``run`` then says whether it did."""
    sql, fields = _update(_db().vendor, Game, tuple(names), VERSION)
    return Write(sql, [*_update_values(game, fields), *version], game, fields, adding=False)


def run(writes: Sequence[Write]) -> bool:
    """Run statements made already (``update_of``), each once; whether each changed a row."""
    changed = True
    with _db().cursor() as cursor:
        for write in writes:
            cursor.execute(write.sql, write.values)
            changed = changed and cursor.rowcount > 0
    return changed


def update(instance: Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)``, by a statement built once: ``auto_now`` fields
    among them take the time now, as they would."""
    run([update_of(instance, names)])


def update_each(instances: Sequence[Model], names: Sequence[str]) -> None:
    """``update`` of the same fields of several rows of one model, by one statement run for
    each (``executemany``)."""
    each_of(instances, names).run()


@dataclass
class WriteEach:
    """``update_each`` made ready to run: its statement and each row's values."""

    sql: str
    rows: list[list[Any]]

    def run(self) -> None:
        if self.rows:
            with _db().cursor() as cursor:
                cursor.executemany(self.sql, self.rows)


def each_of(instances: Sequence[Model], names: Sequence[str]) -> WriteEach:
    """The statement ``update_each`` runs and its values, made now (to be run later)."""
    if not instances:
        return WriteEach("", [])
    sql, fields = _update(_db().vendor, type(instances[0]), tuple(names))
    return WriteEach(sql, [_update_values(instance, fields) for instance in instances])


@cache
def _turn_under(vendor: str) -> str:
    return (
        f"SELECT {_key(Turn)} FROM {_quote(Turn._meta.db_table)} "
        f"WHERE {_column(Turn, 'retry_slot')} = %s AND {_column(Turn, 'game')} = %s"
    )


def turn_under(game_pk: UUID, retry_slot: str) -> int | None:
    """The id of the game's log entry stored under ``retry_slot``, if any (by its index)."""
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(
            _turn_under(db.vendor), [retry_slot, Game._meta.pk.get_db_prep_value(game_pk, db)]
        )
        found = cursor.fetchone()
    return None if found is None else int(found[0])


# Reads built by the ORM once ------------------------------------------------------------------
M = TypeVar("M", bound=Model)
STAND_IN = UUID("5c0e0000-0000-4000-8000-00000000c0de")  # a game id no game has


class Compiled(Generic[M]):
    """A query of one model's rows about one game, built by the ORM once (for a stand-in game
    id) and run again with each game's id: the ORM's own SQL and conversions, without building
    them on every call. ``build`` makes the queryset for a game id; it selects the model's
    columns (no ``select_related``, ``only`` or annotations), which is checked once."""

    def __init__(self, build: Callable[[UUID], QuerySet[M]]) -> None:
        self.build = build
        self.by_vendor: dict[str, tuple[str, list[Any], list[int], _Columns]] = {}

    def _compiled(self) -> tuple[str, list[Any], list[int], _Columns]:
        found = self.by_vendor.get(connection.vendor)
        if found is None:
            query = self.build(STAND_IN).query
            model = query.model
            assert model is not None
            compiler = query.get_compiler(connection=connection)
            sql, params = compiler.as_sql()
            columns = _Columns(model, model._meta.db_table)
            selected = [getattr(expression, "target", None) for expression, _, _ in compiler.select]
            assert selected == columns.fields, f"{model.__name__}: select its own columns only"
            stand_in = Game._meta.pk.get_db_prep_value(STAND_IN, connection)
            slots = [i for i, value in enumerate(params) if value == stand_in]
            assert slots, "the query is about one game"
            found = self.by_vendor[connection.vendor] = (sql, list(params), slots, columns)
        return found

    def __call__(self, game_id: UUID | str) -> list[M]:
        sql, params, slots, columns = self._compiled()
        params = list(params)
        key = Game._meta.pk.get_db_prep_value(game_id, connection)
        for slot in slots:
            params[slot] = key
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [columns.instance(row, 0) for row in cursor.fetchall()]
