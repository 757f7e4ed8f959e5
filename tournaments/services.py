"""Running a tournament: create it from a format, edit, cancel or delete it, enter
participants, draw, start rounds, seat by standing, call time (docs/rules-spec.md §4). The
ranking they seat by is read in :mod:`tournaments.live_ranking`.

Each function is one transaction and refuses bad input with :class:`EventError`, changing
nothing. Every table of a started round is a hanchan of the ledger, started through
:func:`scoring.ledger.hanchan_start` with the event's ruleset and the format's overrides,
so the players enter it at the table like any club game.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member, seating_refusal
from scoring.engine import Ruleset, load_ruleset
from scoring.ledger import LedgerError, hanchan_start, settled
from scoring.standings.periods import club_today
from tournaments import clock, emails, formats, seating
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Participant, Phase, Round, Table
from tournaments.ranking import RankRow, seating_order

MAX_ROUND_MINUTES = 300
"""The longest round on the clock (five hours: longer is a typing error)."""


class EventError(Exception):
    """An action on a tournament that is refused; ``str(error)`` says why, for a person."""


def event_create(
    *,
    name: str,
    format_key: str,
    ruleset_id: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    venue: str = "",
    by: Member | None = None,
    carry_over: bool = False,
    plan: formats.FormatPlan | None = None,
    seed: int | None = None,
    tobi: bool | None = None,
) -> Event:
    """Create an event from a preset (``"gp"``, ``"grand_champion"``, ``"meijin"``) or, with
    ``format_key="custom"``, from ``plan`` (:func:`tournaments.formats.custom`). ``tobi``
    overrides whether a bust ends the games (``None``: as the format says; the GP has none,
    §4.1 "飛びは無し").

    Raises:
        EventError: an unknown format or ruleset, no name, a last day before the first.
    """
    name, ends_on = _name_and_days(name, starts_on, ends_on)
    plan, ruleset = _format_plan(format_key, ruleset_id, carry_over=carry_over, plan=plan)
    with transaction.atomic():
        event = Event.objects.create(
            name=name,
            format=format_key,
            ruleset_id=ruleset.id,
            overrides=_overrides(plan, ruleset.tobi, tobi),
            starts_on=starts_on,
            ends_on=ends_on,
            venue=venue[:120],
            seed=seed if seed is not None else random.SystemRandom().randrange(1 << 31),
            created_by=by,
        )
        _phases_create(event, plan)
    return event


def _format_plan(
    format_key: str,
    ruleset_id: str,
    *,
    carry_over: bool,
    plan: formats.FormatPlan | None,
) -> tuple[formats.FormatPlan, Ruleset]:
    """The plan of a preset (or the custom ``plan``) and the ruleset; refuses unknown ones."""
    try:
        ruleset = load_ruleset(ruleset_id)
    except KeyError:
        raise EventError(_("Unknown ruleset.")) from None
    if format_key == "custom":
        if plan is None:
            raise EventError(_("A custom tournament needs its rounds."))
    elif format_key == "grand_champion":
        plan = formats.grand_champion(carry_over=carry_over)
    elif format_key in formats.PRESETS:
        plan = formats.PRESETS[format_key]()
    else:
        raise EventError(_("Unknown tournament format."))
    return plan, ruleset


def _phase_fields(phase: formats.PhasePlan | Phase) -> tuple[object, ...]:
    return (
        phase.kind,
        phase.rounds,
        phase.seating,
        phase.reseat_every,
        phase.qualifiers,
        phase.counts,
        phase.time_limited,
    )


def _phases_create(event: Event, plan: formats.FormatPlan) -> None:
    Phase.objects.bulk_create(
        Phase(
            event=event,
            number=number,
            kind=phase.kind,
            rounds=phase.rounds,
            seating=phase.seating,
            reseat_every=phase.reseat_every,
            qualifiers=phase.qualifiers,
            counts=phase.counts,
            time_limited=phase.time_limited,
            minutes=phase.minutes if phase.time_limited else None,
        )
        for number, phase in enumerate(plan.phases, start=1)
    )


def _name_and_days(
    name: str, starts_on: datetime.date, ends_on: datetime.date | None
) -> tuple[str, datetime.date]:
    name = name.strip()
    if not name or len(name) > 120:
        raise EventError(_("Give the tournament a name (at most 120 characters)."))
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise EventError(_("The last day cannot be before the first."))
    return name, ends_on


def event_edit(
    *,
    event_id: int,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    venue: str = "",
    format_key: str | None = None,
    ruleset_id: str | None = None,
    carry_over: bool = False,
    plan: formats.FormatPlan | None = None,
    tobi: bool | None = None,
    public: bool | None = None,
) -> Event:
    """Change an event's name, days and venue (always), whether its live board is ``public``
    (shown without a login; ``None``: as it is), and with ``format_key`` its format,
    ruleset and rule overrides as :func:`event_create` takes them. A format that differs from
    the event's replaces its phases; rounds drawn but not started are discarded, and a drawn
    event takes participants again (to be drawn anew for the new format).

    Raises:
        EventError: no name, a last day before the first, an unknown format or ruleset, or a
            different format once a round has started or the event is cancelled or finished.
    """
    name, ends_on = _name_and_days(name, starts_on, ends_on)
    with transaction.atomic():
        event = _locked(event_id)
        event.name, event.starts_on, event.ends_on = name, starts_on, ends_on
        event.venue = venue.strip()[:120]
        if public is not None:
            event.public = public
        if format_key is not None:
            new_plan, ruleset = _format_plan(
                format_key, ruleset_id or event.ruleset_id, carry_over=carry_over, plan=plan
            )
            overrides = _overrides(new_plan, ruleset.tobi, tobi)
            phases = [_phase_fields(p) for p in event.phases.order_by("number")]
            changed = (
                format_key != event.format
                or ruleset.id != event.ruleset_id
                or overrides != (event.overrides or {})
                or phases != [_phase_fields(p) for p in new_plan.phases]
            )
            if changed:
                if event.format_locked(round_started=event.round_started()):
                    raise EventError(_("The format can change only while no round has started."))
                Round.objects.filter(event=event).delete()
                event.phases.all().delete()
                _phases_create(event, new_plan)
                event.format, event.ruleset_id, event.overrides = (
                    format_key,
                    ruleset.id,
                    overrides,
                )
                event.status = Event.Status.OPEN
        event.save()
    return event


def event_cancel(*, event_id: int) -> Event:
    """Call an event off: no round starts any more; the games played (and any still in play)
    stay in the ledger as any club game, and the event page marks them.

    Raises:
        EventError: the event is finished or cancelled already.
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.status == Event.Status.FINISHED:
            raise EventError(_("A finished tournament cannot be cancelled."))
        if event.status == Event.Status.CANCELLED:
            raise EventError(_("The tournament is cancelled already."))
        event.status = Event.Status.CANCELLED
        event.save(update_fields=["status"])
    return event


def event_delete(*, event_id: int) -> None:
    """Delete an event that has no games (no round started), with its participants, phases
    and drawn rounds.

    Raises:
        EventError: a round has started: its games are in the ledger (cancel the event).
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.round_started():
            raise EventError(
                _("A round has started: its games stay; cancel the tournament instead.")
            )
        event.delete()


def _overrides(plan: formats.FormatPlan, ruleset_tobi: bool, tobi: bool | None) -> dict:
    """The format's rule overrides with the steward's tobi choice; an override that says
    what the ruleset already says is left out."""
    overrides = dict(plan.overrides)
    if tobi is not None:
        overrides["tobi"] = tobi
    if overrides.get("tobi") == ruleset_tobi:
        del overrides["tobi"]
    return overrides


def participants_set(*, event_id: int, members: Sequence[Member]) -> Event:
    """Enter exactly ``members`` (in this order) in an event that has not started.

    Raises:
        EventError: the event started, a member twice, a deactivated member, or a
            number of players the format
            cannot seat (not a multiple of the table size; 8 for the Grand Champion and the
            Meijin).
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.OPEN:
            raise EventError(_("The tournament has started: its players are set."))
        if len({m.pk for m in members}) != len(members):
            raise EventError(_("A member is entered twice."))
        _check_seatable(members)
        _check_field(event, len(members))
        event.participants.all().delete()
        Participant.objects.bulk_create(
            Participant(event=event, member=member, number=number)
            for number, member in enumerate(members)
        )
    return event


def _check_seatable(members: Sequence[Member]) -> None:
    """No deactivated member is entered or seated: their names refused."""
    refusal = seating_refusal(members)
    if refusal:
        raise EventError(refusal)


def _check_field(event: Event, players: int) -> None:
    size = event.table_size
    if players < size or players % size:
        raise EventError(
            _("%(n)d players cannot sit at tables of %(size)d.") % {"n": players, "size": size}
        )
    needed = {"grand_champion": 8, "meijin": 8}.get(event.format)
    if needed is not None and players != needed:
        raise EventError(_("This format is for %(n)d players.") % {"n": needed})
    finals = [p for p in event.phases.all() if p.qualifiers]
    for phase in finals:
        if phase.qualifiers is not None and (phase.qualifiers > players or phase.qualifiers % size):
            raise EventError(
                _("%(q)d finalists cannot sit at tables of %(size)d out of %(n)d players.")
                % {"q": phase.qualifiers, "size": size, "n": players}
            )


def event_draw(*, event_id: int) -> Event:
    """Draw the first phase's pairing table by lot (all its rounds, in advance, §4.1) and
    start the event. Later phases seated by standing are drawn when they are reached.

    Raises:
        EventError: the event already started, its participants do not fit the format, or
            one of them has been deactivated since they were entered.
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.OPEN:
            raise EventError(_("The tournament has already been drawn."))
        players = list(event.participants.order_by("number"))
        _check_field(event, len(players))
        first = event.phases.order_by("number").first()
        assert first is not None
        drawn = _draw_phase(event, first, [p.number for p in players], round_number=1)
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
        _tell_seating(event, drawn)
    return event


def _draw_phase(event: Event, phase: Phase, order: list[int], *, round_number: int) -> list[int]:
    """Create the rounds of ``phase`` that can be seated now: every round of a phase by lot;
    for a phase by standing, the next ``reseat_every`` rounds (all of them when 0). Returns
    the numbers of the rounds created.

    Raises:
        EventError: a deactivated member among the players of ``order``.
    """
    _check_seatable(
        [p.member for p in event.participants.select_related("member").filter(number__in=order)]
    )
    size = event.table_size
    if phase.seating == Phase.Seating.LOT:
        rounds = seating.lot_rounds(
            len(order), phase.rounds, table_size=size, seed=event.seed + phase.number
        )
        tables_of = [[[order[i] for i in table] for table in rnd] for rnd in rounds]
    else:
        played = Round.objects.filter(phase=phase).count()
        count = phase.reseat_every or phase.rounds
        count = min(count, phase.rounds - played)
        history = _wind_history(event)
        tables_of = seating.by_standing(order, count, table_size=size, winds=history)
    existing = Round.objects.filter(phase=phase).count()
    created = Round.objects.bulk_create(
        Round(event=event, phase=phase, number=round_number + i, seating=tables)
        for i, tables in enumerate(tables_of)
        if existing + i < phase.rounds
    )
    return [rnd.number for rnd in created]


def _tell_seating(event: Event, round_numbers: Sequence[int]) -> None:
    """E-mail every participant their tables of the rounds just drawn, after the commit."""
    if round_numbers:
        transaction.on_commit(
            partial(
                emails.send_seating_emails.enqueue,
                event.pk,
                list(round_numbers),
                club_id=event.club_id,
            ),
            robust=True,
        )


def _wind_history(event: Event) -> dict[int, list[int]]:
    """Per participant number, how often they sat at each seat wind so far (E, S, W, N)."""
    size = event.table_size
    counts: dict[int, list[int]] = {}
    for rnd in Round.objects.filter(event=event):
        for table in rnd.seating:
            for wind, number in enumerate(table):
                counts.setdefault(number, [0] * size)[wind] += 1
    return counts


def round_start(*, round_id: int, minutes: int | None = None) -> Round:
    """Start a round: one game of the ledger per table, seated as drawn, dated today. A
    time-limited round's clock starts now for ``minutes`` (``None``: its phase's length,
    e.g. the GP's :data:`tournaments.formats.GP_ROUND_MINUTES`; T-07).

    Raises:
        EventError: the round started already, an earlier round has a game not finished
            (a round by standing needs the results before it), or a length not from 1 to
            :data:`MAX_ROUND_MINUTES` minutes.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("event", "phase").get(pk=round_id)
        event = rnd.event
        if event.status != Event.Status.RUNNING:
            raise EventError(_("The tournament is not running."))
        if rnd.started_at is not None:
            raise EventError(_("This round has started already."))
        length = rnd.phase.minutes if minutes is None else minutes
        if rnd.phase.time_limited and length is not None and not 1 <= length <= MAX_ROUND_MINUTES:
            raise EventError(_("A round lasts 1 to %(n)d minutes.") % {"n": MAX_ROUND_MINUTES})
        unfinished = Table.objects.filter(round__event=event, round__number__lt=rnd.number).exclude(
            settled("hanchan__")
        )
        if unfinished.exists():
            raise EventError(
                _("Every game of the earlier rounds must be finished and confirmed first.")
            )
        earlier = Round.objects.filter(event=event, number__lt=rnd.number, started_at=None)
        if earlier.exists():
            raise EventError(_("Start the earlier rounds first."))
        members = {p.number: p.member for p in event.participants.select_related("member")}
        # The day the round is played: today, where the club is.
        played_on = club_today()
        for number, table in enumerate(rnd.seating, start=1):
            try:
                hanchan = hanchan_start(
                    ruleset_id=event.ruleset_id,
                    members=[members[n] for n in table],
                    played_on=played_on,
                    venue=event.venue,
                    # The table's number only: the same in every language ("Table 2",
                    # "2卓"); the event and the round are shown from this Table row, in the
                    # reader's language (templatetags/tournament_games.py).
                    table_name=str(number),
                    overrides=event.overrides or None,
                    # Started by the draw, not by the steward who starts the round: the
                    # players confirm each other's game as at any club table (a game
                    # started by a member who does not play would need a steward).
                    by=None,
                )
            except LedgerError as error:
                raise EventError(str(error)) from None
            Table.objects.create(round=rnd, number=number, hanchan=hanchan)
        rnd.started_at = timezone.now()
        if rnd.phase.time_limited and length:
            rnd.ends_at = rnd.started_at + datetime.timedelta(minutes=length)
        rnd.save(update_fields=["started_at", "ends_at"])
    return rnd


def round_call_time(*, round_id: int, by: Member | None = None) -> int:
    """Call time in a time-limited round (T-07): its clock ends now, and every table still
    playing is called through the ledger, except one whose extra time
    (:func:`tournaments.clock.table_extra_time`) still runs: the clock calls it at its own
    end. Returns how many tables were called. One transaction.

    Raises:
        EventError: the round's phase is not time-limited, or the round has not started.
    """
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("phase").get(pk=round_id)
        if not rnd.phase.time_limited:
            raise EventError(_("This round has no time limit."))
        if rnd.started_at is None:
            raise EventError(_("This round has not started."))
        now = timezone.now()
        if rnd.ends_at is None or rnd.ends_at > now:
            rnd.ends_at = now
            rnd.save(update_fields=["ends_at"])
        tables = rnd.tables.select_related("hanchan")
        return clock.call_due(((rnd, table, table.hanchan) for table in tables), by=by)


def event_advance(*, event_id: int) -> Event:
    """After a round's games are all finished: draw what comes next (the next rounds of a
    phase by standing, or the next phase with its qualifiers), or finish the event.

    Raises:
        EventError: a game of a started round is not finished, a drawn round has not
            been played, or a player to be seated is deactivated.
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.RUNNING:
            raise EventError(_("The tournament is not running."))
        if Round.objects.filter(event=event, started_at=None).exists():
            raise EventError(_("A drawn round has not been played yet."))
        if Table.objects.filter(round__event=event).exclude(settled("hanchan__")).exists():
            raise EventError(_("Every game must be finished and confirmed first."))
        played = Round.objects.filter(event=event).count()
        phases = list(event.phases.order_by("number"))
        current = _phase_of_round(phases, played)
        rows = seating_order(_rows(event))
        order = [row.number for row in rows if not row.withdrawn]
        if current is not None and played < _rounds_through(phases, current):
            _tell_seating(event, _draw_phase(event, current, order, round_number=played + 1))
        else:
            after = current.number if current is not None else 0
            following = next((p for p in phases if p.number > after), None)
            if following is None:
                event.status = Event.Status.FINISHED
                event.save(update_fields=["status"])
                return event
            if following.qualifiers:
                order = order[: following.qualifiers]
            _tell_seating(event, _draw_phase(event, following, order, round_number=played + 1))
    return event


def participants_withdraw(*, event_id: int, numbers: Sequence[int]) -> Event:
    """Withdraw participants (by seating number) from a running event: they keep the games
    they played, leave the ranking's order (listed last), and the rounds drawn but not yet
    started are drawn again by lot for the players who remain, avoiding pairs that already
    met (:func:`tournaments.seating.reseat_after_withdrawal`). Later phases seated by
    standing leave them out when they are drawn.

    Raises:
        EventError: the event is not running, an unknown or already withdrawn number, or the
            players who remain would not fill whole tables.
    """
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != Event.Status.RUNNING:
            raise EventError(_("Only a running tournament has players to withdraw."))
        active = {p.number: p for p in event.participants.filter(withdrawn=False)}
        chosen = set(numbers)
        if not chosen or not chosen <= active.keys():
            raise EventError(_("Choose players who are still in the tournament."))
        remaining = sorted(active.keys() - chosen)
        size = event.table_size
        if not remaining or len(remaining) % size:
            raise EventError(
                _(
                    "%(n)d players would remain: withdraw players so that whole tables of "
                    "%(size)d remain."
                )
                % {"n": len(remaining), "size": size}
            )
        Participant.objects.filter(event=event, number__in=chosen).update(withdrawn=True)
        pending = list(
            Round.objects.select_for_update()
            .select_related("phase")
            .filter(event=event, started_at=None)
            .order_by("number")
        )
        by_lot = [rnd for rnd in pending if rnd.phase.seating == Phase.Seating.LOT]
        if by_lot:
            played = list(
                Round.objects.filter(event=event, started_at__isnull=False).order_by("number")
            )
            # The played rounds give the pairs that already met and each player's winds.
            redrawn = seating.reseat_after_withdrawal(
                [rnd.seating for rnd in played] + [rnd.seating for rnd in by_lot],
                len(played),
                remaining,
                table_size=size,
                seed=event.seed + len(played),
            )
            for rnd, tables in zip(by_lot, redrawn[len(played) :], strict=True):
                rnd.seating = tables
                rnd.save(update_fields=["seating"])
        by_standing = [rnd for rnd in pending if rnd.phase.seating == Phase.Seating.STANDING]
        if by_standing:
            # Drawn again from the ranking without the players who left.
            first = by_standing[0]
            Round.objects.filter(pk__in=[rnd.pk for rnd in by_standing]).delete()
            order = [row.number for row in seating_order(_rows(event)) if not row.withdrawn]
            if first.phase.qualifiers:
                order = order[: first.phase.qualifiers]
            _draw_phase(event, first.phase, order, round_number=first.number)
        _tell_seating(event, [rnd.number for rnd in pending])
    return event


def _phase_of_round(phases: Sequence[Phase], played: int) -> Phase | None:
    """The phase the last played round belongs to."""
    total = 0
    for phase in phases:
        total += phase.rounds
        if played <= total:
            return phase
    return None


def _rounds_through(phases: Sequence[Phase], phase: Phase) -> int:
    return sum(p.rounds for p in phases if p.number <= phase.number)


def _rows(event: Event) -> list[RankRow]:
    return event_ranking(event).rows


def _locked(event_id: int) -> Event:
    try:
        return Event.objects.select_for_update().get(pk=event_id)
    except Event.DoesNotExist:
        raise EventError(_("There is no such tournament.")) from None
