"""A club's addresses and name as they go out of the site: in e-mails and calendar files,
read later, outside any request, and perhaps after the site has taken in other clubs.

A link to a club's page always names the club (``/c/<slug>/...``, docs/clubs.md): it keeps
leading to the same club's page when the site holds several clubs, and it works as well on a
site of one club. Links to the pages of no club (log in, choose a password) stay without it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext

if TYPE_CHECKING:
    from clubsite.club_model import Club


def site_url(path: str) -> str:
    """``CLUB_SITE_URL`` (scheme, host and any path the site is served under) followed by
    ``path``, a path from the site's root (``/accounts/login/``)."""
    return settings.CLUB_SITE_URL.rstrip("/") + "/" + path.lstrip("/")


def root_path(viewname: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> str:
    """The path of page ``viewname`` (a URL name, as for ``reverse``) from the site's root,
    without the club prefix (``/c/<slug>``) of the request in progress, if any: ``reverse``
    writes that request's script prefix, which belongs to whichever club's page asks.

    Raises:
        django.urls.NoReverseMatch: no such page for these arguments.
    """
    return "/" + reverse(viewname, args=args, kwargs=kwargs)[len(get_script_prefix()) :]


def club_url(
    club: Club,
    viewname: str,
    args: Sequence[Any] = (),
    kwargs: dict[str, Any] | None = None,
) -> str:
    """The absolute address of page ``viewname`` (a URL name, as for ``reverse``) of
    ``club``: ``CLUB_SITE_URL`` + ``/c/<slug>`` + the page's path, whichever club's page
    (if any) the caller runs in.

    Raises:
        django.urls.NoReverseMatch: no such page for these arguments.
    """
    return site_url(f"/c/{club.slug}{root_path(viewname, args, kwargs)}")


def club_name(club: Club) -> str:
    """The club's name as its pages' header shows it: its own, or the site's translated
    "Mahjong club" while it still has the name a site starts with (``CLUB_NAME``)."""
    if club.name and club.name != getattr(settings, "CLUB_NAME", ""):
        return club.name
    return gettext("Mahjong club")
