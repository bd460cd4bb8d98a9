"""Club pages: making a club, its page, and the roster its directors manage (403 for anyone
else)."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client

from scorekeeper.models import Club, Invitation, Player
from tests.factories import CLUB_WORDS, account, answer, finished_game, make_club, messages_of

pytestmark = pytest.mark.django_db


def test_making_a_club_needs_an_account(client):
    response = client.get("/clubs/new")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/clubs/new"
    assert client.post("/clubs/new", {"name": "Riverside"}).status_code == 302
    assert not Club.objects.exists()


def test_whoever_makes_a_club_is_its_director(client):
    ann = account("ann")
    client.force_login(ann)
    response = client.post("/clubs/new", {"name": "Riverside Word Club"}, follow=True)
    assert response.redirect_chain[-1] == ("/clubs/riverside-word-club/", 302)
    club = Club.objects.get()
    assert club.name == "Riverside Word Club" and list(club.directors.all()) == [ann]
    assert "you are its director" in response.content.decode()


def test_a_club_name_taken_or_unusable_is_refused(client):
    client.force_login(account("ann"))
    make_club("Riverside")
    response = client.post("/clubs/new", {"name": "riverside"})
    assert response.status_code == 400
    assert "already a club called riverside" in response.content.decode()
    assert client.post("/clubs/new", {"name": "New"}).status_code == 400
    assert client.post("/clubs/new", {"name": "!!!"}).status_code == 400
    assert Club.objects.count() == 1


def test_the_club_list_and_page_are_public(client):
    make_club("Riverside")
    assert "Riverside" in client.get("/clubs/").content.decode()
    page = client.get("/clubs/riverside/").content.decode()
    assert "Ann" in page and "Ben" in page and "Cy" in page
    assert 'name="change"' not in page  # no roster forms for a visitor
    assert client.get("/clubs/nowhere/").status_code == 404


def test_a_director_adds_a_known_player_by_name_in_any_case(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    known = Player.objects.create(name="Dee Ramos")
    client.force_login(ann)
    page = client.get("/clubs/riverside/").content.decode()
    assert 'value="add"' in page
    response = client.post("/clubs/riverside/roster", {"change": "add", "name": "dee  RAMOS"})
    assert response.status_code == 302 and response["Location"] == "/clubs/riverside/"
    assert list(club.roster.all()) == [known]
    assert Player.objects.count() == 1


def test_a_director_adds_a_new_player_and_removes_one(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    client.post("/clubs/riverside/roster", {"change": "add", "name": "Eve"})
    assert sorted(p.name for p in club.roster.all()) == ["Ben", "Eve"]
    ben = Player.objects.get(name="Ben")
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "remove", "player": ben.pk, "confirm": "yes"},
        follow=True,
    )
    assert "Ben is off Riverside&#x27;s roster." in response.content.decode()
    assert [p.name for p in club.roster.all()] == ["Eve"]
    assert Player.objects.filter(name="Ben").exists()  # off the roster, not out of history


def test_removing_a_player_asks_first_and_their_games_stay(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ann", "Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    page = client.get("/clubs/riverside/").content.decode()
    assert "Remove…" in page  # the roster's button only asks
    # Without JavaScript too: the Remove button's post asks the question, and changes nothing.
    response = client.post("/clubs/riverside/roster", {"change": "remove", "player": ben.pk})
    assert response.status_code == 200
    question = response.content.decode()
    assert "Remove Ben from Riverside?" in question
    assert "Ben’s games stay" in question
    assert 'name="confirm" value="yes"' in question
    assert 'href="/clubs/riverside/">Keep Ben</a>' in question
    assert sorted(p.name for p in club.roster.all()) == ["Ann", "Ben"]
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "remove", "player": ben.pk, "confirm": "yes"},
        follow=True,
    )
    assert messages_of(response) == ["Ben is off Riverside's roster."]
    assert [p.name for p in club.roster.all()] == ["Ann"]


def test_a_director_links_their_own_account_to_a_roster_player(client):
    ann_account = account("ann")
    club = make_club(directors=[ann_account], roster=["Ann", "Ben"])
    ann, ben = Player.objects.get(name="Ann"), Player.objects.get(name="Ben")
    client.force_login(ann_account)
    client.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ann.pk, "username": "annie"}
    )
    page = client.get("/clubs/riverside/").content.decode()
    assert page.count(">This is me<") == 2  # offered for each player with no account
    response = client.post(
        "/clubs/riverside/roster", {"change": "me", "player": ann.pk}, follow=True
    )
    assert messages_of(response) == ["You are Ann now: your account is linked to them."]
    ann.refresh_from_db()
    assert ann.user == ann_account
    assert not Invitation.objects.exists()  # no invitation needed, and the old one is gone
    assert "account ann" in response.content.decode()
    assert ">This is me<" not in response.content.decode()  # an account is one player
    # Asked again (an old page), for another player: refused, nothing changes.
    response = client.post(
        "/clubs/riverside/roster", {"change": "me", "player": ben.pk}, follow=True
    )
    assert messages_of(response) == [
        "Not linked. Your account is already Ann, and an account is one player."
    ]
    ben.refresh_from_db()
    assert ben.user is None
    assert list(club.roster.order_by("name")) == [ann, ben]


def test_a_director_cant_say_this_is_me_for_a_player_with_an_account_or_of_another_club(client):
    dee_account = account("dee")
    hilltop = make_club("Hilltop", roster=["Cy"])  # Cy plays for Hilltop, on its roster first
    make_club(directors=[dee_account], roster=["Ben", "Cy"])
    ben = Player.objects.get(name="Ben")
    ben.user = account("ben")
    ben.save()
    client.force_login(dee_account)
    page = client.get("/clubs/riverside/").content.decode()
    assert ">This is me<" not in page
    for player in (ben, Player.objects.get(name="Cy")):
        response = client.post(
            "/clubs/riverside/roster", {"change": "me", "player": player.pk}, follow=True
        )
        assert messages_of(response)[0].startswith("Not ")
    assert not Player.objects.filter(user=dee_account).exists()
    assert hilltop.roster.get().user is None


def test_a_bad_name_is_refused_by_name(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=[])
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster", {"change": "add", "name": "A\u200bnn"}, follow=True
    )
    assert "Not added." in response.content.decode()
    assert not club.roster.exists()


def test_a_director_invites_an_account_and_it_is_linked_when_its_holder_accepts(client):
    ann, ben_account = account("ann"), account("ben")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "invite", "player": ben.pk, "username": "ben"},
        follow=True,
    )
    assert messages_of(response) == [
        "If an account called ben exists, it has been invited to be Ben; Ben is linked to it "
        "when its holder accepts."
    ]
    assert "invited ben, no answer yet" in response.content.decode()
    ben.refresh_from_db()
    assert ben.user is None  # not yet: ben has not said yes

    holder = Client()
    holder.force_login(ben_account)
    assert "A club invites you to be one of its players" in holder.get("/clubs/").content.decode()
    assert "A club invites you to be one of its players" in holder.get("/").content.decode()
    page = holder.get("/clubs/invitations")
    assert "no-store" in page["Cache-Control"]
    assert "Riverside: be Ben?" in page.content.decode()
    response = answer(holder, "ben", "accept")
    assert messages_of(response) == ["You are Ben now, a member of Riverside."]
    ben.refresh_from_db()
    assert ben.user == ben_account
    assert not Invitation.objects.exists()
    assert "account ben" in client.get("/clubs/riverside/").content.decode()

    response = client.post(
        "/clubs/riverside/roster", {"change": "unlink", "player": ben.pk}, follow=True
    )
    assert messages_of(response) == ["Ben is linked to no account now."]
    ben.refresh_from_db()
    assert ben.user is None


def test_declining_an_invitation_links_nothing(client):
    ann, ben_account = account("ann"), account("ben")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    client.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ben.pk, "username": "ben"}
    )
    holder = Client()
    holder.force_login(ben_account)
    response = answer(holder, "ben", "decline")
    assert messages_of(response) == ["Declined: Riverside's invitation to be Ben."]
    assert "No invitations wait for you." in response.content.decode()
    ben.refresh_from_db()
    assert ben.user is None and not Invitation.objects.exists()


def test_a_new_invitation_replaces_the_last_and_one_can_be_withdrawn(client):
    ann = account("ann")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    for username in ("bne", "ben"):
        client.post(
            "/clubs/riverside/roster",
            {"change": "invite", "player": ben.pk, "username": username},
            follow=True,
        )
    assert list(Invitation.objects.values_list("username", flat=True)) == ["ben"]
    response = client.post(
        "/clubs/riverside/roster", {"change": "unlink", "player": ben.pk}, follow=True
    )
    assert messages_of(response) == ["The invitation to be Ben is withdrawn."]
    assert not Invitation.objects.exists()


@pytest.mark.parametrize(
    "username, problem",
    [
        ("", "Not invited: give the username of the account to invite."),
        ("b e n", "Not invited: a username is letters, digits and @ . + - _ only."),
        ("b" * 151, "Not invited: a username has at most 150 characters."),
    ],
)
def test_an_unusable_username_is_not_invited(client, username, problem):
    ann = account("ann")
    make_club(directors=[ann], roster=["Ben"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben")
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "invite", "player": ben.pk, "username": username},
        follow=True,
    )
    assert messages_of(response) == [problem]
    assert not Invitation.objects.exists()


def test_an_account_is_linked_to_one_player_only(client):
    ann, ben_account = account("ann"), account("ben")
    make_club(directors=[ann], roster=["Ben", "Cy"])
    ben, cy = Player.objects.get(name="Ben"), Player.objects.get(name="Cy")
    Player.objects.filter(pk=ben.pk).update(user=ben_account)
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "invite", "player": cy.pk, "username": "ben"},
        follow=True,
    )
    assert messages_of(response)[0].startswith("If an account called ben exists")
    holder = Client()
    holder.force_login(ben_account)
    response = answer(holder, "ben", "accept")
    assert messages_of(response) == [
        "Not accepted. Your account is already Ben, and an account is one player. Decline this "
        "invitation, or ask the site's administrator to join the two."
    ]
    cy.refresh_from_db()
    assert cy.user is None
    response = client.post(
        "/clubs/riverside/roster",
        {"change": "invite", "player": ben.pk, "username": "cy"},
        follow=True,
    )
    assert messages_of(response) == [
        "Not invited: Ben is already linked to an account; unlink it first."
    ]


def test_an_invitation_for_a_player_taken_off_the_roster_no_longer_holds(client):
    ann, ben_account = account("ann"), account("ben")
    make_club(directors=[ann], roster=["Ben"])
    ben = Player.objects.get(name="Ben")
    client.force_login(ann)
    client.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ben.pk, "username": "ben"}
    )
    invitation = Invitation.objects.get()
    client.post("/clubs/riverside/roster", {"change": "remove", "player": ben.pk, "confirm": "yes"})
    assert not Invitation.objects.exists()  # taking Ben off withdraws it
    invitation.save()  # as if it had been left behind (by staff editing the roster)
    holder = Client()
    holder.force_login(ben_account)
    response = answer(holder, "ben", "accept")
    assert messages_of(response) == [
        "Not accepted. That invitation no longer holds: Ben no longer plays for Riverside."
    ]
    ben.refresh_from_db()
    assert ben.user is None and not Invitation.objects.exists()


def test_only_the_invited_account_answers_an_invitation(client):
    ann = account("ann")
    make_club(directors=[ann], roster=["Ben"])
    ben = Player.objects.get(name="Ben")
    client.force_login(ann)
    client.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ben.pk, "username": "ben"}
    )
    invitation = Invitation.objects.get()
    url = f"/clubs/invitations/{invitation.pk}"
    assert client.post(url, {"answer": "accept"}).status_code == 404  # ann is not ben
    assert "No invitations wait for you." in client.get("/clubs/invitations").content.decode()
    visitor = Client()
    assert visitor.get("/clubs/invitations")["Location"].startswith("/accounts/login/")
    assert visitor.post(url, {"answer": "accept"})["Location"].startswith("/accounts/login/")
    holder = Client()
    holder.force_login(account("ben"))
    response = holder.post(url, {"answer": "yes please"})
    assert response.status_code == 400
    assert "Say accept or decline." in response.content.decode()
    assert holder.get(url).status_code == 405
    ben.refresh_from_db()
    assert ben.user is None and Invitation.objects.count() == 1


@pytest.mark.parametrize(
    "body",
    [
        {"change": "add", "name": "Mallory"},
        {"change": "remove", "player": "1"},
        {"change": "invite", "player": "1", "username": "mallory"},
        {"change": "unlink", "player": "1"},
        {"change": "account", "player": "1"},
        {"change": "me", "player": "1"},
        {"change": "remove", "player": "1", "confirm": "yes"},
    ],
)
def test_only_a_director_changes_the_roster(client, body):
    club = make_club(directors=[account("ann")], roster=["Ben"])
    before = list(club.roster.values_list("pk", flat=True))
    assert client.post("/clubs/riverside/roster", body).status_code == 403  # a visitor
    client.force_login(account("mallory"))
    response = client.post("/clubs/riverside/roster", body)
    assert response.status_code == 403
    assert "Only a director of Riverside can change its roster." in response.content.decode()
    assert list(club.roster.values_list("pk", flat=True)) == before
    assert not Player.objects.filter(name="Mallory").exists()
    assert not Player.objects.filter(user__username="mallory").exists()


def test_the_roster_form_takes_only_posts(client):
    ann = account("ann")
    make_club(directors=[ann])
    client.force_login(ann)
    assert client.get("/clubs/riverside/roster").status_code == 405


def test_a_player_not_on_the_roster_cant_be_removed_or_linked(client):
    ann = account("ann")
    club = make_club(directors=[ann], roster=["Ben"])
    outsider = Player.objects.create(name="Zed")
    client.force_login(ann)
    response = client.post(
        "/clubs/riverside/roster", {"change": "remove", "player": outsider.pk}, follow=True
    )
    assert "That player is not on Riverside&#x27;s roster." in response.content.decode()
    assert club.roster.count() == 1


def test_staff_edit_a_club_in_the_admin(admin_client):
    club = make_club(roster=["Ben"])
    assert admin_client.get("/admin/scorekeeper/club/").status_code == 200
    response = admin_client.post(
        f"/admin/scorekeeper/club/{club.pk}/change/",
        {"name": "Riverside WC", "slug": "riverside", "roster": [p.pk for p in club.roster.all()]},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.name == "Riverside WC"


def test_a_director_makes_an_account_for_a_roster_player_and_sees_its_password_once(client):
    from django.contrib.auth import authenticate

    ann = account("ann")
    make_club(directors=[ann], roster=["Ben Ong"])
    client.force_login(ann)
    ben = Player.objects.get(name="Ben Ong")
    response = client.post("/clubs/riverside/roster", {"change": "account", "player": ben.pk})
    assert response.status_code == 302
    page = client.get("/clubs/riverside/")
    text = page.content.decode()
    password = re.search(r'<code class="password">([^<]+)</code>', text)[1]
    assert "no-store" in page["Cache-Control"]
    ben.refresh_from_db()
    assert ben.user is not None and re.fullmatch(r"ben-ong-[a-z2-9]{4}", ben.user.username)
    assert f"The account {ben.user.username} is made for Ben Ong." in text
    assert authenticate(username=ben.user.username, password=password) is not None
    assert password not in client.get("/clubs/riverside/").content.decode()  # once


def test_a_made_accounts_username_says_nothing_of_the_usernames_taken(client):
    """The director doesn't choose the username: it is the player's name and a random tail,
    whether or not an account already has the name (a username asked for is ignored)."""
    ann = account("ann")
    account("ben")
    make_club(directors=[ann], roster=["Ben", "Cy"])
    client.force_login(ann)
    ben, cy = Player.objects.get(name="Ben"), Player.objects.get(name="Cy")
    for player, asked in ((ben, "ben"), (cy, "cy")):  # "ben" is taken, "cy" is free
        response = client.post(
            "/clubs/riverside/roster",
            {"change": "account", "player": player.pk, "username": asked},
            follow=True,
        )
        assert messages_of(response) == []
        player.refresh_from_db()
        assert re.fullmatch(rf"{asked}-[a-z2-9]{{4}}", player.user.username)
        assert "choose another" not in response.content.decode()
    response = client.post(
        "/clubs/riverside/roster", {"change": "account", "player": ben.pk}, follow=True
    )
    assert messages_of(response) == ["Not made: Ben already has an account."]
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.count() == 4  # ann, ben, and one each for Ben and Cy


def test_an_account_is_made_from_any_name(client):
    ann = account("ann")
    make_club(directors=[ann], roster=["李小龍", "Zoë"])
    client.force_login(ann)
    for player in Player.objects.all():
        client.post("/clubs/riverside/roster", {"change": "account", "player": player.pk})
    names = sorted(p.user.username for p in Player.objects.all())
    assert re.fullmatch(r"player-[a-z2-9]{4}", names[0])
    assert re.fullmatch(r"zoe-[a-z2-9]{4}", names[1])


def test_every_club_page_works_at_a_glance(client):
    """One h1, captioned tables with scoped headers, every form field labelled."""
    from tests.factories import finished_game

    ann = account("ann")
    club = make_club(directors=[ann])
    game = finished_game(["Ann", "Ben"], club=club)
    finished_game(["Ann", "Ben"], club=club, lexicon="honour")
    urls = ["/accounts/login/", "/clubs/", "/clubs/riverside/"]
    for url in urls:
        page = client.get(url).content.decode()
        assert page.count("<h1") == 1, url
    client.force_login(ann)
    for url in [*urls[1:], "/clubs/new", "/clubs/invitations", f"/games/{game.pk}/"]:
        page = client.get(url).content.decode()
        assert page.count("<h1") == 1, url
        assert page.count("<table") == page.count("<caption"), url
        assert "<th>" not in page, url
        for field_id in re.findall(r'<(?:input|select)[^>]* id="([^"]+)"', page):
            assert f'for="{field_id}"' in page, (url, field_id)
    assert 'for="id_club"' in client.get("/games/new").content.decode()


# A player with a past outside the club -------------------------------------------------------
def test_a_director_claims_a_player_whose_games_are_all_the_clubs(client, use_words):
    use_words(CLUB_WORDS)
    ann_account = account("ann")
    club = make_club(directors=[ann_account], roster=["Ann", "Ben"])
    finished_game(["Ann", "Ben"], club=club)
    ann, ben = Player.objects.get(name="Ann"), Player.objects.get(name="Ben")
    client.force_login(ann_account)
    page = client.get("/clubs/riverside/").content.decode()
    assert page.count(">This is me<") == 2 and page.count(">Make an account<") == 2
    response = client.post(
        "/clubs/riverside/roster", {"change": "me", "player": ann.pk}, follow=True
    )
    assert messages_of(response) == ["You are Ann now: your account is linked to them."]
    client.post("/clubs/riverside/roster", {"change": "account", "player": ben.pk})
    ben.refresh_from_db()
    assert ben.user is not None


def test_a_fellow_director_invites_a_director_to_be_a_player_who_has_played_elsewhere(
    client, use_words
):
    use_words(CLUB_WORDS)
    rita, ann_account = account("rita"), account("ann")
    make_club(directors=[rita, ann_account], roster=["Ann"])
    finished_game(["Ann", "Ben"], club=None)  # a casual game: a past outside the club
    ann = Player.objects.get(name="Ann")
    client.force_login(ann_account)
    response = client.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ann.pk, "username": "ann"},
        follow=True,
    )  # fmt: skip
    assert messages_of(response)[0].startswith("Not invited. Ann has played outside Riverside")
    fellow = Client()
    fellow.force_login(rita)
    response = fellow.post(
        "/clubs/riverside/roster", {"change": "invite", "player": ann.pk, "username": "ann"},
        follow=True,
    )  # fmt: skip
    assert messages_of(response)[0].startswith("If an account called ann exists")
    answer(client, "ann", "accept")
    ann.refresh_from_db()
    assert ann.user == ann_account


# Two answers at the same moment ----------------------------------------------------------------
def test_the_database_keeps_an_account_to_one_player():
    ann = account("ann")
    make_club(roster=["Ann", "Ben"])
    Player.objects.filter(name="Ann").update(user=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(name="Ben").update(user=ann)
    Player.objects.filter(name="Ann").update(user=None)
    Player.objects.filter(name="Ben").update(user=ann)  # the legal twin: one player at a time
    assert Player.objects.get(user=ann).name == "Ben"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's concurrent writers")
def test_two_invitations_accepted_at_the_same_moment_link_one_player(monkeypatch):
    """Riverside invites ann to be Ann, Hilltop to be Annie; ann accepts both in two tabs at
    once. The first answer is held between its link and its commit while the second comes in:
    the second waits for it, then is refused in a sentence."""
    holder = account("ann")
    make_club(roster=["Ann"])
    make_club("Hilltop", roster=["Annie"])
    for club in Club.objects.order_by("pk"):
        Invitation.objects.create(club=club, player=club.roster.get(), username="ann")
    first, second = Invitation.objects.order_by("pk")
    linked, release = threading.Event(), threading.Event()
    save = Player.save

    def held_save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        save(self, *args, **kwargs)
        if threading.current_thread().name == "first":
            linked.set()
            release.wait(30)

    monkeypatch.setattr(Player, "save", held_save)
    said: dict[str, list[str]] = {}

    def accept(invitation: Invitation) -> None:
        tab = Client()
        tab.force_login(holder)
        try:
            response = tab.post(f"/clubs/invitations/{invitation.pk}", {"answer": "accept"})
            said[threading.current_thread().name] = messages_of(tab.get("/clubs/invitations"))
            assert response.status_code == 302
        finally:
            connection.close()

    tabs = [
        threading.Thread(target=accept, args=(invitation,), name=name)
        for invitation, name in ((first, "first"), (second, "second"))
    ]
    tabs[0].start()
    assert linked.wait(30)
    tabs[1].start()
    # The second answer either waits on a lock the first holds or has already finished.
    with connection.cursor() as cursor:
        for _ in range(300):
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0] or not tabs[1].is_alive():
                break
            tabs[1].join(0.1)
    release.set()
    for tab in tabs:
        tab.join(30)
    assert said["first"] == ["You are Ann now, a member of Riverside."]
    assert said["second"] == [
        "Not accepted. Your account is already Ann, and an account is one player. Decline this "
        "invitation, or ask the site's administrator to join the two."
    ]
    assert list(Player.objects.filter(user=holder).values_list("name", flat=True)) == ["Ann"]
