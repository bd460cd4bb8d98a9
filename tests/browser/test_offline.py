"""Never lose a turn to the network: a play submitted offline waits on the scorer page, is
sent once when the connection returns, survives a reload, and comes back if refused; other
actions are refused offline with a sentence (static/js/offline.js)."""

from __future__ import annotations

import contextlib
import re
import time

import pytest
from playwright.sync_api import Error, Page, Request, Response, Route, expect

from scorekeeper.games import domain
from scorekeeper.models import Game, Turn
from tests.browser.pages import SHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN_URL = re.compile(r"/games/[0-9a-f-]+/score/turn$")
WIDTHS = (360, 390, 1280)


def new_game() -> Game:
    return domain.check_create_game(ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB")


def open_scorer(page: Page, game: Game) -> None:
    page.goto(f"/games/{game.pk}/score/{game.token}/")
    expect(page.locator("#play-input")).to_be_visible()


def tap_play(page: Page, square: str, letters: str, down: bool = False) -> None:
    page.click(f"button.sq[data-name={square}]")
    if down:
        page.click(f"button.sq[data-name={square}]")  # the same square again: down
    page.keyboard.type(letters)


def submit(page: Page) -> None:
    page.get_by_role("button", name="Submit play").click()


def waiting(page: Page) -> object:
    """What this browser keeps for the game (offline.js's localStorage entry), or None."""
    return page.evaluate(
        "() => JSON.parse(localStorage.getItem("
        "'scorekeeper:waiting:' + document.querySelector('.scorer-page').dataset.game))"
    )


def log(game: Game) -> list[tuple[int, str, str, str]]:
    return [
        (t.number, t.seat.player.name, t.action, t.notation)
        for t in Turn.objects.filter(game_id=game.pk).select_related("seat__player")
        .order_by("number")
    ]  # fmt: skip


def shoot(page: Page, name: str) -> None:
    """The page at each width, as it stands (the banner sits in the score bar, at the top)."""
    folder = SHOTS / "offline"
    folder.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(folder / f"{name}-{width}.png"))
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_waiting_play_that_ends_on_a_board_letter_keeps_its_own_dots(page: Page):
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    open_scorer(page, game)
    page.context.set_offline(True)
    page.locator("#play-input").fill("G4 A.")
    submit(page)
    expect(page.locator("#waiting")).to_have_text("Offline — 1 turn waiting to be sent: G4 A.")


def test_plays_submitted_offline_wait_and_land_once_in_order_when_the_connection_returns(
    page: Page,
):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    expect(page.locator("#play-input")).to_have_value("5D MOOD")
    submit(page)
    banner = page.locator("#waiting")
    expect(banner).to_have_text("Offline — 1 turn waiting to be sent: 5D MOOD.")
    # Its tiles stay on the board, marked, and the field is ready for the next play.
    expect(page.locator("button.sq.waiting")).to_have_count(4)
    expect(page.get_by_role("gridcell", name="G5: D, waiting to be sent")).to_be_visible()
    expect(page.locator("#play-input")).to_have_value("")
    # The next play builds on it, and waits behind it with the next turn's number.
    tap_play(page, "G6", "ear", down=True)
    expect(page.locator("#play-input")).to_have_value("G5 .EAR")
    submit(page)
    expect(banner).to_have_text("Offline — 2 turns waiting to be sent: 5D MOOD, G5 .EAR.")
    # Across again, as after a play sent online.
    expect(page.locator("#direction")).to_have_text("Across →")
    expect(page.locator("#play-direction")).to_have_value("across")
    kept = waiting(page)["queue"]
    assert [(k["play"], k["expected"]) for k in kept] == [("5D MOOD", 1), ("G5 .EAR", 2)]
    assert kept[0]["key"] != kept[1]["key"]
    shoot(page, "two-waiting")
    assert log(game) == []

    page.context.set_offline(False)
    messages = page.locator(".messages")
    expect(messages).to_contain_text("Ann played 5D MOOD for 8")
    expect(messages).to_contain_text("Ben played G5 .EAR")
    expect(banner).to_be_hidden()
    assert log(game) == [(1, "Ann", "play", "5D MOOD"), (2, "Ben", "play", "G5 .EAR")]
    assert waiting(page) is None
    expect(page.locator("button.sq.waiting")).to_have_count(0)


def test_a_play_whose_answer_was_lost_is_sent_again_with_its_key_and_entered_once(page: Page):
    game = new_game()
    open_scorer(page, game)
    sent: list[tuple[str | None, str]] = []  # each try's key and body
    replayed: list[str | None] = []  # each answer's Idempotent-Replayed

    def on_request(request: Request) -> None:
        if TURN_URL.search(request.url):
            sent.append((request.headers.get("idempotency-key"), request.post_data or ""))

    def on_response(response: Response) -> None:
        if TURN_URL.search(response.url):
            replayed.append(response.headers.get("idempotent-replayed"))

    page.on("request", on_request)
    page.on("response", on_response)

    def reach_the_server_then_lose_the_answer(route: Route) -> None:
        route.fetch()  # the server enters the turn...
        route.abort("internetdisconnected")  # ...and its answer never arrives
        page.unroute(TURN_URL)

    page.route(TURN_URL, reach_the_server_then_lose_the_answer)
    tap_play(page, "D5", "mood")
    submit(page)
    # The next try (the retry timer) gets the first answer: nothing is entered twice.
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    assert log(game) == [(1, "Ann", "play", "5D MOOD")]
    assert len(sent) == 2 and sent[0] == sent[1] and sent[0][0]
    assert "expected_turn=1" in sent[0][1]
    assert replayed[-1] == "true"
    assert waiting(page) is None


def test_a_waiting_play_survives_a_reload(page: Page):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    submit(page)
    expect(page.locator("#waiting")).to_contain_text("1 turn waiting")
    # Back online, but the turn can't get through: the page is opened again from the server,
    # so all it knows of the play is what this browser kept.
    blocked: list[str] = []

    def refuse(route: Route) -> None:
        blocked.append(route.request.headers.get("idempotency-key", ""))
        route.abort("internetdisconnected")

    page.route(TURN_URL, refuse)
    page.context.set_offline(False)
    page.reload()
    banner = page.locator("#waiting")
    expect(banner).to_contain_text("Can't reach the server — 1 turn waiting to be sent: 5D MOOD.")
    expect(page.locator("button.sq.waiting")).to_have_count(4)
    expect(page.get_by_role("gridcell", name="D5: M, waiting to be sent")).to_be_visible()
    send_now = banner.get_by_role("button", name="Send now")
    box = send_now.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24
    shoot(page, "cant-reach-after-reload")
    assert blocked and log(game) == []
    key = waiting(page)["queue"][0]["key"]
    assert set(blocked) == {key}  # every try with the key it was given when tapped
    page.unroute(TURN_URL)
    send_now.click()
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    assert log(game) == [(1, "Ann", "play", "5D MOOD")]
    assert waiting(page) is None


@pytest.mark.parametrize(
    ("play", "elsewhere", "reason"),
    [
        ("moox", None, "MOOX"),
        ("mood", "pass", "Another turn was entered first"),
    ],
    ids=["illegal", "stale"],
)
def test_a_refused_waiting_play_is_shown_and_put_back(page: Page, play, elsewhere, reason):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    tap_play(page, "D5", play)
    typed = page.locator("#play-input").input_value()
    submit(page)
    # A second play waits behind it.
    tap_play(page, "G6", "ear", down=True)
    submit(page)
    expect(page.locator("#waiting")).to_contain_text("2 turns waiting")
    if elsewhere:  # another phone enters a turn meanwhile
        domain.act(game.pk, domain.TurnCommand(elsewhere, expected_turn=1, by="another phone"))
    page.context.set_offline(False)
    refusal = page.locator(".table-news .refusal")
    expect(refusal).to_contain_text("Not entered.")
    expect(refusal).to_contain_text(reason)
    # The refused play is back in the entry area, its tiles tapped again; the one behind it
    # is kept, unsent, until the scorer sends or discards it.
    expect(page.locator("#play-input")).to_have_value(typed)
    expect(page.locator("button.sq.pending")).to_have_count(4)
    banner = page.locator("#waiting")
    expect(banner).to_contain_text("Kept here, not sent: G5 .EAR.")
    kept = waiting(page)
    assert kept["queue"] == [] and [k["play"] for k in kept["held"]] == ["G5 .EAR"]
    assert [t[2] for t in log(game)] == ([elsewhere] if elsewhere else [])
    shoot(page, f"refused-{elsewhere or 'illegal'}")
    banner.get_by_role("button", name="Discard").click()  # the dialog is accepted
    expect(banner).to_be_hidden()
    assert waiting(page) is None
    expect(page.locator("#play-input")).to_have_value(typed)  # the refused play stays


@pytest.mark.parametrize(
    ("button", "sentence"),
    [
        ("Pass", "You are offline: passes can't wait; try again when connected."),
        ("Exchange", "You are offline: exchanges can't wait; try again when connected."),
        ("Undo", "You are offline: undoing a turn can't wait; try again when connected."),
    ],
)
def test_other_actions_offline_are_refused_with_a_sentence_and_not_kept(
    page: Page, button, sentence
):
    game = new_game()
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD"))
    open_scorer(page, game)
    page.context.set_offline(True)
    expect(page.locator("#waiting")).to_contain_text("Offline")
    action = page.locator(".actions").get_by_role("button", name=re.compile(f"^{button}")).first
    action.click()
    said = page.locator("#offline-say")
    expect(said).to_have_text(sentence)
    expect(action).to_be_enabled()  # ready to try again
    assert waiting(page) is None
    assert page.url.endswith(f"/games/{game.pk}/score/")
    page.context.set_offline(False)
    expect(said).to_be_hidden()
    assert len(log(game)) == 1


def test_a_challenge_offline_is_refused_with_a_sentence(page: Page):
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB",
        challenge_mode="manual",
    )  # fmt: skip
    domain.act(game.pk, domain.TurnCommand("play", notation="8D HOUSE"))
    open_scorer(page, game)
    page.context.set_offline(True)
    page.get_by_role("button", name=re.compile("^Challenge")).click()
    expect(page.locator("#offline-say")).to_have_text(
        "You are offline: challenges can't wait; try again when connected."
    )
    assert waiting(page) is None and len(log(game)) == 1


def test_a_kept_play_is_sent_next_with_a_new_number_once_the_refused_one_is_in(page: Page):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    submit(page)
    tap_play(page, "G6", "ear", down=True)
    submit(page)
    domain.act(game.pk, domain.TurnCommand("pass", expected_turn=1, by="another phone"))
    page.context.set_offline(False)
    expect(page.locator(".table-news .refusal")).to_contain_text("Another turn was entered first")
    # The refused play, back in the field, goes in as it stands now: Ben's turn 2.
    with page.expect_navigation():
        submit(page)
    expect(page.locator(".messages")).to_contain_text("Ben played 5D MOOD for 8")
    banner = page.locator("#waiting")
    expect(banner).to_contain_text("Kept here, not sent: G5 .EAR.")
    banner.get_by_role("button", name="Send it next").click()
    expect(page.locator(".messages")).to_contain_text("Ann played G5 .EAR")
    assert log(game) == [
        (1, "Ann", "pass", ""),
        (2, "Ben", "play", "5D MOOD"),
        (3, "Ann", "play", "G5 .EAR"),
    ]
    assert waiting(page) is None


def test_a_play_being_tapped_when_the_waiting_ones_are_sent_stays_in_the_field(page: Page):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    submit(page)
    tap_play(page, "G6", "ea", down=True)  # not submitted yet
    expect(page.locator("#play-input")).to_have_value("G5 .EA")
    page.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    expect(page.locator("#play-input")).to_have_value("G5 .EA")
    expect(page.locator("button.sq.pending")).to_have_count(2)
    expect(page.locator("#direction")).to_have_text("Down ↓")
    assert log(game) == [(1, "Ann", "play", "5D MOOD")]


# A reload offline (the service worker: templates/offline/service_worker.js) ----------------
def kept_for_offline(page: Page) -> None:
    """Wait until the service worker says it keeps this page and its files (it is installed,
    then fetches them: generous on a loaded machine)."""
    expect(page.locator(".scorer-page[data-kept]")).to_have_count(1, timeout=20_000)


def kept_urls(page: Page) -> dict[str, list[str]]:
    """Every address the service worker's caches hold, by cache."""
    return page.evaluate(
        """async () => {
            const all = {};
            for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                all[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
            }
            return all;
        }"""
    )


def test_a_reload_offline_shows_the_page_with_its_waiting_plays_sent_once_back_online(
    page: Page,
):
    game = new_game()
    open_scorer(page, game)
    kept_for_offline(page)
    sent: list[str | None] = []
    page.on(
        "request",
        lambda r: sent.append(r.headers.get("idempotency-key")) if TURN_URL.search(r.url) else None,
    )
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    submit(page)
    tap_play(page, "G6", "ear", down=True)
    submit(page)
    page.reload()
    banner = page.locator("#waiting")
    expect(banner).to_have_text("Offline — 2 turns waiting to be sent: 5D MOOD, G5 .EAR.")
    expect(page.get_by_role("grid")).to_be_visible()
    expect(page.locator("button.sq.waiting")).to_have_count(7)
    expect(page.get_by_role("gridcell", name="G8: R, waiting to be sent")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Submit"))).to_be_visible()
    shoot(page, "reloaded-offline")
    assert log(game) == [] and sent == []

    page.context.set_offline(False)
    messages = page.locator(".messages")
    expect(messages).to_contain_text("Ann played 5D MOOD for 8")
    expect(messages).to_contain_text("Ben played G5 .EAR")
    assert log(game) == [(1, "Ann", "play", "5D MOOD"), (2, "Ben", "play", "G5 .EAR")]
    assert len(sent) == 2 and len(set(sent)) == 2  # once each, each with its own key
    assert waiting(page) is None


def test_the_page_online_is_the_server_s_never_the_kept_one(page: Page):
    game = new_game()
    open_scorer(page, game)
    kept_for_offline(page)
    page.goto(f"/games/{game.pk}/")  # away, so that no stream brings the news below
    domain.act(game.pk, domain.TurnCommand("play", notation="5D MOOD", by="another phone"))
    page.goto(f"/games/{game.pk}/score/")  # the address whose copy is kept
    expect(page.get_by_role("gridcell", name=re.compile("^D5: M"))).to_be_visible()
    expect(page.locator(".scorer-page")).to_have_attribute("data-next-turn", "2")


def test_only_scorer_pages_and_their_files_are_kept_never_the_api_or_the_streams(page: Page):
    game = new_game()
    open_scorer(page, game)
    kept_for_offline(page)
    tap_play(page, "D5", "mood")
    expect(page.locator("#preview")).to_contain_text("8")  # a preview was asked for
    with page.expect_navigation():
        submit(page)
    expect(page.locator(".scorer-page[data-pushed]")).to_have_count(1)  # its stream is open
    page.goto(f"/api/games/{game.pk}/turns")
    page.goto(f"/games/{game.pk}/")
    kept = kept_urls(page)
    pages = [path for name, paths in kept.items() if name.startswith("scorer-pages-")
             for path in paths]  # fmt: skip
    files = [path for name, paths in kept.items() if name.startswith("scorer-files-")
             for path in paths]  # fmt: skip
    assert pages == [f"/games/{game.pk}/score/"]
    assert files and all(path.startswith("/static/") for path in files)
    assert {"/static/js/offline.js", "/static/css/app.css"} <= set(files)


def test_signing_out_forgets_the_kept_pages(page: Page, django_user_model):
    django_user_model.objects.create_user("ann", password="pw-long-enough-123")
    page.goto("/accounts/login/")
    page.fill("#id_username", "ann")
    page.fill("#id_password", "pw-long-enough-123")
    page.locator("main").get_by_role("button", name=re.compile("^Sign in")).click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    game = new_game()
    open_scorer(page, game)
    kept_for_offline(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    assert not any(paths for name, paths in kept_urls(page).items()
                   if name.startswith("scorer-pages-"))  # fmt: skip
    page.context.set_offline(True)
    with pytest.raises(Error, match="net::ERR_"):  # the browser's own error page
        page.goto(f"/games/{game.pk}/score/")


def test_a_typed_waiting_play_is_drawn_on_the_board_as_a_tapped_one_is(page: Page):
    game = new_game()
    open_scorer(page, game)
    page.context.set_offline(True)
    page.fill("#play-input", "5D MOOD")
    submit(page)
    expect(page.locator("button.sq.waiting")).to_have_count(4)
    expect(page.get_by_role("gridcell", name="G5: D, waiting to be sent")).to_be_visible()
    # The next, typed through the waiting D, is drawn where its new letters go.
    page.fill("#play-input", "g5 .ear")
    submit(page)
    expect(page.locator("#waiting")).to_contain_text("2 turns waiting")
    expect(page.locator("button.sq.waiting")).to_have_count(7)
    expect(page.get_by_role("gridcell", name="G8: R, waiting to be sent")).to_be_visible()
    kept = waiting(page)["queue"]
    assert [k["tiles"] for k in kept] == [
        [[4, 3, "M"], [4, 4, "O"], [4, 5, "O"], [4, 6, "D"]],
        [[5, 6, "E"], [6, 6, "A"], [7, 6, "R"]],
    ]


def test_a_challenge_is_offered_only_for_the_play_it_would_be_about(page: Page):
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB",
        challenge_mode="manual",
    )  # fmt: skip
    domain.act(game.pk, domain.TurnCommand("play", notation="8D HOUSE"))
    open_scorer(page, game)
    challenge = page.get_by_role("button", name=re.compile("^Challenge"))
    expect(challenge).to_have_text("Challenge 8D HOUSE")
    page.context.set_offline(True)
    page.fill("#play-input", "9E AT")
    submit(page)
    expect(page.locator("#waiting")).to_contain_text("1 turn waiting")
    # Sent, the waiting play would come after HOUSE: a challenge now would not be of it.
    expect(challenge).to_be_hidden()
    shoot(page, "challenge-while-waiting")
    page.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Ben played 9E AT")
    expect(challenge).to_have_text("Challenge 9E AT")


def test_the_sentence_of_plays_that_waited_is_shown_when_their_news_comes_during_the_load(
    page: Page,
):
    game = new_game()
    open_scorer(page, game)
    expect(page.locator(".scorer-page[data-pushed]")).to_have_count(1)  # its stream is open
    page.context.set_offline(True)
    tap_play(page, "D5", "mood")
    submit(page)
    expect(page.locator("#waiting")).to_contain_text("1 turn waiting")
    scorer_page = re.compile(rf"/games/{game.pk}/score/$")
    loads: list[str] = []

    def slow_answer(route: Route) -> None:
        # A slow network: the page's answer arrives well after the news of the turn that
        # the stream brings (the page, still shown, hears of it while it is being loaded).
        if route.request.headers.get("scorekeeper-copy"):
            return route.continue_()  # the service worker's own copy, not a load
        loads.append(route.request.url)
        answer = route.fetch()
        time.sleep(1.5)
        with contextlib.suppress(Error):  # a load that another one replaced
            route.fulfill(response=answer)

    page.context.route(scorer_page, slow_answer)
    page.context.set_offline(False)
    expect(page.locator(".messages")).to_contain_text("Ann played 5D MOOD for 8")
    assert log(game) == [(1, "Ann", "play", "5D MOOD")]
    assert len(loads) == 1
