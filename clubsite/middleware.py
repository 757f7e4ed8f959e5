"""Middleware of the site's own."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import Resolver404, get_script_prefix, resolve, reverse, set_script_prefix
from django.utils import timezone
from django.utils.http import urlencode
from django_htmx.http import HttpResponseClientRedirect
from django_scopes import scopes_disabled

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, club_scope, only_club, site_scope
from clubsite.guest_access import guest_may_open
from clubsite.models import Member


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


# A club's pages: /c/<slug>/ and the page's own path after it (docs/clubs.md).
CLUB_PREFIX = re.compile(r"^/c/(?P<slug>[-a-zA-Z0-9_]+)/")
# Pages of the site, not of a club, that need a login: answered without a club.
SITE_PAGES = {"club_choice", "set_language", "password_change", "password_change_done", "logout"}


class ClubScopeMiddleware:
    """Every page runs in a club's scope (clubsite.club_scope): its queries of club data read
    that club's rows only (``clubsite.models.ClubManager``).

    A page under ``/c/<slug>/`` is that club's: the prefix is taken off the path the URLs
    are resolved against and made the script prefix while the page runs, so every address
    the page writes (``{% url %}``, ``reverse()``, redirects) stays in the club. An unknown
    slug is 404. A logged-in person who is not an active member of the club gets 404 on every
    page that needs a login (``process_view``): a member page of another club is as absent as
    a page that does not exist. Site admins (superusers) see every club. A guest of one of
    the club's events opens only the pages registered for guests
    (``clubsite.guest_access``).

    A page without the prefix is the site's one club's (``site_scope``), as on a site of one
    club. The admin site is the site admins' and sees every club (``scopes_disabled``).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.admin_prefix = "/admin/"

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(self.admin_prefix):
            with scopes_disabled():
                return self.get_response(request)
        found = CLUB_PREFIX.match(request.path_info)
        if found is None:
            if self._of_no_club(request):
                # Looked up only if the page reads a club's rows (a login page reads none).
                with site_scope():
                    return self.get_response(request)
            try:
                only = only_club()
            except ClubNotChosen:
                return self._to_club_choice(request)
            with club_scope(only), timezone.override(only.time_zone):
                return self.get_response(request)
        club = Club.objects.filter(slug=found["slug"]).first()
        if club is None:
            raise Http404("No such club.")
        prefix = found.group(0)
        request.path_info = "/" + request.path_info[len(prefix) :]
        outer = get_script_prefix()
        set_script_prefix(outer.rstrip("/") + prefix)
        request.club = club  # type: ignore[attr-defined]
        try:
            # Times on the club's pages are its own time zone's (Club.time_zone).
            with club_scope(club), timezone.override(club.time_zone):
                return self.get_response(request)
        finally:
            set_script_prefix(outer)

    @staticmethod
    def _of_no_club(request: HttpRequest) -> bool:
        """Whether a page without a club's prefix needs no club: a page of the site (the
        login and the other pages open to visitors but a club's public pages, the list of
        one's clubs, the language), or any page asked for by a visitor not logged in (who is
        sent to log in first, or, on a club's public page of a site of one club, sees it)."""
        if not request.user.is_authenticated:
            return True
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return True
        if match.url_name in SITE_PAGES:
            return True
        # A club's page open to visitors (clubsite.public.club_public_page) is still a club's.
        return not getattr(match.func, "login_required", True) and not getattr(
            match.func, "club_page", False
        )

    @staticmethod
    def _to_club_choice(request: HttpRequest) -> HttpResponse:
        """A club's page without its prefix on a site of several clubs: on to the person's
        clubs (``/clubs/``) with the page asked for as ``next``."""
        return HttpResponseRedirect(f"{reverse('club_choice')}?{urlencode({'next': request.path})}")

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        """A page open to visitors (a public board, a feed) asked for without a club's
        prefix on a site of several clubs reads a club's rows and cannot tell whose: for the
        visitor the address names no page (404), as a wrong slug would."""
        if isinstance(exception, ClubNotChosen):
            raise Http404("This site holds several clubs: the address names none.") from exception

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: Any,
        view_kwargs: Any,
    ) -> None:
        club = getattr(request, "club", None)
        if club is None or not getattr(view_func, "login_required", True):
            return
        user = request.user
        if not user.is_authenticated or user.is_superuser:
            return
        # The membership the page reads anyway (kept on the user object): no extra query.
        member = Member.for_user(user)
        if member is None:
            raise Http404("No such page.")
        if member.is_guest:
            # A guest of an event between clubs: their events' and games' pages only.
            match = request.resolver_match
            name = match.view_name if match is not None else ""
            if not guest_may_open(member, name, view_kwargs):
                raise Http404("No such page.")
