"""Events between clubs: the host club's stewards invite other clubs to one of its events and
enter those clubs' members as guests (docs/clubs.md, "Events between clubs").

A guest plays as a membership of the host club for their own login, role ``guest``
(``clubsite.models.Member.Role.GUEST``), whose ``home`` is their membership of the club they
came from: their seats, their confirmations under their own login and the event's ranking
are every participant's, with no second path. The membership is made the first time the
person is entered in one of the host's events and kept for the next (their games keep it);
a login that is already a member of the host club plays as that member.

A guest opens only their events' and games' pages in the host club
(``clubsite.guest_access``; the pages registered here and in ``scoring.guest_pages``) and
is in no list of the host's members and no standings of the host; their home club counts
their games in its own standings if it chooses so (``Club.guest_events_in_standings``,
``scoring.ledger.guests``).

Each write is one transaction; a refused one raises :class:`~tournaments.services.EventError`
with why, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils.translation import gettext as _

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, current_club
from clubsite.guest_access import allow_guests
from clubsite.members import login_flags_sync
from clubsite.models import Member
from clubsite.names import NAME_LIMIT
from scoring.models import Seat
from tournaments.models import Event, GuestClub, Participant
from tournaments.services import EventError


def _open_event(event_id: int) -> Event:
    """The event, locked, while it takes participants.

    Raises:
        EventError: no such event of the club, or its players are set.
    """
    try:
        event = Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise EventError(_("There is no such tournament.")) from None
    if event.status != Event.Status.OPEN:
        raise EventError(_("The tournament has started: its players are set."))
    return event


def invitable_clubs() -> list[Club]:
    """The clubs the club in scope may invite: every other club on the site, by name."""
    return list(Club.objects.exclude(pk=current_club().pk).order_by("name", "slug"))


def club_invite(*, event_id: int, club_id: int) -> GuestClub:
    """Invite the club ``club_id`` to the event ``event_id`` (of the club in scope).

    Raises:
        EventError: the event started or is no event of the club, no such other club, or
            the club is invited already.
    """
    with transaction.atomic():
        event = _open_event(event_id)
        club = Club.objects.filter(pk=club_id).exclude(pk=event.club_id or 0).first()
        if club is None:
            raise EventError(_("There is no such club to invite."))
        if event.guest_clubs.filter(club=club).exists():
            raise EventError(_("%(club)s is invited already.") % {"club": club.name})
        return GuestClub.objects.create(event=event, club=club)


def club_uninvite(*, event_id: int, club_id: int) -> None:
    """Take back the invitation of the club ``club_id`` to the event ``event_id``.

    Raises:
        EventError: the event started, the club is not invited, or guests of it are entered
            (take them out first).
    """
    with transaction.atomic():
        event = _open_event(event_id)
        invitation = event.guest_clubs.filter(club_id=club_id).first()
        if invitation is None:
            raise EventError(_("That club is not invited."))
        if _entered_guests(event).filter(home__club_id=club_id).exists():
            raise EventError(
                _("Guests of %(club)s are entered: take them out first.")
                % {"club": invitation.club.name}
            )
        invitation.delete()


def _entered_guests(event: Event) -> QuerySet[Member]:
    return Member.objects.filter(
        role=Member.Role.GUEST, pk__in=event.participants.values("member_id")
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    """An invited club's active member, as the host's stewards pick guests: ``member`` is
    their membership of their own club (its display name is that club's); ``entered``:
    playing in the event already (as a guest or as a member of the host)."""

    member: Member
    entered: bool


@dataclass(frozen=True, slots=True)
class InvitedClub:
    """An invited club and its active members (:class:`Candidate`), in reading order."""

    club: Club
    candidates: tuple[Candidate, ...]


def invited_clubs(event: Event) -> list[InvitedClub]:
    """The clubs invited to ``event``, each with its active members (read in that club's own
    scope: they are its rows) and whether each plays in the event already. One query for the
    invitations, one for the event's players' logins, one per invited club."""
    invitations = list(event.guest_clubs.select_related("club"))
    playing = set(event.participants.values_list("member__user_id", flat=True))
    out = []
    for invitation in invitations:
        with club_scope(invitation.club):
            members = list(Member.objects.seatable().order_by("furigana", "display_name"))
        out.append(
            InvitedClub(
                invitation.club,
                tuple(Candidate(m, m.user_id in playing) for m in members),
            )
        )
    return out


def guests_add(*, event_id: int, home_member_ids: Sequence[int]) -> list[Member]:
    """Enter the members ``home_member_ids`` of the clubs invited to the event as its
    players, after those entered already. Each plays as their membership of the host club:
    their guest membership (made now if they have none: their own club's display name, with
    the club's name after it if another member of the host has that name), or the host's
    own membership where the login is one of its members already.

    Returns:
        The host club's memberships entered, in the order given.

    Raises:
        EventError: the event started; none given; a member of no invited club or not
            active there; one entered twice, or already playing in the event.
    """
    wanted = list(dict.fromkeys(int(pk) for pk in home_member_ids))
    if not wanted:
        raise EventError(_("Pick at least one guest."))
    with transaction.atomic():
        event = _open_event(event_id)
        invited = {g.club_id: g.club for g in event.guest_clubs.select_related("club")}
        homes = _home_members(wanted, invited)
        playing = set(event.participants.values_list("member__user_id", flat=True))
        again = [h.display_name for h in homes if h.user_id in playing]
        if again:
            raise EventError(
                _("Already playing in this tournament: %(names)s.") % {"names": ", ".join(again)}
            )
        entered = [_host_membership(home, invited[home.club_id or 0]) for home in homes]
        number = (event.participants.aggregate(top=Max("number"))["top"] or -1) + 1
        Participant.objects.bulk_create(
            Participant(event=event, member=member, number=number + offset)
            for offset, member in enumerate(entered)
        )
    return entered


def _home_members(wanted: Sequence[int], invited: Mapping[int, Club]) -> list[Member]:
    """The active memberships ``wanted`` of the invited clubs, in that order, each read in
    its club's scope.

    Raises:
        EventError: one that is no active member of an invited club.
    """
    found: dict[int, Member] = {}
    for club in invited.values():
        with club_scope(club):
            found.update((m.pk, m) for m in Member.objects.seatable().filter(pk__in=wanted))
    missing = [pk for pk in wanted if pk not in found]
    if missing:
        raise EventError(_("Only active members of an invited club can be entered as guests."))
    return [found[pk] for pk in wanted]


def _host_membership(home: Member, home_club: Club) -> Member:
    """The host club's membership ``home``'s login plays as: the one it has (a guest
    membership made for an earlier event is made active again and pointed at ``home``), or
    a new guest membership."""
    existing = Member.objects.filter(user_id=home.user_id).first()
    if existing is not None and not existing.is_guest and not existing.active:
        raise EventError(
            _(
                "%(name)s is a deactivated member of this club: reactivate them at the members "
                "desk to enter them."
            )
            % {"name": existing.display_name}
        )
    if existing is not None:
        if existing.is_guest and (not existing.active or existing.home_id != home.pk):
            existing.active = True
            existing.home = home
            existing.save(update_fields=["active", "home"])
            login_flags_sync(existing.user)
        return existing
    guest = Member.objects.create(
        user_id=home.user_id,
        display_name=_free_name(home.display_name, home_club.name),
        furigana=home.furigana,
        role=Member.Role.GUEST,
        home=home,
    )
    login_flags_sync(guest.user)
    return guest


def _free_name(name: str, club_name: str) -> str:
    """``name`` if no member of the host club has it; else ``name (club)``, then numbered."""
    taken = set(
        Member.objects.filter(display_name__istartswith=name).values_list("display_name", flat=True)
    )
    lowered = {t.casefold() for t in taken}
    if name.casefold() not in lowered:
        return name
    for number in range(1, 1000):
        suffix = f" ({club_name})" if number == 1 else f" ({club_name} {number})"
        candidate = name[: NAME_LIMIT - len(suffix)] + suffix
        if candidate.casefold() not in lowered:
            return candidate
    raise EventError(_("No free display name for %(name)s.") % {"name": name})


def guest_remove(*, event_id: int, member_id: int) -> None:
    """Take the guest ``member_id`` (a host membership of role guest) out of an event that
    has not started; the others keep their order, renumbered.

    Raises:
        EventError: the event started, or the member is no guest entered in it.
    """
    with transaction.atomic():
        event = _open_event(event_id)
        entry = event.participants.filter(member_id=member_id, member__role=Member.Role.GUEST)
        if not entry.delete()[0]:
            raise EventError(_("That guest is not entered in this tournament."))
        rest = list(event.participants.order_by("number"))
        event.participants.all().delete()
        Participant.objects.bulk_create(
            Participant(event=event, member_id=p.member_id, number=number)
            for number, p in enumerate(rest)
        )


def event_members(event: Event) -> QuerySet[Member]:
    """Whom the event's player picker lists: the club's seatable members and the guests
    entered in the event (active ones)."""
    return Member.objects.filter(
        Q(active=True),
        ~Q(role=Member.Role.GUEST) | Q(pk__in=event.participants.values("member_id")),
    )


def guests_of(event: Event) -> list[Member]:
    """The guests entered in ``event``, with their home membership and club, by name."""
    return list(
        _entered_guests(event).select_related("home__club").order_by("furigana", "display_name")
    )


# Pages of the host club a guest opens (clubsite.guest_access).

EVENT_PAGES = (
    "tournaments:detail",
    "tournaments:my_table",
    "tournaments:chart",
    "tournaments:csv",
    "tournaments:ics",
    "tournaments:board",
    "tournaments:round_clock",
)


def plays_in(guest: Member, kwargs: Mapping[str, Any]) -> bool:
    """The guest is entered in the event ``kwargs["pk"]``. One query."""
    return Participant.objects.filter(event_id=int(kwargs.get("pk", 0)), member=guest).exists()


def sits_at(guest: Member, kwargs: Mapping[str, Any]) -> bool:
    """The guest sits in the game ``kwargs["hanchan_id"]``. One query."""
    return Seat.objects.filter(hanchan_id=int(kwargs.get("hanchan_id", 0)), member=guest).exists()


def register() -> None:
    """Register the event pages open to the event's guests; the list of events shows a
    guest only their own (:func:`tournaments.views.event_list`)."""
    for name in EVENT_PAGES:
        allow_guests(name, plays_in)
    allow_guests("tournaments:table_clock", sits_at)
    allow_guests("tournaments:list", lambda _guest, _kwargs: True)
