"""An event through tsh's ``.t`` file and back: export then import reproduces its players,
pairings, seats, results, standings and ratings, and a file's own fields come back out."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.events.entries import Entry, do_add_players, do_create_tournament
from scorekeeper.events.files import do_import_tournament, export_t
from scorekeeper.events.reads import names_of, results_of, rounds_of, standings
from scorekeeper.events.results import do_enter_result, do_forfeit, do_withdraw
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.models import Tournament
from tests.factories import make_club

pytestmark = pytest.mark.django_db

FIELDS = {"ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 4}


def finish_round(tournament: Tournament, number: int, forfeit: str | None = None) -> None:
    """Type in a result for every table of round ``number`` (``forfeit`` doesn't turn up)."""
    for offset, pairing in enumerate(rounds_of(tournament)[number]):
        if pairing.second is None or pairing.absent_id is not None:
            continue
        one, two = pairing.first.player.name, pairing.second.player.name
        if forfeit in (one, two):
            do_forfeit(tournament, number, forfeit)
            continue
        do_enter_result(tournament, number, one, 350 + 17 * offset, two, 390 - 9 * number)


def shown(tournament: Tournament) -> list[tuple[object, ...]]:
    return [
        (r.standing.rank, r.standing.player.name, r.standing.wins, r.standing.losses,
         r.standing.spread, r.rating_before, r.rating_after)
        for r in standings(tournament)
    ]  # fmt: skip


def games(tournament: Tournament) -> list[tuple[object, ...]]:
    """Every game as (round, first, second, scores), by name: the pairings and the seats."""
    found = []
    for result in results_of(tournament):
        if hasattr(result, "first"):
            names = names_of(tournament)
            found.append((result.round, names[result.first], names[result.second],
                          result.first_score, result.second_score))  # fmt: skip
    return sorted(found, key=repr)


def test_an_event_with_a_bye_a_late_entry_a_withdrawal_and_a_forfeit_comes_back_the_same():
    club = make_club(roster=())
    players = [Entry("Ann Archer", 1700, 300), Entry("Ben Baker", 1600, 20),
               Entry("Cy Cole", 1500, 60), Entry("Di Dunn"), Entry("Ed Evans", 1850, 900)]  # fmt: skip
    made = do_create_tournament(club, name="Friday", players=players, **FIELDS)
    do_pair_round(made, "swiss")  # five players: a bye
    finish_round(made, 1)
    do_add_players(made, [Entry("Fay Frost", 1450, 10)])  # joins in round 2
    do_pair_round(made, "swiss")
    finish_round(made, 2, forfeit="Ben Baker")
    do_withdraw(made.entrants.get(player__name="Cy Cole"))
    do_pair_round(made, "swiss")
    finish_round(made, 3)

    text = export_t(made)
    assert "off 0" in text.splitlines()[2]  # Cy withdrew
    late = text.splitlines()[5]
    assert late.split(";")[1].split()[0] == "-50"  # Fay's round 1, as tsh writes a forfeit loss
    copy = do_import_tournament(club, text, name="Friday again", **FIELDS)

    assert shown(copy) == shown(made)
    assert games(copy) == games(made)
    assert export_t(copy) == text
    assert not copy.entrants.get(player__name="Cy Cole").active
    paired = do_pair_round(copy, "swiss")
    assert "Cy Cole" not in {p.first.player.name for p in paired.pairings.all()} | {
        p.second.player.name for p in paired.pairings.all() if p.second
    }


def test_a_files_names_fields_career_games_and_withdrawals_are_kept():
    text = (
        "Ten Den, Chris          1500 2 0; 400 50; board 1 0; class A; lifeg 312; p12 2 0\n"
        "Alejandra Rodriguez     1620 1 0; 380 1; board 1 0; class B; newr 1601 1601; p12 1 0\n"
        "Cole, Cy                1400 0 0; 50 -50; lifeg 35; off -50; p12 0 0\n"
    )
    club = make_club(roster=())
    made = do_import_tournament(club, text, name="Saturday", **FIELDS)
    chris, alejandra, cy = made.entrants.order_by("number")
    assert (chris.player.name, chris.t_name, chris.career_games) == (
        "Chris Ten Den",
        "Ten Den, Chris",
        312,
    )
    assert (alejandra.player.name, alejandra.career_games) == ("Alejandra Rodriguez", 100)
    assert alejandra.t_fields == {"board": "1 0", "class": "B", "newr": "1601 1601", "p12": "1 0"}
    assert not cy.active
    assert games(made) == [(1, "Alejandra Rodriguez", "Chris Ten Den", 380, 400)]
    assert [r.standing.spread for r in standings(made)] == [70, 0, -19]  # own spreads
    assert export_t(made) == text


def test_a_real_23_round_event_imported_has_tshs_ratings_and_exports_as_it_came():
    source = Path(__file__).parents[2] / "referee" / "events" / "tsh_event_26x23.t"  # cited there
    text = source.read_text()
    club = make_club(roster=())
    made = do_import_tournament(club, text, name="Real", **(FIELDS | {"rounds": 23}))
    final = {e.player.name: int(e.t_fields["newr"].split()[-1]) for e in made.entrants.all()}
    assert {r.standing.player.name: r.rating_after for r in standings(made)} == final
    assert export_t(made) == "".join(
        f"{line}\n" for line in text.splitlines() if not line.startswith("#")
    )


def test_a_name_a_spreadsheet_would_read_as_a_formula_starts_no_line_and_comes_back():
    club = make_club(roster=())
    players = [Entry("=SUM Archer", 1500), Entry("-Dash"), Entry("Al +Home", 1400), Entry("@Cy")]
    made = do_create_tournament(club, name="Friday", players=players, **FIELDS)
    text = export_t(made)
    assert not any(line.startswith(("=", "+", "-", "@")) for line in text.splitlines())
    copy = do_import_tournament(club, text, name="Friday again", **FIELDS)
    assert [e.player.name for e in copy.entrants.order_by("number")] == [
        "=SUM Archer", "-Dash", "Al +Home", "@Cy"
    ]  # fmt: skip
    assert export_t(copy) == text
