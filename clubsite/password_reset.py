"""Password reset requests (issue 19, item 8): throttled in the request, mailed by a task.

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
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import EmailMessage
from django.http import HttpResponse, HttpResponseRedirect
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

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


@task
def send_password_reset_emails(email: str, language: str) -> int:
    """Mail a reset link, in ``language``, to each login that may reset its password by
    ``email`` (Django's rule, :meth:`PasswordResetForm.get_users`: active, with a usable
    password, the same address whatever its case); none when the club has no such login.
    The links start with ``CLUB_SITE_URL``: a worker has no request to take the host from.
    Returns the number of e-mails sent."""
    site = urlsplit(settings.CLUB_SITE_URL)
    user_model = get_user_model()
    email_field = user_model.get_email_field_name()
    messages = []
    with translation.override(language):
        for user in PasswordResetForm().get_users(email):
            primary_key = user_model._meta.pk.value_to_string(user)
            context = {
                "email": getattr(user, email_field),
                "user": user,
                "uid": urlsafe_base64_encode(force_bytes(primary_key)),
                "token": default_token_generator.make_token(user),
                "protocol": site.scheme,
                # The template puts the page's path after the domain: a path of CLUB_SITE_URL's
                # own (a site served under /club/) stays in front of it.
                "domain": site.netloc + site.path.rstrip("/"),
                "site_name": site.netloc,
            }
            subject = "".join(render_to_string(SUBJECT_TEMPLATE, context).splitlines())
            body = render_to_string(BODY_TEMPLATE, context)
            messages.append(EmailMessage(subject, body, to=[context["email"]]))
    sent, _failed = send_each(messages, "password reset")
    return sent
