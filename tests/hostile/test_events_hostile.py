"""Hostile requests to a club's tournaments: odd numbers in the director's forms, and ``.t``
files made to hurt (a rating of thousands of digits, a player paired with themselves, a line
that costs the reader a pass for each place its name could end)."""

from __future__ import annotations

import itertools
import string
import time

import pytest

from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.models import Entrant, Pairing, Tournament
from tests.factories import account, make_club, messages_of

pytestmark = pytest.mark.django_db

NAMES = ["Ann Archer", "Ben Baker", "Cy Cole", "Di Dunn"]
HUGE = "9" * 5_000  # past int()'s 4,300 digits
RULES = {"name": "Imported", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}


@pytest.fixture
def event(hostile):
    """A club's event of four players, its director signed in on the hostile client."""
    dora = account("dora")
    club = make_club(directors=[dora], roster=NAMES)
    tournament = do_create_tournament(
        club, name="Friday", ruleset="upwords-10", rounds=3, lexicon="CLUB",
        players=[Entry(name, 1500) for name in NAMES],
    )  # fmt: skip
    hostile.force_login(dora)
    return tournament


def rows() -> tuple[int, int, int]:
    return Tournament.objects.count(), Entrant.objects.count(), Pairing.objects.count()


@pytest.mark.parametrize(
    "form, data",
    [
        ("forfeit", {"round": "²", "absent": "Ann Archer"}),
        ("forfeit", {"round": HUGE, "absent": "Ann Archer"}),
        ("withdraw", {"entrant": "²"}),
        ("withdraw", {"entrant": HUGE}),
        ("add", {"players": f"Eve Ellis {HUGE}"}),
    ],
    ids=["forfeit-superscript", "forfeit-huge", "withdraw-superscript", "withdraw-huge", "add"],
)
def test_the_directors_forms_refuse_odd_numbers(hostile, event, form, data):
    before = rows()
    response = hostile.post(f"/tournaments/{event.pk}/{form}", data, follow=True)
    assert response.status_code == 200
    assert messages_of(response)  # a sentence saying why not
    assert rows() == before


def test_the_new_event_form_refuses_a_huge_rating(hostile, event):
    before = rows()
    data = {
        **RULES, "challenge_mode": "auto", "bye_spread": "50",
        "players": f"Eve Ellis {HUGE}\nFay Frost",
    }  # fmt: skip
    response = hostile.post(f"/clubs/{event.club.slug}/tournaments/new", data)
    assert response.status_code == 400
    assert "too large for a rating" in response.content.decode()
    assert rows() == before


def imported(hostile, event, t_file: str):
    return hostile.post(
        f"/api/clubs/{event.club.slug}/tournaments/import",
        {**RULES, "t_file": t_file},
        content_type="application/json",
    )


@pytest.mark.parametrize(
    "t_file, says",
    [
        (f"Archer, Ann {HUGE} 0; 0\n", "not a number"),
        ("Archer, Ann 1500 1; 400\nBaker, Ben 1500 0; 0\n", "their own"),
        ("Archer, Ann 1500 2 1; 400 380\nBaker, Ben 1500 1 0; 350 0\n", "their own"),
    ],
    ids=["huge-rating", "self-paired", "self-paired-later"],
)
def test_a_t_file_import_refuses_what_no_event_could_hold(hostile, event, t_file, says):
    before = rows()
    response = imported(hostile, event, t_file)
    assert response.status_code == 400, response.content
    assert says in response.json()["error"]["message"]
    assert rows() == before


def test_a_t_file_line_is_read_in_one_pass(hostile, event):
    # A name's end was looked for at each of these spaces, with a pass over the rest of the
    # line each time; the bound is far above one pass, far below one pass a space.
    started = time.thread_time()
    response = imported(hostile, event, "Archer" + " " * 30_000 + "x\n")
    spent = time.thread_time() - started
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_line"
    assert spent < 1.0, f"{spent:.2f} s of server CPU"


@pytest.mark.parametrize("form", ["import", "players"])
def test_a_field_of_100_000_players_is_refused_before_each_is_checked(hostile, event, form):
    names = itertools.islice(itertools.product(string.ascii_lowercase, repeat=4), 100_000)
    field = ["".join(name) for name in names]
    before = rows()
    started = time.thread_time()
    if form == "import":
        response = imported(hostile, event, "".join(f"{name} 0;\n" for name in field))
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "too_many_players"
    else:
        response = hostile.post(f"/tournaments/{event.pk}/add", {"players": "\n".join(field)})
        assert response.status_code == 302
    spent = time.thread_time() - started
    assert rows() == before
    # Far above reading the field once; far below checking each of its names.
    assert spent < 1.0, f"{spent:.2f} s of server CPU"
