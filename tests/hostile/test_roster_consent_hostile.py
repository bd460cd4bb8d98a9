"""A rival club's director and another club's players: whatever the door that enters a player
(the roster form, the event form, the API's players, a ``.t`` file, late entries from the form
or the API), a player linked to an account through a club the director doesn't direct is never
put on the rival's roster; the event gets an unlinked entrant of a distinguishing name
instead; and nobody directs a club without accepting."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scorekeeper.api.accounts import new_account_token
from scorekeeper.clubs.membership import speaks_for
from scorekeeper.events.entries import Entry, do_create_tournament
from scorekeeper.models import Club, DirectorInvitation, Entrant, Player, Tournament, clubs_of
from tests.factories import account, make_club

pytestmark = pytest.mark.django_db

RULES = {"name": "Rival night", "ruleset": "upwords-10", "lexicon": "CLUB", "rounds": 3}
T_FILE = "Archer, Ann 1700 2; 412\nBaker, Ben 1600 1; 377\n"


@pytest.fixture
def rival(hostile: Client) -> dict[str, Any]:
    """Ann Archer plays for Riverside, linked to her account; Mallory directs Shadow."""
    ann = account("ann")
    riverside = make_club("Riverside", directors=[account("rita")], roster=["Ann Archer"])
    player = Player.objects.get(name="Ann Archer")
    player.user = ann
    player.save()
    mallory = account("mallory")
    shadow = make_club("Shadow", directors=[mallory], roster=["Ben Baker", "Cy Cole"])
    hostile.force_login(mallory)
    token = new_account_token(mallory)
    return {"ann": ann, "player": player, "riverside": riverside, "shadow": shadow,
            "mallory": mallory, "token": token}  # fmt: skip


def api(client: Client, token: str, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json",
                       HTTP_AUTHORIZATION=f"Bearer {token}")  # fmt: skip


def by_api(client: Client, rival: dict[str, Any]) -> None:
    players = [{"name": n} for n in ("Ann Archer", "Ben Baker")]
    made = api(
        client, rival["token"], "/api/clubs/shadow/tournaments/", {**RULES, "players": players}
    )
    assert made.status_code == 201, made.content


def by_form(client: Client, rival: dict[str, Any]) -> None:
    form = {**RULES, "challenge_mode": "auto", "bye_spread": "50",
            "players": "Ann Archer\nBen Baker\n"}  # fmt: skip
    assert client.post("/clubs/shadow/tournaments/new", form).status_code == 302


def by_t_file_api(client: Client, rival: dict[str, Any]) -> None:
    made = api(client, rival["token"], "/api/clubs/shadow/tournaments/import",
               {**RULES, "t_file": T_FILE})  # fmt: skip
    assert made.status_code == 201, made.content


def by_t_file_form(client: Client, rival: dict[str, Any]) -> None:
    upload = SimpleUploadedFile("rival.t", T_FILE.encode(), content_type="text/plain")
    form = {**RULES, "challenge_mode": "auto", "bye_spread": "50", "tfile": upload}
    assert client.post("/clubs/shadow/tournaments/new", form).status_code == 302


def _event_without_ann(rival: dict[str, Any]) -> Tournament:
    return do_create_tournament(
        rival["shadow"], players=[Entry("Ben Baker"), Entry("Cy Cole")], **RULES
    )


def late_by_api(client: Client, rival: dict[str, Any]) -> None:
    event = _event_without_ann(rival)
    late = api(client, rival["token"], f"/api/tournaments/{event.pk}/players/",
               {"players": [{"name": "Ann Archer"}]})  # fmt: skip
    assert late.status_code == 201, late.content


def late_by_form(client: Client, rival: dict[str, Any]) -> None:
    event = _event_without_ann(rival)
    assert client.post(f"/tournaments/{event.pk}/add", {"players": "Ann Archer"}).status_code == 302


DOORS: dict[str, Callable[[Client, dict[str, Any]], None]] = {
    "api players": by_api,
    "event form": by_form,
    "t file through the api": by_t_file_api,
    "t file through the form": by_t_file_form,
    "late entries through the api": late_by_api,
    "late entries through the form": late_by_form,
}


@pytest.mark.parametrize("door", list(DOORS.values()), ids=list(DOORS))
def test_another_clubs_linked_player_is_never_put_on_the_rivals_roster(hostile, rival, door):
    door(hostile, rival)
    shadow, player = rival["shadow"], rival["player"]
    assert not shadow.roster.filter(pk=player.pk).exists()
    assert [c.slug for c in clubs_of(rival["ann"])] == ["riverside"]
    assert not speaks_for(rival["mallory"], player)
    # The event has its entrant: an unlinked player of a name that tells them apart.
    entrant = Entrant.objects.get(tournament__club=shadow, player__name="Ann Archer (2)")
    assert entrant.player.user is None and shadow.roster.filter(pk=entrant.player.pk).exists()
    assert not Entrant.objects.filter(player=player).exists()
    # So the rival can't invite Ann's account to direct Shadow, let alone make it a director.
    refused = api(hostile, rival["token"], "/api/clubs/shadow/directors/", {"player": "Ann Archer"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_on_roster"
    assert not DirectorInvitation.objects.exists()
    assert list(shadow.directors.all()) == [rival["mallory"]]


def test_the_roster_form_refuses_another_clubs_linked_player(hostile, rival):
    response = hostile.post("/clubs/shadow/roster", {"change": "add", "name": "Ann Archer"}, follow=True)  # fmt: skip
    page = response.content.decode()
    assert "Not added: Ann Archer is linked to an account through Riverside" in page
    assert not rival["shadow"].roster.filter(pk=rival["player"].pk).exists()


def test_the_same_entrant_of_a_distinguishing_name_comes_back_in_the_next_event(hostile, rival):
    by_api(hostile, rival)
    by_api(hostile, rival)
    entered = Entrant.objects.filter(
        tournament__club=rival["shadow"], player__name="Ann Archer (2)"
    )
    assert entered.count() == 2 and len({e.player_id for e in entered}) == 1


def test_a_player_entered_by_their_own_account_joins_the_roster(hostile, rival):
    """Ann directs a club of her own: she enters herself, with her own consent."""
    own = make_club("Annex", directors=[rival["ann"]], roster=[])
    token = new_account_token(rival["ann"])
    players = [{"name": "Ann Archer"}, {"name": "Ben Baker"}]
    made = api(hostile, token, "/api/clubs/annex/tournaments/", {**RULES, "players": players})
    assert made.status_code == 201, made.content
    assert own.roster.filter(pk=rival["player"].pk).exists()
    assert Entrant.objects.filter(player=rival["player"]).exists()


def test_a_member_directs_only_once_they_accept(hostile, rival):
    """Riverside's director invites Ann (a member) to direct: nothing changes until Ann says so,
    and only Ann can say so."""
    riverside: Club = rival["riverside"]
    rita = new_account_token(riverside.directors.get())
    invited = api(hostile, rita, "/api/clubs/riverside/directors/", {"player": "Ann Archer"})
    assert invited.status_code == 202 and invited.json()["state"] == "invited"
    assert not riverside.directors.filter(pk=rival["ann"].pk).exists()
    number = invited.json()["id"]
    # Mallory can't accept it for her, nor see it.
    stolen = api(hostile, rival["token"], f"/api/director-invitations/{number}/accept", {})
    assert stolen.status_code == 404
    assert (
        hostile.post(f"/clubs/invitations/direct/{number}", {"answer": "accept"}).status_code == 404
    )
    assert not riverside.directors.filter(pk=rival["ann"].pk).exists()
    ann = new_account_token(rival["ann"])
    declined = api(hostile, ann, f"/api/director-invitations/{number}/decline", {})
    assert declined.status_code == 200 and declined.json()["state"] == "declined"
    assert not riverside.directors.filter(pk=rival["ann"].pk).exists()
    assert not DirectorInvitation.objects.exists()
