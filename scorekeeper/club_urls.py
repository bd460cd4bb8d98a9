from django.contrib.auth import views as auth_views
from django.urls import path

from scorekeeper import clubs, invitations

urlpatterns = [
    # Sign-in is rate limited by scorekeeper.middleware (settings.LOGIN_PATH is this path).
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/new", clubs.new_club, name="new_club"),
    path("clubs/invitations", invitations.invitation_list, name="club_invitations"),
    path("clubs/invitations/<int:number>", invitations.answer, name="club_invitation"),
    path("clubs/<slug:slug>/", clubs.club_page, name="club"),
    path("clubs/<slug:slug>/roster", clubs.roster, name="club_roster"),
    path("games/<uuid:game_id>/void", clubs.void_game, name="void_game"),
]
