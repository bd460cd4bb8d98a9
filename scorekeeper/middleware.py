"""Every error under /api/ is JSON, even the ones Django answers before the API sees them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

MESSAGES = {
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    413: ("too_large", "The request body is too large."),
    500: ("server_error", "Something went wrong on our side."),
}


class ApiJsonErrors:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            request.path.startswith("/api/")
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            code, message = MESSAGES.get(
                response.status_code, ("http_error", f"HTTP {response.status_code}.")
            )
            if response.status_code == 405 and response.get("Allow"):
                message = f"Use {response['Allow']} here."
            json = JsonResponse(
                {"error": {"code": code, "message": message}}, status=response.status_code
            )
            if response.get("Allow"):
                json["Allow"] = response["Allow"]
            return json
        return response
