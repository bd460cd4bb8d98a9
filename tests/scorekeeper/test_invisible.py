"""What can't be seen: refused in the names of players and clubs, removed from the titles, notes
and player names an imported record brings to the pages."""

from __future__ import annotations

import pytest

from scorekeeper.invisible import (
    BIDI_CONTROLS,
    BRAILLE_BLANK,
    DEFAULT_IGNORABLE,
    HANGUL_FILLERS,
    default_ignorable,
    unseen,
    visible,
)
from scorekeeper.models import Club, Player
from scorekeeper.records.gcg_import import import_gcg
from tests.factories import account, make_club

pytestmark = pytest.mark.django_db

RLO, ZWSP, FILLER = "\u202e", "\u200b", "\u3164"


# The definition --------------------------------------------------------------------------------
def test_the_table_is_unicodes_default_ignorable_set():
    # DerivedCoreProperties.txt of Unicode 17.0.0 says "Total code points: 4174".
    assert sum(end - start + 1 for start, end in DEFAULT_IGNORABLE) == 4174
    ends = [end for _, end in DEFAULT_IGNORABLE]
    starts = [start for start, _ in DEFAULT_IGNORABLE]
    assert all(s <= e for s, e in DEFAULT_IGNORABLE)
    assert all(end < start for end, start in zip(ends, starts[1:], strict=False))


@pytest.mark.parametrize("ch", list(HANGUL_FILLERS + BRAILLE_BLANK + BIDI_CONTROLS + ZWSP))
def test_fillers_the_braille_blank_and_bidi_controls_are_unseen(ch):
    assert unseen(ch) and visible(f"A{ch}nn") == "Ann"


def test_the_braille_blank_is_unseen_though_unicode_does_not_call_it_ignorable():
    assert not default_ignorable(BRAILLE_BLANK) and unseen(BRAILLE_BLANK)


@pytest.mark.parametrize("text", ["Ann", "김민준", "李", "Nguyễn", "Ævar Þór", "اسم", "שם"])
def test_letters_of_every_script_are_seen(text):
    assert visible(text) == text


# Clubs and rosters -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    [f"{RLO}Riverside", f"River{ZWSP}side", f"Riverside{FILLER}", BRAILLE_BLANK * 3],
    ids=["bidi override", "zero-width space", "hangul filler", "braille blanks"],
)
def test_a_club_name_with_what_cannot_be_seen_is_refused(client, name):
    client.force_login(account("ann"))
    response = client.post("/clubs/new", {"name": name})
    assert response.status_code == 400
    page = response.content.decode()
    assert "invisible" in page or "can be seen" in page
    assert not Club.objects.exists()


def test_a_club_name_that_can_be_seen_is_made(client):
    client.force_login(account("ann"))
    assert client.post("/clubs/new", {"name": "Riverside  Word Club"}).status_code == 302
    assert Club.objects.get().name == "Riverside Word Club"


def test_a_roster_name_with_a_hangul_filler_is_refused(client):
    ann = account("ann")
    make_club("Riverside", directors=[ann], roster=["Ann"])
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster", {"change": "add", "name": f"Ann{FILLER}"}, follow=True
    )
    assert "Not added" in response.content.decode()
    assert Player.objects.count() == 1


# Imported records ------------------------------------------------------------------------------
RECORD = f"""#player1 ann Ann{FILLER}
#player2 bo {BRAILLE_BLANK}{ZWSP}
#title {RLO}Club night, board 3
#description Played {RLO}late
#note Before the {ZWSP}first turn.
>ann: EHOSU? 8D HOUSE +16 16
#note A {RLO}note
on two lines.
"""


def test_a_records_title_notes_and_player_names_come_without_what_cannot_be_seen(client):
    game = import_gcg(RECORD).game
    assert game.title == "Club night, board 3"
    assert game.description == "Played late\n\nBefore the first turn."
    assert [s.player.name for s in game.seats.order_by("order")] == ["Ann", "bo"]
    assert game.turns.get(number=1).note == "A note\non two lines."
    page = client.get(f"/games/{game.pk}/").content.decode()
    step = client.get(f"/games/{game.pk}/?turn=1").content.decode()
    assert "Club night, board 3" in page and "on two lines" in step
    assert not [ch for ch in (RLO, ZWSP, FILLER, BRAILLE_BLANK) if ch in page + step]


def test_a_records_player_is_the_known_player_of_the_name_that_can_be_seen():
    ann = Player.objects.create(name="Ann")
    game = import_gcg(RECORD, linked=None).game  # an operator's import links the names
    assert game.seats.get(order=0).player == ann
