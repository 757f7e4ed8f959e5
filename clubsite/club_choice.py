"""``/clubs/``: the clubs of the person logged in, on a site of several (docs/clubs.md).

A page without a club's prefix (``/standings/``) on a site of several clubs cannot tell which
club it is for: the middleware sends it here with the page asked for as ``next``. A person
in one club goes straight on to that club's page; a person in several picks one.

The page itself (``scoring.views.club_choice``) is also the person's one view across their
clubs: beside each club, their figures there.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

from clubsite.models import Member


@dataclass(frozen=True)
class ClubLink:
    """One of the person's clubs: its name, the name they go by there, its address, and
    their games there in the year so far with their average place (None without games);
    ``guest``: they are only a guest there (of an event between clubs), and the address is
    the list of their events in it, the one page of that club they open."""

    name: str
    display_name: str
    url: str
    slug: str = ""
    guest: bool = False
    games: int = 0
    average_place: Decimal | None = None


def club_links(user_id: int, next_path: str = "/") -> list[ClubLink]:
    """The active memberships of login ``user_id`` in every club, by club name, each as the
    address of ``next_path`` in that club (``/c/<slug>/...``). One query."""
    # A person's clubs are found across every club: the one read of memberships past the
    # club scope (tests/test_club_scoping.py names this module).
    memberships = (
        Member.objects.with_scopes_disabled()
        .filter(user_id=user_id, active=True)
        .select_related("club")
        .order_by("club__name", "club__slug")
    )
    return [
        ClubLink(
            m.club.name, m.display_name, f"/c/{m.club.slug}/tournaments/", m.club.slug, guest=True
        )
        if m.is_guest
        else ClubLink(
            m.club.name,
            m.display_name,
            f"/c/{m.club.slug}/{next_path.lstrip('/')}",
            m.club.slug,
        )
        for m in memberships
    ]


def choice_next(request: HttpRequest) -> str:
    """The page asked for (``next``), a path of this site; anything else is ``/``."""
    wanted = request.GET.get("next", "/")
    if not wanted.startswith("/") or not url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}
    ):
        return "/"
    return wanted
