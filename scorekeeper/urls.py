"""Every address of the app, grouped by what comes first in it.

``/games/<id>/score/...`` are the scorer's pages (``scorer_paths`` gives each the form with
the secret too); the JSON API is ``/api/``, documented at ``/api/docs``.
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from scorekeeper.api.endpoints import api
from scorekeeper.http.limits import limited
from scorekeeper.web import (
    club_settings,
    clubs,
    director,
    event_directing,
    events,
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
    # /accounts/: sign-in (settings.LOGIN_PATH), its attempts rate limited
    path(
        "accounts/login/",
        limited("logins")(auth_views.LoginView.as_view(redirect_authenticated_user=True)),
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
    path("clubs/<slug:slug>/tournaments/new", event_directing.new_event, name="new_event"),
    # /tournaments/: a club's events
    path("tournaments/<int:tournament_id>/", events.event_page, name="event"),
    path(
        "tournaments/<int:tournament_id>/standings",
        events.standings_part,
        name="event_standings",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:number>",
        events.scorecard,
        name="event_scorecard",
    ),
    path("tournaments/<int:tournament_id>/events", live.event_events, name="event_stream"),
    path("tournaments/<int:tournament_id>/direct", event_directing.direct, name="event_direct"),
    path("tournaments/<int:tournament_id>/pair", event_directing.pair, name="event_pair"),
    path(
        "tournaments/<int:tournament_id>/result",
        event_directing.enter_result,
        name="event_result",
    ),
    path(
        "tournaments/<int:tournament_id>/correct",
        event_directing.correct_result,
        name="event_correct",
    ),
    path(
        "tournaments/<int:tournament_id>/event", event_directing.change_event, name="event_change"
    ),
    path(
        "tournaments/<int:tournament_id>/delete",
        event_directing.delete_event,
        name="event_delete",
    ),
    path("tournaments/<int:tournament_id>/forfeit", event_directing.forfeit, name="event_forfeit"),
    path(
        "tournaments/<int:tournament_id>/withdraw",
        event_directing.withdraw,
        name="event_withdraw",
    ),
    path("tournaments/<int:tournament_id>/add", event_directing.add_players, name="event_add"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>",
        events.round_sheet,
        name="event_round",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/unpair",
        event_directing.unpair,
        name="event_unpair",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/swap",
        event_directing.swap,
        name="event_swap",
    ),
    path(
        "tournaments/<int:tournament_id>/export.t",
        events.export_t,
        name="event_export_t",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.csv",
        events.standings_csv,
        name="event_standings_csv",
    ),
    # /judge/: the word judge (the referee's own page)
    path("", include("referee.urls")),
]
