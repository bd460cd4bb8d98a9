"""A recorded set of API requests and their answers, to prove the answers never change by accident.

``scenario`` sends a fixed sequence of requests through Django's test client: every route of
``scorekeeper.api.endpoints`` and every status it declares or can reach (a game created, its state, every
turn kind, each refusal 400/401/403/404/405/409/413/422/429/503, log pages, analysis complete and
cut short, a GCG import, the lists, the export redirects, an idempotent replay). Each answer is
kept as its status, content type, ``Location`` and ``Retry-After`` headers, and its exact body.

What differs from run to run is replaced by placeholders, never dropped, each distinct value by
its own numbered placeholder, the same value by the same one everywhere (bodies, paths, headers):

- a game's token (learned from the answer that hands it out) → ``<token-N>``;
- a UUID (a game's id) → ``<uuid-N>``;
- an ISO timestamp → ``<time-N>``.

The clocks are fixed so that the rest is the same on every run: ``django.utils.timezone.now``
answers a fixed instant, one second later for each request (so two timestamps are equal exactly
when the same request wrote them), and the rate limits' clock stands still (every request falls
in the same window, and a refusal's "try again in N s" is always the same N).

``tests/fixtures/api_answers.<database>.json`` holds the recording (``sqlite``, ``postgresql``). ``test_api_answers.py`` replays the
scenario and compares; to record again (after a change meant to alter an answer, reviewed in the
diff): ``RECORD_API_ANSWERS=1 pytest tests/scorekeeper/api/test_api_answers.py``.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

from django.db import OperationalError, connection
from django.test import Client, override_settings

from referee import get_library

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def recording() -> Path:
    """The recording for this database: PostgreSQL's jsonb gives a game's ``options`` back in
    its own key order, so the answers differ there in that order alone."""
    return FIXTURES / f"api_answers.{connection.vendor}.json"


START = datetime(2026, 1, 31, 12, 0, 0, 123456, tzinfo=UTC)
LIMITS_CLOCK = 1_800_000_030.0  # half a minute into a rate limit's minute window

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")

MOOD = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")]
MOOX = [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "X")]  # not in the CLUB list
HASBRO = [  # RULES.md §3's first five turns
    [(4, 3, "M"), (4, 4, "O"), (4, 5, "O"), (4, 6, "D")],
    [(5, 6, "E"), (6, 6, "A"), (7, 6, "R")],
    [(5, 5, "N"), (5, 7, "T")],
    [(4, 3, "W")],
    [(4, 6, "L"), (7, 6, "P")],
]
DEARS = [(5, 6, "E"), (6, 6, "A"), (7, 6, "R"), (8, 6, "S")]
WORDS = "DEARS LEAPS"  # beside the CLUB list, for the correction

GCG = """#character-encoding UTF-8
#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETAINS +60 60
>bo: DEIOSTU 9C OUTSIDE +0 0
"""
GCG_MISMATCH = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETAINS +60 60
>bo: ADEEIOU -  +0 0
"""
GCG_BROKEN = """#player1 ann Ann
#player2 bo Bo
>ann: AEINRST 8D RETAINS +66 66
>bo: ADEEIOU ZZ9 NOPE +5 5
"""


def tiles(triples: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    return [{"row": r, "col": c, "letter": t} for r, c, t in triples]


def empty(size: int) -> list[list[list[str]]]:
    return [[[] for _ in range(size)] for _ in range(size)]


class Normalizer:
    """Numbered placeholders for what differs between runs; the same value, the same one."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, str]] = {"token": {}, "uuid": {}, "time": {}}

    def _name(self, kind: str, value: str) -> str:
        names = self.seen[kind]
        if value not in names:
            names[value] = f"<{kind}-{len(names) + 1}>"
        return names[value]

    def learn_token(self, token: str) -> None:
        self._name("token", token)

    def __call__(self, text: str) -> str:
        for token, name in self.seen["token"].items():
            text = text.replace(token, name)
        text = _UUID.sub(lambda m: self._name("uuid", m.group()), text)
        return _TIME.sub(lambda m: self._name("time", m.group()), text)


class Recorder:
    """Sends the scenario's requests and keeps each answer, normalized."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.normalize = Normalizer()
        self.entries: list[dict[str, Any]] = []
        self.now = START

    def send(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        *,
        raw: str | None = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        self.now = START + timedelta(seconds=len(self.entries))
        extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
        extra.update({f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items()})
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        if method == "GET":
            response = self.client.get(path, **extra)
        else:
            response = self.client.generic(
                method, path, data or "", content_type="application/json", **extra
            )
        content = response.content.decode()
        if content and response.get("Content-Type", "").startswith("application/json"):
            answer = json.loads(content)
            found = answer.get("token") if isinstance(answer, dict) else None
            if isinstance(found, str):
                self.normalize.learn_token(found)
        entry: dict[str, Any] = {"name": name, "method": method, "path": self.normalize(path)}
        if raw is not None:
            entry["request"] = raw if len(raw) <= 200 else f"<{len(raw)} characters>"
        elif body is not None:
            entry["request"] = self.normalize(json.dumps(body))
        entry["status"] = response.status_code
        entry["content_type"] = response.get("Content-Type")
        for header in ("Location", "Retry-After"):
            if response.has_header(header):
                entry[header.lower()] = self.normalize(response[header])
        entry["body"] = self.normalize(content)
        self.entries.append(entry)
        return response


@contextmanager
def fixed_clocks(recorder: Recorder) -> Iterator[None]:
    with (
        mock.patch("django.utils.timezone.now", lambda: recorder.now),
        mock.patch("scorekeeper.http.limits.time") as limits_time,
    ):
        limits_time.time.return_value = LIMITS_CLOCK
        yield


class Game:
    """A game made through the recorder."""

    def __init__(self, rec: Recorder, name: str, **fields: Any) -> None:
        body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "Ben"], **fields}
        response = rec.send(name, "POST", "/api/games/", body)
        assert response.status_code == 201, response.content
        self.rec, self.id, self.token = rec, response.json()["id"], response.json()["token"]
        self.turns = f"/api/games/{self.id}/turns/"

    def turn(self, name: str, body: dict[str, Any], **kwargs: Any) -> Any:
        kwargs.setdefault("token", self.token)
        return self.rec.send(name, "POST", self.turns, body, **kwargs)

    def play(self, name: str, triples: list[tuple[int, int, str]], **extra: Any) -> Any:
        return self.turn(name, {"action": "play", "tiles": tiles(triples), **extra})


def scenario(rec: Recorder) -> None:  # noqa: PLR0915 - one long, readable script
    send = rec.send
    # The lists ------------------------------------------------------------------------------
    send("rulesets", "GET", "/api/rulesets")
    send("lexicons", "GET", "/api/lexicons")

    # New games ------------------------------------------------------------------------------
    game = Game(rec, "create game")
    Game(
        rec,
        "create game with every field",
        ruleset="letterup-classic",
        players=["Ann", "Ben", "Cy"],
        challenge_mode="manual",
        first="Ben",
        turn_clock=60,
    )
    Game(rec, "create honour game", ruleset="letterup-rush", lexicon="honour")
    send("create: unknown ruleset", "POST", "/api/games/", {"ruleset": "x", "players": ["A"]})
    send("create: no players", "POST", "/api/games/", {"ruleset": "upwords-10", "players": []})
    send("create: malformed", "POST", "/api/games/", {"ruleset": 7, "players": "Ann"})
    send("create: bad option", "POST", "/api/games/",
         {"ruleset": "upwords-10", "players": ["A"], "options": {"nope": 1}})  # fmt: skip
    send("create: not JSON", "POST", "/api/games/", raw="{not json")
    send("create: NUL in a name", "POST", "/api/games/",
         {"ruleset": "upwords-10", "players": ["A\u0000"]})  # fmt: skip
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1024):
        send("create: too large", "POST", "/api/games/", raw=json.dumps({"players": ["x" * 2000]}))
    with override_settings(RATE_LIMIT_GAMES=1):
        send("create: rate limited", "POST", "/api/games/", {"ruleset": "upwords-10"})

    # A game's state -------------------------------------------------------------------------
    send("state of a new game", "GET", f"/api/games/{game.id}/")
    send("state: unknown game", "GET", "/api/games/00000000-0000-0000-0000-000000000000/")
    send("state: not an id", "GET", "/api/games/not-a-uuid/")
    send("state: no trailing slash", "GET", f"/api/games/{game.id}")
    send("state: method not allowed", "DELETE", f"/api/games/{game.id}/")
    send("unknown API address", "GET", "/api/nothing-here")

    # Turns ----------------------------------------------------------------------------------
    send("turn: unknown game", "POST", "/api/games/00000000-0000-0000-0000-000000000000/turns/",
         {"action": "pass"}, token="x")  # fmt: skip
    send("turn: no token", "POST", game.turns, {"action": "pass"})
    game.turn("turn: not bearer", {"action": "pass"}, headers={"Authorization": "Basic abc"})
    game.turn("turn: wrong token", {"action": "pass"}, token="nope")
    game.turn("turn: unknown action", {"action": "dance"})
    game.turn("turn: malformed", {"action": "play", "tiles": [{"row": "a"}]})
    game.turn("turn: not JSON", {}, raw="[")
    game.play("turn: illegal play (invalid word)", MOOX)
    game.play("turn: illegal play (off the board)", [(4, 30, "M")])
    game.play("turn: play", MOOD, expected_turn=1, by="Ann")
    game.play("turn: stale expected_turn", [(5, 6, "E")], expected_turn=1)
    game.turn("turn: play by notation", {"action": "play", "notation": "G5 .EAR"})
    game.turn("turn: pass", {"action": "pass"})
    game.turn("turn: exchange", {"action": "exchange", "count": 1})
    game.turn("turn: exchange without a count", {"action": "exchange"})
    game.turn("turn: undo", {"action": "undo", "by": "Ben"})
    game.turn("turn: penalty (not through the API)", {"action": "penalty"})
    game.turn("turn: void (not a club game)", {"action": "void"})
    game.turn("turn: challenge in auto mode", {"action": "challenge"})
    game.turn("turn: finish with an unknown rack", {"action": "finish", "racks": {"Zed": "A"}})
    with override_settings(RATE_LIMIT_TURNS=1):
        game.turn("turn: rate limited", {"action": "pass"})
    with mock.patch(
        "scorekeeper.games.domain.act", side_effect=OperationalError("database is locked")
    ):
        game.turn("turn: database busy", {"action": "pass"})
    key = {"Idempotency-Key": "turn-7"}
    swap = {"action": "exchange", "count": 1}
    game.turn("turn: with an idempotency key", swap, headers=key)
    game.turn("turn: the same key again (replayed)", swap, headers=key)
    game.turn("turn: the same key, another body", {"action": "pass"}, headers=key)
    game.turn(
        "turn: finish with racks",
        {"action": "finish", "racks": {"Ann": "QUZJXKWV", "ben": "AAAAAEE"}},
    )
    game.turn("turn: after the end", {"action": "pass"})

    manual = Game(rec, "create manual game", challenge_mode="manual")
    manual.play("manual: a phony stands", MOOX)
    manual.turn("manual: challenge upheld", {"action": "challenge"})
    manual.play("manual: a good play", MOOD)
    manual.turn("manual: challenge refused", {"action": "challenge"})
    manual.turn("manual: abandon", {"action": "abandon"})

    fixed = Game(rec, "create game to correct")
    for number, triples in enumerate(HASBRO, start=1):
        fixed.play(f"correct: turn {number}", triples)
    fixed.turn("correct: turn 2", {"action": "correct", "target": 2, "tiles": tiles(DEARS)})
    fixed.turn("correct: turn 3 to a pass", {"action": "correct", "target": 3})
    fixed.turn("correct: no such target", {"action": "correct", "target": 99})

    # The log, a page at a time --------------------------------------------------------------
    send("log: first page", "GET", f"{fixed.turns}?limit=2")
    send("log: next page", "GET", f"{fixed.turns}?after=2&limit=2")
    send("log: last page", "GET", f"{fixed.turns}?after=4")
    send("log: past the end", "GET", f"{fixed.turns}?after=99")
    send("log: bad after", "GET", f"{fixed.turns}?after=-1")
    send("log: bad limit", "GET", f"{fixed.turns}?limit=201")
    send("log: finished game", "GET", game.turns)
    send("log: unknown game", "GET", "/api/games/00000000-0000-0000-0000-000000000000/turns/")
    send("state of a finished game", "GET", f"/api/games/{game.id}/")
    send("state of a corrected game", "GET", f"/api/games/{fixed.id}/")

    # Exports (redirects) --------------------------------------------------------------------
    send("export: default", "GET", f"/api/games/{game.id}/export")
    send("export: gcg", "GET", f"/api/games/{game.id}/export?format=gcg")
    send("export: unknown format", "GET", f"/api/games/{game.id}/export?format=pdf")
    send("export: unknown game", "GET", "/api/games/00000000-0000-0000-0000-000000000000/export")

    # Analysis -------------------------------------------------------------------------------
    board = {"ruleset": "upwords-10", "lexicon": "CLUB", "board": empty(10)}
    get_library().get("CLUB").prepare_analysis()
    with override_settings(ANALYSIS_MAX_PLAYS=10**6, ANALYSIS_MAX_MS=600_000):
        send("analysis: complete", "POST", "/api/analysis/", {**board, "rack": "MOOD", "limit": 3})
        send("analysis: limit null", "POST", "/api/analysis/",
             {**board, "rack": "DO", "limit": None})  # fmt: skip
    with override_settings(ANALYSIS_MAX_PLAYS=10, ANALYSIS_MAX_MS=600_000):
        send("analysis: cut short", "POST", "/api/analysis/", {**board, "rack": "MOODEAR"})
    send("analysis: honour", "POST", "/api/analysis/", {**board, "lexicon": "honour", "rack": "A"})
    send("analysis: bad board", "POST", "/api/analysis/", {**board, "board": [], "rack": "A"})
    send("analysis: limit too high", "POST", "/api/analysis/",
         {**board, "rack": "A", "limit": 1001})  # fmt: skip
    lexicon_type = type(get_library().get("CLUB"))
    with (
        mock.patch.object(lexicon_type, "analysis_ready", lambda self: False),
        mock.patch.object(lexicon_type, "prepare_analysis", lambda self: None),
    ):
        send("analysis: preparing", "POST", "/api/analysis/", {**board, "rack": "MOOD"})
    slots = threading.BoundedSemaphore(1)
    slots.acquire()
    with mock.patch("scorekeeper.games.analysis._slots", slots):
        send("analysis: busy", "POST", "/api/analysis/", {**board, "rack": "MOOD"})
    with override_settings(RATE_LIMIT_JUDGE=1):
        send("analysis: rate limited", "POST", "/api/analysis/", {**board, "rack": "MOOD"})

    # Import ---------------------------------------------------------------------------------
    imported = send("import", "POST", "/api/games/import", {"gcg": GCG})
    send("import: mismatch kept", "POST", "/api/games/import", {"gcg": GCG_MISMATCH})
    send("import: strict refuses a mismatch", "POST", "/api/games/import",
         {"gcg": GCG_MISMATCH, "strict": True})  # fmt: skip
    send("import: a broken line", "POST", "/api/games/import", {"gcg": GCG_BROKEN})
    send("import: unknown ruleset", "POST", "/api/games/import", {"gcg": GCG, "ruleset": "x"})
    send("import: not a record", "POST", "/api/games/import", {"gcg": "hello"})
    send("import: no record", "POST", "/api/games/import", {})
    with override_settings(RATE_LIMIT_IMPORTS=1):
        send("import: rate limited", "POST", "/api/games/import", {"gcg": GCG})
    if imported.status_code == 201:
        send("state of an imported game", "GET", f"/api/games/{imported.json()['id']}/")
        send("log of an imported game", "GET", f"/api/games/{imported.json()['id']}/turns/")


def record(client: Client) -> list[dict[str, Any]]:
    """The scenario's answers, normalized."""
    recorder = Recorder(client)
    with fixed_clocks(recorder):
        scenario(recorder)
    return recorder.entries


def dump(entries: list[dict[str, Any]]) -> str:
    return json.dumps(entries, indent=1, ensure_ascii=False) + "\n"
