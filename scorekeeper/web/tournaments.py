"""A club's tournament on the site: its public page (find my table, pairings, standings with
scorecards, kept up to date as results land), its standings part, its ``.t`` file, the
director's page (make an event, pair a round, type in a result, withdraw a player) and a
printable round page with each table's scorer link as a QR code.

Every change goes through ``scorekeeper.game.tournaments``; the views check who asks, read the
form, call one operation and redirect.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from scorekeeper.game import tournaments as events
from scorekeeper.game.refusals import REFUSALS, message_of
from scorekeeper.models import Tournament
from scorekeeper.web.shortcuts import error_page


def get_tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if found is None:
        raise Http404("There is no such tournament.")
    return found


@require_GET
def export_t(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The event as tsh's ``.t`` file, for a ratings authority."""
    tournament = get_tournament(tournament_id)
    try:
        text = events.export_t(tournament)
    except REFUSALS as error:
        return error_page(request, 409, "No .t file yet", message_of(error))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.t"'
    return response
