"""The hanchan ledger: pinned rulesets, games, seats, hands as entered, and their history.

Every hand is stored as the hand object of docs/game-record-format.md together with what
the engine made of it, and every game keeps its final settlement per seat, so that standings
read stored numbers and never replay games. Points are integers in points.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import date
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clubsite.models import (
    ONLINE_SERVICES,
    ClubManager,
    GameRowManager,
    Member,
    MemberRowManager,
    club_key,
)
from scoring.engine import Game, Ruleset, apply_overrides, load_ruleset, ruleset_from_mapping

_RULESETS: dict[tuple[str, str], Ruleset] = {}


class RulesetVersion(models.Model):
    """A frozen copy of a ruleset's parameters; a hanchan is pinned to one.

    When the club edits a ruleset, a new version is stored and games already played keep the
    version they started under.
    """

    ruleset_id = models.SlugField(_("ruleset"), max_length=40)
    version = models.PositiveIntegerField(_("version"))
    name = models.CharField(_("name"), max_length=120)
    parameters = models.JSONField(_("parameters"))
    # The online service of the games pinned here, "" for games played at the club: online
    # games have versions of their own, so standings count them apart.
    service = models.CharField(_("service"), max_length=20, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["ruleset_id", "service", "version"], name="unique_ruleset_version"
            )
        ]
        ordering = ["ruleset_id", "-version"]
        verbose_name = _("ruleset version")
        verbose_name_plural = _("ruleset versions")

    def __str__(self) -> str:
        return f"{self.standings_key} v{self.version}"

    @property
    def standings_key(self) -> str:
        """How standings filters name the games of this version: the ruleset id, and for
        online games ``"<ruleset id>@<service>"`` (e.g. ``"tenhou-4p@tenhou"``)."""
        return f"{self.ruleset_id}@{self.service}" if self.service else self.ruleset_id

    def ruleset(self, overrides: dict[str, Any] | None = None) -> Ruleset:
        """The engine ruleset of this version, with a game's ``overrides`` applied.

        Raises ``RecordError`` for bad overrides (keys ``overrides.<name>``).
        """
        # Validating the parameters costs more than serialising them: keep each validated
        # Ruleset per process, keyed by its content.
        key = (
            json.dumps(self.parameters, sort_keys=True),
            json.dumps(overrides or {}, sort_keys=True),
        )
        ruleset = _RULESETS.get(key)
        if ruleset is None:
            base = ruleset_from_mapping(self.parameters)
            ruleset = apply_overrides(base, overrides) if overrides else base
            _RULESETS[key] = ruleset
        return ruleset

    @classmethod
    def current(cls, ruleset_id: str, service: str = "") -> RulesetVersion:
        """The stored version matching the built-in ruleset ``ruleset_id`` now, created if the
        built-in changed since the last stored version (or was never stored). ``service``:
        the online service of the game to pin (``""`` for a club game).

        Raises ``KeyError`` for an unknown ruleset id.
        """
        parameters = load_ruleset(ruleset_id).parameters()
        latest = (
            cls.objects.filter(ruleset_id=ruleset_id, service=service).order_by("-version").first()
        )
        if latest is not None and latest.parameters == parameters:
            return latest
        return cls.objects.create(
            ruleset_id=ruleset_id,
            service=service,
            version=1 if latest is None else latest.version + 1,
            name=parameters["name"],
            parameters=parameters,
        )


class HanchanQuerySet(models.QuerySet["Hanchan"]):
    def in_play(self) -> HanchanQuerySet:
        return self.filter(status=Hanchan.Status.IN_PLAY)

    def finished(self) -> HanchanQuerySet:
        return self.filter(status=Hanchan.Status.FINISHED)


HanchanManager = ClubManager.from_queryset(HanchanQuerySet)


class Hanchan(models.Model):
    """One game (hanchan or tonpuusen) at a table.

    ``version`` goes up with every change, so that two phones entering at the same table are
    told when the game moved on under them. ``state`` is the engine's snapshot between hands
    (``Game.snapshot()``) plus the table view, so entering a hand never replays the game.
    """

    class Status(models.TextChoices):
        IN_PLAY = "in_play", _("in play")
        FINISHED = "finished", _("finished")
        VOIDED = "voided", _("voided")

    # Indexed by hanchan_club_status_played_on.
    club = club_key(db_index=False)
    ruleset_version = models.ForeignKey(
        RulesetVersion,
        on_delete=models.PROTECT,
        related_name="hanchans",
        verbose_name=_("ruleset version"),
    )
    overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    played_on = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    table_name = models.CharField(_("table"), max_length=40, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.IN_PLAY, db_index=True
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    state = models.JSONField(_("engine state"), default=dict)
    ended_by = models.CharField(_("ended by"), max_length=20, blank=True)
    created_by = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The version whose result counts in standings (CountedSeat rows), once confirmed; None
    # while no result of this game has counted. A change after it stays pending until
    # confirmed again, and the counted result stays in force meanwhile.
    counted_version = models.PositiveIntegerField(_("counted version"), null=True, blank=True)
    # Entered as final scores only (no hands): settled from the raw scores at the end
    # (state["final_scores"]); per-hand statistics leave such games out.
    final_scores_only = models.BooleanField(_("final scores only"), default=False)
    # Time was called in a time-limited game (rules-spec T-07): the next hand entered is the
    # last one (it is recorded with ``time_up``), then the game settles as usual.
    time_called = models.BooleanField(_("time called"), default=False)
    # What the finished game is, whatever file it came in (scoring.ledger.fingerprint): an
    # import of a game already here is refused. Empty while in play.
    fingerprint = models.CharField(_("fingerprint"), max_length=64, blank=True, db_index=True)

    objects = HanchanManager()

    class Meta:
        ordering = ["-played_on", "-created_at"]
        indexes = [
            # Standings and champions: a club's finished games in a date range.
            models.Index(
                fields=["club", "status", "played_on"], name="hanchan_club_status_played_on"
            ),
        ]
        verbose_name = _("hanchan")
        verbose_name_plural = _("hanchans")

    def __str__(self) -> str:
        return f"{self.played_on} {self.table_name or self.pk}"

    def ruleset(self) -> Ruleset:
        """The engine ruleset this game is played under (its pinned version + overrides)."""
        return self.ruleset_version.ruleset(self.overrides or None)

    def game(self, ruleset: Ruleset | None = None) -> Game:
        """The engine game between hands, restored from ``state`` (no replay)."""
        return Game.restore(ruleset or self.ruleset(), self.state["game"])


class SeatQuerySet(models.QuerySet["Seat"]):
    """Filters for reading the stored settlement (standings, champions, player pages)."""

    def finished(self) -> SeatQuerySet:
        """Seats of finished games only: voided games and games in play count nowhere."""
        return self.filter(hanchan__status=Hanchan.Status.FINISHED)

    def played_between(self, start: date, end: date) -> SeatQuerySet:
        """Seats of games played from ``start`` to ``end``, both included (club-local dates)."""
        return self.filter(hanchan__played_on__range=(start, end))

    def under_versions(self, version_ids: Collection[int]) -> SeatQuerySet:
        """Seats of games pinned to one of these :class:`RulesetVersion` ids."""
        return self.filter(hanchan__ruleset_version_id__in=list(version_ids))


SeatManager = GameRowManager.from_queryset(SeatQuerySet)


class Seat(models.Model):
    """Who sat where (index 0 = the first dealer) and the final settlement of that seat."""

    # Its lookups use unique_seat_index, which leads with it (as with every db_index=False
    # below: a second index on the same leading column only slows each write).
    hanchan = models.ForeignKey(
        Hanchan,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("hanchan"),
        db_index=False,
    )
    index = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="seats", verbose_name=_("member")
    )
    final_score = models.IntegerField(_("final score"), null=True, blank=True)
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)
    points = models.IntegerField(_("points"), null=True, blank=True)
    chips = models.IntegerField(_("chips"), null=True, blank=True)
    uma_ep = models.IntegerField(_("uma (ep)"), null=True, blank=True)
    # Engine facts of the settlement, so that standings only add up columns: the final score
    # was bust in a game that ended by tobi (below 0, or 0 where the game's rules say so), and
    # the seat finished last at its table (4th of 4, 3rd of 3). None while not finished.
    busted = models.BooleanField(_("bust"), null=True, blank=True)
    last_place = models.BooleanField(_("last place"), null=True, blank=True)

    objects = SeatManager()

    class Meta:
        ordering = ["hanchan", "index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "index"], name="unique_seat_index"),
            models.UniqueConstraint(fields=["hanchan", "member"], name="unique_seat_member"),
        ]

    def __str__(self) -> str:
        return f"{self.hanchan_id}#{self.index} {self.member_id}"


class HandEntry(models.Model):
    """One hand as entered: the record-format hand object and what the engine made of it.

    ``result`` holds the replay-output hand (round, dealer, honba, deposits_before, deltas,
    scores, deposits_after) plus ``payments`` (who paid whom). ``request_id`` makes entry
    idempotent: the same request arriving twice records the hand once.
    """

    # Indexed by unique_hand_sequence.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="hands", db_index=False
    )
    sequence = models.PositiveIntegerField(_("hand number"))
    data = models.JSONField(_("hand"))
    result = models.JSONField(_("result"))
    # The engine's snapshot before this hand (``Game.snapshot()``): a correction or an undo
    # starts from it and plays only the hands that change. Null in rows stored before it
    # existed; those games are replayed from East 1 instead.
    before = models.JSONField(null=True, blank=True)
    request_id = models.UUIDField(null=True, blank=True)
    entered_by = models.ForeignKey(
        Member,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameRowManager["HandEntry"]()

    class Meta:
        ordering = ["hanchan", "sequence"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(fields=["hanchan", "sequence"], name="unique_hand_sequence"),
            models.UniqueConstraint(fields=["hanchan", "request_id"], name="unique_hand_request"),
        ]

    def __str__(self) -> str:
        return f"{self.hanchan_id}/{self.sequence}"


class HandSeat(models.Model):
    """One seat's part in one hand: the facts the engine knew, as plain columns.

    Written in the same transaction as the hand (``scoring.ledger``), replaced whenever the
    hand's result changes, so per-hand statistics are plain aggregates and never read the
    hand's JSON. ``delta`` and ``win_value`` are in points; ``win_value`` is what the seat
    received as the value of its wins (ron, tsumo, pao and rinshan payments; honba and
    deposits left out). ``outcome`` is the hand's result (``ron``, ``tsumo``, ``draw``,
    ``abort``, ``chombo``): a chombo hand is played again, so it is no hand of its own.
    ``tenpai``: listed tenpai at an exhaustive draw; ``deal_in_value``: on the discarder's
    row of a ron, the value they paid for it (their ``ron`` payments: their half under pao,
    each winner's in a multi-ron; honba left out); ``fed_by``: on a ron winner's row, the
    member who dealt in to this win (a multi-ron names the discarder on each winner's row),
    so who fed whom is a plain count (docs/player-stats.md).
    """

    # hand and member: indexed by unique_hand_seat and handseat_member_hanchan.
    hand = models.ForeignKey(
        HandEntry, on_delete=models.CASCADE, related_name="seat_facts", db_index=False
    )
    # The game, the member and who fed the win are copies of keys the database checks
    # where they come from (the hand's game, the seats' members: COPIED_KEYS), so they are
    # not checked again on each of the thousands of rows an import writes; Django still
    # cascades and protects through them.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    outcome = models.CharField(max_length=8)
    dealer = models.BooleanField(default=False)
    delta = models.IntegerField()
    won = models.BooleanField(default=False)
    tsumo = models.BooleanField(default=False)
    dealt_in = models.BooleanField(default=False)
    riichi = models.BooleanField(default=False)
    chombo = models.BooleanField(default=False)
    win_value = models.IntegerField(default=0)
    tenpai = models.BooleanField(default=False)
    deal_in_value = models.IntegerField(default=0)
    fed_by = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,
    )

    objects = GameRowManager["HandSeat"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="unique_hand_seat"),
        ]
        indexes = [
            # Player statistics: one member's hands.
            models.Index(fields=["member", "hanchan"], name="handseat_member_hanchan"),
        ]

    def __str__(self) -> str:
        return f"{self.hand_id}#{self.seat}"


class Confirmation(models.Model):
    """Someone said "this result is right" for one version of a game (table confirmation,
    :mod:`scoring.ledger.confirmation`). A change to the game makes a new version, so earlier
    confirmations stay in the history but no longer count. ``as_steward``: given with a
    steward's authority (a steward's own change, a steward's tap, an import by command);
    ``user`` is ``None`` for a command."""

    # Indexed by unique_confirmation.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="confirmations", db_index=False
    )
    version = models.PositiveIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    member = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    as_steward = models.BooleanField(default=False)
    implicit = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    objects = GameRowManager["Confirmation"]()

    class Meta:
        ordering = ["hanchan", "at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["hanchan", "version", "user"], name="unique_confirmation"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hanchan_id} v{self.version} {self.user_id}"


class CountedSeat(models.Model):
    """What standings add up: one seat's confirmed result of a game that counts.

    Written by the ledger when a version of a finished game counts (confirmed, or no
    confirmation needed) and removed when a confirmed void or undo takes the game out; a
    pending change leaves it as it was. Points are integers in points. The per-hand columns
    sum the seat's ``HandSeat`` facts over the game (chombo hands are no hands of their own,
    so ``hands`` and ``riichi`` leave them out; ``chombo`` counts the seat's chombos).
    """

    # hanchan and member: indexed by unique_counted_seat_in_club and counted_member_played_on.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="counted", db_index=False
    )
    # Copies of the seat's member and the game's version, as on HandSeat.
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    ruleset_version = models.ForeignKey(
        RulesetVersion, on_delete=models.PROTECT, related_name="+", db_constraint=False
    )
    played_on = models.DateField()
    seat = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    final_score = models.IntegerField()
    rank = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    busted = models.BooleanField()
    last_place = models.BooleanField()
    ended_by = models.CharField(max_length=20)
    hands = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    tsumo_wins = models.PositiveIntegerField()
    deal_ins = models.PositiveIntegerField()
    riichi = models.PositiveIntegerField()
    chombo = models.PositiveIntegerField()
    win_points = models.IntegerField()
    # No hands to count: the game was entered as final scores only.
    final_scores_only = models.BooleanField(default=False)
    # The club's own units, 0 where the ruleset has none: the chip balance
    # (seed 003 L438-460) and the floating uma in ep kept apart from points (seed 002, S-01).
    chips = models.IntegerField(default=0)
    uma_ep = models.IntegerField(default=0)
    # The game's club, copied as the member is. Indexed by counted_club_played_on. A guest's
    # seat at an event between clubs is counted once more in the guest's own club when that
    # club chooses so (scoring.ledger.guests): that row is the guest club's, its member the
    # guest's membership there, its game the host's.
    club = club_key(db_index=False)
    # A guest's seat in the host club (Member.Role.GUEST): it counts in the event's ranking,
    # not in the host's standings or totals.
    guest = models.BooleanField(default=False, db_default=False)

    objects = ClubManager["CountedSeat"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["hanchan", "seat", "club"], name="unique_counted_seat_in_club"
            ),
        ]
        indexes = [
            models.Index(
                fields=["club", "played_on", "ruleset_version"], name="counted_club_played_on"
            ),
            models.Index(fields=["member", "played_on"], name="counted_member_played_on"),
        ]

    def __str__(self) -> str:
        return f"{self.hanchan_id}#{self.seat} {self.member_id}"


class LedgerChange(models.Model):
    """History: every change to a game's hands or status, with who and when.

    Nothing entered is ever lost: a corrected hand keeps its old data here, an undone hand
    its whole entry, a voided game the status it had.
    """

    class Action(models.TextChoices):
        STARTED = "started", _("started")
        RECORDED = "recorded", _("hand recorded")
        CORRECTED = "corrected", _("hand corrected")
        UNDONE = "undone", _("hand undone")
        FINISHED = "finished", _("finished")
        VOIDED = "voided", _("voided")
        FINAL_SCORES = "final_scores", _("final scores entered")
        TIME_CALLED = "time_called", _("time called")
        CONFIRMED = "confirmed", _("confirmed")
        COUNTED = "counted", _("counted in standings")

    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="changes", verbose_name=_("hanchan")
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    sequence = models.PositiveIntegerField(_("hand number"), null=True, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    by = models.ForeignKey(
        Member, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("by")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    objects = GameRowManager["LedgerChange"]()

    class Meta:
        ordering = ["hanchan", "at", "pk"]
        verbose_name = _("ledger change")
        verbose_name_plural = _("ledger changes")

    def __str__(self) -> str:
        # The admin's title of a change: "12: hand recorded #3" in the reader's language.
        hand = f" #{self.sequence}" if self.sequence is not None else ""
        return f"{self.hanchan_id}: {self.get_action_display()}{hand}"


class MemberTotals(models.Model):
    """One member's counted results under one ruleset version, added up over a stretch of
    time (a month, a year): the sums of ``CountedSeat``'s columns. ``best`` is the best game
    encoded as ``points * 2**32 + (2**32 - 1 - hanchan_id)`` so that a maximum finds it
    (:mod:`scoring.standings.counted`)."""

    # The member's club. Indexed by the subclasses' version index, which leads with it.
    club = club_key(db_index=False)
    # Indexed by the subclasses' unique constraint and version index.
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+", db_index=False)
    ruleset_version = models.ForeignKey(
        RulesetVersion, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    games = models.PositiveIntegerField()
    total_points = models.BigIntegerField()
    rank_sum = models.PositiveIntegerField()
    first = models.PositiveIntegerField()
    second = models.PositiveIntegerField()
    third = models.PositiveIntegerField()
    fourth = models.PositiveIntegerField()
    lasts = models.PositiveIntegerField()
    tobis = models.PositiveIntegerField()
    best = models.BigIntegerField()
    hands = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    tsumo_wins = models.PositiveIntegerField()
    deal_ins = models.PositiveIntegerField()
    riichi = models.PositiveIntegerField()
    chombo = models.PositiveIntegerField()
    win_points = models.BigIntegerField()
    # The sums of CountedSeat's chips and ep.
    chips = models.BigIntegerField(default=0)
    uma_ep = models.BigIntegerField(default=0)

    objects = ClubManager["MemberTotals"]()

    class Meta:
        abstract = True


class MemberMonth(MemberTotals):
    """A member's totals in one month (``month``: its first day): what month-aligned
    standings (months, half years) and the champions sum, so they read a few rows per member
    and month however long the history.

    Kept by the ledger (:mod:`scoring.ledger.totals`) in the transaction that counts a game.
    """

    month = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["member", "month", "ruleset_version"], name="unique_member_month"
            ),
        ]
        indexes = [
            models.Index(
                fields=["club", "ruleset_version", "month"], name="member_month_club_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member_id} {self.month:%Y-%m} v{self.ruleset_version_id}"


class MemberYear(MemberTotals):
    """A member's totals in one calendar year (``year``: its 1 January), the sum of their
    ``MemberMonth`` rows: whole years of a period (a year, all time) read these, so ten years
    of history cost about what one does.

    Kept by the ledger (:mod:`scoring.ledger.totals`) with the months, in the same
    transaction.
    """

    year = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["member", "year", "ruleset_version"], name="unique_member_year"
            ),
        ]
        indexes = [
            models.Index(
                fields=["club", "ruleset_version", "year"], name="member_year_club_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member_id} {self.year:%Y} v{self.ruleset_version_id}"


class OnlineGame(models.Model):
    """Where an imported online game came from: its service, its log id (a log
    is imported once: one active row per service and log id; a voided import may be
    imported again), the lobby and rules the log names, and the service's replay page."""

    club = club_key(db_index=False)
    hanchan = models.OneToOneField(
        Hanchan, on_delete=models.CASCADE, related_name="online", verbose_name=_("hanchan")
    )
    service = models.CharField(_("service"), max_length=20, choices=ONLINE_SERVICES)
    log_format = models.CharField(_("log format"), max_length=20)
    log_id = models.CharField(_("log id"), max_length=100)
    lobby = models.CharField(_("lobby"), max_length=40, blank=True)
    rule_label = models.CharField(_("rules in the log"), max_length=60, blank=True)
    replay_url = models.URLField(_("replay"), blank=True)
    imported_by = models.ForeignKey(
        Member,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("imported by"),
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    # False once the game was voided and the log imported again: the voided game keeps its
    # origin, and a log is in the ledger at most once among the games that count.
    active = models.BooleanField(_("active"), default=True)

    objects = ClubManager["OnlineGame"]()

    class Meta:
        verbose_name = _("online game")
        verbose_name_plural = _("online games")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "service", "log_id"],
                condition=models.Q(active=True),
                name="online_game_once_in_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.service}:{self.log_id}"


class WinYaku(models.Model):
    """One yaku of one win: written by the ledger with the hand's other
    facts, from the win's ``yaku`` (an imported online hand, a hand entered by its tiles), or
    as ``yakuman`` for a yakuman entered without them. ``han`` as the win's yaku give it
    (13 a yakuman); ``yakuman`` marks the yakuman ones, for the hall of fame."""

    hand = models.ForeignKey(HandEntry, on_delete=models.CASCADE, related_name="yaku_facts")
    # Copies, as on HandSeat. The member is indexed by win_yaku_member.
    hanchan = models.ForeignKey(
        Hanchan, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    han = models.PositiveSmallIntegerField()
    yakuman = models.BooleanField(default=False)

    objects = GameRowManager["WinYaku"]()

    class Meta:
        indexes = [
            models.Index(fields=["name"], name="win_yaku_name"),
            models.Index(fields=["member", "name"], name="win_yaku_member"),
            models.Index(fields=["yakuman"], name="win_yaku_yakuman"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.han})"


class MannersWarning(models.Model):
    """A steward's note of a member's manners at a game (seed 004 L140-163:
    "酷い場合は上がり放棄となります", seed 001 L1-35): ``severity`` is a warning or, in severe
    cases, agari-houki (the member may not win the rest of the hand). Only stewards write and
    read them (the member page lists them for stewards). Not a ledger fact: no score changes.
    """

    class Severity(models.TextChoices):
        WARNING = "warning", _("warning")
        AGARI_HOUKI = "agari_houki", _("agari-houki (may not win the hand)")

    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="manners_warnings", verbose_name=_("member")
    )
    hanchan = models.ForeignKey(
        Hanchan,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="manners_warnings",
        verbose_name=_("game"),
    )
    noted_by = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("noted by")
    )
    severity = models.CharField(
        _("severity"), max_length=12, choices=Severity.choices, default=Severity.WARNING
    )
    note = models.CharField(_("what happened"), max_length=300)
    noted_at = models.DateTimeField(_("noted at"), auto_now_add=True)

    objects = MemberRowManager["MannersWarning"]()

    class Meta:
        ordering = ["-noted_at"]
        verbose_name = _("manners warning")
        verbose_name_plural = _("manners warnings")

    def __str__(self) -> str:
        return f"{self.member} {self.severity} {self.noted_at:%Y-%m-%d}"


class PlacementFit(models.Model):
    """The placement model's parameters fitted on one club's confirmed games of one ruleset
    family (``scoring.placement``; docs/placement.md): ``params`` as
    ``scoring.placement.Params.to_json`` writes them, already blended with the family's
    prior by ``games``; refitted by the task queue (``scoring.placement_tasks``) as the
    club's games count."""

    club = club_key(db_index=False)
    family = models.CharField(_("ruleset family"), max_length=20)
    params = models.JSONField(_("parameters"))
    games = models.PositiveIntegerField(_("games fitted on"))
    fitted_at = models.DateTimeField(_("fitted at"), auto_now=True)

    objects = ClubManager["PlacementFit"]()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "family"], name="unique_placement_fit")
        ]
        verbose_name = _("placement model")
        verbose_name_plural = _("placement models")

    def __str__(self) -> str:
        return f"{self.family} ({self.games})"
