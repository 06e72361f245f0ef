from django.contrib import admin

from tournament import models


@admin.register(models.Workshop)
class WorkshopAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "phase", "facilitator", "created_at"]
    list_filter = ["phase", "mode"]
    search_fields = ["name", "code"]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["workshop", "number", "preset", "version"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "workshop",
        "table",
        "seat",
        "home_table",
        "is_bot",
        "has_left",
        "connected",
    ]
    list_filter = ["is_bot", "has_left"]
    search_fields = ["name"]
    exclude = ["token"]


@admin.register(models.Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["workshop", "number", "kind", "scored_number", "state", "deadline"]


@admin.register(models.Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["table", "round", "number", "state", "seq"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Logs are append-only: the admin shows them and changes nothing."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


for model in (
    models.Action,
    models.TrickRecord,
    models.Dispute,
    models.Claim,
    models.Gesture,
    models.Movement,
    models.Seating,
):
    admin.site.register(model, ReadOnlyAdmin)
