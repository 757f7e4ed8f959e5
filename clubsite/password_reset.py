"""Password reset requests, throttled (issue 19, item 8).

At most ``CLUB_PASSWORD_RESET_ACCOUNT_LIMIT`` reset e-mails an hour go to one e-mail address,
and at most ``CLUB_PASSWORD_RESET_ADDRESS_LIMIT`` are asked for from one client address (as
:func:`clubsite.accounts.client_address` gives it). A request beyond either gets the same
answer as any other ("if the club has that address, a link is on its way") and no e-mail, so
the page neither floods a member's inbox nor tells which addresses the club has.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpResponse, HttpResponseRedirect
from django.utils import timezone

from clubsite.accounts import client_address
from clubsite.models import PasswordResetRequest

logger = logging.getLogger("clubsite.accounts")

RESET_WINDOW = datetime.timedelta(hours=1)


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
    """Django's reset request page, sending the e-mail only within the limits above."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        address = client_address(self.request)
        if password_reset_allowed(email=form.cleaned_data["email"], address=address):
            return super().form_valid(form)
        logger.warning("password reset from %s not sent: too many requests", address)
        return HttpResponseRedirect(self.get_success_url())
