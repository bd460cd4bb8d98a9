"""A director's pages of an event: making one, the director's page and each of its forms (pair a
round, type in, correct or void a result, mark an absence, withdraw, enter late, take a round
back, swap two players; the event's date, tonight's, archived, deleted), each a step confirmed
first where it can't be undone. Every change goes through scorekeeper.events; a view
fetches and checks the event in one call (access_event_as_director), reads the form, calls
one operation and redirects.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper.clubs import club_settings
from scorekeeper.events.access import (
    NotDirector,
    access_event,
    access_event_as_director,
    check_directs,
    directs_event,
)
from scorekeeper.events.entries import do_add_players, do_create_tournament
from scorekeeper.events.files import do_import_tournament
from scorekeeper.events.lifecycle import (
    check_no_results,
    do_change_event,
    do_delete_tournament,
    do_mark_tonight,
)
from scorekeeper.events.reads import (
    divisions_of,
    entrants_of,
    final_scores,
    games_in_play,
    rounds_of,
    today,
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
from scorekeeper.games.errors import Conflict
from scorekeeper.http import limits
from scorekeeper.http.refusals import REFUSALS, message_of, status_of
from scorekeeper.models import Pairing, Tournament, TournamentRound
from scorekeeper.web import event_parts
from scorekeeper.web.clock_fields import clock_initial, clock_of
from scorekeeper.web.clubs import get_club, number_of, refuse
from scorekeeper.web.event_forms import NewEventForm, PairForm, ResultForm, read_entries
from scorekeeper.web.shortcuts import private


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
@limits.limited("events")
def new_event(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_club(slug)
    try:
        check_directs(request.user, club)
    except NotDirector:
        return refuse(request, club, "make its tournaments")
    posted = request.method == "POST"
    usual = club_settings.rules_of(club)  # the form starts from the club's usual rules
    initial = {**usual.initial(), **clock_initial(usual.clock)}
    form = NewEventForm(
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
            return redirect("event_direct", tournament_id=made.pk)
    status = 400 if request.method == "POST" else 200
    context = {"club": club, "form": form}
    return private(render(request, "events/new.html", context, status=status))


# The director's page --------------------------------------------------------------------------
@login_required
@require_GET
def direct(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = access_event_as_director(request.user, tournament_id)
    except NotDirector as refused:
        return refuse(request, refused.club, "run its tournaments")
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
    return private(render(request, "events/direct.html", context, status=status))


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
    return private(render(request, "events/confirm.html", context))


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") in ("1", "True", "on")


def _directed(
    request: HttpRequest, tournament_id: int, change: Callable[[Tournament], str]
) -> HttpResponse:
    """A director's change from their page: done and said, or refused with its sentence."""
    try:
        tournament = access_event_as_director(request.user, tournament_id)
    except NotDirector as refused:
        return refuse(request, refused.club, "run its tournaments")
    try:
        messages.success(request, change(tournament))
    except REFUSALS as error:
        messages.error(request, message_of(error))
    except forms.ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("event_direct", tournament_id=tournament.pk)


@login_required
@require_POST
@limits.limited("pairings")
def pair(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Pair the round the form names. A form sent twice is refused as the API refuses a twin
    (409, the round is paired already). While the latest round's games are being played the
    director is asked first, and offered the standings before that round as the basis."""
    try:
        tournament = access_event_as_director(request.user, tournament_id)
    except NotDirector as refused:
        return refuse(request, refused.club, "run its tournaments")
    form = PairForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose how to pair the round (reload the page and try again).")
        return redirect("event_direct", tournament_id=tournament.pk)
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
    return redirect("event_direct", tournament_id=tournament.pk)


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
        action=reverse("event_pair", args=[tournament.pk]),
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
    try:
        tournament = access_event_as_director(request.user, tournament_id)
    except NotDirector as refused:
        return refuse(request, refused.club, "run its tournaments")
    try:
        check_no_results(tournament)
    except REFUSALS as error:
        messages.error(request, message_of(error))
        return redirect("event_direct", tournament_id=tournament.pk)
    if not _confirmed(request):
        step = Confirm(
            title=f"Delete {tournament.name}?",
            said=[
                f"{tournament.name}, its players' entries and its rounds are deleted, with "
                "every table's game (none has a turn yet). This can't be undone."
            ],
            action=reverse("event_delete", args=[tournament.pk]),
            fields=[],
            button=f"Delete {tournament.name}",
        )
        return _confirm(request, tournament, step)
    try:
        name = do_delete_tournament(tournament)
        event_parts.forget(tournament_id)
    except REFUSALS as error:
        messages.error(request, message_of(error))
        return redirect("event_direct", tournament_id=tournament.pk)
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
        tournament = access_event(tournament_id)
        entrant = tournament.entrants.select_related("player").filter(pk=number or 0).first()
        if directs_event(request.user, tournament) and entrant is not None:
            name = entrant.player.name
            step = Confirm(
                title=f"Withdraw {name}?",
                said=[
                    f"{name} is not paired from the next round on.",
                    "A game of theirs already paired and not finished becomes a forfeit win "
                    "for the opponent.",
                ],
                action=reverse("event_withdraw", args=[tournament.pk]),
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
@limits.limited("entries")
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
        tournament = access_event(tournament_id)
        if directs_event(request.user, tournament):
            step = Confirm(
                title=f"Take back round {number}?",
                said=[
                    f"Every table's game of round {number} is taken away (none has a turn yet) "
                    "and the round can be paired again.",
                    "Its scorer links and QR codes stop working: opened, they say where the "
                    "table's game is now.",
                ],
                action=reverse("event_unpair", args=[tournament.pk, number]),
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
        tournament = access_event(tournament_id)
        if directs_event(request.user, tournament):
            step = Confirm(
                title=f"Swap {one} and {other} in round {number}?",
                said=[
                    f"{one} and {other} take each other's places; their two tables get new "
                    "games and new QR codes, the other tables keep theirs."
                ],
                warnings=tuple(swap_rematches(tournament, number, one, other)),
                action=reverse("event_swap", args=[tournament.pk, number]),
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
