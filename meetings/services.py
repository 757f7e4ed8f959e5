"""Meetup transitions (rules-spec §5.2, T1–T12; see ``meetings/models.py`` for the table and the
decisions on what the spec leaves open), and the reminders.

Each function is one transaction on a locked meetup. It first asks the meetup whether ``by`` may
take the action now (:meth:`Meetup.refusal`); if not it raises :class:`MeetupError` and changes
nothing. Otherwise it writes the change and one :class:`Notice`, whose e-mails go out after the
commit (``meetings/emails.py``), so a refused or failed change sends nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member, seating_refusal
from meetings.changes import (
    meetup_cancel,
    meetup_mark_held,
    meetup_move,
    meetup_report,
    meetup_request_change,
    meetup_rerecruit,
)
from meetings.models import (
    Action,
    Application,
    CandidateDate,
    Meetup,
    Notice,
    State,
    Venue,
    Viewer,
    lineup_names,
    members_of,
)
from meetings.reminders import reminders_send
from meetings.transitions import (
    MeetupError,
    announce,
    check,
    check_day_ahead,
    fill_seats,
    locked,
    reload,
    unseat,
)
from scoring.engine import load_ruleset

__all__ = [
    "MeetupError",
    "meetup_apply",
    "meetup_call_off",
    "meetup_cancel",
    "meetup_confirm",
    "meetup_declare",
    "meetup_finalize",
    "meetup_mark_held",
    "meetup_move",
    "meetup_post",
    "meetup_report",
    "meetup_request_change",
    "meetup_rerecruit",
    "meetup_withdraw",
    "reminders_send",
]


# T1


@transaction.atomic
def meetup_post(
    *,
    by: Viewer,
    dates: Iterable[datetime.date],
    venue: Venue,
    ruleset_id: str,
    start_time: datetime.time = datetime.time(19, 0),
    tables: int = 1,
    note: str = "",
    coordinator_plays: bool = True,
) -> Meetup:
    """Post a call for players ("X日、Y日面子募集"); ``by`` becomes its coordinator.

    With ``coordinator_plays`` the coordinator is the first applicant, for every date.

    Raises:
        MeetupError: ``by`` is not a member; no dates, or a date in the past; an unknown
            ruleset; fewer than one table.
    """
    member = Member.for_user(by)
    if member is None:
        raise MeetupError(_("Only club members can post a meetup."), forbidden=True)
    days = sorted(set(dates))
    if not days:
        raise MeetupError(_("Give at least one date."))
    if days[0] < timezone.localdate():
        raise MeetupError(_("Candidate dates cannot be in the past."))
    check_day_ahead(days[-1])
    try:
        ruleset = load_ruleset(ruleset_id)
    except KeyError:
        raise MeetupError(_("Unknown ruleset.")) from None
    if tables < 1:
        raise MeetupError(_("A meetup needs at least one table."))
    meetup = Meetup.objects.create(
        coordinator=member,
        venue=venue,
        ruleset_id=ruleset_id,
        seats_per_table=ruleset.players,
        tables=tables,
        start_time=start_time,
        note=note,
    )
    candidates = CandidateDate.objects.bulk_create(
        CandidateDate(meetup=meetup, date=day) for day in days
    )
    if coordinator_plays:
        application = Application.objects.create(
            meetup=meetup, member=member, applied_at=timezone.now()
        )
        application.dates.set(candidates)
    announce(
        meetup,
        Notice.Kind.POSTED,
        by=member,
        params={
            "dates": [day.isoformat() for day in days],
            "time": meetup.time_text(),
            "venue": venue.name,
        },
        to=[],
    )
    return meetup


# T2, T3


@transaction.atomic
def meetup_apply(
    *, meetup_id: int, by: Viewer, dates: Iterable[datetime.date] | None = None
) -> Meetup:
    """Apply to play (T2), in arrival order; applying again after withdrawing starts at the back.

    While the call is open ``dates`` are the candidate dates the member can make (all of them
    when None). Once a date is declared the application is for that date: it takes an open seat
    straight away while seats are being re-recruited (and asks for a confirmation), else it
    joins the waiting list.

    Raises:
        MeetupError: not a member, already applied, not taking applications, a date that is not
            one of the call's.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.APPLY, by)
    member = Member.for_user(by)
    assert member is not None  # check refuses visitors without a profile
    candidates = {candidate.date: candidate for candidate in meetup.candidate_dates.all()}
    if meetup.date is not None:
        chosen = [candidates[meetup.date]]
    else:
        wanted = set(candidates) if dates is None else set(dates)
        if not wanted:
            raise MeetupError(_("Tick at least one date you can make."))
        if not wanted <= set(candidates):
            raise MeetupError(_("That is not one of this meetup's dates."))
        chosen = [candidates[day] for day in sorted(wanted)]
    now = timezone.now()
    application, _created = Application.objects.update_or_create(
        meetup=meetup,
        member=member,
        defaults={
            "applied_at": now,
            "withdrawn_at": None,
            "seated": False,
            "confirm_requested_at": None,
            "confirmed_at": None,
            "reminded_at": None,
        },
    )
    application.dates.set(chosen)
    meetup = reload(meetup)
    params: dict[str, object] = {"name": member.display_name}
    asked: list[Member] = []
    if meetup.date is not None:
        if meetup.state == State.RECRUITING and meetup.open_seats():
            offered = fill_seats(meetup, now)
            params["seated"] = application.pk in {a.pk for a in offered}
            params["full"] = meetup.state == State.PROVISIONAL
            # "Please confirm" is for whoever has a confirmation to give (the member who
            # took the seat first of all), not for those who have given theirs.
            asked = members_of(a for a in meetup.lineup() if a.awaiting_confirmation())
        else:
            params["waiting"] = True
    announce(
        meetup,
        Notice.Kind.APPLIED,
        by=member,
        params=params,
        to=[meetup.coordinator],
        asked_to_confirm=asked,
    )
    return meetup


@transaction.atomic
def meetup_withdraw(*, meetup_id: int, by: Viewer) -> Meetup:
    """Withdraw an application (T3; promptly, please). Withdrawing from a provisional line-up
    reopens the seat: it goes to the next applicant in order who can make the date, or the
    meetup goes back to recruiting for it. After the final notice members of the line-up ask
    for a change instead (:func:`meetup_request_change`).

    Raises:
        MeetupError: not an applicant; after the final notice while in the line-up; the meetup
            is over.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.WITHDRAW, by)
    application = meetup.application_of(Member.for_user(by))
    assert application is not None  # check: only applicants withdraw
    was_seated = application.seated
    unseat(application, withdrawn=True)
    params: dict[str, object] = {"name": application.member.display_name}
    to = [meetup.coordinator]
    if was_seated and meetup.date is not None:
        offered = fill_seats(meetup, timezone.now())
        params["offered_to"] = lineup_names(offered)
        params["open_seats"] = meetup.open_seats()
        to += members_of(meetup.lineup())
    announce(meetup, Notice.Kind.WITHDREW, by=application.member, params=params, to=to)
    return meetup


# T4–T8


@transaction.atomic
def meetup_declare(
    *,
    meetup_id: int,
    by: Viewer,
    date: datetime.date,
    members: Sequence[Member] | None = None,
) -> Meetup:
    """Declare the provisional line-up for one candidate date (T4, "X日成立、メンバーA、B、C、D")
    and ask each member to confirm. The other candidate dates close.

    ``members`` defaults to the first applicants who can make ``date`` (whole tables, at most
    as many as the call asked for); the coordinator may pick any applicants instead, as long as
    they make whole tables. A coordinator in the line-up counts as confirmed.

    Raises:
        MeetupError: not the coordinator; the call is not open; not a candidate date; someone
            who has not applied or is deactivated; not a whole number of
            tables.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.DECLARE, by)
    if date not in [candidate.date for candidate in meetup.open_dates()]:
        raise MeetupError(_("That is not one of this meetup's dates."))
    if members is None:
        lineup = meetup.default_lineup(date)
    else:
        by_member = {a.member_id: a for a in meetup.applications_in_order()}
        strangers = [m.display_name for m in members if m.pk not in by_member]
        if strangers:
            raise MeetupError(
                _("%(names)s has not applied to this meetup.") % {"names": ", ".join(strangers)}
            )
        refusal = seating_refusal(members)
        if refusal:
            raise MeetupError(refusal)
        picked = {m.pk for m in members}
        lineup = [a for a in meetup.applications_in_order() if a.member_id in picked]
    if not lineup or len(lineup) % meetup.seats_per_table:
        raise MeetupError(
            _("A line-up is one or more whole tables of %(n)d players.")
            % {"n": meetup.seats_per_table}
        )
    now = timezone.now()
    actor = Member.for_user(by)
    for application in lineup:
        application.seated = True
        application.confirm_requested_at = now
        application.confirmed_at = now if application.member == actor else None
        application.reminded_at = None
        application.save()
    meetup.date = date
    meetup.tables = len(lineup) // meetup.seats_per_table
    meetup.state = State.PROVISIONAL
    meetup.save()
    announce(
        meetup,
        Notice.Kind.DECLARED,
        by=actor,
        params={"date": date.isoformat(), "names": lineup_names(lineup)},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return meetup


@transaction.atomic
def meetup_confirm(*, meetup_id: int, by: Viewer) -> Meetup:
    """A member of the provisional line-up confirms ("確認しました", T5).

    Raises:
        MeetupError: not in the line-up; nothing to confirm now; confirmed already.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.CONFIRM, by)
    application = meetup.application_of(Member.for_user(by))
    assert application is not None  # check: only the line-up confirms
    application.confirmed_at = timezone.now()
    application.save(update_fields=["confirmed_at"])
    announce(
        meetup,
        Notice.Kind.CONFIRMED,
        by=application.member,
        params={"name": application.member.display_name, "everyone": meetup.everyone_confirmed()},
        to=[meetup.coordinator],
    )
    return meetup


@transaction.atomic
def meetup_finalize(*, meetup_id: int, by: Viewer) -> Meetup:
    """Post the final notice with date, time and venue ("X日１９時ビック", T6).

    Raises:
        MeetupError: not the coordinator; not provisional; someone has not confirmed.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.FINALIZE, by)
    meetup.state = State.CONFIRMED
    meetup.save()
    assert meetup.date is not None
    announce(
        meetup,
        Notice.Kind.FINALIZED,
        by=Member.for_user(by),
        params={
            "date": meetup.date.isoformat(),
            "time": meetup.time_text(),
            "venue": meetup.venue.name,
            "names": lineup_names(meetup.lineup()),
        },
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return meetup


@transaction.atomic
def meetup_call_off(*, meetup_id: int, by: Viewer) -> Meetup:
    """Declare the meetup not established (不成立, T7 while recruiting, T8 while provisional).

    Raises:
        MeetupError: not the coordinator; already confirmed or over.
    """
    meetup = locked(meetup_id)
    check(meetup, Action.CALL_OFF, by)
    days = meetup.days()
    meetup.state = State.NOT_ESTABLISHED
    meetup.save()
    announce(
        meetup,
        Notice.Kind.CALLED_OFF,
        by=Member.for_user(by),
        params={"dates": [day.isoformat() for day in days]},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return meetup
