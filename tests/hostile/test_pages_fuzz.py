"""Hostile input to the pages: forms and query strings answer with a 4xx page that says what
was wrong, never a 500, and a refused form leaves every game exactly as it was.

Forms arrive as the browser sends them (URL-encoded or multipart), so their text is whatever
a client can encode; raw bodies cover the bytes no browser would send.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game, Player
from tests.factories import ApiGame
from tests.hostile.clients import (
    HOSTILE,
    HostileClient,
    assert_game_created,
    assert_turn_entered,
    rolled_back,
    snapshot,
)

pytestmark = pytest.mark.django_db

MB = 1024 * 1024
# What a refusal page shows: the table's refusal, a form field's error, an error page.
MESSAGES = ('role="alert"', 'class="error"', "error-page")
GAMES = st.sampled_from(["fresh", "midgame", "manual", "finished", "solo"])


def scorer_url(game: ApiGame, token: str | None = None) -> str:
    return f"/games/{game.id}/score/{quote(game.token if token is None else token, safe='')}/"


def scorer_page(game: ApiGame) -> str:
    """Where the scorer's actions send the browser: the address without the secret, at the
    board."""
    return f"/games/{game.id}/score/#board"


# Strategies ------------------------------------------------------------------------------------
# Text a browser can send: anything but lone surrogates, which no encoding carries.
form_text = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "Ann\x00",
            "\u202eAnn",
            "\u200f\u05d0\u05d1",
            "😀",
            "👩‍👩‍👧",
            "ß",
            "ﬁ",
            "Ａ",
            "A\u0301",
            "<script>alert(1)</script>",
            "{{ game.token }}",
            "'; DROP TABLE scorekeeper_game; --",
            "%s%n%x",
            "Ann",
            "ann",
            "W" * 41,
            "W" * 5_000,
        ]
    ),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=12),
    st.text(st.characters(categories=["Cc", "Cf", "Mn", "Zs"]), max_size=4),
)
numbers = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(
        [
            "10",
            "75",
            "3600",
            "3601",
            "9" * 30,
            "-" + "9" * 30,
            "1" * 5_000,
            "1e3",
            "1.5",
            "0x10",
            "٣",
            "３",
            " 4 ",
            "+4",
            "1_000",
            "nan",
            "inf",
            "",
        ]
    ),  # fmt: skip
    form_text,
)
plays = st.one_of(
    st.sampled_from(
        [
            "5D MOOD",
            "5d mood",
            "5E ON",
            "8H ZAG",
            "H8 ZAG",
            "D5=M E5=O F5=O G5=D",
            "E5=A F5=A G5=A H5=A I5=A J5=A D5=A C5=A",  # eight tiles
            "E5=A E5=B",  # one square twice
            "5D QuIT",
            "5D Q",
            "0A A",
            "99Z A",
            "-1A A",
            "5D " + "A" * 2_000,
            "Z99=A",
            "E5=",
            "=A",
            "5D",
            "5D MOOD extra",
            "E5=😀",
            "E5=\x00",
        ]
    ),
    st.builds(
        lambda pos, word: f"{pos} {word}",
        st.sampled_from(["5D", "D5", "8H", "H8", "1A", "10J", "J10", "15O", "0A", "11K", "A0"]),
        st.text("AEIOUMODWNSZGQu.", min_size=1, max_size=9),
    ),
    st.lists(
        st.builds(
            lambda col, row, letter: f"{col}{row}={letter}",
            st.sampled_from("ABCDEFGHIJKLMNOPZa"),
            st.integers(0, 16),
            st.sampled_from(["A", "E", "O", "M", "D", "Qu", "q", "", "AA", "😀"]),
        ),
        max_size=9,
    ).map(" ".join),
    form_text,
)
junk_fields = st.dictionaries(
    st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=10),
    form_text,
    max_size=3,
)


def form(required: dict[str, Any], optional: dict[str, Any]):
    """Form data with these fields, any of which may be missing, plus junk fields."""
    return st.tuples(
        st.fixed_dictionaries(required, optional=optional),
        st.sets(st.sampled_from(sorted(required)), max_size=len(required)),
        junk_fields,
    ).map(lambda t: {**t[2], **{k: v for k, v in t[0].items() if k not in t[1]}})


@st.composite
def one_field_wrong(draw, valid: dict[str, Any], wrong: Any) -> dict[str, str]:
    """A form filled in as a person would, then (mostly) one field made hostile."""
    data = draw(st.fixed_dictionaries(valid))
    field = draw(st.sampled_from([None, *sorted(valid)]))
    if field is not None:
        data[field] = draw(wrong)
    return data


names = st.sampled_from(["Ann", "Jo", " Kit ", "Zoë", "李", "O'Neil"]) | form_text
new_game_forms = one_field_wrong(
    {
        "ruleset": st.sampled_from(
            ["upwords-10", "upwords-8", "letterup-classic", "letterup-rush"]
        ),
        "lexicon": st.sampled_from(["CLUB", "honour"]),
        "player_1": names,
        "player_2": st.sampled_from(["Ben", ""]) | names,
        "challenge_mode": st.sampled_from(["auto", "manual"]),
        "starter": st.sampled_from(["draw", "1", "2"]),
        "upheld_challenge": st.sampled_from(["retry", "lose_turn"]),
        "rejected_challenge": st.sampled_from(["none", "lose_turn", "minus_5"]),
        "solo_exchanges": st.sampled_from(["0", "3", "5"]),
        "plural_s_rule": st.sampled_from(["True", "False", ""]),
        "turn_clock": st.sampled_from(["", "75", "10", "3600"]),
    },
    numbers | form_text,
) | form(
    {
        "ruleset": st.sampled_from(["upwords-10", "upwords-8", "letterup-classic", "letterup-rush"])
        | form_text,
        "lexicon": st.sampled_from(["CLUB", "honour", "club", "CSW19x"]) | form_text,
        "player_1": st.sampled_from(["Ann", "Jo", " Kit "]) | form_text,
        "challenge_mode": st.sampled_from(["auto", "manual"]) | form_text,
        "starter": st.sampled_from(["draw", "1", "2", "3", "4"]) | numbers,
        "upheld_challenge": st.sampled_from(["retry", "lose_turn"]) | form_text,
        "rejected_challenge": st.sampled_from(["none", "lose_turn", "minus_5"]) | form_text,
        "solo_exchanges": st.sampled_from(["0", "5"]) | numbers,
    },
    {
        "player_2": st.sampled_from(["Ben", "ann", "Zed"]) | form_text,
        "player_3": form_text,
        "player_4": form_text,
        "plural_s_rule": st.sampled_from(["True", "False", "on", "", "false"]) | form_text,
        "turn_clock": numbers,
    },
)
turn_forms = form(
    {"action": st.sampled_from(["play", "pass", "exchange", "challenge", "undo", "finish"])},
    {
        "play": plays,
        "count": numbers,
        "expected_turn": numbers,
        "rack_0": form_text | st.sampled_from(["QZ", "AEIOUDM", ""]),
        "rack_1": form_text | st.sampled_from(["QZ", "AEIOUDM", ""]),
        "rack_7": form_text,
    },
) | form({"action": form_text}, {"play": plays})
# Tokens as a scorer link might be mangled: cut short, one letter wrong, another game's, junk.
raw_query = st.text(st.characters(max_codepoint=255), max_size=40)


def query(fields: dict[str, Any]):
    return st.one_of(
        st.fixed_dictionaries(fields).map(lambda d: "?" + urlencode(d)),  # every field, plausible
        st.dictionaries(
            st.sampled_from(sorted(fields)) | st.text(max_size=6),
            st.one_of(*fields.values()) | form_text,
            max_size=5,
        ).map(lambda d: "?" + urlencode(d)),
        st.lists(
            st.tuples(st.sampled_from(sorted(fields)), st.one_of(*fields.values()) | form_text),
            max_size=5,
        ).map(lambda pairs: "?" + urlencode(pairs)),  # the same field twice
        raw_query.map(lambda q: "?" + q),
    )


# Checking the answers --------------------------------------------------------------------------
def assert_refusal_page(response) -> str:
    """A 4xx, with a page that says what was wrong (a 405 names the allowed methods)."""
    assert response.status_code < 500, (response.status_code, response.content[:300])
    assert 400 <= response.status_code < 500, response.status_code
    if response.status_code == 405:
        assert response["Allow"]
        return ""
    assert response["Content-Type"].startswith("text/html"), response["Content-Type"]
    html = response.content.decode()
    assert any(marker in html for marker in MESSAGES), html[:2000]
    return html


def assert_page(response) -> str:
    """A page that rendered: a 200 (or a redirect), never a 5xx."""
    assert response.status_code < 500, (response.status_code, response.content[:300])
    if response.status_code >= 400:
        return assert_refusal_page(response)
    return response.content.decode()


def assert_legitimate_turn(
    before: dict[str, Any], response, game: ApiGame, action: str | None = None
) -> None:
    """The scorer page entered one turn (``action``, if known), by the rules, on this game only,
    and sends the scorer back to the board."""
    assert response.status_code == 302 and response["Location"] == scorer_page(game)
    entered = Game.objects.get(pk=game.id).turns.latest("number")
    assert action is None or entered.action == action
    assert_turn_entered(before, game.id, entered.action)


# New game --------------------------------------------------------------------------------------
@settings(HOSTILE, max_examples=120)
@given(data=new_game_forms, multipart=st.booleans())
@example(data={"player_1": "Ann\x00", "ruleset": "upwords-10", "lexicon": "CLUB"}, multipart=True)
@example(data={"player_1": "W" * 5_000, "starter": "9" * 30}, multipart=False)
def test_new_game_form_refuses_or_makes_one_game(hostile, games, data, multipart):
    with rolled_back():
        before = snapshot()
        if multipart:
            response = hostile.post("/games/new", data)
        else:
            response = hostile.post(
                "/games/new", urlencode(data), content_type="application/x-www-form-urlencoded"
            )
        if response.status_code == 302:
            (new,) = [g for g in snapshot()["Game"] if g not in before["Game"]]
            game = assert_game_created(before, str(new["id"]))
            assert response["Location"] == f"/games/{game.pk}/score/"  # no secret in it
            assert response.cookies[cookie_name(game.pk)].value == game.token
            names = [s.player.name for s in game.seats.select_related("player").order_by("order")]
            typed = [data.get(f"player_{i}", "").strip() for i in range(1, 5)]
            assert [n.casefold() for n in names] == [
                " ".join(n.split()).casefold() for n in typed if n
            ]
        else:
            assert response.status_code == 400, response.status_code
            assert_refusal_page(response)
            assert snapshot() == before


@pytest.mark.parametrize(
    ("known", "names"),
    [("Ida", ["İda", "Bo"]), ("kit", ["\u212ait", "Bo"]), (None, ["I", "ı"])],
    ids=["dotted capital I", "Kelvin sign", "dotless i"],
)
def test_names_that_only_unicode_case_rules_tell_apart(hostile, client, known, names):
    if known:
        ApiGame(client, players=[known, "Zed"])
    fields = {"ruleset": "upwords-10", "lexicon": "CLUB", "player_1": names[0],
              "player_2": names[1], "challenge_mode": "auto", "starter": "1",
              "upheld_challenge": "retry", "rejected_challenge": "none",
              "solo_exchanges": "0"}  # fmt: skip
    response = hostile.post("/games/new", fields)
    assert response.status_code in (302, 400), response.status_code


# The scorer's page: turns and preview ----------------------------------------------------------
@settings(HOSTILE, max_examples=250)
@given(key=GAMES, data=turn_forms, multipart=st.booleans())
@example(
    key="fresh",
    data={"action": "play", "play": "E5=A F5=A G5=A H5=A I5=A J5=A D5=A C5=A"},
    multipart=True,
)
@example(key="fresh", data={"action": "play", "play": "E5=A E5=B"}, multipart=True)
@example(key="fresh", data={"action": "exchange", "count": "9" * 30}, multipart=True)
@example(key="fresh", data={"action": "pass", "expected_turn": "1" * 5_000}, multipart=True)
@example(key="manual", data={"action": "finish", "rack_0": "\x00", "rack_1": "😀"}, multipart=True)
@example(key="finished", data={"action": "pass"}, multipart=True)
def test_turn_form_refuses_with_a_reason_or_enters_one_turn(hostile, games, key, data, multipart):
    game = games[key]
    url = scorer_url(game) + "turn"
    with rolled_back():
        before = snapshot()
        if multipart:
            response = hostile.post(url, data)
        else:
            response = hostile.post(
                url, urlencode(data), content_type="application/x-www-form-urlencoded"
            )
        if response.status_code == 302 and snapshot() == before:
            # The same turn sent again (its number taken by that very turn): one turn, not two.
            assert response["Location"] == scorer_page(game)
        elif response.status_code == 302:
            assert_legitimate_turn(before, response, game, data["action"])
        else:
            # Refused: back to the scorer page (303, so a reload never resends) with the reason.
            assert response.status_code == 303, response.status_code
            assert response["Location"] == scorer_page(game)
            html = assert_page(hostile.get(response["Location"]))
            refusal = re.search(r"<strong>Not entered\.</strong>(.*?)</div>", html, re.S)
            assert refusal and refusal.group(1).strip(), html[:2000]
            assert snapshot() == before


@settings(HOSTILE, max_examples=120)
@given(key=GAMES, text=plays, junk=junk_fields, htmx=st.booleans())
def test_preview_never_changes_a_game(hostile, games, key, text, junk, htmx):
    game = games[key]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with rolled_back():
        before = snapshot()
        response = hostile.post(scorer_url(game) + "preview", {**junk, "play": text}, **headers)
        assert response.status_code == 200, response.status_code
        html = response.content.decode()
        if text.strip():  # its score, what it still lacks, or why not
            assert any(f'class="{said}"' in html for said in ("ok", "unfinished", "bad")), html
        assert snapshot() == before


tokens = st.one_of(
    st.text(max_size=40),
    st.text(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=32, max_size=32
    ),
    st.sampled_from(["", " ", "\x00", "null", "..", "%00", "😀"]),
)
game_ids = st.one_of(
    st.uuids().map(str),
    st.text(max_size=40).map(lambda t: quote(t, safe="")),
    st.sampled_from(["00000000-0000-0000-0000-000000000000", "0", "-1", "..", "%00"]),
)


# What a cookie can carry: printable ASCII (anything else is not sent as one).
cookie_values = st.one_of(
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=40),
    st.sampled_from(["null", "..", "%00", '""', "a;b", "a=b"]),
)
# The scorer's pages at their addresses without the secret, read (GET) or written (POST).
SCORER_PAGES = [("", "get"), ("correct", "get"), ("hand-over", "get"), ("qr.svg", "get"),
                ("turn", "post"), ("preview", "post"), ("correct", "post"), ("abandon", "post"),
                ("first", "post"), ("new-link", "post")]  # fmt: skip


@settings(HOSTILE, max_examples=120)
@given(
    key=GAMES,
    data=st.data(),
    page=st.sampled_from(SCORER_PAGES),
    mangle=st.sampled_from(
        ["none", "made up", "other game's", "cut short", "one letter", "case", "other name"]
    ),
    body=turn_forms,
)
def test_wrong_scorer_cookies_change_nothing(games, key, data, page, mangle, body):
    """Without the game's own cookie, no scorer page opens, reads the secret or changes a thing."""
    game = games[key]
    other = games["fresh" if key != "fresh" else "midgame"]
    client = HostileClient()  # holds nothing from earlier examples
    name, value = cookie_name(game.id), None
    if mangle == "made up":
        value = data.draw(cookie_values, label="cookie")
    elif mangle == "other game's":
        value = other.token
    elif mangle == "cut short":
        value = game.token[:-1]
    elif mangle == "one letter":
        value = ("x" if game.token[0] != "x" else "y") + game.token[1:]
    elif mangle == "case":
        value = game.token.swapcase()
    elif mangle == "other name":  # the right secret under another game's cookie
        name, value = cookie_name(other.id), game.token
    if value == game.token and name == cookie_name(game.id):
        return  # a made-up value that happens to be the right one
    if value is not None:
        client.cookies[name] = value
    where, method = page
    path = f"/games/{game.id}/score/{where}"
    with rolled_back():
        before = snapshot()
        response = client.post(path, body) if method == "post" else client.get(path)
        assert response.status_code == 403, (path, response.status_code)
        html = assert_refusal_page(response)
        assert game.token not in html and other.token not in html
        assert cookie_name(game.id) not in response.cookies  # nothing handed out
        assert snapshot() == before


@settings(HOSTILE, max_examples=150)
@given(
    key=GAMES,
    data=st.data(),
    where=st.sampled_from(["", "turn", "preview"]),
    mangle=st.sampled_from(
        ["token", "other game's token", "cut short", "one letter", "id", "case"]
    ),
    body=turn_forms,
)
def test_wrong_scorer_links_change_nothing(hostile, games, key, data, where, mangle, body):
    game = games[key]
    other = games["fresh" if key != "fresh" else "midgame"]
    path = scorer_url(game)
    if mangle == "token":
        path = f"/games/{game.id}/score/{quote(data.draw(tokens, label='token'), safe='')}/"
    elif mangle == "other game's token":
        path = scorer_url(game, other.token)
    elif mangle == "cut short":
        path = scorer_url(game, game.token[:-1])
    elif mangle == "one letter":
        path = scorer_url(game, ("x" if game.token[0] != "x" else "y") + game.token[1:])
    elif mangle == "id":
        path = f"/games/{data.draw(game_ids, label='id')}/score/{quote(game.token, safe='')}/"
    elif mangle == "case":
        path = scorer_url(game, game.token.swapcase())
    if path == scorer_url(game):
        return  # a token string that happens to be the right one
    with rolled_back():
        before = snapshot()
        response = hostile.post(path + where, body) if where else hostile.get(path)
        assert response.status_code in (403, 404), (path, response.status_code)
        html = assert_refusal_page(response)
        assert game.token not in html
        assert snapshot() == before


# The read-only pages ---------------------------------------------------------------------------
@settings(HOSTILE, max_examples=120)
@given(
    q=query(
        {
            "lexicon": st.sampled_from(["CLUB", "CLUB", "CSW19", "club", "CSW19x", "honour", ""]),
            "words": st.one_of(
                st.sampled_from(
                    ["MOOD", "mood zag", "MOOD,ZAG;QI", "A " * 21, "A" * 16, "MO0D", "Ｍ"]
                ),
                st.lists(
                    st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=16), max_size=22
                ).map(" ".join),
            ),
            "each": st.sampled_from(["on", "off", "", "1"]),
        }
    )
)
@example(q="?lexicon=CLUB&words=%00&each=on")
@example(q="?lexicon=CLUB&words=" + "A%20" * 400)
def test_word_judge_query_strings(hostile, games, q):
    with rolled_back():
        before = snapshot()
        response = hostile.get("/judge/" + q)
        assert response.status_code in (200, 400), response.status_code
        html = assert_page(response)
        assert "Word judge" in html
        assert snapshot() == before


dates = st.one_of(
    st.dates().map(str),
    st.sampled_from(
        ["0001-01-01", "9999-12-31", "2025-02-30", "2025-13-01", "03/04/2025", "-1", "10000-01-01"]
    ),
    form_text,
)


@settings(HOSTILE, max_examples=100)
@given(
    q=query(
        {
            "player": st.sampled_from(["Ann", "an", "%", "_", "\\"]),
            "ruleset": st.sampled_from(["upwords-10", "letterup-rush", "chess"]),
            "status": st.sampled_from(["in_progress", "finished", "awaiting_racks", "won"]),
            "date_from": dates,
            "date_to": dates,
            "from": dates,
            "until": dates,
            "page": numbers,
        }
    )
)
def test_game_list_query_strings(hostile, games, q):
    with rolled_back():
        before = snapshot()
        response = hostile.get("/games/" + q)
        assert response.status_code in (200, 400), response.status_code
        assert_page(response)
        assert snapshot() == before


@settings(HOSTILE, max_examples=100)
@given(key=GAMES, q=query({"turn": numbers}), htmx=st.booleans(), restore=st.booleans())
@example(key="midgame", q="?turn=" + "9" * 5_000, htmx=False, restore=False)
@example(key="midgame", q="?turn=-1", htmx=True, restore=False)
def test_game_page_turn_query(hostile, games, key, q, htmx, restore):
    game = games[key]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    if restore:
        headers["HTTP_HX_HISTORY_RESTORE_REQUEST"] = "true"
    with rolled_back():
        before = snapshot()
        response = hostile.get(f"/games/{game.id}/" + q, **headers)
        assert response.status_code in (200, 400), response.status_code
        assert_page(response)
        assert game.token not in response.content.decode()
        assert snapshot() == before


@settings(HOSTILE, max_examples=100)
@given(
    q=query(
        {
            "ruleset": st.sampled_from(["upwords-10", "letterup-classic", "", "chess"]),
            "sort": st.sampled_from(["best", "average", "wins", "worst", ""]),
        }
    )
)
def test_rankings_query_strings(hostile, games, q):
    with rolled_back():
        before = snapshot()
        response = hostile.get("/rankings/" + q)
        assert response.status_code in (200, 400), response.status_code
        assert_page(response)
        assert snapshot() == before


@settings(HOSTILE, max_examples=100)
@given(
    player=st.one_of(
        st.sampled_from(
            ["0", "1", "2", "9" * 30, "9223372036854775807", "9223372036854775808", "2147483648"]
        ),
        st.integers(0, 10**40).map(str),
        st.text(max_size=10).map(lambda t: quote(t, safe="")),
        st.just("a real player"),
    ),
    q=raw_query,
)
def test_player_pages(hostile, games, player, q):
    known = set(Player.objects.values_list("pk", flat=True))
    if player == "a real player":
        player = str(max(known))
    with rolled_back():
        before = snapshot()
        response = hostile.get(f"/players/{player}/?{q}")
        if re.fullmatch("[0-9]+", player) and int(player) in known:
            assert response.status_code == 200
        else:
            assert response.status_code == 404, (player, response.status_code)
            assert_refusal_page(response)
        assert snapshot() == before


@settings(HOSTILE, max_examples=100)
@given(
    key=GAMES,
    game_id=game_ids,
    real=st.booleans(),
    what=st.sampled_from(["", "export.json", "export.gcg", "watch", "watch/live"]),
    etag=st.none() | st.text(st.characters(max_codepoint=255), max_size=30) | st.just("*"),
)
def test_game_links(hostile, games, key, game_id, real, what, etag):
    game = games[key]
    path = f"/games/{game.id if real else game_id}/{what}"
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag is not None else {}
    with rolled_back():
        before = snapshot()
        response = hostile.get(path, **headers)
        if real:
            # GCG is for Letter UP only: an Upwords game answers 404 with a page saying so.
            assert response.status_code in (200, 304, 404), response.status_code
        else:
            assert response.status_code == 404, (path, response.status_code)
        assert_page(response)
        assert game.token not in response.content.decode()
        assert snapshot() == before


PAGES = [
    "/",
    "/games/new",
    "scorer",
    "turn",
    "preview",
    "/judge/",
    "/games/",
    "game",
    "/rankings/",
    "player",
    "watch",
]


@settings(HOSTILE, max_examples=100)
@given(
    page=st.sampled_from(PAGES),
    method=st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "BREW"]),
    body=turn_forms,
)
def test_page_methods(hostile, games, page, method, body):
    game = games["fresh"]
    player = Player.objects.order_by("pk").first()
    path = {
        "scorer": scorer_url(game),
        "turn": scorer_url(game) + "turn",
        "preview": scorer_url(game) + "preview",
        "game": f"/games/{game.id}/",
        "player": f"/players/{player.pk}/",
        "watch": f"/games/{game.id}/watch",
    }.get(page, page)
    with rolled_back():
        before = snapshot()
        response = hostile.generic(
            method, path, urlencode(body), content_type="application/x-www-form-urlencoded"
        )
        if response.status_code == 302:  # a POST to the turn form that is a legal turn
            assert page == "turn" and method == "POST"
            assert_legitimate_turn(before, response, game)
            return
        assert_page(response)
        if page in ("turn", "preview"):
            assert response.status_code in (400, 405, 409, 422) or (page, method) == (
                "preview",
                "POST",
            )
        elif page != "/games/new" and method not in ("GET",):
            assert response.status_code == 405, (page, method, response.status_code)
        assert snapshot() == before


# Bodies no browser sends -----------------------------------------------------------------------
@settings(HOSTILE, max_examples=100)
@given(
    where=st.sampled_from(["/games/new", "turn", "preview"]),
    payload=st.one_of(
        st.binary(max_size=200),
        st.binary(max_size=40).map(lambda b: b"action=pass&play=" + b"\xff\xfe" + b),
        st.sampled_from(
            [b"%", b"%%%", b"a=%ZZ", b"=&=&=", b"action", b"action=play&play=5D%20M%C3%28OOD"]
        ),
    ),
    content_type=st.sampled_from(
        [
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded; charset=latin-1",
            "application/x-www-form-urlencoded; charset=nonsense",
            "multipart/form-data; boundary=x",
            "multipart/form-data",
            "application/json",
            "text/plain",
        ]
    ),
)
def test_raw_form_bodies(hostile, games, where, payload, content_type):
    game = games["fresh"]
    path = where if where.startswith("/") else scorer_url(game) + where
    with rolled_back():
        before = snapshot()
        response = hostile.generic("POST", path, payload, content_type=content_type)
        if response.status_code == 302 and where == "turn":
            assert_legitimate_turn(before, response, game)
            return
        if where == "preview":
            assert response.status_code in (200, 400), response.status_code
        elif where == "turn" and response.status_code == 303:
            # Refused: back to the scorer page with the reason (a reload never resends).
            assert response["Location"] == scorer_page(game)
            assert "Not entered." in assert_page(hostile.get(response["Location"]))
        else:
            assert 400 <= response.status_code < 500, response.status_code
        assert_page(response)
        assert snapshot() == before


@pytest.mark.parametrize("where", ["/games/new", "turn", "preview"])
@pytest.mark.parametrize(
    "payload",
    [
        {"action": "play", "play": "A" * (3 * MB)},
        {f"field_{i}": "x" for i in range(1_500)},  # more fields than Django reads
    ],
    ids=["3 MB", "1,500 fields"],
)
def test_huge_forms_are_refused_with_a_page(hostile, games, where, payload):
    game = games["fresh"]
    path = where if where.startswith("/") else scorer_url(game) + where
    before = snapshot()
    for body, content_type in (
        (urlencode(payload), "application/x-www-form-urlencoded"),
        (payload, None),  # multipart, as a browser sends a file form
    ):
        kwargs = {"content_type": content_type} if content_type else {}
        response = hostile.post(path, body, **kwargs)
        assert response.status_code == 400, response.status_code
        assert "could not be read" in assert_refusal_page(response)
        assert snapshot() == before
