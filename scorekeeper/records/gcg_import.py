"""Importing a game record (GCG) as a game like any other.

The record is read (``referee.gcg``), checked line by line against the rules
(``referee.gcg_check``), and then entered turn by turn into a ``domain.Draft`` through the same
handlers as a turn at the table, so the stored game is replayable from its log and
``check_games`` finds nothing. All of that happens before anything is written, in time linear in
the record; the draft is then stored in one short transaction, so an import never holds the
database while others wait. The referee's scores are kept: every line where the record says
otherwise is reported (line, text, recorded, computed), and ``strict`` refuses a record with
any such line. A record that can't be a game is refused naming its line, and writes nothing.

The record's players are the players known by those names only where ``linked`` says the
importer speaks for them (``scorekeeper.clubs.membership.speaks_for``); every other name is a
new player of its own, nobody's, counted in no ranking, so an upload can't add to anyone's
record. A record of a game already here (this app's own export, or the same turns by the same
players) is refused, naming that game (``scorekeeper.records.duplicates``), unless that game
holds a record's unlinked names whose players the importer speaks for: then those are linked
(``domain.do_link_players``), and nothing is copied.

The game is a tournament-style game judged by the lexicon the record names (``#lexicon
NWL23`` → NWL2023) when it is installed here, else the honour system; the verdicts the record
gives its challenges stand as they were given, and phonies that stood unchallenged stay, as
they did at the table. The rule options are read from the record (``infer_options``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from referee import (
    HONOUR_ID,
    IN_PROGRESS,
    RULESETS,
    GcgError,
    GcgEvent,
    GcgRecord,
    InputError,
    Mismatch,
    RefereeError,
    Ruleset,
    check_record,
    get_ruleset,
    infer_options,
    play_placements,
    read_gcg,
)
from scorekeeper.games import domain
from scorekeeper.games.domain import GameHere
from scorekeeper.games.word_policy import MANUAL, resolve_lexicon
from scorekeeper.invisible import visible
from scorekeeper.models import NAME_MAX, Game, Player, name_key, name_problem
from scorekeeper.records.duplicates import check_not_here, hold_import_lock

DEFAULT_RULESET = "crossword-classic"
# What the engine cannot store as a game: a turn it refuses, or a turn out of order.
UNSTORABLE = ("replay", "turn")
# The end-of-game lines: together, the one entry that ends the game.
ENDING = ("end_rack_points", "end_rack_penalty")


@dataclass(frozen=True)
class Imported:
    game: Game
    mismatches: list[Mismatch]
    # The record's game was here already, with names no one had linked: the importer, who
    # speaks for those players, linked them to it rather than storing a copy.
    linked_here: bool = False

    def to_dict(self) -> dict[str, object]:
        """What ``import_game --json`` prints and the API answers."""
        seats = self.game.seats.select_related("player").order_by("order")
        return {
            "id": str(self.game.pk),
            "ruleset": self.game.ruleset,
            "players": [{"name": s.player.name, "final_score": s.final_score} for s in seats],
            "mismatches": [
                {"line": m.line, "text": m.text, "recorded": m.recorded, "computed": m.computed}
                for m in self.mismatches
            ],
        }


def ruleset_of(record: GcgRecord, wanted: str | None = None) -> Ruleset:
    """The ruleset asked for; else one the title names (this app's own exports say it, as
    "#title Letter UP Classic, 2026-01-31"); else the classic crossword game."""
    if wanted:
        ruleset = get_ruleset(wanted)
    else:
        named = [r for r in RULESETS.values() if record.title.startswith(r.name)]
        ruleset = named[0] if named else get_ruleset(DEFAULT_RULESET)
    if not ruleset.gcg:
        raise InputError("no_gcg", f"{ruleset.name} games are not kept as GCG records.")
    return ruleset


def lexicon_of(record: GcgRecord) -> str:
    """The installed lexicon the record names, else the honour system."""
    wanted = record.lexicon_id or record.lexicon.strip()
    if wanted:
        try:
            return resolve_lexicon(wanted)[0]
        except InputError:
            pass
    return HONOUR_ID


def player_names(record: GcgRecord) -> list[str]:
    """The players' names as a game takes them: without what can't be seen (a name that is
    nothing else is the nickname, else "Player 2"), spaces collapsed, cut to length, one name
    each; a name no game takes is refused naming its line."""
    names: list[str] = []
    for player in record.players:
        seen = [" ".join(visible(n).split())[:NAME_MAX].strip() for n in (player.name, player.nick)]
        name = next((n for n in seen if n), f"Player {player.number}")
        problem = name_problem(name)
        if problem:
            pragma = f"player{player.number}"
            raise GcgError(max(line for line, n, _ in record.pragmas if n == pragma), problem)
        # Two players of one game can't share a name (Quackle writes "NoName" twice).
        base, suffix = name, player.number
        while name_key(name) in {name_key(n) for n in names}:
            tag = f" #{suffix}"
            name, suffix = f"{base[: NAME_MAX - len(tag)]}{tag}", suffix + 1
        names.append(name)
    return names


def entries_of(record: GcgRecord) -> int:
    """How many log entries the record's turns make, at most: one a line, and one for all the
    end-of-game lines together."""
    ending = sum(1 for event in record.events if event.kind in ENDING)
    return len(record.events) - ending + (1 if ending else 0)


def nobody(player: Player) -> bool:
    """An importer who speaks for no player: every name of the record is a new player."""
    return False


def import_gcg(
    source: str | bytes,
    *,
    ruleset: str | None = None,
    strict: bool = False,
    by: str = "import",
    linked: Callable[[Player], bool] | None = nobody,
    retry_slot: str | None = None,
) -> Imported:
    """Read, check and store a GCG record; ``InputError`` (naming the line) if it can't be,
    ``GameHere`` if it is of a game already here. ``linked`` says which known players the
    importer speaks for (``Draft.save``); None, for an operator, links every name.
    ``retry_slot``: ``Draft.save``'s (a game made under it already is answered, not refused
    as already here)."""
    record = read_gcg(source)
    if not record.events:
        raise InputError("bad_gcg", "This record has no turns.")
    entries = entries_of(record)
    if entries > domain.LOG_CAP:
        raise InputError(
            "log_full",
            f"This record has {entries:,} turns: a game's log keeps at most "
            f"{domain.LOG_CAP:,} entries.",
        )
    rules = ruleset_of(record, ruleset)
    options = infer_options(record, rules)
    mismatches = check_record(record, rules, None, options)
    for mismatch in mismatches:
        if mismatch.what in UNSTORABLE:
            raise InputError(
                "gcg_unplayable",
                f"Line {mismatch.line} ({mismatch.text.strip()[:80]}) can't be entered as a "
                f"turn: {mismatch.message}",
            )
    if strict and mismatches:
        first = mismatches[0]
        raise InputError(
            "gcg_mismatch",
            f"The record and the rules differ on {len(mismatches)} line"
            f"{'s' if len(mismatches) != 1 else ''}, first line {first.line} "
            f"({first.text.strip()[:80]}): recorded {first.recorded}, computed "
            f"{first.computed}.",
        )
    names = player_names(record)
    draft = domain.draft_game(
        ruleset=rules.id,
        players=names,
        lexicon=lexicon_of(record),
        challenge_mode=MANUAL,
        options=options.to_dict(),
        first=names[record.events[0].seat],
        title=visible(record.title)[:200],
        description=_description(record),
        by=by,
    )
    try:
        _enter(draft, record)
    except RefereeError as error:  # a turn the engine refuses here, though the check took it
        if isinstance(error, InputError):
            raise
        raise InputError("gcg_unplayable", error.message) from None
    draft.prepare()  # before the transaction, which on SQLite holds every table's writes
    with transaction.atomic():
        # Two imports of one game at once: the second waits here, then finds the first's game.
        hold_import_lock(rules.id, names)
        made = domain.made_under(retry_slot) if retry_slot is not None else None
        if made is not None:
            return Imported(made, mismatches)
        try:
            check_not_here(record, rules.id, names, draft)
        except GameHere as here:
            if linked is nobody or not domain.do_link_players(here.game.pk, linked):
                raise
            return Imported(here.game, mismatches, linked_here=True)
        return Imported(draft.save(linked, retry_slot), mismatches)


def _description(record: GcgRecord) -> str:
    parts = (visible(part, keep="\n") for part in (record.description, *record.notes))
    return "\n\n".join(part for part in parts if part.strip())


def _enter(draft: domain.Draft, record: GcgRecord) -> None:
    """Each line of the record as the turn it records, entered into the draft."""
    finished = False
    for index, event in enumerate(record.events):
        if event.kind == "play":
            placements = play_placements(event, draft.state.board)
            _turn(draft, event, "play", tiles=[(p.row, p.col, p.tile) for p in placements])
        elif event.kind == "pass":
            if draft.state.status == IN_PROGRESS:
                _turn(draft, event, "pass")
            # else: after a player went out, Woogles writes the other's "no challenge" as a pass
        elif event.kind == "exchange":
            _turn(draft, event, "exchange", count=event.count)
        elif event.kind == "withdrawn":
            _turn(draft, event, "challenge", verdict="upheld")
        elif event.kind in ("challenge_loss", "challenge_bonus"):
            _turn(draft, event, "challenge", verdict="rejected")
        elif event.kind == "time_penalty":
            _turn(draft, event, "penalty", seat=event.seat, points=event.score)
        elif event.kind in ENDING and not finished:
            finished = True
            _turn(draft, event, "finish", racks=_final_racks(draft, record, index))


def _turn(draft: domain.Draft, event: GcgEvent, action: str, **fields: Any) -> None:
    draft.enter(action, source=f"Line {event.line}", rack=event.rack, note=event.note, **fields)


def _final_racks(draft: domain.Draft, record: GcgRecord, index: int) -> dict[int, str]:
    """The racks left at the end, as the end-of-game lines (and #rackN lines) show them."""
    players = len(record.players)
    racks = {number - 1: rack for number, rack in record.final_racks.items()}
    for event in record.events[index:]:
        if event.kind == "end_rack_penalty":
            racks[event.seat] = event.tiles
        elif event.kind == "end_rack_points" and players == 2:
            racks[1 - event.seat] = event.tiles
    return {seat: rack for seat, rack in racks.items() if draft.state.racks[seat]}
