"""What every meetup transition shares: the refusal error, the locked meetup and its
refusal check, seats given and taken, and the notice that announces a change (its e-mails go
out after the commit, ``meetings/emails.py``)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member
from meetings import emails, reminders
from meetings.models import (
    Action,
    Application,
    ChangeRequest,
    Meetup,
    Notice,
    State,
    Viewer,
)
from meetings.notices import revises


class MeetupError(Exception):
    """An action on a meetup that is refused; nothing was changed.

    ``str(error)`` is a message for the person who tried, in their language. ``forbidden`` is
    true when the action is not theirs to take at all (someone else's button), false when it is
    only the wrong moment (the meetup is in another state, a form value does not fit).
    """

    def __init__(self, message: str, *, forbidden: bool = False) -> None:
        super().__init__(message)
        self.forbidden = forbidden


def locked(meetup_id: int) -> Meetup:
    """The meetup, locked until the end of the transaction, with what its checks read."""
    try:
        Meetup.objects.select_for_update().only("pk").get(pk=meetup_id)
    except Meetup.DoesNotExist:
        raise MeetupError(_("There is no such meetup."), forbidden=True) from None
    return Meetup.objects.for_page().get(pk=meetup_id)


def reload(meetup: Meetup) -> Meetup:
    """``meetup`` read again with what its page shows (after a change in this transaction)."""
    return Meetup.objects.for_page().get(pk=meetup.pk)


def check(meetup: Meetup, action: Action, by: Viewer) -> None:
    """Refuse ``action`` by ``by`` on ``meetup`` now, as :meth:`Meetup.refusal` says.

    Raises:
        MeetupError: the refusal's message; ``forbidden`` when it is not theirs to take.
    """
    refusal = meetup.refusal(action, by)
    if refusal is not None:
        raise MeetupError(refusal.message, forbidden=refusal.forbidden)


def unseat(application: Application, *, withdrawn: bool) -> None:
    """Take ``application`` out of the line-up (``withdrawn``: out of the meetup too)."""
    application.seated = False
    application.confirm_requested_at = None
    application.confirmed_at = None
    application.reminded_at = None
    if withdrawn:
        application.withdrawn_at = timezone.now()
    application.save()


def fill_seats(meetup: Meetup, now: datetime.datetime) -> list[Application]:
    """Give the open seats to the waiting applicants who can make the date, in arrival order,
    and ask them to confirm; the meetup is provisional when the line-up is full, recruiting for
    its date otherwise. Returns the applicants seated."""
    assert meetup.date is not None
    offered = meetup.waiting_for(meetup.date)[: meetup.open_seats()]
    for application in offered:
        application.seated = True
        application.confirm_requested_at = now
        application.confirmed_at = None
        application.reminded_at = None
        application.save()
    meetup.state = State.PROVISIONAL if meetup.open_seats() == 0 else State.RECRUITING
    meetup.save()
    return offered


def resolve(requests: Iterable[ChangeRequest], decision: str) -> None:
    """Close the open change ``requests`` with the coordinator's ``decision``."""
    now = timezone.now()
    for request in requests:
        request.resolved_at = now
        request.decision = decision
        request.save(update_fields=["resolved_at", "decision"])


def announce(
    meetup: Meetup,
    kind: str,
    *,
    by: Member | None,
    params: dict[str, object],
    to: Iterable[Member],
    asked_to_confirm: Iterable[Member] = (),
) -> Notice:
    """Store the notice and e-mail it, after the commit, to ``to`` (but not to whoever did it:
    they know), to ``asked_to_confirm`` (even whoever did it: they have a confirmation to
    give) and to the club's list address. A notice of a change of the meetup itself is a new
    revision of its calendar event. After the commit the reminders are scheduled anew
    (``meetings.reminders.schedule_reminders``)."""
    notice = Notice.objects.create(meetup=meetup, kind=kind, actor=by, params=params)
    if revises(kind, params):
        bump_sequence(meetup)
    recipients = list(
        dict.fromkeys([*(m.pk for m in to if m != by), *(m.pk for m in asked_to_confirm)])
    )
    # After the commit, through the task framework, so that a slow mail server never holds a
    # request once a queue backend is configured (the immediate backend sends right away).
    transaction.on_commit(
        partial(emails.send_notice_emails.enqueue, notice.pk, recipients, club_id=meetup.club_id),
        robust=True,
    )
    # Whoever this asked to confirm is reminded when their time comes (with the worker).
    transaction.on_commit(partial(reminders.schedule_reminders, meetup.pk), robust=True)
    return notice


def bump_sequence(meetup: Meetup) -> None:
    """One more revision of ``meetup``'s calendar event (the row is locked: ``locked``)."""
    meetup.sequence += 1
    Meetup.objects.filter(pk=meetup.pk).update(sequence=meetup.sequence)


# A meetup is arranged at most this far ahead (a date like 9999-12-31 once broke the calendar
# files of everyone in the meetup).
MAX_DAYS_AHEAD = 2 * 366


def check_day_ahead(day: datetime.date) -> None:
    """Raises :class:`MeetupError` for a day more than two years ahead."""
    if day > timezone.localdate() + datetime.timedelta(days=MAX_DAYS_AHEAD):
        raise MeetupError(_("A meetup is arranged at most two years ahead."))
