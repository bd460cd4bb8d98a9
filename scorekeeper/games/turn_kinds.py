"""The kinds of turn, as one table.

Each kind names, in one entry, how it is entered at the table (its live handler), how it is
replayed from the log, the one sentence that describes it (the scorer's message, the log, the
history's caption and the spectator screen all use it), a short label for the log's column,
and what it writes in a GCG record (``referee.gcg`` events and notes; ``records.gcg_export`` hands
them to the one writer), and flags that say what it is (``places_tiles``, ``judges_play``...).
``scorekeeper.games.domain.act`` looks the kind up here and nowhere else; every other module asks
a kind's flags, or the names derived from them (``JUDGING``, for a query), never its name.

The handlers' words and their bigger jobs live below the table, in modules of their own that
never import it back: ``sentences`` says each kind, ``correction`` replaces an earlier turn and
scores the later ones again, ``entries`` holds what a handler reads and writes. A handler that
needs another kind (an undo says the turn it took back) is handed the table (``KINDS``).

Adding a kind: write its handlers below (its sentence in ``sentences``), add its entry to
``KINDS`` with its flags, teach the engine (``referee.game.GameState``) the move if it is a new
one, and add tests. No migration: the log stores the kind's name, and this table says which
names exist.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from django.utils import timezone

from referee import (
    GameState,
    GcgEntry,
    GcgEvent,
    GcgEventKind,
    GcgNote,
    IllegalAction,
    InputError,
    Outcome,
    Placement,
    Play,
    RuleOptions,
    parse_position,
    tile_in_set,
)
from scorekeeper.clubs.access import check_game_director
from scorekeeper.games import clocks, correction, counting, sentences
from scorekeeper.games.counting import Counting
from scorekeeper.games.entries import Before, Context
from scorekeeper.games.results import totals
from scorekeeper.games.word_policy import lexicon_for
from scorekeeper.models import Turn


@dataclass(frozen=True)
class ActionKind:
    name: str
    # Enter it live: check and apply to ``ctx.state``, fill in ``ctx.turn``'s fields.
    enter: Callable[[Context], None]
    # Apply it again from the log; None for a kind that is not part of the game itself (an undo
    # takes a turn out of the log rather than adding one to it).
    replay: Callable[[GameState, Turn], Outcome] | None
    describe: Callable[[Turn], str]
    label: Callable[[Turn], str]
    # Its GCG turn lines and notes, given the moment before it, the state after it and the
    # players' nicknames.
    gcg: Callable[[Turn, Before, GameState, Sequence[str]], list[GcgEntry]]
    # The whole state is rebuilt from the log after entering it (undo).
    rebuilds: bool = False
    # It takes an earlier entry out of effect (undo, correct): the turns players count are
    # counted in the log again after it.
    retakes: bool = False
    # A game whose log is full still takes this kind (the game can always end).
    always: bool = False
    # Entered for any player, not only the one to move (a time penalty).
    any_seat: bool = False
    # A game's record (an imported file) can hold it: it enters from the engine's state and the
    # turns before it, without the database (``scorekeeper.games.domain.Draft``).
    recorded: bool = False
    # How many turns it adds as players count them ("Turn 11"), by its verdict and the game's
    # rules (``counting``): a move is one; a challenge, an undo, a penalty, an end are none.
    turns: Counting = counting.a_turn
    # It only ends the game (the end of game, abandoning, voiding): "end" on the chart.
    ends: bool = False
    # It changes nothing in the game, only its clock (a clock action): an undo passes over it.
    aside: bool = False
    # What the kind is, for every reader of the log (pages, records, the checks): ask these,
    # never the kind's name.
    # It puts tiles on the board (a play; a correction does when it stands for one).
    places_tiles: bool = False
    # It trades tiles with the bag (an exchange): the entry says how many.
    exchanges_tiles: bool = False
    # It judges the last play (a challenge): the entry names that play and the verdict.
    judges_play: bool = False
    # It stands in the place of an earlier turn as the move it records (a correction).
    replaces: bool = False
    # A correction can replace it: a play, a pass, an exchange (or a correction of one).
    correctable: bool = False
    # It declares the game void (a club director's decision).
    voids: bool = False
    # It takes what is left on the racks off the scores (the end of the game).
    counts_racks: bool = False
    # Its entry scores 0 (a pass, an exchange, abandoning): the log's check holds it to that.
    scoreless: bool = False
    # The log shows every player's total beside it (the end of the game, a void).
    shows_every_total: bool = False
    # Where the lock is the whole database's, it is worked out before the lock is taken
    # (``domain.act``): its handler reads nothing but the game's own rows and its log (no
    # club: the log changes only with the game's version) and writes only with the entry
    # (``Context.writes``).
    worked_out_ahead: bool = False

    @property
    def in_play(self) -> bool:
        """It is a move in the order of play, replayed from the log (all but an undo, which
        takes one back)."""
        return self.replay is not None

    @property
    def has_score(self) -> bool:
        """Its entry has a score of its own, shown in the log's score column: an undo and the
        entries that only end the game have none."""
        return self.in_play and not self.ends

    @property
    def may_place_tiles(self) -> bool:
        """It may have put tiles on the board: a play, or a correction that stands for one."""
        return self.places_tiles or self.replaces


# Play ------------------------------------------------------------------------------------------
def _enter_play(ctx: Context) -> None:
    state, entry = ctx.state, ctx.entry
    if entry.notation is not None:
        if not entry.notation.strip():
            raise InputError("no_tiles", "Place some tiles first (or type the play).")
        play = Play.parse(entry.notation, state.ruleset, state.board)
    elif entry.tiles is not None:
        play = Play.of(entry.tiles, state.ruleset)
    else:
        raise InputError("no_tiles", "A play needs its tiles.")
    lexicon = lexicon_for(ctx.game) if ctx.policy.checks_as_played else None
    ctx.turn.seat = ctx.seats[state.to_move]
    outcome = state.play(play, lexicon)
    ctx.turn.tiles = [[p.row, p.col, p.tile] for p in play.placements]
    ctx.turn.notation = outcome.notation
    ctx.turn.words = [w.to_dict() for w in outcome.words]
    ctx.turn.score = outcome.score


def _replay_play(state: GameState, turn: Turn) -> Outcome:
    return state.play(Play(tuple(Placement(r, c, t) for r, c, t in turn.tiles)))


def _played_rack(turn: Turn) -> str:
    """A play's rack field: the rack a record gave, else the tiles played (a blank as ``?``:
    the referee never knows the letters left on a rack)."""
    return turn.rack or "".join(sorted(tile_in_set(t) for _, _, t in turn.tiles))


def _event(
    kind: GcgEventKind,
    seat: int,
    nicks: Sequence[str],
    rack: str,
    score: int,
    total: int,
    *,
    tiles: str = "",
    count: int = 0,
) -> GcgEvent:
    """A GCG turn line for ``seat`` (written, not read: no line number or text)."""
    return GcgEvent(
        line=0,
        text="",
        kind=kind,
        nick=nicks[seat],
        rack=rack,
        score=score,
        total=total,
        tiles=tiles,
        count=count,
        seat=seat,
    )


def _gcg_play(turn: Turn, before: Before, after: GameState, nicks: Sequence[str]) -> list[GcgEntry]:
    seat = turn.seat.order
    position, _, word = turn.notation.partition(" ")
    row, col, across = parse_position(position)
    event = _event("play", seat, nicks, _played_rack(turn), turn.score, after.scores[seat])
    return [replace(event, position=position, row=row, col=col, across=across, word=word)]


# Pass and exchange -----------------------------------------------------------------------------
def _enter_pass(ctx: Context) -> None:
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    ctx.state.pass_turn()


def _enter_exchange(ctx: Context) -> None:
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    count = ctx.entry.count
    if count is None:
        raise InputError("bad_count", "Say how many tiles to exchange.")
    if isinstance(count, bool) or not isinstance(count, int):
        raise InputError("bad_count", "The number of tiles to exchange must be a whole number.")
    ctx.state.exchange(count)
    ctx.turn.count = count


def _recorded_rack(turn: Turn) -> str:
    # The rack a record gave, else none: "?" would read as a blank, and what is known of the
    # rack is filled in from later turns (scorekeeper.records.gcg_export).
    return turn.rack


def _gcg_pass(turn: Turn, before: Before, after: GameState, nicks: Sequence[str]) -> list[GcgEntry]:
    seat = turn.seat.order
    event = _event("pass", seat, nicks, _recorded_rack(turn), 0, after.scores[seat])
    # Its note (a pass on time: sentences.ON_TIME) as the GCG's ``#note`` under it, read back
    # as the pass's note by the importer.
    return [event, GcgNote(turn.note)] if turn.note else [event]


def _gcg_exchange(
    turn: Turn, before: Before, after: GameState, nicks: Sequence[str]
) -> list[GcgEntry]:
    seat = turn.seat.order
    rack = _recorded_rack(turn)
    return [_event("exchange", seat, nicks, rack, 0, after.scores[seat], count=turn.count)]


# Challenge -------------------------------------------------------------------------------------
def _enter_challenge(ctx: Context) -> None:
    state, verdict = ctx.state, ctx.entry.verdict
    challenger = state.to_move
    if verdict is None:
        ctx.policy.check_challenge()
        outcome = state.challenge(lexicon_for(ctx.game))
    elif verdict in (Turn.Result.UPHELD, Turn.Result.REJECTED):
        # A record's verdict stands as the table gave it, whatever the game's lexicon says.
        outcome = state.challenge(challenger=challenger, upheld=verdict == Turn.Result.UPHELD)
    else:
        raise InputError("bad_verdict", "A recorded verdict is upheld or rejected.")
    # The play it judges: the last in the order of play, which may be a correction of one.
    ctx.turn.seat = ctx.seats[challenger]
    ctx.turn.target = ctx.log.last_play()
    ctx.turn.result = outcome.result or ""
    # Which word failed is not stored: a tournament verdict names none, and the log's words
    # with the game's exact lexicon tell it once the game is over.
    ctx.turn.score = outcome.score
    ctx.turn.words = [w.to_dict() for w in outcome.words]


def _replay_challenge(state: GameState, turn: Turn) -> Outcome:
    upheld = turn.result == Turn.Result.UPHELD
    return state.challenge(challenger=turn.seat.order, upheld=upheld)


def _gcg_challenge(
    turn: Turn, before: Before, after: GameState, nicks: Sequence[str]
) -> list[GcgEntry]:
    played = turn.target
    if played is None:
        return []
    mover, challenger = played.seat.order, turn.seat.order
    rack = _played_rack(played)
    if turn.result == Turn.Result.UPHELD:
        return [_event("withdrawn", mover, nicks, rack, -played.score, after.scores[mover])]
    rule = after.options.rejected_challenge
    if rule == "minus_5":
        # A failed challenge that costs the challenger points has no GCG event: a note says it,
        # and the totals that follow include it.
        return [
            GcgNote(
                f"{sentences.name_of(turn)} challenged {played.notation} and lost "
                f"{-turn.score} points: the play was acceptable."
            )
        ]
    if rule == "lose_turn" and challenger != mover:
        # The double-challenge rule: the challenger's lost turn, written as theirs.
        total = after.scores[challenger]
        return [_event("challenge_loss", challenger, nicks, "", 0, total)]
    bonus = after.scores[mover] - before.scores[mover]
    return [_event("challenge_bonus", mover, nicks, rack, bonus, after.scores[mover])]


# Penalty ---------------------------------------------------------------------------------------
def _enter_penalty(ctx: Context) -> None:
    seat, points = ctx.entry.seat, ctx.entry.points
    if seat is None or points is None:
        raise InputError("bad_penalty", "A penalty names the player and the points.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(ctx.seats):
        raise InputError("bad_seat", f"There is no player {seat!r} in this game.")
    outcome = ctx.state.penalty(seat, points)
    ctx.turn.seat = ctx.seats[seat]
    ctx.turn.score = outcome.score


def _replay_penalty(state: GameState, turn: Turn) -> Outcome:
    return state.penalty(turn.seat.order, turn.score)


def _gcg_penalty(
    turn: Turn, before: Before, after: GameState, nicks: Sequence[str]
) -> list[GcgEntry]:
    seat = turn.seat.order
    # After the end the total is the final score: the rack adjustments are in it.
    return [_event("time_penalty", seat, nicks, turn.rack, turn.score, totals(after)[seat])]


# Clock -----------------------------------------------------------------------------------------
def _enter_clock(ctx: Context) -> None:
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    clocks.check_clock_action(ctx.entry.clock, ctx.state.status, waits=clocks.is_waiting(ctx.game))


def _replay_clock(state: GameState, turn: Turn) -> Outcome:
    return Outcome("clock", state.to_move)


# Undo ------------------------------------------------------------------------------------------
def _enter_undo(ctx: Context) -> None:
    target = ctx.log.last()
    if target is None:
        raise IllegalAction("nothing_to_undo", "There is no turn to undo.")
    if kind_of(target).voids:
        check_game_director(ctx.game, ctx.entry.director, "undo a void")
    target.undone_at = timezone.now()
    target.undone_by = ctx.entry.by[:80]
    ctx.writes.append(lambda: target.save(update_fields=["undone_at", "undone_by"]))
    ctx.uncounted = turns_of(target, ctx.state.options)
    ctx.kept = ctx.log.kept_before(target.place)  # the checkpoints before it stay
    ctx.turn.seat = target.seat
    ctx.turn.target = target
    ctx.turn.notation = target.notation


def _no_gcg(turn: Turn, before: Before, after: GameState, nicks: Sequence[str]) -> list[GcgEntry]:
    return []


# Finish ----------------------------------------------------------------------------------------
def _enter_finish(ctx: Context) -> None:
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    racks = ctx.entry.racks
    ctx.state.finish(racks)
    ctx.turn.racks = {str(k): v for k, v in (racks or {}).items()}


def _replay_finish(state: GameState, turn: Turn) -> Outcome:
    return state.finish({int(k): v for k, v in (turn.racks or {}).items()})


def _gcg_finish(
    turn: Turn, before: Before, after: GameState, nicks: Sequence[str]
) -> list[GcgEntry]:
    """Each rack left at the end, as GCG writes it: ``RACK (RACK) -N`` for a player who loses
    its value, ``(RACKS) +N`` for a player who went out and gains (the crossword game)."""
    ruleset = after.ruleset
    adjustments = after.adjustments or [0] * after.players
    racks = {int(k): "".join(ruleset.read_tiles(v)) for k, v in (turn.racks or {}).items()}
    lines: list[GcgEntry] = []
    for seat, rack in sorted(racks.items()):
        if rack and adjustments[seat] < 0:
            final = before.scores[seat] + adjustments[seat]
            penalty = adjustments[seat]
            lines.append(_event("end_rack_penalty", seat, nicks, rack, penalty, final, tiles=rack))
    for seat, adjustment in enumerate(adjustments):
        if adjustment > 0:
            others = "".join(rack for other, rack in sorted(racks.items()) if other != seat)
            final = before.scores[seat] + adjustment
            lines.append(
                _event("end_rack_points", seat, nicks, "", adjustment, final, tiles=others)
            )
    return lines


# Correct ---------------------------------------------------------------------------------------
# Abandon ---------------------------------------------------------------------------------------
def _enter_abandon(ctx: Context) -> None:
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    ctx.state.abandon()


def _gcg_abandon(
    turn: Turn, before: Before, after: GameState, nicks: Sequence[str]
) -> list[GcgEntry]:
    return [GcgNote(sentences.abandoned(turn, KINDS))]


# Void ------------------------------------------------------------------------------------------
def _enter_void(ctx: Context) -> None:
    """A club director declares the game void (finished or not): it leaves the standings."""
    check_game_director(ctx.game, ctx.entry.director, "declare a game void")
    if not ctx.entry.note.strip():
        raise InputError("no_reason", "Say why the game is void: the log keeps the reason.")
    ctx.turn.seat = ctx.seats[ctx.state.to_move]
    ctx.state.void()


def _gcg_void(turn: Turn, before: Before, after: GameState, nicks: Sequence[str]) -> list[GcgEntry]:
    return [GcgNote(sentences.voided(turn, KINDS))]


# The table -------------------------------------------------------------------------------------
KINDS: dict[str, ActionKind] = {
    kind.name: kind
    for kind in (
        ActionKind(
            "play",
            enter=_enter_play,
            replay=_replay_play,
            describe=sentences.played,
            label=lambda t: "play",
            gcg=_gcg_play,
            recorded=True,
            places_tiles=True,
            correctable=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "pass",
            enter=_enter_pass,
            replay=lambda state, turn: state.pass_turn(),
            describe=sentences.passed,
            label=lambda t: "pass",
            gcg=_gcg_pass,
            recorded=True,
            correctable=True,
            scoreless=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "exchange",
            enter=_enter_exchange,
            replay=lambda state, turn: state.exchange(turn.count),
            describe=sentences.exchanged,
            label=lambda t: f"exchange {t.count}",
            gcg=_gcg_exchange,
            recorded=True,
            exchanges_tiles=True,
            correctable=True,
            scoreless=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "challenge",
            enter=_enter_challenge,
            replay=_replay_challenge,
            describe=sentences.challenged,
            label=lambda t: "challenge",
            gcg=_gcg_challenge,
            recorded=True,
            turns=counting.challenge,
            judges_play=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "penalty",
            enter=_enter_penalty,
            replay=_replay_penalty,
            describe=sentences.time_penalty,
            label=lambda t: "time penalty",
            gcg=_gcg_penalty,
            any_seat=True,
            recorded=True,
            turns=counting.no_turn,
            worked_out_ahead=True,
        ),
        ActionKind(
            "undo",
            enter=_enter_undo,
            replay=None,
            describe=lambda t: sentences.undone(t, KINDS),
            label=lambda t: f"undo of #{t.target.number}" if t.target else "undo",
            gcg=_no_gcg,
            rebuilds=True,
            retakes=True,
            turns=counting.no_turn,
        ),
        ActionKind(
            "finish",
            enter=_enter_finish,
            replay=_replay_finish,
            describe=sentences.finished,
            label=lambda t: "end of game",
            gcg=_gcg_finish,
            always=True,
            recorded=True,
            turns=counting.no_turn,
            ends=True,
            counts_racks=True,
            shows_every_total=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "correct",
            enter=lambda ctx: correction.enter(ctx, KINDS),
            replay=lambda state, turn: correction.reapply(state, turn, KINDS),
            describe=lambda t: sentences.corrected(t, KINDS, correction.as_move(t, KINDS)),
            label=lambda t: f"correction of #{t.target.number}" if t.target else "correction",
            gcg=lambda turn, *line: correction.as_move(turn, KINDS).gcg(turn, *line),
            retakes=True,
            replaces=True,
            correctable=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "abandon",
            enter=_enter_abandon,
            replay=lambda state, turn: state.abandon(),
            describe=lambda t: sentences.abandoned(t, KINDS),
            label=lambda t: "abandoned",
            gcg=_gcg_abandon,
            recorded=True,
            turns=counting.no_turn,
            ends=True,
            scoreless=True,
            worked_out_ahead=True,
        ),
        ActionKind(
            "void",
            enter=_enter_void,
            replay=lambda state, turn: state.void(),
            describe=lambda t: sentences.voided(t, KINDS),
            label=lambda t: "void",
            gcg=_gcg_void,
            always=True,
            turns=counting.no_turn,
            ends=True,
            voids=True,
            shows_every_total=True,
        ),
        ActionKind(
            "clock",
            enter=_enter_clock,
            replay=_replay_clock,
            describe=sentences.clock,
            label=lambda t: f"clock {(t.clock or {}).get('action', '')}".rstrip(),
            gcg=_no_gcg,
            turns=counting.no_turn,
            aside=True,
        ),
    )
}


def kind_of(turn: Turn) -> ActionKind:
    try:
        return KINDS[turn.action]
    except KeyError:
        raise InputError(
            "unknown_action", f"Unknown action {turn.action!r}; use one of {', '.join(KINDS)}."
        ) from None


# How many turns each kind adds, by name: what the database counts (``counting.total``).
TURNS: dict[str, Counting] = {name: kind.turns for name, kind in KINDS.items()}


def names_of(test: Callable[[ActionKind], bool]) -> tuple[str, ...]:
    """The names of the kinds that pass ``test``, in the table's order: what a log entry's
    ``action`` is compared with, in memory or in a query (``action__in=``)."""
    return tuple(name for name, kind in KINDS.items() if test(kind))


MOVES = names_of(lambda kind: kind.correctable)  # what a correction can replace
PLAYS = names_of(lambda kind: kind.may_place_tiles)  # the entries that may have put tiles down
PLACING = names_of(lambda kind: kind.places_tiles)  # a play itself
JUDGING = names_of(lambda kind: kind.judges_play)  # a challenge
REPLACING = names_of(lambda kind: kind.replaces)  # a correction
VOIDING = names_of(lambda kind: kind.voids)  # a void
TIMING = names_of(lambda kind: kind.any_seat)  # a time penalty
TAKING_BACK = names_of(lambda kind: not kind.in_play)  # an undo: no move in the order of play
ASIDE = names_of(lambda kind: kind.aside)  # what an undo passes over


def turns_of(turn: Turn, options: RuleOptions) -> int:
    """How many turns one log entry adds as players count them (``counting``)."""
    return kind_of(turn).turns(turn.result, options)


def number_of(turn: Turn) -> int | None:
    """One turn's number as players count it (``replay.turn_numbers``), counted in the database
    up to its place in the order of play; None for an entry that is no turn in effect."""
    return sentences.number_of(turn, KINDS)


def describe(turn: Turn) -> str:
    """The one sentence for people about a turn: "Ann played 8D HOUSE for 24 (HOUSE 24)."."""
    return sentences.marked(turn, kind_of(turn).describe(turn))
