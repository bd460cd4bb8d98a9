"""Managing a game from the scorer's page (``scorekeeper.managing``)."""

from django.urls import path

from scorekeeper import managing

urlpatterns = [
    path("games/<uuid:game_id>/score/<str:token>/correct", managing.correct, name="correct"),
    path("games/<uuid:game_id>/score/<str:token>/abandon", managing.abandon, name="abandon"),
    path("games/<uuid:game_id>/score/<str:token>/first", managing.first, name="set_first"),
    path("games/<uuid:game_id>/score/<str:token>/hand-over", managing.hand_over, name="hand_over"),
    path("games/<uuid:game_id>/score/<str:token>/qr.svg", managing.scorer_qr, name="scorer_qr"),
    path("games/<uuid:game_id>/watch/qr.svg", managing.watch_qr, name="watch_qr"),
]
