"""Each view declares its rate limit where it is defined (``limits.limited``): every route's
declared limits, by method, are the table below, so a view that loses its declaration (or
gains one) fails here."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import ResolverMatch

from scorekeeper.http.limits import declared

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")

# route -> {method: limit}; "(if)" where the view counts only some of them (``when``).
EXPECTED = {
    "admin/login/": {"POST": "logins"},
    "accounts/login/": {"POST": "logins"},
    "judge/": {"GET": "judge (if)"},
    # Games
    "games/new": {"POST": "games"},
    "games/import": {"POST": "imports"},
    "games/<uuid:game_id>/": {"GET": "replays (if)"},
    "games/<uuid:game_id>/score/turn": {"POST": "turns"},
    "games/<uuid:game_id>/score/<str:token>/turn": {"POST": "turns"},
    "games/<uuid:game_id>/score/correct": {"GET": "replays", "POST": "turns"},
    "games/<uuid:game_id>/score/<str:token>/correct": {"GET": "replays", "POST": "turns"},
    "games/<uuid:game_id>/score/correct-preview": {"POST": "turns"},
    "games/<uuid:game_id>/score/<str:token>/correct-preview": {"POST": "turns"},
    "games/<uuid:game_id>/score/photo": {"POST": "analysis"},
    "games/<uuid:game_id>/score/<str:token>/photo": {"POST": "analysis"},
    "api/games/": {"POST": "games"},
    "api/games/import": {"POST": "imports"},
    "api/games/<game_id>/turns/": {"POST": "turns"},
    "api/games/<game_id>/photo": {"POST": "analysis"},
    "api/analysis/": {"POST": "analysis"},
    "api/boards/read": {"POST": "analysis"},
    # Clubs
    "clubs/new": {"POST": "accounts"},
    "clubs/<slug:slug>/roster": {"POST": "accounts (if)"},
    "api/clubs/": {"POST": "accounts"},
    # Events
    "clubs/<slug:slug>/tournaments/new": {"POST": "events"},
    "api/clubs/<slug>/tournaments/": {"POST": "events"},
    "api/clubs/<slug>/tournaments/import": {"POST": "events"},
    "tournaments/<int:tournament_id>/pair": {"POST": "pairings"},
    "api/tournaments/<tournament_id>/rounds/": {"POST": "pairings"},
    "tournaments/<int:tournament_id>/add": {"POST": "entries"},
    "api/tournaments/<tournament_id>/players/": {"POST": "entries"},
    "tournaments/<int:tournament_id>/": {"GET": "event_pages"},
    "tournaments/<int:tournament_id>/standings": {"GET": "event_pages"},
    "tournaments/<int:tournament_id>/players/<int:number>": {"GET": "event_pages"},
}


def routes(
    patterns: list[URLPattern | URLResolver], prefix: str = "", namespaces: tuple[str, ...] = ()
) -> Iterator[tuple[str, ResolverMatch]]:
    """Every route of the app, with a match as resolving it makes (its view and names)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = (*namespaces, pattern.namespace) if pattern.namespace else namespaces
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        else:
            match = ResolverMatch(
                pattern.callback, (), {}, pattern.name, namespaces=list(namespaces)
            )
            yield prefix + str(pattern.pattern), match


def test_every_limited_view_declares_its_limit():
    found: dict[str, dict[str, str]] = {}
    for route, match in routes(get_resolver().url_patterns):
        for method in METHODS:
            for each in declared(match, method):
                if each.method == method:
                    name = each.name + (" (if)" if each.when is not None else "")
                    found.setdefault(route, {})[method] = name
    assert found == EXPECTED
