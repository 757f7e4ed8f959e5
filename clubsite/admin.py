"""The admin's club pages, and the admin in the reader's language (issue 25, item 5): the
site's title, and names the installed packages leave in English (the task queue's app and its
two computed columns; axes' models and fields are translated in the site's catalogue).

Members are added and kept at the steward's desk (``/desk/members/``, clubsite/desk/); the
admin's member pages stay for what the desk does not do (a superuser's odd jobs)."""

from typing import Any

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django.apps import apps
from django.contrib import admin
from django.db.models import Field
from django.forms import Field as FormField
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from clubsite.models import Member, OnlineName

admin.site.site_header = _("Mahjong club: admin")
admin.site.site_title = _("Mahjong club: admin")

# Plain strings in the packages' AppConfig, which no catalogue can translate.
apps.get_app_config("django_tasks_database").verbose_name = _("Background tasks")
apps.get_app_config("axes").verbose_name = _("Login attempts")


class OnlineNameInline(admin.TabularInline):
    """The member's names on online services, by which imported games find them."""

    model = OnlineName
    extra = 1


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    inlines = [OnlineNameInline]
    list_display = ["display_name", "furigana", "login", "steward", "women_division"]
    list_filter = ["user__is_staff", "women_division"]
    list_select_related = ["user"]
    search_fields = ["display_name", "furigana", "user__username"]
    autocomplete_fields = ["user"]

    @admin.display(description=_("Login name"), ordering="user__username")
    def login(self, member: Member) -> str:
        return member.user.get_username()

    @admin.display(description=_("Steward"), boolean=True, ordering="user__is_staff")
    def steward(self, member: Member) -> bool:
        return member.user.is_staff

    def formfield_for_dbfield(
        self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> FormField | None:
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "user" and formfield is not None:
            formfield.label = _("Login")
        return formfield


admin.site.unregister(DBTaskResult)


@admin.register(DBTaskResult)
class TaskResultAdmin(DBTaskResultAdmin):
    """django-tasks-db's read-only task list, its computed columns named in the reader's
    language (the package names them in English only)."""

    list_display = (
        "task_id",
        "task",
        "status",
        "enqueued_at",
        "started_at",
        "finished_at",
        "priority",
        "queue_name",
    )

    def get_readonly_fields(self, request: HttpRequest, obj: DBTaskResult | None = None) -> Any:
        fields = list(super().get_readonly_fields(request, obj))
        return ["task_id" if name == "id" else name for name in fields]

    @admin.display(description=_("task id"))
    def task_id(self, obj: DBTaskResult) -> str:
        return str(obj.id)

    @admin.display(description=_("task"))
    def task(self, obj: DBTaskResult) -> str:
        return obj.task_name

    @admin.display(description=_("traceback"))
    def formatted_traceback(self, obj: DBTaskResult) -> str:
        return super().formatted_traceback(obj)

    @admin.display(description=_("run after"))
    def display_run_after(self, obj: DBTaskResult) -> Any:
        return super().display_run_after(obj)


if admin.site.is_registered(AccessAttempt):  # AXES_ENABLE_ADMIN
    admin.site.unregister(AccessAttempt)

    @admin.register(AccessAttempt)
    class LoginAttemptAdmin(AccessAttemptAdmin):
        """axes' list of failed logins, its status column named in the reader's language.
        Stewards lift a member's lockout at the desk (``/desk/members/<pk>/``)."""

        @admin.display(description=_("status"))
        def status(self, obj: AccessAttempt) -> Any:
            return super().status(obj)

        @admin.display(description=_("Expires At"))
        def expiration(self, obj: AccessAttempt) -> Any:
            return super().expiration(obj)
