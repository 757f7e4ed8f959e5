"""iCalendar files of confirmed meetups (RFC 5545, made with the ``icalendar`` package).

Times are in the club's time zone (``Club.time_zone``, Asia/Tokyo for the seeds' clubs), with
its VTIMEZONE included, so calendar apps anywhere show the right hour. Texts are in the active
language. An event holds the venue and the names of the line-up, never anyone's phone number.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django.utils import timezone
from django.utils.translation import gettext
from icalendar import Calendar, Event

from clubsite.club_links import club_url
from clubsite.club_scope import current_club
from meetings.models import MEETUP_DURATION, Meetup, join_list, lineup_names

PRODUCT_ID = "-//clubsite//meetups//EN"


def calendar_of(meetups: Iterable[Meetup], *, name: str = "") -> bytes:
    """One calendar holding an event per meetup that has a date."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    if name:
        calendar.add("x-wr-calname", name)
    for meetup in meetups:
        if meetup.starts_at() is not None:
            calendar.add_component(meetup_event(meetup))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def meetup_event(meetup: Meetup) -> Event:
    starts_at = meetup.starts_at()
    assert starts_at is not None
    venue = meetup.venue
    # Every meetup of a feed is the club in scope's: its club is not read meetup by meetup.
    url = club_url(current_club(), "meetings:detail", args=[meetup.pk])
    lines = [
        gettext("Members: %(names)s") % {"names": join_list(lineup_names(meetup.lineup()))},
        venue.directions,
        url,
    ]
    event = Event()
    event.add("uid", f"meetup-{meetup.pk}@clubsite")
    event.add("dtstamp", timezone.now().astimezone(datetime.UTC))
    event.add("dtstart", starts_at)
    event.add("dtend", starts_at + MEETUP_DURATION)
    event.add("summary", meetup.calendar_summary())
    event.add("location", f"{venue.name}, {venue.address}")
    event.add("description", "\n".join(line for line in lines if line))
    event.add("url", url)
    event.add("status", "CONFIRMED")
    # Each change is a new revision of the event, so calendar apps replace the old one.
    event.add("sequence", meetup.sequence)
    return event
