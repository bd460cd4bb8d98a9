"""A game's record in and out as files: the upload page for GCG records, and the JSON and GCG
downloads of a game (``scorekeeper.records.json_record``, ``scorekeeper.records.gcg_export`` and
``scorekeeper.records.gcg_import`` read and write the formats)."""

from __future__ import annotations

import json
from functools import partial

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from referee import InputError, get_ruleset
from scorekeeper.clubs.membership import speaks_for
from scorekeeper.games.domain import GameHere, fetch_game
from scorekeeper.http.limits import limited
from scorekeeper.models import Game
from scorekeeper.records.gcg_export import game_to_gcg
from scorekeeper.records.gcg_import import import_gcg
from scorekeeper.records.json_record import export_record
from scorekeeper.web.forms import ImportForm
from scorekeeper.web.shortcuts import error_page


@limited("imports")
def import_record(request: HttpRequest) -> HttpResponse:
    """Upload a game record (GCG): stored like any other game, then shown with its log. Its
    players are the known players of those names only where the signed-in user speaks for
    them (their own account, a director of their club); else new names of their own."""
    if request.method == "POST" and _body_too_large(request):
        # Not read at all: an upload's file part counts toward no other limit.
        context = {"form": ImportForm(), "refusal": ImportForm.TOO_LARGE}
        return render(request, "history/import.html", context, status=413)
    form = ImportForm(request.POST or None, request.FILES or None)
    status = 400 if request.method == "POST" else 200
    existing = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            imported = import_gcg(
                data["source"],
                ruleset=data["ruleset"] or None,
                strict=data["strict"],
                linked=partial(speaks_for, request.user),
            )
        except GameHere as error:
            form.add_error(None, error.message)
            status, existing = 409, error.game
        except InputError as error:
            form.add_error(None, error.message)
        else:
            shown = imported.mismatches[:20]
            for m in shown:
                messages.warning(
                    request,
                    f"Line {m.line}: {m.text.strip()} — recorded {m.recorded}, the rules give "
                    f"{m.computed}.",
                )
            if len(imported.mismatches) > len(shown):
                messages.warning(
                    request, f"… and {len(imported.mismatches) - len(shown)} more lines differ."
                )
            agreed = "" if imported.mismatches else " Every scored line agrees with the rules."
            if imported.linked_here:
                messages.success(request, "This game was here already: its players are linked now.")
            else:
                messages.success(request, f"Imported.{agreed}")
            return redirect("game", imported.game.pk)
    context = {"form": form, "existing": existing}
    return render(request, "history/import.html", context, status=status)


def _body_too_large(request: HttpRequest) -> bool:
    """The request says its body is over the limit every other body has (2.5 MB)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# Exports ---------------------------------------------------------------------------------------
def _filename(game: Game, extension: str) -> str:
    return f"{game.ruleset}-{game.created_at:%Y-%m-%d}-{str(game.pk)[:8]}.{extension}"


@require_GET
def export_json(request: HttpRequest, game_id: object) -> HttpResponse:
    game = fetch_game(game_id)
    body = json.dumps(export_record(game), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "json")}"'
    return response


@require_GET
def export_gcg(request: HttpRequest, game_id: object) -> HttpResponse:
    game = fetch_game(game_id)
    try:
        text = game_to_gcg(game)
    except InputError:
        return error_page(
            request,
            404,
            "No GCG for this game",
            f"GCG is a format for the crossword games; this is a game of "
            f"{get_ruleset(game.ruleset).name}. Its JSON record holds everything.",
            game=game,
            json=True,
        )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(game, "gcg")}"'
    return response
