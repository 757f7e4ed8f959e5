"""CSV exports of the standings and of a member's games: UTF-8 with a byte order mark, and
no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubsite.models import Member
from clubsite.spreadsheet import safe_cell
from scoring import standings as st
from scoring.standings.counted import counted_versions
from scoring.standings.player import member_games_of
from scoring.views.player import default_player_period, seat_label
from scoring.views.standings_filters import (
    csv_thousands,
    percent,
    period_params,
    read_filters,
    two_decimals,
    unit_label,
)
from scoring.views.table import HtmxHttpRequest


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]
) -> HttpResponse:
    """A CSV download in UTF-8 with a byte order mark, so that spreadsheet apps set to
    Japanese read it as UTF-8 rather than Shift_JIS."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow([safe_cell(cell) for cell in header])
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return response


def _rate_csv(rate: Fraction) -> str:
    return percent(rate).rstrip("%")


@require_safe
def standings_export(request: HtmxHttpRequest) -> HttpResponse:
    """The standings table as CSV, with the same filters (members below the minimum last)."""
    filters = read_filters(request.GET, st.current_month_period())
    table = st.period_standings(
        filters.period,
        ruleset_ids=filters.ruleset_ids,
        min_games=filters.min_games,
        tournaments=filters.tournaments,
    )
    # The club's own units after the total, where the table's rulesets settle them.
    units = table.units
    header = [
        _("Place"), _("Player"), _("Games"), _("Total"),
        *(unit_label(unit) for unit in units),
        _("Average"), _("Avg. rank"),
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
                *(row.uma_ep if unit == "ep" else row.chips for unit in units),
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


@require_safe
def member_games_export(request: HtmxHttpRequest, member_id: int) -> HttpResponse:
    """The member's games in the period as CSV, oldest first."""
    member = get_object_or_404(Member, pk=member_id)
    filters = read_filters(request.GET, default_player_period(), with_sort=False)
    counted = counted_versions(filters.ruleset_ids)
    games = member_games_of(counted, member.pk, filters.period.start, filters.period.end)
    # The club's own units where the rulesets settle them.
    units = counted.units
    header = [
        _("Date"), _("Game id"), _("Ruleset"), _("Seat"), _("Score"), _("Rank"), _("Points"),
        *(unit_label(u) for u in units),
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
            *(g.uma_ep if u == "ep" else g.chips for u in units),
        ]
        for g in games
    ]
    return csv_response(f"games-{member.pk}.csv", header, rows)
