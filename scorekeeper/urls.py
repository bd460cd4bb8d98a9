"""Every address of the app, grouped by what comes first in it.

``/games/<id>/score/...`` are the scorer's pages (``scorer_paths`` gives each the form with
the secret too); the JSON API is ``/api/``, documented at ``/api/docs``.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorekeeper.api.endpoints import api
from scorekeeper.web import (
    club_settings,
    clubs,
    director,
    history,
    invitations,
    live,
    managing,
    offline,
    ops,
    photos,
    rankings,
    records,
    table,
    tournaments,
)
from scorekeeper.web.scorer_link import scorer_paths

urlpatterns = [
    path("", table.home, name="home"),
    # For whoever runs the server
    path("healthz", ops.healthz, name="healthz"),
    path("ping", ops.ping, name="ping"),
    # The scorer page's service worker: at the top, so its scope can be the whole site
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.web_manifest, name="web_manifest"),
    # /api/
    path("api/", api.urls),
    # /games/: starting, importing, the list
    path("games/", history.game_list, name="game_list"),
    path("games/new", table.new_game, name="new_game"),
    path("games/import", records.import_record, name="import_game"),
    # /games/<id>/score/...: the scorer's pages (the secret in a cookie, or in the address)
    *scorer_paths(
        [
            ("", table.scorer, "scorer"),
            ("preview", table.preview, "preview"),
            ("turn", table.turn, "turn"),
            ("correct", managing.correct, "correct"),
            ("correct-preview", managing.correct_preview, "correct_preview"),
            ("abandon", managing.abandon, "abandon"),
            ("first", managing.first, "set_first"),
            ("hand-over", managing.hand_over, "hand_over"),
            ("new-link", managing.new_link, "new_link"),
            ("qr.svg", managing.scorer_qr, "scorer_qr"),
            ("photo", photos.photo, "photo"),
        ]
    ),
    # /games/<id>/...: public pages of one game
    path("games/<uuid:game_id>/", history.game_page, name="game"),
    path("games/<uuid:game_id>/log", history.game_log, name="game_log"),
    path("games/<uuid:game_id>/export.json", records.export_json, name="export_json"),
    path("games/<uuid:game_id>/export.gcg", records.export_gcg, name="export_gcg"),
    path("games/<uuid:game_id>/watch", table.watch, name="watch"),
    path("games/<uuid:game_id>/watch/live", table.watch_live, name="watch_live"),
    path("games/<uuid:game_id>/events", live.game_events, name="game_events"),
    path("games/<uuid:game_id>/watch/qr.svg", managing.watch_qr, name="watch_qr"),
    path("games/<uuid:game_id>/void", clubs.void_game, name="void_game"),
    # /rankings/, /players/
    path("rankings/", rankings.rankings, name="rankings"),
    path("players/<int:player_id>/", rankings.player_page, name="player"),
    # /accounts/: sign-in (rate limited by scorekeeper.http.middleware: settings.LOGIN_PATH)
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # /clubs/
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/new", clubs.new_club, name="new_club"),
    path("clubs/invitations", invitations.invitation_list, name="club_invitations"),
    path("clubs/invitations/<int:number>", invitations.answer, name="club_invitation"),
    path(
        "clubs/invitations/direct/<int:number>",
        invitations.answer_director,
        name="director_invitation",
    ),
    path("clubs/<slug:slug>/", clubs.club_page, name="club"),
    path("clubs/<slug:slug>/roster", clubs.roster, name="club_roster"),
    path("clubs/<slug:slug>/settings", club_settings.settings_page, name="club_settings"),
    path("clubs/<slug:slug>/settings/name", club_settings.rename_club, name="club_rename"),
    path("clubs/<slug:slug>/settings/rules", club_settings.club_rules, name="club_rules"),
    path(
        "clubs/<slug:slug>/settings/player-name",
        club_settings.rename_player,
        name="club_rename_player",
    ),
    path("clubs/<slug:slug>/settings/directors", club_settings.directors, name="club_directors"),
    path("clubs/<slug:slug>/live", director.live, name="club_live"),
    path("clubs/<slug:slug>/live/tables", director.live_part, name="club_live_part"),
    path("clubs/<slug:slug>/live/projector", director.projector, name="club_projector"),
    path(
        "clubs/<slug:slug>/live/projector/tables",
        director.projector_part,
        name="club_projector_part",
    ),
    path("clubs/<slug:slug>/events", live.club_events, name="club_events"),
    path("clubs/<slug:slug>/tournaments/new", tournaments.new_tournament, name="new_tournament"),
    # /tournaments/: a club's events
    path("tournaments/<int:tournament_id>/", tournaments.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/standings",
        tournaments.standings_part,
        name="tournament_standings",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:number>",
        tournaments.scorecard,
        name="tournament_scorecard",
    ),
    path("tournaments/<int:tournament_id>/events", live.event_events, name="tournament_events"),
    path("tournaments/<int:tournament_id>/direct", tournaments.direct, name="tournament_direct"),
    path("tournaments/<int:tournament_id>/pair", tournaments.pair, name="tournament_pair"),
    path(
        "tournaments/<int:tournament_id>/result",
        tournaments.enter_result,
        name="tournament_result",
    ),
    path(
        "tournaments/<int:tournament_id>/correct",
        tournaments.correct_result,
        name="tournament_correct",
    ),
    path(
        "tournaments/<int:tournament_id>/event", tournaments.change_event, name="tournament_event"
    ),
    path(
        "tournaments/<int:tournament_id>/delete",
        tournaments.delete_event,
        name="tournament_delete",
    ),
    path("tournaments/<int:tournament_id>/forfeit", tournaments.forfeit, name="tournament_forfeit"),
    path(
        "tournaments/<int:tournament_id>/withdraw",
        tournaments.withdraw,
        name="tournament_withdraw",
    ),
    path("tournaments/<int:tournament_id>/add", tournaments.add_players, name="tournament_add"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>",
        tournaments.round_sheet,
        name="tournament_round",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/unpair",
        tournaments.unpair,
        name="tournament_unpair",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/swap",
        tournaments.swap,
        name="tournament_swap",
    ),
    path(
        "tournaments/<int:tournament_id>/export.t",
        tournaments.export_t,
        name="tournament_export_t",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.csv",
        tournaments.standings_csv,
        name="tournament_standings_csv",
    ),
    # /judge/: the word judge (the referee's own page)
    path("", include("referee.urls")),
]
