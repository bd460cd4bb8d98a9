from django.urls import path

from scorekeeper import history

urlpatterns = [
    path("games/", history.game_list, name="game_list"),
    path("games/<uuid:game_id>/", history.game_page, name="game"),
    path("games/<uuid:game_id>/log", history.game_log, name="game_log"),
    path("games/<uuid:game_id>/export.json", history.export_json, name="export_json"),
    path("games/<uuid:game_id>/export.gcg", history.export_gcg, name="export_gcg"),
    path("rankings/", history.rankings, name="rankings"),
    path("players/<int:player_id>/", history.player_page, name="player"),
]
