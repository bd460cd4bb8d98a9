"""The rankings page and each player's page (``scorekeeper.stats.rankings`` computes them)."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from referee import RULESETS, get_ruleset
from scorekeeper.events.reads import kept_rating
from scorekeeper.models import Player, Seat
from scorekeeper.stats.rankings import (
    SORT_LABELS,
    WORDS,
    default_ruleset,
    player_game,
    player_record,
    player_results,
    ranking_rows,
)
from scorekeeper.web.forms import RankingsFilter


# Rankings --------------------------------------------------------------------------------------
@require_GET
def rankings(request: HttpRequest) -> HttpResponse:
    form = RankingsFilter(request.GET)
    if not form.is_valid():
        for name in form.errors:
            form.fields[name].widget.attrs["aria-describedby"] = f"id_{name}_error"
        return render(request, "history/rankings.html", {"form": form}, status=400)
    ruleset = form.cleaned_data["ruleset"] or default_ruleset()
    sort = form.cleaned_data["sort"] or "best"
    words = form.cleaned_data["words"] or "checked"
    form = RankingsFilter({"ruleset": ruleset, "sort": sort, "words": words})
    form.is_valid()
    context = {
        "form": form,
        "ruleset": get_ruleset(ruleset),
        "sort": sort,
        "sort_label": SORT_LABELS[sort],
        "words": words,
        "words_label": WORDS[words],
        "rows": ranking_rows(ruleset, sort, words),
    }
    return render(request, "history/rankings.html", context)


# A player's page -------------------------------------------------------------------------------
@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404("There is no player with that number.")
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("game__club")
        .prefetch_related(
            Prefetch(
                "game__seats", queryset=Seat.objects.select_related("player").order_by("order")
            )
        )
        .order_by("-game__created_at")
    )
    context = {
        "player": player,
        "games": [player_game(seat) for seat in seats],
        "results": player_results(seats),
        "rulesets": RULESETS,
        "rating": kept_rating(player.pk),
        **player_record(player, seats),
    }
    return render(request, "history/player.html", context)
