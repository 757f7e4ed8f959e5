"""Meetup transitions after the final notice (rules-spec §5.2, T9-T12): change requests,
re-recruiting, moving or cancelling, marking held and reporting the results (the reminders
to confirm are ``meetings.reminders``')."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member
from meetings.models import (
    Action,
    CandidateDate,
    ChangeRequest,
    Meetup,
    Notice,
    State,
    Viewer,
    lineup_names,
    members_of,
)
from meetings.transitions import (
    MeetupError,
    announce,
    check,
    check_day_ahead,
    fill_seats,
    locked,
    reload,
    resolve,
    unseat,
)
from scoring.models import Hanchan

# T9, T10


@transaction.atomic
def meetup_request_change(*, meetup_id: int, by: Viewer, kind: str, message: str = "") -> Meetup:
    """A member of a confirmed line-up cancels or asks for a change (T9). The coordinator and
    the other members are told; the coordinator then decides (T10a–c).

    Raises:
        MeetupError: not in the line-up; not confirmed; asked already; an unknown kind.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.REQUEST_CHANGE, by)
    if kind not in ChangeRequest.Kind.values:
        raise MeetupError(_("Say whether you cancel or ask for a change."))
    member = Member.for_user(by)
    assert member is not None  # check: only the line-up asks
    ChangeRequest.objects.create(meetup=meetup, member=member, kind=kind, message=message.strip())
    announce(
        meetup,
        Notice.Kind.CHANGE_REQUESTED,
        by=member,
        params={"name": member.display_name, "kind": kind, "message": message.strip()},
        to=[meetup.coordinator, *members_of(meetup.lineup())],
    )
    return reload(meetup)


@transaction.atomic
def meetup_rerecruit(*, meetup_id: int, by: Viewer) -> Meetup:
    """Re-recruit the seats of the members who asked to cancel or change (面子再募集, T10a).

    Their seats go to the next applicants in order who can make the date (who are asked to
    confirm; the others' confirmations stand); with nobody waiting the meetup is recruiting
    for its date again. The coordinator posts the final notice again once the table is full
    and confirmed.

    Raises:
        MeetupError: not the coordinator; not confirmed; no open change request.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.RERECRUIT, by)
    requests = meetup.open_change_requests()
    leaving = {request.member_id for request in requests}
    out = [a for a in meetup.lineup() if a.member_id in leaving]
    for application in out:
        unseat(application, withdrawn=True)
    resolve(requests, "rerecruited")
    offered = fill_seats(meetup, timezone.now())
    assert meetup.date is not None
    announce(
        meetup,
        Notice.Kind.RERECRUITED,
        by=Member.for_user(by),
        params={
            "date": meetup.date.isoformat(),
            "names": lineup_names(out),
            "offered_to": lineup_names(offered),
            "open_seats": meetup.open_seats(),
        },
        to=[meetup.coordinator, *members_of(out), *members_of(meetup.applications_in_order())],
    )
    return meetup


@transaction.atomic
def meetup_move(
    *, meetup_id: int, by: Viewer, date: datetime.date, start_time: datetime.time
) -> Meetup:
    """Move a confirmed meetup to another date or time (日時変更, T10b). Everyone in the line-up
    must confirm again, so it is provisional until they have and the final notice is posted
    again. Applicants on the waiting list are taken to be available on the new date.

    Raises:
        MeetupError: not the coordinator; not confirmed; a date in the past; nothing changes.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.MOVE, by)
    if date < timezone.localdate():
        raise MeetupError(_("The new date cannot be in the past."))
    check_day_ahead(date)
    if date == meetup.date and start_time == meetup.start_time:
        raise MeetupError(_("That is the date and time it has already."))
    candidate, _created = CandidateDate.objects.get_or_create(meetup=meetup, date=date)
    now = timezone.now()
    actor = Member.for_user(by)
    for application in meetup.applications_in_order():
        application.dates.add(candidate)
        if application.seated:
            application.confirm_requested_at = now
            application.confirmed_at = now if application.member == actor else None
            application.reminded_at = None
            application.save()
    resolve(meetup.open_change_requests(), "moved")
    meetup.date = date
    meetup.start_time = start_time
    meetup.state = State.PROVISIONAL
    meetup.save()
    announce(
        meetup,
        Notice.Kind.MOVED,
        by=actor,
        params={"date": date.isoformat(), "time": meetup.time_text(), "venue": meetup.venue.name},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return reload(meetup)


@transaction.atomic
def meetup_cancel(*, meetup_id: int, by: Viewer) -> Meetup:
    """Cancel a confirmed meetup (中止, T10c).

    Raises:
        MeetupError: not the coordinator; not confirmed.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.CANCEL, by)
    resolve(meetup.open_change_requests(), "cancelled")
    meetup.state = State.CANCELLED
    meetup.save()
    assert meetup.date is not None
    announce(
        meetup,
        Notice.Kind.CANCELLED,
        by=Member.for_user(by),
        params={"date": meetup.date.isoformat(), "venue": meetup.venue.name},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return meetup


# T11, T12


@transaction.atomic
def meetup_mark_held(*, meetup_id: int, by: Viewer) -> Meetup:
    """The meetup took place (T11); open change requests are closed with it.

    Raises:
        MeetupError: not the coordinator; not confirmed; its day has not come.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.MARK_HELD, by)
    resolve(meetup.open_change_requests(), "held")
    meetup.state = State.HELD
    meetup.save()
    assert meetup.date is not None
    announce(
        meetup,
        Notice.Kind.HELD,
        by=Member.for_user(by),
        params={"date": meetup.date.isoformat()},
        to=members_of(meetup.lineup()),
    )
    return meetup


@transaction.atomic
def meetup_report(
    *, meetup_id: int, by: Viewer, hanchans: Sequence[Hanchan], note: str = ""
) -> Meetup:
    """Report the results (対戦記録報告, T12): link the hanchans played, with an optional note.

    Only finished games of the meetup's date whose players are all in its line-up can be
    linked (``Meetup.report_candidates``).

    Raises:
        MeetupError: not the coordinator; not held; a game that does not belong; neither games
            nor a note.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.REPORT, by)
    allowed = set(meetup.report_candidates().values_list("pk", flat=True))
    if any(game.pk not in allowed for game in hanchans):
        raise MeetupError(_("Only games of this meetup's day and line-up can be reported."))
    if not hanchans and not note.strip():
        raise MeetupError(_("Pick the games played, or write a few words."))
    meetup.hanchans.set(hanchans)
    meetup.report_note = note.strip()
    meetup.state = State.REPORTED
    meetup.save()
    assert meetup.date is not None
    announce(
        meetup,
        Notice.Kind.REPORTED,
        by=Member.for_user(by),
        params={"date": meetup.date.isoformat(), "games": len(hanchans)},
        to=members_of(meetup.lineup()),
    )
    return meetup


# Helpers
