"""The rules chosen are the rules played, and shown: the new-game form and the API keep every
rule option as chosen (those left out take the ruleset's own defaults), the form offers each
ruleset's own options and defaults, and the scorer page, the spectator screen and the game
page say the rules in force in one line."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from referee.rulesets import RULESETS, RuleOptions
from scorekeeper.games import domain
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game
from scorekeeper.web.presenters import rules_summary

pytestmark = pytest.mark.django_db

# Every ruleset × every option that concerns it × every value it can take.
CHOICES = [
    pytest.param(ruleset.id, name, value, id=f"{ruleset.id}-{name}-{value}")
    for ruleset in RULESETS.values()
    for name in RuleOptions.applies_to(ruleset)
    for value, _ in RuleOptions.CHOICES[name]
]


def form_data(ruleset: str, **options: Any) -> dict[str, str]:
    """The new-game form as a browser sends it: the ruleset's own options as the page set
    them, with ``options`` chosen instead."""
    defaults = RuleOptions.defaults(RULESETS[ruleset])
    sent = {
        name: str(options.get(name, getattr(defaults, name)))
        for name in RuleOptions.applies_to(RULESETS[ruleset])
    }
    return {
        "ruleset": ruleset,
        "options_for": ruleset,
        "lexicon": "CLUB",
        "player_1": "Ann",
        "player_2": "Ben",
        "challenge_mode": "manual",
        "starter": "1",
        **sent,
    }


def start(client: Client, data: dict[str, str]) -> Game:
    response = client.post("/games/new", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Game.objects.latest("created_at")


def create(client: Client, **body: Any) -> Game:
    body = {"lexicon": "CLUB", "players": ["Ann", "Ben"], "challenge_mode": "manual", **body}
    response = client.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 201, response.content.decode()
    return Game.objects.get(pk=response.json()["id"])


def defaults_of(ruleset: str) -> dict[str, Any]:
    return RuleOptions.defaults(RULESETS[ruleset]).to_dict()


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def selected(page_html: str, name: str) -> str:
    """The value of the option's choice the form shows as chosen."""
    choices = re.findall(rf'<input type="radio" name="{name}"[^>]*>', page_html)
    assert choices, name
    chosen = [c for c in choices if re.search(r"\schecked[\s>]", c)]
    assert len(chosen) == 1, (name, choices)
    return re.search(r'value="([^"]*)"', chosen[0]).group(1)  # type: ignore[union-attr]


# Kept as chosen --------------------------------------------------------------------------------
def test_a_crossword_game_keeps_retry_and_no_penalty_as_chosen_on_the_form(client):
    # The club's report: tournament checking, "the player may try again", "nothing" — stored
    # as lose_turn for both, because the form dropped what equalled RULES.md's defaults.
    data = form_data("crossword-classic", upheld_challenge="retry", rejected_challenge="none")
    game = start(client, data)
    assert game.challenge_mode == "manual"
    assert game.options["upheld_challenge"] == "retry"
    assert game.options["rejected_challenge"] == "none"


@pytest.mark.parametrize(("ruleset", "name", "value"), CHOICES)
def test_the_form_keeps_every_option_as_chosen(client, ruleset, name, value):
    game = start(client, form_data(ruleset, **{name: value}))
    assert game.ruleset == ruleset
    assert game.options == {**defaults_of(ruleset), name: value}


@pytest.mark.parametrize(("ruleset", "name", "value"), CHOICES)
def test_the_api_keeps_every_option_as_chosen(client, ruleset, name, value):
    game = create(client, ruleset=ruleset, options={name: value})
    assert game.options == {**defaults_of(ruleset), name: value}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_options_left_out_take_the_rulesets_own_defaults(client, ruleset):
    data = form_data(ruleset)
    for name in RuleOptions.CHOICES:
        data.pop(name, None)
    assert start(client, data).options == defaults_of(ruleset)
    assert create(client, ruleset=ruleset).options == defaults_of(ruleset)


def test_the_crossword_games_own_defaults_are_a_double_challenge(client):
    assert defaults_of("crossword-classic")["rejected_challenge"] == "lose_turn"
    assert defaults_of("upwords-10")["rejected_challenge"] == "none"


@pytest.mark.parametrize(
    ("field", "value"),
    [("upheld_challenge", "maybe"), ("rejected_challenge", "minus_50"), ("solo_exchanges", "9")],
)
def test_a_choice_the_option_does_not_have_is_refused_and_starts_nothing(client, field, value):
    response = client.post("/games/new", {**form_data("crossword-classic"), field: value})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()


# The form offers each ruleset's own options ----------------------------------------------------
def test_the_form_starts_from_the_chosen_rulesets_own_defaults(client):
    crossword = page(client, "/games/new?ruleset=crossword-classic")
    assert 'value="crossword-classic" id="id_ruleset_4" required checked' in crossword
    assert selected(crossword, "upheld_challenge") == "lose_turn"
    assert selected(crossword, "rejected_challenge") == "lose_turn"
    upwords = page(client, "/games/new")
    assert selected(upwords, "upheld_challenge") == "retry"
    assert selected(upwords, "rejected_challenge") == "none"


def test_single_challenge_and_the_other_club_rules_are_offered_by_name(client):
    crossword = page(client, "/games/new?ruleset=crossword-classic")
    for label in (
        "no penalty (single challenge)",
        "the challenger loses the next turn (double challenge)",
        "the challenged player gains 5 points (five-point challenge)",
        "the challenged player gains 10 points (ten-point challenge)",
    ):
        assert label in crossword


def offered(page_html: str, name: str) -> bool:
    row = re.search(
        rf'<fieldset class="option" data-option="{name}"( hidden)?>(.*?)</fieldset>',
        page_html,
        re.S,
    )
    assert row, name
    hidden, choices = row.group(1), re.findall(r"<input [^>]*>", row.group(2))
    assert choices, name
    for choice in choices:  # a hidden option is never sent
        assert bool(hidden) == (" disabled" in choice), choice
    return not hidden


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_each_option_is_offered_only_for_the_rulesets_it_concerns(client, ruleset):
    shown = page(client, f"/games/new?ruleset={ruleset}")
    for name in RuleOptions.CHOICES:
        assert offered(shown, name) == (name in RuleOptions.applies_to(RULESETS[ruleset]))
    assert offered(shown, "plural_s_rule") == ruleset.startswith("upwords")


def test_the_page_tells_its_script_each_rulesets_defaults(client):
    shown = page(client, "/games/new")
    table = re.search(r'<script id="ruleset-options" type="application/json">(.*?)</script>', shown)
    assert table
    assert '"crossword-classic": {"name": "Crossword (classic, 15\\u00d715)"' in table.group(1)
    assert '"upheld_challenge": "lose_turn"' in table.group(1)


def test_without_javascript_another_ruleset_comes_back_with_its_own_options(client):
    # The page showed Upwords' options (retry, no penalty); the crossword game is chosen and
    # sent without a script to change them: nothing starts, the form comes back with the
    # crossword game's own rules and what was typed.
    data = {**form_data("upwords-10"), "ruleset": "crossword-classic", "player_2": "Bea"}
    response = client.post("/games/new", data)
    assert response.status_code == 200
    assert not Game.objects.exists()
    shown = html.unescape(response.content.decode())
    assert "now Crossword (classic, 15×15)'s own" in shown
    assert selected(shown, "rejected_challenge") == "lose_turn"
    assert 'name="options_for" value="crossword-classic"' in shown
    assert 'value="Bea"' in shown
    assert not offered(shown, "plural_s_rule") and offered(shown, "out_bonus")
    # Sent again as it came back, it starts the crossword game with those rules.
    data = {**data, "options_for": "crossword-classic"}
    data.pop("plural_s_rule")
    data.update(upheld_challenge="lose_turn", rejected_challenge="lose_turn")
    game = start(client, data)
    assert game.ruleset == "crossword-classic" and game.options == defaults_of("crossword-classic")


def test_an_unknown_ruleset_asked_for_is_a_400_naming_it(client):
    response = client.get("/games/new?ruleset=chess")
    assert response.status_code == 400
    assert "There is no ruleset called 'chess'" in html.unescape(response.content.decode())


# The rules in force, in one line ---------------------------------------------------------------
def game_with(ruleset: str, mode: str = "manual", players: int = 2, **options: Any) -> Game:
    return domain.check_create_game(
        ruleset=ruleset,
        players=["Ann", "Ben", "Cat"][:players],
        lexicon="CLUB",
        challenge_mode=mode,
        options=options,
    )


@pytest.mark.parametrize(
    ("ruleset", "mode", "options", "line"),
    [
        ("crossword-classic", "manual", {}, "CLUB · tournament checking · double challenge"),
        ("crossword-classic", "manual", {"rejected_challenge": "none"},
         "CLUB · tournament checking · single challenge"),
        ("crossword-classic", "manual", {"rejected_challenge": "bonus_5"},
         "CLUB · tournament checking · five-point challenge"),
        ("crossword-classic", "manual", {"rejected_challenge": "bonus_10"},
         "CLUB · tournament checking · ten-point challenge"),
        ("crossword-classic", "manual", {"upheld_challenge": "retry", "rejected_challenge": "none"},
         "CLUB · tournament checking · single challenge · after a phony the player may try again"),
        ("crossword-classic", "manual", {"rejected_challenge": "minus_5"},
         "CLUB · tournament checking · when a challenge succeeds: the play comes off and the "
         "player loses the turn · when a challenge fails: the challenger loses 5 points"),
        ("crossword-classic", "auto", {}, "CLUB · void (words checked as played)"),
        ("crossword-classic", "auto", {"out_bonus": "twice_opponents"},
         "CLUB · void (words checked as played) · going out: twice the opponent's rack"),
        ("letterup-classic", "auto", {}, "CLUB · words checked as played"),
        ("letterup-rush", "manual", {},
         "CLUB · tournament checking · when a challenge succeeds: the player may try again · "
         "when a challenge fails: no penalty"),
        ("upwords-10", "auto", {},
         "CLUB · words checked as played · a word can't be made by simply adding an S"),
        ("upwords-8", "auto", {"plural_s_rule": False},
         "CLUB · words checked as played · an S may simply be added to a word"),
    ],
)  # fmt: skip
def test_the_rules_in_force_in_one_line(ruleset, mode, options, line):
    assert rules_summary(game_with(ruleset, mode, **options), 2) == line


def test_the_honour_system_and_a_solo_games_exchanges_are_said():
    game = domain.check_create_game(
        ruleset="letterup-classic", players=["Ann"], lexicon="honour", challenge_mode="manual",
        options={"solo_exchanges": 3},
    )  # fmt: skip
    assert rules_summary(game, 1) == "honour system, no word check · 3 exchanges"


def test_the_scorer_page_the_spectator_screen_and_the_game_page_say_the_rules(client):
    game = start(client, form_data("crossword-classic", rejected_challenge="none"))
    line = "CLUB · tournament checking · single challenge"
    client.cookies[cookie_name(game.pk)] = game.token
    for url in (f"/games/{game.pk}/score/", f"/games/{game.pk}/watch", f"/games/{game.pk}/"):
        assert line in page(client, url), url
    assert line in page(Client(), f"/games/{game.pk}/watch/live")


def test_letter_up_s_turn_clock_rule_is_told_for_letter_up_only(client):
    def told(ruleset: str) -> str:
        found = re.search(
            r'id="turn-clock-help">([^<]*)<', page(client, f"/games/new?ruleset={ruleset}")
        )
        assert found, ruleset
        return found.group(1)

    assert told("upwords-10") == told("crossword-classic") == ""
    assert told("letterup-rush") == "Letter UP Rush's rule is 75 seconds (1:15)."
