"""The states of a meetup, the actions on it and the answer when one is refused.

Club meetups: venues, calls for players, line-ups, confirmations and their notices.

The flow is the one of seed 001 ("ミーティングのスケジュール調整", L404–466), written out as a
state machine in rules-spec §5.2. Every transition is a function of ``meetings/services.py``;
the model below says which of them a person may take now (:meth:`Meetup.refusal`), so that the
pages offer exactly the buttons the services accept.

======  ==============================  ===========================================================
 #      from → to                       who
======  ==============================  ===========================================================
 T1     (none) → RECRUITING             any member posts a call ("X日、Y日面子募集") and so
                                        becomes its coordinator
 T2     RECRUITING → RECRUITING         a member applies; applications count in arrival order
 T3     RECRUITING → RECRUITING         an applicant withdraws
 T4     RECRUITING → PROVISIONAL        the coordinator declares the line-up for one date
                                        (仮成立); the first applicants by default, or picked
 T5     PROVISIONAL → PROVISIONAL       each member of the line-up confirms (確認しました)
 T6     PROVISIONAL → CONFIRMED         the coordinator posts the final notice (本成立) once
                                        everyone has confirmed
 T7/T8  RECRUITING/PROVISIONAL →        the coordinator declares it not established (不成立)
        NOT_ESTABLISHED
 T9     CONFIRMED (change requested)    a member of the line-up cancels or asks for a change
                                        (the state stays CONFIRMED; a ChangeRequest is open)
 T10a   CONFIRMED → RECRUITING          the coordinator re-recruits the seats of those who asked
        (or straight to PROVISIONAL)    (面子再募集)
 T10b   CONFIRMED → PROVISIONAL         the coordinator moves the date or time (日時変更)
 T10c   CONFIRMED → CANCELLED           the coordinator cancels (中止)
 T11    CONFIRMED → HELD                the coordinator, on or after the day (開催済)
 T12    HELD → REPORTED                 the coordinator links the hanchans played (結果報告)
======  ==============================  ===========================================================

"The coordinator" always means the meetup's coordinator or a steward of the club
(``clubsite.permissions.may_act_for_coordinators``), who may act for an unreachable
coordinator. Anything else (a wrong state, someone else's button) is refused with a message and
changes nothing.

What the spec leaves open (rules-spec §5.2 "Not stated", §6.6 T-08), decided here:

* **Candidate dates.** A call has one or more candidate dates and one start time (19:00 unless
  the coordinator says otherwise). Applicants tick the dates they can make. When the line-up is
  declared for one date the other dates are closed: from then on the meetup is about that date,
  and new applicants join the waiting list for it.
* **Tables.** A line-up is a whole number of tables: a multiple of the ruleset's players (4, or
  3 for sanma). The call says how many tables are wanted; the coordinator may declare fewer
  (or more) whole tables if that is who applied. ``tables`` then holds the declared number.
* **Withdrawal while provisional** (and while re-recruiting) reopens that seat: it goes to the
  next applicant in arrival order who can make the date, who is asked to confirm; the others'
  confirmations stand, since date, time and venue did not change. With nobody waiting the meetup
  goes back to RECRUITING for that date, and the next applicant fills the seat automatically
  (back to PROVISIONAL when the table is full again). The coordinator then posts the final notice
  again (T6).
* **Change requests after the final notice.** A member of the line-up may not simply withdraw:
  they cancel or ask for a change (T9), which tells the coordinator and the other members. The
  coordinator decides: re-recruit (T10a: the seats of those who asked reopen as above), move the
  date/time (T10b: **everyone must confirm again**, so the meetup is PROVISIONAL until they have
  and the final notice is posted again), or cancel (T10c). Any decision closes the open requests.
* **Confirmation deadline.** None that ends anything: ``manage.py send_meetup_reminders`` (run
  from cron) e-mails a member who has not confirmed ``MEETUP_REMINDER_HOURS`` (24) hours after
  being asked, once per request to confirm; whether to give up (T8) stays the coordinator's call.
* **The coordinator's own confirmation.** A coordinator who is in the line-up confirms by
  declaring it (or by moving the date): they are the one asking.
* **Phone numbers** of a meetup's applicants are shown to its coordinator while the meetup is
  being arranged (recruiting, provisional, confirmed) and to stewards; never to other members
  and never in e-mail (see :func:`phone_visible_to`).
* **Notices** are stored as a kind and parameters, not as text, so each reader sees them in
  their own language; e-mails go out in the recipient's last-used language (:class:`MeetupProfile`,
  recorded whenever they use the meetup pages), Japanese until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db import models
from django.utils.translation import pgettext_lazy


class State(models.TextChoices):
    RECRUITING = "recruiting", pgettext_lazy("meetup state", "recruiting")
    PROVISIONAL = "provisional", pgettext_lazy("meetup state", "provisional")
    CONFIRMED = "confirmed", pgettext_lazy("meetup state", "confirmed")
    HELD = "held", pgettext_lazy("meetup state", "held")
    REPORTED = "reported", pgettext_lazy("meetup state", "reported")
    NOT_ESTABLISHED = "not_established", pgettext_lazy("meetup state", "not established")
    CANCELLED = "cancelled", pgettext_lazy("meetup state", "cancelled")


# While a meetup is being arranged its coordinator may need to phone its applicants.
ARRANGING = (State.RECRUITING, State.PROVISIONAL, State.CONFIRMED)
# States with a date everyone has agreed on: calendars show these.
ON_THE_CALENDAR = (State.CONFIRMED, State.HELD, State.REPORTED)


class Action(StrEnum):
    """What someone may do to a meetup; the services' names without the ``meetup_`` prefix."""

    APPLY = "apply"
    WITHDRAW = "withdraw"
    DECLARE = "declare"
    CONFIRM = "confirm"
    FINALIZE = "finalize"
    CALL_OFF = "call_off"
    REQUEST_CHANGE = "request_change"
    RERECRUIT = "rerecruit"
    MOVE = "move"
    CANCEL = "cancel"
    MARK_HELD = "mark_held"
    REPORT = "report"


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused: a message for the person who tried, and whether it is theirs to
    take at all (``forbidden``: 403) or only not now (a wrong state: 409)."""

    message: str
    forbidden: bool
