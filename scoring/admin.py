"""Admin for the ledger: views of games, hands and their history, read-only.

Nothing of the ledger is added, edited or deleted here: every change to a game (its hands,
final scores, status, counted version, date) goes through the ledger (``scoring.ledger``,
docs/ledger.md), which recomputes with the engine, keeps the history and the standings'
totals (``CountedSeat``, ``MemberMonth``) in step. A row edited here would leave them
behind; so stewards look, and the pages (the table, the final-score sheet, void) write.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import Hanchan, HandEntry, LedgerChange, OnlineGame, RulesetVersion, Seat


class LedgerViewOnly:
    """The admin's view of a ledger model: no add, change or delete, for anyone (superusers
    too); the change page shows every field as text."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(LedgerViewOnly, admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = ("index", "member", "final_score", "rank", "points", "chips", "uma_ep")
    readonly_fields = fields


class HandEntryInline(LedgerViewOnly, admin.TabularInline):
    model = HandEntry
    extra = 0
    can_delete = False
    fields = ("sequence", "data", "result", "entered_by", "entered_at")
    readonly_fields = fields


@admin.register(Hanchan)
class HanchanAdmin(LedgerViewOnly, admin.ModelAdmin):
    list_display = ("pk", "played_on", "ruleset_version", "table_name", "status", "ended_by")
    list_filter = ("status", "ruleset_version__ruleset_id", "played_on")
    date_hierarchy = "played_on"
    search_fields = ("seats__member__display_name", "venue", "table_name")
    # Every column of a game is the ledger's; the final scores are the seats' (SeatInline).
    fields = readonly_fields = (
        "ruleset_version",
        "overrides",
        "played_on",
        "venue",
        "table_name",
        "status",
        "version",
        "counted_version",
        "final_scores_only",
        "time_called",
        "ended_by",
        "fingerprint",
        "state",
        "created_by",
        "created_at",
        "finished_at",
    )
    inlines = [SeatInline, HandEntryInline]


@admin.register(RulesetVersion)
class RulesetVersionAdmin(LedgerViewOnly, admin.ModelAdmin):
    list_display = ("ruleset_id", "version", "name", "created_at")
    fields = readonly_fields = (
        "ruleset_id",
        "service",
        "version",
        "name",
        "parameters",
        "created_at",
    )


@admin.register(LedgerChange)
class LedgerChangeAdmin(LedgerViewOnly, admin.ModelAdmin):
    list_display = ("hanchan", "action", "sequence", "by", "at")
    list_filter = ("action",)
    fields = readonly_fields = ("hanchan", "action", "sequence", "before", "after", "by", "at")


@admin.register(OnlineGame)
class OnlineGameAdmin(LedgerViewOnly, admin.ModelAdmin):
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
        "active",
    )
    fields = readonly_fields
