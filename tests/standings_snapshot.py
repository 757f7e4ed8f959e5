"""A snapshot of every figure the standings, champions and player pages show, over a seeded
history, keyed by display names (ids differ between databases): what
``tests/test_standings_golden.py`` compares the standings code with."""

from __future__ import annotations

import datetime
from fractions import Fraction
from typing import Any

from scoring import standings as st

END = datetime.date(2026, 10, 31)
SEED: dict[str, Any] = {"years": 2, "members": 24, "seed": 7, "games_per_night": 2, "end": END}


def _row(row: st.StandingsRow) -> list[Any]:
    return [
        row.display_name, row.games, row.total_points, row.rank_sum, list(row.rank_counts),
        row.lasts, row.tobis, row.best_points,
    ]  # fmt: skip


def _standings(table: st.Standings) -> dict[str, Any]:
    return {
        "rows": [_row(r) for r in table.rows],
        "below": [_row(r) for r in table.below_minimum],
    }


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


def snapshot() -> dict[str, Any]:
    """Every figure, as plain JSON data."""
    periods = {
        "month": st.month_period(2026, 3),
        "month2": st.month_period(2025, 11),
        "half": st.half_year_period(2025, 2),
        "year": st.year_period(2025),
        "all": st.all_time_period(),
        "range": st.range_period(datetime.date(2025, 2, 10), datetime.date(2025, 6, 3)),
    }
    out: dict[str, Any] = {"standings": {}, "players": {}}
    filters: dict[str, list[str] | None] = {
        "standard": None,
        "all": st.stored_ruleset_ids(),
        "sanma": ["sanma-float"],
        "tenhou": ["tenhou-4p", "tenhou-3p"],
    }
    for pname, period in periods.items():
        for fname, ids in filters.items():
            table = st.period_standings(period, ruleset_ids=ids, min_games=3)
            out["standings"][f"{pname}/{fname}"] = _standings(table)
    history = st.champions_history(today=END + datetime.timedelta(days=1))
    out["champions"] = {
        "months": [[t.period.start.isoformat(), [h.display_name for h in t.holders], t.points]
                   for t in history.months],
        "halves": [[t.period.start.isoformat(), [h.display_name for h in t.holders], t.points]
                   for t in history.halves],
    }  # fmt: skip
    top = st.period_standings(periods["all"], ruleset_ids=None, min_games=0).rows[:6]
    for row in top:
        for pname in ("year", "all"):
            stats = st.player_stats(row.member_id, periods[pname])
            hands = stats.hands
            out["players"][f"{row.display_name}/{pname}"] = {
                "games": [[g.played_on.isoformat(), g.ruleset_id, g.players, g.seat,
                           g.final_score, g.rank, g.points, g.ended_by] for g in stats.games],
                "months": [[m.year, m.month, m.games, m.points, m.rank_sum] for m in stats.months],
                "cumulative": [c.cumulative for c in stats.cumulative],
                "last_games": [[g.played_on.isoformat(), g.rank, g.points]
                               for g in stats.last_games],
                "hands": [hands.hands, hands.wins, hands.tsumo_wins, hands.deal_ins,
                          hands.riichi, hands.chombo, hands.win_points,
                          _fraction(hands.win_rate), _fraction(hands.average_win_value)],
            }  # fmt: skip
    return out
