"""GCG export of Letter UP games, as Quackle, Woogles and cross-tables read it."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from referee.errors import InputError
from referee.gcg import read_gcg
from scorekeeper.games import domain
from scorekeeper.models import Game
from scorekeeper.records.gcg_export import game_to_gcg
from tests.factories import account, make_club

pytestmark = pytest.mark.django_db

# RULES.md §4: HOUSE at (7,3)–(7,7) scores 24, then X A M down making EXAM 14.
HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]
XAM = [(8, 7, "X"), (9, 7, "A"), (10, 7, "M")]
HOUSED = [(7, 8, "D")]  # not in the CLUB list: 4+1+1+1+1+2 = 10
AH = [(6, 3, "A")]  # AH down through the H: 1+4 = 5


def letterup(players: list[str] | None = None, **fields) -> Game:  # type: ignore[no-untyped-def]
    return domain.check_create_game(
        ruleset="letterup-classic",
        lexicon="CLUB",
        players=players or ["Ann", "Ben"],
        challenge_mode="manual",
        **fields,
    )


def act(game: Game, action: str, **fields) -> None:  # type: ignore[no-untyped-def]
    domain.act(game.pk, domain.TurnCommand(action, **fields))


def header(game: Game, *players: str) -> list[str]:
    return [
        "#character-encoding UTF-8",
        *players,
        "#lexicon CLUB",
        f"#title Letter UP Classic, {timezone.localtime(game.created_at):%Y-%m-%d}",
        f"#id scorekeeper {game.pk}",
    ]


def gcg(game: Game) -> str:
    return game_to_gcg(Game.objects.get(pk=game.pk))


def moves(game: Game) -> list[str]:
    """The GCG's lines after its header (which ends with the #id line)."""
    lines = gcg(game).splitlines()
    return lines[[n for n, line in enumerate(lines) if line.startswith("#id ")][0] + 1 :]


def test_a_whole_game_in_gcg():
    game = letterup()
    act(game, "play", tiles=HOUSE)  # Ann 24
    act(game, "play", tiles=XAM)  # Ben 14
    act(game, "pass")  # Ann
    act(game, "exchange", count=3)  # Ben
    act(game, "play", tiles=HOUSED)  # Ann 10, a phony ...
    act(game, "challenge")  # ... Ben challenges it off; Ann tries again
    act(game, "play", tiles=AH)  # Ann 5, counted from 24, not 34
    act(game, "finish", racks={0: "AEGINRT", 1: "BCJKQVZ"})  # −9 and −43

    expected = header(game, "#player1 Ann Ann", "#player2 Ben Ben") + [
        ">Ann: EHOSU 8D HOUSE +24 24",
        ">Ben: AMX H8 .XAM +14 14",
        ">Ann: D - +0 24",  # the D she played next: a pass draws nothing
        ">Ben: -3 +0 14",  # nothing of this rack is known
        ">Ann: D 8D .....D +10 34",
        ">Ann: D -- -10 24",
        ">Ann: A D7 A. +5 29",
        ">Ann: AEGINRT (AEGINRT) -9 20",
        ">Ben: BCJKQVZ (BCJKQVZ) -43 -29",
    ]
    assert gcg(game) == "\n".join(expected) + "\n"
    assert [s.final_score for s in game.seats.order_by("order")] == [20, -29]


def test_the_rack_penalties_follow_the_game_waiting_for_the_racks():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    for _ in range(4):
        act(game, "pass")
    act(game, "finish", racks={0: "AEGINRT", 1: "BCJKQVZ"})
    assert moves(game)[-6:] == [
        ">Ben: BCJKQVZ - +0 0",  # the racks left at the end
        ">Ann: AEGINRT - +0 24",
        ">Ben: BCJKQVZ - +0 0",
        ">Ann: AEGINRT - +0 24",  # ... the game waits for the racks
        ">Ann: AEGINRT (AEGINRT) -9 15",
        ">Ben: BCJKQVZ (BCJKQVZ) -43 -43",
    ]


def test_undone_turns_are_left_out():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    act(game, "play", tiles=XAM)  # a mis-entry ...
    act(game, "undo")  # ... taken back
    act(game, "pass")
    act(game, "play", tiles=AH)
    lines = moves(game)
    assert lines == [
        ">Ann: EHOSU 8D HOUSE +24 24",
        ">Ben: - +0 0",
        ">Ann: A D7 A. +5 29",
    ]


def test_an_undone_challenge_leaves_the_play_standing():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    act(game, "challenge")
    act(game, "undo")
    act(game, "pass")
    assert moves(game) == [">Ann: EHOSU 8D HOUSE +24 24", ">Ben: - +0 0"]


def test_a_failed_challenge_that_costs_five_points_is_a_note_and_the_totals_count_it():
    game = letterup(options={"rejected_challenge": "minus_5"})
    act(game, "play", tiles=HOUSE)
    act(game, "challenge")  # Ben: HOUSE is good, Ben loses 5 and still moves
    act(game, "play", tiles=XAM)
    assert moves(game) == [
        ">Ann: EHOSU 8D HOUSE +24 24",
        "#note Ben challenged 8D HOUSE and lost 5 points: the play was acceptable.",
        ">Ben: AMX H8 .XAM +14 9",
    ]


def test_a_failed_challenge_without_a_penalty_is_a_challenge_line_for_nothing():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    act(game, "challenge")
    act(game, "play", tiles=XAM)
    assert moves(game) == [
        ">Ann: EHOSU 8D HOUSE +24 24",
        ">Ann: EHOSU (challenge) +0 24",
        ">Ben: AMX H8 .XAM +14 14",
    ]


def test_a_failed_challenge_under_the_five_point_rule_gives_the_player_five():
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"],
        challenge_mode="manual", options={"rejected_challenge": "bonus_5"},
    )  # fmt: skip
    act(game, "play", tiles=HOUSE)
    act(game, "challenge")
    assert moves(game) == [">Ann: EHOSU 8D HOUSE +24 24", ">Ann: EHOSU (challenge) +5 29"]


def test_a_time_penalty_entered_at_the_table_has_no_rack():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    act(game, "penalty", seat=1, points=-10)
    assert moves(game) == [">Ann: EHOSU 8D HOUSE +24 24", ">Ben: (time) -10 -10"]


def test_a_withdrawn_play_that_scored_nothing_is_taken_off_for_minus_zero():
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"],
        challenge_mode="manual",
    )  # fmt: skip
    act(game, "play", tiles=[(7, 6, "q"), (7, 7, "i")])  # two blanks: 0 points
    act(game, "challenge", verdict="upheld")
    assert moves(game) == [">Ann: ?? 8G qi +0 0", ">Ann: ?? -- -0 0"]


def test_a_void_reason_over_several_lines_stays_a_note():
    ann = account("ann")
    game = letterup(club=make_club(directors=[ann], roster=["Ann", "Ben"]))
    act(game, "play", tiles=HOUSE)
    reason = "Ben's line was\n>Ben: ZZZ 9A ZZZ +99 99\n#player3 cy Cy"
    act(game, "void", by="director: ann", note=reason, director=ann)
    assert moves(game)[1:] == [
        "#note Voided after turn 1 by director: ann — Ben's line was",
        "#note >Ben: ZZZ 9A ZZZ +99 99",
        "#note #player3 cy Cy.",
    ]
    record = read_gcg(gcg(game))  # the reason adds no turn and no player
    assert [e.text for e in record.events] == [">Ann: EHOSU 8D HOUSE +24 24"]
    assert len(record.players) == 2 and record.events[0].note.endswith("#player3 cy Cy.")


def test_a_blank_is_a_question_mark_on_the_rack_and_lowercase_on_the_board():
    game = domain.check_create_game(
        ruleset="crossword-classic", lexicon="CLUB", players=["Ann", "Ben"]
    )
    act(game, "play", tiles=[(7, 3, "h"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")])
    assert moves(game) == [">Ann: ?EOSU 8D hOUSE +8 8"]  # h on DL: 0, +4, ×2


def test_the_title_dates_the_game_where_it_was_played(settings):
    settings.TIME_ZONE = "Pacific/Auckland"  # UTC+13 in January
    game = letterup()
    played = datetime(2026, 1, 1, 12, 30, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(created_at=played)
    assert "#title Letter UP Classic, 2026-01-02" in gcg(game).splitlines()


def test_the_second_player_may_start():
    game = letterup(first="Ben")
    act(game, "play", tiles=HOUSE)
    assert moves(game) == [">Ben: EHOSU 8D HOUSE +24 24"]


# Nicknames ------------------------------------------------------------------------------------
def test_nicknames_have_no_spaces_and_keep_the_full_name():
    game = letterup(["Ann Lee", "Ben"])
    act(game, "play", tiles=HOUSE)
    assert gcg(game).splitlines()[1:3] == ["#player1 AnnLee Ann Lee", "#player2 Ben Ben"]
    assert moves(game) == [">AnnLee: EHOSU 8D HOUSE +24 24"]


@pytest.mark.parametrize(
    ("players", "nicks"),
    [
        (["Ann Lee", "AnnLee"], ["AnnLee", "AnnLee_2"]),
        (["AB", "AB_3", "A B"], ["AB", "AB_3", "AB_4"]),
        (["A B", "AB", "AB_2"], ["AB", "AB_2", "AB_2_3"]),
        (["Ann: the first", ":"], ["Annthefirst", "player2"]),
    ],
)
def test_every_seat_gets_its_own_nickname(players, nicks):
    game = letterup(players)
    lines = gcg(game).splitlines()
    assert [line.split()[1] for line in lines if line.startswith("#player")] == nicks


# Refusals and the ways out --------------------------------------------------------------------
def test_upwords_games_have_no_gcg():
    game = domain.check_create_game(ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"])
    with pytest.raises(InputError) as caught:
        game_to_gcg(game)
    assert caught.value.code == "no_gcg"
    assert "crossword games" in caught.value.message


def test_the_api_export_address_points_to_the_one_gcg_address(client):
    game = letterup()
    act(game, "play", tiles=HOUSE)
    response = client.get(f"/api/games/{game.pk}/export?format=gcg")
    assert response.status_code == 308
    assert response["Location"] == f"/games/{game.pk}/export.gcg"
    followed = client.get(response["Location"])
    assert followed["Content-Type"] == "text/plain; charset=utf-8"
    assert followed.content.decode() == gcg(game)


def test_the_gcg_address_refuses_an_upwords_game_with_a_page(client):
    game = domain.check_create_game(ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"])
    response = client.get(f"/api/games/{game.pk}/export?format=gcg", follow=True)
    assert response.status_code == 404
    assert "GCG is a format for the crossword games" in response.content.decode()


def test_export_command_writes_gcg():
    game = letterup()
    act(game, "play", tiles=HOUSE)
    out = io.StringIO()
    call_command("export_game", str(game.pk), "--format", "gcg", stdout=out)
    assert out.getvalue() == gcg(game)


def test_export_command_refuses_gcg_for_upwords():
    game = domain.check_create_game(ruleset="upwords-10", lexicon="CLUB", players=["Ann", "Ben"])
    with pytest.raises(CommandError, match="GCG is a format for the crossword games"):
        call_command("export_game", str(game.pk), "--format", "gcg", stdout=io.StringIO())


def test_a_pass_on_time_is_a_pass_line_and_its_note_and_reads_back_so():
    from scorekeeper.games.sentences import ON_TIME
    from scorekeeper.games.turn_kinds import describe
    from scorekeeper.models import Turn
    from scorekeeper.records.gcg_import import import_gcg

    game = letterup(turn_clock=75)
    act(game, "play", tiles=HOUSE)
    act(game, "pass", note=ON_TIME)
    assert moves(game) == [">Ann: EHOSU 8D HOUSE +24 24", ">Ben: - +0 0", "#note on time"]
    text = gcg(game)
    Game.objects.filter(pk=game.pk).delete()  # read back as a game that is not here
    again = import_gcg(text).game
    passed = Turn.objects.get(game=again, number=2)
    assert passed.note == ON_TIME and describe(passed) == "Ben passed on time."
