"""The admin reads; the domain writes.

Games, seats and turns are shown read-only: nobody, superusers included, can edit a score,
a board or a status here. A correction staff make is an admin action that calls the domain,
like every other entry point, and is logged as a turn entered by "admin: <username>".
Players (a name, a linked account) and clubs (directors, roster) are not game state and stay
editable: staff link a player to an account directly here, without the invitation a club
director sends.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeper.games import domain
from scorekeeper.games.turn_kinds import describe
from scorekeeper.http.refusals import REFUSALS, message_of
from scorekeeper.models import Club, Game, Invitation, Player, Seat, Turn


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    """Invitations waiting for an answer. Staff link a player to an account directly, on the
    player's page; here they see who is invited and may delete an invitation."""

    list_display = ["username", "player", "club", "invited_by", "created_at"]
    list_select_related = ["player", "club", "invited_by"]
    search_fields = ["username", "player__name", "club__name"]
    readonly_fields = ["club", "player", "username", "invited_by", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors", "roster"]


class ReadOnly:
    """The record as it is: viewable by staff, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnly, admin.TabularInline[Seat, Game]):
    model = Seat
    extra = 0
    readonly_fields = fields = (
        "order", "player", "score", "rack_count", "adjustment", "final_score", "result",
    )  # fmt: skip


class TurnInline(ReadOnly, admin.TabularInline[Turn, Game]):
    model = Turn
    extra = 0
    readonly_fields = fields = (
        "number", "seat", "action", "notation", "score", "result", "undone_at", "undone_by",
    )  # fmt: skip
    show_change_link = True


def _through_domain(
    modeladmin: admin.ModelAdmin[Game],
    request: HttpRequest,
    games: QuerySet[Game],
    action: str,
) -> None:
    who = f"admin: {request.user.get_username()}"
    for game in games:
        try:
            applied = domain.act(game.pk, domain.TurnCommand(action, by=who))
        except REFUSALS as error:
            modeladmin.message_user(request, f"{game}: {message_of(error)}", messages.ERROR)
        else:
            modeladmin.message_user(request, f"{game}: {describe(applied.turn)}", messages.SUCCESS)


@admin.register(Game)
class GameAdmin(ReadOnly, admin.ModelAdmin[Game]):
    """Games as they are, and two corrections through the domain for staff who may change
    games (Django's "change game" permission); staff who may only view them see no action."""

    list_display = [
        "id",
        "ruleset",
        "lexicon",
        "challenge_mode",
        "status",
        "club",
        "last_entry_number",
        "created_at",
    ]
    list_filter = ["ruleset", "status", "challenge_mode", "lexicon", "club"]
    search_fields = ["id", "seats__player__name"]
    exclude = ["token"]  # the scorer's secret is not shown even to staff
    inlines = [SeatInline, TurnInline]
    actions = ["undo_last_turn", "finish_now"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Django asks with no game for "may this account change games at all": the actions
        # are offered, and run, only on that answer (the model's change permission). Asked of
        # one game it is always no, so every game's page stays read-only and refuses a POST.
        if obj is not None:
            return False
        return admin.ModelAdmin.has_change_permission(self, request)

    @admin.action(description="Undo the last turn (logged, like an undo at the table)",
                  permissions=["change"])  # fmt: skip
    def undo_last_turn(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        _through_domain(self, request, queryset, "undo")

    @admin.action(description="Finish the game now (Upwords: the rack penalties apply)",
                  permissions=["change"])  # fmt: skip
    def finish_now(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        _through_domain(self, request, queryset, "finish")


@admin.register(Seat)
class SeatAdmin(ReadOnly, admin.ModelAdmin[Seat]):
    list_display = ["game", "player", "order", "score", "final_score", "result"]
    list_select_related = ["game", "player"]
    search_fields = ["player__name"]


@admin.register(Turn)
class TurnAdmin(ReadOnly, admin.ModelAdmin[Turn]):
    list_display = ["game", "number", "action", "notation", "score", "result", "undone_at"]
    list_filter = ["action", "result"]
    list_select_related = ["game"]
