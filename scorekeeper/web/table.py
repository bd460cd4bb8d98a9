"""The table: start a game, mirror the board, enter turns, settle challenges, follow along.

Views are thin: fetch (checking the scorer's secret), read the input, call one domain
operation, then redirect or render. Nothing here changes a game except through
``scorekeeper.game.domain``.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import random
import threading
import time
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import DatabaseError, close_old_connections, connection
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import condition, require_GET, require_POST

from referee import RULESETS, RefereeError, draw_for_first, get_ruleset
from scorekeeper.game import domain, rows
from scorekeeper.game.analysis import best_play
from scorekeeper.game.domain import GameNotFound, StaleTurn, name_players
from scorekeeper.game.links import scorer_url
from scorekeeper.game.refusals import REFUSALS, message_of
from scorekeeper.game.replay import turn_phrase
from scorekeeper.game.resubmit import same_turn
from scorekeeper.game.turn_kinds import describe
from scorekeeper.models import Game, Player, Seat, clubs_of
from scorekeeper.web.forms import NewGameForm, ruleset_named
from scorekeeper.web.invitations import waiting
from scorekeeper.web.presenters import live_context, table_context
from scorekeeper.web.scorer_link import hold, scorer_view
from scorekeeper.web.shortcuts import posted_whole, private
from scorekeeper.web.your_games import keep, remember, your_games

log = logging.getLogger(__name__)


# Pages ---------------------------------------------------------------------------------------
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = (
        Game.objects.filter(status__in=[Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS])
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-updated_at")[:10]
    )
    playing = [{"game": g, "turn": turn_phrase(g)} for g in games]
    context = {
        "playing": playing,
        "rulesets": RULESETS.values(),
        "yours": your_games(request),
        "invitations_waiting": waiting(request.user),
    }
    return private(render(request, "home.html", context))


def new_game(request: HttpRequest) -> HttpResponse:
    """The new-game form, its options set to the chosen ruleset's own rules (``?ruleset=``
    chooses one without JavaScript; the page's script changes them as the choice changes)."""
    clubs = clubs_of(request.user)
    notice = problem = ""
    asked = request.GET.get("ruleset") if request.method == "GET" else None
    if request.method == "POST":
        # An empty POST is still a submission: it gets the form's errors, not a blank form.
        form = NewGameForm(request.POST, clubs=clubs)
    else:
        form = NewGameForm(clubs=clubs, ruleset=ruleset_named(asked))
        if asked is not None and ruleset_named(asked) is None:
            problem = (
                f"There is no ruleset called {asked[:40]!r}: choose one of "
                f"{', '.join(r.name for r in RULESETS.values())}."
            )
    if form.switched_ruleset():
        form = form.with_ruleset_defaults()
        notice = (
            f"The rule options below are now {form.shown.name}'s own: check them, then start "
            "the game. Nothing was started yet."
        )
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = form.players()
        ruleset = get_ruleset(data["ruleset"])
        if data["starter"] == "draw":
            first, rounds = draw_for_first(ruleset, len(players), random.SystemRandom())
        else:
            first, rounds = int(data["starter"]) - 1, []
        try:
            game = domain.do_create_game(
                ruleset=ruleset.id,
                lexicon=data["lexicon"],
                players=players,
                challenge_mode=data["challenge_mode"],
                options=form.options(),
                first=players[first],
                turn_clock=data["turn_clock"],
                club=data.get("club"),
            )
        except RefereeError as error:
            form.add_error(None, error.message)
        else:
            for draw in rounds:
                shown = ", ".join(
                    f"{name} drew {ruleset.display(tile)}"
                    for name, tile in zip(players, draw, strict=True)
                    if tile
                )
                messages.info(request, f"{shown}.")
            messages.success(
                request,
                f"{players[first]} starts (change it below until the first turn). This browser "
                "keeps the link to this page: see Your games on the home page.",
            )
            return hold(request, keep(request, redirect(scorer_url(game)), game), game)
    status = 400 if (request.method == "POST" and not notice) or problem else 200
    return render(
        request,
        "table/new_game.html",
        {
            "form": form,
            "notice": notice,
            "asked": asked,  # another ruleset's options were asked for: they are shown open
            "problem": problem,
            "known_players": Player.objects.values_list("name", flat=True)[:200],
        },
        status=status,
    )


# A refused turn is kept here for the page the refusal redirects to, so a reload never resends
# the form and the tapped tiles come back.
REFUSAL = "table_refusal"
# The way the scorer was placing tiles, kept with a refused play so it comes back as tapped.
ACROSS, DOWN = "across", "down"


def _back_to_the_board(game: Game) -> HttpResponse:
    """The scorer page, scrolled to the board: what an action said is shown beside it, and
    Submit and the other turns' buttons stay in reach (a phone keeps its place)."""
    return redirect(f"{scorer_url(game)}#board")


@require_GET
@scorer_view
def scorer(request: HttpRequest, game: Game) -> HttpResponse:
    context = table_context(request, game, scorer=True)
    kept = request.session.pop(REFUSAL, None) if REFUSAL in request.session else None
    # Shown once, and only on the game and the turn it was about.
    if kept and kept.get("game") == str(game.pk) and kept.get("turn") == game.turn_number:
        typed = kept["typed"]
        shown = domain.preview(game, typed) if typed else None
        context.update(
            {
                # The reason is said once, here: the play's preview only marks its squares.
                "refusal": kept["message"],
                "typed": typed,
                "typed_direction": kept.get("direction", ACROSS),
                "preview": shown,
            }
        )
    return remember(request, render(request, "table/board.html", context), game)


@require_POST
@scorer_view
def preview(request: HttpRequest, game: Game) -> HttpResponse:
    """The words and score of the tiles placed so far, or why the play is not legal."""
    shown = domain.preview(game, request.POST.get("play", ""))
    return render(request, "table/_preview.html", {"preview": shown})


@require_POST
@scorer_view
def turn(request: HttpRequest, game: Game) -> HttpResponse:
    """Enter one turn from the board page's forms, then redirect to the board page: with the
    turn's sentence, or with the refusal and the play as typed. The page's script sends it
    with an Idempotency-Key and asks for JSON (``_answer``)."""
    action = request.POST.get("action", "")
    typed = request.POST.get("play", "")
    direction = DOWN if request.POST.get("direction") == DOWN else ACROSS
    expected = count = None
    # A solo player may give the rack, to be told how the play compares with the best one:
    # searched (within the analysis budget, before the turn's transaction) only for a play
    # the rules take, so a refused play costs no search.
    rack = request.POST.get("rack", "").strip()[:16] if action == "play" else ""
    solo = bool(rack) and game.seats.count() == 1
    best = best_play(game, rack) if solo and domain.preview(game, typed).evaluation else None
    try:
        expected = posted_whole(request.POST, "expected_turn", "The turn number")
        count = posted_whole(request.POST, "count", "The number of tiles to exchange")
        applied = domain.act(
            game.pk,
            action,
            expected_turn=expected,
            by="scorer page",
            notation=typed if action == "play" else None,
            count=count,
            racks=_racks_from(request, game) if action == "finish" else None,
            rack=rack,
            best=best.score if best else None,
        )
    except StaleTurn:
        earlier = same_turn(game, expected, action, typed, count)
        if earlier is not None:  # sent twice: the answer the first one got
            if earlier.action != "challenge":
                messages.success(request, describe(earlier))
            return _answer(request, game, describe(earlier))
        stale = "Another turn was entered first, perhaps on another device: here is the game now."
        return _refused(request, game, stale, text=typed, direction=direction)
    except REFUSALS as error:
        return _refused(request, game, message_of(error), text=typed, direction=direction)
    said = describe(applied.turn)
    if applied.turn.action != "challenge":  # a verdict is shown by the board, in full
        messages.success(request, said)
    if best is not None:
        made = applied.turn.score
        messages.info(
            request,
            "That was the best play."
            if made >= best.score
            else f"The best play with {rack.upper()} was {best.notation} for {best.score} "
            f"({best.score - made} more).",
        )
    return _answer(request, game, said)


def _answer(request: HttpRequest, game: Game, said: str, *, entered: bool = True) -> HttpResponse:
    """Back to the board. The page's script (``Accept: application/json``) is told instead
    whether the turn was entered, what was said and where to go: it then opens that page,
    which shows the same messages and refusal as a form sent without a script."""
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse(
            {"entered": entered, "message": said, "location": f"{scorer_url(game)}#board"}
        )
    response = _back_to_the_board(game)
    if not entered:
        response.status_code = 303
    return response


def _racks_from(request: HttpRequest, game: Game) -> dict[int, str] | None:
    racks = {
        seat.order: request.POST.get(f"rack_{seat.order}", "")
        for seat in game.seats.order_by("order")
        if f"rack_{seat.order}" in request.POST
    }
    return racks or None


def _refused(
    request: HttpRequest, game: Game, message: str, text: str = "", direction: str = ACROSS
) -> HttpResponse:
    """Back to the scorer page's board (303, so a reload never resends), with the reason and
    the play as typed, in the direction it was tapped, kept for it; players are named, not
    numbered."""
    game.refresh_from_db(fields=["turn_number"])
    names = list(game.seats.order_by("order").values_list("player__name", flat=True))
    said = name_players(message, names)
    request.session[REFUSAL] = {
        "game": str(game.pk),
        "turn": game.turn_number,
        "message": said,
        "typed": text[:500],
        "direction": direction,
    }
    return _answer(request, game, said, entered=False)


# The second screen -----------------------------------------------------------------------------
_ETAG_SQL = f"SELECT turn_number, updated_at FROM {Game._meta.db_table} WHERE id = %s"


def _watch_etag(request: HttpRequest | None, game_id: Any) -> str | None:
    """One primary-key read, no ORM query building and no rendering: this answers every poll
    from a spectator screen, and almost all of them find nothing new (304)."""
    with connection.cursor() as cursor:
        cursor.execute(_ETAG_SQL, [Game._meta.pk.get_db_prep_value(game_id, connection)])
        row = cursor.fetchone()
    return f"{row[0]}-{row[1]}" if row else None


@require_GET
def watch(request: HttpRequest, game_id: Any) -> HttpResponse:
    game, seats = read_game(game_id)
    context = live_context(game, seats)
    context["poll"] = settings.LIVE_POLL_SECONDS  # while push is not open (static/js/live.js)
    return render(request, "table/watch.html", context)


def read_game(game_id: Any) -> tuple[Game, list[Seat]]:
    """The game and its seats, each with its player, in one read (``rows.read_game``)."""
    found = rows.read_game(game_id)
    if found is None:
        raise GameNotFound(game_id)
    return found


LIVE_RENDERS_KEPT = 512  # live parts kept in each process, the latest of each game's changes
# The parts a server's processes share (``LIVE_PARTS_DIR``): each is wanted within a second
# of its change (the workers' watch of the record, PUSH_WATCH_SECONDS), or by a polling
# screen within LIVE_POLL_SECONDS; at most 64 MB in all.
SHARED_PARTS_SECONDS = 10
SHARED_PARTS_BYTES = 64 * 2**20
SHARED_PARTS_SWEEP_SECONDS = 2  # how often a process that keeps parts there removes old ones


class SharedParts:
    """Parts kept as files in a folder a server's processes share, one file a part, named by
    a hash of its key. A part is kept under a key once and never changed (a key names one
    change of one game), so a file is written whole beside its name and renamed onto it: a
    reader finds the part whole or nothing, and no lock is shared between the processes.
    Each process that keeps parts removes, every ``SHARED_PARTS_SWEEP_SECONDS``, those older
    than ``SHARED_PARTS_SECONDS``, then the oldest past ``SHARED_PARTS_BYTES``.

    Measured against diskcache's ``FanoutCache`` (SQLite files, what this was), four
    processes keeping and reading 10 kB parts at once on two cores: 270-310 → 90-105 µs to
    keep one, 22-39 → 15-25 µs to read one, and a quarter of the time waiting for the others.

    >>> import tempfile
    >>> shared = SharedParts(tempfile.mkdtemp())
    >>> shared.get("game:#1") is None
    True
    >>> shared.put("game:#1", "<p>Ann played</p>")
    >>> shared.get("game:#1")
    '<p>Ann played</p>'
    """

    def __init__(self, folder: str) -> None:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        self.folder = folder
        self._swept = time.monotonic()

    def path(self, key: str) -> str:
        return os.path.join(self.folder, hashlib.blake2b(key.encode(), digest_size=16).hexdigest())

    def get(self, key: str) -> str | None:
        try:
            with open(self.path(key), "rb") as kept:
                return kept.read().decode()
        except FileNotFoundError:
            return None

    def put(self, key: str, html: str) -> None:
        path = self.path(key)
        writing = f"{path}.{os.getpid()}-{threading.get_ident()}"
        descriptor = os.open(writing, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(descriptor, html.encode())
        finally:
            os.close(descriptor)
        os.replace(writing, path)
        if time.monotonic() - self._swept > SHARED_PARTS_SWEEP_SECONDS:
            self._swept = time.monotonic()
            self.sweep(time.time())

    def sweep(self, now: float) -> None:
        """Remove the parts kept before ``now - SHARED_PARTS_SECONDS`` (and what a process
        stopped while writing left), then the oldest while they take more than
        ``SHARED_PARTS_BYTES``. Another process may be sweeping too: what it removed first is
        let be."""
        kept: list[tuple[float, int, str]] = []
        with os.scandir(self.folder) as entries:
            for entry in entries:
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    found = entry.stat()
                except FileNotFoundError:
                    continue
                kept.append((found.st_mtime, found.st_size, entry.path))
        kept.sort()
        size = sum(bytes_ for _, bytes_, _ in kept)
        for moment, bytes_, path in kept:
            if moment >= now - SHARED_PARTS_SECONDS and size <= SHARED_PARTS_BYTES:
                break
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
            size -= bytes_


class RenderedParts:
    """The live parts rendered lately, by game and ETag. Every screen of a game is sent its
    live part the moment a change is pushed (with the event, or fetched), and each sees the
    same: the first renders it, the others get it from here (one render at a time in the
    process, so two screens of a game never both render it).

    Kept in the process and, with ``folder`` (``LIVE_PARTS_DIR``: a server's workers with no
    broker between them, config/gunicorn.conf.py), in files they share (``SharedParts``):
    each worker with a screen of the game would render the same part, the first does and the
    others read it (a render costs some ten times a read). Not in the database: a write for
    each change would compete with the turns. The shared folder is only a shortcut: when it
    fails, the part is rendered here."""

    def __init__(self, most: int, folder: str = "") -> None:
        self.most = most
        self.folder = folder
        self.parts: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()
        self.rendering = threading.Lock()
        self._shared: SharedParts | None = None
        self._off_until = 0.0  # after a failure, the shared folder is let be for a while

    def get(self, key: str) -> str | None:
        with self.lock:
            return self.parts.get(key)

    def put(self, key: str, html: str) -> None:
        with self.lock:
            self.parts[key] = html
            while len(self.parts) > self.most:
                self.parts.popitem(last=False)

    def shared(self) -> SharedParts | None:
        """The shared folder's parts; None without a folder, or for a minute after it
        failed."""
        folder = self.folder or settings.LIVE_PARTS_DIR
        if not folder or time.monotonic() < self._off_until:
            return None
        if self._shared is None or self._shared.folder != folder:
            self._shared = SharedParts(folder)
        return self._shared

    def _failed(self, doing: str) -> None:
        log.warning("The shared live parts could not be %s: not used for a minute.", doing,
                    exc_info=True)  # fmt: skip
        self._shared, self._off_until = None, time.monotonic() + 60

    def get_shared(self, key: str) -> str | None:
        """The part another process rendered, kept here too; None if none did (or the
        shared folder can't say)."""
        try:
            shared = self.shared()
            html = shared.get(key) if shared is not None else None
        except (OSError, UnicodeError):  # a shortcut only: rendered here instead
            self._failed("read")
            return None
        if html is not None:
            self.put(key, html)
        return html

    def put_shared(self, key: str, html: str) -> None:
        """Keep the part for the other processes too."""
        try:
            shared = self.shared()
            if shared is not None:
                shared.put(key, html)
        except OSError:  # a shortcut only: they render it themselves
            self._failed("written")


rendered_parts = RenderedParts(LIVE_RENDERS_KEPT)


def live_part(game_id: Any, version: str | None = None, entry: int | None = None) -> str | None:
    """The spectator screen's live part as the game stands (``version``: its ETag, if read
    already); None if there is no such game. Rendered once per change in each process, or
    once in all a server's processes where they share it (``RenderedParts``).

    ``entry``: the part for a pushed change, the log's entry of that number committed. It is
    kept by the entry (no read of the game's version first: there is one such read fewer
    for each change and process), and by its version too, for a screen that fetches it."""
    if entry is not None:
        key = f"{game_id}:#{entry}"
    else:
        version = version or _watch_etag(None, game_id)
        if version is None:
            return None
        key = f"{game_id}:{version}"
    html = rendered_parts.get(key)
    if html is None:
        with rendered_parts.rendering:
            # Rendered meanwhile, for another screen, or by another process.
            html = rendered_parts.get(key) or rendered_parts.get_shared(key)
            if html is None:
                game, seats = read_game(game_id)
                html = render_to_string("table/_live.html", live_context(game, seats))
                rendered_parts.put(key, html)
                rendered_parts.put_shared(key, html)
                if entry is not None:  # as a fetch of the game as read would find it
                    rendered_parts.put(f"{game_id}:{etag_of(game)}", html)
    return html


def kept_part(game_id: str, entry: int) -> str | None:
    """The part pushed with the log's entry ``entry`` if it is drawn already, here or by
    another process (``RenderedParts``), else None: neither the database read nor the drawing,
    so that an event loop may ask (a file read at most) before it hands the drawing to a
    thread. Where the change committed, its part is drawn once it is answered, for the
    screens of every process (``news.announce``)."""
    key = f"{game_id}:#{entry}"
    return rendered_parts.get(key) or rendered_parts.get_shared(key)


def etag_of(game: Game) -> str:
    """``_watch_etag`` of a game read already: its version as the database has it stored."""
    stored = connection.ops.adapt_datetimefield_value(game.updated_at)
    return f"{game.turn_number}-{stored}"


def pushed_part(game_id: str, entry: int | None = None) -> str | None:
    """``live_part`` for a stream (``scorekeeper.live.stream``), in a thread of its own that
    outlives requests: its database connection is let go when it has grown old, as a
    request's is. None when it can't be had (the game is gone, the database is busy): the
    event goes without it and the screen fetches the part."""
    if not connection.in_atomic_block:
        close_old_connections()
    try:
        return live_part(game_id, entry=entry)
    except GameNotFound:
        return None
    except DatabaseError:
        log.warning("The live part of game %s could not be read: sent without it.", game_id)
        return None


@require_GET
@condition(etag_func=_watch_etag)
def watch_live(request: HttpRequest, game_id: Any) -> HttpResponse:
    """The spectator screen's live part (its stream sends it with each change; this is for a
    screen that missed some, or polls)."""
    html = live_part(game_id, _watch_etag(request, game_id))
    if html is None:
        raise GameNotFound(game_id)
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response
