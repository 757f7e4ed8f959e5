"""The desk's join applications (``/desk/applications/``), for stewards only (403 for anyone
else): the club's pending applications, each with accept and decline, and the latest decided.

Accept and decline are one POST each (CSRF as every form); with htmx the answer is the
application's row in its new state, in place; without, a redirect to the list with a message.
A second tap on a decided application changes nothing and says who decided it
(:class:`clubsite.desk.join.AlreadyDecided`).
"""

from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.desk.join import (
    AlreadyDecided,
    applications_listed,
    join_accept,
    join_decline,
)
from clubsite.htmx import wants_fragment
from clubsite.models import JoinApplication, Member
from clubsite.permissions import desk_steward

LIST_TEMPLATE = "members/desk/applications.html"
ROW_TEMPLATE = "members/desk/_application.html"


@require_http_methods(["GET"])
def application_list(request: HttpRequest) -> HttpResponse:
    """``/desk/applications/``: pending applications, oldest first, then the latest decided."""
    desk_steward(request)
    return render(request, LIST_TEMPLATE, applications_listed())


def _answer(
    request: HttpRequest, application: JoinApplication, note: str, ok: bool
) -> HttpResponse:
    """The row alone for htmx (with ``note`` in it), else back to the list with ``note``."""
    if wants_fragment(request):
        return render(request, ROW_TEMPLATE, {"application": application, "note": note, "ok": ok})
    (messages.success if ok else messages.warning)(request, note)
    return redirect("desk:applications")


def _decided_note(application: JoinApplication) -> str:
    by = application.decided_by.display_name if application.decided_by else _("a steward")
    if application.status == JoinApplication.Status.ACCEPTED:
        return _("%(name)s was already accepted by %(by)s.") % {"name": application.name, "by": by}
    return _("%(name)s was already declined by %(by)s.") % {"name": application.name, "by": by}


@require_POST
def application_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept application ``pk``: the applicant becomes a member (a new login, or their login
    joins the club) and is sent the welcome e-mail."""
    steward = desk_steward(request)
    application = get_object_or_404(JoinApplication, pk=pk)
    try:
        accepted = join_accept(application_id=pk, by=Member.for_user(steward))
    except AlreadyDecided as decided:
        return _answer(request, decided.application, _decided_note(decided.application), False)
    except IntegrityError:
        # A login or name taken between the checks and the write: nothing was written.
        note = _("%(name)s could not be added just now: try again.") % {"name": application.name}
        return _answer(request, application, note, False)
    application.refresh_from_db()
    if not accepted.joined:
        note = _("%(name)s is a member already.") % {"name": accepted.member.display_name}
    elif accepted.new_login:
        note = _(
            "%(name)s is a member now (login name %(login)s); the welcome e-mail is on its way."
        ) % {"name": accepted.member.display_name, "login": accepted.member.user.get_username()}
    else:
        note = _(
            "%(name)s joined the club with the login they have; the welcome e-mail is on its way."
        ) % {"name": accepted.member.display_name}
    return _answer(request, application, note, True)


@require_POST
def application_decline(request: HttpRequest, pk: int) -> HttpResponse:
    """Decline application ``pk``: recorded; no e-mail goes to the applicant."""
    steward = desk_steward(request)
    application = get_object_or_404(JoinApplication, pk=pk)
    try:
        application = join_decline(application_id=pk, by=Member.for_user(steward))
    except AlreadyDecided as decided:
        return _answer(request, decided.application, _decided_note(decided.application), False)
    note = _("The application of %(name)s was declined; no e-mail was sent.") % {
        "name": application.name
    }
    return _answer(request, application, note, True)
