"""Members' totals per month (``MemberMonth``) and per year (``MemberYear``), kept up to date
in the transaction that counts a game (scoring.ledger.confirmation, scoring.ledger.write).
They are counted data, as ``CountedSeat`` is, so the ledger keeps them and the standings read
them (the ledger imports nothing of the standings).

A row is recomputed rather than added to, since the best game is a maximum: :func:`refresh`
recomputes the month rows of the games' members, months and ruleset versions from the
counted results, then their year rows from the month rows, each with one aggregate that the
database inserts itself (``INSERT … SELECT``), and replaces them.
"""

from __future__ import annotations

import calendar
import datetime
from collections.abc import Iterable
from typing import Any

from django.db import connections, router
from django.db.models import (
    BigIntegerField,
    Count,
    ExpressionWrapper,
    F,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import TruncMonth, TruncYear

from scoring.ledger.rows import SEAT_SUMS
from scoring.models import CountedSeat, MemberMonth, MemberYear

# Best game in the same aggregate as the rest: Max(points * 2**32 + (2**32 - 1 - hanchan_id))
# is the highest points, and among equal points the lowest (earliest entered) game id; both
# are decoded exactly. Points fit in 32 bits (an IntegerField), ids are below 2**32.
BEST_SHIFT = 32
BEST_MASK = (1 << BEST_SHIFT) - 1

AGGREGATES: dict[str, Any] = {
    "games": Count("pk"),
    "total_points": Sum("points"),
    "rank_sum": Sum("rank"),
    "first": Count("pk", filter=Q(rank=1)),
    "second": Count("pk", filter=Q(rank=2)),
    "third": Count("pk", filter=Q(rank=3)),
    "fourth": Count("pk", filter=Q(rank=4)),
    "lasts": Count("pk", filter=Q(last_place=True)),
    "tobis": Count("pk", filter=Q(busted=True)),
    # The club's own units: chips and ep, 0 under rulesets without them.
    "chips": Sum("chips"),
    "uma_ep": Sum("uma_ep"),
    "best": Max(
        ExpressionWrapper(
            F("points") * Value(1 << BEST_SHIFT) + (Value(BEST_MASK) - F("hanchan_id")),
            output_field=BigIntegerField(),
        )
    ),
}
"""A standings row's figures in one pass over the counted results (see ``StandingsRow``)."""

ADDED = ("games", "total_points", "rank_sum", "first", "second", "third", "fourth", "lasts",
         "tobis", "chips", "uma_ep")  # fmt: skip


# The figures of a standings row as sums of the members' months (MemberMonth columns).
MONTH_SUMS: dict[str, Any] = {
    **{name: Sum(name) for name in ADDED},
    "best": Max("best"),
}

# The per-hand sums a month adds up, besides the standings row's figures: a counted seat's.
HAND_SUMS = SEAT_SUMS


def refresh(
    members: Iterable[int], months: Iterable[datetime.date], versions: Iterable[int]
) -> None:
    """Recompute the ``MemberMonth`` rows of ``members`` in ``months`` (first days) under
    ``versions``, and the ``MemberYear`` rows of their years: per table one delete and one
    ``INSERT … SELECT`` of the aggregate, so the rows never pass through Python (an import of
    many months: the roll-ups were a sixth of its store)."""
    members, months, versions = set(members), sorted(set(months)), set(versions)
    if not members or not months or not versions:
        return
    counted = (
        CountedSeat.objects.filter(
            member_id__in=members,
            ruleset_version_id__in=versions,
            played_on__range=(months[0], _month_end(months[-1])),
            # A guest's seat at the club's event counts in the event, not in its totals.
            guest=False,
        )
        .annotate(month=TruncMonth("played_on"))
        .filter(month__in=months)
        .values("club_id", "member_id", "ruleset_version_id", "month")
        .annotate(**AGGREGATES, **{name: Sum(name) for name in HAND_SUMS})
        .order_by()
    )
    MemberMonth.objects.filter(
        member_id__in=members, ruleset_version_id__in=versions, month__in=months
    ).delete()
    _insert_select(MemberMonth, counted)
    years = sorted({datetime.date(m.year, 1, 1) for m in months})
    summed = (
        MemberMonth.objects.filter(
            member_id__in=members,
            ruleset_version_id__in=versions,
            month__range=(years[0], datetime.date(years[-1].year, 12, 31)),
        )
        .annotate(year=TruncYear("month"))
        .filter(year__in=years)
        .values("club_id", "member_id", "ruleset_version_id", "year")
        .annotate(**MONTH_SUMS, **{name: Sum(name) for name in HAND_SUMS})
        .order_by()
    )
    MemberYear.objects.filter(
        member_id__in=members, ruleset_version_id__in=versions, year__in=years
    ).delete()
    _insert_select(MemberYear, summed)


def _insert_select(model: type[MemberMonth] | type[MemberYear], grouped: QuerySet[Any]) -> None:
    """Insert the rows of ``grouped`` (a ``values()`` aggregate whose names are ``model``'s
    columns) into ``model``'s table in the database, in one statement. Every sum is over
    columns that are never NULL, in groups of at least one row, so none is NULL."""
    query = grouped.query
    names = [*query.values_select, *query.annotation_select]
    sql, params = query.sql_with_params()
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    column = {field.attname: str(field.column) for field in model._meta.concrete_fields}
    columns = ", ".join(quote(column[name]) for name in names)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {quote(model._meta.db_table)} ({columns}) {sql}", params)


def _month_end(month: datetime.date) -> datetime.date:
    # Not periods.month_period: the ledger imports nothing of the standings.
    return month.replace(day=calendar.monthrange(month.year, month.month)[1])


__all__ = [
    "ADDED",
    "AGGREGATES",
    "BEST_MASK",
    "BEST_SHIFT",
    "HAND_SUMS",
    "MONTH_SUMS",
    "refresh",
]
