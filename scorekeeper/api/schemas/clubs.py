"""The API's answers about clubs: a club, its usual rules, its settings, invitations to direct
it, a roster player renamed."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from here before 3.12

from scorekeeper.api.schemas.base import example


# A club's tournament -----------------------------------------------------------------------------
@with_config(example({"slug": "riverside", "name": "Riverside"}))
class ClubOut(TypedDict):
    """A club just made: its address on the site and the API (``/clubs/<slug>/``)."""

    slug: str
    name: str


_CLUB_RULES = {
    "ruleset": "upwords-10",
    "lexicon": "TWL06",
    "challenge_mode": "manual",
    "rejected_challenge": "",
    "clock": {"kind": "turn", "seconds": 75},
}


@with_config(example(_CLUB_RULES))
class ClubRulesOut(TypedDict):
    """A club's usual rules, which pre-fill its new games and events ("": none kept)."""

    ruleset: str
    lexicon: str
    challenge_mode: Annotated[str, Field(description="auto, manual, or empty")]
    rejected_challenge: Annotated[str, Field(description="a failed challenge's rule, or empty")]
    clock: Annotated[
        dict[str, Any] | None,
        Field(description="a clock rule as POST /api/games/ takes it; null: none"),
    ]


@with_config(
    example(
        {"slug": "riverside", "name": "Riverside", "directors": ["ann", "dora"],
         "rules": _CLUB_RULES}
    )
)  # fmt: skip
class ClubSettingsOut(TypedDict):
    """A club's settings: its address, name, directors (usernames) and usual rules."""

    slug: str
    name: str
    directors: list[str]
    rules: ClubRulesOut


@with_config(
    example(
        {"id": 7, "club": "riverside", "club_name": "Riverside", "username": "ann-k3x9",
         "invited_by": "dora", "state": "invited"}
    )
)  # fmt: skip
class DirectorInvitationOut(TypedDict):
    """An invitation to direct a club, waiting for its account to accept or decline
    ("invited"), or just declined."""

    id: int
    club: str
    club_name: str
    username: str
    invited_by: str | None
    state: Literal["invited", "declined"]


@with_config(example({"was": "Ann Archer", "name": "Ann Archer-Lee"}))
class RenamedOut(TypedDict):
    """A roster player renamed: their name before and now."""

    was: str
    name: str
