"""Club meetups: venues, calls for players, line-ups, confirmations and their notices.

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

"The coordinator" always means the meetup's coordinator or a steward (``is_staff``), who may act
for an unreachable coordinator. Anything else (a wrong state, someone else's button) is refused
with a message and changes nothing.

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

import datetime
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubsite.formatting import settlement_points
from clubsite.models import Member
from clubsite.permissions import is_steward
from scoring.models import Hanchan

Viewer = AbstractBaseUser | AnonymousUser

# A meetup night is booked in calendars for this long; the seed gives only the start time.
MEETUP_DURATION = datetime.timedelta(hours=4)


class Venue(models.Model):
    """A place where the club meets (seed 001 L467–481; 2010-era details, editable by staff)."""

    class Role(models.TextChoices):
        MAIN = "main", _("main venue")
        TOURNAMENT = "tournament", _("tournament venue")
        BACKUP = "backup", _("backup venue")

    name = models.CharField(_("name"), max_length=80, unique=True)
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MAIN)
    address = models.CharField(_("address"), max_length=200)
    directions = models.TextField(_("directions"), blank=True)
    phone = models.CharField(_("phone number"), max_length=30, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")

    def __str__(self) -> str:
        return self.name

    @classmethod
    def default(cls) -> Venue | None:
        """The venue a new call proposes: the main venue ("X日１９時ビック")."""
        return cls.objects.filter(role=cls.Role.MAIN).first() or cls.objects.first()


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


class MeetupQuerySet(models.QuerySet["Meetup"]):
    def being_arranged(self) -> MeetupQuerySet:
        return self.filter(state__in=ARRANGING)

    def on_the_calendar(self) -> MeetupQuerySet:
        return self.filter(state__in=ON_THE_CALENDAR, date__isnull=False)

    def listed(self) -> MeetupQuerySet:
        """Open calls first, then line-ups being confirmed, then confirmed meetups, then the
        rest (held, reported, not established, cancelled), newest first."""
        rank = models.Case(
            models.When(state=State.RECRUITING, then=0),
            models.When(state=State.PROVISIONAL, then=1),
            models.When(state=State.CONFIRMED, then=2),
            default=3,
        )
        first_day = models.Min("candidate_dates__date")
        return (
            self.select_related("venue", "coordinator")
            .annotate(list_rank=rank, first_day=first_day)
            .order_by("list_rank", "date", "first_day", "-pk")
        )

    def for_page(self) -> MeetupQuerySet:
        """With everything a meetup's page reads, in a fixed number of queries."""
        return self.select_related("venue", "coordinator__user").prefetch_related(
            "candidate_dates",
            models.Prefetch(
                "applications",
                queryset=Application.objects.select_related("member__user").prefetch_related(
                    "dates"
                ),
            ),
            "change_requests__member",
            "notices",
        )


class Meetup(models.Model):
    """A meetup from the call for players to the report of its results (see the module)."""

    coordinator = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="coordinated_meetups",
        verbose_name=_("coordinator"),
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.RECRUITING, db_index=True
    )
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="meetups", verbose_name=_("venue")
    )
    ruleset_id = models.SlugField(_("ruleset"), max_length=40)
    seats_per_table = models.PositiveSmallIntegerField(_("players per table"))
    tables = models.PositiveSmallIntegerField(_("tables"), default=1)
    start_time = models.TimeField(_("start time"), default=datetime.time(19, 0))
    date = models.DateField(_("date"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)
    report_note = models.TextField(_("report"), blank=True)
    hanchans = models.ManyToManyField(
        Hanchan, blank=True, related_name="meetups", verbose_name=_("hanchans")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = MeetupQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("meetup")
        verbose_name_plural = _("meetups")

    def __str__(self) -> str:
        return f"{self.pk}: {self.days_text()} {self.venue}"

    # What it is

    @property
    def seat_count(self) -> int:
        return self.tables * self.seats_per_table

    def open_dates(self) -> list[CandidateDate]:
        """The candidate dates still open: all of them until one is declared, then none."""
        if self.date is not None:
            return []
        return list(self.candidate_dates.all())

    def days(self) -> list[datetime.date]:
        """The declared date, or the candidate dates while none is declared."""
        if self.date is not None:
            return [self.date]
        return [candidate.date for candidate in self.candidate_dates.all()]

    def days_text(self) -> str:
        return join_list(format_day(day) for day in self.days())

    def starts_at(self) -> datetime.datetime | None:
        """When it starts, in the club's time zone (Asia/Tokyo); None until a date is declared."""
        if self.date is None:
            return None
        start = datetime.datetime.combine(self.date, self.start_time)
        return timezone.make_aware(start, timezone.get_default_timezone())

    def time_text(self) -> str:
        return self.start_time.strftime("%H:%M")

    # Who is in it

    def applications_in_order(self) -> list[Application]:
        """Applicants still in, in arrival order (first come, first served)."""
        return [a for a in self._applications() if a.withdrawn_at is None]

    def lineup(self) -> list[Application]:
        return [a for a in self.applications_in_order() if a.seated]

    def waiting(self) -> list[Application]:
        """Applicants still in who have no seat, in arrival order."""
        return [a for a in self.applications_in_order() if not a.seated]

    def waiting_for(self, day: datetime.date) -> list[Application]:
        return [a for a in self.waiting() if a.can_make(day)]

    def application_of(self, member: Member | None) -> Application | None:
        """``member``'s application if it is still in (not withdrawn)."""
        if member is None:
            return None
        return next((a for a in self.applications_in_order() if a.member_id == member.pk), None)

    def open_seats(self) -> int:
        return max(self.seat_count - len(self.lineup()), 0)

    def everyone_confirmed(self) -> bool:
        lineup = self.lineup()
        return len(lineup) == self.seat_count and all(a.confirmed_at for a in lineup)

    def open_change_requests(self) -> list[ChangeRequest]:
        return [r for r in self.change_requests.all() if r.resolved_at is None]

    def default_lineup(self, day: datetime.date) -> list[Application]:
        """The first applicants who can make ``day``: as many whole tables as applied, at most
        the tables the call asked for."""
        available = [a for a in self.applications_in_order() if a.can_make(day)]
        tables = min(self.tables, len(available) // self.seats_per_table)
        return available[: tables * self.seats_per_table]

    def _applications(self) -> list[Application]:
        # Prefetched by the pages (``for_page``); a query of its own otherwise.
        return sorted(self.applications.all(), key=lambda a: (a.applied_at, a.pk or 0))

    # Who may do what

    def is_coordinated_by(self, viewer: Viewer) -> bool:
        return bool(viewer.is_authenticated and self.coordinator.user_id == viewer.pk)

    def can_manage(self, viewer: Viewer) -> bool:
        """The coordinator, or a steward acting for them."""
        return self.is_coordinated_by(viewer) or is_steward(viewer)

    def phones_visible_to(self, viewer: Viewer) -> bool:
        """Whether this meetup's pages may show its applicants' phone numbers to ``viewer``:
        stewards always, the coordinator while the meetup is being arranged. Each number is
        also checked with :func:`phone_visible_to`."""
        return is_steward(viewer) or (self.state in ARRANGING and self.is_coordinated_by(viewer))

    def refusal(self, action: Action, viewer: Viewer) -> Refusal | None:
        """Why ``viewer`` may not take ``action`` now, or None if they may."""
        member = Member.for_user(viewer)
        application = self.application_of(member)

        def forbidden(message: str) -> Refusal:
            return Refusal(message, forbidden=True)

        def not_now(message: str) -> Refusal:
            return Refusal(message, forbidden=False)

        manager_only = forbidden(gettext("Only the meetup's coordinator or a steward can do this."))
        state = self.state

        match action:
            case Action.APPLY:
                if member is None:
                    return forbidden(gettext("Only club members can apply."))
                if state not in ARRANGING:
                    return not_now(gettext("This meetup is not taking applications."))
                if application is not None:
                    return not_now(gettext("You have already applied."))
            case Action.WITHDRAW:
                if application is None:
                    return forbidden(gettext("You have not applied to this meetup."))
                if state not in ARRANGING:
                    return not_now(gettext("This meetup is over; there is nothing to withdraw."))
                if state == State.CONFIRMED and application.seated:
                    return not_now(
                        gettext(
                            "After the final notice, tell the coordinator: cancel or ask for "
                            "a change instead."
                        )
                    )
            case Action.DECLARE:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.RECRUITING or self.date is not None:
                    return not_now(
                        gettext("A line-up can be declared only while the call is open.")
                    )
            case Action.CONFIRM:
                if application is None or not application.seated:
                    return forbidden(gettext("Only the members of the line-up confirm."))
                if state != State.PROVISIONAL:
                    return not_now(gettext("There is nothing to confirm now."))
                if application.confirmed_at is not None:
                    return not_now(gettext("You have already confirmed."))
            case Action.FINALIZE:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.PROVISIONAL:
                    return not_now(gettext("Only a provisional line-up can be made final."))
                if not self.everyone_confirmed():
                    return not_now(gettext("Not everyone in the line-up has confirmed yet."))
            case Action.CALL_OFF:
                if not self.can_manage(viewer):
                    return manager_only
                if state not in (State.RECRUITING, State.PROVISIONAL):
                    return not_now(
                        gettext("Only a meetup still being recruited can be called off.")
                    )
            case Action.REQUEST_CHANGE:
                if application is None or not application.seated:
                    return forbidden(gettext("Only the members of the line-up can ask for this."))
                if state != State.CONFIRMED:
                    return not_now(gettext("Change requests are for confirmed meetups."))
                if any(r.member_id == application.member_id for r in self.open_change_requests()):
                    return not_now(gettext("The coordinator has your request already."))
            case Action.RERECRUIT:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.CONFIRMED:
                    return not_now(gettext("Seats are re-recruited only after the final notice."))
                if not self.open_change_requests():
                    return not_now(gettext("Nobody has asked to cancel or change."))
            case Action.MOVE | Action.CANCEL:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.CONFIRMED:
                    return not_now(gettext("Only a confirmed meetup can be moved or cancelled."))
            case Action.MARK_HELD:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.CONFIRMED:
                    return not_now(gettext("Only a confirmed meetup can be marked as held."))
                if self.date is not None and self.date > timezone.localdate():
                    return not_now(gettext("The meetup's day has not come yet."))
            case Action.REPORT:
                if not self.can_manage(viewer):
                    return manager_only
                if state != State.HELD:
                    return not_now(gettext("Results are reported after the meetup was held."))
        return None

    def allowed_actions(self, viewer: Viewer) -> set[Action]:
        return {action for action in Action if self.refusal(action, viewer) is None}

    def declarable_dates(self) -> list[CandidateDate]:
        """Open candidate dates with at least one table's worth of applicants."""
        return [
            candidate
            for candidate in self.open_dates()
            if len(self.default_lineup(candidate.date)) >= self.seats_per_table
        ]

    def next_action_for(self, viewer: Viewer) -> str:
        """The one thing the page offers ``viewer`` as its big button (a key the template
        knows), or "" when there is nothing for them to do."""
        allowed = self.allowed_actions(viewer)
        if Action.CONFIRM in allowed:
            return Action.CONFIRM
        if Action.FINALIZE in allowed:
            return Action.FINALIZE
        if Action.RERECRUIT in allowed:
            return "decide"
        if Action.DECLARE in allowed and self.declarable_dates():
            return Action.DECLARE
        if Action.MARK_HELD in allowed:
            return Action.MARK_HELD
        if Action.REPORT in allowed:
            return Action.REPORT
        # Applying is the main thing to do while recruiting; later it joins the waiting list.
        if Action.APPLY in allowed and self.state == State.RECRUITING:
            return Action.APPLY
        application = self.application_of(Member.for_user(viewer))
        if self.state == State.CONFIRMED and application is not None and application.seated:
            return "calendar"
        return ""

    def roster_for(self, viewer: Viewer) -> list[RosterRow]:
        """The applicants still in, in arrival order, as ``viewer`` may see them: the phone
        number only where they are entitled to it."""
        phones = self.phones_visible_to(viewer)
        return [
            RosterRow(
                application=application,
                position=position,
                phone=(
                    application.member.phone
                    if phones and phone_visible_to(application.member, viewer)
                    else ""
                ),
            )
            for position, application in enumerate(self.applications_in_order(), start=1)
        ]

    # Results

    def report_candidates(self) -> models.QuerySet[Hanchan]:
        """Finished games on the meetup's date whose players are all in its line-up, and that
        no other meetup reported."""
        if self.date is None:
            return Hanchan.objects.none()
        players = [a.member_id for a in self.lineup()]
        return (
            Hanchan.objects.finished()
            .filter(played_on=self.date)
            .exclude(seats__member__in=Member.objects.exclude(pk__in=players))
            .exclude(meetups__in=Meetup.objects.exclude(pk=self.pk))
            .select_related("ruleset_version")
            .prefetch_related("seats__member")
            .order_by("created_at")
        )

    def results(self) -> list[GameResult]:
        """The reported games, each with its players by rank."""
        games = self.hanchans.select_related("ruleset_version").prefetch_related("seats__member")
        return [GameResult.of(game) for game in games.order_by("created_at")]

    def calendar_summary(self) -> str:
        return gettext("Mahjong meetup at %(venue)s") % {"venue": self.venue.name}


class CandidateDate(models.Model):
    """One of the days a call proposes ("X日、Y日面子募集")."""

    meetup = models.ForeignKey(Meetup, on_delete=models.CASCADE, related_name="candidate_dates")
    date = models.DateField(_("date"))

    class Meta:
        ordering = ["date"]
        constraints = [
            models.UniqueConstraint(fields=["meetup", "date"], name="unique_candidate_date")
        ]

    def __str__(self) -> str:
        return format_day(self.date)


class Application(models.Model):
    """A member's "I'd like to play" for a meetup, and their seat and confirmation.

    ``applied_at`` orders applicants (first come, first served); applying again after a
    withdrawal starts at the back. ``seated`` means in the line-up. ``confirm_requested_at`` is
    when the member was last asked to confirm, ``confirmed_at`` when they did (both cleared when
    they must confirm again), ``reminded_at`` when the reminder for that request went out.
    """

    meetup = models.ForeignKey(Meetup, on_delete=models.CASCADE, related_name="applications")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="meetup_applications")
    dates = models.ManyToManyField(CandidateDate, blank=True, related_name="applications")
    applied_at = models.DateTimeField(_("applied at"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    seated = models.BooleanField(_("in the line-up"), default=False)
    confirm_requested_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["meetup", "applied_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["meetup", "member"], name="unique_application")
        ]

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.member}"

    def available_days(self) -> list[datetime.date]:
        return [candidate.date for candidate in self.dates.all()]

    def day_labels(self) -> list[str]:
        return [format_day(day) for day in self.available_days()]

    def can_make(self, day: datetime.date) -> bool:
        return day in self.available_days()

    def awaiting_confirmation(self) -> bool:
        return self.seated and self.confirmed_at is None


class ChangeRequest(models.Model):
    """After the final notice, a member of the line-up cancels or asks for a change (T9); the
    coordinator's decision (T10a–c, or holding the meetup anyway) resolves it."""

    class Kind(models.TextChoices):
        CANCEL = "cancel", _("I cannot come")
        CHANGE = "change", _("Please change the date or time")

    meetup = models.ForeignKey(Meetup, on_delete=models.CASCADE, related_name="change_requests")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("request"), max_length=8, choices=Kind.choices)
    message = models.TextField(_("message"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    decision = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ["meetup", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.member} {self.kind}"


class Notice(models.Model):
    """What a transition announced, shown on the meetup's page and e-mailed.

    Stored as a kind and its parameters (names, dates as ISO strings), not as text, so that
    everyone reads it in their own language: :meth:`text` renders it in the active one.
    """

    class Kind(models.TextChoices):
        POSTED = "posted", _("players wanted")
        APPLIED = "applied", _("application")
        WITHDREW = "withdrew", _("withdrawal")
        DECLARED = "declared", _("provisional line-up")
        CONFIRMED = "confirmed", _("confirmation")
        FINALIZED = "finalized", _("final notice")
        CALLED_OFF = "called_off", _("not established")
        CHANGE_REQUESTED = "change_requested", _("change request")
        RERECRUITED = "rerecruited", _("re-recruitment")
        MOVED = "moved", _("date changed")
        CANCELLED = "cancelled", _("cancelled")
        HELD = "held", _("held")
        REPORTED = "reported", _("results")

    meetup = models.ForeignKey(Meetup, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    params = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.kind}"

    def text(self) -> str:
        """The notice in the active language, short as a mailing-list subject."""
        p: dict[str, Any] = self.params
        day = format_iso_day(p.get("date", ""))
        names = join_list(p.get("names", []))
        match self.kind:
            case Notice.Kind.POSTED:
                return gettext("%(days)s: players wanted (%(time)s, %(venue)s)") % {
                    "days": join_list(format_iso_day(d) for d in p["dates"]),
                    "time": p["time"],
                    "venue": p["venue"],
                }
            case Notice.Kind.APPLIED:
                if p.get("seated"):
                    text = gettext("%(name)s takes an open seat — please confirm.")
                elif p.get("waiting"):
                    text = gettext("%(name)s joins the waiting list.")
                else:
                    text = gettext("%(name)s wants to play.")
                return join_sentences(text % {"name": p["name"]}, self._lineup_full())
            case Notice.Kind.WITHDREW:
                return join_sentences(
                    gettext("%(name)s withdrew.") % {"name": p["name"]}, self._seat_outcome()
                )
            case Notice.Kind.DECLARED:
                return gettext("%(date)s is on, members %(names)s — please confirm.") % {
                    "date": day,
                    "names": names,
                }
            case Notice.Kind.CONFIRMED:
                text = gettext("%(name)s confirmed.") % {"name": p["name"]}
                if p.get("everyone"):
                    text = join_sentences(text, gettext("Everyone has confirmed."))
                return text
            case Notice.Kind.FINALIZED:
                return gettext("Final: %(date)s %(time)s at %(venue)s, members %(names)s.") % {
                    "date": day,
                    "time": p["time"],
                    "venue": p["venue"],
                    "names": names,
                }
            case Notice.Kind.CALLED_OFF:
                return gettext("%(days)s: not established.") % {
                    "days": join_list(format_iso_day(d) for d in p["dates"])
                }
            case Notice.Kind.CHANGE_REQUESTED:
                if p["kind"] == ChangeRequest.Kind.CANCEL:
                    text = gettext("%(name)s cannot come and cancels.") % {"name": p["name"]}
                else:
                    text = gettext("%(name)s asks for a change of date or time.") % {
                        "name": p["name"]
                    }
                if p.get("message"):
                    quoted = pgettext("quoted message", "“%(message)s”") % {"message": p["message"]}
                    text = join_sentences(text, quoted)
                return text
            case Notice.Kind.RERECRUITED:
                text = gettext("%(date)s: re-recruiting the seat of %(names)s.") % {
                    "date": day,
                    "names": names,
                }
                return join_sentences(text, self._seat_outcome())
            case Notice.Kind.MOVED:
                return gettext(
                    "Date/time changed: %(date)s %(time)s at %(venue)s — everyone, please "
                    "confirm again."
                ) % {"date": day, "time": p["time"], "venue": p["venue"]}
            case Notice.Kind.CANCELLED:
                return gettext("%(date)s at %(venue)s: cancelled.") % {
                    "date": day,
                    "venue": p["venue"],
                }
            case Notice.Kind.HELD:
                return gettext("%(date)s: held.") % {"date": day}
            case Notice.Kind.REPORTED:
                count = int(p.get("games", 0))
                return ngettext(
                    "%(date)s: results reported, %(count)d hanchan.",
                    "%(date)s: results reported, %(count)d hanchan.",
                    count,
                ) % {"date": day, "count": count}
        return self.get_kind_display()

    def _seat_outcome(self) -> str:
        """What became of a seat that reopened: taken by the next applicant, or open."""
        p = self.params
        if p.get("offered_to"):
            return gettext("The seat goes to %(names)s — please confirm.") % {
                "names": join_list(p["offered_to"])
            }
        if p.get("open_seats"):
            count = int(p["open_seats"])
            return ngettext(
                "%(count)d seat open: applications welcome.",
                "%(count)d seats open: applications welcome.",
                count,
            ) % {"count": count}
        return ""

    def _lineup_full(self) -> str:
        return gettext("The table is full again.") if self.params.get("full") else ""


class MeetupProfile(models.Model):
    """What the meetups know of a member beyond ``clubsite.Member``: the language they last
    used the meetup pages in (for their e-mails) and the secret of their calendar feed."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="meetup_profile")
    language = models.CharField(_("language"), max_length=8, blank=True)
    calendar_token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)

    def __str__(self) -> str:
        return str(self.member)

    @classmethod
    def of(cls, member: Member) -> MeetupProfile:
        profile, _created = cls.objects.get_or_create(member=member)
        return profile

    @classmethod
    def remember_language(cls, member: Member, language: str) -> None:
        """Record ``language`` as ``member``'s: one read on every meetup page, a write only
        when it changed."""
        if language not in dict(settings.LANGUAGES):
            return
        if cls.objects.filter(member=member, language=language).exists():
            return
        cls.objects.update_or_create(member=member, defaults={"language": language})

    @classmethod
    def languages_of(cls, members: Iterable[Member]) -> dict[int, str]:
        """Each member's e-mail language: the last one they used, else the site's default."""
        ids = [m.pk for m in members]
        known = dict(
            cls.objects.filter(member__in=ids)
            .exclude(language="")
            .values_list("member_id", "language")
        )
        return {pk: known.get(pk, settings.LANGUAGE_CODE) for pk in ids}

    def new_calendar_token(self) -> None:
        self.calendar_token = secrets.token_urlsafe()
        self.save(update_fields=["calendar_token"])


@dataclass(frozen=True)
class RosterRow:
    """One applicant as a page shows them: their place in arrival order, and their phone
    number if the viewer may see it (else "")."""

    application: Application
    position: int
    phone: str


@dataclass(frozen=True)
class PlayerResult:
    name: str
    rank: int | None
    final_score: str
    points: str


@dataclass(frozen=True)
class GameResult:
    hanchan: Hanchan
    ruleset: str
    players: list[PlayerResult]

    @classmethod
    def of(cls, hanchan: Hanchan) -> GameResult:
        seats = sorted(hanchan.seats.all(), key=lambda s: (s.rank or 9, s.index))
        return cls(
            hanchan=hanchan,
            ruleset=hanchan.ruleset_version.name,
            players=[
                PlayerResult(
                    name=s.member.display_name,
                    rank=s.rank,
                    final_score="" if s.final_score is None else f"{s.final_score:,}",
                    points="" if s.points is None else settlement_points(s.points),
                )
                for s in seats
            ],
        )


def format_day(day: datetime.date) -> str:
    """A meetup day as the club writes it: "12月5日(金)" in Japanese, "Sat 5 Dec" in English."""
    return formats.date_format(day, pgettext("meetup day", "D j M"))


def format_iso_day(value: str) -> str:
    return format_day(datetime.date.fromisoformat(value)) if value else ""


def join_sentences(*sentences: str) -> str:
    """Sentences in a row: a space between them in English, none in Japanese."""
    parts = [sentence for sentence in sentences if sentence]
    text = parts[0] if parts else ""
    for sentence in parts[1:]:
        text = pgettext("two sentences", "%(first)s %(second)s") % {
            "first": text,
            "second": sentence,
        }
    return text


def phone_visible_to(member: Member, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see ``member``'s phone number: stewards, and the coordinator of
    a meetup the member has applied to while it is being arranged (recruiting, provisional
    or confirmed), who must be able to phone them in an emergency (seed 001 L446-447).
    Nobody else, not even other members of the same meetup."""
    if not viewer.is_authenticated:
        return False
    if is_steward(viewer):
        return True
    return (
        Meetup.objects.being_arranged()
        .filter(
            coordinator__user_id=viewer.pk,
            applications__member=member,
            applications__withdrawn_at__isnull=True,
        )
        .exists()
    )


def join_list(items: Iterable[str]) -> str:
    """Names or days in a row: "A、B、C" in Japanese, "A, B, C" in English."""
    return pgettext("list separator", ", ").join(items)


def lineup_names(applications: Sequence[Application]) -> list[str]:
    return [a.member.display_name for a in applications]


def members_of(applications: Iterable[Application]) -> list[Member]:
    return [a.member for a in applications]
