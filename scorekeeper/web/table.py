"""The table: start a game, mirror the board, enter turns, settle challenges, follow along.

Views are thin: fetch (checking the scorer's secret), read the input, call one domain
operation, then redirect or render. Nothing here changes a game except through
``scorekeeper.games.domain``.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import condition, require_GET, require_POST

from referee import RULESETS, RefereeError, draw_for_first, get_ruleset
from scorekeeper.clubs import club_settings
from scorekeeper.games import domain
from scorekeeper.games.analysis import best_play
from scorekeeper.games.domain import GameNotFound, StaleTurn, name_players
from scorekeeper.games.photos import available as photo_reader_available
from scorekeeper.games.replay import turn_phrase
from scorekeeper.games.resubmit import same_turn
from scorekeeper.games.sentences import ON_TIME
from scorekeeper.games.turn_kinds import KINDS, describe, kind_of
from scorekeeper.http.limits import limited
from scorekeeper.http.links import scorer_url
from scorekeeper.http.refusals import REFUSALS, message_of
from scorekeeper.http.retries import retry_slot
from scorekeeper.models import Game, Player, Seat, clubs_of
from scorekeeper.web.clock_faces import posted_clock
from scorekeeper.web.clock_fields import clock_initial
from scorekeeper.web.forms import NewGameForm, ruleset_named
from scorekeeper.web.invitations import waiting
from scorekeeper.web.live_parts import game_version, live_part, read_game
from scorekeeper.web.offline import copy_for_offline
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


@limited("games")
def new_game(request: HttpRequest) -> HttpResponse:
    """The new-game form, its options set to the chosen ruleset's own rules (``?ruleset=``
    chooses one without JavaScript; the page's script changes them as the choice changes)."""
    clubs = clubs_of(request.user)
    notice = problem = ""
    asked = request.GET.get("ruleset") if request.method == "GET" else None
    from_club = None
    if request.method == "POST":
        # An empty POST is still a submission: it gets the form's errors, not a blank form.
        form = NewGameForm(request.POST, clubs=clubs)
    else:
        # ?club=<slug>: a club game, starting from the club's usual rules.
        slug = request.GET.get("club", "")
        from_club = clubs.filter(slug=slug).first() if slug else None
        initial: dict[str, object] = {}
        kept = None
        if from_club is not None:
            rules = club_settings.rules_of(from_club)
            kept = ruleset_named(rules.ruleset)
            initial = {
                **rules.initial(),
                **clock_initial(rules.clock, seconds="turn_clock"),
                "club": from_club.slug,
            }
            initial.pop("ruleset", None)  # the form shows the ruleset it is given
        form = NewGameForm(clubs=clubs, ruleset=ruleset_named(asked) or kept, initial=initial)
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
            game = domain.check_create_game(
                ruleset=ruleset.id,
                lexicon=data["lexicon"],
                players=players,
                challenge_mode=data["challenge_mode"],
                options=form.options(),
                first=players[first],
                clock=data["clock_rule"],
                club=data.get("club"),
                table_number=data.get("table_number"),
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
            "from_club": from_club,  # the club's usual rules are shown open
            "problem": problem,
            "known_players": Player.objects.filter(from_record=False).values_list(
                "name", flat=True
            )[:200],
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
    # While its stream is not open, or silent for longer than a keep-alive (static/js/live.js).
    context["poll"] = settings.LIVE_POLL_SECONDS
    context["heartbeat"] = settings.PUSH_HEARTBEAT_SECONDS
    context["photo_reader"] = photo_reader_available()
    if copy_for_offline(request):
        # The copy the service worker keeps leaves the one-time news for the page itself.
        context["messages"] = ()
        return render(request, "table/board.html", context)
    kept = request.session.pop(REFUSAL, None) if REFUSAL in request.session else None
    # Shown once, and only on the game and the turn it was about.
    if kept and kept.get("game") == str(game.pk) and kept.get("turn") == game.last_entry_number:
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
        if kept.get("racks") and "rack_prefill" in context:  # a refused finish's, as typed
            typed_racks = {int(seat): letters for seat, letters in kept["racks"].items()}
            context["rack_prefill"] = {**context["rack_prefill"], **typed_racks}
    return remember(request, render(request, "table/board.html", context), game)


@require_POST
@scorer_view
def preview(request: HttpRequest, game: Game) -> HttpResponse:
    """The words and score of the tiles placed so far, or why the play is not legal."""
    shown = domain.preview(game, request.POST.get("play", ""))
    return render(request, "table/_preview.html", {"preview": shown})


@require_POST
@scorer_view
@limited("turns")
def turn(request: HttpRequest, game: Game) -> HttpResponse:
    """Enter one turn from the board page's forms, then redirect to the board page: with the
    turn's sentence, or with the refusal and the play as typed. The page's script sends it
    with an Idempotency-Key and asks for JSON (``_answer``)."""
    action = request.POST.get("action", "")
    asked = KINDS.get(action)  # None for an action the domain will refuse by name
    plays = asked is not None and asked.places_tiles
    racks_left = asked is not None and asked.counts_racks
    typed = request.POST.get("play", "")
    direction = DOWN if request.POST.get("direction") == DOWN else ACROSS
    expected = count = None
    # A solo player may give the rack, to be told how the play compares with the best one:
    # searched (within the analysis budget, before the turn's transaction) only for a play
    # the rules take, so a refused play costs no search.
    rack = request.POST.get("rack", "").strip()[:16] if plays else ""
    solo = bool(rack) and game.seats.count() == 1
    best = best_play(game, rack) if solo and domain.preview(game, typed).evaluation else None
    try:
        expected = posted_whole(request.POST, "expected_turn", "The turn number")
        count = posted_whole(request.POST, "count", "The number of tiles to exchange")
        applied = domain.act(
            game.pk,
            domain.TurnCommand(
                action,
                expected_turn=expected,
                by="scorer page",
                notation=typed if plays else None,
                count=count,
                racks=_racks_from(request, game) if racks_left else None,
                rack=rack,
                note=ON_TIME if asked is KINDS["pass"] and request.POST.get("on_time") else "",
                best=best.score if best else None,
                retry_slot=retry_slot(request),
                **posted_clock(request.POST),
            ),
        )
    except StaleTurn:
        earlier = same_turn(game, expected, action, typed, count)
        if earlier is not None:  # sent twice: the answer the first one got
            if not kind_of(earlier).judges_play:
                messages.success(request, describe(earlier))
            return _answer(request, game, describe(earlier))
        stale = "Another turn was entered first, perhaps on another device: here is the game now."
        return _refused(request, game, stale, text=typed, direction=direction)
    except REFUSALS as error:
        racks = _racks_from(request, game) if racks_left else None
        return _refused(
            request, game, message_of(error), text=typed, direction=direction, racks=racks
        )
    said = describe(applied.turn)
    if not kind_of(applied.turn).judges_play:  # a verdict is shown by the board, in full
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
    request: HttpRequest,
    game: Game,
    message: str,
    text: str = "",
    direction: str = ACROSS,
    racks: dict[int, str] | None = None,
) -> HttpResponse:
    """Back to the scorer page's board (303, so a reload never resends), with the reason and
    the play as typed, in the direction it was tapped, or the racks as typed for a refused
    finish, kept for it; players are named, not numbered."""
    game.refresh_from_db(fields=["last_entry_number"])
    names = list(game.seats.order_by("order").values_list("player__name", flat=True))
    said = name_players(message, names)
    request.session[REFUSAL] = {
        "game": str(game.pk),
        "turn": game.last_entry_number,
        "message": said,
        "typed": text[:500],
        "direction": direction,
        "racks": {str(seat): letters[:40] for seat, letters in (racks or {}).items()},
    }
    return _answer(request, game, said, entered=False)


# The second screen -----------------------------------------------------------------------------
@require_GET
def watch(request: HttpRequest, game_id: Any) -> HttpResponse:
    game, seats = read_game(game_id)
    context = live_context(game, seats)
    context["poll"] = settings.LIVE_POLL_SECONDS  # while push is not open (static/js/live.js)
    context["heartbeat"] = settings.PUSH_HEARTBEAT_SECONDS  # a stream silent longer is down
    return render(request, "table/watch.html", context)


@require_GET
@condition(etag_func=game_version)
def watch_live(request: HttpRequest, game_id: Any) -> HttpResponse:
    """The spectator screen's live part (its stream sends it with each change; this is for a
    screen that missed some, or polls)."""
    html = live_part(game_id, game_version(request, game_id))
    if html is None:
        raise GameNotFound(game_id)
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"
    return response
