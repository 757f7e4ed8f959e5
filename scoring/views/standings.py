"""The standings and champions pages. Every figure comes from :mod:`scoring.standings` (the
counted results, never a replay); the filters and number formats are
:mod:`scoring.views.standings_filters`, the CSV exports :mod:`scoring.views.standings_csv`."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from clubsite.club_scope import current_club
from scoring import standings as st
from scoring.ledger import waiting_games
from scoring.views.display import Cell
from scoring.views.standings_filters import (
    Filters,
    percent,
    period_label,
    period_params,
    points_cell,
    read_filters,
    ruleset_label,
    two_decimals,
    unit_cell,
)
from scoring.views.table import HtmxHttpRequest, wants_fragment

STANDINGS_TEMPLATE = "scoring/standings.html"


# -- the standings -------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str
    label: Any
    ascending_first: bool = False


COLUMNS = (
    Column("name", gettext_lazy("Player"), ascending_first=True),
    Column("games", gettext_lazy("Games")),
    Column("total_points", gettext_lazy("Total")),
    # The club's own units, shown where the table's rulesets settle them.
    Column("uma_ep", gettext_lazy("ep")),
    Column("chips", gettext_lazy("Chips")),
    Column("average_points", gettext_lazy("Average")),
    Column("average_rank", gettext_lazy("Avg. rank"), ascending_first=True),
    Column("first_rate", gettext_lazy("1st")),
    Column("second_rate", gettext_lazy("2nd")),
    Column("third_rate", gettext_lazy("3rd")),
    Column("fourth_rate", gettext_lazy("4th")),
    Column("top_rate", gettext_lazy("Top rate")),
    Column("last_avoidance_rate", gettext_lazy("Last avoided")),
    Column("tobi_rate", gettext_lazy("Bust rate")),
    Column("best_points", gettext_lazy("Best game")),
)


@dataclass(frozen=True)
class HeaderCell:
    key: str
    label: str
    url: str
    aria_sort: str  # "ascending", "descending" or ""


@dataclass(frozen=True)
class StandingsLine:
    """One row of the standings table, formatted."""

    position: int
    member_id: int
    name: str
    games: int
    total: Cell
    average: Cell
    average_rank: str
    rank_rates: tuple[str, str, str, str]
    top_rate: str
    last_avoidance_rate: str
    tobi_rate: str
    best: Cell
    best_hanchan_id: int
    uma_ep: Cell | None = None
    chips: Cell | None = None

    @classmethod
    def of(cls, position: int, row: st.StandingsRow, units: Sequence[str] = ()) -> StandingsLine:
        first, second, third, fourth = (percent(r) for r in row.rank_rates)
        return cls(
            position=position,
            member_id=row.member_id,
            name=row.display_name,
            games=row.games,
            total=points_cell(row.total_points),
            average=points_cell(row.average_points),
            average_rank=two_decimals(row.average_rank),
            rank_rates=(first, second, third, fourth),
            top_rate=percent(row.top_rate),
            last_avoidance_rate=percent(row.last_avoidance_rate),
            tobi_rate=percent(row.tobi_rate),
            best=points_cell(row.best_points),
            best_hanchan_id=row.best_hanchan_id,
            uma_ep=unit_cell(row.uma_ep) if "ep" in units else None,
            chips=unit_cell(row.chips) if "chips" in units else None,
        )


def ordered(
    rows: Sequence[st.StandingsRow], filters: Filters, units: Sequence[str] = ()
) -> list[StandingsLine]:
    """The rows in the order asked for, each with its place in the standings order."""
    position = {row.member_id: index for index, row in enumerate(rows, start=1)}
    if filters.sort:
        rows = st.sort_rows(rows, filters.sort, descending=filters.descending)
    return [StandingsLine.of(position[row.member_id], row, units) for row in rows]


UNIT_COLUMNS = {"uma_ep": "ep", "chips": "chips"}


def header_cells(filters: Filters, units: Sequence[str] = ()) -> list[HeaderCell]:
    """The header of the table: every column, the club units' only where ``units`` has them."""
    cells = []
    for column in COLUMNS:
        if column.key in UNIT_COLUMNS and UNIT_COLUMNS[column.key] not in units:
            continue
        current = filters.sort == column.key or (not filters.sort and column.key == "total_points")
        if filters.sort == column.key:
            descending = not filters.descending
        else:
            descending = not column.ascending_first
        sort = [("sort", column.key), ("dir", "desc" if descending else "asc")]
        url = "?" + urlencode(filters.params(sort=False) + sort)
        aria = ""
        if current:
            aria = "descending" if (filters.descending or not filters.sort) else "ascending"
        cells.append(HeaderCell(column.key, str(column.label), url, aria))
    return cells


@require_safe
def standings_page(request: HtmxHttpRequest) -> HttpResponse:
    """The standings of a period (default: this month), with filters and sortable columns.
    A sort link followed with htmx gets the table alone."""
    filters = read_filters(request.GET, st.current_month_period())
    table = st.period_standings(
        filters.period,
        ruleset_ids=filters.ruleset_ids,
        min_games=filters.min_games,
        tournaments=filters.tournaments,
    )
    waiting = waiting_games(never_counted=True).filter(
        played_on__range=(filters.period.start, filters.period.end),
        ruleset_version_id__in=table.version_ids,
    )
    if not filters.tournaments:
        waiting = waiting.exclude(st.tournament_games())
    previous, following = filters.neighbours()
    context = {
        # Results not confirmed yet count nowhere; the page says how many wait.
        "waiting": waiting.count(),
        "filters": filters,
        "tournament_filter": True,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": previous,
        "next": following,
        "quick_links": filters.quick_links(),
        "headers": header_cells(filters, table.units),
        "units": table.units,
        "ties": tie_words(),
        "rows": ordered(table.rows, filters, table.units),
        "below_minimum": ordered(table.below_minimum, filters, table.units),
        "min_games": filters.min_games,
        "rulesets": [ruleset_label(r) for r in table.ruleset_ids],
    }
    template = STANDINGS_TEMPLATE
    if wants_fragment(request):
        template += "#standings-table"
    return render(request, template, context)


# How the page words each tie-breaker of a club's ``standings_ties`` (the stewards' club
# settings page offers them in these words too).
TIE_WORDS = {
    "average_rank": gettext_lazy("average rank"),
    "best_points": gettext_lazy("best game"),
    "top_rate": gettext_lazy("top rate"),
    "games": gettext_lazy("games played"),
}


def tie_words() -> str:
    """The club's tie-breakers in the reader's words, in their order: "average rank, then
    best game" (the current club's ``standings_ties``)."""
    words = [str(TIE_WORDS[name]) for name in current_club().standings_ties]
    return str(gettext(", then ")).join(words) if words else str(gettext("name"))


# -- champions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TitleLine:
    """A title on the champions page: the holders' points and, where the standard rulesets
    settle them, their ep and chips over the period."""

    label: str
    query: str
    holders: list[tuple[int, str]]
    points: Cell | None
    games: int | None
    uma_ep: Cell | None = None
    chips: Cell | None = None


def title_line(title: st.Title, units: Sequence[str] = ()) -> TitleLine:
    holder = title.holders[0] if title.holders else None
    return TitleLine(
        label=period_label(title.period),
        query="?" + urlencode(period_params(title.period)),
        holders=[(row.member_id, row.display_name) for row in title.holders],
        points=None if title.points is None else points_cell(title.points),
        games=holder.games if holder else None,
        uma_ep=unit_cell(holder.uma_ep) if holder and "ep" in units else None,
        chips=unit_cell(holder.chips) if holder and "chips" in units else None,
    )


@require_safe
def champions_page(request: HtmxHttpRequest) -> HttpResponse:
    """This month's leader and the monthly and half-year champions, newest first: of the last
    12 completed months (and the half years they touch), or with ``?year=YYYY`` of that year
    alone, with links to every year (so that the page stays the same size however long the
    club's history)."""
    today = st.club_today()
    first = st.first_counted_month()
    years = list(range(today.year, first.year - 1, -1)) if first else [today.year]
    try:
        year = int(request.GET.get("year", ""))
    except ValueError:
        year = None
    if year is not None and year not in years:
        year = None
    if year is None:
        year_ago = st.month_period(today.year - 1, today.month).start
        history = st.champions_history(today=today, since=year_ago)
    else:
        history = st.champions_history(
            today=min(today, datetime.date(year + 1, 1, 1)), since=datetime.date(year, 1, 1)
        )
    month = st.current_month_period()
    minimum = settings.CHAMPION_MIN_GAMES
    table = st.period_standings(month, min_games=minimum)
    leaders = st.title_holders(table.rows)
    context = {
        "month_label": period_label(month),
        "month_query": "?" + urlencode(period_params(month)),
        "leaders": [StandingsLine.of(1, row, table.units) for row in leaders],
        "units": table.units,
        "min_games": minimum,
        "half_min_games": settings.HALF_YEAR_CHAMPION_MIN_GAMES,
        "months": [title_line(t, table.units) for t in history.months],
        "halves": [title_line(t, table.units) for t in history.halves],
        "year": year,
        "years": years,
    }
    return render(request, "scoring/champions.html", context)
