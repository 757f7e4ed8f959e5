"""Which club a calendar feed is of, whatever address it is fetched at.

A calendar app keeps fetching the address it was given. One given before the site took in a
second club has no ``/c/<slug>/`` in it; its secret still names one member, and so one club.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from meetings.models import MeetupProfile


@contextmanager
def feed_scope(token: str, club: Club | None) -> Iterator[None]:
    """Run the feed of secret ``token`` as its member's club's: ``club`` when the address
    named one (the page's club, already the scope), else the club of the member whose
    secret it is. An unknown secret changes nothing: the feed's own lookup then finds none."""
    if club is not None:
        yield
        return
    # Looked up across clubs: the secret, not the address, says whose feed this is.
    owner = (
        MeetupProfile.objects.with_scopes_disabled()
        .filter(calendar_token=token)
        .values_list("member__club_id", flat=True)
        .first()
    )
    if owner is None:
        yield
        return
    with club_scope(Club.objects.get(pk=owner)):
        yield
