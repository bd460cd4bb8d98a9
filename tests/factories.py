"""What the app's tests share: games made through the JSON API (``ApiGame``) or the domain,
the scorer's page driven as a browser without a script would (``start``, ``turn``), clubs and
accounts, finished games with every kind of turn, and the small club word list.

Tests import these from here, never from one another (``tests/test_imports.py``).
"""

from __future__ import annotations

import html
import re
import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from bench.sequences import HASBRO, tiles
from scorekeeper.games import domain
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Club, Game, Invitation


class ApiGame:
    """A game created through the API, with helpers to send its turns."""

    def __init__(self, client: Client, **fields: Any) -> None:
        body = {
            "ruleset": "upwords-10",
            "lexicon": "CLUB",
            "players": ["Ann", "Ben"],
            "challenge_mode": "auto",
            **fields,
        }
        response = client.post("/api/games/", body, content_type="application/json")
        assert response.status_code == 201, response.content
        self.client = client
        self.created = response.json()
        self.id = self.created["id"]
        self.token = self.created["token"]

    def turn(self, body: dict[str, Any], token: str | None = None, **headers: str):
        token = self.token if token is None else token
        auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        return self.client.post(
            f"/api/games/{self.id}/turns/", body, content_type="application/json", **auth, **headers
        )

    def play(self, triples: list[tuple[int, int, str]], **extra: Any):
        return self.turn({"action": "play", "tiles": tiles(triples), **extra})

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{self.id}/")
        assert response.status_code == 200
        return response.json()

    def log(self) -> list[dict[str, Any]]:
        """The whole log, read a page at a time as a client would."""
        turns: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            response = self.client.get(f"/api/games/{self.id}/turns/?after={after}")
            assert response.status_code == 200
            page = response.json()
            turns += page["turns"]
            after = page["next"]
        return turns


PASSWORD = "pw-for-tests-only"


# The rack penalty of an Upwords game finished while the bag still holds tiles: 7 tiles, 5 each.
RACK_PENALTY = -35


def account(username: str) -> User:
    return get_user_model().objects.create_user(username, password=PASSWORD)


def make_club(
    name: str = "Riverside",
    *,
    directors: Iterable[User] = (),
    roster: Iterable[str] = ("Ann", "Ben", "Cy"),
) -> Club:
    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    club.directors.add(*directors)
    club.roster.add(*(domain.player_named(n) for n in roster))
    return club


def finished_game(
    names: list[str],
    *,
    club: Club | None,
    plays: int = 2,
    extra: Mapping[int, int] | None = None,
    lexicon: str = "CLUB",
) -> Game:
    """An Upwords game: the first ``plays`` turns of RULES.md §3 (8, 8, 10, ... points, seats
    in turn), then ``extra`` points by seat (as time penalties), then the end: each final score
    is the seat's turns + extra + RACK_PENALTY."""
    game = domain.check_create_game(ruleset="upwords-10", players=names, lexicon=lexicon, club=club)
    for triples, _ in HASBRO[:plays]:
        domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
    for seat, points in (extra or {}).items():
        domain.act(game.pk, domain.TurnCommand("penalty", seat=seat, points=points))
    domain.act(game.pk, domain.TurnCommand("finish"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def messages_of(response: HttpResponse) -> list[str]:
    """The sentences a page's message list says (after a redirect followed), unescaped."""
    page = response.content.decode()
    return [html.unescape(m) for m in re.findall(r'<li class="message[^"]*">([^<]*)</li>', page)]


def answer(client: Client, username: str, choice: str) -> HttpResponse:
    """``client`` (signed in) answers the one invitation waiting for ``username``."""
    invitation = Invitation.objects.get(username=username)
    return client.post(f"/clubs/invitations/{invitation.pk}", {"answer": choice}, follow=True)


CLUB_WORDS = """
MOOD DEAR NET ON WOOD WOOL LEAP SNACK LEAN PLUS NETS CAT CATS AT QUIT HOUSE EXAM ZAG AH GO
JO OX ZA QI HA HE AX TA TO OD DO
"""


def start(client, **fields) -> Game:
    data = {
        "ruleset": "upwords-10",
        "lexicon": "CLUB",
        "player_1": "Ann",
        "player_2": "Ben",
        "challenge_mode": "auto",
        "starter": "1",
        "plural_s_rule": "True",
        "upheld_challenge": "retry",
        "rejected_challenge": "none",
        "solo_exchanges": "0",
        **fields,
    }
    response = client.post("/games/new", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.latest("created_at")
    # The scorer page, without the secret: the browser now holds it in the game's cookie.
    assert response["Location"] == f"/games/{game.pk}/score/"
    return game


def scorer(game: Game) -> str:
    """A scorer page's address; the client needs the game's cookie (``start`` or ``hold``)."""
    return f"/games/{game.pk}/score/"


def hold(client, game) -> None:
    """Give ``client`` the game's scorer cookie, as opening the scorer link does."""
    client.cookies[cookie_name(game.id)] = game.token


def turn(client, game: Game, **data):
    game.refresh_from_db()
    data.setdefault("expected_turn", game.last_entry_number + 1)
    return client.post(scorer(game) + "turn", data)


# Upwords squares of RULES.md §3's worked sequence.
MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]


EAR = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R")]  # DEAR down


N_T = [(5, 5, "N"), (5, 7, "T")]  # NET across, ON down


W_ON_M = [(4, 3, "W")]  # WOOD


L_ON_D = [(4, 6, "L")]  # WOOL, and LEAR down: not in the CLUB list


L_AND_P = [(4, 6, "L"), (7, 6, "P")]  # WOOL and LEAP


HOUSE = [(7, 3, "H"), (7, 4, "O"), (7, 5, "U"), (7, 6, "S"), (7, 7, "E")]  # 8D, 24


# Factories ------------------------------------------------------------------------------------
def new_game(ruleset: str = "upwords-10", **fields: Any) -> Game:
    return domain.check_create_game(
        ruleset=ruleset,
        lexicon="CLUB",
        players=fields.pop("players", ["Ann", "Ben"]),
        challenge_mode=fields.pop("challenge_mode", "manual"),
        **fields,
    )


def upwords_game() -> Game:
    """A finished tournament-style Upwords game with every kind of turn.

    Stacks (W on M, L on D), a challenge rejected (DEAR) and one upheld (LEAR), an undo,
    passes, an exchange, and an end by everyone passing: final scores 30 − 35 and 13 − 35.
    """
    game = new_game()
    for action, fields in [
        ("play", {"tiles": MOOD}),  # 1 Ann 8
        ("play", {"tiles": EAR}),  # 2 Ben 8
        ("challenge", {}),  # 3 Ann challenges DEAR: rejected
        ("play", {"tiles": N_T}),  # 4 Ann 10
        ("play", {"tiles": W_ON_M}),  # 5 Ben 5
        ("play", {"tiles": L_ON_D}),  # 6 Ann 11: WOOL and LEAR
        ("challenge", {}),  # 7 Ben challenges: upheld, Ann tries again
        ("pass", {}),  # 8 Ann
        ("exchange", {"count": 1}),  # 9 Ben
        ("play", {"tiles": L_AND_P}),  # 10 Ann 12 ...
        ("undo", {"by": "Ben"}),  # 11 ... taken back
        ("play", {"tiles": L_AND_P}),  # 12 Ann 12 again
        ("pass", {}),  # 13 Ben
        ("pass", {}),  # 14 Ann: everyone passed, the game ends
    ]:
        domain.act(game.pk, domain.TurnCommand(action, **fields))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def letterup_game() -> Game:
    """Letter UP: HOUSE, two passes each (the game waits for the racks), then the racks."""
    game = new_game("letterup-classic")
    domain.act(game.pk, domain.TurnCommand("play", tiles=HOUSE))
    for _ in range(4):
        domain.act(game.pk, domain.TurnCommand("pass"))
    game.refresh_from_db()
    assert game.status == Game.Status.AWAITING_RACKS
    domain.act(
        game.pk, domain.TurnCommand("finish", racks={0: "AEGINRT", 1: "BCJKQVZ"})
    )  # −9 and −43
    game.refresh_from_db()
    return game


# A club night's tables, numbered out of the order they started in (as tables fill up at random).
NIGHT_TABLES = (7, 3, 11, 1, 9, 5, 2, 10, 4, 8, 6)
NIGHT_NAMES = (
    "Ann Bell", "Ben Cole", "Cy Dunn", "Di Earl", "Ed Ford", "Flo Gray", "Gus Hale", "Hal Irwin",
    "Ida Jones", "Jo Kent", "Kay Lowe", "Lou Moss", "Mo Nash", "Ned Orr", "Oli Park", "Pat Quinn",
    "Ria Ross", "Sam Todd", "Tia Urban", "Ugo Vance", "Val Webb", "Wes Young",
)  # fmt: skip


def club_night(
    tables: Iterable[int] = NIGHT_TABLES, finished: int = 2, lexicon: str = "CLUB"
) -> tuple[Club, list[Game]]:
    """A club (Riverside) with a game in play at each of ``tables``, started in that order, each
    after a turn or two (RULES.md §3), and ``finished`` games over for its standings."""
    numbers = list(tables)
    club = make_club(roster=NIGHT_NAMES)
    games = []
    for i, number in enumerate(numbers):
        names = list(NIGHT_NAMES[2 * i : 2 * i + 2])
        game = domain.check_create_game(
            ruleset="upwords-10", players=names, lexicon=lexicon, club=club, table_number=number
        )
        for triples, _ in HASBRO[: 1 + i % 2]:
            domain.act(game.pk, domain.TurnCommand("play", tiles=triples))
        games.append(game)
    for i in range(finished):
        finished_game(
            [NIGHT_NAMES[-1 - 2 * i], NIGHT_NAMES[-2 - 2 * i]], club=club, lexicon=lexicon
        )
    return club, games


# Photos ---------------------------------------------------------------------------------------
def png_header(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` × ``height`` pixels and holds almost none."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )
