"""Request body limits: no member's request holds a worker for long.

Every request's body is limited by its ``Content-Length`` before anything reads it: at most
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (512 KiB), except the pages that take uploads
(:data:`UPLOAD_PAGES`: the online import, ``CLUB_UPLOAD_MAX_BYTES``, 5 MiB). A body over its
page's limit is answered 413 with a page that names the limit, at once: the body is not
read, and nothing in it is shown back. A body sent without a length (chunked) is not read
at all (Django reads ``Content-Length`` bytes, none without it).

Within the limit, Django's own limits hold while the body is parsed: the form fields (not
the files) of one request at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` and
``DATA_UPLOAD_MAX_NUMBER_FIELDS`` of them, at most ``DATA_UPLOAD_MAX_NUMBER_FILES`` files;
:func:`bad_request` answers a request over one of those with the same 413 page, other bad
requests with a 400 page. Uploaded files are streamed by Django's upload handlers: one over
``FILE_UPLOAD_MAX_MEMORY_SIZE`` goes to a temporary file, not memory.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve

# URL names of the pages that take files, with their limit's setting.
UPLOAD_PAGES = {"game_import": "CLUB_UPLOAD_MAX_BYTES"}


def body_limit(path: str) -> int:
    """The most bytes a request body to ``path`` may have (see the module's docstring)."""
    try:
        name = resolve(path).url_name
    except Resolver404:
        name = None
    setting = UPLOAD_PAGES.get(name or "")
    return int(getattr(settings, setting)) if setting else settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _content_length(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


def size_words(size: int) -> str:
    """``size`` bytes as the pages say it: ``"5 MB"`` from 1 MiB, else ``"512 KB"``."""
    mib = 1024 * 1024
    if size >= mib:
        return f"{size / mib:.3g} MB"
    return f"{size // 1024} KB"


def too_large(request: HttpRequest, *, limit: int | None = None) -> HttpResponse:
    """The 413 page: the request was larger than this page takes; the limits in words."""
    context = {
        "limit": size_words(limit if limit is not None else body_limit(request.path_info)),
        "upload": size_words(settings.CLUB_UPLOAD_MAX_BYTES),
        "upload_files": settings.DATA_UPLOAD_MAX_NUMBER_FILES,
        "text": size_words(settings.DATA_UPLOAD_MAX_MEMORY_SIZE),
    }
    response = render(request, "413.html", context, status=413)
    # The client may still be sending the body nobody reads: the connection ends here.
    response["Connection"] = "close"
    return response


class RequestBodyLimitMiddleware:
    """413 for a body over its page's limit (:func:`body_limit`), before the CSRF check or
    anything else reads it. Sits after ``LocaleMiddleware``, so the page is in the reader's
    language, and before ``CsrfViewMiddleware``, the first to read a POST."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _content_length(request)
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            limit = body_limit(request.path_info)
            if length > limit:
                return too_large(request, limit=limit)
        return self.get_response(request)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a request over Django's parsing limits (too much form text, too many
    fields or files) gets the 413 page; any other bad request a 400 page that shows nothing
    of it."""
    if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return too_large(request)
    return render(request, "400.html", status=400)
