"""Password reset requests: throttled in the request, mailed by a task.

At most ``CLUB_PASSWORD_RESET_ACCOUNT_LIMIT`` reset e-mails an hour go to one e-mail address,
and at most ``CLUB_PASSWORD_RESET_ADDRESS_LIMIT`` are asked for from one client address (as
:func:`clubsite.accounts.client_address` gives it). A request beyond either gets the same
answer as any other ("if the club has that address, a link is on its way") and no e-mail, so
the page neither floods a member's inbox nor tells which addresses the club has.

A request within the limits enqueues :func:`send_password_reset_emails` whether the club has
the address or not; the task looks the address up and mails the links. With the worker's
queue (``CLUB_TASKS_BACKEND=database``, docs/tasks.md) the request does the same work for a
known and an unknown address, so its answer takes the same time for both.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.core.mail import EmailMessage
from django.http import HttpResponse, HttpResponseRedirect
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import timezone, translation

from clubsite.accounts import client_address
from clubsite.mail import send_each
from clubsite.models import PasswordResetRequest

logger = logging.getLogger("clubsite.accounts")

RESET_WINDOW = datetime.timedelta(hours=1)

# The e-mail's templates; their names are the site's own because the admin's pages use Django's.
SUBJECT_TEMPLATE = "registration/reset_subject.txt"
BODY_TEMPLATE = "registration/reset_email.txt"


def password_reset_allowed(*, email: str, address: str | None) -> bool:
    """Whether a reset e-mail may go to ``email``, asked for from ``address``; one that may
    is counted (whether or not the club has the address). Requests older than the window
    are forgotten here."""
    now = timezone.now()
    PasswordResetRequest.objects.filter(requested_at__lt=now - RESET_WINDOW).delete()
    recent = PasswordResetRequest.objects.filter(requested_at__gte=now - RESET_WINDOW)
    email = email.lower()
    if recent.filter(email=email).count() >= settings.CLUB_PASSWORD_RESET_ACCOUNT_LIMIT:
        return False
    if (
        address is not None
        and recent.filter(address=address).count() >= settings.CLUB_PASSWORD_RESET_ADDRESS_LIMIT
    ):
        return False
    PasswordResetRequest.objects.create(email=email, address=address, requested_at=now)
    return True


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request page: within the limits above, the e-mails are left to the task,
    whatever the address; the answer is the same in every case."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        address = client_address(self.request)
        if password_reset_allowed(email=email, address=address):
            send_password_reset_emails.enqueue(email, translation.get_language())
        else:
            logger.warning("password reset from %s not sent: too many requests", address)
        return HttpResponseRedirect(self.get_success_url())


class _CollectedResetMails(PasswordResetForm):
    """Django's reset form, whose :meth:`save` builds each e-mail (uid, token, link) and
    hands it here instead of sending it: :func:`send_each` sends them, counting.

    An address the club does not have gets the same work: a stand-in login
    with that address, never saved, whose e-mail is built (token, link, both templates) and
    dropped, so that where the task runs in the request (``CLUB_TASKS_BACKEND=immediate``)
    only the sending itself differs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.messages: list[EmailMessage] = []
        self.stand_in = False

    def get_users(self, email: str) -> Iterator[Any]:
        users = list(super().get_users(email))
        self.stand_in = not users
        if users:
            return iter(users)
        stand_in = get_user_model()(pk=0, username="-", email=email, is_active=True)
        stand_in.set_unusable_password()
        return iter([stand_in])

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        message = EmailMessage(subject, body, from_email, [to_email])
        if not self.stand_in:
            self.messages.append(message)


@task
def send_password_reset_emails(email: str, language: str) -> int:
    """Mail a reset link, in ``language``, to each login that may reset its password by
    ``email`` (Django's rule, :meth:`PasswordResetForm.get_users`: active, with a usable
    password, the same address whatever its case); none when the club has no such login.
    The links start with ``CLUB_SITE_URL``: a worker has no request to take the host from.
    An unknown address costs the same work but the sending (:class:`_CollectedResetMails`).
    Returns the number of e-mails sent."""
    site = urlsplit(settings.CLUB_SITE_URL)
    form = _CollectedResetMails(data={"email": email})
    if not form.is_valid():  # the view enqueues only what this same form accepted
        return 0
    with translation.override(language):
        form.save(
            # The template puts the page's path after the domain: a path of CLUB_SITE_URL's
            # own (a site served under /club/) stays in front of it.
            domain_override=site.netloc + site.path.rstrip("/"),
            use_https=site.scheme == "https",
            subject_template_name=SUBJECT_TEMPLATE,
            email_template_name=BODY_TEMPLATE,
            extra_email_context={"site_name": site.netloc},
        )
    sent, _failed = send_each(form.messages, "password reset")
    return sent
