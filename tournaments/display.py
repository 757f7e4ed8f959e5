"""What the tournament pages, the printed chart, the CSV and the e-mails show of an event: its
rounds with each table's players in seat order and its game, the seating's quality figures,
a participant's tables, and the ranking with each round's points (docs/rules-spec.md §4).

Read-only: nothing here writes. Points are integers in points (a game's settlement, uma and
oka included), formatted by the templates.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from clubsite.models import Member
from scoring.ledger import ConfirmationState, counted_results, waiting_states
from scoring.models import Hanchan
from scoring.standings.periods import club_today
from tournaments import seating
from tournaments.live_ranking import EventRanking, event_ranking
from tournaments.models import Event, Participant, Phase, Round, Table
from tournaments.ranking import RankRow

WIND_NAMES: tuple[Promise, ...] = (
    pgettext_lazy("seat wind", "East"),
    pgettext_lazy("seat wind", "South"),
    pgettext_lazy("seat wind", "West"),
    pgettext_lazy("seat wind", "North"),
)


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """One seat of a table: ``wind`` name, the participant's ``number`` and ``name``, and
    their ``points`` in the table's game once it is finished."""

    wind: Promise
    number: int
    name: str
    member_id: int
    withdrawn: bool
    points: int | None = None
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class RoundTable:
    """A table of a round: its ``number`` (from 1), ``seats`` in order East, South, West,
    North, and once the round started its ``hanchan`` (``None`` before). ``confirmation``:
    where the game's result stands with confirmation while it waits."""

    number: int
    seats: tuple[RoundSeat, ...]
    hanchan: Hanchan | None
    confirmation: ConfirmationState | None = None

    @property
    def state(self) -> str:
        """``"drawn"``, ``"in_play"``, ``"waiting"`` (a result waiting for confirmation),
        ``"finished"`` (counted) or ``"voided"``."""
        if self.hanchan is None:
            return "drawn"
        if self.confirmation is not None:
            return "waiting"
        return self.hanchan.status

    @property
    def waiting_for(self) -> list[str]:
        """The names of the players whose confirmation is still wanted (empty where one
        more or a steward's will do)."""
        if self.confirmation is None:
            return []
        names = {seat.member_id: seat.name for seat in self.seats}
        return [names[m] for m in self.confirmation.waiting_for if m in names]


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round: its ``number`` over the event, its phase, tables, and whether it has
    ``started`` and is ``finished`` (every table's game finished or voided)."""

    round: Round
    phase: Phase
    tables: tuple[RoundTable, ...]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def started(self) -> bool:
        return self.round.started_at is not None

    @property
    def finished(self) -> bool:
        """Every table's result is final: counted, or voided (a table waiting for
        confirmation keeps the round open)."""
        return self.started and all(
            t.state in (Hanchan.Status.FINISHED, Hanchan.Status.VOIDED) for t in self.tables
        )

    @property
    def waiting(self) -> bool:
        """Started, every game over, a result still waiting for confirmation."""
        return (
            self.started
            and not self.finished
            and all(
                t.state in ("waiting", Hanchan.Status.FINISHED, Hanchan.Status.VOIDED)
                for t in self.tables
            )
        )

    @property
    def playing(self) -> bool:
        """Started, with a game still in play."""
        return self.started and not self.finished

    @property
    def time_callable(self) -> bool:
        """A steward may call time: a time-limited round with a game in play whose time has
        not been called (T-07)."""
        return self.phase.time_limited and any(
            t.hanchan is not None
            and t.hanchan.status == Hanchan.Status.IN_PLAY
            and not t.hanchan.time_called
            for t in self.tables
        )


@dataclass(frozen=True, slots=True)
class PhaseView:
    """A phase with its drawn rounds and, for a phase drawn by lot, the quality figures of
    its pairing table (repeat meetings against the lower bound, most meetings of a pair,
    wind spread)."""

    phase: Phase
    rounds: tuple[RoundView, ...]
    quality: seating.Quality | None


@dataclass(frozen=True, slots=True)
class MyTable:
    """A participant's table in a round: ``round``, ``table`` number, their ``wind`` and the
    others at the table in seat order."""

    round: RoundView
    table: RoundTable
    seat: RoundSeat

    @property
    def others(self) -> tuple[RoundSeat, ...]:
        return tuple(s for s in self.table.seats if s.number != self.seat.number)


@dataclass(slots=True)
class EventView:
    """Everything the event page shows."""

    event: Event
    participants: list[Participant]
    phases: list[PhaseView]
    ranking: EventRanking
    table_size: int
    results_by_number: dict[int, dict[int, int]] = field(default_factory=dict)

    @property
    def rounds(self) -> list[RoundView]:
        return [rnd for phase in self.phases for rnd in phase.rounds]

    @property
    def round_numbers(self) -> list[int]:
        return [rnd.number for rnd in self.rounds]

    @property
    def rounds_left(self) -> int:
        """Rounds of the format not drawn yet (0: advancing finishes the event)."""
        return sum(p.phase.rounds for p in self.phases) - len(self.rounds)

    @property
    def split_totals(self) -> bool:
        """The final total leaves a phase out (the Grand Champion's preliminaries, T-01): the
        ranking shows the finals and the preliminaries in columns of their own."""
        return self.ranking.has_finals and any(not p.phase.counts for p in self.phases)

    def next_round(self) -> RoundView | None:
        """The first drawn round not started yet."""
        return next((rnd for rnd in self.rounds if not rnd.started), None)

    def playing_round(self) -> RoundView | None:
        """The round being played (started, a game not finished)."""
        return next((rnd for rnd in self.rounds if rnd.playing), None)

    def ready_to_advance(self) -> bool:
        """Every drawn round is started and finished, and the event is running."""
        rounds = self.rounds
        return (
            self.event.status == Event.Status.RUNNING
            and bool(rounds)
            and all(rnd.finished for rnd in rounds)
        )

    def participant_of(self, member: Member | None) -> Participant | None:
        if member is None:
            return None
        return next((p for p in self.participants if p.member_id == member.pk), None)

    def tables_of(self, member: Member | None) -> list[MyTable]:
        """The member's table in each drawn round, in round order (empty for a member who is
        not in the event)."""
        participant = self.participant_of(member)
        if participant is None:
            return []
        found = []
        for rnd in self.rounds:
            for table in rnd.tables:
                for seat in table.seats:
                    if seat.number == participant.number:
                        found.append(MyTable(rnd, table, seat))
        return found

    def next_table_of(self, member: Member | None) -> MyTable | None:
        """The member's table that is still to be played: in the round being played (if their
        game there is not finished) or else in the next drawn round."""
        for mine in self.tables_of(member):
            if mine.table.state in ("drawn", Hanchan.Status.IN_PLAY):
                return mine
        return None

    def rows(self) -> list[tuple[int, RankRow, list[int | None]]]:
        """The ranking rows with their place (equal places are not shared: the tie rule
        orders them) and each drawn round's points (``None``: not played)."""
        numbers = self.round_numbers
        return [
            (place, row, [self.results_by_number.get(row.number, {}).get(n) for n in numbers])
            for place, row in enumerate(self.ranking.rows, start=1)
        ]


def event_view(event: Event) -> EventView:
    """Load ``event`` for its page: participants, phases, rounds with their tables and games,
    and the ranking (a fixed number of queries whatever the event's size)."""
    participants = list(event.participants.select_related("member__user").order_by("number"))
    by_number = {p.number: p for p in participants}
    size = event.table_size
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    tables = Table.objects.filter(round__event=event).select_related("hanchan__ruleset_version")
    game_of: dict[tuple[int, int], Hanchan] = {(t.round_id, t.number): t.hanchan for t in tables}
    waiting = waiting_states(game_of.values(), club_today())
    scored_of: dict[int, dict[int, tuple[int | None, int | None]]] = {}
    for hanchan_id, member_id, counted_points, counted_rank in (
        counted_results()
        .filter(hanchan__event_table__round__event=event)
        .values_list("hanchan_id", "member_id", "points", "rank")
    ):
        scored_of.setdefault(hanchan_id, {})[member_id] = (counted_points, counted_rank)
    results: dict[int, dict[int, int]] = {}
    round_views: dict[int, list[RoundView]] = {}
    phases = list(event.phases.order_by("number"))
    phase_of = {p.pk: p for p in phases}
    for rnd in rounds:
        table_views = []
        for index, numbers in enumerate(rnd.seating, start=1):
            hanchan = game_of.get((rnd.pk, index))
            scored = {} if hanchan is None else scored_of.get(hanchan.pk, {})
            seats = []
            for wind, number in enumerate(numbers):
                participant = by_number[number]
                points, rank = scored.get(participant.member_id, (None, None))
                if points is not None:
                    results.setdefault(number, {})[rnd.number] = points
                seats.append(
                    RoundSeat(
                        WIND_NAMES[wind],
                        number,
                        participant.member.display_name,
                        participant.member_id,
                        participant.withdrawn,
                        points,
                        rank,
                    )
                )
            table_views.append(
                RoundTable(
                    index,
                    tuple(seats),
                    hanchan,
                    None if hanchan is None else waiting.get(hanchan.pk),
                )
            )
        round_views.setdefault(rnd.phase_id, []).append(
            RoundView(rnd, phase_of[rnd.phase_id], tuple(table_views))
        )
    phase_views = []
    for phase in phases:
        drawn = round_views.get(phase.pk, [])
        quality = None
        if phase.seating == Phase.Seating.LOT and drawn:
            quality = seating.quality([rnd.round.seating for rnd in drawn], len(participants), size)
        phase_views.append(PhaseView(phase, tuple(drawn), quality))
    return EventView(
        event=event,
        participants=participants,
        phases=phase_views,
        ranking=event_ranking(event),
        table_size=size,
        results_by_number=results,
    )


def phase_label(phase: Phase, phases: Sequence[Phase]) -> str:
    """The phase's name as the page shows it: "Preliminaries", "Finals", or for a format of
    one kind in several phases, "Games 1-2", "Games 3-8"."""
    kinds = [p.kind for p in phases]
    if kinds.count(phase.kind) == 1:
        return str(phase.get_kind_display())
    first = sum(p.rounds for p in phases if p.number < phase.number) + 1
    last = first + phase.rounds - 1
    return f"{phase.get_kind_display()} {first}–{last}"
