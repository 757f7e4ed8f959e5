"""Monthly and half-year champions (月間チャンピオン, 上半期/下半期チャンピオン), from the
counted results (docs/rules-spec.md §4.4, T-04, T-06): the highest total of the month (half
year) among members with the minimum games, over the club's standard-rule games by default.
Minimums and the tie rule are club settings (``CHAMPION_MIN_GAMES``,
``HALF_YEAR_CHAMPION_MIN_GAMES``, ``CHAMPION_TIES``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.db.models import Min

from scoring.models import MemberMonth
from scoring.standings.counted import MONTH_SUMS, counted_versions, display_names, merge
from scoring.standings.periods import (
    EARLIEST,
    Period,
    club_today,
    half_year_of,
    half_year_period,
    month_period,
)
from scoring.standings.table import StandingsRow, order_key, period_standings, qualified


@dataclass(frozen=True, slots=True)
class Title:
    """Who holds the monthly or half-year title of ``period``.

    ``holders``: one row, or several when the title is shared, or none when nobody played
    ``min_games`` games; each row is the holder's record over the period, so ``points`` is
    the "チャンピオン月のポイント" that ranks monthly champions for the Meijin (§4.3 B).
    """

    period: Period
    min_games: int
    holders: tuple[StandingsRow, ...]

    @property
    def points(self) -> int | None:
        """The holders' total points over the period (``None`` without a holder)."""
        return self.holders[0].total_points if self.holders else None


@dataclass(frozen=True, slots=True)
class ChampionsHistory:
    """Every past title, newest first: ``months`` and ``halves`` (half years)."""

    months: tuple[Title, ...]
    halves: tuple[Title, ...]


def monthly_champion(
    year: int,
    month: int,
    *,
    ruleset_ids: Sequence[str] | None = None,
    min_games: int | None = None,
) -> Title:
    """The 月間チャンピオン of ``month``/``year`` (rules-spec §4.4, T-06).

    The highest total points of the month among members with at least ``min_games`` games
    (default ``settings.CHAMPION_MIN_GAMES``; the spec states no minimum), over the club's
    standard-rule games by default. Equal totals follow ``settings.CHAMPION_TIES`` (see
    :func:`title_holders`).

    Three queries (those of :func:`standings`).
    """
    minimum = settings.CHAMPION_MIN_GAMES if min_games is None else min_games
    period = month_period(year, month)
    table = period_standings(period, ruleset_ids=ruleset_ids, min_games=minimum)
    return Title(period, minimum, title_holders(table.rows))


def half_year_champion(
    year: int,
    half: int,
    *,
    ruleset_ids: Sequence[str] | None = None,
    min_games: int | None = None,
) -> Title:
    """The 上半期 (``half=1``, January-June) or 下半期 (``half=2``) champion of ``year``.

    The highest total points of the half year (the "トータルポイント" of §4.4 item 4) among
    members with at least ``min_games`` games (default
    ``settings.HALF_YEAR_CHAMPION_MIN_GAMES``); ties as :func:`monthly_champion`.

    Three queries. Raises ``ValueError`` for a ``half`` other than 1 or 2.
    """
    minimum = settings.HALF_YEAR_CHAMPION_MIN_GAMES if min_games is None else min_games
    period = half_year_period(year, half)
    table = period_standings(period, ruleset_ids=ruleset_ids, min_games=minimum)
    return Title(period, minimum, title_holders(table.rows))


def title_holders(
    rows: Sequence[StandingsRow], ties: str | None = None
) -> tuple[StandingsRow, ...]:
    """Who takes the title, given the qualified ``rows`` in standings order.

    ``ties`` (default ``settings.CHAMPION_TIES``), the club's rule for equal top totals,
    which the spec leaves open (§4.4):

    - ``"standings"``: broken as in the standings, by average rank, then best game; the
      title is shared only by members equal on all three (never decided by name);
    - ``"shared"``: everyone on the top total shares the title.

    Raises ``ValueError`` for another rule.
    """
    rule = settings.CHAMPION_TIES if ties is None else ties
    if rule not in ("standings", "shared"):
        raise ValueError(f"CHAMPION_TIES must be 'standings' or 'shared', not {rule!r}")
    if not rows:
        return ()
    top = rows[0]
    if rule == "shared":
        return tuple(r for r in rows if r.total_points == top.total_points)
    # Tied holders: equal on every key but the name.
    key = order_key()
    return tuple(r for r in rows if key(r)[:-1] == key(top)[:-1])


def champions_history(
    *,
    today: date | None = None,
    ruleset_ids: Sequence[str] | None = None,
    since: date | None = None,
) -> ChampionsHistory:
    """Every completed month and half year with its champion(s), newest first.

    From the month (half year) of the first counted game, or of ``since`` if later (the
    first day of a month; half years from the one it starts), up to the last one that ended
    before ``today`` (default :func:`club_today`); a period in which nobody met the minimum
    (or nobody played) is listed with no holders. Minimums and ties as
    :func:`monthly_champion` and :func:`half_year_champion`.

    Three queries: the ruleset versions, the members' monthly totals (``MemberMonth``), the
    members' names; half years are summed from the monthly figures (totals, counts and
    maxima add up exactly).
    """
    today = club_today() if today is None else today
    this_month = month_period(today.year, today.month)
    counted = counted_versions(ruleset_ids)
    first_month = EARLIEST if since is None else half_year_of(since).start
    monthly = (
        MemberMonth.objects.filter(
            ruleset_version_id__in=list(counted.ids),
            month__range=(first_month, this_month.previous().end),
        )
        .values("member_id", "month")
        .annotate(**MONTH_SUMS)
        .order_by()
    )
    names: dict[int, str] = {}
    # Keyed by the first day of the month / half year.
    by_month: dict[date, list[Mapping[str, Any]]] = defaultdict(list)
    by_half: dict[date, dict[int, dict[str, Any]]] = defaultdict(dict)
    for values in monthly:
        first_day: date = values["month"]
        by_month[first_day].append(values)
        half = by_half[half_year_of(first_day).start]
        half[values["member_id"]] = merge(half.get(values["member_id"]), values)
    if not by_month:
        return ChampionsHistory(months=(), halves=())
    names.update(display_names({v["member_id"] for rows in by_month.values() for v in rows}))

    month_minimum = settings.CHAMPION_MIN_GAMES
    half_minimum = settings.HALF_YEAR_CHAMPION_MIN_GAMES
    first = min(by_month)
    months = []
    period = month_period(first.year, first.month)
    if since is not None and since > period.start:
        period = month_period(since.year, since.month)
    while period.end < today:
        rows = qualified(_top(by_month.get(period.start, ()), month_minimum), month_minimum, names)
        months.append(Title(period, month_minimum, title_holders(rows)))
        period = period.next()
    halves = []
    period = half_year_of(first)
    while period.end < today:
        rows = qualified(
            _top(by_half.get(period.start, {}).values(), half_minimum), half_minimum, names
        )
        halves.append(Title(period, half_minimum, title_holders(rows)))
        period = period.next()
    return ChampionsHistory(months=tuple(reversed(months)), halves=tuple(reversed(halves)))


def first_counted_month(ruleset_ids: Sequence[str] | None = None) -> date | None:
    """The first month with a counted game (``None`` without one). Two queries."""
    counted = counted_versions(ruleset_ids)
    first: date | None = MemberMonth.objects.filter(
        ruleset_version_id__in=list(counted.ids)
    ).aggregate(first=Min("month"))["first"]
    return first


def _top(rows: Iterable[Mapping[str, Any]], minimum: int) -> list[Mapping[str, Any]]:
    """Of a period's aggregate rows, those with the minimum games and the highest total: all
    a title is decided among (the standings order starts with the total), so only they
    become standings rows (ten years of members' months would otherwise be tens of
    thousands)."""
    eligible = [values for values in rows if values["games"] >= minimum]
    if not eligible:
        return []
    best = max(values["total_points"] for values in eligible)
    return [values for values in eligible if values["total_points"] == best]
