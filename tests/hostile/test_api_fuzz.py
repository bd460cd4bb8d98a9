"""Hostile input to the JSON API: every answer is a 4xx with a JSON error, never a 500, and a
refused request leaves every game exactly as it was.

Each example runs in a savepoint that is rolled back, so every example meets the same games
(the ``games`` fixture): fresh, mid-game, tournament-style with a play to challenge, finished,
and solo.
"""

from __future__ import annotations

import json
import string
import uuid
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench.sequences import tiles
from scorekeeper.api.serialize import game_state
from tests.factories import ApiGame
from tests.hostile.clients import (
    HOSTILE,
    api_error,
    assert_game_created,
    assert_turn_entered,
    rolled_back,
    snapshot,
)

pytestmark = pytest.mark.django_db

MB = 1024 * 1024
GAMES = st.sampled_from(["fresh", "midgame", "manual", "finished", "solo"])


# Strategies ------------------------------------------------------------------------------------
NASTY_TEXT = [
    "",
    " ",
    "\x00",
    "A\x00",
    "\ud800",  # a lone surrogate: not encodable as UTF-8
    "\udcff",
    "\u202eA",  # right-to-left override
    "\u200f\u05d0",  # right-to-left mark, Hebrew alef
    "\u0627\u0644",  # Arabic
    "😀",
    "👩‍👩‍👧",
    "ß",  # upper-cases to SS
    "ﬁ",  # upper-cases to FI
    "\u0130",  # İ, dotted capital I: lower-cases to i and a dot
    "\u0131",  # ı, dotless i: upper-cases to I
    "\u212a",  # the Kelvin sign K: lower-cases to k
    "Ａ",  # fullwidth A
    "A\u0301",  # A and a combining accent
    "Qu",
    "QU",
    "q",
    "a",
    "Z",
    ".",
    "%s%n",
    "<script>alert(1)</script>",
    "'; DROP TABLE scorekeeper_game; --",
    "../../etc/passwd",
    "Ann",
    "ann",
    "ANN ",
    "A" * 81,
    "W" * 10_000,
]
nasty_text = st.one_of(
    st.sampled_from(NASTY_TEXT),
    st.text(max_size=12),
    st.text(st.characters(codec=None, categories=["Cs", "Cc", "Cf", "Mn", "Zs"]), max_size=6),
    st.text(st.sampled_from("AEIOUMODWNSQZqu"), min_size=1, max_size=3),
)
BIG_INTS = [0, 1, -1, 7, 8, 9, 10, 14, 15, 16, 2**15, 2**31, 2**63, -(2**63) - 1, 10**30, -(10**30)]
ints = st.one_of(st.sampled_from(BIG_INTS), st.integers(), st.integers(-2, 16))
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities too: Python's json reads them
    | nasty_text
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["action", "tiles", "row"]), children, max_size=5
        )
    ),
    max_leaves=20,
)
# Where a number is wanted: numbers of every size, and everything else.
int_ish = st.one_of(
    ints,
    ints,
    st.floats(),
    st.booleans(),
    st.none(),
    ints.map(str),
    st.lists(ints, max_size=2),
    st.just({"$gt": 0}),
)
letter_ish = st.one_of(
    st.sampled_from(list("AEIOUDMNOSTW") + ["QU", "Qu", "q"]),
    nasty_text,
    st.integers(),
    st.none(),
    st.lists(st.just("A"), max_size=2),
)


def broken(required: dict[str, Any], optional: dict[str, Any] | None = None):
    """Objects with these fields, where any field may be missing and junk fields may be added."""
    fields = st.fixed_dictionaries(required, optional=optional or {})
    return st.tuples(
        fields,
        st.sets(st.sampled_from(sorted(required)), max_size=len(required)),
        st.dictionaries(st.text(max_size=10), json_values, max_size=2),
    ).map(lambda t: {**{k: v for k, v in t[0].items() if k not in t[1]}, **t[2]})


on_board = st.integers(0, 9)
good_tile = st.builds(
    lambda r, c, letter: {"row": r, "col": c, "letter": letter},
    on_board,
    on_board,
    st.sampled_from(list("AEIOUDMNOSTW") + ["QU"]),
)
hostile_tile = st.one_of(
    good_tile,
    broken({"row": int_ish, "col": int_ish, "letter": letter_ish}),
    json_values,
)


@st.composite
def duplicate_squares(draw) -> list[dict[str, Any]]:
    tile = draw(good_tile)
    return [
        tile,
        {**tile, "letter": draw(st.sampled_from("AEIOU"))},
        *draw(st.lists(good_tile, max_size=3)),
    ]


@st.composite
def eight_in_a_row(draw) -> list[dict[str, Any]]:
    """One tile more than a rack holds, in a line through the start squares."""
    row = draw(st.integers(0, 9))
    letters = draw(st.lists(st.sampled_from("AEIOUDMNOST"), min_size=8, max_size=8))
    return [{"row": row, "col": c, "letter": letter} for c, letter in enumerate(letters, 1)]


tile_lists = st.one_of(
    st.lists(good_tile, max_size=20),
    st.lists(hostile_tile, max_size=20),
    duplicate_squares(),
    eight_in_a_row(),
    st.lists(good_tile, min_size=64, max_size=80),
    json_values,
)
racks_ish = st.one_of(
    st.dictionaries(
        nasty_text | st.sampled_from(["Ann", "Ben", "Ed", "Flo", "Ida"]), nasty_text, max_size=4
    ),
    json_values,
)
actions = st.one_of(
    st.sampled_from(["play", "pass", "exchange", "challenge", "undo", "finish"]),
    st.sampled_from(["PLAY", "Play ", "resign", "", "play\x00", "undo;pass"]),
    json_values,
)


@st.composite
def words_in_a_line(draw) -> list[dict[str, Any]]:
    """A word of the club list across or down near the centre: often legal on a fresh board."""
    word = draw(st.sampled_from(["MOOD", "CAT", "ZAG", "QI", "OX", "TO", "ON", "NET", "LEAP"]))
    row, col = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    across = draw(st.booleans())
    return [
        {"row": row + (0 if across else i), "col": col + (i if across else 0), "letter": letter}
        for i, letter in enumerate(word)
    ]


SEATED = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida"]
# Turns a scorer might really send, right or wrong by the rules.
plausible_turns = st.fixed_dictionaries(
    {
        "action": st.sampled_from(
            ["play", "play", "pass", "exchange", "challenge", "undo", "finish", "correct"]
            + ["abandon"]
        )
    },
    optional={
        "tiles": st.one_of(
            words_in_a_line(),
            st.lists(good_tile, min_size=1, max_size=8),
            duplicate_squares(),
            eight_in_a_row(),
        ),
        "count": st.integers(-1, 8),
        "racks": st.dictionaries(
            st.sampled_from(SEATED), st.text("AEIOUQZ", max_size=8), max_size=2
        ),
        "expected_turn": st.integers(-1, 8),
        "target": st.integers(-1, 8),
        "by": st.text(max_size=20),
    },
)
turn_bodies = plausible_turns | broken(
    {"action": actions},
    {
        "tiles": tile_lists,
        "count": int_ish,
        "racks": racks_ish,
        "expected_turn": int_ish,
        "target": int_ish,
        "by": nasty_text | json_values,
    },
)
# A game a club might really start: a known ruleset and list; names and options anything.
names = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=12) | nasty_text
plausible_games = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(
            ["upwords-10", "upwords-8", "letterup-classic", "letterup-rush"]
        ),
        "lexicon": st.sampled_from(["CLUB", "club", "honour"]),
        "players": st.lists(names, min_size=1, max_size=4),
    },
    optional={
        "challenge_mode": st.sampled_from(["auto", "manual", "Auto", ""]),
        "options": st.fixed_dictionaries(
            {},
            optional={
                "plural_s_rule": st.booleans() | st.just("yes"),
                "upheld_challenge": st.sampled_from(["retry", "lose_turn", "never"]),
                "rejected_challenge": st.sampled_from(["none", "lose_turn", "minus_5", "minus_6"]),
                "solo_exchanges": st.integers(-1, 6),
            },
        ),
        "first": names,
        "turn_clock": st.none() | st.integers(0, 4000),
    },
)
game_bodies = plausible_games | broken(
    {
        "ruleset": st.sampled_from(["upwords-10", "upwords-8", "letterup-classic", "letterup-rush"])
        | nasty_text
        | json_values,
        "players": st.one_of(
            st.lists(nasty_text, max_size=6),
            st.lists(st.sampled_from(["Ann", "Ben", "Jo", "Kit"]), max_size=5),
            json_values,
        ),
    },
    {
        "lexicon": st.sampled_from(["CLUB", "club", "honour", "HONOUR", "CSW19x", ""])
        | nasty_text
        | json_values,
        "challenge_mode": st.sampled_from(["auto", "manual"]) | nasty_text | json_values,
        "options": st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "plural_s_rule": json_values,
                    "upheld_challenge": st.sampled_from(["retry", "lose_turn"]) | json_values,
                    "rejected_challenge": st.sampled_from(["none", "minus_5"]) | json_values,
                    "solo_exchanges": int_ish,
                },
            ),
            json_values,
        ),
        "first": nasty_text | json_values,
        "turn_clock": int_ish,
    },
)


def encoded(value: Any, style: str) -> bytes:
    """JSON as a client might send it: ASCII-escaped, raw UTF-8, or UTF-8 keeping lone surrogates."""
    if style == "ascii":
        return json.dumps(value).encode()
    text = json.dumps(value, ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass" if style == "surrogates" else "replace")


styles = st.sampled_from(["ascii", "utf-8", "surrogates"])


# Checking the answers --------------------------------------------------------------------------
def assert_json_error(response) -> dict[str, Any]:
    if response.request["REQUEST_METHOD"] == "HEAD":  # no body to read
        assert 400 <= response.status_code < 500, response.status_code
        return {}
    return api_error(response.status_code, response["Content-Type"], response.content)


def assert_legitimate_turn(before: dict[str, Any], response, body: dict[str, Any], game_id: str):
    """A turn was entered: exactly one, on this game only, by the rules."""
    data = response.json()
    game = assert_turn_entered(before, game_id, body["action"])
    assert data["turn"]["action"] == body["action"]
    assert data["turn"]["number"] == game.last_entry_number
    assert data["game"] == game_state(game)


def send_turn(client, game: ApiGame, payload: bytes, *, auth: str | None = "right", **extra):
    headers = dict(extra)
    if auth == "right":
        headers["HTTP_AUTHORIZATION"] = f"Bearer {game.token}"
    elif auth is not None:
        headers["HTTP_AUTHORIZATION"] = auth
    return client.post(
        f"/api/games/{game.id}/turns/", payload, content_type="application/json", **headers
    )


# Turns -----------------------------------------------------------------------------------------
@HOSTILE
@given(key=GAMES, body=json_values, style=styles)
@example(key="fresh", body=[{"action": "pass"}], style="ascii")
@example(key="fresh", body="pass", style="ascii")
@example(key="fresh", body=None, style="ascii")
def test_turn_bodies_of_any_shape_are_refused(hostile, games, key, body, style):
    game = games[key]
    with rolled_back():
        before = snapshot()
        payload = encoded(body, style)
        response = send_turn(hostile, game, payload)
        if response.status_code == 201:  # a JSON value that happens to be a legal turn
            assert_legitimate_turn(before, response, json.loads(payload), game.id)
        else:
            assert_json_error(response)
            assert snapshot() == before


@settings(HOSTILE, max_examples=400)
@given(key=GAMES, body=turn_bodies, style=styles)
@example(
    key="fresh",
    body={"action": "play", "tiles": tiles([(4, c, "A") for c in range(1, 9)])},
    style="ascii",
)
@example(
    key="fresh", body={"action": "play", "tiles": tiles([(4, 4, "M"), (4, 4, "O")])}, style="ascii"
)
@example(
    key="fresh",
    body={"action": "play", "tiles": [{"row": -1, "col": 4, "letter": "A"}]},
    style="ascii",
)
@example(
    key="fresh",
    body={"action": "play", "tiles": [{"row": 10**30, "col": 4, "letter": "A"}]},
    style="ascii",
)
@example(
    key="fresh",
    body={"action": "play", "tiles": [{"row": 4.0, "col": 4, "letter": "A"}]},
    style="ascii",
)
@example(
    key="fresh",
    body={"action": "play", "tiles": [{"row": True, "col": 4, "letter": "A"}]},
    style="ascii",
)
@example(
    key="fresh",
    body={"action": "play", "tiles": [{"row": 4, "col": 4, "letter": "😀"}]},
    style="utf-8",
)
@example(key="fresh", body={"action": "pass", "by": "A\x00"}, style="ascii")
@example(key="fresh", body={"action": "pass", "by": "\ud800"}, style="surrogates")
@example(key="fresh", body={"action": "exchange", "count": 10**30}, style="ascii")
@example(key="fresh", body={"action": "pass", "expected_turn": -(10**30)}, style="ascii")
@example(key="manual", body={"action": "finish", "racks": {"\ud800": "QZ"}}, style="ascii")
@example(key="midgame", body={"action": "undo", "extra": {"nested": [[[]]]}}, style="ascii")
def test_near_valid_turns_are_refused_or_entered_by_the_rules(hostile, games, key, body, style):
    game = games[key]
    with rolled_back():
        before = snapshot()
        payload = encoded(body, style)
        response = send_turn(hostile, game, payload)
        if response.status_code == 201:  # as the server read it: "replace" may have changed it
            assert_legitimate_turn(before, response, json.loads(payload), game.id)
        else:
            assert_json_error(response)
            assert snapshot() == before


raw_bodies = st.one_of(
    st.binary(max_size=300),
    st.binary(max_size=40).map(lambda b: b"\xff\xfe" + b),  # never valid UTF-8
    st.sampled_from(
        [
            b"",
            b"{",
            b'{"action": "pass"',
            b'{"action": "pass"}}',
            b'{"action": "pass"}\x00',
            b'\xef\xbb\xbf{"action": "pass"}',  # a byte-order mark
            b'{"action": "\xc3\x28"}',  # invalid UTF-8 inside a string
            b'{"action": "pass", "action": "undo"}',
            b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser recurses
            b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
            b"1" * 5_000,  # more digits than Python converts
            b'{"action": "exchange", "count": 1' + b"0" * 5_000 + b"}",
            b'{"action": "exchange", "count": 1e999}',
            b'{"action": "exchange", "count": NaN}',
            b'{"action": "exchange", "count": -Infinity}',
            b"action=pass",
            b"<xml><action>pass</action></xml>",
            '{"action": "pass", "by": "\u00e9"}'.encode("latin-1"),
            '{"action": "pass"}'.encode("utf-16"),
        ]
    ),
)
content_types = st.sampled_from(
    [
        "application/json",
        "application/json; charset=latin-1",
        "application/json; charset=utf-16",
        "application/json; charset=nonsense",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "multipart/form-data",
        "",
    ]
)


@settings(HOSTILE, max_examples=150)
@given(key=GAMES, payload=raw_bodies, content_type=content_types, create=st.booleans())
def test_raw_bodies_are_refused(hostile, games, key, payload, content_type, create):
    game = games[key]
    url = "/api/games/" if create else f"/api/games/{game.id}/turns/"
    with rolled_back():
        before = snapshot()
        # generic() sends the bytes as they are, whatever charset the content type names.
        response = hostile.generic(
            "POST",
            url,
            payload,
            content_type=content_type,
            HTTP_AUTHORIZATION=f"Bearer {game.token}",
        )
        if response.status_code == 201:  # e.g. a byte-order mark or UTF-16, which json reads
            assert not create
            assert_legitimate_turn(before, response, json.loads(payload), game.id)
        else:
            assert_json_error(response)
            assert snapshot() == before


HUGE = [
    ("junk bytes", b"x" * (3 * MB)),
    ("one long string", json.dumps({"action": "pass", "by": "A" * (3 * MB)}).encode()),
    (
        "many tiles",
        json.dumps(
            {"action": "play", "tiles": [{"row": 4, "col": 4, "letter": "A"}] * 100_000}
        ).encode(),
    ),
    (
        "just over the limit",
        json.dumps({"action": "pass", "pad": "x" * (int(2.5 * MB) + 1)}).encode(),
    ),
]


@pytest.mark.parametrize("create", [False, True], ids=["turn", "create"])
@pytest.mark.parametrize("payload", [body for _, body in HUGE], ids=[name for name, _ in HUGE])
def test_huge_bodies_are_refused_as_too_large(hostile, games, payload, create):
    game = games["fresh"]
    url = "/api/games/" if create else f"/api/games/{game.id}/turns/"
    before = snapshot()
    response = hostile.post(
        url, payload, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {game.token}"
    )
    assert response.status_code == 413
    assert assert_json_error(response)["code"] == "too_large"
    assert snapshot() == before


def test_a_body_just_under_the_limit_is_read_and_refused(hostile, games):
    game = games["fresh"]
    before = snapshot()
    payload = json.dumps({"action": "pass", "by": "A" * (2 * MB)}).encode()
    response = send_turn(hostile, game, payload)
    assert response.status_code == 400
    assert "by" in assert_json_error(response)["message"]
    assert snapshot() == before


# Tokens ----------------------------------------------------------------------------------------
def token_accepted(header: str | None, token: str) -> bool:
    if header is None:
        return False
    scheme, _, given_token = header.partition(" ")
    return scheme.lower() == "bearer" and given_token.strip() == token


@st.composite
def authorizations(draw, token: str, other: str) -> str | None:
    """Authorization headers, mostly "Bearer <something near the token>"."""
    near = draw(
        st.sampled_from(
            [
                token,
                token[:-1],
                token + "x",
                token.upper(),
                token.swapcase(),
                token[::-1],
                other,
                f" {token} ",
                "",
                " ",
                "null",
                "\x00" * len(token),
                token + "\x00",
                token.replace(token[0], "é", 1),
            ]
        )
        | st.text(
            string.ascii_letters + string.digits + "-_", min_size=len(token), max_size=len(token)
        )
        | st.text(max_size=40)
    )
    shape = draw(st.sampled_from(["bearer", "bearer", "bearer", "scheme", "bare", "twice", "none"]))
    if shape == "none":
        return None
    if shape == "bare":
        return near
    scheme = "Bearer"
    if shape != "bearer":
        scheme = draw(
            st.sampled_from(["bearer", "BEARER", "Basic", "Token", "Bearer:", "", "Bearer\t"])
            | st.text(max_size=8)
        )
    glue = draw(st.sampled_from([" ", "  ", "", "\t", " \n "])) if shape != "bearer" else " "
    return f"{scheme}{glue}{near}" + (f" {near}" if shape == "twice" else "")


@settings(HOSTILE, max_examples=200)
@given(data=st.data(), key=GAMES, action=st.sampled_from(["pass", "undo", "exchange"]))
def test_wrong_tokens_change_nothing(hostile, games, data, key, action):
    game = games[key]
    other = games["fresh" if key != "fresh" else "midgame"]
    header = data.draw(authorizations(game.token, other.token), label="authorization")
    body = {"action": action, "count": 1} if action == "exchange" else {"action": action}
    with rolled_back():
        before = snapshot()
        response = send_turn(hostile, game, json.dumps(body).encode(), auth=header)
        if token_accepted(header, game.token):
            assert response.status_code not in (401, 403)
            if response.status_code == 201:
                assert_legitimate_turn(before, response, body, game.id)
                return
        else:
            assert response.status_code in (401, 403), (header, response.status_code)
            if response.status_code == 401:
                assert response["WWW-Authenticate"] == "Bearer"
        assert_json_error(response)
        assert snapshot() == before


# Game ids, methods and query strings -----------------------------------------------------------
game_ids = st.one_of(
    st.uuids().map(str),
    st.uuids().map(lambda u: str(u).upper()),
    st.uuids().map(lambda u: u.hex),
    st.text(max_size=60),
    st.sampled_from(
        [
            "0",
            "-1",
            "null",
            "..",
            "%00",
            "00000000-0000-0000-0000-000000000000",
            "' OR 1=1 --",
            "{}",
            "1e400",
        ]
    ),
)


def resolves(game_id: str, games: dict[str, ApiGame]) -> str | None:
    """The real game an id names (the API reads any spelling of a UUID), else None."""
    try:
        wanted = str(uuid.UUID(game_id))
    except ValueError:
        return None
    return next((key for key, game in games.items() if game.id == wanted), None)


@settings(HOSTILE, max_examples=150)
@given(
    game_id=game_ids,
    which=st.sampled_from(["get", "export", "turns"]),
    query=st.dictionaries(
        st.sampled_from(["format", "turn", "x"]) | st.text(max_size=5), nasty_text, max_size=3
    ),
    real=st.sampled_from([None, None, "fresh", "finished"]),
)
def test_unknown_and_malformed_game_ids(hostile, games, game_id, which, query, real):
    if real is not None:
        game_id = games[real].id  # a real game, with hostile query strings
    path = f"/api/games/{quote(game_id, safe='')}/"
    path += {"get": "", "export": "export", "turns": "turns/"}[which]
    qs = urlencode(query, encoding="utf-8", errors="surrogatepass")
    found = resolves(game_id, games)
    with rolled_back():
        before = snapshot()
        if which == "turns":
            response = hostile.post(
                f"{path}?{qs}",
                b'{"action": "pass"}',
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Bearer {games['fresh'].token}",
            )
        else:
            response = hostile.get(f"{path}?{qs}")
        if response.status_code == 201:
            assert found == "fresh" and which == "turns"
            assert_legitimate_turn(before, response, {"action": "pass"}, games["fresh"].id)
            return
        if response.status_code == 308:
            # The export's old address points to the one address of each format.
            assert found is not None and which == "export"
            assert response["Location"].startswith(f"/games/{games[found].id}/export.")
        elif response.status_code < 300:
            assert found is not None and which != "turns"
        else:
            error = assert_json_error(response)
            if found is None and response.status_code not in (400, 405):
                # 400: a format the export doesn't know, read before the id;
                # 405: "x/turns" as an id makes a path that only takes POST.
                assert response.status_code == 404 and error["code"] == "not_found"
        assert snapshot() == before


METHODS = [
    "GET",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "HEAD",
    "OPTIONS",
    "TRACE",
    "CONNECT",
    "PROPFIND",
    "BREW",
]


@settings(HOSTILE, max_examples=100)
@given(
    method=st.sampled_from(METHODS),
    where=st.sampled_from(
        ["/api/games/", "game", "turns", "export", "/api/rulesets", "/api/lexicons", "/api/nowhere"]
    ),
    body=json_values,
)
def test_wrong_methods_are_refused_with_json(hostile, games, method, where, body):
    game = games["fresh"]
    path = {
        "game": f"/api/games/{game.id}/",
        "turns": f"/api/games/{game.id}/turns/",
        "export": f"/api/games/{game.id}/export",
    }.get(where, where)
    allowed = {"/api/games/": "POST", "turns": "GET, POST"}.get(where, "GET")
    if method in allowed.split(", "):
        return  # the right method is exercised by the other tests
    with rolled_back():
        before = snapshot()
        response = hostile.generic(
            method,
            path,
            json.dumps(body),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {game.token}",
        )
        error = assert_json_error(response)
        if where == "/api/nowhere":
            assert response.status_code == 404
        else:
            assert response.status_code == 405, (method, path, response.status_code)
            assert set(response["Allow"].split(", ")) == set(allowed.split(", "))
            if error:
                assert error["code"] == "method_not_allowed"
        assert snapshot() == before


# Starting games --------------------------------------------------------------------------------
@settings(HOSTILE, max_examples=150)
@given(body=game_bodies, style=styles)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A\x00", "B"]}, style="ascii"
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A\ud800", "B"]}, style="ascii"
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "ann"]}, style="ascii"
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["Ann", "A" * 41]}, style="ascii"
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A", "B", "C", "D", "E"]},
    style="ascii",
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A", "B"], "turn_clock": 10**30},
    style="ascii",
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB", "players": ["A", "B"], "first": "\ud800"},
    style="surrogates",
)
@example(
    body={
        "ruleset": "upwords-10",
        "lexicon": "CLUB",
        "players": ["A", "B"],
        "options": {"solo_exchanges": True},
    },
    style="ascii",
)
@example(
    body={"ruleset": "upwords-10", "lexicon": "CLUB\x00", "players": ["A", "B"]}, style="ascii"
)
def test_new_game_bodies_are_refused_or_make_one_game(hostile, games, body, style):
    with rolled_back():
        before = snapshot()
        payload = encoded(body, style)
        response = hostile.post("/api/games/", payload, content_type="application/json")
        if response.status_code == 201:
            body = json.loads(payload)  # as the server read it: "replace" may have changed it
            data = response.json()
            game = assert_game_created(before, data["id"])
            assert game.token == data["token"]
            assert game_state(game) == {
                k: v for k, v in data.items() if k not in ("token", "scorer_url")
            }
            assert data["scorer_url"] == f"/games/{game.pk}/score/{game.token}/"
            # The names are the ones sent, tidied (a known player keeps the case first given).
            names = [p["name"].casefold() for p in data["players"]]
            assert names == [" ".join(n.split()).casefold() for n in body["players"]]
        else:
            assert_json_error(response)
            assert snapshot() == before


NAME_CLASHES = [  # (a player already known, the names of a new game)
    ("Ida", ["İda", "Bo"]),  # dotted capital I: LOWER gives "ida", UPPER doesn't match "IDA"
    ("kit", ["\u212ait", "Bo"]),  # Kelvin sign K: LOWER gives "kit"
    (None, ["I", "ı"]),  # dotless i: casefold tells them apart, UPPER doesn't
]


@pytest.mark.parametrize(
    ("known", "names"), NAME_CLASHES, ids=["dotted capital I", "Kelvin sign", "dotless i"]
)
def test_names_that_only_unicode_case_rules_tell_apart(hostile, client, known, names):
    if known:
        ApiGame(client, players=[known, "Zed"])
    body = {"ruleset": "upwords-10", "lexicon": "CLUB", "players": names}
    response = hostile.post("/api/games/", json.dumps(body), content_type="application/json")
    assert response.status_code in (201, 400), response.status_code
