"""What every page's header needs to know about who is looking at it."""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from clubsite import permissions
from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, current_club
from clubsite.models import Member


def _member_here(request: HttpRequest) -> Member | None:
    try:
        return Member.for_user(request.user)
    except ClubNotChosen:
        # A page of the site, not of a club (the list of one's clubs on a site of several).
        return None


def _rights_here(request: HttpRequest) -> permissions.StewardRights | None:
    try:
        return permissions.steward_rights(getattr(request, "user", None) or AnonymousUser())
    except ClubNotChosen:
        return None


def current_member(request: HttpRequest) -> dict[str, object]:
    """``current_member``: the logged-in user's `Member` membership of the club in hand, or
    None (anonymous, an account without one there, a deactivated one, or a page of no club).
    No query: the login backend loads the membership with the user
    (clubsite/auth_backends.py; a session from before it reads it here, lazily)."""
    return {"current_member": SimpleLazyObject(lambda: _member_here(request))}


def steward_rights(request: HttpRequest) -> dict[str, object]:
    """``rights``: what the page may offer the viewer beyond a member's
    (:func:`clubsite.permissions.steward_rights`: ``rights.desk``, ``rights.manners``, ...).
    Templates ask it, never ``user.is_staff``. No query when the login backend loaded the
    viewer's membership with the user."""
    return {"rights": SimpleLazyObject(lambda: _rights_here(request))}


def _club_here() -> Club | None:
    try:
        club = current_club()
        # The site scope's club is looked up lazily: here, where a site of several answers.
        club.pk  # noqa: B018
    except ClubNotChosen:
        return None
    return club


def club(request: HttpRequest) -> dict[str, object]:
    """``club``: the club whose page this is (None on a page of no club on a site of several),
    and ``site_club_name``: the name a club has until its stewards give it its own (the header
    then says the site's translated "Mahjong club"). No query inside a club's scope."""
    return {
        "club": SimpleLazyObject(_club_here),
        "site_club_name": getattr(settings, "CLUB_NAME", ""),
    }
