"""Previewing a play before it is entered: what it would score, and what the rules say of it
yet."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee import (
    Evaluation,
    GameState,
    IllegalPlay,
    Play,
    RefereeError,
    Violation,
)
from scorekeeper.games import checkpoints
from scorekeeper.games.state import load_state
from scorekeeper.games.word_policy import lexicon_for, policy_for
from scorekeeper.models import (
    Game,
    Turn,
)


# Previewing a play -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Preview:
    """What the scorer sees while placing tiles: the play's words and score, or why not."""

    text: str
    note: str = ""  # what the policy says of the words shown
    evaluation: Evaluation | None = None
    notation: str = ""
    violations: tuple[Violation, ...] = ()
    problem: str = ""
    problem_code: str = ""
    placed: bool = True  # the play puts a tile down (else it only reads through letters)
    lexicon: str = ""  # the word list the play was checked against, if any

    @property
    def squares(self) -> list[str]:
        """The squares the refusal is about, to mark on the board."""
        return sorted({sq for v in self.violations for sq in v.squares})

    @property
    def missing(self) -> tuple[str, ...]:
        """What a play still being entered lacks, said neutrally, when more letters along its
        line could still make it legal (one letter so far, not yet touching the board, a word
        not yet in the list); empty when it breaks a rule no further letter mends."""
        if self.problem:
            return (self.problem,) if self.problem_code in _UNFINISHED_INPUT else ()
        mendable = _UNFINISHED.keys() | {"invalid_word"}
        if not self.violations or any(v.code not in mendable for v in self.violations):
            return ()
        if self.placed and any(v.code == "same_letter" for v in self.violations):
            return ()  # a tile put on its own letter: no further letter mends that
        said = [_UNFINISHED[v.code](v) for v in self.violations if v.code != "invalid_word"]
        if words := [w for v in self.violations if v.code == "invalid_word" for w in v.words]:
            said.append(f"So far, not in {self.lexicon or 'the word list'}: {', '.join(words)}.")
        return tuple(dict.fromkeys(said))


# The rules a play being entered may not meet yet, each with what to say meanwhile (a word
# not in the list is said with the others). A play that only reads through letters already
# there (Upwords' "5E O") places no tile yet.
_UNFINISHED: dict[str, Callable[[Violation], str]] = {
    "first_play_too_short": lambda v: "A word needs two letters or more: type the next one.",
    "no_word": lambda v: "A word needs two letters or more: type the next one.",
    "first_play_off_start": lambda v: v.message,
    "not_connected": lambda v: "Go on until the word reaches a tile already on the board.",
    "gap": lambda v: f"Still empty between the tiles: {', '.join(v.squares)}.",
    "same_letter": lambda v: f"The play reads through {v.squares[0]}: type the next letter.",
}
_UNFINISHED_INPUT = {"no_tiles", "bad_notation"}


def preview(
    game: Game, text: str, *, before: Turn | None = None, on: GameState | None = None
) -> Preview:
    """Check and score ``text`` (a play in notation) for the player to move; changes nothing.
    With ``before`` (a turn in effect), on the board that turn was played on, for its player:
    what a correction of it would be; ``on`` is that state, where the caller has it."""
    text = text.strip()
    if not text:
        return Preview(text)
    policy = policy_for(game)
    seats = list(game.seats.order_by("order"))
    play = lexicon = None
    try:
        if on is not None:
            state = on
        elif before is None:
            state = load_state(game, seats)
        else:
            state = checkpoints.state_before(game, before.place, len(seats))
        play = Play.parse(text, state.ruleset, state.board)
        lexicon = lexicon_for(game) if policy.checks_as_played else None
        evaluation = state.evaluate(play, lexicon)
    except IllegalPlay as error:
        return Preview(
            text,
            violations=tuple(error.violations),
            placed=play is not None,
            lexicon=lexicon.id if lexicon else "",
        )
    except RefereeError as error:
        return Preview(text, problem=error.message, problem_code=error.code)
    return Preview(
        text,
        note=policy.preview_note,
        evaluation=evaluation,
        notation=play.notation(state.board, state.ruleset),
    )
