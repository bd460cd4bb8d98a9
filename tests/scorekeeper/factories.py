"""Small factory functions for scorekeeper tests, all going through the JSON API."""

from __future__ import annotations

from typing import Any

from django.test import Client

# RULES.md §3's worked sequence as API tiles, with each turn's score.
HASBRO: list[tuple[list[tuple[int, int, str]], int]] = [
    ([(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")], 8),
    ([(5, 6, "E"), (6, 6, "A"), (7, 6, "R")], 8),
    ([(5, 5, "N"), (5, 7, "T")], 10),
    ([(4, 3, "W")], 5),
    ([(4, 6, "L"), (7, 6, "P")], 12),
    ([(7, 5, "S"), (7, 6, "N"), (7, 7, "A"), (7, 8, "C"), (7, 9, "K")], 14),
    ([(2, 8, "P"), (3, 8, "L"), (4, 8, "U"), (5, 8, "S")], 16),
]


def tiles(triples: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": t} for r, c, t in triples]


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


def largest_gcg_record(entries: int = 2000) -> str:
    """A GCG record as large as an import takes: ``entries`` log entries (2,000 is the log's
    cap), an opening play then time penalties (a turn line no rule limits), each line with a
    note; about 160 kB. The stored game: Ann 66, Bo minus one point a line."""
    lines = ["#player1 ann Ann", "#player2 bo Bo", ">ann: AEINRST 8D RETAINS +66 66"]
    lines.append("#note the opening: a note of the kind annotated records carry on every turn")
    for number in range(1, entries):
        lines.append(f">bo: (time) -1 {-number}")
        lines.append(f"#note turn {number}: a note of the kind annotated records carry")
    return "\n".join(lines) + "\n"
