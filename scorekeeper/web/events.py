"""A club's event on the site: its public page (find my table, pairings, standings, kept up to
date as results land; drawn once a version, ``event_parts``), its standings part, each player's
scorecard, its ``.t`` and CSV files, a printable round page with each table's scorer link as a
QR code (its director's), and the page an old link of a game taken away shows. The director's
page and its forms are ``event_directing``.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar
from uuid import UUID

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import condition, require_GET

from scorekeeper.events import files
from scorekeeper.events.access import (
    NotDirector,
    access_event,
    access_event_as_director,
    directs_event,
)
from scorekeeper.events.corrections import correction_sentence, corrections_of
from scorekeeper.events.reads import (
    rounds_of,
    where_now,
)
from scorekeeper.http.limits import limited
from scorekeeper.http.links import link_url
from scorekeeper.http.refusals import REFUSALS, message_of, status_of
from scorekeeper.live.news import event_version
from scorekeeper.models import ReplacedGame
from scorekeeper.web import event_parts
from scorekeeper.web.clubs import refuse
from scorekeeper.web.managing import qr_svg
from scorekeeper.web.shortcuts import error_page, private


@require_GET
def export_t(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event as tsh's ``.t`` file, for a ratings authority."""
    tournament = access_event(tournament_id)
    division = request.GET.get("division")
    try:
        text = files.export_t(tournament, division[:80] if division is not None else None)
    except REFUSALS as error:
        return error_page(request, status_of(error), "No .t file yet", message_of(error))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    suffix = f"-{slugify(division)}" if division and slugify(division) else ""
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}{suffix}.t"'
    return response


@require_GET
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings as a CSV file, for a spreadsheet or the club's newsletter."""
    tournament = access_event(tournament_id)
    response = HttpResponse(files.standings_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
    return response


# The public page ------------------------------------------------------------------------------
MAX_FOUND = 12  # tables "find my table" lists for a partial name that fits many


# Every public page and part of an event answers with an ETag from the event's version (and,
# for the page, who asks and what they asked): a repeat is a 304 from one read of the version.
R = TypeVar("R", bound=HttpResponseBase)


def _public_etag(request: HttpRequest, tournament_id: int, number: int = 0) -> str | None:
    version = event_version(tournament_id)
    if version is None:
        return None
    page = request.resolver_match.url_name if request.resolver_match else ""
    if page == "event":  # the page says who it was drawn for and what they asked
        asked = request.GET.get("name", "").strip()[:80]
        who = request.user.pk if request.user.is_authenticated else 0
        digest = hashlib.blake2b(asked.encode(), digest_size=6).hexdigest()
        return f"{tournament_id}.{version}.{who}.{digest}"
    if page == "event_scorecard":
        return f"{tournament_id}.{version}.card{number}"
    return part_etag(tournament_id, version)


def part_etag(tournament_id: int, version: int) -> str:
    """The live part's ETag at ``version`` (the page says it, for its first fetch)."""
    return f"{tournament_id}.{version}"


def _revalidated(response: R) -> R:
    response["Cache-Control"] = "no-cache"  # kept, and asked again with its ETag each time
    return response


@require_GET
@condition(etag_func=_public_etag)
@limited("event_pages", method="GET")
def event_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = access_event(tournament_id)
    part = event_parts.live_part(tournament)
    asked = request.GET.get("name", "").strip()[:80]
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "part": mark_safe(part.html),  # noqa: S308 - drawn by our template from the record
        "version": part.version,
        "part_etag": f'"{part_etag(tournament.pk, part.version)}"',
        "director": directs_event(request.user, tournament),
        "asked": asked,
        "found": event_parts.find_table(part.seats, asked)[:MAX_FOUND] if asked else [],
        "poll": settings.LIVE_POLL_SECONDS,
        "corrections": [(c.at, correction_sentence(c)) for c in corrections_of(tournament)],
    }
    return _revalidated(render(request, "events/event.html", context))


@require_GET
@limited("event_pages", method="GET")
def standings_part(request: HttpRequest, tournament_id: int) -> HttpResponseBase:
    """The live part: what hundreds of phones fetch after each change, so one read of the
    event's version and, once this process has served that version, nothing more."""
    stamp = event_parts.stamp_of(tournament_id)
    if stamp is None:
        raise Http404("There is no such tournament.")
    version, made = stamp
    etag = quote_etag(part_etag(tournament_id, version))
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        unchanged["ETag"] = etag
        unchanged["Cache-Control"] = "no-cache"
        return unchanged
    part = event_parts.live_part_at(tournament_id, version, made)
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(part.html)
        response["ETag"] = etag
        return _revalidated(response)
    # Gzipped once a version, not once a phone; public standings, no secret for BREACH to find.
    response = HttpResponse(part.gzipped)
    response["ETag"] = etag
    response["Content-Encoding"] = "gzip"
    patch_vary_headers(response, ["Accept-Encoding"])
    return _revalidated(response)


@require_GET
@condition(etag_func=_public_etag)
@limited("event_pages", method="GET")
def scorecard(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One player's scorecard (by their entry's number), drawn when asked for."""
    tournament = access_event(tournament_id)
    card = event_parts.scorecard(tournament, number)
    if card is None:
        raise Http404("There is no such player in this event.")
    context = {"tournament": tournament, "club": tournament.club, "card": mark_safe(card)}  # noqa: S308
    return _revalidated(render(request, "events/scorecard.html", context))


# The printable round --------------------------------------------------------------------------
@login_required
@require_GET
def round_sheet(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Every table of a round with its scorer link as a QR code: each table's phone opens
    its own game. The links carry the games' secrets, so only a director sees them."""
    try:
        tournament = access_event_as_director(request.user, tournament_id)
    except NotDirector as refused:
        return refuse(request, refused.club, "print its rounds")
    pairings = rounds_of(tournament).get(number)
    if pairings is None:
        raise Http404("That round is not paired.")
    tables = []
    for pairing in pairings:
        url = request.build_absolute_uri(link_url(pairing.game)) if pairing.game else ""
        # segno draws the SVG from the address alone: nothing in it comes from a person.
        qr = mark_safe(qr_svg(url)) if url else ""  # noqa: S308
        tables.append({"pairing": pairing, "url": url, "qr": qr})
    context = {"tournament": tournament, "number": number, "tables": tables}
    return private(render(request, "events/round.html", context))


# An old link of a game taken away ------------------------------------------------------------
def replaced_game_page(request: HttpRequest, game_id: object) -> HttpResponse | None:
    """The page an old scorer link or QR code of a table's game taken away with its round
    shows (410: gone for good), or None when the id is no such game's."""
    try:
        key = UUID(str(game_id))
    except ValueError:
        return None
    replaced = ReplacedGame.objects.select_related("tournament").filter(pk=key).first()
    if replaced is None:
        return None
    context = {"tournament": replaced.tournament, "said": where_now(replaced)}
    return private(render(request, "events/replaced.html", context, status=410))
