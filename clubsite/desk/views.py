"""The desk's member pages (``/desk/members/...``), for stewards only (403 for anyone else).

Post/redirect/get: an action that succeeds redirects with a message; a refused one shows
the page again with the error (status 200) and has written nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.club_scope import current_club
from clubsite.desk.join import pending_count
from clubsite.desk.members import (
    DeskError,
    MemberForm,
    check_not_shared,
    lockout_lift,
    login_failures,
    member_add,
    member_password_set,
    member_set_active,
    member_update,
    members_matching,
)
from clubsite.desk.welcome import send_welcome_email
from clubsite.models import Member, OnlineName
from clubsite.online_names import OnlineNameForm
from clubsite.permissions import desk_steward


def _statuses() -> list[tuple[str, str]]:
    """The list's filter: ``(value, label)`` in the reader's language."""
    return [("active", _("Active")), ("inactive", _("Deactivated")), ("all", _("All"))]


def _taken_again(form: MemberForm) -> None:
    form.add_error(
        None, _("Another member was just given that name, login name or e-mail address.")
    )


@require_http_methods(["GET"])
def member_list(request: HttpRequest) -> HttpResponse:
    """``/desk/members/?q=<text>&status=active|inactive|all``: the members in reading order,
    each with their login state (deactivated, locked out)."""
    desk_steward(request)
    query = request.GET.get("q", "")
    status = request.GET.get("status", "active")
    statuses = _statuses()
    if status not in dict(statuses):
        status = "active"
    members = list(members_matching(query=query, status=status))
    failures = login_failures([m.user.get_username() for m in members])
    rows = [(m, failures.get(m.user.get_username())) for m in members]
    return render(
        request,
        "members/desk/members.html",
        {
            "rows": rows,
            "query": query.replace("\x00", ""),
            "status": status,
            "status_choices": statuses,
            "pending_applications": pending_count(),
        },
    )


@require_http_methods(["GET", "POST"])
def member_new(request: HttpRequest) -> HttpResponse:
    """``/desk/members/new/``: add a member in one step; the welcome e-mail goes out once the
    member is written."""
    desk_steward(request)
    form = MemberForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            member = member_add(data=form.cleaned_data, language=translation.get_language())
        except IntegrityError:
            _taken_again(form)
        else:
            if form.cleaned_data["login"] is not None:
                text = _(
                    "%(name)s joined the club with their login; an e-mail tells them at %(email)s."
                )
            else:
                text = _("%(name)s was added; the welcome e-mail is on its way to %(email)s.")
            messages.success(
                request, text % {"name": member.display_name, "email": member.user.email}
            )
            return redirect("desk:member_edit", member.pk)
    return render(request, "members/desk/member_new.html", {"form": form})


def _member_page(
    request: HttpRequest,
    member: Member,
    form: MemberForm | None = None,
    name_form: OnlineNameForm | None = None,
    password_form: SetPasswordForm[User] | None = None,
    error: str = "",
) -> HttpResponse:
    username = member.user.get_username()
    form = form or MemberForm(member=member)
    return render(
        request,
        "members/desk/member_edit.html",
        {
            "member": member,
            "form": form,
            # A login of several clubs: its password is the person's (check_not_shared).
            "shared": form.shared and not request.user.is_superuser,
            "name_form": name_form or OnlineNameForm(),
            "password_form": password_form or SetPasswordForm(member.user),
            "names": list(member.online_names.all()),
            "failures": login_failures([username]).get(username),
            "error": error,
        },
    )


def _member(pk: int) -> Member:
    """The club's member ``pk`` (a steward's desk is their club's; another club's member is
    not found here)."""
    return get_object_or_404(
        Member.objects.filter(club=current_club()).select_related("user"), pk=pk
    )


@require_http_methods(["GET", "POST"])
def member_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """``/desk/members/<pk>/``: a member's details, their login state and online names."""
    steward = desk_steward(request)
    member = _member(pk)
    if request.method != "POST":
        return _member_page(request, member)
    form = MemberForm(request.POST, member=member)
    if form.is_valid():
        try:
            member_update(member=member, data=form.cleaned_data, by=steward)
        except DeskError as error:
            form.add_error("steward" if error.code == "own_steward" else None, str(error))
        except IntegrityError:
            _taken_again(form)
        else:
            messages.success(request, _("%(name)s was saved.") % {"name": member.display_name})
            return redirect("desk:member_edit", member.pk)
    # The page shows the member as stored, not the refused values, above the form.
    return _member_page(request, _member(pk), form=form)


@require_POST
def member_active(request: HttpRequest, pk: int) -> HttpResponse:
    """Deactivate (``active=0``) or reactivate (``active=1``) a member's login."""
    steward = desk_steward(request)
    member = _member(pk)
    active = request.POST.get("active") == "1"
    try:
        member_set_active(member=member, active=active, by=steward)
    except DeskError as error:
        return _member_page(request, member, error=str(error))
    if active:
        messages.success(request, _("%(name)s may log in again.") % {"name": member.display_name})
    else:
        messages.success(
            request,
            _("%(name)s is deactivated: they cannot log in; their games stay.")
            % {"name": member.display_name},
        )
    return redirect("desk:member_edit", member.pk)


@require_POST
def member_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    """Lift the login lockout of a member: their failed logins are forgotten."""
    desk_steward(request)
    member = _member(pk)
    lockout_lift(member=member)
    messages.success(
        request,
        _("%(name)s's failed logins are cleared: they may log in now.")
        % {"name": member.display_name},
    )
    return redirect("desk:member_edit", member.pk)


@require_POST
def member_welcome(request: HttpRequest, pk: int) -> HttpResponse:
    """Send the welcome e-mail with a new set-password link again (an expired link, a
    member who forgot before choosing a password)."""
    steward = desk_steward(request)
    member = _member(pk)
    try:
        # The link sets a new password: the person's own in every club of a shared login.
        check_not_shared(member, steward)
    except DeskError as error:
        return _member_page(request, member, error=str(error))
    if not member.user.email or not (member.active and member.user.is_active):
        return _member_page(
            request,
            member,
            error=_("A link goes only to an active member with an e-mail address."),
        )
    send_welcome_email.enqueue(member.pk, translation.get_language(), club_id=member.club_id)
    messages.success(
        request,
        _("A link to choose a password is on its way to %(email)s.") % {"email": member.user.email},
    )
    return redirect("desk:member_edit", member.pk)


@require_POST
def member_password(request: HttpRequest, pk: int) -> HttpResponse:
    """Set a member's password (Django's password rules), for a member without an e-mail
    address; the steward tells them in person."""
    steward = desk_steward(request)
    member = _member(pk)
    form = SetPasswordForm(member.user, request.POST)
    if not form.is_valid():
        return _member_page(request, member, password_form=form)
    try:
        member_password_set(member=member, password=form.cleaned_data["new_password1"], by=steward)
    except DeskError as error:
        return _member_page(request, member, error=str(error))
    messages.success(
        request,
        _("%(name)s has a new password: tell them in person.") % {"name": member.display_name},
    )
    return redirect("desk:member_edit", member.pk)


@require_POST
def member_online_name_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Give a member an online name (the form of ``/members/online-names/``)."""
    desk_steward(request)
    member = _member(pk)
    name_form = OnlineNameForm(request.POST)
    if name_form.is_valid():
        try:
            with transaction.atomic():
                OnlineName.objects.create(
                    member=member,
                    service=name_form.cleaned_data["service"],
                    name=name_form.cleaned_data["name"],
                )
        except IntegrityError:
            name_form.add_error(None, _("That online name was just claimed by another member."))
        else:
            messages.success(request, _("Online name added."))
            return redirect("desk:member_edit", member.pk)
    return _member_page(request, member, name_form=name_form)


@require_POST
def member_online_name_delete(request: HttpRequest, pk: int, name_pk: int) -> HttpResponse:
    """Remove one of a member's online names (404 for a name that is not theirs)."""
    desk_steward(request)
    member = _member(pk)
    get_object_or_404(OnlineName, pk=name_pk, member=member).delete()
    messages.success(request, _("Online name removed."))
    return redirect("desk:member_edit", member.pk)
