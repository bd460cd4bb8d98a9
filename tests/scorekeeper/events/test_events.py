"""A club's tournament in the record: making it, pairing its rounds into games, and results
landing in its standings (``scorekeeper.events``)."""

from __future__ import annotations

import pytest

from bench.sequences import HASBRO
from referee import IllegalAction, InputError
from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.events.files import do_import_tournament, export_t
from scorekeeper.events.reads import standings
from scorekeeper.events.results import do_enter_result, do_withdraw
from scorekeeper.events.rounds import do_pair_round
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.live.hub import hub
from scorekeeper.live.news import club_channel
from scorekeeper.models import Game, Pairing
from tests.factories import make_club

pytestmark = pytest.mark.django_db

FOUR = [Entry("Ann Archer", 1700), Entry("Ben Baker", 1600), Entry("Cy Cole", 1500),
        Entry("Di Dunn", 1400)]  # fmt: skip


def event(players=FOUR, **rules):
    club = make_club(roster=())
    fields = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}
    return do_create_tournament(club, players=players, **(fields | rules))


def play_out(game: Game, first_extra: int = 0, second_extra: int = 0) -> None:
    """Two plays (8 points each), the given time penalties as extra points, and the end."""
    for triples, _ in HASBRO[:2]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
    for seat, points in ((0, first_extra), (1, second_extra)):
        if points:
            domain.act(game.pk, domain.TurnCommand("penalty", seat=seat, points=points))
    domain.act(game.pk, domain.TurnCommand("finish"))


def line(rows, name):
    return next(row for row in rows if row.standing.player.name == name)


def test_an_event_enters_its_players_on_the_clubs_roster():
    made = event(challenge_mode="manual", bye_spread=40)
    entrants = list(made.entrants.order_by("number"))
    assert [(e.number, e.player.name, e.rating) for e in entrants] == [
        (1, "Ann Archer", 1700), (2, "Ben Baker", 1600), (3, "Cy Cole", 1500), (4, "Di Dunn", 1400)
    ]  # fmt: skip
    assert set(made.club.roster.values_list("name", flat=True)) == {e.player.name for e in entrants}
    assert (made.challenge_mode, made.bye_spread, made.gibson) == ("manual", 40, True)


def test_an_event_refuses_a_name_entered_twice_and_stores_nothing():
    club = make_club(roster=())
    with pytest.raises(InputError, match="entered twice"):
        do_create_tournament(
            club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3,
            players=[Entry("Ann"), Entry("ann")],
        )  # fmt: skip
    assert not club.tournaments.exists()


def test_pairing_a_round_makes_a_game_for_each_table_first_player_seated_first():
    made = event(challenge_mode="manual")
    paired = do_pair_round(made, "swiss")
    pairings = list(paired.pairings.order_by("table"))
    assert [p.table for p in pairings] == [1, 2]
    for pairing in pairings:
        game = pairing.game
        seats = list(game.seats.order_by("order"))
        assert [s.player_id for s in seats] == [pairing.first.player_id, pairing.second.player_id]
        assert (game.to_move, game.first_seat) == (0, 0)
        assert game.table_number == pairing.table  # the director's screen lists it there
        assert (game.ruleset, game.lexicon, game.challenge_mode, game.club_id) == (
            "upwords-10", "CLUB", "manual", made.club_id
        )  # fmt: skip
    # Swiss round 1 by rating: the top half meets the bottom half.
    couples = {frozenset((p.first.player.name, p.second.player.name)) for p in pairings}
    assert couples == {frozenset({"Ann Archer", "Cy Cole"}), frozenset({"Ben Baker", "Di Dunn"})}


def test_an_odd_field_gives_the_lowest_rated_the_bye_as_a_win_by_the_bye_spread():
    made = event(FOUR[:3], bye_spread=60)
    do_pair_round(made, "swiss")
    bye = Pairing.objects.get(round__tournament=made, second__isnull=True)
    assert (bye.first.player.name, bye.table, bye.game) == ("Cy Cole", None, None)
    cy = line(standings(made), "Cy Cole")
    assert (cy.standing.wins, cy.standing.spread, cy.standing.rank) == (1.0, 60, "1")


def test_a_round_is_paired_once():
    made = event()
    do_pair_round(made, "swiss")
    with pytest.raises(Conflict, match="Round 1 is paired already"):
        do_pair_round(made, "swiss", round=1)
    assert made.round_set.count() == 1 and Game.objects.count() == 2


def test_a_refused_pairing_makes_no_game():
    made = event()
    with pytest.raises(IllegalAction, match="can't be paired with themselves"):
        do_pair_round(made, "manual", manual=[("Ann Archer", "Ann Archer")])
    assert not made.round_set.exists() and not Game.objects.exists()


def test_a_game_that_ends_lands_in_the_standings():
    made = event()
    do_pair_round(made, "swiss")
    pairing = Pairing.objects.get(round__tournament=made, table=1)
    assert all(row.standing.wins == 0 for row in standings(made))
    play_out(pairing.game, second_extra=30)  # second: 8 + 30 - 35, first: 8 - 35
    rows = standings(made)
    winner, loser = line(rows, pairing.second.player.name), line(rows, pairing.first.player.name)
    assert (winner.standing.rank, winner.standing.wins, winner.standing.spread) == ("1", 1.0, 30)
    assert (loser.standing.wins, loser.standing.losses, loser.standing.spread) == (0.0, 1.0, -30)
    card = winner.standing.scorecard[0]
    assert (card.seat, card.score, card.opponent_score) == ("second", 3, -27)


def test_a_correction_after_the_end_changes_the_standings():
    made = event()
    do_pair_round(made, "swiss")
    pairing = Pairing.objects.get(round__tournament=made, table=1)
    play_out(pairing.game, second_extra=30)
    domain.act(
        pairing.game.pk, domain.TurnCommand("penalty", seat=0, points=50)
    )  # a time penalty put right
    rows = standings(made)
    assert line(rows, pairing.first.player.name).standing.spread == 20
    assert line(rows, pairing.second.player.name).standing.wins == 0.0


def test_level_records_share_a_place():
    made = event()
    do_pair_round(made, "swiss")
    for pairing in Pairing.objects.filter(round__tournament=made):
        play_out(pairing.game, first_extra=25)
    assert [row.standing.rank for row in standings(made)] == ["1=", "1=", "3=", "3="]


def test_a_typed_in_result_lands_in_the_standings_and_closes_the_tables_game():
    made = event()
    do_pair_round(made, "swiss")
    pairing = Pairing.objects.get(round__tournament=made, table=1)
    second, first = pairing.second.player.name, pairing.first.player.name
    do_enter_result(made, 1, second, 412, first, 377)
    pairing.refresh_from_db()
    assert (pairing.first_score, pairing.second_score) == (377, 412)
    assert pairing.game.status == Game.Status.ABANDONED
    assert line(standings(made), second).standing.spread == 35


def test_a_result_is_entered_once():
    made = event()
    do_pair_round(made, "swiss")
    pairing = Pairing.objects.get(round__tournament=made, table=1)
    names = pairing.first.player.name, pairing.second.player.name
    do_enter_result(made, 1, names[0], 400, names[1], 300)
    with pytest.raises(Conflict, match="has its result already"):
        do_enter_result(made, 1, names[0], 300, names[1], 400)
    pairing.refresh_from_db()
    assert (pairing.first_score, pairing.second_score) == (400, 300)


def test_a_result_for_players_not_paired_or_for_one_player_is_refused():
    made = event()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])
    with pytest.raises(IllegalAction, match="not paired in round 1"):
        do_enter_result(made, 1, "Ann Archer", 400, "Cy Cole", 300)
    with pytest.raises(IllegalAction, match="can't play themselves"):
        do_enter_result(made, 1, "Ann Archer", 400, "ann archer", 300)
    assert not Pairing.objects.filter(first_score__isnull=False).exists()


def test_a_withdrawal_forfeits_the_open_game_and_leaves_later_rounds_without_them():
    made = event(bye_spread=50)
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])
    ann = made.entrants.get(player__name="Ann Archer")
    do_withdraw(ann)
    rows = standings(made)
    assert (line(rows, "Ben Baker").standing.wins, line(rows, "Ben Baker").standing.spread) == (
        1,
        50,
    )
    assert line(rows, "Ann Archer").standing.scorecard[0].kind == "forfeit loss"
    assert Pairing.objects.get(round__number=1, table=1).game.status == Game.Status.ABANDONED
    second = do_pair_round(made, "swiss")
    assert ann.pk not in {p.first_id for p in second.pairings.all()} | {
        p.second_id for p in second.pairings.all()
    }
    assert second.pairings.filter(second__isnull=True).count() == 1  # three left: one bye


def test_the_t_file_writes_names_last_name_first():
    made = event()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])
    do_enter_result(made, 1, "Ann Archer", 412, "Ben Baker", 377)
    do_enter_result(made, 1, "Cy Cole", 300, "Di Dunn", 350)
    lines = export_t(made).splitlines()
    assert lines[0].startswith("Archer, Ann") and "1700 2; 412" in " ".join(lines[0].split())


def test_ratings_move_with_the_results():
    made = event()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])
    do_enter_result(made, 1, "Ann Archer", 300, "Ben Baker", 400)
    ben = line(standings(made), "Ben Baker")
    assert ben.rating_before == 1600 and ben.rating_change > 0


def test_a_typed_in_result_is_news_on_the_clubs_channel_once_it_commits(
    django_capture_on_commit_callbacks,
):
    made = event()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])
    listener = hub.listen(club_channel(made.club_id))
    try:
        with django_capture_on_commit_callbacks(execute=False) as waiting:
            do_enter_result(made, 1, "Ann Archer", 412, "Ben Baker", 377)
            assert listener.get(0) is None  # not before the commit
        for callback in waiting:
            callback()
        assert listener.get(1) is not None
    finally:
        listener.leave()


def test_the_rating_an_event_leaves_is_the_next_events_and_on_the_players_page(client):
    made = event()
    do_pair_round(made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Cy Cole", "Di Dunn")])  # fmt: skip
    do_enter_result(made, 1, "Ann Archer", 300, "Ben Baker", 400)
    after = line(standings(made), "Ben Baker").rating_after
    assert after > 1600
    following = do_create_tournament(
        made.club, name="Next Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3,
        players=[Entry("Ben Baker"), Entry("Cy Cole", 1550), Entry("Ed Evans")],
    )  # fmt: skip
    entered = {e.player.name: (e.rating, e.career_games) for e in following.entrants.all()}
    assert entered == {"Ben Baker": (after, 1), "Cy Cole": (1550, 0), "Ed Evans": (0, 0)}
    ben = following.entrants.get(player__name="Ben Baker").player
    page = client.get(f"/players/{ben.pk}/").content.decode()
    assert f"Rating <strong>{after}</strong> after" in page


def test_an_event_started_from_its_t_file_has_its_players_ratings_and_results():
    made = event(FOUR[:3])
    do_pair_round(made, "swiss")  # Cy has the bye
    do_enter_result(made, 1, "Ann Archer", 412, "Ben Baker", 377)
    text = export_t(made)
    copy = do_import_tournament(
        made.club, text, name="Friday again", ruleset="upwords-10", lexicon="CLUB", rounds=3
    )

    def shown(tournament):
        return [(r.standing.rank, r.standing.player.name, r.standing.wins, r.standing.spread,
                 r.rating_before) for r in standings(tournament)]  # fmt: skip

    assert shown(copy) == shown(made)
    assert export_t(copy) == text
    assert copy.round_set.get().pairings.filter(game__isnull=False).count() == 0  # no turn log


def test_a_t_file_that_cant_be_read_starts_no_event():
    club = make_club(roster=())
    with pytest.raises(InputError, match="Line 1"):
        do_import_tournament(
            club, "not a t file\n", name="F", ruleset="upwords-10", lexicon="CLUB", rounds=3
        )
    assert not club.tournaments.exists()
