"""What the events' API takes: a club's name, an event's rules and players, a .t file, a round's
pairing, a result, a swap, late entries, a withdrawal, a forfeit, a void, the event's date and
state. Each checks its bounds (the events' own limits) before a route reads it.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any, Literal

from ninja import Field, Schema

from scorekeeper.api.endpoints import ApiError, Int, Text
from scorekeeper.clubs import club_settings
from scorekeeper.events.entries import (
    MAX_CAREER_GAMES,
    MAX_DIVISION_NAME,
    MAX_ENTRANTS,
    MAX_RATING,
    MAX_ROUNDS,
)
from scorekeeper.events.files import T_FILE_MOST
from scorekeeper.models import (
    Club,
)


class ClubIn(Schema):
    name: Text = Field(..., max_length=80, examples=["Riverside"])


class EntryIn(Schema):
    name: Text = Field(..., examples=["Ann Archer"], description="as people write it")
    rating: Int = Field(0, ge=0, le=MAX_RATING, description="0: unrated")
    career_games: Int = Field(
        0, ge=0, le=MAX_CAREER_GAMES, description="rated games before this event"
    )
    division: Text = Field(
        "",
        max_length=MAX_DIVISION_NAME,
        examples=["A"],
        description="the player's division; leave out for an event of one division",
    )


class GibsonIn(Schema):
    on: bool = True
    spread: Int = Field(500, ge=0, le=1000, description="the margin a game assumed")
    prize_places: Int = Field(1, ge=0, le=1000)


class EventIn(Schema):
    """An event's rules: everything a new event takes but its players."""

    name: Text = Field(..., max_length=120, examples=["Friday night"])
    date: Date | None = Field(None, description="YYYY-MM-DD; by default today")
    ruleset: str | None = Field(
        None, examples=["upwords-10"], description="by default the club's usual game"
    )
    lexicon: str | None = Field(
        None,
        examples=["TWL06"],
        description="or 'honour'; by default the club's usual dictionary, else the server's",
    )
    challenge_mode: Literal["auto", "manual"] | None = Field(
        None, description="by default the club's usual word checking, else auto"
    )
    rounds: Int = Field(..., ge=1, le=MAX_ROUNDS)
    bye_spread: Int = Field(50, ge=0, le=1000)
    forfeit_spread: Int = Field(50, ge=0, le=1000)
    repeats_allowed: Int = Field(
        1, ge=0, le=1000, description="Swiss: how many times a couple may meet again"
    )
    gibson: GibsonIn = GibsonIn(on=True, spread=500, prize_places=1)
    fontes_rounds: Int = Field(
        3, ge=1, le=MAX_ROUNDS, description="Initial Fontes: how many rounds (odd)"
    )
    rejected_challenge: str | None = Field(
        None,
        description="a failed challenge's rule in its games (none, lose_turn, minus_5, "
        "bonus_5, bonus_10; empty: the ruleset's own); by default the club's usual one",
    )
    clock: Any = Field(
        None,
        description="its games' clock, as POST /api/games/ takes it "
        '({"kind": "player", "minutes": 25} or {"kind": "turn", "seconds": 75}; null: none); '
        "left out, the club's usual clock",
        examples=[{"kind": "player", "minutes": 25}],
    )

    def rules(self, club: Club) -> dict[str, Any]:
        """The event's game rules: as given, else the club's usual ones."""
        usual = club_settings.rules_of(club)
        ruleset = self.ruleset or usual.ruleset
        if not ruleset:
            raise ApiError(422, "no_ruleset", f"Give the ruleset: {club.name} keeps no usual game.")
        return {
            "ruleset": ruleset,
            "lexicon": self.lexicon or usual.lexicon or None,
            "challenge_mode": self.challenge_mode or usual.challenge_mode or "auto",
            "rejected_challenge": (
                usual.rejected_challenge
                if self.rejected_challenge is None
                else self.rejected_challenge
            ),
            "clock": self.clock if "clock" in self.model_fields_set else usual.clock,
        }

    def fields(self, club: Club) -> dict[str, Any]:
        """``do_create_tournament``'s keywords but its players."""
        return {
            "name": self.name,
            "date": self.date,
            "rounds": self.rounds,
            "bye_spread": self.bye_spread,
            "forfeit_spread": self.forfeit_spread,
            "repeats_allowed": self.repeats_allowed,
            "gibson": self.gibson.on,
            "gibson_spread": self.gibson.spread,
            "prize_places": self.gibson.prize_places,
            "fontes_rounds": self.fontes_rounds,
            **self.rules(club),
        }


class TournamentIn(EventIn):
    players: list[EntryIn] = Field(..., min_length=1, max_length=MAX_ENTRANTS)


class ImportIn(EventIn):
    t_file: str = Field(
        ...,
        max_length=T_FILE_MOST,
        description="the text of tsh's .t file: one line a player, 'Last, First rating "
        "opponents; scores' (its results so far become rounds paired by hand)",
        examples=["Archer, Ann 1700 2; 412\nBaker, Ben 1600 1; 377\n"],
    )


class RoundIn(Schema):
    method: Literal["swiss", "round_robin", "koth", "fontes", "manual"]
    round: Int | None = Field(None, description="the round meant; refused unless it is the next")
    based_on: Int | None = Field(
        None, description="the last round the standings count (the round before by default)"
    )
    pairings: list[tuple[Text, Text]] = Field(
        default_factory=list, description="manual: the couples, by name", max_length=200
    )
    bye: Text | None = Field(None, description="manual: who has the bye")
    byes: list[Text] = Field(
        default_factory=list, max_length=200, description="manual: a bye for each division"
    )


class ResultIn(Schema):
    round: Int = Field(..., ge=1)
    player1: Text
    score1: Int
    player2: Text
    score2: Int


class SwapIn(Schema):
    players: tuple[Text, Text] = Field(
        ..., examples=[["Ann Archer", "Cy Cole"]], description="each takes the other's place"
    )


class LateEntriesIn(Schema):
    players: list[EntryIn] = Field(..., min_length=1, max_length=MAX_ENTRANTS)


class WithdrawalIn(Schema):
    name: Text = Field(..., examples=["Ben Baker"], description="the player who leaves the event")


class ForfeitIn(Schema):
    round: Int = Field(..., ge=1)
    absent: Text = Field(..., examples=["Ben Baker"], description="the player who didn't come")


# Corrections with a trace, and the event itself ----------------------------------------------
class VoidIn(Schema):
    round: Int = Field(..., ge=1)
    player: Text = Field(..., examples=["Ben Baker"], description="either player of the table")


class EventChangeIn(Schema):
    date: Date | None = Field(None, description="YYYY-MM-DD")
    archived: bool | None = Field(None, description="archived: off the club's list and screen")
    tonight: bool | None = Field(
        None, description="the event the club's director's screen shows tonight"
    )
