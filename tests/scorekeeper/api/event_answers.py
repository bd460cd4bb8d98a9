"""A recorded set of requests to the events' API and their answers, as ``api_answers.py`` records
the games' (the same recorder, placeholders and fixed clocks).

``scenario`` makes a club and its events through ``/api/clubs/`` and ``/api/tournaments/``:
every route of ``scorekeeper.api.events``, each refusal it can answer (401, 403, 404, 409,
422), a round paired each way, a table's game played through ``/api/games/``, late entries, a
withdrawal, a forfeit, results typed in, corrected and voided, the standings, the files'
redirects, the event's date, archive and tonight, its deletion.

Beside ``api_answers.py``'s placeholders, an event's number (which PostgreSQL's sequences leave
different from run to run) → ``<event-N>``; a game's token, wherever an answer names one, →
``<token-N>``; an account's token → ``<token-N>`` too.

``tests/fixtures/event_answers.<database>.json`` holds the recording; to record again (after a
change meant to alter an answer, reviewed in the diff):
``RECORD_API_ANSWERS=1 pytest tests/scorekeeper/api/test_event_answers.py``.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from django.db import connection
from django.test import Client

from scorekeeper.api.accounts import new_account_token
from tests.factories import account

from .api_answers import FIXTURES, MOOD, Recorder, fixed_clocks, tiles


def recording() -> Path:
    return FIXTURES / f"event_answers.{connection.vendor}.json"


PLAYERS = [
    {"name": "Ann Archer", "rating": 1700, "career_games": 100},
    {"name": "Ben Baker", "rating": 1600, "career_games": 100},
    {"name": "Cy Cole", "rating": 1500, "career_games": 10},
    {"name": "Di Dunn", "rating": 0},
]
DIVIDED = [
    {"name": "Ed East", "rating": 1800, "division": "A"},
    {"name": "Flo Fox", "rating": 1700, "division": "A"},
    {"name": "Gus Gray", "rating": 1200, "division": "B"},
    {"name": "Hal Hunt", "rating": 1100, "division": "B"},
]
T_FILE = (
    "Archer, Ann 1700 2; 412\nBaker, Ben 1600 1; 377\nCole, Cy 1500 4; 350\nDunn, Di 0 3; 300\n"
)

_EVENT = re.compile(r"(/tournaments/)(\d+)")
_ID = re.compile(r'("id": )(\d+)')


class EventRecorder(Recorder):
    """The recorder, learning each token an answer hands out and naming events by their order."""

    def __init__(self, client: Client) -> None:
        super().__init__(client)
        self.events: dict[str, str] = {}
        plain = self.normalize

        def normalize(text: str) -> str:
            text = _EVENT.sub(lambda m: m.group(1) + self.event_name(m.group(2)), text)
            text = _ID.sub(lambda m: m.group(1) + self.event_name(m.group(2)), text)
            return plain(text)

        self.normalize = normalize  # type: ignore[assignment]
        self.plain = plain

    def event_name(self, number: str) -> str:
        if number not in self.events:
            self.events[number] = f"<event-{len(self.events) + 1}>"
        return self.events[number]

    def send(self, name: str, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        response = super().send(name, method, path, body, **kwargs)
        if response.get("Content-Type", "").startswith("application/json") and response.content:
            self.learn(response.json())
            self.entries[-1]["body"] = self.normalize(response.content.decode())
        return response

    def learn(self, answer: Any) -> None:
        """Every ``token`` of an answer, however deep (a round's tables carry their games')."""
        if isinstance(answer, dict):
            for key, value in answer.items():
                if key == "token" and isinstance(value, str):
                    self.plain.learn_token(value)
                else:
                    self.learn(value)
        elif isinstance(answer, list):
            for item in answer:
                self.learn(item)


def scenario(rec: EventRecorder) -> None:  # noqa: PLR0915 - one long, readable script
    send = rec.send
    dora = new_account_token(account("dora"))
    eve = new_account_token(account("eve"))
    rec.plain.learn_token(dora)
    rec.plain.learn_token(eve)

    def as_dora(name: str, method: str, path: str, body: Any = None, **kw: Any) -> Any:
        return send(name, method, path, body, token=dora, **kw)

    # A club ---------------------------------------------------------------------------------
    send("club: no account", "POST", "/api/clubs/", {"name": "Riverside"})
    send("club: bad token", "POST", "/api/clubs/", {"name": "Riverside"}, token="nope")
    as_dora("club", "POST", "/api/clubs/", {"name": "Riverside"})
    as_dora("club: name taken", "POST", "/api/clubs/", {"name": "riverside"})
    as_dora("club: no name", "POST", "/api/clubs/", {})

    # Events ---------------------------------------------------------------------------------
    new = "/api/clubs/riverside/tournaments/"
    rules = {"ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}
    made = as_dora("event", "POST", new, {"name": "Friday", **rules, "players": PLAYERS})
    friday = made.json()["id"]
    as_dora("event: every field", "POST", new, {
        "name": "Saturday", "date": "2026-02-07", "ruleset": "upwords-10", "lexicon": "honour",
        "challenge_mode": "manual", "rounds": 5, "bye_spread": 40, "forfeit_spread": 60,
        "repeats_allowed": 0, "gibson": {"on": False, "spread": 300, "prize_places": 2},
        "fontes_rounds": 3, "rejected_challenge": "minus_5",
        "clock": {"kind": "player", "minutes": 25}, "players": PLAYERS,
    })  # fmt: skip
    divided = as_dora("event: divisions", "POST", new,
                      {"name": "Divided", **rules, "players": DIVIDED}).json()["id"]  # fmt: skip
    send("event: no account", "POST", new, {"name": "X", **rules, "players": PLAYERS})
    send("event: not a director", "POST", new, {"name": "X", **rules, "players": PLAYERS},
         token=eve)  # fmt: skip
    as_dora("event: unknown club", "POST", "/api/clubs/nowhere/tournaments/",
            {"name": "X", **rules, "players": PLAYERS})  # fmt: skip
    as_dora("event: no players", "POST", new, {"name": "X", **rules, "players": []})
    as_dora("event: a name twice", "POST", new,
            {"name": "X", **rules, "players": [PLAYERS[0], PLAYERS[0]]})  # fmt: skip
    as_dora("event: no usual game", "POST", new,
            {"name": "X", "rounds": 2, "players": PLAYERS})  # fmt: skip
    as_dora("event: unknown ruleset", "POST", new,
            {"name": "X", **rules, "ruleset": "nope", "players": PLAYERS})  # fmt: skip
    as_dora("event: too many rounds", "POST", new,
            {"name": "X", **rules, "rounds": 99, "players": PLAYERS})  # fmt: skip
    as_dora("event: rating too high", "POST", new,
            {"name": "X", **rules, "players": [{"name": "A", "rating": 9999}]})  # fmt: skip
    imported = as_dora(
        "import", "POST", new + "import", {"name": "Imported", **rules, "t_file": T_FILE}
    )
    as_dora("import: not a .t file", "POST", new + "import",
            {"name": "X", **rules, "t_file": "hello"})  # fmt: skip
    send("import: not a director", "POST", new + "import",
         {"name": "X", **rules, "t_file": T_FILE}, token=eve)  # fmt: skip
    send("list", "GET", new)
    send("list: unknown club", "GET", "/api/clubs/nowhere/tournaments/")

    # Rounds ---------------------------------------------------------------------------------
    event = f"/api/tournaments/{friday}"
    send("pair: no account", "POST", f"{event}/rounds/", {"method": "swiss"})
    send("pair: not a director", "POST", f"{event}/rounds/", {"method": "swiss"}, token=eve)
    as_dora("pair: unknown event", "POST", "/api/tournaments/999999/rounds/", {"method": "swiss"})
    as_dora("pair: unknown method", "POST", f"{event}/rounds/", {"method": "dance"})
    as_dora("pair: not the next round", "POST", f"{event}/rounds/", {"method": "swiss", "round": 3})
    as_dora("pair: manual, unknown name", "POST", f"{event}/rounds/",
            {"method": "manual", "pairings": [["Ann Archer", "Nobody"]]})  # fmt: skip
    first = as_dora("pair: round 1 (swiss)", "POST", f"{event}/rounds/", {"method": "swiss"})
    as_dora("swap: round 1", "POST", f"{event}/rounds/1/swap",
            {"players": ["Ann Archer", "Cy Cole"]})  # fmt: skip
    as_dora("swap: unknown player", "POST", f"{event}/rounds/1/swap",
            {"players": ["Ann Archer", "Nobody"]})  # fmt: skip
    as_dora("swap: no such round", "POST", f"{event}/rounds/7/swap",
            {"players": ["Ann Archer", "Cy Cole"]})  # fmt: skip
    as_dora("unpair: round 1", "DELETE", f"{event}/rounds/1")
    as_dora("unpair: no such round", "DELETE", f"{event}/rounds/1")
    send("unpair: not a director", "DELETE", f"{event}/rounds/1", token=eve)
    first = as_dora("pair: round 1 again (manual)", "POST", f"{event}/rounds/",
                    {"method": "manual", "round": 1,
                     "pairings": [["Ann Archer", "Ben Baker"], ["Cy Cole", "Di Dunn"]]})  # fmt: skip
    tables = first.json()["pairings"]
    game = tables[0]["game"]
    turns = f"/api/games/{game['id']}/turns/"
    send("play at table 1", "POST", turns, {"action": "play", "tiles": tiles(MOOD)},
         token=game["token"])  # fmt: skip
    as_dora("unpair: begun", "DELETE", f"{event}/rounds/1")
    as_dora("swap: begun", "POST", f"{event}/rounds/1/swap",
            {"players": ["Ann Archer", "Cy Cole"]})  # fmt: skip
    send("finish table 1", "POST", turns, {"action": "finish", "racks": {"Ann Archer": "", "Ben Baker": "QZ"}},
         token=game["token"])  # fmt: skip
    result = {"round": 1, "player1": "Cy Cole", "score1": 310, "player2": "Di Dunn", "score2": 295}
    send("result: not a director", "POST", f"{event}/results/", result, token=eve)
    as_dora("result: unknown player", "POST", f"{event}/results/", {**result, "player2": "Nobody"})
    as_dora(
        "result: not paired so", "POST", f"{event}/results/", {**result, "player2": "Ann Archer"}
    )
    as_dora("result: a game played in the app", "POST", f"{event}/results/",
            {"round": 1, "player1": "Ann Archer", "score1": 1, "player2": "Ben Baker",
             "score2": 2})  # fmt: skip
    as_dora("result: typed in", "POST", f"{event}/results/", result)
    as_dora("result: typed in again", "POST", f"{event}/results/", result)
    send("standings after round 1", "GET", f"{event}/standings")
    send("results after round 1", "GET", f"{event}/results/")

    # Late entries, withdrawals, forfeits ----------------------------------------------------
    as_dora("late entry", "POST", f"{event}/players/",
            {"players": [{"name": "Eve Ely", "rating": 1400}]})  # fmt: skip
    as_dora("late entry: a name taken", "POST", f"{event}/players/",
            {"players": [{"name": "Ann Archer"}]})  # fmt: skip
    as_dora("late entry: unknown division", "POST", f"{event}/players/",
            {"players": [{"name": "Zed", "division": "Q"}]})  # fmt: skip
    send("late entry: not a director", "POST", f"{event}/players/",
         {"players": [{"name": "Zed"}]}, token=eve)  # fmt: skip
    second = as_dora("pair: round 2 (koth)", "POST", f"{event}/rounds/", {"method": "koth"})
    paired = second.json()
    as_dora(
        "forfeit",
        "POST",
        f"{event}/forfeits/",
        {"round": 2, "absent": paired["pairings"][0]["first"]},
    )
    as_dora(
        "forfeit: again",
        "POST",
        f"{event}/forfeits/",
        {"round": 2, "absent": paired["pairings"][0]["first"]},
    )
    as_dora(
        "forfeit: unknown player", "POST", f"{event}/forfeits/", {"round": 2, "absent": "Nobody"}
    )
    as_dora(
        "forfeit: no such round", "POST", f"{event}/forfeits/", {"round": 9, "absent": "Ann Archer"}
    )
    as_dora("withdraw", "POST", f"{event}/withdrawals/", {"name": paired["pairings"][1]["first"]})
    as_dora(
        "withdraw: again", "POST", f"{event}/withdrawals/", {"name": paired["pairings"][1]["first"]}
    )
    as_dora("withdraw: unknown player", "POST", f"{event}/withdrawals/", {"name": "Nobody"})
    send(
        "withdraw: not a director",
        "POST",
        f"{event}/withdrawals/",
        {"name": "Ann Archer"},
        token=eve,
    )

    # Corrections ----------------------------------------------------------------------------
    as_dora("correct: a typed result", "PUT", f"{event}/results/", {**result, "score1": 320})
    as_dora("correct: a forfeit to a result", "PUT", f"{event}/results/",
            {"round": 2, "player1": paired["pairings"][0]["first"], "score1": 400,
             "player2": paired["pairings"][0]["second"], "score2": 380})  # fmt: skip
    as_dora("correct: a game played in the app", "PUT", f"{event}/results/",
            {"round": 1, "player1": "Ann Archer", "score1": 1, "player2": "Ben Baker",
             "score2": 2})  # fmt: skip
    as_dora(
        "correct: not paired so", "PUT", f"{event}/results/", {**result, "player2": "Ann Archer"}
    )
    send("correct: not a director", "PUT", f"{event}/results/", result, token=eve)
    as_dora(
        "void: a typed result", "POST", f"{event}/results/void", {"round": 1, "player": "Cy Cole"}
    )
    as_dora(
        "void: nothing to void", "POST", f"{event}/results/void", {"round": 1, "player": "Cy Cole"}
    )
    as_dora("void: a game played in the app", "POST", f"{event}/results/void",
            {"round": 1, "player": "Ann Archer"})  # fmt: skip
    as_dora(
        "void: unknown player", "POST", f"{event}/results/void", {"round": 1, "player": "Nobody"}
    )
    send("results after corrections", "GET", f"{event}/results/")
    send("results: unknown event", "GET", "/api/tournaments/999999/results/")

    # Standings and files --------------------------------------------------------------------
    send("standings", "GET", f"{event}/standings")
    send("standings: unknown event", "GET", "/api/tournaments/999999/standings")
    send("standings: of a division", "GET", f"/api/tournaments/{divided}/standings?division=A")
    send("standings: no division named", "GET", f"/api/tournaments/{divided}/standings")
    send("standings: unknown division", "GET", f"/api/tournaments/{divided}/standings?division=Q")
    send("standings.csv", "GET", f"{event}/standings.csv")
    send("standings.csv: unknown event", "GET", "/api/tournaments/999999/standings.csv")
    send("export.t", "GET", f"{event}/export.t")
    send("export.t: of a division", "GET", f"/api/tournaments/{divided}/export.t?division=B")
    send("export.t: unknown event", "GET", "/api/tournaments/999999/export.t")
    send(
        "standings of the imported event",
        "GET",
        f"/api/tournaments/{imported.json()['id']}/standings",
    )
    send(
        "results of the imported event", "GET", f"/api/tournaments/{imported.json()['id']}/results/"
    )

    # The event itself -----------------------------------------------------------------------
    as_dora("change: date", "PATCH", event, {"date": "2026-02-06"})
    as_dora("change: tonight", "PATCH", event, {"tonight": True})
    as_dora("change: not tonight", "PATCH", event, {"tonight": False})
    as_dora("change: archive", "PATCH", event, {"archived": True})
    send("standings of an archived event", "GET", f"{event}/standings")
    as_dora("change: back", "PATCH", event, {"archived": False})
    as_dora("change: bad date", "PATCH", event, {"date": "not a date"})
    send("change: not a director", "PATCH", event, {"archived": True}, token=eve)
    as_dora("change: unknown event", "PATCH", "/api/tournaments/999999", {"archived": True})
    as_dora("delete: an event with results", "DELETE", event)
    send("delete: not a director", "DELETE", f"/api/tournaments/{divided}", token=eve)
    as_dora("delete", "DELETE", f"/api/tournaments/{divided}")
    as_dora("delete: gone", "DELETE", f"/api/tournaments/{divided}")
    send("list at the end", "GET", new)


def difference(want: dict[str, object], got: dict[str, object]) -> str:
    """Where two answers differ, line by line (a body split at its commas)."""
    lines = [
        json.dumps({**entry, "body": str(entry["body"]).split(", ")}, indent=1).splitlines()
        for entry in (want, got)
    ]
    return "\n".join(difflib.unified_diff(*lines, "recorded", "now", lineterm="", n=1))


def record(client: Client) -> list[dict[str, Any]]:
    """The scenario's answers, normalized."""
    recorder = EventRecorder(client)
    with fixed_clocks(recorder):
        scenario(recorder)
    return recorder.entries
