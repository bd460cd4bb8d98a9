"""Every screen of a game says the same after any sequence of plays, passes, challenges, undos
and corrections: the spectator screen (the TV), the scorer's phone, the game's page (its log
and replay), the director's screen and the API agree on the turn, the scores, the board, the
last play and its marked tiles, and the sentence of the latest entry ("Turn 9 was undone")."""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client

from bench.sequences import HASBRO
from referee import RefereeError
from scorekeeper.games import domain
from scorekeeper.games.consistency import audit_game
from scorekeeper.http.links import cookie_name
from scorekeeper.models import Club, Game
from tests.factories import make_club

pytestmark = pytest.mark.django_db

PHONY = [(5, 6, "X"), (6, 6, "A"), (7, 6, "R")]  # DXAR down from MOOD: not a word
MOVES = ("play", "phony", "pass", "challenge", "undo", "correct")
WEIGHTS = (4, 2, 2, 2, 2, 2)  # plays most, as at a table


def flat(text: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))).strip()


def squares(page: str) -> dict[str, str]:
    """Each filled square's top letter, by its name, from a board's accessible names (the
    letter as shown, then its value or its stack's height: "D8: H4, ...", "E5: W2, ...")."""
    return dict(re.findall(r'aria-label="([A-Z]\d+): (?!empty)([A-Z][a-z]?)\d*[ ,"]', page))


def marked(page: str) -> set[str]:
    return set(re.findall(r'aria-label="([A-Z]\d+): [^"]*last play"', page))


def scoreboard(page: str) -> list[int]:
    """The scores, the final ones once the game has them."""
    row = re.search(r'<tr class="finals">(.*?)</tr>', page, re.S)
    row = row or re.search(r'<tr class="scores">(.*?)</tr>', page, re.S)
    assert row is not None
    return [int(n) for n in re.findall(r'class="num [^"]*">(-?\d+)<', row.group(1))]


def turn_said(phrase: str) -> int:
    """Turns played, from "Turn 5" / "turn 5" (the fifth in play) or "After turn 4"."""
    found = re.fullmatch(r"(?i)(after )?turn (\d+)", phrase.strip())
    assert found, phrase
    return int(found.group(2)) - (0 if found.group(1) else 1)


@dataclass
class Said:
    """What one screen says of the game."""

    turns: int
    scores: list[int]
    board: dict[str, str] | None = None
    marked: set[str] | None = None
    last_play: str | None = None  # "Ann 5D MOOD"
    latest: str | None = None  # the latest entry's sentence


class Table:
    """A club game in play and the screens that show it."""

    def __init__(self, client: Client, club: Club, *, retry: bool = True) -> None:
        options = {"upheld_challenge": "retry" if retry else "lose_turn"}
        self.game = domain.check_create_game(
            ruleset="upwords-10", players=["Ann", "Ben"], lexicon="CLUB", club=club,
            challenge_mode="manual", options=options,
        )  # fmt: skip
        self.client = client
        self.club = club
        client.cookies[cookie_name(self.game.pk)] = self.game.token

    def act(self, move: str) -> bool:
        """Enter ``move`` if the game takes it; whether it did (a refusal changes nothing)."""
        pk = self.game.pk
        try:
            if move == "play":
                for triples, _ in HASBRO:
                    try:
                        domain.act(pk, domain.TurnCommand("play", tiles=triples))
                    except RefereeError:
                        continue
                    return True
                return False
            if move == "phony":
                domain.act(pk, domain.TurnCommand("play", tiles=PHONY))
            elif move == "correct":
                self.correct_earliest()
            else:
                domain.act(pk, domain.TurnCommand(move))
        except RefereeError:
            return False
        return True

    def correct_earliest(self) -> None:
        """Correct the earliest pass in effect into an exchange of a tile (or back): a
        correction of an earlier turn that leaves the later ones legal."""
        log = self.api_log()
        for entry in log:
            if entry["turn"] is not None and entry["action"] in ("pass", "correct"):
                exchange = entry["action"] == "pass" or not entry["count"]
                extra: dict[str, Any] = {"count": 1} if exchange else {}
                domain.act(
                    self.game.pk, domain.TurnCommand("correct", target=entry["number"], **extra)
                )
                return
        raise RefereeError("nothing", "No pass to correct.")

    def api_log(self) -> list[dict[str, Any]]:
        response = self.client.get(f"/api/games/{self.game.pk}/turns/")
        assert response.status_code == 200
        turns: list[dict[str, Any]] = response.json()["turns"]
        return turns

    def get(self, path: str) -> str:
        response = self.client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        return response.content.decode()

    # What each screen says ----------------------------------------------------------------
    def tv(self) -> Said:
        page = self.get(f"/games/{self.game.pk}/watch/live")
        meta = re.search(r'<p class="meta">((?:After t|T)urn \d+) ·', page)
        assert meta
        last = re.search(
            r'Last play: ([^<]+)</h2>.*?<span class="notation">([^<]*)</span>', page, re.S
        )
        recent = re.findall(r"<li>(.*?)</li>", page.split('class="recent-turns"')[-1], re.S)
        # The latest entry's turn, shown before its sentence, is checked against the log's.
        numbered = re.match(
            r'<span class="turn-number">Turn (\d+):</span> ', recent[0] if recent else ""
        )
        if recent:
            latest = self.api_log()[-1]
            assert (int(numbered.group(1)) if numbered else None) == (
                latest["turn"] if latest["action"] != "correct" else None
            )
            recent[0] = recent[0][numbered.end() :] if numbered else recent[0]
        return Said(
            turn_said(meta.group(1)),
            scoreboard(page),
            squares(page),
            marked(page),
            f"{last.group(1)} {last.group(2)}" if last else None,
            flat(recent[0]) if "recent-turns" in page else None,
        )

    def phone(self) -> Said:
        page = self.get(f"/games/{self.game.pk}/score/")
        meta = re.search(r'<span class="meta">((?:after )?turn \d+) ·', page)
        assert meta
        latest = re.search(r'<p class="last-turn">Last: (.*?)</p>', page, re.S)
        return Said(
            turn_said(meta.group(1)),
            scoreboard(page),
            squares(page),
            marked(page),
            latest=flat(latest.group(1)) if latest else None,
        )

    def log(self) -> Said:
        """The game's page: the replay at its end, and the log's turn numbers."""
        page = self.get(f"/games/{self.game.pk}/")
        caption = re.search(r"After turn (\d+) of (\d+)", page)
        turns = int(caption.group(1)) if caption else 0
        if caption:
            assert caption.group(1) == caption.group(2)
        scores = re.search(r'<p class="replay-scores">(.*?)</p>', page, re.S)
        assert scores
        points = [int(n) for n in re.findall(r"<strong>(-?\d+)</strong>", scores.group(1))]
        return Said(turns, points, squares(page.split('id="replay-body"')[1]))

    def director(self) -> Said | None:
        """The game's card; None once the game is over (it is listed as finished)."""
        page = self.get(f"/clubs/{self.club.slug}/live/tables")
        if f'id="live-{self.game.pk}"' not in page:
            self.game.refresh_from_db()
            assert self.game.status not in (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS)
            return None
        card = page[page.index(f'id="live-{self.game.pk}"') :]
        card = card[: card.index("</article>")]
        turn = re.search(r'<span class="live-turn">([^<]*?)\s*(?:<|$)', card)
        assert turn
        latest = re.search(r'<p class="live-last">(.*?)</p>', card, re.S)
        assert latest
        said = flat(latest.group(1))
        points = [int(n) for n in re.findall(r'<span class="score">(-?\d+)</span>', card)]
        return Said(
            turn_said(turn.group(1)), points, latest=None if said == "No turn yet." else said
        )

    def api(self) -> Said:
        state = self.client.get(f"/api/games/{self.game.pk}/").json()
        board = {
            f"{chr(ord('A') + c)}{r + 1}": stack[-1]
            for r, row in enumerate(state["board"])
            for c, stack in enumerate(row)
            if stack
        }
        scores = [
            p["score"] if p["final_score"] is None else p["final_score"] for p in state["players"]
        ]
        return Said(state["turn"], scores, board)

    def numbers_in_the_log(self) -> dict[int, int]:
        """Each entry in effect's turn as the API's log numbers it, by entry number."""
        return {t["number"]: t["turn"] for t in self.api_log() if t["turn"] is not None}

    def last_play(self) -> tuple[str, set[str]] | None:
        """The last play standing, worked out from the API's log: the latest in the order of
        play of the plays in effect that no upheld challenge in effect took off."""
        log = {t["number"]: t for t in self.api_log()}

        def place(entry: dict[str, Any]) -> int:
            target = log.get(entry["target"]) if entry["action"] == "correct" else None
            return place(target) if target else int(entry["number"])

        in_effect = [t for t in log.values() if not t["undone"] and not t["corrected"]]
        taken_off = {
            t["target"] for t in in_effect if t["action"] == "challenge" and t["result"] == "upheld"
        }
        plays = [
            t for t in in_effect if t["tiles"] and t["notation"] and t["number"] not in taken_off
        ]
        if not plays:
            return None
        last = max(plays, key=place)
        named = {f"{chr(ord('A') + p['col'])}{p['row'] + 1}" for p in last["tiles"]}
        return f"{last['player']} {last['notation']}", named


def check(table: Table, numbered: dict[int, int], story: str) -> None:
    """Every screen says the same as the API, and the last play is the log's; the turns kept
    with the game are the log's count."""
    assert audit_game(Game.objects.get(pk=table.game.pk)) == [], story
    tv, phone, log, director, api = (
        table.tv(), table.phone(), table.log(), table.director(), table.api(),
    )  # fmt: skip
    screens = {"TV": tv, "phone": phone, "log": log, "director": director}
    for name, said in screens.items():
        if said is not None:
            assert (said.turns, said.scores) == (api.turns, api.scores), f"{story}: the {name}"
    for name, said in (("TV", tv), ("phone", phone), ("log", log)):
        assert said.board == api.board, f"{story}: the {name}'s board"
    assert tv.latest == phone.latest, story
    if director is not None:
        assert director.latest == tv.latest, story
    last = table.last_play()
    assert (tv.last_play, tv.marked) == (last if last else (None, set())), story
    assert phone.marked == tv.marked, story
    # The sentence of an undo names the undone turn as every screen numbered it before.
    undone = re.match(r"Turn (\d+) was undone", tv.latest or "")
    if undone:
        entry = table.api_log()[-1]["target"]
        assert int(undone.group(1)) == numbered[entry], story


def walk(client: Client, club: Club, moves: list[str], *, retry: bool = True) -> None:
    table = Table(client, club, retry=retry)
    numbered: dict[int, int] = {}  # each entry's turn while it was in effect, by entry number
    story = ""
    for move in moves:
        if table.act(move):
            story += f" {move}"
            numbered.update(table.numbers_in_the_log())
            check(table, numbered, story.strip())


@pytest.fixture
def club() -> Club:
    return make_club(roster=["Ann", "Ben"])


# The sequence: an undo, then a correction of an earlier turn.
FIXED = [
    ["play", "pass", "play", "play", "undo", "correct"],
    ["play", "pass", "play", "phony", "challenge", "play", "undo", "correct", "play"],
    ["play", "phony", "challenge", "undo", "undo", "pass", "correct", "play", "challenge"],
    ["pass", "play", "play", "correct", "undo", "undo", "play", "correct", "pass"],
]


@pytest.mark.parametrize("moves", FIXED, ids=lambda m: "-".join(m))
def test_every_screen_agrees_through_undos_corrections_and_challenges(client, club, moves):
    walk(client, club, moves)


def test_every_screen_agrees_when_a_phony_costs_its_player_the_turn(client, club):
    walk(
        client, club, ["play", "pass", "phony", "challenge", "play", "undo", "correct"], retry=False
    )


def test_every_screen_agrees_on_a_seeded_walk(client, club):
    chance = random.Random(33)  # fixed: the same walks every run
    for _ in range(4):
        moves = chance.choices(MOVES, WEIGHTS, k=12)
        walk(client, club, moves, retry=chance.random() < 0.5)


def test_the_tv_names_the_undone_turn_as_the_phone_and_the_log_did(client, club):
    """The issue's report: ten turns, the tenth undone, then an earlier one corrected."""
    table = Table(client, club)
    for move in ["play", "pass", "play", "pass", "play", "pass", "play", "pass", "play", "pass"]:
        assert table.act(move), move
    assert table.numbers_in_the_log()[10] == 10
    assert table.act("undo") and table.act("correct")
    tv = table.tv()
    assert tv.turns == 9
    part = table.get(f"/games/{table.game.pk}/watch/live").split('class="recent-turns"')[-1]
    recent = re.findall(r"<li>(.*?)</li>", part)
    assert any(flat(s).startswith("Turn 10 was undone") for s in recent), recent
    last = table.last_play()
    assert last is not None and (tv.last_play, tv.marked) == last
