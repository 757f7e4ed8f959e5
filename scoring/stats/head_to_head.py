"""Two members against each other: their shared counted games, who
finished above whom, the points between them and the deal-ins between them, each figure with
its n and 95% interval (:mod:`scoring.stats.intervals`).

Games are the counted results both sat in (:func:`scoring.stats.counts.counted_seats`, the
ledger's one read); hands are the ``HandSeat`` facts of those games both were seated for,
chombo hands left out (docs/player-stats.md): games entered as final scores only count in the
game figures and have no hands. Three queries whatever the size of the history, and one more
for the opponents a picker offers (:func:`opponents`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, Sum

from clubsite.models import Member
from scoring.models import HandSeat
from scoring.stats.counts import NOT_CHOMBO, Selection, counted_seats
from scoring.stats.figures import number, squares
from scoring.stats.intervals import Estimate, t_mean, wilson


@dataclass(frozen=True, slots=True)
class Side:
    """One of the two over the shared games and hands: ``placement`` (mean place),
    ``points`` (mean settled points a game), ``deal_ins`` (rate over the shared hands),
    ``fed`` (their deal-ins to the other, a share of their ``deal_ins``), ``fed_value`` (the
    mean value of those wins to the other, in points: the winner's whole win value, honba and
    deposits left out)."""

    member_id: int
    placement: Estimate
    points: Estimate
    deal_ins: Estimate
    fed: Estimate
    fed_value: Estimate


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """``first`` and ``second`` over their ``games`` shared (``hand_games`` with hands
    recorded) and ``hands`` shared: ``first_above`` (the share of games ``first`` finished
    above ``second``), ``margin`` (the mean of ``first``'s points minus ``second``'s, a game)
    and each :class:`Side`."""

    games: int
    hand_games: int
    hands: int
    first_above: Estimate
    margin: Estimate
    first: Side
    second: Side


def head_to_head(first_id: int, second_id: int, chosen: Selection) -> HeadToHead:
    """``first`` against ``second`` over ``chosen`` (counted games only).

    Raises:
        ValueError: the two are the same member.
    """
    if first_id == second_id:
        raise ValueError("a head-to-head needs two members")
    counted = counted_seats(chosen)
    shared = counted.filter(member_id=first_id).values("hanchan_id")
    both = counted.filter(member_id=second_id, hanchan_id__in=shared).values("hanchan_id")
    games: dict[int, dict[int, tuple[int, int, bool]]] = {}
    for hanchan, member, rank, points, no_hands in counted.filter(
        hanchan_id__in=both, member_id__in=(first_id, second_id)
    ).values_list("hanchan_id", "member_id", "rank", "points", "final_scores_only"):
        games.setdefault(hanchan, {})[member] = (rank, points, no_hands)
    n = len(games)
    above = sum(1 for seats in games.values() if seats[first_id][0] < seats[second_id][0])
    margins = [seats[first_id][1] - seats[second_id][1] for seats in games.values()]

    def game_side(member: int, column: int) -> Estimate:
        values = [seats[member][column] for seats in games.values()]
        # A place is 1st to last; points have no bounds.
        within = (1, chosen.players) if column == 0 else (None, None)
        return t_mean(n, sum(values), sum(v * v for v in values), within=within)

    hands = (
        HandSeat.objects.filter(
            hanchan_id__in=both,
            member_id__in=(first_id, second_id),
            hand_id__in=HandSeat.objects.filter(member_id=first_id).values("hand_id"),
        )
        .filter(hand_id__in=HandSeat.objects.filter(member_id=second_id).values("hand_id"))
        .values("member_id")
        .annotate(
            hands=Count("pk", filter=NOT_CHOMBO),
            deal_ins=Count("pk", filter=Q(dealt_in=True)),
            # On the winner's row: the other one dealt in to this win.
            won_off=Count("pk", filter=Q(fed_by_id=first_id) | Q(fed_by_id=second_id)),
            won_value=Sum("win_value", filter=Q(fed_by_id=first_id) | Q(fed_by_id=second_id)),
            won_squares=squares("win_value", Q(fed_by_id=first_id) | Q(fed_by_id=second_id)),
        )
        .order_by()
    )
    rows: dict[int, dict[str, Any]] = {row["member_id"]: dict(row) for row in hands}
    shared_hands = number(rows.get(first_id, {}), "hands")

    def side(member: int, other: int) -> Side:
        own, others = rows.get(member, {}), rows.get(other, {})
        deal_ins, fed = number(own, "deal_ins"), number(others, "won_off")
        return Side(
            member_id=member,
            placement=game_side(member, 0),
            points=game_side(member, 1),
            deal_ins=wilson(deal_ins, shared_hands),
            fed=wilson(fed, deal_ins),
            fed_value=t_mean(
                fed,
                number(others, "won_value"),
                number(others, "won_squares"),
                within=(chosen.least_ron, None),
            ),
        )

    return HeadToHead(
        games=n,
        hand_games=sum(1 for seats in games.values() if not seats[first_id][2]),
        hands=shared_hands,
        first_above=wilson(above, n),
        margin=t_mean(n, sum(margins), sum(m * m for m in margins)),
        first=side(first_id, second_id),
        second=side(second_id, first_id),
    )


def opponents(member_id: int, chosen: Selection) -> list[tuple[int, str]]:
    """``(member id, display name)`` of everyone who shared a counted game of ``chosen`` with
    the member, by name. One query."""
    counted = counted_seats(chosen)
    shared = counted.filter(member_id=member_id).values("hanchan_id")
    return list(
        Member.objects.filter(pk__in=counted.filter(hanchan_id__in=shared).values("member_id"))
        .exclude(pk=member_id)
        .order_by("display_name", "pk")
        .values_list("pk", "display_name")
    )
