"""Standings, champions and the player page, with their CSV exports.

Every figure comes from :mod:`scoring.standings` (the stored settlement, never a replay); this
module only picks the period and filters from the query string, formats the numbers and
computes the charts' coordinates (:mod:`scoring.views.charts`).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from clubsite.formatting import MINUS, format_points, format_thousands
from clubsite.models import Member
from scoring import standings as st
from scoring.engine import load_ruleset
from scoring.hand_labels import SEAT_WINDS
from scoring.standings_forms import StandingsFilterForm
from scoring.views.charts import LineChart, value_chart
from scoring.views.display import Cell, rank_label, ruleset_title, sign_class
from scoring.views.table import HtmxHttpRequest, wants_fragment

STANDINGS_TEMPLATE = "scoring/standings.html"
LAST_GAMES = 20

# -- numbers as people read them -----------------------------------------------------------


def thousands_one_decimal(points: int | Fraction) -> str:
    """Points in thousands with exactly one decimal, signed: 55000 -> "+55.0",
    Fraction(-37250, 3) -> "−12.4" (rounded to 100 points, halves away from zero)."""
    hundreds = st.round_half_away(Fraction(points) / 100)
    text = f"{abs(hundreds) // 10}.{abs(hundreds) % 10}"
    if hundreds > 0:
        return f"+{text}"
    return f"{MINUS}{text}" if hundreds < 0 else text


def points_cell(points: int | Fraction) -> Cell:
    return Cell(thousands_one_decimal(points), sign_class(st.round_half_away(Fraction(points))))


def two_decimals(value: Fraction) -> str:
    """An average rank: Fraction(5, 2) -> "2.50"."""
    hundredths = st.round_half_away(value * 100)
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def percent(rate: Fraction | None) -> str:
    """A rate as a percentage with one decimal: Fraction(1, 3) -> "33.3%"; None -> "–"."""
    if rate is None:
        return "–"
    tenths = st.round_half_away(rate * 1000)
    return f"{tenths // 10}.{tenths % 10}%"


def csv_thousands(points: int) -> str:
    """Points for a spreadsheet: thousands, one decimal, ASCII minus, no plus sign."""
    return thousands_one_decimal(points).replace(MINUS, "-").lstrip("+")


def ruleset_label(ruleset_id: str) -> str:
    """A ruleset id's name in the reader's language (the id when it is not a built-in)."""
    try:
        return ruleset_title(load_ruleset(ruleset_id).name)
    except KeyError:
        return ruleset_id


# -- periods and filters -------------------------------------------------------------------


def period_params(period: st.Period) -> list[tuple[str, str]]:
    """The query-string parameters that name ``period`` (see StandingsFilterForm)."""
    if period.kind == "month":
        return [("period", "month"), ("month", period.start.strftime("%Y-%m"))]
    if period.kind == "half_year":
        return [("period", "half"), ("year", str(period.year)), ("half", str(period.number))]
    if period.kind == "year":
        return [("period", "year"), ("year", str(period.year))]
    if period.kind == "range":
        return [
            ("period", "range"),
            ("start", period.start.isoformat()),
            ("end", period.end.isoformat()),
        ]
    return [("period", "all")]


def period_label(period: st.Period) -> str:
    if period.kind == "month":
        return date_format(period.start, "YEAR_MONTH_FORMAT")
    if period.kind == "half_year":
        if period.number == 1:
            return _("%(year)d first half") % {"year": period.year}
        return _("%(year)d second half") % {"year": period.year}
    if period.kind == "year":
        return _("Year %(year)d") % {"year": period.year}
    if period.kind == "range":
        return _("%(start)s to %(end)s") % {
            "start": date_format(period.start, "SHORT_DATE_FORMAT"),
            "end": date_format(period.end, "SHORT_DATE_FORMAT"),
        }
    return _("All time")


def chosen_period(form: StandingsFilterForm, default: st.Period) -> st.Period:
    """The period the valid ``form`` names; ``default`` for an invalid or empty one."""
    if not form.is_valid():
        return default
    data = form.cleaned_data
    kind = data.get("period")
    today = st.club_today()
    if kind == "month":
        chosen: date = data.get("month") or today
        return st.month_period(chosen.year, chosen.month)
    if kind == "half":
        return st.half_year_period(data["year"], int(data["half"]))
    if kind == "year":
        return st.year_period(data["year"])
    if kind == "range":
        return st.range_period(data["start"], data["end"])
    if kind == "all":
        return st.all_time_period()
    return default


@dataclass(frozen=True)
class PeriodLink:
    label: str
    url: str
    current: bool = False


@dataclass(frozen=True)
class Filters:
    """What the query string chose, and the links that keep it."""

    form: StandingsFilterForm
    period: st.Period
    ruleset_ids: list[str] | None  # None: the club's standard rulesets
    min_games: int
    sort: str
    descending: bool

    def params(
        self, *, period: st.Period | None = None, sort: bool = True
    ) -> list[tuple[str, str]]:
        """The query parameters of these filters, with another ``period`` if given."""
        params = period_params(period or self.period)
        params += [("ruleset", r) for r in self.ruleset_ids or ()]
        if self.min_games:
            params.append(("min_games", str(self.min_games)))
        if sort and self.sort:
            params += [("sort", self.sort), ("dir", "desc" if self.descending else "asc")]
        return params

    def query(self, **kwargs: Any) -> str:
        return "?" + urlencode(self.params(**kwargs))

    @property
    def filter_query(self) -> str:
        """Period and filters, without the sort (for links to other pages)."""
        return self.query(sort=False)

    def neighbours(self) -> tuple[PeriodLink | None, PeriodLink | None]:
        """Links to the previous and next month, half year or year."""
        try:
            before, after = self.period.previous(), self.period.next()
        except ValueError:
            return None, None
        return (
            PeriodLink(period_label(before), self.query(period=before)),
            PeriodLink(period_label(after), self.query(period=after)),
        )

    def quick_links(self) -> list[PeriodLink]:
        """This month, this half year, this year, all time."""
        today = st.club_today()
        periods = [
            (_("This month"), st.month_period(today.year, today.month)),
            (_("This half year"), st.half_year_of(today)),
            (_("This year"), st.year_period(today.year)),
            (_("All time"), st.all_time_period()),
        ]
        return [
            PeriodLink(label, self.query(period=p), current=p == self.period)
            for label, p in periods
        ]


def stored_ruleset_choices() -> list[tuple[str, str]]:
    """The rulesets any game was played under, for the standings filters."""
    return [(r, f"{ruleset_label(r)} ({r})") for r in st.stored_ruleset_ids()]


def read_filters(query: QueryDict, default: st.Period, *, with_sort: bool = True) -> Filters:
    """The filters of a standings or player page (one query: the stored ruleset ids)."""
    form = StandingsFilterForm(
        query,
        ruleset_choices=stored_ruleset_choices(),
        sort_columns=list(st.STANDINGS_COLUMNS) if with_sort else (),
    )
    period = chosen_period(form, default)
    valid = form.is_valid()
    data = form.cleaned_data if valid else {}
    rulesets = data.get("ruleset") or None
    sort = (data.get("sort") or "") if with_sort else ""
    return Filters(
        form=form,
        period=period,
        ruleset_ids=list(rulesets) if rulesets else None,
        min_games=data.get("min_games") or 0,
        sort=sort,
        descending=data.get("dir") != "asc" if sort else True,
    )


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

    @classmethod
    def of(cls, position: int, row: st.StandingsRow) -> StandingsLine:
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
        )


def ordered(rows: Sequence[st.StandingsRow], filters: Filters) -> list[StandingsLine]:
    """The rows in the order asked for, each with its place in the standings order."""
    position = {row.member_id: index for index, row in enumerate(rows, start=1)}
    if filters.sort:
        rows = st.sort_rows(rows, filters.sort, descending=filters.descending)
    return [StandingsLine.of(position[row.member_id], row) for row in rows]


def header_cells(filters: Filters) -> list[HeaderCell]:
    cells = []
    for column in COLUMNS:
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
        filters.period, ruleset_ids=filters.ruleset_ids, min_games=filters.min_games
    )
    previous, following = filters.neighbours()
    context = {
        "filters": filters,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": previous,
        "next": following,
        "quick_links": filters.quick_links(),
        "headers": header_cells(filters),
        "rows": ordered(table.rows, filters),
        "below_minimum": ordered(table.below_minimum, filters),
        "min_games": filters.min_games,
        "rulesets": [ruleset_label(r) for r in table.ruleset_ids],
    }
    template = STANDINGS_TEMPLATE
    if wants_fragment(request):
        template += "#standings-table"
    return render(request, template, context)


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A CSV download in UTF-8 with a byte order mark, so that spreadsheet apps set to
    Japanese read it as UTF-8 rather than Shift_JIS."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def _rate_csv(rate: Fraction) -> str:
    return percent(rate).rstrip("%")


@require_safe
def standings_export(request: HtmxHttpRequest) -> HttpResponse:
    """The standings table as CSV, with the same filters (members below the minimum last)."""
    filters = read_filters(request.GET, st.current_month_period())
    table = st.period_standings(
        filters.period, ruleset_ids=filters.ruleset_ids, min_games=filters.min_games
    )
    header = [
        _("Place"), _("Player"), _("Games"), _("Total"), _("Average"), _("Avg. rank"),
        _("1st %"), _("2nd %"), _("3rd %"), _("4th %"), _("Top rate %"),
        _("Last avoided %"), _("Bust rate %"), _("Best game"), _("Best game id"),
        _("Below the minimum"),
    ]  # fmt: skip

    def lines(rows: Sequence[st.StandingsRow], below: bool) -> Iterable[list[Any]]:
        position = {row.member_id: i for i, row in enumerate(rows, start=1)}
        if filters.sort:
            rows = st.sort_rows(rows, filters.sort, descending=filters.descending)
        for row in rows:
            yield [
                "" if below else position[row.member_id],
                row.display_name,
                row.games,
                csv_thousands(row.total_points),
                csv_thousands(row.average_points_rounded),
                two_decimals(row.average_rank),
                *(_rate_csv(r) for r in row.rank_rates),
                _rate_csv(row.top_rate),
                _rate_csv(row.last_avoidance_rate),
                _rate_csv(row.tobi_rate),
                csv_thousands(row.best_points),
                row.best_hanchan_id,
                _("yes") if below else "",
            ]

    rows = [*lines(table.rows, False), *lines(table.below_minimum, True)]
    stem = "-".join(value for _key, value in period_params(filters.period)[1:]) or "all"
    return csv_response(f"standings-{stem}.csv", header, rows)


# -- champions -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TitleLine:
    label: str
    query: str
    holders: list[tuple[int, str]]
    points: Cell | None
    games: int | None


def title_line(title: st.Title) -> TitleLine:
    return TitleLine(
        label=period_label(title.period),
        query="?" + urlencode(period_params(title.period)),
        holders=[(row.member_id, row.display_name) for row in title.holders],
        points=None if title.points is None else points_cell(title.points),
        games=title.holders[0].games if title.holders else None,
    )


@require_safe
def champions_page(request: HtmxHttpRequest) -> HttpResponse:
    """The monthly and half-year champions, newest first, and this month's leader."""
    history = st.champions_history()
    month = st.current_month_period()
    minimum = settings.CHAMPION_MIN_GAMES
    table = st.period_standings(month, min_games=minimum)
    leaders = st.title_holders(table.rows)
    context = {
        "month_label": period_label(month),
        "month_query": "?" + urlencode(period_params(month)),
        "leaders": [StandingsLine.of(1, row) for row in leaders],
        "min_games": minimum,
        "half_min_games": settings.HALF_YEAR_CHAMPION_MIN_GAMES,
        "months": [title_line(t) for t in history.months],
        "halves": [title_line(t) for t in history.halves],
    }
    return render(request, "scoring/champions.html", context)


# -- the player page -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameLine:
    hanchan_id: int
    played_on: date
    ruleset: str
    seat: str
    score: str
    rank: str
    points: Cell


@dataclass(frozen=True)
class MonthLine:
    label: str
    query: str
    games: int
    points: Cell
    average_rank: str


def seat_label(game: st.MemberGame) -> str:
    """Seat 0 dealt first: its wind in East 1."""
    return str(SEAT_WINDS[game.seat]) if game.seat < len(SEAT_WINDS) else str(game.seat + 1)


def cumulative_chart(stats: st.PlayerStats) -> LineChart | None:
    if not stats.cumulative:
        return None
    series = [0, *(step.cumulative for step in stats.cumulative)]
    final = stats.cumulative[-1].cumulative
    return value_chart(
        chart_id="cumulative-chart",
        title=_("Cumulative points"),
        description=_(
            "Points added up game by game over %(n)d games, ending at %(total)s "
            "(highest %(high)s, lowest %(low)s)."
        )
        % {
            "n": len(stats.cumulative),
            "total": thousands_one_decimal(final),
            "high": thousands_one_decimal(max(series)),
            "low": thousands_one_decimal(min(series)),
        },
        series=[(_("Cumulative points"), series)],
        x_labels=["", *(date_format(s.played_on, "n/j") for s in stats.cumulative)],
        label_value=format_thousands,
        table_head=[_("Date"), _("Points"), _("Cumulative")],
        table_rows=[
            [
                date_format(s.played_on, "SHORT_DATE_FORMAT"),
                thousands_one_decimal(s.points),
                thousands_one_decimal(s.cumulative),
            ]
            for s in stats.cumulative
        ],
    )


def ranks_chart(stats: st.PlayerStats) -> LineChart | None:
    games = stats.last_games
    if not games:
        return None
    players = max(game.players for game in games)
    ranks = [game.rank for game in games]
    average = two_decimals(Fraction(sum(ranks), len(ranks)))
    return value_chart(
        chart_id="ranks-chart",
        title=_("Ranks in the last %(n)d games") % {"n": len(games)},
        description=_("Ranks from the oldest to the latest game: %(ranks)s (average %(avg)s).")
        % {"ranks": ", ".join(str(r) for r in ranks), "avg": average},
        series=[(_("Rank"), ranks)],
        x_labels=[date_format(g.played_on, "n/j") for g in games],
        label_value=rank_label,
        table_head=[_("Date"), _("Rank")],
        table_rows=[
            [date_format(g.played_on, "SHORT_DATE_FORMAT"), rank_label(g.rank)] for g in games
        ],
        include_zero=False,
        ticks_at=list(range(1, players + 1)),
        inverted=True,
    )


def hand_figures(hands: st.HandStats) -> list[tuple[str, str]]:
    average_value = hands.average_win_value
    return [
        (_("Hands played"), str(hands.hands)),
        (_("Win rate"), percent(hands.win_rate)),
        (_("Deal-in rate"), percent(hands.deal_in_rate)),
        (_("Riichi rate"), percent(hands.riichi_rate)),
        (
            _("Average win value"),
            "–" if average_value is None else format_points(st.round_half_away(average_value)),
        ),
        (_("Tsumo share of wins"), percent(hands.tsumo_share)),
        (_("Chombo"), str(hands.chombo)),
    ]


def default_player_period() -> st.Period:
    return st.year_period(st.club_today().year)


@require_safe
def member_page(request: HtmxHttpRequest, member_id: int) -> HttpResponse:
    """A member's games, monthly totals, charts and per-hand statistics over a period
    (default: this year)."""
    member = get_object_or_404(Member, pk=member_id)
    filters = read_filters(request.GET, default_player_period(), with_sort=False)
    stats = st.player_stats(
        member.pk, filters.period, ruleset_ids=filters.ruleset_ids, last_games=LAST_GAMES
    )
    labels = {r: ruleset_label(r) for r in {g.ruleset_id for g in stats.games}}
    games = [
        GameLine(
            hanchan_id=g.hanchan_id,
            played_on=g.played_on,
            ruleset=labels[g.ruleset_id],
            seat=seat_label(g),
            score=format_points(g.final_score),
            rank=rank_label(g.rank),
            points=points_cell(g.points),
        )
        for g in reversed(stats.games)
    ]
    months = [
        MonthLine(
            label=date_format(date(m.year, m.month, 1), "YEAR_MONTH_FORMAT"),
            query=filters.query(period=st.month_period(m.year, m.month)),
            games=m.games,
            points=points_cell(m.points),
            average_rank=two_decimals(m.average_rank),
        )
        for m in reversed(stats.months)
    ]
    total = sum(g.points for g in stats.games)
    rank_sum = sum(g.rank for g in stats.games)
    previous, following = filters.neighbours()
    context = {
        "member": member,
        "filters": filters,
        "form": filters.form,
        "period_label": period_label(filters.period),
        "previous": previous,
        "next": following,
        "quick_links": filters.quick_links(),
        "games": games,
        "months": months,
        "game_count": len(games),
        "total": points_cell(total),
        "average_rank": two_decimals(Fraction(rank_sum, len(games))) if games else "–",
        "hands": hand_figures(stats.hands),
        "cumulative_chart": cumulative_chart(stats),
        "ranks_chart": ranks_chart(stats),
        "rulesets": [ruleset_label(r) for r in stats.ruleset_ids],
    }
    return render(request, "scoring/member_detail.html", context)


@require_safe
def member_games_export(request: HtmxHttpRequest, member_id: int) -> HttpResponse:
    """The member's games in the period as CSV, oldest first."""
    member = get_object_or_404(Member, pk=member_id)
    filters = read_filters(request.GET, default_player_period(), with_sort=False)
    games = st.member_games(
        member.pk,
        start=filters.period.start,
        end=filters.period.end,
        ruleset_ids=filters.ruleset_ids,
    )
    header = [
        _("Date"), _("Game id"), _("Ruleset"), _("Seat"), _("Score"), _("Rank"), _("Points"),
    ]  # fmt: skip
    rows = [
        [
            g.played_on.isoformat(),
            g.hanchan_id,
            g.ruleset_id,
            seat_label(g),
            g.final_score,
            g.rank,
            csv_thousands(g.points),
        ]
        for g in games
    ]
    return csv_response(f"games-{member.pk}.csv", header, rows)
