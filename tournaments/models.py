"""Tournaments: events with phases of numbered rounds; each round's tables are hanchans of the
ledger, entered at the table like any club game (docs/rules-spec.md §4)."""

from __future__ import annotations

from typing import TypeVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.club_model import Club
from clubsite.models import ClubManager, EventRowManager, Member, club_key
from scoring.engine import load_ruleset
from scoring.models import Hanchan

_T = TypeVar("_T", bound=models.Model)


class Event(models.Model):
    """A tournament: its format, the ruleset its games are pinned to (with the format's
    overrides, e.g. no tobi for the GP), dates, venue, participants and phases.

    ``seed`` makes every draw of the event repeatable (the pairing table by lot is drawn
    once, in advance, §4.1 "抽選により事前に作成した取組表").
    """

    class Format(models.TextChoices):
        GP = "gp", _("Mahjong GP")
        GRAND_CHAMPION = "grand_champion", _("Grand Champion")
        MEIJIN = "meijin", _("Meijin")
        CUSTOM = "custom", _("Custom")

    class Status(models.TextChoices):
        OPEN = "open", _("taking participants")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        # Called off by a steward: the games played stay in the ledger (they count as any
        # club game); no round starts any more.
        CANCELLED = "cancelled", _("cancelled")

    club = club_key()
    name = models.CharField(_("name"), max_length=120)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices)
    ruleset_id = models.SlugField(_("ruleset"), max_length=40)
    overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    seed = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The live board (/tournaments/<id>/board/) may be shown without a login: a screen at the
    # venue, a link for the players' families. Off: members only, as every other page.
    public = models.BooleanField(_("live board without login"), default=False)

    objects = ClubManager["Event"]()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    @property
    def cancelled(self) -> bool:
        """Called off by a steward (:func:`tournaments.services.event_cancel`)."""
        return self.status == self.Status.CANCELLED

    @property
    def cancellable(self) -> bool:
        """Still open or running: a finished or cancelled event cannot be cancelled."""
        return self.status in (self.Status.OPEN, self.Status.RUNNING)

    def round_started(self) -> bool:
        """Whether a round has started: its games are in the ledger, so the event keeps its
        format and can be cancelled but not deleted. One query."""
        return self.rounds.filter(started_at__isnull=False).exists()

    def format_locked(self, *, round_started: bool) -> bool:
        """Whether the format and the rules stay as they are: once ``round_started`` (the
        answer of :meth:`round_started`, passed in to spare its query) or once the event is
        finished or cancelled."""
        return round_started or not self.cancellable

    @property
    def table_size(self) -> int:
        """4, or 3 for a 3-player ruleset."""
        return load_ruleset(self.ruleset_id).players


class Participant(models.Model):
    """A member entered in an event; ``number`` is their index in the seating (0-based)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="participants")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveSmallIntegerField()
    withdrawn = models.BooleanField(default=False)

    objects = EventRowManager["Participant"]()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "member"], name="unique_participant"),
            models.UniqueConstraint(fields=["event", "number"], name="unique_participant_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}#{self.number} {self.member_id}"


class GuestClub(models.Model):
    """A club invited to an event of another (an event between clubs: a league night, a
    tournament with guests): the host's stewards may enter its active members as guests
    (:mod:`tournaments.guests`). The row is the host's (its event's club)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="guest_clubs")
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="+", verbose_name=_("invited club")
    )
    invited_at = models.DateTimeField(auto_now_add=True)

    objects = EventRowManager["GuestClub"]()

    class Meta:
        ordering = ["event", "club__name", "club__slug"]
        verbose_name = _("invited club")
        verbose_name_plural = _("invited clubs")
        constraints = [
            models.UniqueConstraint(fields=["event", "club"], name="guest_club_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} <- {self.club_id}"


class Phase(models.Model):
    """A stage of an event (see :class:`tournaments.formats.PhasePlan`)."""

    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", _("preliminaries")
        FINAL = "final", _("finals")
        MAIN = "main", _("games")

    class Seating(models.TextChoices):
        LOT = "lot", _("by lot")
        STANDING = "standing", _("by standing")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="phases")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    rounds = models.PositiveSmallIntegerField()
    seating = models.CharField(max_length=10, choices=Seating.choices)
    reseat_every = models.PositiveSmallIntegerField(default=0)
    qualifiers = models.PositiveSmallIntegerField(null=True, blank=True)
    counts = models.BooleanField(default=True)
    time_limited = models.BooleanField(default=False)
    # The length of each of its rounds on the clock, in minutes (a time-limited phase; None:
    # no clock, time is called by hand). The steward may give another length at the start.
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    objects = EventRowManager["Phase"]()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_phase_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} phase {self.number}"


class Round(models.Model):
    """A round of an event (``number`` counts from 1 over the whole event). ``seating`` is
    its tables as drawn, each a list of participant numbers in seat order East, South, West,
    North; the tables' games are created when the round starts."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    phase = models.ForeignKey(Phase, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    seating = models.JSONField(default=list)
    started_at = models.DateTimeField(null=True, blank=True)
    # When its time is up: the start plus the round's length, or earlier when a steward calls
    # time (None: no clock). A table's own end adds its extra time (Table.extra_minutes).
    ends_at = models.DateTimeField(null=True, blank=True)

    objects = EventRowManager["Round"]()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_round_number"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} round {self.number}"


class RoundRowManager(ClubManager[_T]):
    """A row of a round: its club is the round's event's."""

    club_path = "round__event__club"


class Table(models.Model):
    """One table of a started round: a hanchan of the ledger."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    hanchan = models.OneToOneField(Hanchan, on_delete=models.PROTECT, related_name="event_table")
    # Extra time a steward gave this table (a dispute stopped play), added to the round's end.
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    objects = RoundRowManager["Table"]()

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_table_number"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class Substitution(models.Model):
    """The event's log of a player leaving mid-event
    (:mod:`tournaments.substitutions`): ``left`` plays no round from ``from_round`` on, and
    ``substitute`` (a participant entered for it) takes their place, or none (a withdrawal).
    The repeat meetings of the whole pairing table before and after the re-seat are kept as
    the steward accepted them."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="substitutions")
    from_round = models.PositiveSmallIntegerField()
    left = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    substitute = models.ForeignKey(
        Participant, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    repeats_before = models.PositiveIntegerField()
    repeats_after = models.PositiveIntegerField()
    by = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    objects = EventRowManager["Substitution"]()

    class Meta:
        ordering = ["event", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.event_id} round {self.from_round}: {self.left_id} -> {self.substitute_id}"
