"""The admin's club pages, and the admin in the reader's language: the
site's title, and names the installed packages leave in English (the task queue's app and its
two computed columns; axes' models and fields are translated in the site's catalogue).

Members are added and kept at the steward's desk (``/desk/members/``, clubsite/desk/); the
admin's member pages stay for what the desk does not do (a superuser's odd jobs)."""

from typing import Any

from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission, User
from django.core.exceptions import ValidationError
from django.db.models import Field, ManyToManyField
from django.forms import Field as FormField
from django.forms import ModelMultipleChoiceField
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from clubsite.members import login_flags_sync, member_profile_create
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


class MemberAdminForm(forms.ModelForm[Member]):
    """The admin's member form: a login joins the club of the work in hand once (the
    ``member_once_in_club`` key leads with the club, which the form does not show, so Django
    does not check it)."""

    class Meta:
        model = Member
        fields = "__all__"

    def clean_user(self) -> Any:
        user = self.cleaned_data["user"]
        # A new membership's club is the default's, the club of the work in hand.
        others = Member.objects.filter(club=self.instance.club, user=user)
        others = others.exclude(pk=self.instance.pk)
        if others.exists():
            raise ValidationError(
                _("This login is a member of the club already."), code="member_once_in_club"
            )
        return user


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    form = MemberAdminForm
    inlines = [OnlineNameInline]
    list_display = ["display_name", "furigana", "login", "steward", "active", "women_division"]
    list_filter = ["role", "active", "women_division"]
    list_select_related = ["user"]
    search_fields = ["display_name", "furigana", "user__username"]
    autocomplete_fields = ["user"]

    @admin.display(description=_("Login name"), ordering="user__username")
    def login(self, member: Member) -> str:
        return member.user.get_username()

    @admin.display(description=_("Steward"), boolean=True, ordering="role")
    def steward(self, member: Member) -> bool:
        return member.role == Member.Role.STEWARD

    def formfield_for_dbfield(
        self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> FormField | None:
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "user" and formfield is not None:
            formfield.label = _("Login")
        return formfield

    def save_model(self, request: HttpRequest, obj: Member, form: Any, change: bool) -> None:
        """A new membership (for a login made on the user page) is written by the one
        member-creation service, as the desk's members are; a change is saved as usual. The
        logins' flags then follow their memberships (``clubsite.members.login_flags_sync``):
        the one now saved, and the one it was moved from."""
        if change:
            before = Member.objects.filter(pk=obj.pk).values_list("user_id", flat=True).first()
            super().save_model(request, obj, form, change)
            login_flags_sync(obj.user)
            if before is not None and before != obj.user_id:
                login_flags_sync(User.objects.get(pk=before))
            return
        created = member_profile_create(
            user=obj.user,
            display_name=obj.display_name,
            furigana=obj.furigana,
            phone=obj.phone,
            women_division=obj.women_division,
            role=obj.role,
        )
        if not obj.active:
            created.active = False
            created.save(update_fields=["active"])
            login_flags_sync(obj.user)
        # The admin goes on with this object: its online names' inline and its log entry.
        obj.pk = created.pk
        obj.refresh_from_db()


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


# Django stores a permission's name in English ("Can add member") when it migrates; the admin's
# user and group pages name them again in the reader's language from the codename's action.
_PERMISSION_ACTIONS = {
    "add": _("Can add %(model)s"),
    "change": _("Can change %(model)s"),
    "delete": _("Can delete %(model)s"),
    "view": _("Can view %(model)s"),
}


def permission_label(permission: Permission) -> str:
    """``"<app> | <model> | <what it allows>"`` in the reader's language, for Django's four
    default permissions; another permission keeps its stored name."""
    content_type = permission.content_type
    model = content_type.model_class()
    action = permission.codename.split("_", 1)[0]
    if model is None or permission.codename != f"{action}_{model._meta.model_name}":
        return str(permission)
    allows = _PERMISSION_ACTIONS.get(action)
    what = str(allows) % {"model": model._meta.verbose_name} if allows else permission.name
    return f"{model._meta.app_config.verbose_name} | {model._meta.verbose_name} | {what}"


def _related_model(formfield: ModelMultipleChoiceField[Any]) -> Any:
    queryset = formfield.queryset
    return queryset.model if queryset is not None else None


def _labelled(formfield: ModelMultipleChoiceField[Any] | None) -> Any:
    """The permissions' choices of a user or group page, labelled by
    :func:`permission_label`; any other field as it is."""
    if formfield is not None and _related_model(formfield) is Permission:
        formfield.label_from_instance = permission_label  # type: ignore[method-assign,assignment]
    return formfield


admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class ClubUserAdmin(UserAdmin[User]):
    """Django's user pages, the permissions named in the reader's language."""

    def formfield_for_manytomany(
        self, db_field: ManyToManyField[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> ModelMultipleChoiceField[Any] | None:
        field: ModelMultipleChoiceField[Any] | None = _labelled(
            super().formfield_for_manytomany(db_field, request, **kwargs)
        )
        return field


@admin.register(Group)
class ClubGroupAdmin(GroupAdmin):
    """Django's group pages, the permissions named in the reader's language."""

    def formfield_for_manytomany(
        self, db_field: ManyToManyField[Any, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> ModelMultipleChoiceField[Any] | None:
        field: ModelMultipleChoiceField[Any] | None = _labelled(
            super().formfield_for_manytomany(db_field, request, **kwargs)
        )
        return field
