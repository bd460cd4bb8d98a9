"""A club's tournament on the site: its public page (find my table, pairings, standings, kept
up to date as results land; drawn once a version, ``event_parts``), its standings part, each
player's scorecard, its ``.t`` file, the
director's page (make an event, pair a round, type in a result, withdraw a player) and a
printable round page with each table's scorer link as a QR code.

Every change goes through ``scorekeeper.events``; the views check who asks, read the
form, call one operation and redirect.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date as Date
from typing import Any, TypeVar
from uuid import UUID

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import condition, require_GET, require_http_methods, require_POST

from scorekeeper import limits
from scorekeeper.events import files
from scorekeeper.events.entries import do_add_players, do_create_tournament
from scorekeeper.events.files import do_import_tournament
from scorekeeper.events.lifecycle import (
    check_no_results,
    do_change_event,
    do_delete_tournament,
    do_mark_tonight,
)
from scorekeeper.events.reads import (
    correction_sentence,
    corrections_of,
    divisions_of,
    entrants_of,
    final_scores,
    games_in_play,
    rounds_of,
    today,
    where_now,
)
from scorekeeper.events.results import (
    do_correct_result,
    do_enter_result,
    do_forfeit,
    do_void_result,
    do_withdraw,
)
from scorekeeper.events.rounds import (
    can_pair_again,
    do_pair_round,
    do_swap,
    do_unpair_round,
    swap_rematches,
)
from scorekeeper.game import club_settings
from scorekeeper.game.links import link_url
from scorekeeper.game.membership import directs
from scorekeeper.game.refusals import REFUSALS, Conflict, message_of, status_of
from scorekeeper.live.news import event_version
from scorekeeper.models import Pairing, ReplacedGame, Tournament, TournamentRound
from scorekeeper.web import event_parts
from scorekeeper.web.clock_fields import clock_initial, clock_of
from scorekeeper.web.clubs import get_club, number_of, refuse
from scorekeeper.web.managing import qr_svg
from scorekeeper.web.shortcuts import error_page, private
from scorekeeper.web.tournament_forms import NewTournamentForm, PairForm, ResultForm, read_entries


def get_tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if found is None:
        raise Http404("There is no such tournament.")
    return found


@require_GET
def export_t(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event as tsh's ``.t`` file, for a ratings authority."""
    tournament = get_tournament(tournament_id)
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
    tournament = get_tournament(tournament_id)
    response = HttpResponse(files.standings_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
    return response


# Who may do what ------------------------------------------------------------------------------
def _who(request: HttpRequest) -> str:
    return request.user.get_username() if request.user.is_authenticated else ""


# Making an event ------------------------------------------------------------------------------
def _account(request: HttpRequest) -> AbstractBaseUser:
    """The signed-in director's account (every director's page requires one)."""
    assert isinstance(request.user, AbstractBaseUser)
    return request.user


@login_required
@require_http_methods(["GET", "POST"])
def new_tournament(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_club(slug)
    if not directs(request.user, club):
        return refuse(request, club, "make its tournaments")
    posted = request.method == "POST"
    usual = club_settings.rules_of(club)  # the form starts from the club's usual rules
    initial = {**usual.initial(), **clock_initial(usual.clock)}
    form = NewTournamentForm(
        request.POST if posted else None, request.FILES if posted else None, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            "name": data["name"],
            "date": data.get("date"),
            "ruleset": data["ruleset"],
            "lexicon": data["lexicon"],
            "challenge_mode": data["challenge_mode"],
            "rounds": data["rounds"],
            "bye_spread": data["bye_spread"],
            "forfeit_spread": 50 if data["forfeit_spread"] is None else data["forfeit_spread"],
            "gibson": data["gibson"],
            "fontes_rounds": data["fontes_rounds"] or 3,
            "rejected_challenge": data["rejected_challenge"],
            "clock": clock_of(data, usual.clock),
            "by": _account(request),
        }
        try:
            text = form.t_text()
            if text is None:
                made = do_create_tournament(club, players=data["players"], **fields)
            else:
                made = do_import_tournament(club, text, **fields)
        except REFUSALS as error:
            form.add_error(None, message_of(error))
        except forms.ValidationError as error:
            form.add_error("tfile", error)
        else:
            messages.success(request, f"{made.name} is made with {made.entrants.count()} players.")
            return redirect("tournament_direct", tournament_id=made.pk)
    status = 400 if request.method == "POST" else 200
    context = {"club": club, "form": form}
    return private(render(request, "tournaments/new.html", context, status=status))


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
    if page == "tournament":  # the page says who it was drawn for and what they asked
        asked = request.GET.get("name", "").strip()[:80]
        who = request.user.pk if request.user.is_authenticated else 0
        digest = hashlib.blake2b(asked.encode(), digest_size=6).hexdigest()
        return f"{tournament_id}.{version}.{who}.{digest}"
    if page == "tournament_scorecard":
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
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    part = event_parts.live_part(tournament)
    asked = request.GET.get("name", "").strip()[:80]
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "part": mark_safe(part.html),  # noqa: S308 - drawn by our template from the record
        "version": part.version,
        "part_etag": f'"{part_etag(tournament.pk, part.version)}"',
        "director": directs(request.user, tournament.club),
        "asked": asked,
        "found": event_parts.find_table(part.seats, asked)[:MAX_FOUND] if asked else [],
        "poll": settings.LIVE_POLL_SECONDS,
        "corrections": [(c.at, correction_sentence(c)) for c in corrections_of(tournament)],
    }
    return _revalidated(render(request, "tournaments/event.html", context))


@require_GET
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
def scorecard(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One player's scorecard (by their entry's number), drawn when asked for."""
    tournament = get_tournament(tournament_id)
    card = event_parts.scorecard(tournament, number)
    if card is None:
        raise Http404("There is no such player in this event.")
    context = {"tournament": tournament, "club": tournament.club, "card": mark_safe(card)}  # noqa: S308
    return _revalidated(render(request, "tournaments/scorecard.html", context))


# The director's page --------------------------------------------------------------------------
@login_required
@require_GET
def direct(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_tournament(tournament_id)
    if not directs(request.user, tournament.club):
        return refuse(request, tournament.club, "run its tournaments")
    return _direct_page(request, tournament)


def _direct_page(request: HttpRequest, tournament: Tournament, status: int = 200) -> HttpResponse:
    rounds = dict(rounds_of(tournament))
    entrants = entrants_of(tournament)
    latest = max(rounds, default=0)
    context = {
        "tournament": tournament,
        "club": tournament.club,
        "rounds": sorted(rounds.items()),
        "pair_form": PairForm(initial={"round": latest + 1}),
        "result_form": ResultForm(initial={"round": max(rounds) if rounds else 1}),
        "correct_form": ResultForm(prefix="correct", initial={"round": latest or 1}),
        "entrants": entrants,
        "divisions": [name for name in divisions_of(entrants) if name],
        "paired": len(rounds),
        "waiting": _waiting(rounds.get(latest, [])),
        "open_round": latest if latest and can_pair_again(tournament, latest) else None,
        "tonight": tournament.tonight == today(),
        "deletable": _deletable(tournament),
    }
    return private(render(request, "tournaments/direct.html", context, status=status))


def _deletable(tournament: Tournament) -> bool:
    try:
        check_no_results(tournament)
    except REFUSALS:
        return False
    return True


@dataclass(frozen=True)
class Confirm:
    """A step the director confirms before it is done (a page that works without script):
    what it does, warnings, the form to send again with ``confirm``, and its button."""

    title: str
    said: list[str]
    action: str
    fields: list[tuple[str, str]]
    button: str
    warnings: tuple[str, ...] = ()
    choices: tuple[tuple[str, str, str, bool], ...] = ()  # name, value, label, checked


def _confirm(request: HttpRequest, tournament: Tournament, step: Confirm) -> HttpResponse:
    context = {"tournament": tournament, "club": tournament.club, "step": step}
    return private(render(request, "tournaments/confirm.html", context))


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") in ("1", "True", "on")


def _directed(
    request: HttpRequest, tournament_id: int, change: Callable[[Tournament], str]
) -> HttpResponse:
    """A director's change from their page: done and said, or refused with its sentence."""
    tournament = get_tournament(tournament_id)
    if not directs(request.user, tournament.club):
        return refuse(request, tournament.club, "run its tournaments")
    try:
        messages.success(request, change(tournament))
    except REFUSALS as error:
        messages.error(request, message_of(error))
    except forms.ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("tournament_direct", tournament_id=tournament.pk)


@login_required
@require_POST
def pair(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Pair the round the form names. A form sent twice is refused as the API refuses a twin
    (409, the round is paired already). While the latest round's games are being played the
    director is asked first, and offered the standings before that round as the basis."""
    tournament = get_tournament(tournament_id)
    if not directs(request.user, tournament.club):
        return refuse(request, tournament.club, "run its tournaments")
    form = PairForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose how to pair the round (reload the page and try again).")
        return redirect("tournament_direct", tournament_id=tournament.pk)
    data = form.cleaned_data
    latest, waiting = games_in_play(tournament)
    if waiting and data["round"] == latest + 1 and not data["confirm"]:
        return _confirm(request, tournament, _pair_in_play(tournament, data, latest, waiting))
    try:
        couples, byes = form.manual() if data["method"] == "manual" else ([], [])
        limits.check_paired_games(request)
        paired = do_pair_round(
            tournament,
            data["method"],
            round=data["round"],
            based_on=data["based_on"],
            manual=couples,
            manual_byes=byes,
        )
        limits.count_paired_games(request, paired.pairings.filter(game__isnull=False).count())
    except Conflict as error:  # a twin: said on the page with the API's status
        messages.error(request, message_of(error))
        return _direct_page(request, tournament, status=status_of(error))
    except REFUSALS as error:
        messages.error(request, message_of(error))
    except forms.ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, paired_sentence(paired))
    return redirect("tournament_direct", tournament_id=tournament.pk)


def paired_sentence(paired: TournamentRound) -> str:
    """ "Round 1 is paired: 3 tables and a bye." (a bye is no table)."""
    tables = paired.pairings.filter(table__isnull=False).count()
    byes = paired.pairings.filter(table__isnull=True).count()
    said = f"{tables} table{'' if tables == 1 else 's'}"
    if byes:
        said += " and a bye" if byes == 1 else f" and {byes} byes"
    return f"Round {paired.number} is paired: {said}."


def _standings_after(number: int) -> str:
    return f"The standings after round {number}" if number else "The seeding, before any result"


def _pair_in_play(
    tournament: Tournament, data: dict[str, Any], latest: int, waiting: int
) -> Confirm:
    number = latest + 1
    tables = f"{waiting} table{'s have' if waiting > 1 else ' has'}"
    fields = [
        ("round", str(number)),
        ("method", data["method"]),
        ("pairings", data.get("pairings") or ""),
    ]
    return Confirm(
        title=f"Pair round {number} while round {latest} is played?",
        said=[
            f"Round {latest} is still being played: {tables} no result yet.",
            f"Pairing round {number} now can't count those games. Pair it from "
            f"{_standings_after(latest - 1).lower()}, before the round still being played, or "
            f"wait for round {latest}'s results.",
        ],
        action=reverse("tournament_pair", args=[tournament.pk]),
        fields=fields,
        button=f"Pair round {number} now",
        choices=(
            ("based_on", str(latest - 1), _standings_after(latest - 1), True),
            ("based_on", str(latest), f"From round {latest}'s results so far", False),
        ),
    )


@login_required
@require_POST
def enter_result(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def change(tournament: Tournament) -> str:
        form = ResultForm(request.POST)
        if not form.is_valid():
            raise forms.ValidationError("Give the round, both players and both scores.")
        data = form.cleaned_data
        do_enter_result(
            tournament, data["round"], data["player1"], data["score1"], data["player2"],
            data["score2"], by=_who(request),
        )  # fmt: skip
        one, two = f"{data['player1']} {data['score1']}", f"{data['player2']} {data['score2']}"
        return f"Round {data['round']}: {one}, {two}."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def correct_result(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Correct a result kept on a table (typed in, or a forfeit), or void it ("void")."""

    def change(tournament: Tournament) -> str:
        form = ResultForm(request.POST, prefix="correct")
        if "void" in request.POST:
            number = number_of(request.POST.get("correct-round"))
            player = request.POST.get("correct-player1", "")[:80]
            if number is None or not player:
                raise forms.ValidationError("Give the round and a player of the table.")
            do_void_result(tournament, number, player, by=_who(request))
            return f"Round {number}: {player}'s game has no result now; it waits for one."
        if not form.is_valid():
            raise forms.ValidationError("Give the round, both players and both scores.")
        data = form.cleaned_data
        do_correct_result(
            tournament, data["round"], data["player1"], data["score1"], data["player2"],
            data["score2"], by=_who(request),
        )  # fmt: skip
        one, two = f"{data['player1']} {data['score1']}", f"{data['player2']} {data['score2']}"
        return f"Round {data['round']} corrected: {one}, {two}. The old result is kept."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def change_event(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event's date, archived or not, and whether it is tonight's on the club's screen."""

    def change(tournament: Tournament) -> str:
        if "tonight" in request.POST:
            on = request.POST["tonight"] == "1"
            do_mark_tonight(tournament, on)
            if on:
                return f"{tournament.name} is tonight's event on the club's director's screen."
            return f"{tournament.name} is no longer on the club's director's screen."
        try:
            day = Date.fromisoformat(request.POST.get("date", "")[:10])
        except ValueError:
            raise forms.ValidationError("Give the event's date as YYYY-MM-DD.") from None
        archived = request.POST.get("archived") == "on"
        do_change_event(tournament, date=day, archived=archived)
        return f"{tournament.name} is dated {day:%-d %B %Y}" + (", archived." if archived else ".")

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def delete_event(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Delete an event with no result yet, after the director confirms."""
    tournament = get_tournament(tournament_id)
    if not directs(request.user, tournament.club):
        return refuse(request, tournament.club, "run its tournaments")
    try:
        check_no_results(tournament)
    except REFUSALS as error:
        messages.error(request, message_of(error))
        return redirect("tournament_direct", tournament_id=tournament.pk)
    if not _confirmed(request):
        step = Confirm(
            title=f"Delete {tournament.name}?",
            said=[
                f"{tournament.name}, its players' entries and its rounds are deleted, with "
                "every table's game (none has a turn yet). This can't be undone."
            ],
            action=reverse("tournament_delete", args=[tournament.pk]),
            fields=[],
            button=f"Delete {tournament.name}",
        )
        return _confirm(request, tournament, step)
    try:
        name = do_delete_tournament(tournament)
    except REFUSALS as error:
        messages.error(request, message_of(error))
        return redirect("tournament_direct", tournament_id=tournament.pk)
    messages.success(request, f"{name} is deleted.")
    return redirect("club", slug=tournament.club.slug)


@login_required
@require_POST
def forfeit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def change(tournament: Tournament) -> str:
        number = number_of(request.POST.get("round"))
        absent = request.POST.get("absent", "")[:80]
        if number is None or not absent:
            raise forms.ValidationError("Choose the round and the player who is absent.")
        do_forfeit(tournament, number, absent, by=_who(request))
        margin = tournament.forfeit_spread
        return f"Round {number}: {absent} is absent, a loss by {margin}; the opponent wins."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    number = number_of(request.POST.get("entrant"))
    if not _confirmed(request):
        tournament = get_tournament(tournament_id)
        entrant = tournament.entrants.select_related("player").filter(pk=number or 0).first()
        if directs(request.user, tournament.club) and entrant is not None:
            name = entrant.player.name
            step = Confirm(
                title=f"Withdraw {name}?",
                said=[
                    f"{name} is not paired from the next round on.",
                    "A game of theirs already paired and not finished becomes a forfeit win "
                    "for the opponent.",
                ],
                action=reverse("tournament_withdraw", args=[tournament.pk]),
                fields=[("entrant", str(entrant.pk))],
                button=f"Withdraw {name}",
            )
            return _confirm(request, tournament, step)

    def change(tournament: Tournament) -> str:
        entrant = tournament.entrants.filter(pk=number or 0).first()
        if entrant is None:
            raise forms.ValidationError("Choose a player of this event.")
        do_withdraw(entrant, by=_who(request))
        return f"{entrant.player.name} is withdrawn: not paired from the next round on."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def add_players(request: HttpRequest, tournament_id: int) -> HttpResponse:
    def change(tournament: Tournament) -> str:
        entries = read_entries(request.POST.get("players", ""))
        made = do_add_players(tournament, entries, by=_account(request))
        return f"Entered {', '.join(e.player.name for e in made)} from the next round on."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def unpair(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    if not _confirmed(request):
        tournament = get_tournament(tournament_id)
        if directs(request.user, tournament.club):
            step = Confirm(
                title=f"Take back round {number}?",
                said=[
                    f"Every table's game of round {number} is taken away (none has a turn yet) "
                    "and the round can be paired again.",
                    "Its scorer links and QR codes stop working: opened, they say where the "
                    "table's game is now.",
                ],
                action=reverse("tournament_unpair", args=[tournament.pk, number]),
                fields=[],
                button=f"Take back round {number}",
            )
            return _confirm(request, tournament, step)

    def change(tournament: Tournament) -> str:
        removed = do_unpair_round(tournament, number)
        return f"Round {number} is taken back ({removed} games): pair it again."

    return _directed(request, tournament_id, change)


@login_required
@require_POST
def swap(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    one, other = request.POST.get("one", "")[:80], request.POST.get("other", "")[:80]
    if not _confirmed(request) and one and other:
        tournament = get_tournament(tournament_id)
        if directs(request.user, tournament.club):
            step = Confirm(
                title=f"Swap {one} and {other} in round {number}?",
                said=[
                    f"{one} and {other} take each other's places; their two tables get new "
                    "games and new QR codes, the other tables keep theirs."
                ],
                warnings=tuple(swap_rematches(tournament, number, one, other)),
                action=reverse("tournament_swap", args=[tournament.pk, number]),
                fields=[("one", one), ("other", other)],
                button="Swap them",
            )
            return _confirm(request, tournament, step)

    def change(tournament: Tournament) -> str:
        if not one or not other:
            raise forms.ValidationError("Choose the two players to swap.")
        do_swap(tournament, number, one, other)
        return f"Round {number}: {one} and {other} swapped places; their tables are made again."

    return _directed(request, tournament_id, change)


def _waiting(pairings: list[Pairing]) -> list[str]:
    """The players of a round's tables with no result yet: who may be marked absent."""
    names = []
    for pairing in pairings:
        open_table = pairing.absent_id is None and final_scores(pairing) is None
        if pairing.second is not None and open_table:
            names += [pairing.first.player.name, pairing.second.player.name]
    return names


# The printable round --------------------------------------------------------------------------
@login_required
@require_GET
def round_sheet(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Every table of a round with its scorer link as a QR code: each table's phone opens
    its own game. The links carry the games' secrets, so only a director sees them."""
    tournament = get_tournament(tournament_id)
    if not directs(request.user, tournament.club):
        return refuse(request, tournament.club, "print its rounds")
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
    return private(render(request, "tournaments/round.html", context))


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
    return private(render(request, "tournaments/replaced.html", context, status=410))
