"""Managing a game from the scorer's page (``scorekeeper.managing``)."""

from django.urls import path

from scorekeeper import managing
from scorekeeper.scorer_link import scorer_paths

urlpatterns = [
    *scorer_paths(
        [
            ("correct", managing.correct, "correct"),
            ("correct-preview", managing.correct_preview, "correct_preview"),
            ("abandon", managing.abandon, "abandon"),
            ("first", managing.first, "set_first"),
            ("hand-over", managing.hand_over, "hand_over"),
            ("new-link", managing.new_link, "new_link"),
            ("qr.svg", managing.scorer_qr, "scorer_qr"),
        ]
    ),
    path("games/<uuid:game_id>/watch/qr.svg", managing.watch_qr, name="watch_qr"),
]
