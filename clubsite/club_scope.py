"""Which club a piece of work is for: the scope a request, a command or a task runs in.

Every row a club owns carries a ``club`` foreign key (``docs/clubs.md``). Code that writes
such a row, or reads the club's choices (its time zone, its default ruleset, ...), asks
:func:`current_club`. A request under ``/c/<slug>/``, a command given ``--club SLUG`` and a
task given its club's id run inside :func:`club_scope`; on a site that holds one club,
work outside any scope is that club's, so a one-club site needs no ``--club`` anywhere.

The scope is django-scopes' (``django_scopes.scope(club=...)``), so that the managers that
scope queries to a club and this module read one and the same state.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.functional import SimpleLazyObject
from django_scopes import get_scope, scope

if TYPE_CHECKING:
    from clubsite.club_model import Club


class ClubNotChosen(LookupError):
    """Work that belongs to one club ran outside any club's scope on a site of several
    clubs: the caller must say which (``--club SLUG`` on the command line)."""


def site_club_defaults() -> dict[str, str]:
    """The slug and name of the club a site starts with (the one an existing one-club site
    is moved into): ``CLUB_SLUG`` and ``CLUB_NAME`` from the settings."""
    return {
        "slug": str(getattr(settings, "CLUB_SLUG", "club")),
        "name": str(getattr(settings, "CLUB_NAME", "Mahjong club")),
    }


def current_club() -> Club:
    """The club of the work in hand.

    Inside :func:`club_scope`: that club (no query). Outside any scope: :func:`only_club`.

    Raises :class:`ClubNotChosen` outside any scope on a site of two or more clubs.
    """
    chosen = get_scope().get("club")
    if callable(chosen):
        # A scope that finds its club afresh on every use: a test module's fixtures, whose
        # database may be emptied and its club made again between its tests.
        chosen = chosen()
    if chosen is not None:
        return chosen
    return only_club()


def only_club() -> Club:
    """The site's one club, whatever the scope: made from :func:`site_club_defaults` if the
    site has none yet (as after a database flush). One query (two when it is made).

    Raises :class:`ClubNotChosen` on a site of two or more clubs.
    """
    # Imported here: manage.py enters site_scope() before Django has loaded its models.
    from clubsite.club_model import Club

    clubs = list(Club.objects.order_by("pk")[:2])
    if len(clubs) == 1:
        return clubs[0]
    if clubs:
        raise ClubNotChosen("This site holds several clubs: say which one (--club SLUG).")
    defaults = site_club_defaults()
    club, _created = Club.objects.get_or_create(slug=defaults["slug"], defaults=defaults)
    return club


def current_club_id() -> int:
    """The id of :func:`current_club`: the default of every ``club`` foreign key, so that a
    row made inside a club's scope (or on a one-club site) is that club's.

    Raises :class:`ClubNotChosen` as :func:`current_club` does."""
    return int(current_club().pk)


@contextmanager
def club_scope(club: Club) -> Iterator[Club]:
    """Run the enclosed work as ``club``'s: :func:`current_club` answers it, new rows are
    its rows, and the scoped managers read only its rows."""
    with scope(club=club):
        yield club


@contextmanager
def task_scope(club_id: int | None) -> Iterator[None]:
    """Run a task's work as the club it was queued for: ``club_id`` (a task's arguments are
    JSON, so the id), or the site's one club for a task queued without one (before clubs).

    Raises:
        Club.DoesNotExist: no club has that id any more.
    """
    if club_id is None:
        with site_scope():
            yield
        return
    from clubsite.club_model import Club

    with club_scope(Club.objects.get(pk=club_id)):
        yield


@contextmanager
def site_scope() -> Iterator[None]:
    """Run the enclosed work as the site's one club's, looked up when first needed
    (:func:`only_club`): what a command, a task worker or a page runs in until it enters a
    club's own scope. On a site of several clubs the first query of club data raises
    :class:`ClubNotChosen`; work that touches no club data never looks."""
    with scope(club=SimpleLazyObject(only_club)):
        yield
