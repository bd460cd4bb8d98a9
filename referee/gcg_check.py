"""Checking a GCG record against the rules: replay it through the engine, line by line.

``check_record`` lists every line where the record and the engine disagree: a score, a running
total, the turn order, a challenge verdict (given a lexicon), the end-of-game racks, or a turn
the engine refuses (where the check stops). The rule options a record was played under are read
from the record itself (``infer_options``): GCG has no pragma for them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from referee.errors import RefereeError
from referee.game import FINISHED, IN_PROGRESS, GameState
from referee.gcg import EventKind, GcgEvent, GcgRecord, play_placements
from referee.play import Play
from referee.rulesets import RuleOptions, Ruleset

if TYPE_CHECKING:
    from referee.lexicon import Lexicon

MismatchKind = Literal["score", "total", "final", "turn", "verdict", "replay"]


@dataclass(frozen=True)
class Mismatch:
    """A line where the record and the engine disagree.

    ``what`` says which: the line's ``score``; its ``total`` (the record's own arithmetic: the
    player's previous total plus the line's score); a ``final`` score; the ``turn`` order; a
    challenge ``verdict`` the lexicon would not give; or a ``replay`` the engine refused (the
    check stops there).
    """

    line: int
    text: str
    what: MismatchKind
    recorded: int | None
    computed: int | None
    message: str

    def to_dict(self) -> dict[str, object]:
        return {
            "line": self.line,
            "text": self.text,
            "what": self.what,
            "recorded": self.recorded,
            "computed": self.computed,
            "message": self.message,
        }


_BONUS_RULES: dict[int, Literal["bonus_5", "bonus_10"]] = {5: "bonus_5", 10: "bonus_10"}


def infer_options(record: GcgRecord, ruleset: Ruleset) -> RuleOptions:
    """The rule options a record shows it was played under, the ruleset's defaults otherwise.

    A ``(challenge) +5`` or ``+10`` line shows the five- or ten-point rule and a lost turn
    (``--`` after the opponent's play) the double-challenge rule; the same player moving again
    after a withdrawn play shows they could retry; a player going out, with no penalty line
    for the opponent, shows the two-player rule (twice the opponent's rack).
    """
    options = RuleOptions.defaults(ruleset)
    events = record.events
    # The bonus most lines give: a record that mixes them disagrees with itself somewhere.
    bonuses = Counter(e.score for e in events if e.kind == "challenge_bonus" and e.score)
    if any(e.kind == "challenge_loss" for e in events):
        options = replace(options, rejected_challenge="lose_turn")
    elif bonuses:
        bonus = max(sorted(bonuses), key=lambda points: bonuses[points])
        options = replace(options, rejected_challenge=_BONUS_RULES.get(bonus, "bonus_5"))
    elif any(e.kind == "challenge_bonus" for e in events):
        options = replace(options, rejected_challenge="none")
    for event, after in zip(events, events[1:], strict=False):
        if event.kind == "withdrawn" and after.seat == event.seat and after.kind == "play":
            options = replace(options, upheld_challenge="retry")
    if ruleset.going_out_bonus:
        # Two players, and the one left with tiles loses nothing: the tournament rule.
        kinds = {e.kind for e in events}
        twice = len(record.players) == 2 and kinds >= {"end_rack_points"}
        twice = twice and "end_rack_penalty" not in kinds
        options = replace(options, out_bonus="twice_opponents" if twice else "sum_of_others")
    return options


def check_record(
    record: GcgRecord,
    ruleset: Ruleset,
    lexicon: Lexicon | None = None,
    options: RuleOptions | None = None,
) -> list[Mismatch]:
    """Replay a record through the engine and list every line where they disagree.

    Each scored line is compared with the engine's score for it, each running total with the
    player's previous total plus the line's score, and the end-of-game lines with the engine's
    rack adjustments. Plays stand as recorded; given a ``lexicon``, the record's challenge
    verdicts are judged again. Options default to what the record shows (``infer_options``).
    An empty list means the record and the rules agree on every line.
    """
    return _Replay(record, ruleset, lexicon, options or infer_options(record, ruleset)).run()


class _Refused(Exception):
    """The engine cannot replay this line; the check stops here."""


class _Replay:
    def __init__(
        self, record: GcgRecord, ruleset: Ruleset, lexicon: Lexicon | None, options: RuleOptions
    ) -> None:
        self.record = record
        self.ruleset = ruleset
        self.lexicon = lexicon
        first = record.events[0].seat if record.events else 0
        self.state = GameState.new(ruleset, len(record.players), options, first)
        self.mismatches: list[Mismatch] = []
        self.finished = False
        # Each kind of line once: how the engine replays it, returning the score it computes
        # for the line's player (None where the rules cannot compute one).
        self.handlers: dict[EventKind, Callable[[GcgEvent, int], int | None]] = {
            "play": self.play,
            "pass": self.pass_turn,
            "exchange": self.exchange,
            "withdrawn": self.withdrawn,
            "challenge_loss": self.challenge_loss,
            "challenge_bonus": self.challenge_bonus,
            "end_rack_points": self.end_rack,
            "end_rack_penalty": self.end_rack,
            "time_penalty": self.time_penalty,
        }

    def run(self) -> list[Mismatch]:
        totals = [0] * len(self.record.players)
        stopped = False
        for index, event in enumerate(self.record.events):
            computed: int | None = None
            if not stopped:
                try:
                    computed = self.handlers[event.kind](event, index)
                except (RefereeError, _Refused) as error:
                    message = error.message if isinstance(error, RefereeError) else str(error)
                    self.add(event, "replay", None, None, f"{message} The check stops here.")
                    stopped = True
            score = event.score
            if event.kind == "withdrawn" and score == 0 and computed is not None:
                score = computed  # Quackle writes "-- +0" and lowers the total itself
            elif computed is not None and computed != event.score:
                self.add(event, "score", event.score, computed, "The rules give another score.")
            if totals[event.seat] + score != event.total:
                expected = totals[event.seat] + score
                message = "The total is not the previous total plus this line's score."
                self.add(event, "total", event.total, expected, message)
            totals[event.seat] = event.total
        if not stopped:
            self.check_final(totals)
        return sorted(self.mismatches, key=lambda m: m.line)

    def add(
        self,
        event: GcgEvent,
        what: MismatchKind,
        recorded: int | None,
        computed: int | None,
        message: str,
    ) -> None:
        self.mismatches.append(Mismatch(event.line, event.text, what, recorded, computed, message))

    def check_final(self, totals: list[int]) -> None:
        final = self.state.final_scores if self.state.status == FINISHED else None
        if final is None or not self.record.events:
            return
        flagged = {m.line for m in self.mismatches}
        for seat, (recorded, computed) in enumerate(zip(totals, final, strict=True)):
            own = [e for e in self.record.events if e.seat == seat]
            if recorded != computed and not {e.line for e in own} & flagged:  # else it's said
                # The player's last line; a player with none is told at the record's last line.
                last = own[-1] if own else self.record.events[-1]
                self.add(last, "final", recorded, computed, "The final score differs.")

    def take_turn(self, event: GcgEvent) -> None:
        if self.state.to_move != event.seat:
            self.add(
                event,
                "turn",
                event.seat + 1,
                self.state.to_move + 1,
                f"The rules give this turn to player {self.state.to_move + 1}.",
            )
            self.state.to_move = event.seat

    def gain(self, seat: int, action: Callable[[], object]) -> int:
        before = self.state.scores[seat]
        action()
        return self.state.scores[seat] - before

    def play(self, event: GcgEvent, index: int) -> int:
        self.take_turn(event)
        placements = play_placements(event, self.state.board)
        return self.state.play(Play(placements)).score

    def pass_turn(self, event: GcgEvent, index: int) -> int:
        last = self.state.last_play
        if self.state.status != IN_PROGRESS and last is not None and last.seat != event.seat:
            # After a player goes out, Woogles records the opponent's choice not to challenge
            # the last play as a pass.
            return 0
        self.take_turn(event)
        self.state.pass_turn()
        return 0

    def exchange(self, event: GcgEvent, index: int) -> int:
        self.take_turn(event)
        self.state.exchange(event.count)
        return 0

    def judge(self, event: GcgEvent, upheld: bool) -> None:
        last = self.state.last_play
        if self.lexicon is None or last is None:
            return
        invalid = [w.word for w in last.words if not self.lexicon.contains(w.word)]
        if bool(invalid) != upheld:
            found = ", ".join(invalid) if invalid else "every word acceptable"
            self.add(event, "verdict", None, None, f"The lexicon finds {found}.")

    def withdrawn(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=True)
        last = self.state.last_play
        if last is None or last.seat != event.seat:
            raise _Refused("There is no play by this player to withdraw.")
        challenger = (event.seat + 1) % self.state.players
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=challenger, upheld=True)
        )

    def challenge_loss(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=False)
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=event.seat, upheld=False)
        )

    def challenge_bonus(self, event: GcgEvent, index: int) -> int:
        self.judge(event, upheld=False)
        last = self.state.last_play
        if last is None or last.seat != event.seat:
            raise _Refused("There is no play by this player that a challenge could have tested.")
        challenger = (event.seat + 1) % self.state.players
        return self.gain(
            event.seat, lambda: self.state.challenge(challenger=challenger, upheld=False)
        )

    def time_penalty(self, event: GcgEvent, index: int) -> None:
        self.state.scores[event.seat] += event.score  # the clock's penalty: nothing to check
        return None

    def end_rack(self, event: GcgEvent, index: int) -> int:
        if not self.finished:
            self.finish(index)
        adjustments = self.state.adjustments or [0] * self.state.players
        return adjustments[event.seat]

    def finish(self, index: int) -> None:
        """End the game with the racks the end-of-game lines (and #rackN lines) show."""
        self.finished = True
        players = len(self.record.players)
        racks: dict[int, str] = {
            number - 1: rack for number, rack in self.record.final_racks.items()
        }
        for event in self.record.events[index:]:
            if event.kind == "end_rack_penalty":
                racks[event.seat] = event.tiles
            elif event.kind == "end_rack_points" and players == 2:
                racks[1 - event.seat] = event.tiles
        racks = {seat: rack for seat, rack in racks.items() if self.state.racks[seat]}
        self.state.finish(racks)
