"""For whoever runs the server: a health check for the load balancer, and the smallest view."""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """For a load balancer: 200 when this server can reach its database, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def ping(request: HttpRequest) -> JsonResponse:
    """The smallest JSON view: the benchmark's measure of the stack's own limit."""
    return JsonResponse({"pong": True})
