"""A game in progress: the board, scores, the bag and every rack's size, whose turn it is.

The referee never knows which letters a player holds, only how many: after a play the mover
draws back up to the rack size while the bag has tiles (RULES.md §5). Letters on racks are
given only at the end of a Letter UP or crossword game, where they set the penalties (§6).

The crossword game ends, besides by a player going out, after six scoreless turns in a row in a
two-player game (three by each player whatever the number of players, so every player has had
the same chances). Read as the WESPA and club rule "six consecutive turns scoring zero": a
pass, an exchange, a play withdrawn after an upheld challenge (when the player loses the turn),
a turn lost to a failed double challenge, and a play that scores 0 (two blanks) each count; a
play that scores resets the count. A failed single, five- or ten-point challenge uses no turn
and does not count.

Every action checks everything first and changes the state only once it is sure to succeed,
so a refused action leaves the game exactly as it was.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from referee.board import Board
from referee.errors import GameOver, IllegalAction, InputError
from referee.play import Placement, Play
from referee.rules import Evaluation, ScoredWord, evaluate
from referee.rulesets import RuleOptions, Ruleset, get_ruleset

if TYPE_CHECKING:
    from referee.lexicon import Lexicon

Status = Literal["in_progress", "awaiting_racks", "finished", "abandoned", "void"]
IN_PROGRESS: Status = "in_progress"
AWAITING_RACKS: Status = "awaiting_racks"
FINISHED: Status = "finished"
# Given up by the table (a test game, a mistake): no end-of-game adjustment, no final scores.
ABANDONED: Status = "abandoned"
# Declared void by whoever runs the event (a club director): stopped where it stood, whether
# over or not, with no final scores; it counts for no one.
VOID: Status = "void"

MAX_PLAYERS = 4
CHALLENGE_PENALTY = 5
# Points a failed challenge gives the challenged player, by the rejected_challenge option.
CHALLENGE_BONUS = {"bonus_5": 5, "bonus_10": 10}


@dataclass(frozen=True)
class LastPlay:
    """What is needed to take the last play back exactly, should a challenge uphold."""

    seat: int
    play: Play
    words: tuple[ScoredWord, ...]
    score: int
    drawn: int
    passes_before: int


@dataclass(frozen=True)
class Outcome:
    """What one action did, for the turn log."""

    action: Literal[
        "play", "pass", "exchange", "challenge", "finish", "penalty", "abandon", "void", "clock"
    ]
    seat: int
    score: int = 0
    words: tuple[ScoredWord, ...] = ()
    play: Play | None = None
    evaluation: Evaluation | None = None
    count: int = 0  # tiles exchanged
    result: Literal["upheld", "rejected"] | None = None
    invalid_words: tuple[str, ...] = ()
    challenged_seat: int | None = None
    lost_turn: bool = False
    # Points a failed challenge gave the challenged player (``score`` is the challenger's).
    bonus: int = 0
    ended: bool = False
    notation: str = ""  # a play's GCG-style notation on the board it was played on


@dataclass
class GameState:
    """The whole state of a game between turns. Build one with ``GameState.new``."""

    ruleset: Ruleset
    options: RuleOptions
    board: Board
    scores: list[int]
    racks: list[int]
    bag: int
    to_move: int = 0
    # Consecutive passes (crossword: scoreless turns), the count that can end the game.
    passes: int = 0
    status: Status = IN_PROGRESS
    adjustments: list[int] | None = None
    exchanges: int = 0  # exchanges made so far (limited in solo games)
    skips: list[int] = field(default_factory=list)  # turns each seat must miss
    last_play: LastPlay | None = None

    # Creation ------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        players: int,
        options: RuleOptions | None = None,
        first: int = 0,
    ) -> GameState:
        """A new game: every player has drawn a full rack.

        Without ``options`` the game has the ruleset's defaults (``RuleOptions.defaults``).

        >>> g = GameState.new("upwords-10", 2)
        >>> g.bag, g.racks
        (86, [7, 7])
        """
        ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if not 1 <= players <= MAX_PLAYERS:
            raise InputError("bad_players", f"A game has 1 to {MAX_PLAYERS} players.")
        if not 0 <= first < players:
            raise InputError("bad_first", "The first player must be one of the players.")
        options = options or RuleOptions.defaults(ruleset)
        if ruleset.going_out_bonus and options.out_bonus == "twice_opponents" and players > 2:
            raise InputError(
                "bad_option",
                "Twice the opponent's rack is the two-player rule: with more players, "
                "choose sum_of_others.",
            )
        racks = [ruleset.rack_size] * players
        return cls(
            ruleset=ruleset,
            options=options,
            board=Board(ruleset.size),
            scores=[0] * players,
            racks=racks,
            bag=ruleset.total_tiles - sum(racks),
            to_move=first,
            skips=[0] * players,
        )

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def turns_to_end(self) -> int:
        """How many passes (crossword: scoreless turns) in a row end the game."""
        each = self.ruleset.scoreless_turns_each_to_end or self.ruleset.passes_each_to_end
        return self.players * each

    @property
    def final_scores(self) -> list[int] | None:
        """Turn scores plus end-of-game adjustments, once the game has finished."""
        if self.status != FINISHED or self.adjustments is None:
            return None
        return [s + a for s, a in zip(self.scores, self.adjustments, strict=True)]

    def unseen(self) -> Counter[str]:
        """Tiles not on the board (in the bag or on racks): the tile tracker.

        Blanks are counted as ``"?"``, whatever the blanks on the board stand for.
        """
        on_board = self.board.tile_counts()
        return Counter({t: n - on_board[t] for t, n in self.ruleset.tiles.items()}) + Counter()

    def tiles_accounted(self) -> int:
        """Board + bag + racks; always equals the size of the tile set."""
        return self.board.tile_count + self.bag + sum(self.racks)

    def copy(self) -> GameState:
        return GameState(
            ruleset=self.ruleset,
            options=self.options,
            board=self.board.copy(),
            scores=list(self.scores),
            racks=list(self.racks),
            bag=self.bag,
            to_move=self.to_move,
            passes=self.passes,
            status=self.status,
            adjustments=list(self.adjustments) if self.adjustments is not None else None,
            exchanges=self.exchanges,
            skips=list(self.skips),
            last_play=self.last_play,
        )

    # Turns ---------------------------------------------------------------------------------
    def evaluate(self, play: Play, lexicon: Lexicon | None = None) -> Evaluation:
        """Check and score ``play`` for the player to move, without changing anything."""
        self._require_in_play()
        if len(play) > self.racks[self.to_move]:
            have = self.racks[self.to_move]
            raise InputError(
                "not_enough_tiles",
                f"That is {len(play)} tiles, but the rack holds only {have}.",
            )
        return evaluate(self.board, play, self.ruleset, self.options, lexicon)

    def play(self, play: Play, lexicon: Lexicon | None = None) -> Outcome:
        """Put ``play`` down for the player to move: score it, draw tiles, pass the turn.

        ``lexicon`` checks the words as they are played (``None``: they stand until
        challenged).
        """
        evaluation = self.evaluate(play, lexicon)
        notation = play.notation(self.board, self.ruleset)
        seat = self.to_move
        used = len(play)
        drawn = min(used, self.bag)
        self.last_play = LastPlay(
            seat, play, evaluation.words, evaluation.score, drawn, self.passes
        )
        for p in play.placements:
            self.board.place(p.row, p.col, p.tile)
        self.scores[seat] += evaluation.score
        self.racks[seat] += drawn - used
        self.bag -= drawn
        if self.bag == 0 and self.racks[seat] == 0:
            self._game_ends()
        elif self.ruleset.scoreless_turns_each_to_end and evaluation.score == 0:
            self._count_scoreless()
        else:
            self.passes = 0
        # Even after the last play the turn moves on: the next player is who may challenge it.
        self._advance()
        return Outcome(
            "play",
            seat,
            evaluation.score,
            evaluation.words,
            play,
            evaluation,
            ended=self.status != IN_PROGRESS,
            notation=notation,
        )

    def pass_turn(self) -> Outcome:
        self._require_in_play()
        seat = self.to_move
        self.passes += 1
        self.last_play = None
        if self.passes >= self.turns_to_end:
            self._game_ends()
        else:
            self._advance()
        return Outcome("pass", seat, ended=self.status != IN_PROGRESS)

    def exchange(self, count: int) -> Outcome:
        """Swap ``count`` tiles with the bag; the turn is forfeited."""
        self._require_in_play()
        if isinstance(count, bool) or not isinstance(count, int):
            raise InputError("bad_count", "The number of tiles to exchange must be a whole number.")
        rack = self.racks[self.to_move]
        if self.ruleset.exchange_exactly_one and count != 1:
            raise InputError("bad_count", f"In {self.ruleset.name} you exchange exactly one tile.")
        if not 1 <= count <= rack:
            raise InputError("bad_count", f"You can exchange from 1 to {rack} tiles.")
        least = self.ruleset.exchange_min_bag
        if self.bag < least:
            raise IllegalAction(
                "bag_too_small",
                f"In {self.ruleset.name} you can exchange only while the bag holds at least "
                f"{least} tiles, and it holds {self.bag}.",
            )
        if self.bag < count:
            raise IllegalAction(
                "bag_too_small",
                f"The bag holds {self.bag} tile{'s' if self.bag != 1 else ''}: "
                f"you can't exchange {count}.",
            )
        if self.solo and self.exchanges >= self.options.solo_exchanges:
            allowed = self.options.solo_exchanges
            raise IllegalAction(
                "no_exchanges_left",
                "A solo game allows no exchanges."
                if allowed == 0
                else f"A solo game allows {allowed} exchanges, and they have been used.",
            )
        seat = self.to_move
        self.exchanges += 1
        self.last_play = None
        if self.ruleset.scoreless_turns_each_to_end:
            self._count_scoreless()
        else:
            self.passes = 0  # an exchange is not a pass
        if self.status == IN_PROGRESS:
            self._advance()
        return Outcome("exchange", seat, count=count, ended=self.status != IN_PROGRESS)

    def challenge(
        self,
        lexicon: Lexicon | None = None,
        challenger: int | None = None,
        *,
        upheld: bool | None = None,
    ) -> Outcome:
        """Challenge the last play: every word it formed is checked against ``lexicon``.

        Upheld: the play comes off the board exactly, its points are taken back and the mover
        tries again (or loses the turn, by option). Rejected: the play stands and the
        challenger pays the option's penalty, if any (their next turn, 5 points, or 5 or 10
        points to the challenged player).

        Replaying a log passes the verdict it recorded as ``upheld`` instead of a lexicon: the
        verdict was given with the game's list at the time, and is not judged again.
        """
        self._require_not_abandoned()
        last = self.last_play
        if last is None:
            raise IllegalAction(
                "nothing_to_challenge",
                "Only the last play can be challenged, before the next turn starts.",
            )
        challenger = self.to_move if challenger is None else challenger
        if not 0 <= challenger < self.players or challenger == last.seat and not self.solo:
            raise InputError("bad_challenger", "The challenger must be another player.")
        if upheld is None:
            if lexicon is None:
                raise ValueError("a challenge is judged by a lexicon or by a recorded verdict")
            invalid = tuple(w.word for w in last.words if not lexicon.contains(w.word))
            upheld = bool(invalid)
        else:
            invalid = ()
        if upheld:
            self._take_back(last)
            lost = self.options.upheld_challenge == "lose_turn"
            if lost:
                self._count_scoreless()  # the withdrawn play was the mover's turn
                if self.status == IN_PROGRESS:
                    self._advance()
            return Outcome(
                "challenge",
                challenger,
                result="upheld",
                invalid_words=invalid,
                challenged_seat=last.seat,
                words=last.words,
                lost_turn=lost,
                ended=self.status != IN_PROGRESS,
            )
        self.last_play = None
        was_over = self.status != IN_PROGRESS  # the challenged play may have ended the game
        penalty = self.options.rejected_challenge
        score = bonus = 0
        lost = False
        if penalty == "minus_5":
            score = -CHALLENGE_PENALTY
            self.scores[challenger] += score
        elif penalty in CHALLENGE_BONUS:
            bonus = CHALLENGE_BONUS[penalty]
            self.scores[last.seat] += bonus
        elif penalty == "lose_turn" and self.status == IN_PROGRESS:
            lost = True
            if challenger == self.to_move:
                self._count_scoreless()  # the challenger's turn, lost
                if self.status == IN_PROGRESS:
                    self._advance()
            else:
                self.skips[challenger] += 1  # counted as scoreless when it is missed
        return Outcome(
            "challenge",
            challenger,
            score,
            result="rejected",
            challenged_seat=last.seat,
            words=last.words,
            lost_turn=lost,
            bonus=bonus,
            ended=not was_over and self.status != IN_PROGRESS,
        )

    def penalty(self, seat: int, points: int) -> Outcome:
        """Add ``points`` (usually negative: a tournament clock's time penalty) to a seat's
        score. It is no one's turn: whose turn it is, and the game's status, stay as they are;
        after the end it changes the final score.

        >>> g = GameState.new("crossword-classic", 2)
        >>> g.penalty(1, -10).score, g.scores
        (-10, [0, -10])
        """
        self._require_not_abandoned()  # an abandoned or void game has no scores to change
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise InputError("bad_seat", f"There is no player {seat!r} in this game.")
        if isinstance(points, bool) or not isinstance(points, int) or abs(points) > 1000:
            raise InputError("bad_points", "A penalty is a whole number of points up to 1000.")
        self.scores[seat] += points
        return Outcome("penalty", seat, points)

    def finish(self, racks: Mapping[int, str] | None = None) -> Outcome:
        """End the game and apply the unplayed-tile penalties (RULES.md §6).

        ``racks`` gives the letters left on each seat's rack (a blank is ``?``, worth 0); their
        number must match the tracked rack size. Letter UP and the crossword game need them
        (the penalty is their value); Upwords counts the tiles it already knows about. Ends a
        game early too: then every player just loses their own rack's value.
        """
        self._require_not_abandoned()
        if self.status == FINISHED:
            raise GameOver("game_over", "This game has already finished.")
        letters = self._read_racks(racks)
        if self.ruleset.penalty == "letter_values":
            missing = [
                seat for seat in range(self.players) if self.racks[seat] and seat not in letters
            ]
            if missing:
                raise InputError(
                    "racks_required",
                    f"Enter the letters left on every rack: {self.ruleset.name} "
                    "counts their values.",
                )
        self._game_ends(letters)
        self.last_play = None
        return Outcome("finish", self.to_move, ended=True)

    def abandon(self) -> Outcome:
        """Give the game up before its end: it stops, with no adjustments and no final scores."""
        self._require_not_abandoned()
        if self.status == FINISHED:
            raise GameOver("game_over", "This game has finished: there is nothing to abandon.")
        self.status = ABANDONED
        self.last_play = None
        return Outcome("abandon", self.to_move, ended=True)

    def void(self) -> Outcome:
        """Declare the game void, finished or not: it stops, and has no final scores."""
        self._require_not_abandoned()
        self.status = VOID
        self.last_play = None
        return Outcome("void", self.to_move, ended=True)

    # Internals -----------------------------------------------------------------------------
    def _require_not_abandoned(self) -> None:
        if self.status == ABANDONED:
            raise GameOver("abandoned", "This game was abandoned: undo that to go on with it.")
        if self.status == VOID:
            raise GameOver("void", "This game was declared void: a director can undo that.")

    def _require_in_play(self) -> None:
        self._require_not_abandoned()
        if self.status == FINISHED:
            raise GameOver("game_over", "This game has finished.")
        if self.status == AWAITING_RACKS:
            raise GameOver(
                "awaiting_racks",
                "The game has reached its end: enter the letters left on each rack to finish it.",
            )

    def _advance(self) -> None:
        seat = self.to_move
        for _ in range(self.players * (1 + max(self.skips, default=0))):
            seat = (seat + 1) % self.players
            if self.skips[seat]:
                self.skips[seat] -= 1
                self._count_scoreless()  # a turn lost to a failed challenge
                continue
            break
        self.to_move = seat

    def _count_scoreless(self) -> None:
        """One more scoreless turn in a row, where the ruleset counts them; enough end the game."""
        if not self.ruleset.scoreless_turns_each_to_end or self.status != IN_PROGRESS:
            return
        self.passes += 1
        if self.passes >= self.turns_to_end:
            self._game_ends()

    def _game_ends(self, letters: Mapping[int, list[str]] | None = None) -> None:
        if self.ruleset.penalty == "per_tile":
            self.adjustments = [-self.ruleset.penalty_per_tile * n for n in self.racks]
            self.status = FINISHED
        elif letters is not None:
            self.adjustments = self._rack_adjustments(letters)
            self.status = FINISHED
        else:
            self.status = AWAITING_RACKS

    def _rack_adjustments(self, letters: Mapping[int, list[str]]) -> list[int]:
        """Each player loses their rack's value; whoever went out may gain the others' racks."""
        left = [
            sum(map(self.ruleset.tile_value, letters.get(seat, ()))) for seat in range(self.players)
        ]
        out = next(
            (seat for seat in range(self.players) if self.bag == 0 and self.racks[seat] == 0),
            None,
        )
        if out is None or not self.ruleset.going_out_bonus:
            return [-value for value in left]
        others = sum(left) - left[out]
        if self.options.out_bonus == "twice_opponents":
            return [2 * others if seat == out else 0 for seat in range(self.players)]
        return [others if seat == out else -left[seat] for seat in range(self.players)]

    def _take_back(self, last: LastPlay) -> None:
        for p in reversed(last.play.placements):
            self.board.lift(p.row, p.col)
        self.scores[last.seat] -= last.score
        self.racks[last.seat] += len(last.play) - last.drawn
        self.bag += last.drawn
        self.passes = last.passes_before
        self.status = IN_PROGRESS
        self.adjustments = None
        self.to_move = last.seat
        self.last_play = None

    def _read_racks(self, racks: Mapping[int, str] | None) -> dict[int, list[str]]:
        """Each seat's rack letters as tiles of the set (a blank is ``?``), checked against
        the tracked rack sizes and the tiles left off the board."""
        if not racks:
            return {}
        letters: dict[int, list[str]] = {}
        for seat, text in racks.items():
            if not isinstance(seat, int) or not 0 <= seat < self.players:
                raise InputError("bad_rack", f"There is no player {seat!r} in this game.")
            if not isinstance(text, str):
                raise InputError("bad_rack", "A rack is written as its letters, like QZ.")
            letters[seat] = self.ruleset.read_tiles(text)
            if len(letters[seat]) != self.racks[seat]:
                raise InputError(
                    "rack_mismatch",
                    f"Player {seat + 1} has {self.racks[seat]} tiles on the rack, "
                    f"not {len(letters[seat])}.",
                )
        wanted = Counter(t for tiles in letters.values() for t in tiles)
        unseen = self.unseen()
        short = sorted(t for t, n in wanted.items() if n > unseen[t])
        if short:
            shown = ", ".join(self.ruleset.display(t) for t in short)
            raise InputError(
                "rack_letters_unavailable",
                f"Not that many of {shown} are left off the board: check the racks.",
            )
        return letters

    # Records -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record of the state (the board as rows of stacks)."""
        last = self.last_play
        return {
            "ruleset": self.ruleset.id,
            "options": self.options.to_dict(),
            "board": self.board.rows(),
            "scores": list(self.scores),
            "racks": list(self.racks),
            "bag": self.bag,
            "to_move": self.to_move,
            "passes": self.passes,
            "status": self.status,
            "adjustments": self.adjustments,
            "exchanges": self.exchanges,
            "skips": list(self.skips),
            "last_play": None
            if last is None
            else {
                "seat": last.seat,
                "tiles": [[p.row, p.col, p.tile] for p in last.play.placements],
                "score": last.score,
                "drawn": last.drawn,
                "passes_before": last.passes_before,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        ruleset = get_ruleset(data["ruleset"])
        options = RuleOptions.from_dict(data["options"], ruleset)
        board = Board.from_rows(data["board"])
        state = cls(
            ruleset=ruleset,
            options=options,
            board=board,
            scores=list(data["scores"]),
            racks=list(data["racks"]),
            bag=data["bag"],
            to_move=data["to_move"],
            passes=data["passes"],
            status=data["status"],
            adjustments=data["adjustments"],
            exchanges=data["exchanges"],
            skips=list(data["skips"]),
        )
        last = data.get("last_play")
        if last:
            play = Play(tuple(Placement(r, c, t) for r, c, t in last["tiles"]))
            # The words are re-read from the board, which still shows the play.
            before = board.copy()
            for p in reversed(play.placements):
                before.lift(p.row, p.col)
            words = evaluate(before, play, ruleset, options).words
            state.last_play = LastPlay(
                last["seat"], play, words, last["score"], last["drawn"], last["passes_before"]
            )
        return state


def draw_for_first(
    ruleset: Ruleset, players: int, rng: random.Random | None = None
) -> tuple[int, list[list[str]]]:
    """Each player draws a tile; the one nearest "A" starts, and the tied draw again.

    A blank (``?``) sorts before ``A``, so it wins the draw, as the crossword game's rule says.

    Returns the starting seat and every round of draws (a round lists one tile per seat,
    ``""`` for a seat that sat the round out).
    """
    rng = rng or random.Random()
    contenders = list(range(players))
    rounds: list[list[str]] = []
    while True:
        bag = [t for t, n in ruleset.tiles.items() for _ in range(n)]
        drawn = dict(zip(contenders, rng.sample(bag, len(contenders)), strict=True))
        rounds.append([drawn.get(seat, "") for seat in range(players)])
        best = min(drawn.values())
        contenders = [seat for seat, tile in drawn.items() if tile == best]
        if len(contenders) == 1:
            return contenders[0], rounds
