"""What the tests of a director's hand in a running event share: a field of seven in two
divisions, an event of a new club, and a game played out to its end."""

from __future__ import annotations

from bench.sequences import HASBRO
from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.games import domain
from scorekeeper.models import Club, Game, Tournament
from tests.factories import make_club

SEVEN = [Entry("Ann Archer", 1700, division="A"), Entry("Ben Baker", 1600, division="A"),
         Entry("Cy Cole", 1500, division="A"), Entry("Di Dunn", 1400, division="A"),
         Entry("Ed Eng", 1300, division="B"), Entry("Flo Fox", 1200, division="B"),
         Entry("Gus Gray", 1100, division="B")]  # fmt: skip
FOUR = SEVEN[:4]  # division A alone


def event(players=SEVEN, **rules) -> Tournament:
    club = make_club(f"Riverside {Club.objects.count() + 1}", roster=())
    fields = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}
    return do_create_tournament(club, players=players, **(fields | rules))


def play_out(game: Game) -> None:
    """Two plays of 8 points each and a third of 10 for the first seat, then the end."""
    for triples, _ in HASBRO[:3]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
    domain.act(game.pk, domain.TurnCommand("finish"))
