"""Browser tests: Playwright drives Debian's Chromium against a live server.

They are marked ``browser``. Without /usr/bin/chromium they are skipped with a reason on a
developer's machine, and fail in CI (CI=true), where .ci/run installs Chromium.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.browser.pages import CHROMIUM, PHONE, WORDS

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run should have installed Debian's chromium")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits as long as an action does: on a loaded machine (CI runs two suites
    # at once on two cores) an answer can take more than Playwright's default 5 seconds.
    expect.set_options(timeout=10_000)

    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # still plain synchronous code, so Django's async-safety guard is lifted while they run.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture(autouse=True, scope="session")
def streams_notice_a_closed_page() -> Iterator[None]:
    """The live server serves each open page's stream in a thread (``PUSH_THREAD_STREAMS`` of
    them at most), and a thread learns that its page was closed only when a write fails: with
    a keep-alive every second, the streams of earlier tests' pages end within a couple of
    seconds instead of fifteen, and never fill the room a later test's pages need."""
    from django.test import override_settings

    with override_settings(PUSH_HEARTBEAT_SECONDS=1):
        yield


@pytest.fixture(autouse=True, scope="session")
def emptying_outlasts_a_late_request() -> Iterator[None]:
    """After each test the live server's database is emptied (``flush``: one ``TRUNCATE`` of
    every table). The closed page's last request, or the news its change sends after the
    answer, may still be reading in a server thread: on PostgreSQL a read that joins two
    tables and the ``TRUNCATE`` can each hold a lock the other waits for, and PostgreSQL
    ends one of them as a deadlock. When it ends the emptying, the emptying is tried again:
    the read has then finished, and the next test starts from an empty database."""
    from django.core.management.base import CommandError
    from django.db import OperationalError
    from django.test import TransactionTestCase

    empty = TransactionTestCase._fixture_teardown

    def empty_again_after_a_deadlock(self: TransactionTestCase) -> None:
        for attempt in range(3):
            try:
                return empty(self)
            except CommandError as error:
                cause = error.__cause__
                if attempt == 2 or not (
                    isinstance(cause, OperationalError) and "deadlock" in str(cause)
                ):
                    raise

    TransactionTestCase._fixture_teardown = empty_again_after_a_deadlock  # type: ignore[method-assign]
    yield
    TransactionTestCase._fixture_teardown = empty  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def journey_lexicon(use_words):
    return use_words(WORDS)


@pytest.fixture
def page(browser: object, live_server: object) -> Iterator[object]:
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations
    # Every page of every journey keeps to the Content-Security-Policy: nothing refused.
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert not refused, refused
