"""Venues are the stewards' to edit here (Django's permissions decide which steward may);
meetups are shown for reference, their state moves only through the meetup pages."""

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from meetings.models import Application, CandidateDate, ChangeRequest, Meetup, Notice, Venue


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["name", "role", "address", "phone"]
    list_filter = ["role"]
    search_fields = ["name", "address"]


class CandidateDateInline(admin.TabularInline):
    model = CandidateDate
    extra = 0
    can_delete = False
    readonly_fields = ["date"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ApplicationInline(admin.TabularInline):
    model = Application
    extra = 0
    can_delete = False
    fields = readonly_fields = ("member", "applied_at", "seated", "confirmed_at", "withdrawn_at")

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Meetup)
class MeetupAdmin(admin.ModelAdmin):
    list_display = ["pk", "date", "venue", "state", "coordinator"]
    list_filter = ["state", "venue"]
    list_select_related = ["venue", "coordinator"]
    search_fields = ["coordinator__display_name", "note"]
    # The state machine lives in meetings/services.py: its fields are not edited here.
    readonly_fields = (
        "coordinator",
        "state",
        "ruleset_id",
        "seats_per_table",
        "tables",
        "date",
        "start_time",
        "hanchans",
    )
    fields = (*readonly_fields, "venue", "note", "report_note")
    inlines = [CandidateDateInline, ApplicationInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Meetup, form: Any, change: bool) -> None:
        # Another venue is a new revision of the meetup's calendar event.
        if change and "venue" in form.changed_data:
            obj.sequence += 1
        super().save_model(request, obj, form, change)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ["created_at", "meetup", "kind", "actor"]
    list_filter = ["kind"]
    readonly_fields = ["meetup", "kind", "actor", "params", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ChangeRequest)
class ChangeRequestAdmin(admin.ModelAdmin):
    list_display = ["created_at", "meetup", "member", "kind", "decision"]
    readonly_fields = [
        "meetup",
        "member",
        "kind",
        "message",
        "created_at",
        "resolved_at",
        "decision",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
