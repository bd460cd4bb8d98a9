"""A club's settings page, for its directors: the club's name, its usual rules (which pre-fill
its new games and events), its roster players' names, and its directors (make a member one,
step down while another remains).

Each change is a POST that checks the director (``access_club_as_director``, as every
director's page and route does), calls one operation of ``scorekeeper.clubs.club_settings``
and comes back to the page with what was done or the sentence saying why not.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.clubs import club_settings
from scorekeeper.clubs.access import NotDirector, access_club_as_director
from scorekeeper.clubs.membership import home_clubs
from scorekeeper.http.refusals import REFUSALS, message_of
from scorekeeper.models import Club
from scorekeeper.web.club_forms import ClubRulesForm, RenamePlayerForm
from scorekeeper.web.clubs import get_club, number_of, refuse
from scorekeeper.web.forms import ClubForm
from scorekeeper.web.shortcuts import private


@login_required
@require_GET
def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        club = access_club_as_director(request.user, get_club(slug))
    except NotDirector as refused:
        return refuse(request, refused.club, "change its settings")
    players = list(club.roster.order_by("name"))
    homes = home_clubs(players)
    context = {
        "club": club,
        "name_form": ClubForm(initial={"name": club.name}),
        "rules_form": ClubRulesForm.of(club_settings.rules_of(club)),
        "players": [p for p in players if homes.get(p.pk) == club.pk],
        "directors": club.directors.order_by("username"),
        "candidates": club_settings.members_to_direct(club),
        "invited": club.director_invitations.select_related("user").order_by("pk"),
    }
    return private(render(request, "clubs/settings.html", context))


def _directed(request: HttpRequest, slug: str, change: Callable[[Club], str]) -> HttpResponse:
    """A director's change: done and said, or refused with its sentence; back to the page."""
    try:
        club = access_club_as_director(request.user, get_club(slug))
    except NotDirector as refused:
        return refuse(request, refused.club, "change its settings")
    try:
        messages.success(request, change(club))
    except REFUSALS as error:
        messages.error(request, f"Not changed. {message_of(error)}")
    except forms.ValidationError as error:
        messages.error(request, f"Not changed. {' '.join(error.messages)}")
    try:
        access_club_as_director(request.user, club)
    except NotDirector:  # stepped down: the settings are another's now
        return redirect("club", slug=club.slug)
    return redirect("club_settings", slug=club.slug)


def _errors(form: forms.Form) -> forms.ValidationError:
    """The form's errors as one refusal, each named by its field's label."""
    sentences = []
    for name, errors in form.errors.items():
        said = " ".join(str(error) for error in errors)
        label = form.fields[name].label if name in form.fields else None
        sentences.append(f"{label}: {said}" if label else said)
    return forms.ValidationError(sentences)


@login_required
@require_POST
def rename_club(request: HttpRequest, slug: str) -> HttpResponse:
    def change(club: Club) -> str:
        form = ClubForm(request.POST)
        if not form.is_valid():
            raise _errors(form)
        name = club_settings.check_club_rename(club, form.cleaned_data["name"])
        renamed = club_settings.do_rename_club(club, name)
        return f"The club is called {renamed.name} now; its address stays /clubs/{renamed.slug}/."

    return _directed(request, slug, change)


@login_required
@require_POST
def club_rules(request: HttpRequest, slug: str) -> HttpResponse:
    def change(club: Club) -> str:
        form = ClubRulesForm(request.POST)
        if not form.is_valid():
            raise _errors(form)
        rules = club_settings.check_rules(form.rules(kept=club_settings.rules_of(club)))
        club_settings.do_set_rules(club, rules)
        return "The club's usual rules are kept: its new games and events start from them."

    return _directed(request, slug, change)


@login_required
@require_POST
def rename_player(request: HttpRequest, slug: str) -> HttpResponse:
    def change(club: Club) -> str:
        form = RenamePlayerForm(request.POST)
        if not form.is_valid():
            raise _errors(form)
        player = club.roster.filter(pk=form.cleaned_data["player"]).first()
        if player is None:
            raise forms.ValidationError(f"That player is not on {club.name}'s roster.")
        old = player.name
        name = club_settings.check_player_rename(club, player, form.cleaned_data["name"])
        renamed = club_settings.do_rename_player(player, name)
        return f"{old} is called {renamed.name} now, in every game and standings."

    return _directed(request, slug, change)


@login_required
@require_POST
def directors(request: HttpRequest, slug: str) -> HttpResponse:
    """``change=add`` with ``player``, a roster player with an account: that account is
    invited to direct the club too; ``change=step_down``: the director asking stops directing
    it."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)

    def change(club: Club) -> str:
        if request.POST.get("change") == "step_down":
            club_settings.do_step_down(club, user)
            return f"You no longer direct {club.name}."
        if request.POST.get("change") != "add":
            raise forms.ValidationError("Say what to change: add a director, or step down.")
        number = request.POST.get("player", "")
        player = club.roster.filter(pk=number_of(number) or 0).first()
        if player is None or player.user is None:
            raise forms.ValidationError(
                f"Choose a player of {club.name}'s roster who has an account."
            )
        club_settings.do_invite_director(club, player.user, user)
        return (
            f"{player.name} ({player.user.get_username()}) is invited to direct {club.name}: "
            "they direct it once they accept, on their Invitations page."
        )

    return _directed(request, slug, change)
