"""GCG export of Letter UP games (the Poslfit format read by Quackle, Woogles, cross-tables).

The referee never knows a rack's letters during the game, so a rack field holds the tiles known
to be on it, never ``?`` for an unknown tile (other programs read ``?`` as a blank): a play's
lists the tiles it played; a pass's, or a turn lost to a failed challenge, the tiles that
player played next or had left at the end (such a turn draws nothing); where nothing is known
(an exchange of unknown tiles, written ``-N``) the field is left empty. Undone turns are left
out: they never happened. End-of-game rack penalties use the ``RACK (RACK) -N`` form. A failed
challenge that cost the challenger 5 points (a rule option) has no GCG event, so it is written
as a note and the totals that follow include it.

Each kind of turn says what it writes as ``referee.gcg`` events and notes
(``scorekeeper.games.turn_kinds``); ``referee.gcg.write_gcg``, the reader's own writer, prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.utils import timezone

from referee import GcgEntry, GcgEvent, GcgPlayer, GcgRecord, InputError, get_ruleset, write_gcg
from scorekeeper.games.replay import steps
from scorekeeper.games.turn_kinds import kind_of
from scorekeeper.models import Game


def game_to_gcg(game: Game) -> str:
    ruleset = get_ruleset(game.ruleset)
    if not ruleset.gcg:
        raise InputError(
            "no_gcg", f"GCG is a format for the crossword games, not {ruleset.name}: use JSON."
        )
    seats = list(game.seats.select_related("player").order_by("order"))
    nicks = _nicks([s.player.name for s in seats])
    players = [GcgPlayer(i + 1, nicks[i], s.player.name) for i, s in enumerate(seats)]
    # The replay gives the rack sizes and running totals at every moment; each kind of turn
    # says what it writes (scorekeeper.games.turn_kinds).
    entries: list[GcgEntry] = []
    for step in steps(game, players=len(seats)):
        entries += kind_of(step.turn).gcg(step.turn, step.before, step.state, nicks)
    record = GcgRecord.of(
        players,
        known_racks(entries),
        lexicon=game.lexicon,
        # The date the game was played where it was played, not the date in UTC.
        title=f"{ruleset.name}, {timezone.localtime(game.created_at):%Y-%m-%d}",
        record_id=f"scorekeeper {game.pk}",
    )
    return write_gcg(record)


# Turns that draw no tile: the rack after one is the rack before it.
DRAWS_NOTHING = ("pass", "challenge_loss", "time_penalty")


def known_racks(entries: Sequence[GcgEntry]) -> list[GcgEntry]:
    """The entries, each pass or lost turn whose rack is not known given the tiles the player
    is known to hold then: those of their next play, or their rack left at the end.

    >>> from referee import read_gcg
    >>> turns = [">a: - +0 0", ">b: CAT 8G CAT +10 10", ">a: - +0 0", ">b: - +0 10",
    ...          ">a: AH 7H AH +5 5", ">b: -2 +0 10"]
    >>> record = read_gcg("\\n".join(["#player1 a A", "#player2 b B", *turns]))
    >>> [event.rack for event in known_racks(record.events)]
    ['AH', 'CAT', 'AH', '', 'AH', '']
    """
    known = list(entries)
    for index, entry in enumerate(entries):
        if isinstance(entry, GcgEvent) and entry.kind in DRAWS_NOTHING[:2] and not entry.rack:
            known[index] = replace(entry, rack=_held(entry.seat, entries[index + 1 :]))
    return known


def _held(seat: int, later: Sequence[GcgEntry]) -> str:
    """The tiles ``seat`` is known to hold before ``later``: nothing is drawn until they play."""
    for entry in later:
        if not isinstance(entry, GcgEvent) or entry.seat != seat:
            continue
        if entry.kind in DRAWS_NOTHING and not entry.rack:
            continue
        if entry.kind in (*DRAWS_NOTHING, "play", "end_rack_penalty"):
            return entry.rack
        return ""
    return ""


def _nicks(names: list[str]) -> list[str]:
    """GCG nicknames: one word each (a move line reads ``>nick: ...``), and one per seat.

    >>> _nicks(["AB", "AB_3", "A B"])
    ['AB', 'AB_3', 'AB_4']
    """
    nicks: list[str] = []
    for index, name in enumerate(names):
        base = "".join(ch for ch in name if not ch.isspace() and ch != ":") or f"player{index + 1}"
        nick = base
        suffix = index + 1
        while nick in nicks:  # an earlier seat may hold the plain name or a suffixed one
            nick = f"{base}_{suffix}"
            suffix += 1
        nicks.append(nick)
    return nicks
