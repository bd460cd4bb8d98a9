"""The scorer page offline and on a phone's home screen: the service worker that keeps it
(``/sw.js``, whose scope is the whole site, so it controls the scorer pages and sees a
sign-out), drawn from ``templates/offline/service_worker.js`` with what it must know of this
site's addresses; and the web app manifest (``/manifest.webmanifest``) that lets a phone
install the site as an app."""

from __future__ import annotations

import json
import uuid

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

# A request with this header asks for the scorer page as the worker keeps it: the page
# without its one-time news (the last turn's sentence, a refusal), left for the page itself.
COPY_HEADER = "Scorekeeper-Copy"
_ANY_GAME = uuid.UUID(int=0)


def copy_for_offline(request: HttpRequest) -> bool:
    """Whether the request is the service worker's own fetch of a page to keep."""
    return request.headers.get(COPY_HEADER) == "offline"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script. Its caches are named after the collected static files
    (the manifest's hash), so a deploy that changes them empties the old ones."""
    scorer = reverse("scorer", args=[_ANY_GAME])
    pattern = "^" + scorer.replace(str(_ANY_GAME), "[0-9a-f-]{36}") + "$"
    context = {
        "version": json.dumps(getattr(staticfiles_storage, "manifest_hash", "") or "dev"),
        "scorer": json.dumps(pattern),
        "static": json.dumps(settings.STATIC_URL),
        "forget_on": json.dumps([reverse("login"), reverse("logout"), reverse("admin:logout")]),
        "copy_header": json.dumps(COPY_HEADER),
    }
    response = render(
        request, "offline/service_worker.js", context, content_type="text/javascript; charset=utf-8"
    )
    # Asked for again at every check for an update, never from a cache.
    response["Cache-Control"] = "no-cache"
    return response


# The manifest's colours: the site's header and its paper (static/css/app.css).
THEME_COLOUR = "#1d2433"
BACKGROUND_COLOUR = "#fbf8f1"


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: installed, the app opens at the home page, which lists the
    games this browser keeps ("your games"), the scorer pages among them. Its icons
    (static/icons/, drawn by docs/icons.py) are maskable: the tile sits in the safe circle."""
    icons = [
        {
            "src": staticfiles_storage.url(f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size in (192, 512)
        for purpose in ("any", "maskable")
    ]
    manifest = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Score-keeping and referee companion for tabletop word games",
        "id": reverse("home"),
        "start_url": reverse("home"),
        "scope": reverse("home"),
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    # Its icons' addresses change with a deploy's static files: asked for again each time.
    response["Cache-Control"] = "no-cache"
    return response
