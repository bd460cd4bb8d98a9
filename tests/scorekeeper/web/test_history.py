"""History pages: the list of games, a game's log, replay and chart, exports, rankings, players."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest

from bench.sequences import HASBRO
from scorekeeper.games import domain
from scorekeeper.models import Game, Player, Seat
from scorekeeper.records.json_record import export_record
from tests.factories import ApiGame

pytestmark = pytest.mark.django_db

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
MOOX = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")]  # not in the CLUB list
GO = [(4, 4, "G"), (4, 5, "O")]
HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]  # Letter UP 8D, 24
XAM = [(8, 7, "X"), (9, 7, "A"), (10, 7, "M")]  # EXAM down, 14


# Factories ------------------------------------------------------------------------------------
def new_game(players: list[str] | None = None, **fields: Any) -> Game:
    return domain.check_create_game(
        ruleset=fields.pop("ruleset", "upwords-10"),
        lexicon="CLUB",
        players=players or ["Ann", "Ben"],
        challenge_mode=fields.pop("challenge_mode", "auto"),
        **fields,
    )


def hasbro(players: list[str] | None = None, plays: int = 7, *, finish: bool = False) -> Game:
    """The first ``plays`` turns of RULES.md §3's sequence, then (if asked) the end of the game.

    Every rack still holds 7 tiles at the end, so each final score is the turns' sum - 35.
    """
    game = new_game(players)
    for triples, _ in HASBRO[:plays]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
    if finish:
        domain.act(game.pk, domain.TurnCommand("finish"))
    return Game.objects.get(pk=game.pk)


def started_on(game: Game, day: str) -> Game:
    when = dt.datetime.fromisoformat(day).replace(hour=12, tzinfo=dt.UTC)
    Game.objects.filter(pk=game.pk).update(created_at=when)
    return Game.objects.get(pk=game.pk)


def html(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.content[:2000]
    return response.content.decode()


def game_ids(response) -> set[str]:
    return {str(row["game"].pk) for row in response.context["rows"]}


# The list of games ----------------------------------------------------------------------------
def test_the_list_shows_every_game_with_its_players_and_scores(client):
    game = hasbro(["Ann", "Ben"], plays=3, finish=True)
    page = html(client, "/games/")
    assert f'href="/games/{game.pk}/"' in page
    assert "Upwords (10×10)" in page and "Finished" in page
    # Finished: the final scores (turns' sum minus 5 a tile left), and the winner.
    assert re.search(r"Ann <strong class=\"num\">-17</strong> <span class=\"badge\">winner", page)
    assert 'Ben <strong class="num">-27</strong>' in page


def test_the_list_filters_by_player_name_case_insensitively(client):
    ann = new_game(["Annabel", "Ben"])
    new_game(["Cat", "Dan"])
    response = client.get("/games/", {"player": "NNAB"})
    assert game_ids(response) == {str(ann.pk)}


def test_the_list_filters_by_ruleset_and_status(client):
    upwords_done = hasbro(plays=1, finish=True)
    upwords_live = new_game()
    letterup = new_game(ruleset="letterup-classic")
    assert game_ids(client.get("/games/", {"ruleset": "letterup-classic"})) == {str(letterup.pk)}
    assert game_ids(client.get("/games/", {"status": "finished"})) == {str(upwords_done.pk)}
    both = client.get("/games/", {"ruleset": "upwords-10", "status": "in_progress"})
    assert game_ids(both) == {str(upwords_live.pk)}


def test_the_list_filters_by_the_day_a_game_started(client):
    march = started_on(new_game(), "2025-03-10")
    april = started_on(new_game(["Cat", "Dan"]), "2025-04-02")
    may = started_on(new_game(["Eve", "Fay"]), "2025-05-20")
    between = client.get("/games/", {"date_from": "2025-03-10", "date_to": "2025-04-02"})
    assert game_ids(between) == {str(march.pk), str(april.pk)}  # both ends count
    assert game_ids(client.get("/games/", {"date_from": "2025-04-03"})) == {str(may.pk)}
    assert game_ids(client.get("/games/", {"date_to": "2025-03-31"})) == {str(march.pk)}


@pytest.mark.parametrize(
    "query, message",
    [
        ({"date_from": "10/03/2025"}, "Write the date as YYYY-MM-DD"),
        ({"date_from": "2025-05-01", "date_to": "2025-04-01"}, "This date is before the first"),
        ({"ruleset": "chess"}, "There is no ruleset called chess"),
        ({"status": "lost"}, "There is no status called lost"),
    ],
)
def test_a_bad_filter_is_explained_not_a_server_error(client, query, message):
    new_game()
    response = client.get("/games/", query)
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and 'role="alert"' in page
    assert "aria-describedby" in page  # the field points at its message


def test_the_list_pages_by_25_and_keeps_the_filter_in_the_page_links(client):
    for _ in range(27):
        new_game(["Ann", "Ben"])
    new_game(["Cat", "Dan"])
    first = client.get("/games/", {"player": "ann"})
    assert len(first.context["rows"]) == 25
    page = first.content.decode()
    assert 'href="?player=ann&amp;page=2"' in page and "Next page" in page
    second = client.get("/games/", {"player": "ann", "page": "2"})
    assert len(second.context["rows"]) == 2
    assert "Previous page" in second.content.decode()
    assert client.get("/games/", {"page": "not-a-number"}).status_code == 200


def test_the_list_takes_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for n in range(12):
        hasbro([f"A{n}", f"B{n}"], plays=1, finish=n % 2 == 0)
    with django_assert_max_num_queries(4):  # count, page, seats with their players
        response = client.get("/games/", {"player": "a", "status": "finished"})
    assert len(response.context["rows"]) == 6


# A game's page: the log -----------------------------------------------------------------------
def test_the_log_marks_undone_turns_and_the_undo(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.play(HASBRO[1][0])
    game.turn({"action": "undo"})
    page = html(client, f"/games/{game.id}/")
    rows = re.findall(r"<tr class=\"([^\"]*)\"[^>]*>\s*<th scope=\"row\"", page)
    assert ["undone" in r.split() for r in rows] == [False, True, False]
    assert '<span class="badge undone-badge">undone</span>' in page
    assert "undo of #2" in page
    # An undone turn has no board of its own to step to; the turns in effect do.
    assert '<a href="?step=1#replay">1<' in page and '<a href="?step=2#replay">' not in page


def test_the_log_shows_challenge_results_and_the_words_that_failed(client):
    game = ApiGame(client, challenge_mode="manual")
    game.play(MOOX)
    game.turn({"action": "challenge"})  # upheld: MOOX comes off
    game.play(MOOD)
    game.turn({"action": "challenge"})  # rejected: MOOD stands
    page = html(client, f"/games/{game.id}/")
    assert "upheld (#1)" in page and "rejected (#3)" in page
    assert "challenged: upheld (#2)" in page and "challenged: rejected (#4)" in page
    # Like the verdict at the table, the log lists the words but never which one failed.
    assert '<span class="word">MOOX</span> 8</li>' in page
    assert '<span class="word">MOOD</span> 8</li>' in page
    after_2 = html(client, f"/games/{game.id}/?step=2")
    assert (
        "Ben challenged: NOT ACCEPTABLE – Ann’s play 5D MOOX is taken off; Ann scores 0 and "
        "plays again." in after_2
    )
    assert 'aria-label="G5: empty"' in after_2


def test_the_page_has_its_facts_and_export_links(client):
    game = hasbro(plays=2)
    page = html(client, f"/games/{game.pk}/")
    assert page.count("<h1") == 1
    assert "CLUB" in page and "sha256:" in page and "words checked as played" in page
    assert f'href="/games/{game.pk}/watch"' in page  # still being played
    assert f'href="/games/{game.pk}/export.json"' in page
    assert "export.gcg" not in page  # GCG is for Letter UP
    letterup = new_game(ruleset="letterup-classic")
    assert f'href="/games/{letterup.pk}/export.gcg"' in html(client, f"/games/{letterup.pk}/")


def test_a_finished_game_names_its_winner_and_a_tie_is_a_tie(client):
    won = hasbro(plays=3, finish=True)
    assert "Ann wins" in html(client, f"/games/{won.pk}/")
    tied = hasbro(plays=2, finish=True)  # 8 - 35 each
    page = html(client, f"/games/{tied.pk}/")
    assert "A tie: Ann and Ben" in page and "/watch" not in page


# A game's page: the replay --------------------------------------------------------------------
def test_the_replay_shows_the_board_after_the_chosen_turn(client):
    game = hasbro(plays=7)
    after_3 = html(client, f"/games/{game.pk}/?turn=3")
    assert 'aria-label="D5: M, 1 high"' in after_3
    after_4 = html(client, f"/games/{game.pk}/?turn=4")  # W goes on the M: WOOD
    assert 'aria-label="D5: W2, 2 high, last play"' in after_4
    assert "After turn 4 of 7" in after_4 and "Ann played" not in after_4
    assert "Ben played 5D W... for 5 (WOOD 5)." in after_4
    assert 'aria-label="I3: empty"' in after_4  # PLUS comes at turn 7
    assert 'aria-label="I3: P, 1 high, last play"' in html(client, f"/games/{game.pk}/")  # the end


def test_the_replay_steps_with_previous_and_next_links(client):
    game = hasbro(plays=3)
    page = html(client, f"/games/{game.pk}/?turn=2")
    assert re.search(r'href="/games/[^"]+\?step=1#replay"[^>]*rel="prev"', page)
    assert re.search(r'href="/games/[^"]+\?step=3#replay"[^>]*rel="next"', page)
    assert 'Previous<span class="sr-only"> turn</span>' in page
    start = html(client, f"/games/{game.pk}/?turn=0")
    assert "The empty board" in start and 'rel="prev"' not in start
    assert 'aria-label="E5: empty, start square"' in start
    assert 'rel="next"' not in html(client, f"/games/{game.pk}/?turn=3")


def test_the_replay_counts_only_the_turns_in_effect(client):
    game = ApiGame(client)
    game.play(MOOD)
    game.play(HASBRO[1][0])
    game.turn({"action": "undo"})
    game.play([(3, 6, "O")])  # OD down, log entry 4
    page = html(client, f"/games/{game.id}/?turn=2")
    assert "After turn 2 of 2" in page and "(log entry #4)" in page
    assert 'aria-label="G4: O, 1 high, last play"' in page and 'aria-label="G6: empty"' in page


@pytest.mark.parametrize("turn", ["x", "-1", "9"])
def test_a_turn_the_game_does_not_have_is_a_clear_error(client, turn):
    game = hasbro(plays=2)
    page = html(client, f"/games/{game.pk}/?turn={turn}", status=400)
    assert "<h1>No such turn</h1>" in page and "0 to 2" in page
    assert f'href="/games/{game.pk}/"' in page  # the way back


def test_htmx_gets_just_the_replay_to_swap_in(client):
    game = hasbro(plays=3)
    response = client.get(f"/games/{game.pk}/", {"turn": "1"}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and "<h1" not in page
    assert page.lstrip().startswith('<div id="replay-body"')
    assert 'hx-swap-oob="innerHTML"' in page and "After turn 1 of 3" in page
    assert "HX-Request" in response["Vary"]
    # The board swapped in is the game's, as on the whole page: 10×10, stacks drawn.
    assert 'class="board size-10 stacking"' in page and 'aria-label="D5: M, 1 high' in page


# A game's page: the chart ---------------------------------------------------------------------
def test_the_chart_has_a_line_per_player_ending_on_the_final_score(client):
    game = hasbro(plays=5, finish=True)
    response = client.get(f"/games/{game.pk}/")
    page = response.content.decode()
    svg = re.search(r"<svg viewBox=\"0 0 480 280\".*?</svg>", page, re.S).group(0)
    assert 'role="img"' in svg and "aria-label=" in svg and "<title>" in svg and "<desc>" in svg
    lines = re.findall(r'<polyline [^>]*points="([^"]+)"', svg)
    assert len(lines) == 2
    # The start, five plays and the finish.
    assert [len(points.split()) for points in lines] == [7, 7]
    finals = [s.final_score for s in Seat.objects.filter(game=game).order_by("order")]
    assert finals == [30 - 35, 13 - 35]
    assert [s["last"] for s in response.context["chart"]["series"]] == finals
    chart = response.context["chart"]
    assert [row["scores"] for row in chart["rows"]] == [
        [0, 0], [8, 0], [8, 8], [18, 8], [18, 13], [30, 13], [-5, -22]
    ]  # fmt: skip
    # The last point of each line sits at its final score on the y axis.
    ticks = {float(t["label"]): t["y"] for t in chart["y_ticks"]}
    low, high = min(ticks), max(ticks)
    for points, final in zip(lines, finals, strict=True):
        last_y = float(points.split()[-1].split(",")[1])
        expected = ticks[low] + (final - low) * (ticks[high] - ticks[low]) / (high - low)
        assert last_y == pytest.approx(expected, abs=0.2)


# Exports --------------------------------------------------------------------------------------
def test_the_json_export_is_the_game_record(client):
    game = hasbro(plays=3, finish=True)
    response = client.get(f"/games/{game.pk}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert json.loads(response.content) == json.loads(json.dumps(export_record(game)))


def test_the_gcg_export_of_a_letter_up_game(client):
    game = new_game(ruleset="letterup-classic", challenge_mode="manual")
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    domain.act(game.pk, domain.TurnCommand("play", tiles=XAM))
    response = client.get(f"/games/{game.pk}/export.gcg")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert (
        ".gcg" in response["Content-Disposition"]
        and "attachment" in response["Content-Disposition"]
    )
    text = response.content.decode()
    assert ">Ann: EHOSU 8D HOUSE +24 24" in text and ">Ben: AMX H8 .XAM +14 14" in text


def test_an_upwords_game_has_no_gcg_and_says_so(client):
    game = hasbro(plays=1)
    page = html(client, f"/games/{game.pk}/export.gcg", status=404)
    assert "GCG is a format for the crossword games" in page
    assert f'href="/games/{game.pk}/export.json"' in page


# Rankings -------------------------------------------------------------------------------------
@pytest.fixture
def league():
    """Finished Upwords games (final = turns' sum - 35), and games that must not count."""
    hasbro(["Ann", "Ben"], plays=3, finish=True)  # Ann -17, Ben -27
    hasbro(["Ben", "Ann"], plays=1, finish=True)  # Ben -27, Ann -35
    hasbro(["Ann", "Ben"], plays=2, finish=True)  # -27 each: a tie
    hasbro(["Ann", "Cat"], plays=5, finish=True)  # Ann -5, Cat -22
    hasbro(["Cat", "Ben"], plays=7)  # in progress: Cat 50
    letterup = new_game(["Cat", "Ann"], ruleset="letterup-classic")
    domain.act(letterup.pk, domain.TurnCommand("play", tiles=HOUSE))
    domain.act(
        letterup.pk, domain.TurnCommand("finish", racks={0: "AEGINRT", 1: "BCJKQVZ"})
    )  # Cat 24 - 9, Ann -43


def ranked(response) -> list[tuple[Any, ...]]:
    return [
        (
            r["player__name"],
            r["games"],
            r["wins"],
            r["ties"],
            r["losses"],
            r["best"],
            round(r["average"], 1),
        )
        for r in response.context["rows"]
    ]


def test_rankings_count_games_wins_ties_best_and_average(client, league):
    response = client.get("/rankings/", {"ruleset": "upwords-10"})
    assert ranked(response) == [
        ("Ann", 4, 2, 1, 1, -5, -21.0),
        ("Cat", 1, 0, 0, 1, -22, -22.0),
        ("Ben", 3, 1, 1, 1, -27, -27.0),
    ]
    page = response.content.decode()
    assert "-21.0" in page and 'aria-sort="descending"' in page
    ann = Player.objects.get(name="Ann")
    assert f'href="/players/{ann.pk}/"' in page


def test_rankings_sort_by_wins_or_average(client, league):
    by_wins = client.get("/rankings/", {"ruleset": "upwords-10", "sort": "wins"})
    assert [r[0] for r in ranked(by_wins)] == ["Ann", "Ben", "Cat"]
    by_average = client.get("/rankings/", {"ruleset": "upwords-10", "sort": "average"})
    assert [r[0] for r in ranked(by_average)] == ["Ann", "Cat", "Ben"]


def test_rankings_of_another_ruleset_count_only_its_games(client, league):
    response = client.get("/rankings/", {"ruleset": "letterup-classic"})
    assert ranked(response) == [("Cat", 1, 1, 0, 0, 15, 15.0), ("Ann", 1, 0, 0, 1, -43, -43.0)]


def test_rankings_default_to_a_ruleset_with_finished_games(client):
    letterup = new_game(ruleset="letterup-rush")
    domain.act(letterup.pk, domain.TurnCommand("finish", racks={0: "AEGINRT", 1: "AEGINRT"}))
    response = client.get("/rankings/")
    assert response.context["ruleset"].id == "letterup-rush"
    assert "Rankings: Letter UP Rush" in response.content.decode()


def test_rankings_explain_a_bad_ruleset_or_sort(client):
    assert "There is no ruleset called go" in html(client, "/rankings/?ruleset=go", status=400)
    assert "not worst" in html(client, "/rankings/?sort=worst", status=400)


# A player's page ------------------------------------------------------------------------------
def test_a_player_page_lists_their_games_and_results(client, league):
    ann = Player.objects.get(name="Ann")
    response = client.get(f"/players/{ann.pk}/")
    results = sorted(g["result"] for g in response.context["games"])
    assert results == ["loss", "loss", "tie", "win", "win"]
    page = response.content.decode()
    assert page.count("<h1") == 1 and "5 games: 2 wins, 2 losses, 1 tie." in page


def test_best_turn_leaves_out_an_undone_play(client):
    game = ApiGame(client, players=["Ann", "Ben"])
    for triples, _ in HASBRO[:7]:
        game.play(triples)
    game.turn({"action": "undo"})  # Ann's PLUS for 16 is taken back
    ann = Player.objects.get(name="Ann")
    response = client.get(f"/players/{ann.pk}/")
    best = response.context["best_turn"]
    assert (best.number, best.score) == (5, 12)  # L and P: WOOL and LEAP
    word = response.context["best_word"]
    assert (word["word"], word["score"]) == ("MOOD", 8)  # the first to score 8
    page = response.content.decode()
    assert best.notation in page and f'href="/games/{game.id}/"' in page


def test_best_turn_and_best_word_leave_out_a_play_challenged_off(client):
    game = ApiGame(client, challenge_mode="manual")
    game.play(MOOX)  # 8, then taken off
    game.turn({"action": "challenge"})
    game.play(GO)
    ann = Player.objects.get(name="Ann")
    response = client.get(f"/players/{ann.pk}/")
    best = response.context["best_turn"]
    assert (best.number, best.score) == (3, 4)
    assert (response.context["best_word"]["word"], response.context["best_word"]["score"]) == (
        "GO",
        4,
    )
    assert "MOOX" not in response.content.decode()


# Errors and secrets ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "/games/00000000-0000-0000-0000-000000000000/",
        "/games/00000000-0000-0000-0000-000000000000/export.json",
        "/games/00000000-0000-0000-0000-000000000000/export.gcg",
        "/players/999999/",
    ],
)
def test_an_unknown_game_or_player_is_a_404_page(client, url):
    page = html(client, url, status=404)
    assert "<h1>Nothing here</h1>" in page and "There is no" in page


def test_the_token_never_appears_on_a_history_page(client):
    live = ApiGame(client, ruleset="letterup-classic", players=["Ann", "Ben"])
    live.play(HOUSE)
    done = hasbro(plays=2, finish=True)
    ann = Player.objects.get(name="Ann")
    urls = [
        "/games/",
        "/games/?player=ann",
        f"/games/{live.id}/",
        f"/games/{live.id}/?turn=1",
        f"/games/{live.id}/?turn=99",
        f"/games/{live.id}/export.json",
        f"/games/{live.id}/export.gcg",
        f"/games/{done.pk}/",
        f"/games/{done.pk}/export.gcg",
        "/rankings/",
        f"/players/{ann.pk}/",
    ]
    for url in urls:
        response = client.get(url)
        body = response.content.decode()
        assert live.token not in body and done.token not in body, url
        assert "/score/" not in body, url
    partial = client.get(f"/games/{live.id}/", {"turn": "0"}, HTTP_HX_REQUEST="true")
    assert live.token not in partial.content.decode()


def test_every_history_page_works_at_a_glance(client, league):
    """One h1, captioned tables with scoped headers, labelled form fields."""
    game = Game.objects.filter(status="finished").first()
    cat = Player.objects.get(name="Cat")
    for url in ["/games/", f"/games/{game.pk}/", "/rankings/", f"/players/{cat.pk}/"]:
        page = html(client, url)
        assert page.count("<h1") == 1, url
        assert page.count("<table") == page.count("<caption"), url
        assert "<th>" not in page, url
        for field_id in re.findall(r'<(?:input|select)[^>]* id="([^"]+)"', page):
            assert f'for="{field_id}"' in page, (url, field_id)
