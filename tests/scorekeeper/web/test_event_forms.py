"""The director's forms refuse a list longer than any event's before reading a line of it."""

from __future__ import annotations

import pytest
from django import forms

from scorekeeper.events.entries import MAX_ENTRANTS, do_create_tournament
from scorekeeper.models import Entrant
from scorekeeper.web import event_forms
from scorekeeper.web.event_forms import PairForm, read_entries
from tests.factories import PASSWORD, account, make_club, messages_of

pytestmark = pytest.mark.django_db


def test_a_list_of_players_longer_than_the_cap_is_refused_unread(monkeypatch):
    longest = "\n".join(f"Player {i}" for i in range(MAX_ENTRANTS))
    assert len(read_entries(longest)) == MAX_ENTRANTS  # the cap itself is read
    read_lines: list[str] = []
    monkeypatch.setattr(event_forms, "Entry", lambda *a: read_lines.append(a))
    with pytest.raises(forms.ValidationError, match="at most 300 players"):
        read_entries("Ann\n" * 600_000)
    with pytest.raises(forms.ValidationError, match="too long"):
        read_entries("A" * (event_forms.MOST_CHARACTERS + 1))
    assert read_lines == []


def test_late_entries_of_600000_lines_are_refused_and_nobody_is_entered(client):
    club = make_club(directors=[account("dora")], roster=())
    client.login(username="dora", password=PASSWORD)
    made = do_create_tournament(
        club, name="Friday", ruleset="upwords-10", lexicon="CLUB", rounds=3,
        players=read_entries("Ann\nBen"),
    )  # fmt: skip
    sent = client.post(f"/tournaments/{made.pk}/add", {"players": "Zed\n" * 600_000}, follow=True)
    assert "That list of players is too long" in " ".join(messages_of(sent))
    assert Entrant.objects.filter(tournament=made).count() == 2


def test_tables_by_hand_longer_than_the_cap_are_refused():
    form = PairForm({"round": 1, "method": "manual", "pairings": "Ann - Ben\n" * 1000})
    assert form.is_valid()
    with pytest.raises(forms.ValidationError, match="That list of tables is too long"):
        form.manual()
