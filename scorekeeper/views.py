from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from referee.apps import get_library
from referee.rulesets import RULESETS


def home(request: HttpRequest) -> HttpResponse:
    """Landing page: what the referee knows (rulesets and installed dictionaries)."""
    library = get_library()
    lexicons = [library.get(info.id) for info in library.infos()]
    return render(
        request,
        "home.html",
        {"rulesets": RULESETS.values(), "lexicons": lexicons},
    )


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})
