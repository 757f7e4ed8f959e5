"""``--club SLUG``: the club a management command's work is for (docs/clubs.md, "Clubs on the
command line").

A command that reads or writes a club's rows adds the option with :func:`add_club_argument`
and runs its work inside :func:`command_club_scope` (or :func:`command_club` and
:func:`clubsite.club_scope.club_scope`): every row it writes is that club's
(``clubsite.models.club_key``), and everything that asks
:func:`clubsite.club_scope.current_club` (its time zone, its rulesets) answers that club.

Without ``--club`` the command is the site's one club's, so a one-club site runs every
command as it did before clubs; on a site of several clubs it stops before doing anything and
asks which. A scope the caller is already in does not count: a command is run from a shell,
where there is none, and the same arguments do the same thing from ``call_command``.

Errors are :class:`CommandError` with status 2, as a usage error's (one line on standard
error from the command line); a command with a one-line convention of its own catches it and
writes it its way (``player_stats``).
"""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.core.management.base import CommandError

from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, club_scope, only_club

# The option's destination in a command's ``options``.
CLUB_OPTION = "club"
# Slugs named in a message, at most: a site of hundreds of clubs is not listed whole.
LISTED = 20


def add_club_argument(parser: ArgumentParser) -> None:
    """Add ``--club SLUG`` to a command's arguments (``options["club"]``: the slug or None)."""
    parser.add_argument(
        "--club",
        dest=CLUB_OPTION,
        metavar="SLUG",
        help="the club whose data this is, by its short name; needed only on a site of "
        "several clubs (default: the site's one club)",
    )


def club_slugs() -> str:
    """The clubs' short names for a message: ``"club, north, south"`` (at most :data:`LISTED`,
    then ``"..."``), or ``"none"``."""
    slugs = list(Club.objects.order_by("slug").values_list("slug", flat=True)[: LISTED + 1])
    if not slugs:
        return "none"
    return ", ".join(slugs[:LISTED]) + (", ..." if len(slugs) > LISTED else "")


def command_club(options: Mapping[str, Any]) -> Club:
    """The club ``options`` name (``--club SLUG``), else the site's one club
    (:func:`clubsite.club_scope.only_club`, made from ``CLUB_SLUG``/``CLUB_NAME`` if the site
    has none yet).

    Raises:
        CommandError: (status 2) no club has that short name, or ``--club`` is absent on a
            site of several clubs; the message names the clubs there are.
    """
    slug = options.get(CLUB_OPTION)
    if slug is not None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(
                f"--club {slug}: no club has that short name (the clubs: {club_slugs()})",
                returncode=2,
            )
        return club
    try:
        return only_club()
    except ClubNotChosen:
        raise CommandError(
            f"this site holds several clubs; say which: --club SLUG (the clubs: {club_slugs()})",
            returncode=2,
        ) from None


@contextmanager
def command_club_scope(options: Mapping[str, Any]) -> Iterator[Club]:
    """Run the enclosed work as :func:`command_club`'s club's (its scope); yields the club.

    Raises:
        CommandError: as :func:`command_club`, before the enclosed work starts.
    """
    club = command_club(options)
    with club_scope(club):
        yield club
