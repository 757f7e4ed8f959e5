"""Logins: what django-axes is told about this site, and the end of a password reset.

- :func:`client_address` is the address failures are counted against: the connecting one, or,
  behind the reverse proxy of README "Deploying", the one that proxy added to
  ``X-Forwarded-For`` (the last entry: a client can only prepend made-up ones).
- :func:`lockout_response` is the page a locked-out login gets (HTTP 429), saying how long
  to wait.
- :class:`PasswordResetConfirmView` lifts the lockouts of a member who has just chosen a new
  password through the link mailed to them: they proved they own the address on file.
"""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_address(request: HttpRequest) -> str | None:
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    cool_off = get_cool_off(request)
    minutes = math.ceil(cool_off.total_seconds() / 60) if cool_off else None
    return render(
        request,
        "registration/locked_out.html",
        {"cooloff_minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        AxesProxyHandler.reset_attempts(username=form.user.get_username())
        return response
