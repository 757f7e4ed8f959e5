"""Who fed whom: for a member, how many of their deal-ins went to each
winner and how many of each opponent's deal-ins they won, over one family and period.

Read from the ``HandSeat`` facts of counted games (:mod:`scoring.stats.counts`): a ron
winner's row names the member who dealt in (``fed_by``), so a double ron is one deal-in for
the discarder and one line for each winner; the liable player of a pao pays without dealing
in and is on no line (docs/player-stats.md). Three queries whatever the size of the history.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from clubsite.models import Member
from scoring.models import HandSeat
from scoring.stats.counts import Selection, counted_seats
from scoring.stats.intervals import Estimate, wilson


@dataclass(frozen=True, slots=True)
class FedLine:
    """One opponent: ``fed`` of the member's deal-ins that went to them (a share of all the
    member's deal-ins, ``deal_ins``), ``won`` of the opponent's deal-ins the member won (a share
    of the member's ron wins, ``ron_wins``)."""

    member_id: int
    name: str
    fed: Estimate
    won: Estimate


@dataclass(frozen=True, slots=True)
class Feeding:
    """The member's ``deal_ins`` and ``ron_wins`` over the selection, and a :class:`FedLine`
    per opponent with either count above 0, most deal-ins to them first (then most won, then
    by name)."""

    deal_ins: int
    ron_wins: int
    lines: tuple[FedLine, ...]


def feeding(member_id: int, chosen: Selection) -> Feeding:
    """Who the member fed and who fed them over ``chosen`` (counted games only). Three
    queries: the member's totals, the pairs, the names."""
    games = counted_seats(chosen).filter(member_id=member_id).values("hanchan_id")
    facts = HandSeat.objects.filter(hanchan_id__in=games)
    totals = facts.filter(member_id=member_id).aggregate(
        deal_ins=Count("pk", filter=Q(dealt_in=True)),
        ron_wins=Count("pk", filter=Q(fed_by__isnull=False)),
    )
    deal_ins, ron_wins = totals["deal_ins"], totals["ron_wins"]
    fed: dict[int, int] = {}
    won: dict[int, int] = {}
    for winner, discarder, count in (
        facts.filter(Q(fed_by_id=member_id) | Q(member_id=member_id, fed_by__isnull=False))
        .values("member_id", "fed_by_id")
        .annotate(count=Count("pk"))
        .values_list("member_id", "fed_by_id", "count")
        .order_by()
    ):
        if discarder == member_id:
            fed[winner] = count
        else:
            won[discarder] = count
    opponents = set(fed) | set(won)
    names = dict(Member.objects.filter(pk__in=opponents).values_list("pk", "display_name"))
    lines = [
        FedLine(
            member_id=opponent,
            name=names[opponent],
            fed=wilson(fed.get(opponent, 0), deal_ins),
            won=wilson(won.get(opponent, 0), ron_wins),
        )
        for opponent in opponents
    ]
    lines.sort(key=lambda line: (-line.fed.total, -line.won.total, line.name))
    return Feeding(deal_ins, ron_wins, tuple(lines))
