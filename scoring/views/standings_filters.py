"""The standings pages' filters and numbers: the period and rulesets from the query string,
and points, averages and rates as people read them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.http import QueryDict
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubsite.formatting import MINUS
from scoring import standings as st
from scoring.rulebook.names import ruleset_label
from scoring.views.display import Cell, sign_class, signed_count
from scoring.views.standings_forms import StandingsFilterForm


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


def unit_cell(count: int) -> Cell:
    """ep or chips: "+600", "−200", "0"."""
    return Cell(signed_count(count), sign_class(count))


def unit_label(unit: str) -> str:
    """A club unit's column name (``"ep"``, ``"chips"``, as ``Versions.units`` names them)."""
    return _("ep") if unit == "ep" else _("Chips")


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
    # Tournament games count; the club's default unless the query says.
    tournaments: bool = True

    def params(
        self, *, period: st.Period | None = None, sort: bool = True
    ) -> list[tuple[str, str]]:
        """The query parameters of these filters, with another ``period`` if given."""
        params = period_params(period or self.period)
        params += [("ruleset", r) for r in self.ruleset_ids or ()]
        if self.min_games:
            params.append(("min_games", str(self.min_games)))
        if self.tournaments != st.tournaments_counted_by_default():
            params.append(("tournaments", "in" if self.tournaments else "out"))
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
    """The filters of a standings or player page (one query: the stored ruleset ids). The
    form shows the club's default for tournament games where the query names none."""
    default_tournaments = st.tournaments_counted_by_default()
    if not query.get("tournaments"):
        query = query.copy()
        query["tournaments"] = "in" if default_tournaments else "out"
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
        tournaments=data["tournaments"] == "in" if valid else default_tournaments,
    )
