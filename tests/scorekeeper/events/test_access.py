"""An event fetched and checked in one call: a 404 for none, an archived one still opens, and
only its club's directors get it as a director."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from scorekeeper.events.access import (
    NotDirector,
    access_event,
    access_event_as_director,
    check_directs,
    directs_event,
)
from scorekeeper.events.lifecycle import do_change_event
from tests.factories import account
from tests.scorekeeper.club_events import FOUR, event

pytestmark = pytest.mark.django_db


def test_an_event_is_fetched_with_its_club_and_a_missing_one_is_a_404():
    friday = event(FOUR)
    assert access_event(friday.pk) == friday
    with pytest.raises(Http404, match="There is no such tournament."):
        access_event(friday.pk + 1000)


def test_an_archived_event_still_opens():
    friday = event(FOUR)
    do_change_event(friday, date=friday.date, archived=True)
    assert access_event(friday.pk).archived


def test_only_a_director_of_its_club_gets_it_as_a_director():
    friday = event(FOUR)
    dora, eve = account("dora"), account("eve")
    friday.club.directors.add(dora)
    assert access_event_as_director(dora, friday.pk) == friday
    assert directs_event(dora, friday) and not directs_event(eve, friday)
    for stranger in (eve, AnonymousUser()):
        with pytest.raises(NotDirector) as refused:
            access_event_as_director(stranger, friday.pk)
        assert refused.value.club == friday.club
        with pytest.raises(NotDirector):
            check_directs(stranger, friday.club)
    with pytest.raises(Http404):  # a missing event is a 404 before anything is asked
        access_event_as_director(dora, friday.pk + 1000)
