"""The one word-checking policy: how a game's words are judged, decided in one place.

A game names a lexicon (or the honour system) and a challenge mode. From those two follow
three answers that the API, the pages, the serializer and the templates all read from here:
are words checked as they are played, can the last play be challenged, and what the preview
says about the words it shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from referee import (
    HONOUR_ID,
    GameState,
    HonourSystem,
    IllegalAction,
    InputError,
    Lexicon,
    UnknownLexicon,
    get_library,
)
from scorekeeper.models import Game

AUTO = "auto"  # every play is checked against the lexicon as it is entered
MANUAL = "manual"  # tournament style: plays stand unless challenged


@dataclass(frozen=True)
class WordPolicy:
    lexicon: str
    challenge_mode: str

    @property
    def honour(self) -> bool:
        return self.lexicon == HONOUR_ID

    @property
    def checks_as_played(self) -> bool:
        """Words are looked up as each play is entered (and an invalid one is refused)."""
        return self.challenge_mode == AUTO and not self.honour

    @property
    def challenges(self) -> bool:
        """The game settles disputes by challenging the last play against its lexicon."""
        return self.challenge_mode == MANUAL and not self.honour

    def can_challenge(self, state: GameState) -> bool:
        """The last play can be challenged now."""
        return self.challenges and state.last_play is not None

    def check_challenge(self) -> None:
        """Raise the reason this game can't take a challenge at all, if it can't."""
        if self.honour:
            raise IllegalAction(
                "no_dictionary",
                "An honour-system game has no dictionary to judge a challenge: "
                "undo the play if the table agrees it must come off.",
            )
        if not self.challenges:
            raise IllegalAction(
                "challenge_not_needed",
                f"Every word was checked against {self.lexicon} as it was played: "
                "there is nothing to challenge.",
            )

    @property
    def preview_note(self) -> str:
        """What the preview says about the words it shows."""
        if self.honour:
            return "Words are not checked: honour system."
        if self.checks_as_played:
            return f"Every word is in {self.lexicon}."
        return f"Words are not checked now: they stand unless challenged ({self.lexicon})."


def policy_for(game: Game) -> WordPolicy:
    return WordPolicy(game.lexicon, game.challenge_mode)


def honour_games(prefix: str = "") -> Q:
    """``WordPolicy.honour`` as a query, for counting honour-system games apart
    (``prefix`` reaches the game from another model: ``"game__"``)."""
    return Q(**{f"{prefix}lexicon": HONOUR_ID})


def resolve_lexicon(lexicon_id: object) -> tuple[str, str]:
    """The lexicon's canonical id and checksum; ``InputError`` for an unknown one."""
    if not isinstance(lexicon_id, str) or not lexicon_id.strip():
        raise InputError("unknown_lexicon", "Choose a lexicon, or honour for no word check.")
    if lexicon_id.strip().lower() == HONOUR_ID:
        return HONOUR_ID, ""
    try:
        lexicon = get_library().get(lexicon_id.strip())
    except UnknownLexicon as error:
        raise InputError("unknown_lexicon", str(error)) from None
    return lexicon.id, lexicon.checksum


def lexicon_for(game: Game) -> Lexicon:
    """The exact list that judges this game; refuses to judge with a list that has changed."""
    if game.lexicon == HONOUR_ID:
        return HonourSystem()
    try:
        lexicon = get_library().get(game.lexicon)
    except UnknownLexicon:
        raise IllegalAction(
            "lexicon_missing",
            f"This game is judged by {game.lexicon}, which is not installed here.",
        ) from None
    if game.lexicon_checksum and lexicon.checksum != game.lexicon_checksum:
        raise IllegalAction(
            "lexicon_changed",
            f"The {game.lexicon} list installed here is not the one this game started with.",
        )
    return lexicon
