"""A correction: an earlier turn replaced by what was really played, and the turns after it
scored again from there.

Below the table of turn kinds (``turn_kinds``), which names ``enter`` and ``replay`` as the
correction's handlers and hands them the table (``kinds``) to enter the move the correction
stands for and to score each later turn again by its own kind: this module never imports the
table back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.utils import timezone

from referee import (
    ABANDONED,
    VOID,
    GameOver,
    GameState,
    IllegalAction,
    IllegalPlay,
    InputError,
    Lexicon,
    Outcome,
    Placement,
    Play,
    RefereeError,
)
from scorekeeper.games import rows
from scorekeeper.games.entries import Change, Context
from scorekeeper.games.results import totals
from scorekeeper.games.word_policy import lexicon_for
from scorekeeper.models import Turn

if TYPE_CHECKING:
    from scorekeeper.games.turn_kinds import ActionKind

    Kinds = Mapping[str, ActionKind]


def move_of(turn: Turn) -> str:
    """The move a turn records: a play has tiles, an exchange a count, else a pass (what a
    correction entry stands for)."""
    return "play" if turn.tiles else "exchange" if turn.count else "pass"


def as_move(turn: Turn, kinds: Kinds) -> ActionKind:
    """The kind of move a correction stands for."""
    return kinds[move_of(turn)]


def enter(ctx: Context, kinds: Kinds) -> None:
    """Replace an earlier turn by what was really played, and replay the log from there.

    Later turns keep their tiles (or verdicts, or racks) and are scored again; their words are
    checked again where the game checks words as played. If one of them is no longer legal,
    the correction is refused naming it, and nothing changes. The replay starts from the
    checkpoint nearest before the turn, and everything it changes in the log is written with
    the entry (``ctx.writes``), so it can be worked out before the game's lock is taken.
    """
    if ctx.state.status == ABANDONED:
        raise GameOver("abandoned", "This game was abandoned: undo that before correcting a turn.")
    if ctx.state.status == VOID:
        raise GameOver("void", "This game is void: a director must undo that before a correction.")
    wanted, entry = ctx.entry.target, ctx.entry
    if wanted is None or wanted == "":
        raise InputError("no_target", "Say which turn to correct, by its number in the log.")
    if isinstance(wanted, bool) or not isinstance(wanted, int):
        raise InputError("bad_target", "The turn to correct is given by its number in the log.")
    target = ctx.log.find(wanted)
    if target is None:
        raise IllegalAction(
            "not_in_effect",
            f"Log entry #{wanted} is not in the game now (undone, corrected or not entered): "
            "choose a turn from the log.",
        )
    if not kinds[target.action].correctable:
        raise IllegalAction(
            "not_correctable",
            f"Log entry #{wanted} is not a play, a pass or an exchange "
            f"({kinds[target.action].label(target)}): only those can be corrected.",
        )
    state = ctx.log.state_before(target.place)
    was = totals(ctx.state)
    new = ctx.turn
    new.target, new.place = target, target.place
    move = "play" if entry.notation is not None or entry.tiles is not None else None
    move = move or ("exchange" if entry.count is not None else "pass")
    kinds[move].enter(Context(ctx.game, ctx.seats, state, new, entry, ctx.policy, ctx.log))
    new.totals = totals(state)
    name = target.seat.player.name
    number = ctx.log.number_of(target)
    if new.score != target.score:
        ctx.changes.append(Change(name, target.score, new.score, turn=number))
    target.corrected_at = timezone.now()
    target.corrected_by = entry.by[:80]
    kept = ctx.log.kept_before(target.place)
    step = ctx.log.step_of(target)
    kept.after(ctx.game, new.place, step, state)
    lexicon = lexicon_for(ctx.game) if ctx.policy.checks_as_played else None
    later = ctx.log.after(target.place)
    ctx.rescored = len(later)
    judging = [turn for turn in later if turn.target_id == target.pk]
    for turn in later:
        step += 1
        adds = kinds[turn.action].turns(turn.result, state.options)
        number += adds
        _rescore(state, turn, number if adds > 0 else None, lexicon, ctx, kinds)
        kept.after(ctx.game, turn.place, step, state)
    ctx.state, ctx.kept = state, kept
    now = totals(state)
    for seat in ctx.seats:
        if was[seat.order] != now[seat.order]:
            ctx.changes.append(Change(seat.player.name, was[seat.order], now[seat.order]))

    rescored = rows.each_of(later, RESCORED)  # made now: the lock is held for the writes only

    def write() -> None:
        target.save(update_fields=["corrected_at", "corrected_by"])
        rescored.run()
        for turn in judging:  # a challenge of the corrected play judges the correction
            turn.target = new
        rows.update_each(judging, ["target"])

    ctx.writes.append(write)


# What scoring a later turn again may change in its log entry (``_rescore``).
RESCORED = ["score", "words", "notation", "totals"]


def _rescore(
    state: GameState,
    turn: Turn,
    number: int | None,
    lexicon: Lexicon | None,
    ctx: Context,
    kinds: Kinds,
) -> None:
    """Apply a later turn (``number`` as players count it) again after a correction, and
    change what it recorded (written by the correction's ``writes``)."""
    name = turn.seat.player.name
    kind = kinds[turn.action]
    label = kind.label(turn)
    what = f"turn {number} ({name}’s {label})" if number else f"the {label} (#{turn.number})"
    if turn.seat.order != state.to_move and not kind.any_seat:
        mover = ctx.seats[state.to_move].player.name
        raise IllegalAction(
            "correction_breaks_turn",
            f"After this correction, {what} would be {mover}’s turn, not {name}’s.",
        )
    try:
        if turn.tiles and kind.may_place_tiles:
            play = Play(tuple(Placement(r, c, t) for r, c, t in turn.tiles))
            outcome = state.play(play, lexicon)
        else:
            apply = kind.replay
            assert apply is not None  # the turns in effect are all moves
            outcome = apply(state, turn)
    except IllegalPlay as error:
        reasons = " ".join(
            f"{v.message.rstrip('.')} (rule {v.rule})." if v.rule else v.message
            for v in error.violations
        )
        raise IllegalAction(
            "correction_breaks_turn",
            f"After this correction, {what} would no longer be legal: {reasons or error.message}",
        ) from None
    except RefereeError as error:
        raise IllegalAction(
            "correction_breaks_turn",
            f"After this correction, {what} could no longer be entered: {error.message}",
        ) from None
    if turn.tiles or kind.judges_play:
        if turn.score != outcome.score:
            ctx.changes.append(Change(name, turn.score, outcome.score, turn=number))
        turn.score = outcome.score
        turn.words = [w.to_dict() for w in outcome.words]
    if turn.tiles:
        turn.notation = outcome.notation
    turn.totals = totals(state)


def reapply(state: GameState, turn: Turn, kinds: Kinds) -> Outcome:
    """A correction applied again from the log: as the move it stands for."""
    apply = as_move(turn, kinds).replay
    assert apply is not None
    return apply(state, turn)
