"""Admin for the ledger: read-mostly views of games, hands and their history.

Scores are never edited here: every change to a game goes through the ledger services (the
table screen), which recompute with the engine and keep the history.
"""

from __future__ import annotations

from django.contrib import admin

from scoring.models import Hanchan, HandEntry, LedgerChange, OnlineGame, RulesetVersion, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "member", "final_score", "rank", "points", "chips", "uma_ep")
    readonly_fields = fields


class HandEntryInline(admin.TabularInline):
    model = HandEntry
    extra = 0
    can_delete = False
    fields = ("sequence", "data", "result", "entered_by", "entered_at")
    readonly_fields = fields


@admin.register(Hanchan)
class HanchanAdmin(admin.ModelAdmin):
    list_display = ("pk", "played_on", "ruleset_version", "table_name", "status", "ended_by")
    list_filter = ("status", "ruleset_version__ruleset_id", "played_on")
    date_hierarchy = "played_on"
    search_fields = ("seats__member__display_name", "venue", "table_name")
    readonly_fields = (
        "ruleset_version",
        "overrides",
        "status",
        "version",
        "state",
        "ended_by",
        "created_by",
        "created_at",
        "finished_at",
    )
    inlines = [SeatInline, HandEntryInline]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(RulesetVersion)
class RulesetVersionAdmin(admin.ModelAdmin):
    list_display = ("ruleset_id", "version", "name", "created_at")
    readonly_fields = ("ruleset_id", "version", "name", "parameters", "created_at")


@admin.register(LedgerChange)
class LedgerChangeAdmin(admin.ModelAdmin):
    list_display = ("hanchan", "action", "sequence", "by", "at")
    list_filter = ("action",)
    readonly_fields = ("hanchan", "action", "sequence", "before", "after", "by", "at")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(OnlineGame)
class OnlineGameAdmin(admin.ModelAdmin):
    """Where imported online games came from; the game itself changes only at the table."""

    list_display = ("log_id", "service", "hanchan", "lobby", "imported_by", "imported_at")
    list_filter = ("service", "log_format")
    search_fields = ("log_id",)
    readonly_fields = (
        "hanchan",
        "service",
        "log_format",
        "log_id",
        "lobby",
        "rule_label",
        "replay_url",
        "imported_by",
        "imported_at",
    )

    def has_add_permission(self, request: object) -> bool:
        return False
