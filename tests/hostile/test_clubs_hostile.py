"""Hostile requests to accounts and clubs: a forged club in the new-game form, an open
redirect through sign-in's ``next``, forged roster changes and voids, missing CSRF tokens,
someone else's account attached to a made-up club, usernames probed through the roster's
answers, and a throwaway club locking a club out of its own player."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scorekeeper.games import domain
from scorekeeper.models import Club, Game, Invitation, Player, clubs_of
from tests.factories import (
    PASSWORD,
    account,
    answer,
    finished_game,
    make_club,
    messages_of,
)

pytestmark = pytest.mark.django_db

NEW_GAME = {
    "ruleset": "upwords-10", "lexicon": "CLUB", "challenge_mode": "auto", "starter": "1",
    "player_1": "Ann", "player_2": "Ben",
}  # fmt: skip


@pytest.mark.parametrize("forged", ["riverside", "1", "0", "-1", "riverside' OR 1=1 --", "\x00"])
def test_a_forged_club_from_a_signed_in_non_member_is_refused(hostile, forged):
    make_club()
    make_club("Hilltop", directors=[account("mallory")])
    hostile.force_login(Club.objects.get(slug="hilltop").directors.get())
    response = hostile.post("/games/new", {**NEW_GAME, "club": forged})
    assert response.status_code == 400
    page = response.content.decode()
    assert "You are not a member of that club." in page or "Null characters" in page
    assert not Game.objects.exists()


def test_a_forged_club_from_a_visitor_makes_a_casual_game(hostile):
    make_club()
    response = hostile.post("/games/new", {**NEW_GAME, "club": "riverside"})
    assert response.status_code == 302
    assert Game.objects.get().club is None


@pytest.mark.parametrize(
    "next_url",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "\\\\evil.example",
        "https:evil.example",
        "javascript:alert(1)",
        " https://evil.example",
    ],
)
def test_sign_in_never_redirects_off_the_site(hostile, next_url):
    account("ann")
    response = hostile.post(
        "/accounts/login/", {"username": "ann", "password": PASSWORD, "next": next_url}
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/"
    response = hostile.post("/accounts/logout/", {"next": next_url})
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    "name", ["<script>alert(1)</script>", "W" * 5_000, "\x00", "\u202eAnn", ""]
)
def test_hostile_roster_names_are_refused_or_escaped(hostile, name):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    hostile.force_login(ann)
    response = hostile.post("/clubs/riverside/roster", {"change": "add", "name": name}, follow=True)
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in response.content.decode()
    if club.roster.exists():
        assert [p.name for p in club.roster.all()] == ["<script>alert(1)</script>"]


@pytest.mark.parametrize(
    "body",
    [
        {"change": "remove", "player": "1 OR 1=1"},
        {"change": "remove", "player": "99999999999999999999"},
        {"change": "link", "player": "-1", "username": "ann"},
        {"change": "drop_table"},
        {},
    ],
)
def test_forged_roster_changes_change_nothing(hostile, body):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    hostile.force_login(ann)
    assert hostile.post("/clubs/riverside/roster", body).status_code == 302
    assert [p.name for p in club.roster.all()] == ["Ben"]
    assert Player.objects.get(name="Ben").user is None


@pytest.mark.parametrize(
    "path, body",
    [
        ("/clubs/invitations/99999999999999999999999", {"answer": "accept"}),
        ("/clubs/invitations/0", {"answer": "accept"}),
        ("/clubs/invitations/1", {"answer": "accept"}),  # someone else's
        ("/clubs/invitations/-1", {"answer": "accept"}),
        ("/clubs/invitations/1 OR 1=1", {"answer": "accept"}),
    ],
)
def test_forged_answers_to_invitations_change_nothing(hostile, path, body):
    club = make_club(directors=[account("rita")], roster=["Ben"])
    ben = Player.objects.get(name="Ben")
    Invitation.objects.create(pk=1, club=club, player=ben, username="ben")
    account("ben")
    hostile.force_login(account("mallory"))
    assert hostile.post(path, body).status_code == 404
    ben.refresh_from_db()
    assert ben.user is None and Invitation.objects.count() == 1


def test_voids_of_games_that_are_not_there_are_404(hostile):
    ann = account("ann")
    make_club(directors=[ann])
    hostile.force_login(ann)
    body = {"reason": "x", "confirm": "yes"}
    assert hostile.post("/games/00000000-0000-0000-0000-000000000000/void", body).status_code == 404
    assert hostile.post("/games/not-a-uuid/void", body).status_code == 404


def test_a_director_of_another_club_cant_void_this_clubs_game(hostile):
    game = finished_game(["Ann", "Ben"], club=make_club(directors=[account("ann")]))
    make_club("Hilltop", directors=[account("mallory")], roster=[])
    hostile.force_login(Club.objects.get(slug="hilltop").directors.get())
    response = hostile.post(f"/games/{game.pk}/void", {"reason": "x", "confirm": "yes"})
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_club_forms_need_their_csrf_token():
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    game = finished_game(["Ann", "Ben"], club=make_club("Hilltop", directors=[ann]))
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    assert (
        browser.post("/clubs/riverside/roster", {"change": "add", "name": "Eve"}).status_code == 403
    )
    assert (
        browser.post(f"/games/{game.pk}/void", {"reason": "x", "confirm": "yes"}).status_code == 403
    )
    assert browser.post("/clubs/new", {"name": "Sneaky"}).status_code == 403
    assert browser.post("/accounts/logout/").status_code == 403
    assert not club.roster.exists() and not Club.objects.filter(slug="sneaky").exists()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ben = domain.player_named("Ben")
    club.roster.add(ben)
    invitation = Invitation.objects.create(club=club, player=ben, username="ann")
    url = f"/clubs/invitations/{invitation.pk}"
    assert browser.post(url, {"answer": "accept"}).status_code == 403
    ben.refresh_from_db()
    assert ben.user is None


def test_a_director_cant_take_over_a_player_another_club_shares(hostile):
    """Mallory puts Ann (on Riverside's roster) on her own club's roster, then tries to invite
    her own account to be Ann, or make one for Ann: that would make her a Riverside member."""
    ann_account = account("ann")
    make_club(directors=[ann_account], roster=["Ann"])
    mallory = account("mallory")
    hilltop = make_club("Hilltop", directors=[mallory], roster=[])
    hostile.force_login(mallory)
    hostile.post("/clubs/hilltop/roster", {"change": "add", "name": "ann"}, follow=True)
    ann = Player.objects.get(name="Ann")
    assert list(hilltop.roster.all()) == [ann]
    for body in (
        {"change": "invite", "username": "mallory"},
        {"change": "account"},
        {"change": "unlink"},
    ):
        response = hostile.post("/clubs/hilltop/roster", {**body, "player": ann.pk}, follow=True)
        assert messages_of(response) == [
            "Not changed: Ann plays for Riverside (on its roster first), so its directors "
            "choose Ann's account, or the site's administrator in the admin."
        ]
    ann.refresh_from_db()
    assert ann.user is None and not Invitation.objects.exists()
    offered = hostile.get("/games/new").content.decode()
    assert 'value="hilltop"' in offered and 'value="riverside"' not in offered
    # Taking Ann off Mallory's own roster is still hers to do.
    hostile.post("/clubs/hilltop/roster", {"change": "remove", "player": ann.pk, "confirm": "yes"})
    assert not hilltop.roster.exists()


def test_a_made_up_club_cant_link_a_player_first_and_bring_the_account_in(hostile):
    """Mallory makes a club, puts Ann (a known casual player) on it and links Ann to her own
    account (she invites herself, and accepts); when Riverside's director then adds Ann,
    Mallory must not become a Riverside member: the add is refused, naming why."""
    riverside_director = account("rita")
    riverside = make_club(directors=[riverside_director], roster=["Ben"])
    domain.player_named("Ann")  # a casual player with a history
    mallory = account("mallory")
    hostile.force_login(mallory)
    hostile.post("/clubs/new", {"name": "Shadow"})
    hostile.post("/clubs/shadow/roster", {"change": "add", "name": "Ann"})
    ann = Player.objects.get(name="Ann")
    hostile.post(
        "/clubs/shadow/roster", {"change": "invite", "player": ann.pk, "username": "mallory"}
    )
    answer(hostile, "mallory", "accept")
    ann.refresh_from_db()
    assert ann.user == mallory  # on her own club first: hers to link
    director = Client()
    director.force_login(riverside_director)
    response = director.post(
        "/clubs/riverside/roster", {"change": "add", "name": "Ann"}, follow=True
    )
    page = response.content.decode()
    assert "Not added: Ann is linked to an account through Shadow" in page
    assert not riverside.roster.filter(pk=ann.pk).exists()
    assert [c.slug for c in clubs_of(mallory)] == ["shadow"]
    assert 'value="riverside"' not in hostile.get("/games/new").content.decode()


def test_a_director_of_every_club_of_a_linked_player_brings_the_account_in(hostile):
    ann_account = account("ann")
    both = account("boss")
    make_club("Hilltop", directors=[both], roster=["Ann"])
    ann = Player.objects.get(name="Ann")
    ann.user = ann_account
    ann.save()
    riverside = make_club(directors=[both], roster=[])
    hostile.force_login(both)
    response = hostile.post(
        "/clubs/riverside/roster", {"change": "add", "name": "ann"}, follow=True
    )
    assert "with the account ann, now a member" in response.content.decode()
    assert riverside.roster.filter(pk=ann.pk).exists()
    assert {c.slug for c in clubs_of(ann_account)} == {"hilltop", "riverside"}


# Someone else's account attached to a made-up club, and usernames probed --------------------
def test_a_made_up_club_cant_attach_someone_elses_account(hostile):
    """The attack: Mallory makes a club, puts a "Bob" on it and links him to the account bob
    (the old ``link``, and the new ``invite``). Bob becomes no member of her club, and his
    real club still links him: bob is asked, and says no to Mallory and yes to Riverside."""
    rita, bob = account("rita"), account("bob")
    make_club(directors=[rita], roster=["Bob"])
    mallory = account("mallory")
    hostile.force_login(mallory)
    hostile.post("/clubs/new", {"name": "Shadow"})
    hostile.post("/clubs/shadow/roster", {"change": "add", "name": "Bob Fake"})
    fake = Player.objects.get(name="Bob Fake")
    for change in ("link", "invite"):
        hostile.post(
            "/clubs/shadow/roster", {"change": change, "player": fake.pk, "username": "bob"}
        )
    fake.refresh_from_db()
    assert fake.user is None
    assert [c.slug for c in clubs_of(bob)] == []

    holder = Client()
    holder.force_login(bob)
    answer(holder, "bob", "decline")
    director = Client()
    director.force_login(rita)
    real = Player.objects.get(name="Bob")
    director.post(
        "/clubs/riverside/roster", {"change": "invite", "player": real.pk, "username": "bob"}
    )
    answer(holder, "bob", "accept")
    real.refresh_from_db()
    assert real.user == bob
    assert [c.slug for c in clubs_of(bob)] == ["riverside"]


@pytest.mark.parametrize("change", ["link", "invite"])
def test_the_roster_never_tells_whether_a_username_exists(hostile, change):
    """The attack: invite "bob" (an account) and "nobody" (none) and compare the answers, and
    the club page after. Both say the same, but for the name."""
    account("bob")
    mallory = account("mallory")
    make_club("Shadow", directors=[mallory], roster=["Pat", "Sam"])
    hostile.force_login(mallory)
    pat, sam = Player.objects.get(name="Pat"), Player.objects.get(name="Sam")
    answers = []
    for player, username in ((pat, "bob"), (sam, "nobody")):
        response = hostile.post(
            "/clubs/shadow/roster",
            {"change": change, "player": player.pk, "username": username},
            follow=True,
        )
        assert response.status_code == 200
        answers.append(
            [m.replace(username, "NAME").replace(player.name, "WHO") for m in messages_of(response)]
        )
    page = hostile.get("/clubs/shadow/").content.decode()
    found = re.findall(r'class="muted roster-state">([^<]*)<', page)  # Pat's, then Sam's
    states = [
        state.replace(name, "NAME") for state, name in zip(found, ["bob", "nobody"], strict=True)
    ]
    assert answers[0] == answers[1] != []
    assert states[0] == states[1]
    assert Player.objects.filter(user__isnull=False).count() == 0


def test_making_an_account_never_tells_whether_a_username_exists(hostile):
    """The attack: ask "make an account" for the usernames "bob" (taken) and "nobody" (free): the
    old answer "choose another username than bob" told which were taken. The director does
    not choose: both accounts are named from the players' names, with a random tail."""
    account("bob")
    mallory = account("mallory")
    make_club("Shadow", directors=[mallory], roster=["Pat", "Sam"])
    hostile.force_login(mallory)
    pat, sam = Player.objects.get(name="Pat"), Player.objects.get(name="Sam")
    for player, username in ((pat, "bob"), (sam, "nobody")):
        response = hostile.post(
            "/clubs/shadow/roster",
            {"change": "account", "player": player.pk, "username": username},
            follow=True,
        )
        assert messages_of(response) == []
        player.refresh_from_db()
        made = player.user.username
        assert re.fullmatch(rf"{player.name.lower()}-[a-z2-9]{{4}}", made)
        assert f"The account {made} is made for {player.name}." in response.content.decode()


# A throwaway club and another club's unlinked player ---------------------------------------
@pytest.mark.parametrize("change", ["invite", "account"])
def test_a_throwaway_club_cant_lock_a_club_out_of_its_own_player(hostile, change):
    """The attack: Mallory puts Riverside's unlinked Ann on a throwaway roster. Riverside's
    director still invites an account to be Ann, or makes her one."""
    rita, ann_account = account("rita"), account("ann")
    riverside = make_club(directors=[rita], roster=["Ann"])
    mallory = account("mallory")
    hostile.force_login(mallory)
    hostile.post("/clubs/new", {"name": "Throwaway"})
    hostile.post("/clubs/throwaway/roster", {"change": "add", "name": "Ann"})
    ann = Player.objects.get(name="Ann")
    assert set(ann.clubs.values_list("slug", flat=True)) == {"riverside", "throwaway"}

    director = Client()
    director.force_login(rita)
    response = director.post(
        "/clubs/riverside/roster",
        {"change": change, "player": ann.pk, "username": "ann"},
        follow=True,
    )
    assert not any(m.startswith("Not") for m in messages_of(response))
    if change == "invite":
        holder = Client()
        holder.force_login(ann_account)
        page = holder.get("/clubs/invitations").content.decode()
        assert "Accepting makes you a member of Riverside, Throwaway." in page
        answer(holder, "ann", "accept")
    ann.refresh_from_db()
    assert ann.user is not None
    assert riverside in clubs_of(ann.user)
    # Throwaway's director sees that Ann plays for Riverside, not which account she is.
    page = hostile.get("/clubs/throwaway/").content.decode()
    assert "plays for Riverside, has an account" in page
    assert f"account {ann.user.username}" not in page


# A throwaway club and a casual player with a past --------------------------------------------
def test_a_throwaway_club_cant_claim_a_casual_player_who_has_played(hostile):
    """The attack: Mallory makes a club, puts Ann (who has played casual games) on its roster
    first, and says "This is me", makes Ann an account, or invites her own account to be Ann;
    then Riverside could no more add Ann (linked through a club it doesn't direct). Each is
    refused, and Riverside adds Ann."""
    finished_game(["Ann", "Ben"], club=None)
    rita, mallory = account("rita"), account("mallory")
    riverside = make_club(directors=[rita], roster=[])
    hostile.force_login(mallory)
    hostile.post("/clubs/new", {"name": "Throwaway"})
    hostile.post("/clubs/throwaway/roster", {"change": "add", "name": "Ann"})
    ann = Player.objects.get(name="Ann")
    page = hostile.get("/clubs/throwaway/").content.decode()
    assert ">This is me<" not in page and ">Make an account<" not in page
    assert "Ann has played outside Throwaway: their own account, invited, links them" in page
    refusal = (
        "Ann has played outside Throwaway, so no director links them alone: Ann accepts an "
        "invitation to their own account (another director of Throwaway may invite yours), or "
        "the site's administrator links them."
    )
    for body, done in (
        ({"change": "me"}, "Not linked."),
        ({"change": "account"}, "Not made."),
        ({"change": "invite", "username": "mallory"}, "Not invited."),
    ):
        response = hostile.post("/clubs/throwaway/roster", {**body, "player": ann.pk}, follow=True)
        assert messages_of(response) == [f"{done} {refusal}"]
    ann.refresh_from_db()
    assert ann.user is None and not Invitation.objects.exists()
    assert [u.username for u in get_user_model().objects.order_by("username")] == [
        "mallory", "rita"
    ]  # fmt: skip
    director = Client()
    director.force_login(rita)
    response = director.post(
        "/clubs/riverside/roster", {"change": "add", "name": "Ann"}, follow=True
    )
    assert messages_of(response) == ["Ann is on Riverside's roster."]
    assert riverside.roster.filter(pk=ann.pk).exists()


@pytest.mark.parametrize("name", ["Riverside", "RIVERSIDE", "Riverside!"])
def test_a_club_cannot_be_renamed_to_pass_for_another(hostile, name):
    make_club()
    mallory = account("mallory")
    make_club("Hilltop", directors=[mallory])
    hostile.force_login(mallory)
    response = hostile.post(
        "/api/clubs/hilltop/name", {"name": name}, content_type="application/json"
    )
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "club_exists"
    response = hostile.post("/clubs/hilltop/settings/name", {"name": name}, follow=True)
    assert messages_of(response) == [
        f"Not changed. There is already a club called {name} (or close to it)."
    ]
    assert sorted(Club.objects.values_list("name", flat=True)) == ["Hilltop", "Riverside"]


def test_a_renamed_club_s_name_is_not_taken_by_a_new_club(hostile):
    make_club("Hilltop", directors=[account("rita")])
    Club.objects.filter(slug="hilltop").update(name="Riverside")  # renamed, its address kept
    hostile.force_login(account("mallory"))
    response = hostile.post("/api/clubs/", {"name": "Riverside"}, content_type="application/json")
    assert response.status_code == 409
    assert Club.objects.count() == 1
