"""GCG export of Letter UP games (the Poslfit format read by Quackle, Woogles, cross-tables).

The referee never knows a rack's letters during the game, so a play's rack field lists the
tiles it played, and a pass or exchange shows ``?`` for each unknown tile; an exchange of
unknown tiles is written ``-N``. Undone turns are left out: they never happened. End-of-game
rack penalties use the ``RACK (RACK) -N`` form. A failed challenge that cost the challenger
5 points (a rule option) has no GCG event, so it is written as a note and the totals that
follow include it.
"""

from __future__ import annotations

from django.utils import timezone

from referee.errors import InputError
from referee.rulesets import get_ruleset
from scorekeeper.actions import kind_of
from scorekeeper.models import Game
from scorekeeper.replay import steps


def game_to_gcg(game: Game) -> str:
    ruleset = get_ruleset(game.ruleset)
    if not ruleset.gcg:
        raise InputError(
            "no_gcg", f"GCG is a format for the crossword games, not {ruleset.name}: use JSON."
        )
    seats = list(game.seats.select_related("player").order_by("order"))
    nicks = _nicks([s.player.name for s in seats])
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{i + 1} {nicks[i]} {s.player.name}" for i, s in enumerate(seats)]
    lines.append(f"#lexicon {game.lexicon}")
    # The date the game was played where it was played, not the date in UTC.
    lines.append(f"#title {ruleset.name}, {timezone.localtime(game.created_at):%Y-%m-%d}")
    lines.append(f"#id scorekeeper {game.pk}")
    # The replay gives the rack sizes and running totals at every moment; each kind of turn
    # writes its own lines (scorekeeper.actions).
    for step in steps(game, players=len(seats)):
        lines += kind_of(step.turn).gcg(step.turn, step.before, step.state, nicks)
    return "\n".join(lines) + "\n"


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
