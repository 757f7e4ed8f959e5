"""Standings, champions and player statistics, added up from the counted results.

A finished game counts once its result is confirmed (``CountedSeat``, written by the ledger
with the game's facts: settlement, bust, last place, per-hand sums). Everything here is a
plain sum, count or maximum over those columns, computed by the database in a fixed, small
number of queries whatever the size of the history; no game is replayed and no hand JSON is
read. Only counted games count: voided games, games in play and results awaiting
confirmation count nowhere.

Modules: :mod:`~scoring.standings.periods` (months, half years, years, ranges),
:mod:`~scoring.standings.table` (the standings), :mod:`~scoring.standings.champions`
(monthly and half-year titles), :mod:`~scoring.standings.player` (a member's games and
statistics), :mod:`~scoring.standings.counted` (the aggregates they share).

Sources: docs/rules-spec.md §4.4 (monthly and half-year champions), §6.6 T-04 (half years
are January-June and July-December) and T-06 (champion, minimum games and ties are club
settings).
"""

from scoring.standings.champions import (
    ChampionsHistory,
    Title,
    champions_history,
    first_counted_month,
    half_year_champion,
    monthly_champion,
    title_holders,
)
from scoring.standings.counted import tournament_games, tournaments_counted_by_default
from scoring.standings.periods import (
    EARLIEST,
    LATEST,
    Period,
    PeriodKind,
    all_time_period,
    club_today,
    current_month_period,
    half_year_of,
    half_year_period,
    month_period,
    range_period,
    year_period,
)
from scoring.standings.player import (
    CumulativePoint,
    HandStats,
    MemberGame,
    MonthTotal,
    PlayerStats,
    cumulative_points,
    hand_stats,
    member_games,
    monthly_totals,
    player_stats,
    stored_ruleset_ids,
)
from scoring.standings.player_page import GameList, PlayerPage, player_page
from scoring.standings.table import (
    STANDINGS_COLUMNS,
    Standings,
    StandingsRow,
    in_tenths,
    order_key,
    period_standings,
    round_half_away,
    sort_rows,
    standings,
    table_order_key,
)

__all__ = [
    "EARLIEST",
    "LATEST",
    "STANDINGS_COLUMNS",
    "ChampionsHistory",
    "CumulativePoint",
    "HandStats",
    "MemberGame",
    "MonthTotal",
    "Period",
    "PeriodKind",
    "PlayerStats",
    "Standings",
    "StandingsRow",
    "Title",
    "all_time_period",
    "champions_history",
    "first_counted_month",
    "club_today",
    "cumulative_points",
    "current_month_period",
    "half_year_champion",
    "half_year_of",
    "half_year_period",
    "hand_stats",
    "member_games",
    "month_period",
    "monthly_champion",
    "monthly_totals",
    "order_key",
    "period_standings",
    "player_stats",
    "GameList",
    "PlayerPage",
    "player_page",
    "range_period",
    "in_tenths",
    "round_half_away",
    "sort_rows",
    "standings",
    "stored_ruleset_ids",
    "table_order_key",
    "title_holders",
    "tournament_games",
    "tournaments_counted_by_default",
    "year_period",
]
