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
from referee.game import GameState
from referee.rulesets import RuleOptions, get_ruleset
from scorekeeper.domain import apply_logged, effective_turns
from scorekeeper.models import Game, Turn


def game_to_gcg(game: Game) -> str:
    ruleset = get_ruleset(game.ruleset)
    if ruleset.family != "letterup":
        raise InputError("gcg_letterup_only", "GCG export is for Letter UP games: use JSON.")
    seats = list(game.seats.select_related("player").order_by("order"))
    nicks = _nicks([s.player.name for s in seats])
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{i + 1} {nicks[i]} {s.player.name}" for i, s in enumerate(seats)]
    lines.append(f"#lexicon {game.lexicon}")
    # The date the game was played where it was played, not the date in UTC.
    lines.append(f"#title {ruleset.name}, {timezone.localtime(game.created_at):%Y-%m-%d}")
    lines.append(f"#id scorekeeper {game.pk}")
    # Replaying the log gives the rack sizes and running totals at every moment.
    state = GameState.new(ruleset, len(seats), RuleOptions.from_dict(game.options), game.first_seat)
    for turn in effective_turns(game).select_related("seat", "target__seat").order_by("number"):
        seat = turn.seat.order
        unknown = "?" * max(state.racks[seat], 1)
        apply_logged(state, turn)
        total = state.scores[seat]
        if turn.action == Turn.Action.PLAY:
            tiles = "".join(sorted(t for _, _, t in turn.tiles))
            lines.append(f">{nicks[seat]}: {tiles} {turn.notation} +{turn.score} {total}")
        elif turn.action == Turn.Action.PASS:
            lines.append(f">{nicks[seat]}: {unknown} - +0 {total}")
        elif turn.action == Turn.Action.EXCHANGE:
            lines.append(f">{nicks[seat]}: {unknown} -{turn.count} +0 {total}")
        elif turn.action == Turn.Action.CHALLENGE and turn.target is not None:
            played = turn.target
            if turn.result == Turn.Result.UPHELD:
                mover = played.seat.order
                tiles = "".join(sorted(t for _, _, t in played.tiles))
                lines.append(f">{nicks[mover]}: {tiles} -- -{played.score} {state.scores[mover]}")
            elif turn.score:
                lines.append(
                    f"#note {turn.seat.player.name} challenged {played.notation} and lost "
                    f"{-turn.score} points: the play was acceptable."
                )
        elif turn.action == Turn.Action.FINISH:
            for order, letters in sorted((turn.racks or {}).items(), key=lambda kv: int(kv[0])):
                tiles = ruleset.read_tiles(letters)
                if tiles:
                    who = int(order)
                    penalty = sum(ruleset.values[t] for t in tiles)
                    final = state.scores[who] - penalty
                    rack = "".join(tiles)
                    lines.append(f">{nicks[who]}: {rack} ({rack}) -{penalty} {final}")
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
