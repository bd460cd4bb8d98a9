"""A big event made at once, for the event bench and the tests of its pages' cost: players
in divisions, and rounds already played, stored as the director's typed-in results (no turn
logs), a round-robin schedule in each division so no couple meets twice.

Needs Django set up; made through the events' own path (``do_create_tournament``), then its
rounds written in bulk.
"""

from __future__ import annotations

from typing import Any

from referee.events import circle_round
from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.events.reads import entrants_of
from scorekeeper.models import Club, Pairing, Tournament, TournamentRound


def score(player: int, round: int) -> int:
    """A result that is the same every run: 300 to 549 points."""
    return 300 + (player * 37 + round * 91) % 250


def played_event(
    club: Club,
    *,
    players: int,
    rounds: int,
    played: int,
    divisions: int = 1,
    name: str = "Weekend",
    lexicon: str = "CLUB",
    **fields: Any,
) -> Tournament:
    """An event of ``players`` in ``divisions`` (named A, B, ...; none for one), ``rounds``
    rounds, the first ``played`` of them paired and their results typed in."""
    labels = [chr(ord("A") + i) for i in range(divisions)] if divisions > 1 else [""]
    entries = [
        Entry(f"Player {i:03d}", 1200 + (i * 53) % 900, 20, labels[i % len(labels)])
        for i in range(1, players + 1)
    ]
    tournament = do_create_tournament(
        club, name=name, ruleset="upwords-10", lexicon=lexicon, rounds=rounds, players=entries,
        **fields,
    )  # fmt: skip
    entrants = entrants_of(tournament)
    made = []
    for number in range(1, played + 1):
        paired = TournamentRound.objects.create(
            tournament=tournament, number=number, method="manual", based_on=number - 1
        )
        table = 0
        for label in labels:
            field = [e for e in entrants if e.division == label]
            for a, b in circle_round(field, number - 1):
                if a is None or b is None:
                    made.append(Pairing(round=paired, first=a or b))
                    continue
                table += 1
                made.append(
                    Pairing(
                        round=paired, table=table, first=a, second=b,
                        first_score=score(a.number, number), second_score=score(b.number, number),
                    )
                )  # fmt: skip
    Pairing.objects.bulk_create(made, batch_size=500)
    return tournament


__all__ = ["played_event", "score"]
