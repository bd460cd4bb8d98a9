from django.contrib import admin

from scorekeeper.models import Game, Player, Seat, Turn


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["order", "player", "score", "rack_count", "adjustment", "final_score"]
    readonly_fields = fields
    can_delete = False


class TurnInline(admin.TabularInline):
    model = Turn
    extra = 0
    fields = ["number", "seat", "action", "notation", "score", "result", "undone_at", "undone_by"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "ruleset",
        "lexicon",
        "challenge_mode",
        "status",
        "turn_number",
        "created_at",
    ]
    list_filter = ["ruleset", "status", "challenge_mode", "lexicon"]
    search_fields = ["id", "seats__player__name"]
    readonly_fields = ["id", "token", "lexicon_checksum", "created_at", "updated_at", "finished_at"]
    inlines = [SeatInline, TurnInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "player", "order", "score", "final_score"]
    list_select_related = ["game", "player"]
    search_fields = ["player__name"]


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "action", "notation", "score", "result", "undone_at"]
    list_filter = ["action", "result"]
    list_select_related = ["game"]
