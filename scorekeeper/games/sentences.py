"""How each kind of turn is said: the one sentence the scorer's message, the log, the history's
caption and the spectator screen all show ("Ann played 8D HOUSE for 24 (HOUSE 24)."), and a
challenge's verdict as the table is told it.

Below the table of turn kinds (``turn_kinds``), which names each kind's sentence here. A
sentence that names another turn (an undo's, a correction's) or a turn's number as players
count it is given the table (``kinds``) to look that turn's kind up: this module never imports
the table back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from referee import RuleOptions, get_ruleset
from scorekeeper.games import clocks, counting
from scorekeeper.games.counting import IN_EFFECT, options_of
from scorekeeper.models import Turn

if TYPE_CHECKING:
    from scorekeeper.games.turn_kinds import ActionKind

    Kinds = Mapping[str, ActionKind]


def name_of(turn: Turn) -> str:
    return turn.seat.player.name


# Play, pass and exchange -----------------------------------------------------------------------
_COUNTS = {5: "five", 6: "six", 7: "seven", 8: "eight"}


def _words(turn: Turn) -> str:
    """The words a play scored, and its all-tiles bonus (what the words leave of its score)."""
    words = turn.words or []
    said = ", ".join(f"{w.get('word')} {w.get('score')}" for w in words)
    bonus = (turn.score or 0) - sum(int(w.get("score") or 0) for w in words)
    if words and bonus > 0 and turn.tiles:
        said += f" + {bonus} for all {_COUNTS.get(len(turn.tiles), str(len(turn.tiles)))}"
    return said


def played(turn: Turn) -> str:
    words = _words(turn)
    return f"{name_of(turn)} played {turn.notation} for {turn.score}" + (
        f" ({words})." if words else "."
    )


# A pass's note when a turn timer ran out: the pass the turn became, said "passed on time".
ON_TIME = "on time"


def passed(turn: Turn) -> str:
    return f"{name_of(turn)} passed{' on time' if turn.note == ON_TIME else ''}."


def exchanged(turn: Turn) -> str:
    return f"{name_of(turn)} exchanged {_plural(turn.count, 'tile')}."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


# Challenge -------------------------------------------------------------------------------------
# What a failed challenge costs, by the rejected_challenge option: who pays, and how it is said.
_REJECTED_COST: dict[str, Callable[[str, str], str]] = {
    "none": lambda challenger, mover: f"the challenge costs {challenger} nothing",
    "lose_turn": lambda challenger, mover: f"{challenger} loses the turn (double challenge)",
    "minus_5": lambda challenger, mover: f"{challenger} loses 5 points",
    "bonus_5": lambda challenger, mover: f"{mover} gets 5 points (five-point challenge)",
    "bonus_10": lambda challenger, mover: f"{mover} gets 10 points (ten-point challenge)",
}


def challenge_verdict(turn: Turn) -> tuple[str, str]:
    """A challenge's verdict as the table says it, and what it cost whom, by the rules the game
    was played with: ("NOT ACCEPTABLE", "Cara’s play H8 .H is taken off; Cara scores 0 and
    loses the turn"), ("ACCEPTABLE", "Cara’s play H8 .H stands; Ben loses the turn (double
    challenge)"). The scorer's page and the spectator screen show the two parts; the log's
    sentence (``challenged``) joins them."""
    options = RuleOptions.from_dict(turn.game.options, get_ruleset(turn.game.ruleset))
    target = turn.target
    mover = name_of(target) if target else "the player"
    play = f"{mover}’s play {target.notation}" if target else "the last play"
    if turn.result == Turn.Result.UPHELD:
        then = "loses the turn" if options.upheld_challenge == "lose_turn" else "plays again"
        return "NOT ACCEPTABLE", f"{play} is taken off; {mover} scores 0 and {then}"
    cost = _REJECTED_COST[options.rejected_challenge](name_of(turn), mover)
    return "ACCEPTABLE", f"{play} stands; {cost}"


def challenged(turn: Turn) -> str:
    verdict, cost = challenge_verdict(turn)
    return f"{name_of(turn)} challenged: {verdict} – {cost}."


# Penalty and clock -----------------------------------------------------------------------------
def time_penalty(turn: Turn) -> str:
    return (
        f"{name_of(turn)} {'lost' if turn.score < 0 else 'gained'} {abs(turn.score)} points on "
        "time."
    )


_CLOCK_SENTENCES = {
    clocks.SWITCH: "The clock was switched to {name}.",
    clocks.PAUSE: "The clock was paused.",
    clocks.RESUME: "The clock was restarted.",
    clocks.START: "The table started the clock: {name}'s runs.",
}


def clock(turn: Turn) -> str:
    clock = turn.clock or {}
    running = clock.get("running")
    seats = {seat.order: seat.player.name for seat in turn.game.seats.select_related("player")}
    name = seats.get(running, "the next player") if isinstance(running, int) else "no one"
    said = _CLOCK_SENTENCES.get(str(clock.get("action")), "The clock was set.")
    return said.format(name=name)


# Undo and correction: another turn said --------------------------------------------------------
def undone(turn: Turn, kinds: Kinds) -> str:
    target = turn.target
    if target is None:
        return "A turn was undone."
    counts = kinds[target.action].turns(target.result, options_of(turn.game)) > 0
    where = f"Turn {turns_before(target, kinds) + 1}" if counts else "It"
    return f"{where} was undone: {kinds[target.action].describe(target).rstrip('.')}."


def corrected(turn: Turn, kinds: Kinds, move: ActionKind) -> str:
    """A correction's sentence: the turn it replaced, and ``move`` (the kind it stands for)
    said of it."""
    target, number = turn.target, number_of(turn, kinds)
    where = f"Turn {number}" if number else f"Log entry #{target.number}" if target else "A turn"
    return f"{where} was corrected: {move.describe(turn)}"


# The end of the game ---------------------------------------------------------------------------
def finished(turn: Turn) -> str:
    return "The game ended: what was left on the racks came off the scores."


def abandoned(turn: Turn, kinds: Kinds) -> str:
    return f"The game was abandoned after turn {turns_before(turn, kinds)}."


def voided(turn: Turn, kinds: Kinds) -> str:
    reason = turn.note.strip().rstrip(".")
    voided = f"Voided after turn {turns_before(turn, kinds)} by {turn.entered_by or 'a director'}"
    return voided + (f" — {reason}." if reason else ".")


def marked(turn: Turn, sentence: str) -> str:
    """A turn's sentence, marked if the turn is out of effect: "… (undone)."."""
    if turn.undone:
        return sentence[:-1] + " (undone)."
    return sentence[:-1] + " (corrected)." if turn.corrected else sentence


# Turn numbers in sentences ---------------------------------------------------------------------
# The sentences name turns as players count them (``replay.turn_numbers``), never by
# log entry number.
def _rules(kinds: Kinds) -> dict[str, counting.Counting]:
    return {name: kind.turns for name, kind in kinds.items()}


def turns_before(turn: Turn, kinds: Kinds) -> int:
    """The turns players count among the turns in effect before ``turn`` in the order of play:
    for an entry at the end of the game (an abandon, a void), or the turn an undo took back
    (a correction entered since stands where the turn it replaced stood, before it)."""
    found = turn.game.turns.filter(IN_EFFECT, place__lt=turn.place)
    before: int = found.aggregate(n=counting.total(_rules(kinds), options_of(turn.game)))["n"]
    return before


def number_of(turn: Turn, kinds: Kinds) -> int | None:
    """One turn's number as players count it (``replay.turn_numbers``), counted in the database
    up to its place in the order of play; None for an entry that is no turn in effect."""
    if turn.undone or turn.corrected:
        return None
    options = options_of(turn.game)
    if kinds[turn.action].turns(turn.result, options) <= 0:
        return None
    found = Turn.objects.filter(IN_EFFECT, game_id=turn.game_id, place__lte=turn.place)
    number: int = found.aggregate(n=counting.total(_rules(kinds), options))["n"]
    return number
