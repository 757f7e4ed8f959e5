"""Logins: what django-axes is told about this site, and the end of a password reset.

- :func:`client_address` is the address failures are counted against: the connecting one, or,
  behind the reverse proxy of README "Deploying", the one that proxy added to
  ``X-Forwarded-For`` (the last entry: a client can only prepend made-up ones).
- :func:`attempted_username` is the username a failed login is recorded under: as typed, but
  never text the database refuses (a NUL character, more than the username column holds).
- :class:`LoginFailures` is axes' database handler with two limits: failures for one username
  from one address (``AXES_FAILURE_LIMIT``), and failures from one address whatever the
  usernames (``CLUB_LOGIN_ADDRESS_FAILURE_LIMIT``: password spraying).
- :func:`lockout_response` is the page a locked-out login gets (HTTP 429), saying how long
  to wait.
- :class:`PasswordResetConfirmView` lifts the lockouts of a member who has just chosen a new
  password through the link mailed to them: they proved they own the address on file.
"""

from __future__ import annotations

import ipaddress
import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address; a forwarded "address" that is none (the proxy forwarding
    what the client made up) is not taken: axes stores it in an address column."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops and _is_address(hops[-1]):
            return hops[-1]
    address = str(request.META.get("REMOTE_ADDR") or "")
    return address if _is_address(address) else None


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The username of a login attempt, as axes records it (``AXES_USERNAME_CALLABLE``):
    without NUL characters, which PostgreSQL refuses, and cut to the username column's length,
    so that a made-up name of any length is a failure counted, never a server error."""
    field = get_user_model().USERNAME_FIELD
    if credentials is not None:
        username = credentials.get(field)
    else:
        username = getattr(request, "data", request.POST).get(field)
    if username is None:
        return None
    length = getattr(get_user_model()._meta.get_field(field), "max_length", None) or 150
    return str(username).replace("\x00", "")[:length]


class LoginFailures(AxesDatabaseHandler):
    """axes' database handler (``AXES_HANDLER``), with a limit for each of its lockout
    parameters (``AXES_LOCKOUT_PARAMETERS``): ``AXES_FAILURE_LIMIT`` wrong passwords for one
    username from one address, ``CLUB_LOGIN_ADDRESS_FAILURE_LIMIT`` from one address across
    usernames. axes compares one count with one limit, so :meth:`get_failures` gives each
    parameter's count on ``AXES_FAILURE_LIMIT``'s scale, the largest of them."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        """The failures axes compares with ``AXES_FAILURE_LIMIT`` (an int >= 0): for each
        lockout parameter, its failures within the cool-off time times ``AXES_FAILURE_LIMIT``
        divided (rounding down) by that parameter's own limit; the largest of them. So 20
        failures from one address at a limit of 20 count as 5 of 5: locked."""
        return max(
            failures * settings.AXES_FAILURE_LIMIT // _limit_of(parameter)
            for parameter, failures in self._failures(request, credentials)
        )

    def locked_by_address(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> bool:
        """The address is locked out as a whole, not only this username from it."""
        return any(
            _is_address_only(parameter) and failures >= _limit_of(parameter)
            for parameter, failures in self._failures(request, credentials)
        )

    def _failures(
        self, request: HttpRequest, credentials: dict[str, Any] | None
    ) -> list[tuple[str | list[str], int]]:
        """Each lockout parameter with its failures within the cool-off time."""
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        return [
            (parameter, queryset.aggregate(total=Sum("failures_since_start"))["total"] or 0)
            for parameter, queryset in zip(parameters, attempts, strict=True)
        ]

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """A login that succeeds clears that username's failures from that address, and only
        those. axes would clear every row its lockout parameters select, the address's other
        usernames among them: a member who logged in now and then could then try the others'
        passwords without end."""
        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(
            username=username,
            ip_address=request.axes_ip_address,  # type: ignore[attr-defined]
        ).delete()
        return count

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        _storable_client(request)
        super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        _storable_client(request)
        super().user_logged_in(sender, request, user, **kwargs)

    def user_logged_out(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        _storable_client(request)
        super().user_logged_out(sender, request, user, **kwargs)


def _is_address_only(parameter: str | list[str]) -> bool:
    return parameter in ("ip_address", ["ip_address"])


def _limit_of(parameter: str | list[str]) -> int:
    """The failures that lock out a lockout parameter of ``AXES_LOCKOUT_PARAMETERS``."""
    if _is_address_only(parameter):
        return int(settings.CLUB_LOGIN_ADDRESS_FAILURE_LIMIT)
    return int(settings.AXES_FAILURE_LIMIT)


def _storable_client(request: Any) -> None:
    """The browser's text that axes records with an attempt (its user agent, path and Accept
    header, already cut to their columns' lengths), without NUL characters: PostgreSQL
    refuses them, and a client may send anything."""
    if request is None:
        return
    for name in ("axes_user_agent", "axes_path_info", "axes_http_accept"):
        value = getattr(request, name, None)
        if isinstance(value, str):
            setattr(request, name, value.replace("\x00", ""))


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the page a locked-out login gets, HTTP 429, saying the
    minutes to wait (the cool-off time rounded up; None without one), the per-username limit,
    and whether the whole address is locked out (:meth:`LoginFailures.locked_by_address`)."""
    cool_off = get_cool_off(request)
    minutes = math.ceil(cool_off.total_seconds() / 60) if cool_off else None
    handler = AxesProxyHandler.get_implementation()
    by_address = isinstance(handler, LoginFailures) and handler.locked_by_address(
        request, credentials
    )
    return render(
        request,
        "registration/locked_out.html",
        {
            "cooloff_minutes": minutes,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "by_address": by_address,
        },
        status=429,
    )


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form: SetPasswordForm[User]) -> HttpResponse:
        response = super().form_valid(form)
        AxesProxyHandler.reset_attempts(username=form.user.get_username())
        return response
