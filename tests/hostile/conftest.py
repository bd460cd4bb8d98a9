"""Hostile input's fixtures and the tally printed at the end of the run (the client, the
word list and the checks the tests share are in ``tests/hostile/clients.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import hypothesis.core
import pytest
from django.test import Client
from hypothesis.vendor import pretty

from bench.sequences import HASBRO
from referee import reset_library
from tests.factories import ApiGame
from tests.hostile.clients import TALLY, WORDS, HostileClient


@pytest.fixture(autouse=True)
def _name_the_test(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    TALLY.test = request.node.nodeid.split("::", 1)[-1]
    # Importing schemathesis swaps Hypothesis's printer for one that prints nothing, so a
    # failing example would show as "body=,": put the real one back while these tests run.
    monkeypatch.setattr(hypothesis.core, "RepresentationPrinter", pretty.RepresentationPrinter)
    yield
    TALLY.test = "(outside a test)"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # A test marked xfail for a known bug: its server errors are expected, and said so.
    if report.when == "call" and hasattr(report, "wasxfail"):
        TALLY.expected.add(report.nodeid.split("::", 1)[-1])


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not TALLY.total:
        return
    terminalreporter.section("hostile input")
    overall: Counter[int] = Counter()
    for test, statuses in sorted(TALLY.statuses.items()):
        overall += statuses
        answers = " ".join(f"{code}×{n}" for code, n in sorted(statuses.items()))
        terminalreporter.write_line(f"{sum(statuses.values()):>6,}  {test}  ({answers})")
    answers = ", ".join(f"{code}: {n:,}" for code, n in sorted(overall.items()))
    terminalreporter.write_line(f"answers: {answers}")
    for test, failure in TALLY.server_errors[:20]:
        known = " (xfail: a known bug)" if test in TALLY.expected else ""
        terminalreporter.write_line(f"server error: {test}: {failure}{known}", red=not known)
    errors = len(TALLY.server_errors)
    known = sum(1 for test, _ in TALLY.server_errors if test in TALLY.expected)
    note = f" ({known:,} of them in tests marked xfail for a known bug)" if known else ""
    terminalreporter.write_line(
        f"hostile input: {TALLY.total:,} requests, {errors:,} server error{'s' if errors != 1 else ''}"
        + note,
        bold=True,
        green=errors == known,
        red=errors != known,
    )


# Fixtures ----------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _hostile_settings(settings: Any, tmp_path: Any, tmp_path_factory: Any) -> Iterator[None]:
    """No rate limits (they would answer 429), and a small CLUB word list as the only lexicon."""
    settings.RATE_LIMIT_TURNS = 0
    settings.RATE_LIMIT_JUDGE = 0
    settings.RATE_LIMIT_IMPORTS = 0
    settings.RATE_LIMIT_GAMES = 0
    settings.RATE_LIMIT_LOGINS = 0
    settings.RATE_LIMIT_ACCOUNTS = 0
    folder = tmp_path / "lexica"
    folder.mkdir()
    (folder / "CLUB.txt").write_text("\n".join(sorted(set(WORDS.split()))) + "\n")
    settings.LEXICON_DIR = str(folder)
    settings.LEXICON_USER_DIR = tmp_path / "user-lexica"
    settings.LEXICON_CACHE_DIR = tmp_path_factory.getbasetemp() / "hostile-lexicon-cache"
    reset_library()
    yield
    reset_library()


@pytest.fixture
def hostile() -> HostileClient:
    return HostileClient()


@pytest.fixture
def games(client: Client) -> dict[str, ApiGame]:
    """The games every example meets: a fresh one, one in mid-game, a tournament-style Letter UP
    game with a play to challenge, a finished one and a solo honour-system game.

    Made with the plain test client, so only the hostile requests are counted.
    """
    fresh = ApiGame(client)
    midgame = ApiGame(client, players=["Cy", "Di"])
    for triples, _ in HASBRO[:4]:
        assert midgame.play(triples).status_code == 201
    manual = ApiGame(
        client, ruleset="letterup-classic", players=["Ed", "Flo"], challenge_mode="manual"
    )
    assert manual.play([(7, 6, "Z"), (7, 7, "A"), (7, 8, "G")]).status_code == 201
    finished = ApiGame(client, players=["Gus", "Hal"])
    assert finished.turn({"action": "pass"}).status_code == 201
    assert finished.turn({"action": "pass"}).json()["game"]["status"] == "finished"
    solo = ApiGame(client, players=["Ida"], lexicon="honour", options={"solo_exchanges": 2})
    return {
        "fresh": fresh,
        "midgame": midgame,
        "manual": manual,
        "finished": finished,
        "solo": solo,
    }
