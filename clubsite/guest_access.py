"""What a guest may open in the club that invited them (an event between clubs).

A guest (``Member.Role.GUEST``) is another club's member entered in one of this club's
events: a membership of this club for the same login, so that their seats and confirmations
are as every member's. They are no member of the club otherwise: of its pages that need a
login they open only those of their own events and games, their own player page and the
rulesets; every other page is 404 to them, as to anyone outside the club
(``clubsite.middleware.ClubScopeMiddleware``).

Which pages are a guest's is each app's knowledge (the club's core knows neither games nor
events): an app registers a check per page name (:func:`allow_guests`) when it starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from clubsite.models import Member

# A page's check: whether the guest membership may open it with these URL arguments.
GuestCheck = Callable[[Member, Mapping[str, Any]], bool]

_CHECKS: dict[str, GuestCheck] = {}


def allow_guests(url_name: str, check: GuestCheck) -> None:
    """Let a guest open the page named ``url_name`` (``"namespace:name"`` as it resolves)
    when ``check(guest, kwargs)`` is true; registered by the app owning the page, once."""
    _CHECKS[url_name] = check


def always(_guest: Member, _kwargs: Mapping[str, Any]) -> bool:
    """A check for a page of no member's data (a ruleset's page, a hand's value)."""
    return True


def guest_may_open(guest: Member, url_name: str, kwargs: Mapping[str, Any]) -> bool:
    """Whether the guest membership ``guest`` may open the page ``url_name`` with
    ``kwargs``: a page registered for guests whose check says yes. Every other page: no."""
    check = _CHECKS.get(url_name)
    return check is not None and bool(check(guest, kwargs))


def guest_pages() -> tuple[str, ...]:
    """The names of the pages registered for guests, sorted (for the docs and tests)."""
    return tuple(sorted(_CHECKS))
