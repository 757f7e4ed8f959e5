"""503 with ``Retry-After`` instead of a 500 while the database is away:
PostgreSQL restarting, its connections refused or dropped.

Each middleware of Django's stack turns an exception into a response where it is raised, so
no outer middleware sees the exception itself. :func:`note_database_error`, a receiver of
``got_request_exception`` (sent for every uncaught exception, in a view or a middleware),
marks a request whose exception was a database connection error (``OperationalError``,
``InterfaceError``); :class:`DatabaseUnavailableMiddleware`, outermost, answers such a
request with :func:`unavailable_response`. The error is still logged as any other (the
stewards' error mail included): a database away is worth knowing about.

The page needs no database: it is rendered without the request's context (no session, no
member), in the language the browser asks for.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

RETRY_AFTER_SECONDS = 30
_MARK = "_clubsite_database_unavailable"


@receiver(got_request_exception, dispatch_uid="clubsite.db_unavailable")
def note_database_error(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """Mark ``request`` when the exception being handled is a database connection error."""
    if request is not None and isinstance(sys.exception(), (OperationalError, InterfaceError)):
        setattr(request, _MARK, True)


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 page: the database is away for a moment, try again; ``Retry-After`` in
    seconds, never cached."""
    with translation.override(translation.get_language_from_request(request)):
        body = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Outermost: a request whose handling failed on the database's connection
    (:func:`note_database_error`) gets :func:`unavailable_response` instead of the 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
        except (OperationalError, InterfaceError):
            return unavailable_response(request)
        if getattr(request, _MARK, False):
            unavailable = unavailable_response(request)
            # The error was logged with its traceback where it was raised: Django's handler
            # is not to log this answer a second time (django.utils.log.log_response).
            unavailable._has_been_logged = True  # type: ignore[attr-defined]
            return unavailable
        return response
