"""Importing a game record (GCG) as a game like any other.

The record is read (``referee.gcg``), checked line by line against the rules
(``referee.gcg_check``), and then entered turn by turn through ``domain.act``, in one
transaction, so the stored game is replayable from its log and ``check_games`` finds nothing.
The referee's scores are kept: every line where the record says otherwise is reported (line,
text, recorded, computed), and ``strict`` refuses a record with any such line.

The game is a tournament-style game judged by the lexicon the record names (``#lexicon
NWL23`` → NWL2023) when it is installed here, else the honour system; the verdicts the record
gives its challenges stand as they were given, and phonies that stood unchallenged stay, as
they did at the table. The rule options are read from the record (``infer_options``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from referee.board import Board
from referee.errors import InputError
from referee.gcg import GcgRecord, play_placements, read_gcg
from referee.gcg_check import Mismatch, check_record, infer_options
from referee.lexicon import HONOUR_ID
from referee.rulesets import RULESETS, Ruleset, get_ruleset
from scorekeeper import domain
from scorekeeper.invisible import visible
from scorekeeper.models import NAME_MAX, Game, name_key
from scorekeeper.policy import MANUAL, resolve_lexicon
from scorekeeper.replay import check_game

DEFAULT_RULESET = "crossword-classic"
# What the engine cannot store as a game: a turn it refuses, or a turn out of order.
UNSTORABLE = ("replay", "turn")


@dataclass(frozen=True)
class Imported:
    game: Game
    mismatches: list[Mismatch]

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
    """The players' names as the record gives them, without what can't be seen (a name that
    is nothing else is the nickname, else "Player 2"), each name once in the game."""
    names: list[str] = []
    for player in record.players:
        seen = [" ".join(visible(n).split())[:NAME_MAX].strip() for n in (player.name, player.nick)]
        name = next((n for n in seen if n), f"Player {player.number}")
        # Two players of one game can't share a name (Quackle writes "NoName" twice).
        while name_key(name) in (name_key(n) for n in names):
            name = f"{name[: NAME_MAX - 3]} #{player.number}"
        names.append(name)
    return names


def import_gcg(
    source: str | bytes, *, ruleset: str | None = None, strict: bool = False, by: str = "import"
) -> Imported:
    """Read, check and store a GCG record; ``InputError`` (naming the line) if it can't be."""
    record = read_gcg(source)
    if not record.players:
        raise InputError("bad_gcg", "This record names no players (#player1, #player2 lines).")
    if not record.events:
        raise InputError("bad_gcg", "This record has no turns.")
    rules = ruleset_of(record, ruleset)
    options = infer_options(record, rules)
    mismatches = check_record(record, rules, None, options)
    for mismatch in mismatches:
        if mismatch.what in UNSTORABLE:
            raise InputError(
                "gcg_unplayable",
                f"Line {mismatch.line} ({mismatch.text.strip()}) can't be entered as a turn: "
                f"{mismatch.message}",
            )
    if strict and mismatches:
        first = mismatches[0]
        raise InputError(
            "gcg_mismatch",
            f"The record and the rules differ on {len(mismatches)} line"
            f"{'s' if len(mismatches) != 1 else ''}, first line {first.line} "
            f"({first.text.strip()}): recorded {first.recorded}, computed {first.computed}.",
        )
    names = player_names(record)
    with transaction.atomic():
        game = domain.create_game(
            ruleset=rules.id,
            players=names,
            lexicon=lexicon_of(record),
            challenge_mode=MANUAL,
            options=options.to_dict(),
            first=names[record.events[0].seat],
        )
        Game.objects.filter(pk=game.pk).update(
            title=visible(record.title)[:200], description=_description(record)
        )
        _enter(game, record, by)
        game.refresh_from_db()
        problems = check_game(game)
        if problems:  # the domain and the check disagree: never store such a game
            raise InputError("gcg_inconsistent", "; ".join(problems))
    return Imported(game, mismatches)


def _description(record: GcgRecord) -> str:
    parts = (visible(part, keep="\n") for part in (record.description, *record.notes))
    return "\n\n".join(part for part in parts if part.strip())


def _enter(game: Game, record: GcgRecord, by: str) -> None:
    """Each line of the record as the turn it records, through the domain."""
    finished = False
    for index, event in enumerate(record.events):

        def act(action: str, **fields: Any) -> None:
            domain.act(game.pk, action, by=by, rack=event.rack, note=event.note, **fields)  # noqa: B023

        if event.kind == "play":
            game.refresh_from_db(fields=["board"])
            board = Board.from_rows(game.board)
            act("play", tiles=[(p.row, p.col, p.tile) for p in play_placements(event, board)])
        elif event.kind == "pass":
            game.refresh_from_db(fields=["status"])
            if game.status == Game.Status.IN_PROGRESS:
                act("pass")
            # else: after a player went out, Woogles writes the other's "no challenge" as a pass
        elif event.kind == "exchange":
            act("exchange", count=event.count)
        elif event.kind == "withdrawn":
            act("challenge", verdict="upheld")
        elif event.kind in ("challenge_loss", "challenge_bonus"):
            act("challenge", verdict="rejected")
        elif event.kind == "time_penalty":
            act("penalty", seat=event.seat, points=event.score)
        elif event.kind in ("end_rack_points", "end_rack_penalty") and not finished:
            finished = True
            act("finish", racks=_final_racks(game, record, index))


def _final_racks(game: Game, record: GcgRecord, index: int) -> dict[int, str]:
    """The racks left at the end, as the end-of-game lines (and #rackN lines) show them."""
    seats = list(game.seats.order_by("order"))
    racks = {number - 1: rack for number, rack in record.final_racks.items()}
    for event in record.events[index:]:
        if event.kind == "end_rack_penalty":
            racks[event.seat] = event.tiles
        elif event.kind == "end_rack_points" and len(seats) == 2:
            racks[1 - event.seat] = event.tiles
    return {seat: rack for seat, rack in racks.items() if seats[seat].rack_count}
