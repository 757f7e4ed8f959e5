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
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member
from meetings import emails
from meetings.models import (
    Action,
    Application,
    CandidateDate,
    ChangeRequest,
    Meetup,
    Notice,
    State,
    Venue,
    Viewer,
    lineup_names,
    members_of,
)
from scoring.engine import load_ruleset
from scoring.models import Hanchan


class MeetupError(Exception):
    """An action on a meetup that is refused; nothing was changed.

    ``str(error)`` is a message for the person who tried, in their language. ``forbidden`` is
    true when the action is not theirs to take at all (someone else's button), false when it is
    only the wrong moment (the meetup is in another state, a form value does not fit).
    """

    def __init__(self, message: str, *, forbidden: bool = False) -> None:
        super().__init__(message)
        self.forbidden = forbidden


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
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.APPLY, by)
    member = Member.for_user(by)
    assert member is not None  # _check refuses visitors without a profile
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
    meetup = _reload(meetup)
    params: dict[str, object] = {"name": member.display_name}
    to = [meetup.coordinator]
    if meetup.date is not None:
        if meetup.state == State.RECRUITING and meetup.open_seats():
            offered = _fill_seats(meetup, now)
            params["seated"] = application.pk in {a.pk for a in offered}
            params["full"] = meetup.state == State.PROVISIONAL
            if params["full"]:
                to += members_of(meetup.lineup())
        else:
            params["waiting"] = True
    _announce(meetup, Notice.Kind.APPLIED, by=member, params=params, to=to)
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.WITHDRAW, by)
    application = meetup.application_of(Member.for_user(by))
    assert application is not None  # _check: only applicants withdraw
    was_seated = application.seated
    _unseat(application, withdrawn=True)
    params: dict[str, object] = {"name": application.member.display_name}
    to = [meetup.coordinator]
    if was_seated and meetup.date is not None:
        offered = _fill_seats(meetup, timezone.now())
        params["offered_to"] = lineup_names(offered)
        params["open_seats"] = meetup.open_seats()
        to += members_of(meetup.lineup())
    _announce(meetup, Notice.Kind.WITHDREW, by=application.member, params=params, to=to)
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
            who has not applied; not a whole number of tables.
    """
    meetup = _locked(meetup_id)
    _check(meetup, Action.DECLARE, by)
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
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.CONFIRM, by)
    application = meetup.application_of(Member.for_user(by))
    assert application is not None  # _check: only the line-up confirms
    application.confirmed_at = timezone.now()
    application.save(update_fields=["confirmed_at"])
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.FINALIZE, by)
    meetup.state = State.CONFIRMED
    meetup.save()
    assert meetup.date is not None
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.CALL_OFF, by)
    days = meetup.days()
    meetup.state = State.NOT_ESTABLISHED
    meetup.save()
    _announce(
        meetup,
        Notice.Kind.CALLED_OFF,
        by=Member.for_user(by),
        params={"dates": [day.isoformat() for day in days]},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return meetup


# T9, T10


@transaction.atomic
def meetup_request_change(*, meetup_id: int, by: Viewer, kind: str, message: str = "") -> Meetup:
    """A member of a confirmed line-up cancels or asks for a change (T9). The coordinator and
    the other members are told; the coordinator then decides (T10a–c).

    Raises:
        MeetupError: not in the line-up; not confirmed; asked already; an unknown kind.
    """
    meetup = _locked(meetup_id)
    _check(meetup, Action.REQUEST_CHANGE, by)
    if kind not in ChangeRequest.Kind.values:
        raise MeetupError(_("Say whether you cancel or ask for a change."))
    member = Member.for_user(by)
    assert member is not None  # _check: only the line-up asks
    ChangeRequest.objects.create(meetup=meetup, member=member, kind=kind, message=message.strip())
    _announce(
        meetup,
        Notice.Kind.CHANGE_REQUESTED,
        by=member,
        params={"name": member.display_name, "kind": kind, "message": message.strip()},
        to=[meetup.coordinator, *members_of(meetup.lineup())],
    )
    return _reload(meetup)


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
    meetup = _locked(meetup_id)
    _check(meetup, Action.RERECRUIT, by)
    requests = meetup.open_change_requests()
    leaving = {request.member_id for request in requests}
    out = [a for a in meetup.lineup() if a.member_id in leaving]
    for application in out:
        _unseat(application, withdrawn=True)
    _resolve(requests, "rerecruited")
    offered = _fill_seats(meetup, timezone.now())
    assert meetup.date is not None
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.MOVE, by)
    if date < timezone.localdate():
        raise MeetupError(_("The new date cannot be in the past."))
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
    _resolve(meetup.open_change_requests(), "moved")
    meetup.date = date
    meetup.start_time = start_time
    meetup.state = State.PROVISIONAL
    meetup.save()
    _announce(
        meetup,
        Notice.Kind.MOVED,
        by=actor,
        params={"date": date.isoformat(), "time": meetup.time_text(), "venue": meetup.venue.name},
        to=[meetup.coordinator, *members_of(meetup.applications_in_order())],
    )
    return _reload(meetup)


@transaction.atomic
def meetup_cancel(*, meetup_id: int, by: Viewer) -> Meetup:
    """Cancel a confirmed meetup (中止, T10c).

    Raises:
        MeetupError: not the coordinator; not confirmed.
    """
    meetup = _locked(meetup_id)
    _check(meetup, Action.CANCEL, by)
    _resolve(meetup.open_change_requests(), "cancelled")
    meetup.state = State.CANCELLED
    meetup.save()
    assert meetup.date is not None
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.MARK_HELD, by)
    _resolve(meetup.open_change_requests(), "held")
    meetup.state = State.HELD
    meetup.save()
    assert meetup.date is not None
    _announce(
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
    meetup = _locked(meetup_id)
    _check(meetup, Action.REPORT, by)
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
    _announce(
        meetup,
        Notice.Kind.REPORTED,
        by=Member.for_user(by),
        params={"date": meetup.date.isoformat(), "games": len(hanchans)},
        to=members_of(meetup.lineup()),
    )
    return meetup


# Reminders


def reminders_send(*, after: datetime.timedelta, now: datetime.datetime | None = None) -> int:
    """E-mail each member of a provisional line-up who was asked to confirm more than ``after``
    ago and has not, once per request to confirm (``Application.reminded_at``). Returns how many
    members were reminded."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Application.objects.select_for_update(skip_locked=True).filter(
                meetup__state=State.PROVISIONAL,
                seated=True,
                withdrawn_at__isnull=True,
                confirmed_at__isnull=True,
                reminded_at__isnull=True,
                confirm_requested_at__lte=now - after,
            )
        )
        for application in due:
            application.reminded_at = now
            application.save(update_fields=["reminded_at"])
        ids = [application.pk for application in due]
        if ids:
            transaction.on_commit(partial(emails.reminder_emails_send, ids), robust=True)
    return len(ids)


# Helpers


def _locked(meetup_id: int) -> Meetup:
    """The meetup, locked until the end of the transaction, with what its checks read."""
    try:
        Meetup.objects.select_for_update().only("pk").get(pk=meetup_id)
    except Meetup.DoesNotExist:
        raise MeetupError(_("There is no such meetup."), forbidden=True) from None
    return Meetup.objects.for_page().get(pk=meetup_id)


def _reload(meetup: Meetup) -> Meetup:
    return Meetup.objects.for_page().get(pk=meetup.pk)


def _check(meetup: Meetup, action: Action, by: Viewer) -> None:
    refusal = meetup.refusal(action, by)
    if refusal is not None:
        raise MeetupError(refusal.message, forbidden=refusal.forbidden)


def _unseat(application: Application, *, withdrawn: bool) -> None:
    application.seated = False
    application.confirm_requested_at = None
    application.confirmed_at = None
    application.reminded_at = None
    if withdrawn:
        application.withdrawn_at = timezone.now()
    application.save()


def _fill_seats(meetup: Meetup, now: datetime.datetime) -> list[Application]:
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


def _resolve(requests: Iterable[ChangeRequest], decision: str) -> None:
    now = timezone.now()
    for request in requests:
        request.resolved_at = now
        request.decision = decision
        request.save(update_fields=["resolved_at", "decision"])


def _announce(
    meetup: Meetup,
    kind: str,
    *,
    by: Member | None,
    params: dict[str, object],
    to: Iterable[Member],
) -> Notice:
    """Store the notice and e-mail it, after the commit, to ``to`` (but not to whoever did it:
    they know) and to the club's list address."""
    notice = Notice.objects.create(meetup=meetup, kind=kind, actor=by, params=params)
    recipients = list(dict.fromkeys(m.pk for m in to if m != by))
    transaction.on_commit(partial(emails.notice_emails_send, notice.pk, recipients), robust=True)
    return notice
