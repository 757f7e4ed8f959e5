"""Guests' games in their own clubs' standings (events between clubs, docs/clubs.md).

A guest sits at a host club's event as a membership of the host of role guest
(``clubsite.models.Member.Role.GUEST``, ``home`` their membership of their own club). When
the game counts, the host's ``CountedSeat`` of a guest's seat is marked ``guest``: the
event's ranking reads it, the host's standings and totals leave it out
(:func:`scoring.ledger.totals.refresh`, :func:`scoring.standings.counted.counted_seats`). And
if the guest's own club chooses so (``Club.guest_events_in_standings``), the seat is counted
once more there: a ``CountedSeat`` of that club, its member the guest's home membership, its
game the host's, every figure the same; that club's totals follow. A correction, undo or void
of the game rewrites or removes those rows in the same transaction (:func:`count_guests`,
called by :func:`scoring.ledger.confirmation.count`).

:func:`recount_guest_games` makes a club's rows of its members' guest games again from the
hosts' counted seats, as live counting makes them: after the club changes its choice
(``scoring.club_choices.club_choices_save``), or by ``manage.py recount_guest_games``.

Reads past the club scope here (``tests/test_club_scoping.py`` names this module): a club's
members' guest memberships in other clubs and the hosts' counted seats of them, which no
scope of one club holds.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import transaction

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from clubsite.models import Member
from scoring.ledger import totals
from scoring.models import CountedSeat, Hanchan, Seat

GUEST = Member.Role.GUEST


@dataclass(frozen=True, slots=True)
class GuestSeat:
    """A guest's seat: their host membership's id, their home membership's id and club."""

    member_id: int
    home_id: int
    home_club: Club


def guest_seats(seats: Sequence[Seat]) -> dict[int, GuestSeat]:
    """The guests among ``seats``' members, by host membership id (empty for a game of the
    club's own members). One query, or none when the seats' members are loaded."""
    ids = [seat.member_id for seat in seats]
    if not ids:
        return {}
    loaded = all(Seat.member.is_cached(seat) for seat in seats)
    if loaded and not any(seat.member.role == GUEST for seat in seats):
        return {}
    guests = Member.objects.filter(pk__in=ids, role=GUEST, home__isnull=False).select_related(
        "home__club"
    )
    return {
        g.pk: GuestSeat(g.pk, int(g.home_id or 0), g.home.club)  # type: ignore[union-attr]
        for g in guests
    }


def _copies(rows: Iterable[CountedSeat], homes: dict[int, int], club: Club) -> list[CountedSeat]:
    """``rows`` (a host's counted seats of guests) as ``club``'s own: its club and each
    guest's home membership (``homes``: host membership id -> home id); figures as they are."""
    out = []
    for row in rows:
        copy = CountedSeat(
            **{
                f.attname: getattr(row, f.attname)
                for f in CountedSeat._meta.concrete_fields
                if not f.primary_key
            }
        )
        copy.club_id = club.pk
        copy.member_id = homes[row.member_id]
        copy.guest = False
        out.append(copy)
    return out


def count_guests(
    hanchan: Hanchan, counted: Sequence[CountedSeat], guests: dict[int, GuestSeat]
) -> None:
    """Bring the guests' clubs' rows of ``hanchan`` in step with its host rows just written
    (``counted``: none for a void): in each guest's club, in that club's scope, its rows of
    the game deleted and, if it counts its members' guest games, written again from
    ``counted``; that club's members' totals refreshed. Inside the caller's transaction."""
    by_club: dict[int, list[GuestSeat]] = {}
    for one in guests.values():
        by_club.setdefault(int(one.home_club.pk), []).append(one)
    month = hanchan.played_on.replace(day=1)
    for club_guests in by_club.values():
        club = club_guests[0].home_club
        homes = {g.member_id: g.home_id for g in club_guests}
        with club_scope(club):
            CountedSeat.objects.filter(hanchan=hanchan).delete()
            if club.guest_events_in_standings:
                CountedSeat.objects.bulk_create(
                    _copies((row for row in counted if row.member_id in homes), homes, club)
                )
            totals.refresh(homes.values(), [month], [hanchan.ruleset_version_id])


def recount_guest_games(club: Club) -> int:
    """Make ``club``'s rows of its members' games as guests at other clubs' events again from
    the hosts' counted seats (none when the club does not count them), and its totals of
    those members, months and versions: the rows live counting makes (:func:`count_guests`).
    One transaction. Returns how many rows the club now has of such games."""
    with transaction.atomic():
        visits = dict(
            Member.objects.with_scopes_disabled()
            .filter(role=GUEST, home__club=club)
            .values_list("pk", "home_id")
        )
        hosts = list(CountedSeat.objects.with_scopes_disabled().filter(member_id__in=list(visits)))
        with club_scope(club):
            old = list(
                CountedSeat.objects.exclude(hanchan__club=club).values_list(
                    "member_id", "played_on", "ruleset_version_id"
                )
            )
            CountedSeat.objects.exclude(hanchan__club=club).delete()
            new = _copies(hosts, visits, club) if club.guest_events_in_standings else []
            CountedSeat.objects.bulk_create(new)
            keys = old + [(r.member_id, r.played_on, r.ruleset_version_id) for r in new]
            totals.refresh(
                {member for member, _day, _version in keys},
                {_first(day) for _member, day, _version in keys},
                {version for _member, _day, version in keys},
            )
        return len(new)


def _first(day: datetime.date) -> datetime.date:
    return day.replace(day=1)


__all__ = ["GuestSeat", "count_guests", "guest_seats", "recount_guest_games"]
