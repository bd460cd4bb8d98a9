"""Small pieces the pages share: numbers read from a form or a query string, and the cache
headers of a page only one browser may see."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers

from referee import InputError

MAX_DIGITS = 9  # more than any turn, entry or rack needs, and far from int()'s limits


def _digits(raw: str) -> bool:
    return raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS


def posted_whole(data: QueryDict, name: str, what: str) -> int | None:
    """The whole number in the form field ``name`` (``what`` names it in the refusal); None
    when the field is empty or absent."""
    raw = data.get(name, "").strip()
    if not raw:
        return None
    if not _digits(raw):
        raise InputError(f"bad_{name}", f"{what} must be a whole number, not {raw[:12]!r}.")
    return int(raw)


def query_whole(raw: str | None, last: int, noun: tuple[str, str]) -> int | None:
    """A number from the query string within 0..last (``noun``: its singular and plural);
    None when absent."""
    one, many = noun
    if raw is None or raw == "":
        return None
    if not _digits(raw):
        raise InputError(
            "bad_number", f"“{raw}” is not a {one} number: use a whole number from 0 to {last}."
        )
    value = int(raw)
    if value > last:
        raise InputError(
            "bad_number", f"This game has {many} 0 to {last}; there is no {one} {value}."
        )
    return value


def error_page(
    request: HttpRequest, status: int, title: str, message: str, **links: Any
) -> HttpResponse:
    """The history pages' refusal: a title, the sentence, and links back (``links``: the
    game, the JSON record...)."""
    context = {"title": title, "message": message, **links}
    return render(request, "history/error.html", context, status=status)


def private(response: HttpResponse) -> HttpResponse:
    """A page that shows this browser's scorer links: never cached for anyone else."""
    patch_cache_control(response, private=True, no_store=True)
    patch_vary_headers(response, ["Cookie"])
    return response
