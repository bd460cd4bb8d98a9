from django.urls import include, path

from scorekeeper import views
from scorekeeper.api import api
from scorekeeper.scorer_link import scorer_paths

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("api/", api.urls),
    path("games/new", views.new_game, name="new_game"),
    path("games/import", views.import_record, name="import_game"),
    *scorer_paths(
        [
            ("", views.scorer, "scorer"),
            ("preview", views.preview, "preview"),
            ("turn", views.turn, "turn"),
        ]
    ),
    path("games/<uuid:game_id>/watch", views.watch, name="watch"),
    path("games/<uuid:game_id>/watch/live", views.watch_live, name="watch_live"),
    path("", include("scorekeeper.managing_urls")),
    path("", include("scorekeeper.history_urls")),
    path("", include("scorekeeper.club_urls")),
    path("", include("referee.urls")),
]
