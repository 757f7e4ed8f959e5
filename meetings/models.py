"""Club meetups: venues, calls for players, line-ups, confirmations and their notices.

The flow (seed 001 L404-466, docs/rules-spec.md §5.2) and what the spec leaves open are set
out in :mod:`meetings.states`; every transition is a function of ``meetings/services.py``, and
:meth:`Meetup.refusal` (the table of :mod:`meetings.permissions`) says which of them a person
may take now, so that the pages offer exactly the buttons the services accept.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.dates import club_time_zone
from clubsite.models import ClubManager, MeetupRowManager, Member, MemberRowManager, club_key
from clubsite.permissions import may_act_for_coordinators, may_see_every_phone
from meetings.display import (
    GameResult,
    format_day,
    join_list,
    lineup_names,
    members_of,
)
from meetings.notices import NoticeKind, notice_text
from meetings.permissions import refusal
from meetings.states import ARRANGING, ON_THE_CALENDAR, Action, Refusal, State
from scoring.models import Hanchan

__all__ = [
    "ARRANGING",
    "MEETUP_DURATION",
    "ON_THE_CALENDAR",
    "Action",
    "Application",
    "CandidateDate",
    "ChangeRequest",
    "GameResult",
    "Meetup",
    "MeetupProfile",
    "Notice",
    "Refusal",
    "RosterRow",
    "State",
    "Venue",
    "Viewer",
    "format_day",
    "join_list",
    "lineup_names",
    "members_of",
    "phone_visible_to",
]

Viewer = AbstractBaseUser | AnonymousUser

# A meetup night is booked in calendars for this long; the seed gives only the start time.
MEETUP_DURATION = datetime.timedelta(hours=4)


class Venue(models.Model):
    """A place where the club meets (seed 001 L467–481; 2010-era details, editable by staff)."""

    class Role(models.TextChoices):
        MAIN = "main", _("main venue")
        TOURNAMENT = "tournament", _("tournament venue")
        BACKUP = "backup", _("backup venue")

    club = club_key(db_index=False)
    name = models.CharField(_("name"), max_length=80)
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MAIN)
    address = models.CharField(_("address"), max_length=200)
    directions = models.TextField(_("directions"), blank=True)
    phone = models.CharField(_("phone number"), max_length=30, blank=True)

    objects = ClubManager["Venue"]()

    class Meta:
        ordering = ["pk"]
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="venue_name_in_club"),
        ]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def default(cls) -> Venue | None:
        """The venue a new call proposes: the main venue ("X日１９時ビック")."""
        return cls.objects.filter(role=cls.Role.MAIN).first() or cls.objects.first()


@dataclass(frozen=True)
class RosterRow:
    """One applicant as a page shows them: their place in arrival order, and their phone
    number if the viewer may see it (else "")."""

    application: Application
    position: int
    phone: str


# States and actions (meetings/states.py), here for the models and their importers.
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


MeetupManager = ClubManager.from_queryset(MeetupQuerySet)


class Meetup(models.Model):
    """A meetup from the call for players to the report of its results (see the module)."""

    club = club_key()
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
    # The revision of its calendar event (the .ics SEQUENCE): one more with every change of
    # date, time, venue, line-up or state (``meetings.transitions.announce``, the admin's venue).
    sequence = models.PositiveIntegerField(_("calendar revision"), default=0, editable=False)

    objects = MeetupManager()

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
        """When it starts, in the time zone of the club in scope (its own club: a meetup is
        read only in its club's scope; ``Club.time_zone``, Asia/Tokyo for the seeds' clubs);
        None until a date is declared."""
        if self.date is None:
            return None
        start = datetime.datetime.combine(self.date, self.start_time)
        return timezone.make_aware(start, club_time_zone())

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
        """Applicants waiting who can make ``day`` and may be seated (a deactivated member
        is never given a seat)."""
        return [a for a in self.waiting() if a.can_make(day) and a.seatable]

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
        the tables the call asked for; a deactivated member is passed over."""
        available = [a for a in self.applications_in_order() if a.can_make(day) and a.seatable]
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
        return self.is_coordinated_by(viewer) or may_act_for_coordinators(viewer)

    def phones_visible_to(self, viewer: Viewer) -> bool:
        """Whether this meetup's pages may show its applicants' phone numbers to ``viewer``:
        stewards always, the coordinator while the meetup is being arranged. Each number is
        also checked with :func:`phone_visible_to`."""
        return may_act_for_coordinators(viewer) or (
            self.state in ARRANGING and self.is_coordinated_by(viewer)
        )

    def refusal(self, action: Action, viewer: Viewer) -> Refusal | None:
        """Why ``viewer`` may not take ``action`` now, or None if they may (the table of
        :mod:`meetings.permissions`)."""
        return refusal(self, action, viewer)

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


def phone_visible_to(member: Member, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see ``member``'s phone number: stewards, and the coordinator of
    a meetup the member has applied to while it is being arranged (recruiting, provisional
    or confirmed), who must be able to phone them in an emergency (seed 001 L446-447).
    Nobody else, not even other members of the same meetup."""
    if not viewer.is_authenticated:
        return False
    if may_see_every_phone(viewer):
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


class CandidateDate(models.Model):
    """One of the days a call proposes ("X日、Y日面子募集")."""

    meetup = models.ForeignKey(Meetup, on_delete=models.CASCADE, related_name="candidate_dates")
    date = models.DateField(_("date"))

    objects = MeetupRowManager["CandidateDate"]()

    class Meta:
        ordering = ["date"]
        verbose_name = _("candidate date")
        verbose_name_plural = _("candidate dates")
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
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        related_name="meetup_applications",
        verbose_name=_("member"),
    )
    dates = models.ManyToManyField(CandidateDate, blank=True, related_name="applications")
    applied_at = models.DateTimeField(_("applied at"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    seated = models.BooleanField(_("in the line-up"), default=False)
    confirm_requested_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)

    objects = MeetupRowManager["Application"]()

    class Meta:
        ordering = ["meetup", "applied_at", "pk"]
        verbose_name = _("application")
        verbose_name_plural = _("applications")
        constraints = [
            models.UniqueConstraint(fields=["meetup", "member"], name="unique_application")
        ]

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.member}"

    @property
    def seatable(self) -> bool:
        """Whether the applicant may be given a seat: their membership is active (not
        deactivated at the desk). The pages select the member with the application."""
        return self.member.active

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

    meetup = models.ForeignKey(
        Meetup, on_delete=models.CASCADE, related_name="change_requests", verbose_name=_("meetup")
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("member")
    )
    kind = models.CharField(_("request"), max_length=8, choices=Kind.choices)
    message = models.TextField(_("message"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    decision = models.CharField(_("decision"), max_length=16, blank=True)

    objects = MeetupRowManager["ChangeRequest"]()

    class Meta:
        ordering = ["meetup", "created_at", "pk"]
        verbose_name = _("change request")
        verbose_name_plural = _("change requests")

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.member} {self.kind}"


class Notice(models.Model):
    """What a transition announced, shown on the meetup's page and e-mailed.

    Stored as a kind and its parameters (names, dates as ISO strings), not as text, so that
    everyone reads it in their own language: :meth:`text` renders it in the active one.
    """

    Kind = NoticeKind

    meetup = models.ForeignKey(
        Meetup, on_delete=models.CASCADE, related_name="notices", verbose_name=_("meetup")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    actor = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    params = models.JSONField(_("details"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # Who the notice's e-mail did not reach (display names, or the club's list address):
    # stewards see it on the meetup's page; the log has the reason.
    undelivered = models.JSONField(_("not delivered to"), default=list, blank=True)

    objects = MeetupRowManager["Notice"]()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("notice")
        verbose_name_plural = _("notices")

    def __str__(self) -> str:
        return f"{self.meetup_id}: {self.kind}"

    def text(self) -> str:
        """The notice in the active language, short as a mailing-list subject
        (:func:`meetings.notices.notice_text`)."""
        return notice_text(self.kind, self.params)


class MeetupProfile(models.Model):
    """What the meetups know of a member beyond ``clubsite.Member``: the language they last
    used the meetup pages in (for their e-mails) and the secret of their calendar feed."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="meetup_profile")
    language = models.CharField(_("language"), max_length=8, blank=True)
    calendar_token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)

    objects = MemberRowManager["MeetupProfile"]()

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
