"""GCG export of Letter UP games (the Poslfit format read by Quackle, Woogles, cross-tables).

The referee never knows a rack's letters during the game, so a play's rack field lists the
tiles it played, and a pass or exchange shows ``?`` for each unknown tile; an exchange of
unknown tiles is written ``-N``. Undone turns are left out: they never happened. End-of-game
rack penalties use the ``RACK (RACK) -N`` form. A failed challenge that cost the challenger
5 points (a rule option) has no GCG event, so it is written as a note and the totals that
follow include it.

Each kind of turn says what it writes as ``referee.gcg`` events and notes
(``scorekeeper.game.turn_kinds``); ``referee.gcg.write_gcg``, the reader's own writer, prints them.
"""

from __future__ import annotations

from django.utils import timezone

from referee import GcgEntry, GcgPlayer, GcgRecord, InputError, get_ruleset, write_gcg
from scorekeeper.game.replay import steps
from scorekeeper.game.turn_kinds import kind_of
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
    # says what it writes (scorekeeper.game.turn_kinds).
    entries: list[GcgEntry] = []
    for step in steps(game, players=len(seats)):
        entries += kind_of(step.turn).gcg(step.turn, step.before, step.state, nicks)
    record = GcgRecord.of(
        players,
        entries,
        lexicon=game.lexicon,
        # The date the game was played where it was played, not the date in UTC.
        title=f"{ruleset.name}, {timezone.localtime(game.created_at):%Y-%m-%d}",
        record_id=f"scorekeeper {game.pk}",
    )
    return write_gcg(record)


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
