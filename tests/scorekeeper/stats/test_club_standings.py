"""A club's standings, against figures worked out by hand.

Every game here is Upwords: the first turns of RULES.md §3 (Ann 8, Ben 8, Ann 10), then extra
points by seat, then the end, where each player loses 35 for the seven tiles on the rack.
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.games import domain
from scorekeeper.stats.standings import Line, club_standings
from tests.factories import account, finished_game, make_club

pytestmark = pytest.mark.django_db


def figures(line: Line) -> tuple:
    return (
        line.rank, line.name, line.games, line.wins, line.losses, line.ties, line.spread,
        round(line.average, 2), line.high_game, line.high_play,
    )  # fmt: skip


@pytest.fixture
def season():
    """
    G1 Ann v Ben, 3 plays, Ann +100, Ben +50:  Ann 8+10+100-35 = 83, Ben 8+50-35 = 23
    G2 Ann v Ben, 2 plays, +40 each:           Ann 13, Ben 13 (a tie)
    G3 Ann v Ben v Cy, 2 plays, +10/+60/+30:   Ann -17, Ben 33, Cy -5
    G4 honour system, Ann v Ben, Ben +100:     Ann -27, Ben 73
    G5 voided, Ann +500; G6 casual, Ben +700; G7 solo Cy +900; G8 in progress; G9 abandoned.
    """
    ann = account("ann")
    club = make_club(directors=[ann])
    finished_game(["Ann", "Ben"], club=club, plays=3, extra={0: 100, 1: 50})
    finished_game(["Ann", "Ben"], club=club, extra={0: 40, 1: 40})
    finished_game(["Ann", "Ben", "Cy"], club=club, extra={0: 10, 1: 60, 2: 30})
    finished_game(["Ann", "Ben"], club=club, extra={1: 100}, lexicon="honour")
    void = finished_game(["Ann", "Ben"], club=club, plays=3, extra={0: 500})
    domain.act(
        void.pk, domain.TurnCommand("void", by="director: ann", note="second bag", director=ann)
    )
    finished_game(["Ann", "Ben"], club=None, extra={1: 700})
    finished_game(["Cy"], club=club, plays=1, extra={0: 900})
    live = domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", club=club
    )
    domain.act(live.pk, domain.TurnCommand("penalty", seat=0, points=300))
    gone = domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", club=club
    )
    domain.act(gone.pk, domain.TurnCommand("penalty", seat=1, points=300))
    domain.act(gone.pk, domain.TurnCommand("abandon"))
    return club


def test_words_checked_standings_by_hand(season):
    checked, honour = club_standings(season)
    assert (checked.ruleset.id, checked.honour) == ("upwords-10", False)
    # Ann: 1 win, 1 loss, 1 tie = 1.5; spread +60 +0 -50 = +10; average (83+13-17)/3 = 26.33.
    # Ben: 1 win, 1 loss, 1 tie = 1.5; spread -60 +0 +38 = -22; average (23+13+33)/3 = 23.
    # Cy: one loss; spread -5-33 = -38. Equal wins: the spread decides Ann over Ben.
    assert [figures(line) for line in checked.lines] == [
        (1, "Ann", 3, 1, 1, 1, 10, 26.33, 83, 10),
        (2, "Ben", 3, 1, 1, 1, -22, 23.0, 33, 8),
        (3, "Cy", 1, 0, 1, 0, -38, -5.0, -5, None),
    ]


def test_honour_games_are_a_table_of_their_own(season):
    honour = club_standings(season)[1]
    assert honour.honour and honour.words == "honour system"
    assert [figures(line) for line in honour.lines] == [
        (1, "Ben", 1, 1, 0, 0, 100, 73.0, 73, 8),
        (2, "Ann", 1, 0, 1, 0, -100, -27.0, -27, 8),
    ]


def test_undoing_the_void_puts_the_game_back_in_the_standings(season):
    ann = season.directors.get()
    void = season.games.get(status="void")
    domain.act(void.pk, domain.TurnCommand("undo", by="director: ann", director=ann))
    ann_line = club_standings(season)[0].lines[0]
    assert (ann_line.name, ann_line.games, ann_line.wins, ann_line.high_game) == (
        "Ann",
        4,
        2,
        483,
    )  # 8+10+500-35


def test_a_play_taken_off_by_a_challenge_is_no_high_play(use_words):
    use_words("MOOD DEAR NET ON")
    club = make_club()
    game = domain.check_create_game(
        ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", challenge_mode="manual",
        club=club,
    )  # fmt: skip
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))  # 8
    domain.act(
        game.pk, domain.TurnCommand("play", notation="G5 DAM")
    )  # not in the list: challenged off
    domain.act(game.pk, domain.TurnCommand("challenge"))
    domain.act(game.pk, domain.TurnCommand("finish"))
    lines = {line.name: line for line in club_standings(club)[0].lines}
    assert lines["Ann"].high_play == 8 and lines["Ben"].high_play is None


def test_a_club_with_no_finished_games_has_no_tables():
    assert club_standings(make_club()) == []


def test_the_club_page_shows_both_tables_and_the_rule_for_spread(client, season):
    html = re.sub(r"\s+", " ", client.get("/clubs/riverside/").content.decode())
    assert "Upwords" in html and "words checked" in html and "honour system" in html
    assert "margin to the winner, or over the runner-up" in html
    assert 'data-label="spread">+10<' in html and 'data-label="average">26.3<' in html


# The global rankings and the player page ------------------------------------------------------
def ranked(response) -> list[tuple]:
    return [(r["player__name"], r["games"], r["wins"], r["best"]) for r in response.context["rows"]]


def test_rankings_default_to_games_with_words_checked(client, season):
    # Checked: G1-G3 and the casual G6 (Ben 8+700-35 = 673); the void G5 is out.
    # By best score; Cy's solo game (8+900-35) counts as played.
    response = client.get("/rankings/", {"ruleset": "upwords-10"})
    assert ranked(response) == [("Cy", 2, 0, 873), ("Ben", 4, 2, 673), ("Ann", 4, 1, 83)]
    assert "words checked" in response.content.decode()


def test_honour_system_games_are_ranked_apart(client, season):
    response = client.get("/rankings/", {"ruleset": "upwords-10", "words": "honour"})
    assert ranked(response) == [("Ben", 1, 1, 73), ("Ann", 1, 0, -27)]
    assert "honour system" in response.content.decode()
    assert client.get("/rankings/", {"words": "everything"}).status_code == 400


def test_the_player_page_shows_casual_and_club_results_apart(client, season):
    ben = season.roster.get(name="Ben")
    response = client.get(f"/players/{ben.pk}/")
    assert [
        (r["club"].name if r["club"] else "casual", r["games"], r["win"], r["loss"], r["tie"])
        for r in response.context["results"]
    ] == [("casual", 1, 1, 0, 0), ("Riverside", 4, 2, 1, 1)]
    page = re.sub(r"\s+", " ", response.content.decode())
    assert "Casual games" in page and 'href="/clubs/riverside/"' in page


def test_a_corrected_play_is_no_best_turn_but_its_correction_is(client):
    """Ann's 5D MOOD is corrected to 5D WOOD: the play in effect is the correction, and the
    player page's best turn (like a club's high play) is that, not the play it replaced."""
    game = domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))  # 8
    domain.act(game.pk, domain.TurnCommand("play", notation="G6 EAR"))  # Ben: DEAR, 8
    domain.act(
        game.pk, domain.TurnCommand("correct", target=1, notation="5D WOOD")
    )  # what Ann really played
    ann = game.seats.get(order=0).player
    page = client.get(f"/players/{ann.pk}/")
    best = page.context["best_turn"]
    assert best is not None and best.action == "correct" and best.notation == "5D WOOD"
