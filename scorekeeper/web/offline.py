"""The scorer page offline: the service worker that keeps it (``/sw.js``, whose scope is the
whole site, so it controls the scorer pages and sees a sign-out), drawn from
``templates/offline/service_worker.js`` with what it must know of this site's addresses."""

from __future__ import annotations

import json
import uuid

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
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
