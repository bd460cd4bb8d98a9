"""A director's hand in a running event (``scorekeeper.events``): divisions paired
and ranked each on their own, a round taken back or swapped before it starts, a forfeit for a
player who is absent."""

from __future__ import annotations

import pytest

from referee import IllegalAction, InputError
from scorekeeper.events.entries import Entry, do_add_players
from scorekeeper.events.files import export_t
from scorekeeper.events.reads import division_standings, divisions_of, entrants_of, standings
from scorekeeper.events.results import do_forfeit
from scorekeeper.events.rounds import can_pair_again, do_pair_round, do_swap, do_unpair_round
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.models import Game
from tests.scorekeeper.club_events import FOUR, SEVEN, event, play_out

pytestmark = pytest.mark.django_db


def test_each_division_is_paired_on_its_own_with_its_own_bye_and_tables_running_on():
    made = event()
    paired = do_pair_round(made, "swiss")
    pairings = list(paired.pairings.select_related("first__player", "second__player"))
    tables = [(p.table, p.first.division, p.second.division) for p in pairings if p.table]
    assert sorted(tables) == [(1, "A", "A"), (2, "A", "A"), (3, "B", "B")]
    byes = [p.first.player.name for p in pairings if p.second is None]
    assert byes == ["Gus Gray"]  # B's lowest rated; A is even and has none
    assert sorted(p.game.table_number for p in pairings if p.game) == [1, 2, 3]


def test_each_division_has_its_own_standings_and_t_file():
    made = event()
    paired = do_pair_round(made, "swiss")
    for pairing in paired.pairings.filter(game__isnull=False):
        play_out(pairing.game)
    divided = division_standings(made)
    assert [name for name, _ in divided] == ["A", "B"]
    a_rows, b_rows = divided[0][1], divided[1][1]
    assert [row.standing.rank for row in a_rows] == ["1=", "1=", "3=", "3="]
    assert {row.entrant.division for row in a_rows} == {"A"}
    # B: the winner of table 3 (+10) and the bye (+50) share 1 win; the bye's spread leads.
    assert [(row.standing.player.name, row.standing.spread) for row in b_rows][0] == (
        "Gus Gray",
        50,
    )
    assert [row.standing.player.name for row in standings(made, "b")] == [
        row.standing.player.name for row in b_rows
    ]
    with pytest.raises(InputError, match="name one \\(A or B\\)"):
        standings(made)
    lines = export_t(made, "B").splitlines()
    assert [line.split(" ")[0] for line in lines] == ["Eng,", "Fox,", "Gray,"]
    assert lines[2].startswith("Gray, Gus") and " 1100 0; 50;" in lines[2]  # the bye: 0, +50
    with pytest.raises(InputError, match="no division C"):
        export_t(made, "C")


def test_swiss_pairs_the_next_round_within_each_division():
    made = event(players=SEVEN[:6])  # A: 4, B: 2
    first = do_pair_round(made, "swiss")
    for pairing in first.pairings.filter(game__isnull=False):
        play_out(pairing.game)
    second = do_pair_round(made, "swiss")
    for pairing in second.pairings.select_related("first", "second"):
        assert pairing.first.division == pairing.second.division


def test_pairing_by_hand_across_divisions_is_refused_and_nothing_is_stored():
    made = event(players=SEVEN[:6])
    couples = [("Ann Archer", "Ed Eng"), ("Ben Baker", "Cy Cole"), ("Di Dunn", "Flo Fox")]
    with pytest.raises(IllegalAction, match="Ann Archer and Ed Eng are in different divisions"):
        do_pair_round(made, "manual", manual=couples)
    assert not made.round_set.exists() and not Game.objects.exists()


def test_an_event_without_divisions_is_one_division_named_by_nobody():
    made = event(players=[Entry("Ann"), Entry("Ben")])
    assert divisions_of(entrants_of(made)) == [""]
    assert [row.standing.player.name for row in standings(made)] == ["Ann", "Ben"]


def test_an_event_of_one_division_refuses_a_division_by_name():
    made = event(players=[Entry("Ann"), Entry("Ben")])
    with pytest.raises(InputError, match="Friday has no divisions"):
        standings(made, "A")


def test_divisions_are_spelt_as_first_entered_and_every_player_is_in_one_or_none_is():
    made = event(players=[Entry("Ann", division="A"), Entry("Ben", division="a"),
                          Entry("Cy", division="B"), Entry("Di", division="b")])  # fmt: skip
    assert divisions_of(entrants_of(made)) == ["A", "B"]
    with pytest.raises(InputError, match="Put every player in a division, or none"):
        event(players=[Entry("Ann", division="A"), Entry("Ben")])
    with pytest.raises(InputError, match="Name each player's division: A or B"):
        do_add_players(made, [Entry("Ed")])
    (late,) = do_add_players(made, [Entry("Ed", division="b")])
    assert late.division == "B"
    one = event(players=[Entry("Ann"), Entry("Ben")])
    with pytest.raises(InputError, match="Put every player in a division, or none"):
        do_add_players(one, [Entry("Cy", division="A")])


def test_a_round_by_hand_takes_a_bye_in_each_odd_division():
    made = event(players=SEVEN[:3] + SEVEN[4:])  # A: 3, B: 3
    paired = do_pair_round(
        made, "manual", manual=[("Ann Archer", "Ben Baker"), ("Ed Eng", "Flo Fox")],
        manual_byes=["Cy Cole", "Gus Gray"],
    )  # fmt: skip
    byes = sorted(p.first.player.name for p in paired.pairings.filter(second__isnull=True))
    assert byes == ["Cy Cole", "Gus Gray"]
    do_unpair_round(made, 1)
    with pytest.raises(IllegalAction, match="at most one bye a round"):
        do_pair_round(
            made, "manual", manual=[("Ed Eng", "Flo Fox")],
            manual_byes=["Ann Archer", "Ben Baker", "Gus Gray"],
        )  # fmt: skip


def test_a_round_not_started_is_taken_back_its_games_removed_and_paired_again():
    made = event(players=FOUR)
    first = do_pair_round(made, "swiss")
    games = [p.game_id for p in first.pairings.all()]
    assert can_pair_again(made, 1)
    assert do_unpair_round(made, 1) == 2
    assert not made.round_set.exists() and not Game.objects.filter(pk__in=games).exists()
    again = do_pair_round(made, "koth")
    assert (again.number, again.method, again.pairings.count()) == (1, "koth", 2)


def test_a_round_with_a_turn_at_one_table_cant_be_taken_back_and_keeps_everything():
    made = event(players=FOUR)
    paired = do_pair_round(made, "swiss")
    table2 = paired.pairings.get(table=2)
    domain.act(table2.game_id, domain.TurnCommand("pass"))
    assert not can_pair_again(made, 1)
    with pytest.raises(Conflict, match="Table 2's game in round 1 has begun"):
        do_unpair_round(made, 1)
    with pytest.raises(Conflict, match="has begun"):
        do_swap(made, 1, "Ann Archer", "Ben Baker")
    assert paired.pairings.filter(game__isnull=False).count() == 2 and Game.objects.count() == 2


def test_only_the_latest_round_is_taken_back():
    made = event(players=FOUR)
    first = do_pair_round(made, "swiss")
    for pairing in first.pairings.all():
        play_out(pairing.game)
    do_pair_round(made, "swiss", based_on=0)
    with pytest.raises(IllegalAction, match="Round 2 is paired after round 1: take it back first"):
        do_unpair_round(made, 1)
    with pytest.raises(IllegalAction, match="Round 3 is not paired"):
        do_unpair_round(made, 3)


def test_a_swap_before_the_round_starts_moves_two_players_and_makes_the_games_again():
    made = event(players=FOUR)
    paired = do_pair_round(made, "swiss")  # 1 v 3, 2 v 4 by rating
    before = {frozenset((p.first.player.name, p.second.player.name)) for p in paired.pairings.all()}
    assert before == {frozenset(("Ann Archer", "Cy Cole")), frozenset(("Ben Baker", "Di Dunn"))}
    old_games = set(paired.pairings.values_list("game_id", flat=True))
    swapped = do_swap(made, 1, "Cy Cole", "Di Dunn")
    after = {frozenset((p.first.player.name, p.second.player.name)) for p in swapped.pairings.all()}
    assert after == {frozenset(("Ann Archer", "Di Dunn")), frozenset(("Ben Baker", "Cy Cole"))}
    assert (swapped.number, swapped.method) == (1, "manual")
    games = list(Game.objects.filter(pairing__round=swapped).prefetch_related("seats__player"))
    assert len(games) == 2 and not old_games & {g.pk for g in games}
    for game in games:
        assert {s.player.name for s in game.seats.all()} in after
    with pytest.raises(IllegalAction, match="at the same table already"):
        do_swap(made, 1, "Ann Archer", "Di Dunn")


def test_an_absent_player_loses_by_the_forfeit_margin_and_the_tables_game_is_closed():
    made = event(players=FOUR, forfeit_spread=60)
    paired = do_pair_round(made, "swiss")  # Ann v Cy, Ben v Di
    table = paired.pairings.get(table=1)
    domain.act(
        table.game_id, domain.TurnCommand("pass")
    )  # begun: a player may leave a game already started
    do_forfeit(made, 1, "cy cole", by="dora")
    table.refresh_from_db()
    assert table.absent.player.name == "Cy Cole"
    assert Game.objects.get(pk=table.game_id).status == Game.Status.ABANDONED
    rows = {r.standing.player.name: r.standing for r in standings(made)}
    assert (rows["Ann Archer"].wins, rows["Ann Archer"].spread) == (1, 60)
    assert (rows["Cy Cole"].losses, rows["Cy Cole"].spread) == (1, -60)
    assert rows["Ann Archer"].scorecard[0].kind == "forfeit win"
    with pytest.raises(Conflict, match="Ann Archer's game in round 1 has its result already"):
        do_forfeit(made, 1, "Ann Archer")
    with pytest.raises(IllegalAction, match="Ben Baker has no game in round 2"):
        do_forfeit(made, 2, "Ben Baker")
    assert not can_pair_again(made, 1)  # a round with a result has begun


def test_a_finished_game_cant_be_forfeited():
    made = event(players=FOUR)
    paired = do_pair_round(made, "swiss")
    play_out(paired.pairings.get(table=2).game)
    with pytest.raises(Conflict, match="has its result already"):
        do_forfeit(made, 1, "Di Dunn")


def test_a_swap_with_the_player_who_has_the_bye_gives_them_the_table():
    made = event(players=SEVEN[:3])  # Ann v Ben, Cy the bye
    do_pair_round(made, "swiss")
    swapped = do_swap(made, 1, "Cy Cole", "Ben Baker")
    pairings = list(swapped.pairings.select_related("first__player", "second__player"))
    tables = [{p.first.player.name, p.second.player.name} for p in pairings if p.second]
    assert tables == [{"Ann Archer", "Cy Cole"}]
    assert [p.first.player.name for p in pairings if p.second is None] == ["Ben Baker"]


def test_a_swap_changes_only_the_two_tables_and_keeps_every_other_tables_game():
    made = event(players=[Entry(entry.name, entry.rating) for entry in SEVEN[:6]])
    paired = do_pair_round(made, "swiss")
    tables = {p.table: p for p in paired.pairings.select_related("first__player")}
    one, other = tables[1].first.player.name, tables[2].first.player.name
    kept = {number: tables[number].game_id for number in (1, 2, 3)}
    swapped = do_swap(made, 1, one, other)
    after = {p.table: p for p in swapped.pairings.select_related("first__player", "second__player")}
    assert sorted(after) == [1, 2, 3] and after[3].game_id == kept[3]  # its link still opens it
    assert one in (after[2].first.player.name, after[2].second.player.name)
    assert other in (after[1].first.player.name, after[1].second.player.name)
    for number in (1, 2):
        assert after[number].game_id != kept[number]
        game = Game.objects.get(pk=after[number].game_id)
        seated = [s.player.name for s in game.seats.select_related("player").order_by("order")]
        assert (
            game.table_number == number
            and seated[game.first_seat] == after[number].first.player.name
        )
    assert Game.objects.count() == 3 and (swapped.number, swapped.method) == (1, "manual")
