"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


class HtmxLoginRedirectMiddleware:
    """An htmx request from a session that is no longer logged in gets ``HX-Redirect`` to the
    login page (the whole page goes there), not the login page swapped into a fragment.

    After logging in the member comes back to the page they were on (htmx's
    ``HX-Current-URL``, when it is on this site), not to the address of the fragment, which
    is no page of its own. Sits before ``LoginRequiredMiddleware`` (it sees that middleware's
    redirect) and after ``HtmxMiddleware`` (it reads ``request.htmx``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        login_url = resolve_url(settings.LOGIN_URL)
        if htmx and response.status_code == 302 and response["Location"].startswith(login_url):
            page = htmx.current_url_abs_path
            if page and not page.startswith(login_url):
                response = redirect_to_login(page, login_url)
            return HttpResponseClientRedirect(response["Location"])
        return response
