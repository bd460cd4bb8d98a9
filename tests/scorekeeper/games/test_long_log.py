"""A long game costs what a short one does: a turn, a challenge, an undo, a correction of a
recent turn, the board at an earlier turn, the correction page and its preview replay a few
turns and read a few log entries, at entry 2,000 as at entry 20. Counted, never timed: the
engine's moves and the log entries read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db.models.signals import post_init
from django.test import Client

from referee import GameState
from scorekeeper.games import domain
from scorekeeper.games.consistency import audit_game
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Game, Turn
from tests.factories import HOUSE

pytestmark = pytest.mark.django_db

# Moves the engine makes, or turns read, in a long game's turn: whatever the log's length, a
# checkpoint is at most 50 turns behind (scorekeeper.games.checkpoints.EVERY), and a turn
# reads and replays no more than the turns since it, and a few more.
BOUND = 60
LONG, SHORT = 1990, 20
MOVES = ("play", "pass_turn", "exchange", "challenge", "penalty", "finish", "abandon", "void")


@pytest.fixture(autouse=True)
def words(use_words):
    use_words("HOUSE EXAM EXAMS")


def long_game(entries: int) -> Game:
    """A Letter UP game of ``entries`` log entries, as an import stores one: HOUSE, then
    one-tile exchanges; tournament-style challenges."""
    draft = domain.draft_game(
        ruleset="letterup-classic", players=["Ann", "Ben"], lexicon="CLUB", challenge_mode="manual"
    )
    draft.enter("play", tiles=HOUSE)
    for _ in range(entries - 1):
        draft.enter("exchange", count=1)
    return draft.save()


@pytest.fixture
def counted(monkeypatch) -> Iterator[Callable[[Callable[[], Any]], Counter[str]]]:
    """``counted(fn)``: the engine's moves (``GameState``'s) and the log entries read (``Turn``
    rows made into objects) while ``fn`` runs."""
    tally: Counter[str] = Counter()
    for name in MOVES:
        move = getattr(GameState, name)

        def wrapped(self, *args, _move=move, **kwargs):  # type: ignore[no-untyped-def]
            tally["moves"] += 1
            return _move(self, *args, **kwargs)

        monkeypatch.setattr(GameState, name, wrapped)

    def read(sender, instance, **kwargs):  # type: ignore[no-untyped-def]
        tally["turns"] += 1

    post_init.connect(read, sender=Turn)

    def count(fn: Callable[[], Any]) -> Counter[str]:
        tally.clear()
        answer = fn()
        assert getattr(answer, "status_code", 200) == 200, answer
        return Counter(tally)

    yield count
    post_init.disconnect(read, sender=Turn)


def costs(entries: int, count: Callable[[Callable[[], Any]], Counter[str]]) -> dict[str, Counter]:
    """What each kind of request cost on a game of ``entries`` entries."""
    game = long_game(entries)
    client = Client()
    client.cookies[cookie_name(game.pk)] = game.token

    def act(action: str, **fields: Any) -> Callable[[], Any]:
        return lambda: domain.act(game.pk, domain.TurnCommand(action, **fields))

    found = {"play": count(act("play", notation="H8 .XAM"))}
    played = Turn.objects.get(game=game, action="play", notation="H8 .XAM").number
    found["challenge"] = count(act("challenge"))
    found["undo"] = count(act("undo"))
    found["correction"] = count(act("correct", target=played, notation="H8 .XAMS"))
    found["earlier board"] = count(lambda: client.get(f"/games/{game.pk}/?turn={entries // 2}"))
    # The correction page and its preview for the last turn: the board before it.
    score, last = f"/games/{game.pk}/score/", entries + 4
    found["correction page"] = count(lambda: client.get(f"{score}correct?turn={last}"))
    preview = {"target": str(last), "play": "H8 .XAM"}
    found["its preview"] = count(lambda: client.post(f"{score}correct-preview", preview))
    stored = Game.objects.get(pk=game.pk)
    assert stored.last_entry_number == entries + 4 and audit_game(stored) == []
    return found


def test_each_request_on_a_long_game_replays_a_bounded_number_of_turns(counted):
    for entries in (SHORT, LONG):
        for what, cost in costs(entries, counted).items():
            assert cost["moves"] <= BOUND, (entries, what, cost)


def test_a_turn_a_challenge_an_undo_and_a_correction_read_a_bounded_number_of_entries(counted):
    # The pages list the log (the chart's points, the turns to choose from): not these.
    for entries in (SHORT, LONG):
        found = costs(entries, counted)
        for what in ("play", "challenge", "undo", "correction", "its preview"):
            assert found[what]["turns"] <= BOUND, (entries, what, found[what])


def test_a_correction_of_an_early_turn_on_a_long_game_scores_every_later_turn_again(counted):
    # What can't be bounded, kept right: every later entry's totals change.
    game = long_game(200)
    domain.act(game.pk, domain.TurnCommand("correct", target=1, notation="8D HOUSES"))
    stored = Game.objects.get(pk=game.pk)
    assert audit_game(stored) == []
    last = stored.turns.order_by("-number").exclude(action="correct").first()
    assert last is not None and last.totals == [26, 0]


# What can't be bounded is limited -------------------------------------------------------------
def test_corrections_and_their_previews_count_as_turns(client, settings):
    settings.RATE_LIMIT_TURNS = 3
    game = long_game(SHORT)
    client.cookies[cookie_name(game.pk)] = game.token
    score = f"/games/{game.pk}/score/"
    preview = {"target": "1", "play": "8D HOUSES"}
    assert client.post(f"{score}correct-preview", preview).status_code == 200
    assert client.post(f"{score}correct-preview", preview).status_code == 200
    correction = {"target": "1", "move": "play", "play": "8D HOUSES", "expected_turn": SHORT + 1}
    assert client.post(f"{score}correct", correction).status_code == 302
    refused = client.post(f"{score}correct-preview", preview)
    assert refused.status_code == 429 and "Too many turns" in refused.content.decode()
    again = {**correction, "expected_turn": SHORT + 2}
    assert client.post(f"{score}correct", again).status_code == 429
    turn = {"action": "pass", "expected_turn": SHORT + 2}
    assert client.post(f"{score}turn", turn).status_code == 429  # one count for all of them
    assert Game.objects.get(pk=game.pk).last_entry_number == SHORT + 1


def test_earlier_boards_and_the_correction_page_have_a_limit_of_their_own(client, settings):
    settings.RATE_LIMIT_REPLAYS = 2
    game = long_game(SHORT)
    client.cookies[cookie_name(game.pk)] = game.token
    assert client.get(f"/games/{game.pk}/?turn=1").status_code == 200
    assert client.get(f"/games/{game.pk}/score/correct?turn=1").status_code == 200
    refused = client.get(f"/games/{game.pk}/?turn=2")
    assert refused.status_code == 429 and "Too many earlier boards" in refused.content.decode()
    assert client.get(f"/games/{game.pk}/?step=1").status_code == 429  # the replay's stepper
    assert client.get(f"/games/{game.pk}/score/correct").status_code == 429
    # The game as it stands, and the scorer's page, are not counted.
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/{game.pk}/score/").status_code == 200
    # Nor is the turn limit spent by them.
    turn = {"action": "pass", "expected_turn": SHORT + 1}
    assert client.post(f"/games/{game.pk}/score/turn", turn).status_code == 302


def test_the_replays_stepper_counts_as_an_earlier_board(client, settings):
    settings.RATE_LIMIT_REPLAYS = 1
    game = long_game(SHORT)
    assert client.get(f"/games/{game.pk}/?step=1").status_code == 200
    refused = client.get(f"/games/{game.pk}/?step=2")
    assert refused.status_code == 429 and "Too many earlier boards" in refused.content.decode()


def test_a_correction_counts_one_more_turn_for_every_50_later_turns_it_scored_again(settings):
    settings.RATE_LIMIT_TURNS = 5
    statuses = {}
    for entries, address in ((SHORT, "10.0.0.1"), (120, "10.0.0.2")):  # a device for each
        game = long_game(entries)
        client = Client(REMOTE_ADDR=address)
        client.cookies[cookie_name(game.pk)] = game.token
        score = f"/games/{game.pk}/score/"
        fix = {"target": "1", "move": "play", "play": "8D HOUSES", "expected_turn": entries + 1}
        assert client.post(f"{score}correct", fix).status_code == 302
        statuses[entries] = [
            client.post(
                f"{score}turn", {"action": "pass", "expected_turn": entries + n}
            ).status_code
            for n in (2, 3, 4, 5)
        ]
    # 19 later turns scored again count nothing more; 119 count two more.
    assert statuses == {SHORT: [302, 302, 302, 302], 120: [302, 302, 429, 429]}
