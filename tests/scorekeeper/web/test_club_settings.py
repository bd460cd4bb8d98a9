"""A club's settings, changed by its directors from its settings page: its usual rules (which
pre-fill its new games and events), its name, its players' names and its directors; anyone
else is refused, and a refused change changes nothing."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.api.accounts import new_account_token
from scorekeeper.clubs import club_settings
from scorekeeper.clubs.membership import directs
from scorekeeper.models import Club, DirectorInvitation, Game, Player, Tournament
from tests.factories import account, make_club, messages_of

pytestmark = pytest.mark.django_db

RULES = {
    "ruleset": "crossword-classic",
    "lexicon": "CLUB",
    "challenge_mode": "manual",
    "rejected_challenge": "bonus_5",
    "clock": "player",
    "clock_minutes": "20",
    "clock_seconds": "",
}


@pytest.fixture
def dora(client):
    """Riverside's director, signed in; Ann, Ben and Cy on its roster, Ann with an account."""
    director = account("dora")
    club = make_club(directors=[director])
    Player.objects.filter(name="Ann").update(user=account("ann"))
    client.force_login(director)
    return club


def shown(page: str, field: str) -> str:
    """The value a page's form shows for a select ``field``: its option selected."""
    start = page.index(f'name="{field}"')
    options = page[start : page.index("</select>", start)]
    for part in options.split("<option")[1:]:
        if "selected" in part.split(">")[0]:
            return html.unescape(part.split('value="')[1].split('"')[0])
    return ""


def checked(page: str, field: str) -> str:
    """The value of a page's radio button ``field`` that is checked."""
    (value,) = re.findall(
        rf'<input type="radio" name="{field}" value="([^"]*)"[^>]* checked>', page
    )
    return value


def test_the_usual_rules_are_kept_and_pre_fill_a_club_game_and_an_event(client, dora):
    response = client.post("/clubs/riverside/settings/rules", RULES, follow=True)
    assert messages_of(response) == [
        "The club's usual rules are kept: its new games and events start from them."
    ]
    club = Club.objects.get()
    assert (club.default_ruleset, club.default_lexicon, club.default_challenge_mode) == (
        "crossword-classic", "CLUB", "manual",
    )  # fmt: skip
    assert club.default_rejected_challenge == "bonus_5"
    assert club.default_clock == {
        "kind": "player", "minutes": 20, "overtime_penalty": 10, "max_overtime_minutes": 10,
        "over_max": "capped",
    }  # fmt: skip

    settings = client.get("/clubs/riverside/settings").content.decode()
    assert shown(settings, "clock") == "player" and 'value="20"' in settings

    form = client.get("/games/new?club=riverside").content.decode()
    assert (
        checked(form, "ruleset") == "crossword-classic"
        and checked(form, "challenge_mode") == "manual"
    )
    assert shown(form, "lexicon") == "CLUB" and shown(form, "club") == "riverside"
    assert checked(form, "rejected_challenge") == "bonus_5"
    assert checked(form, "clock") == "player" and 'name="clock_minutes" value="20"' in form

    event = client.get("/clubs/riverside/tournaments/new").content.decode()
    assert shown(event, "ruleset") == "crossword-classic" and shown(event, "lexicon") == "CLUB"
    assert shown(event, "challenge_mode") == "manual"
    assert shown(event, "rejected_challenge") == "bonus_5" and shown(event, "clock") == "player"


def test_a_club_game_started_with_a_clock_has_it(client, dora):
    sent = {
        "ruleset": "upwords-10", "options_for": "upwords-10", "lexicon": "CLUB",
        "challenge_mode": "auto", "starter": "1", "player_1": "Ann", "player_2": "Ben",
        "club": "riverside", "clock": "turn", "turn_clock": "90",
    }  # fmt: skip
    assert client.post("/games/new", sent).status_code == 302
    game = Game.objects.get()
    assert game.club is not None and game.clock is not None
    assert game.clock["rule"] == {"kind": "turn", "seconds": 90} and game.turn_clock == 90


def test_rules_that_won_t_do_are_refused_and_nothing_kept(client, dora):
    for field, value in (("clock_minutes", "0"), ("rejected_challenge", "tea"), ("lexicon", "X")):
        response = client.post("/clubs/riverside/settings/rules", {**RULES, field: value}, follow=True)  # fmt: skip
        (said,) = messages_of(response)
        assert said.startswith("Not changed. ") and said.endswith(".")
    assert Club.objects.get().default_clock is None


def test_a_director_renames_the_club_and_its_address_stays(client, dora):
    response = client.post("/clubs/riverside/settings/name", {"name": " Riverside  Words "}, follow=True)  # fmt: skip
    assert messages_of(response) == [
        "The club is called Riverside Words now; its address stays /clubs/riverside/."
    ]
    assert Club.objects.get().name == "Riverside Words"
    client.post("/clubs/riverside/settings/name", {"name": "\u200b"})
    assert Club.objects.get().name == "Riverside Words"


def test_a_director_renames_a_player_but_not_to_another_s_name(client, dora):
    ann = Player.objects.get(name="Ann")
    response = client.post("/clubs/riverside/settings/player-name", {"player": ann.pk, "name": "Ann  Archer"}, follow=True)  # fmt: skip
    assert messages_of(response) == ["Ann is called Ann Archer now, in every game and standings."]
    ann.refresh_from_db()
    assert (ann.name, ann.name_key) == ("Ann Archer", "ann archer")
    response = client.post("/clubs/riverside/settings/player-name", {"player": ann.pk, "name": "BEN"}, follow=True)  # fmt: skip
    assert messages_of(response) == ["Not changed. Another player is known as BEN already."]
    ann.refresh_from_db()
    assert ann.name == "Ann Archer"


def test_a_player_who_plays_for_another_club_is_renamed_only_there(client, dora):
    other = make_club("Hilltop", roster=["Zed"])
    zed = Player.objects.get(name="Zed")
    dora.roster.add(zed)
    assert other.roster.filter(pk=zed.pk).exists()
    response = client.post("/clubs/riverside/settings/player-name", {"player": zed.pk, "name": "Zeb"}, follow=True)  # fmt: skip
    assert messages_of(response) == [
        "Not changed. Zed plays for Hilltop (on its roster first), so its directors rename them."
    ]
    assert Player.objects.filter(name="Zed").exists()


def test_a_director_makes_a_member_a_director_and_steps_down_while_another_remains(client, dora):
    page = client.get("/clubs/riverside/settings").content.decode()
    assert "Step down" not in page  # the only director
    response = client.post("/clubs/riverside/settings/directors", {"change": "step_down"}, follow=True)  # fmt: skip
    assert messages_of(response) == [
        "Not changed. You are Riverside's only director: make another member a director first."
    ]
    ben = Player.objects.get(name="Ben")  # no account: no director
    response = client.post("/clubs/riverside/settings/directors", {"change": "add", "player": ben.pk}, follow=True)  # fmt: skip
    assert messages_of(response) == [
        "Not changed. Choose a player of Riverside's roster who has an account."
    ]
    ann = Player.objects.get(name="Ann")
    assert f'<option value="{ann.pk}">Ann (ann)</option>' in page
    response = client.post("/clubs/riverside/settings/directors", {"change": "add", "player": ann.pk}, follow=True)  # fmt: skip
    assert messages_of(response) == [
        "Ann (ann) is invited to direct Riverside: they direct it once they accept, on their "
        "Invitations page."
    ]
    assert [u.username for u in Club.objects.get().directors.all()] == ["dora"]  # not yet
    dora_account = Club.objects.get().directors.get()
    client.force_login(ann.user)
    page = client.get("/clubs/invitations").content.decode()
    assert "Riverside: direct it?" in page
    invitation = DirectorInvitation.objects.get()
    response = client.post(f"/clubs/invitations/direct/{invitation.pk}", {"answer": "accept"}, follow=True)  # fmt: skip
    assert messages_of(response) == ["You direct Riverside now."]
    assert sorted(u.username for u in Club.objects.get().directors.all()) == ["ann", "dora"]
    client.force_login(dora_account)
    response = client.post("/clubs/riverside/settings/directors", {"change": "step_down"}, follow=True)  # fmt: skip
    assert response.redirect_chain[-1][0] == "/clubs/riverside/"
    assert messages_of(response) == ["You no longer direct Riverside."]
    club = Club.objects.get()
    assert [u.username for u in club.directors.all()] == ["ann"]
    assert not directs(account("eve"), club)
    assert client.get("/clubs/riverside/settings").status_code == 403


def test_only_a_director_sees_or_changes_the_settings(client, dora):
    client.force_login(Player.objects.get(name="Ann").user)  # a member, not a director
    assert client.get("/clubs/riverside/settings").status_code == 403
    for path, data in (
        ("name", {"name": "Mine"}),
        ("rules", RULES),
        ("player-name", {"player": Player.objects.get(name="Ben").pk, "name": "Bo"}),
        ("directors", {"change": "add", "player": Player.objects.get(name="Ann").pk}),
    ):
        response = client.post(f"/clubs/riverside/settings/{path}", data)
        assert response.status_code == 403
        assert "Only a director of Riverside can change its settings." in response.content.decode()
    club = Club.objects.get()
    assert club.name == "Riverside" and club.default_ruleset == ""
    assert [u.username for u in club.directors.all()] == ["dora"]
    assert Player.objects.filter(name="Ben").exists()
    page = client.get("/clubs/riverside/").content.decode()
    assert "Club settings" not in page and "?club=riverside" in page  # a member's club game


# The same through the API ----------------------------------------------------------------------
def api(client, token: str, method: str, path: str, body: dict | None = None):
    send = getattr(client, method)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    return send(f"/api/clubs/riverside/{path}", body or {}, content_type="application/json", **auth)


def refused(response, status: int, code: str) -> str:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert error["code"] == code and error["message"].endswith(".")
    return error["message"]


def test_a_director_changes_the_settings_through_the_api(client, dora):
    token = new_account_token(Club.objects.get().directors.get())
    rules = {"ruleset": "upwords-10", "lexicon": "honour", "challenge_mode": "manual",
             "rejected_challenge": "lose_turn", "clock": {"kind": "turn", "seconds": 60}}  # fmt: skip
    kept = api(client, token, "put", "rules", rules)
    assert kept.status_code == 200, kept.content
    assert kept.json() == {"slug": "riverside", "name": "Riverside", "directors": ["dora"],
                           "rules": rules}  # fmt: skip
    assert client.get("/api/clubs/riverside/settings").json() == kept.json()
    renamed = api(client, token, "post", "name", {"name": "Riverside Words"})
    assert renamed.json()["name"] == "Riverside Words"
    sent = api(client, token, "post", "players/rename", {"player": "ann", "name": "Ann Archer"})
    assert sent.json() == {"was": "Ann", "name": "Ann Archer"}
    invited = api(client, token, "post", "directors/", {"player": "Ann Archer"})
    assert invited.status_code == 202, invited.content
    assert invited.json() == {
        "id": DirectorInvitation.objects.get().pk, "club": "riverside",
        "club_name": "Riverside Words", "username": "ann", "invited_by": "dora",
        "state": "invited",
    }  # fmt: skip
    assert client.get("/api/clubs/riverside/settings").json()["directors"] == ["dora"]
    ann = new_account_token(Player.objects.get(name="Ann Archer").user)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {ann}"}
    waiting = client.get("/api/director-invitations/", **auth).json()
    assert waiting == [invited.json()]
    made = client.post(f"/api/director-invitations/{waiting[0]['id']}/accept", **auth)
    assert made.status_code == 200 and made.json()["directors"] == ["ann", "dora"]
    assert not DirectorInvitation.objects.exists()
    assert api(client, token, "post", "directors/step-down").json()["directors"] == ["ann"]
    refused(api(client, token, "put", "rules", rules), 403, "not_director")


def test_the_api_refuses_with_a_sentence_and_changes_nothing(client, dora):
    token = new_account_token(Club.objects.get().directors.get())
    refused(api(client, token, "put", "rules", {"clock": {"kind": "sand"}}), 400, "clock_shape")
    refused(api(client, token, "put", "rules", {"lexicon": "XYZ"}), 400, "unknown_lexicon")
    said = refused(api(client, token, "post", "directors/", {"player": "Ben"}), 422, "not_member")
    assert said == "Ben has no account: give them one to invite them to direct."
    said = refused(
        api(client, token, "post", "directors/", {"player": "Zed"}), 422, "not_on_roster"
    )
    assert said == "Zed is not on Riverside's roster."
    said = refused(api(client, token, "post", "directors/step-down"), 409, "last_director")
    assert said == "You are Riverside's only director: make another member a director first."
    sent = api(client, token, "post", "players/rename", {"player": "Ann", "name": "ben"})
    assert refused(sent, 409, "name_taken") == "Another player is known as ben already."
    eve = new_account_token(account("eve"))
    refused(api(client, eve, "post", "name", {"name": "Mine"}), 403, "not_director")
    club = Club.objects.get()
    assert (club.name, club.default_lexicon, club.default_clock) == ("Riverside", "", None)
    assert [u.username for u in club.directors.all()] == ["dora"]
    assert sorted(p.name for p in club.roster.all()) == ["Ann", "Ben", "Cy"]


def test_the_settings_and_event_forms_keep_the_overtime_rules_they_don_t_show(client, dora):
    usual = {"kind": "player", "minutes": 25, "overtime_penalty": 5,
             "max_overtime_minutes": 3, "over_max": "loses"}  # fmt: skip
    club_settings.do_set_rules(
        dora, club_settings.check_rules(club_settings.ClubRules(clock=usual))
    )
    client.post("/clubs/riverside/settings/rules", RULES)  # 20 minutes, from the page
    kept = {**usual, "minutes": 20}
    assert Club.objects.get().default_clock == kept
    event = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB",
             "challenge_mode": "auto", "rounds": "3", "bye_spread": "50", "gibson": "on",
             "clock": "player", "clock_minutes": "20", "players": "Ann\nBen\n"}  # fmt: skip
    assert client.post("/clubs/riverside/tournaments/new", event).status_code == 302
    assert Tournament.objects.get().clock == kept


def test_the_settings_and_event_forms_set_the_overtime_rules(client, dora):
    overtime = {"clock_penalty": "5", "clock_max_overtime": "3", "clock_over_max": "loses"}
    client.post("/clubs/riverside/settings/rules", {**RULES, **overtime})
    assert Club.objects.get().default_clock == {
        "kind": "player", "minutes": 20, "overtime_penalty": 5, "max_overtime_minutes": 3,
        "over_max": "loses",
    }  # fmt: skip
    form = client.get("/clubs/riverside/settings").content.decode()
    assert (
        'name="clock_penalty" value="5"' in form and 'name="clock_max_overtime" value="3"' in form
    )
    event = {"name": "Friday", "ruleset": "upwords-10", "lexicon": "CLUB",
             "challenge_mode": "auto", "rounds": "3", "bye_spread": "50", "gibson": "on",
             "clock": "player", "clock_minutes": "30", "clock_penalty": "10",
             "clock_max_overtime": "5", "clock_over_max": "capped", "players": "Ann\nBen\n"}  # fmt: skip
    assert client.post("/clubs/riverside/tournaments/new", event).status_code == 302
    assert Tournament.objects.get().clock == {
        "kind": "player", "minutes": 30, "overtime_penalty": 10, "max_overtime_minutes": 5,
        "over_max": "capped",
    }  # fmt: skip
    refused = client.post("/clubs/riverside/tournaments/new", {**event, "clock_penalty": "101"})
    assert refused.status_code == 400 and Tournament.objects.count() == 1


def test_the_event_form_offers_the_honour_system_once(client, dora):
    form = client.get("/clubs/riverside/tournaments/new").content.decode()
    assert form.count('value="honour"') == 1
    # Each clock setting is marked with its kind, for the page to show only the chosen one's.
    assert 'class="field-clock_seconds"' in form and 'class="field-clock_penalty"' in form
