"""An event's live ranking as the ledger counts it: its tables' counted results
(:func:`scoring.ledger.counts.counted_results`) ranked by :func:`tournaments.ranking.ranking`.

Only reads: the event page, its e-mails, the qualification races and the services' seating
by standing all ask here, so a table waiting for confirmation is left out of every one of
them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.ledger import counted_results
from tournaments.models import Event, Round
from tournaments.ranking import GameResult, RankRow, ranking


@dataclass(frozen=True, slots=True)
class EventRanking:
    """The ranking rows, and whether the format has finals with qualifiers."""

    rows: list[RankRow]
    has_finals: bool


def event_ranking(event: Event) -> EventRanking:
    """The live ranking of ``event`` from its tables' counted results (the ledger's one read,
    :func:`scoring.ledger.counts.counted_results`): a table waiting for confirmation is left
    out until it is confirmed. Three queries."""
    participants = list(event.participants.select_related("member").order_by("number"))
    number_of = {p.member_id: p.number for p in participants}
    phases = {p.pk: p for p in event.phases.all()}
    results = []
    finalists: set[int] = set()
    final_phase = max(
        (p for p in phases.values() if p.qualifiers), key=lambda p: p.number, default=None
    )
    seats = (
        counted_results()
        .filter(hanchan__event_table__round__event=event)
        .values_list("member_id", "points", "rank", "hanchan__event_table__round__phase_id")
    )
    for member_id, points, rank, phase_id in seats:
        phase = phases[phase_id]
        number = number_of[member_id]
        results.append(GameResult(number, phase.number, phase.counts, points or 0, rank or 0))
    if final_phase is not None:
        for rnd in Round.objects.filter(phase=final_phase):
            for table in rnd.seating:
                finalists.update(table)
    rows = ranking(
        [(p.number, p.member.display_name, p.withdrawn, p.member.furigana) for p in participants],
        results,
        finalists,
        has_finals=final_phase is not None,
    )
    return EventRanking(rows, final_phase is not None)
