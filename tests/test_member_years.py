"""Members' yearly totals (``MemberYear``): kept by the ledger with the monthly
ones, always their sum; standings over whole years read them and give the figures the
counted results give."""

from __future__ import annotations

import datetime
import importlib
import random
from collections import defaultdict

import pytest
from django.apps import apps

from clubsite.models import Member
from scoring.ledger import hanchan_void
from scoring.models import CountedSeat, MemberMonth, MemberYear
from scoring.standings import counted as counted_module
from scoring.standings.counted import AGGREGATES, counted_seats, counted_versions
from scoring.standings.periods import all_time_period, range_period, year_period
from scoring.upkeep.sample_games import sample_hands
from tests.conftest import make_member
from tests.test_standings import store

D = datetime.date
SUMMED = (
    "games", "total_points", "rank_sum", "first", "second", "third", "fourth", "lasts",
    "tobis", "hands", "wins", "tsumo_wins", "deal_ins", "riichi", "chombo", "win_points",
)  # fmt: skip


@pytest.fixture
def history(db) -> list[Member]:
    """Six members, 30 games from March 2024 to October 2025, one of them voided."""
    players = [make_member(f"y{i}", f"Y{i}", "") for i in range(6)]
    rng = random.Random(11)
    games = []
    for number in range(30):
        year, month = divmod(2024 * 12 + 2 + number * 2 // 3, 12)
        day = D(year, month + 1, 1 + number % 27)
        games.append(store(rng.sample(players, 4), day, sample_hands(rng, "makura-1.5")))
    voided = games[7]
    voided.refresh_from_db()
    hanchan_void(hanchan_id=voided.pk, expected_version=voided.version)
    return players


def year_sums_of_months() -> dict[tuple[int, int, int], dict[str, int]]:
    sums: dict[tuple[int, int, int], dict[str, int]] = defaultdict(lambda: dict.fromkeys(SUMMED, 0))
    best: dict[tuple[int, int, int], int] = {}
    for row in MemberMonth.objects.all():
        key = (row.member_id, row.ruleset_version_id, row.month.year)
        for name in SUMMED:
            sums[key][name] += getattr(row, name)
        best[key] = max(best.get(key, row.best), row.best)
    return {key: {**values, "best": best[key]} for key, values in sums.items()}


def years_as_stored() -> dict[tuple[int, int, int], dict[str, int]]:
    return {
        (row.member_id, row.ruleset_version_id, row.year.year): {
            name: getattr(row, name) for name in (*SUMMED, "best")
        }
        for row in MemberYear.objects.all()
    }


def test_the_ledger_keeps_each_year_the_sum_of_its_months(history):
    expected = year_sums_of_months()
    assert {key[2] for key in expected} == {2024, 2025}
    assert years_as_stored() == expected


@pytest.mark.parametrize(
    "period",
    [
        all_time_period(),
        year_period(2024),
        range_period(D(2024, 7, 1), D(2025, 6, 30)),  # months only
        range_period(D(2024, 7, 1), D(2025, 12, 31)),  # months of 2024 and the year 2025
        range_period(D(2024, 1, 1), D(2025, 3, 31)),  # the year 2024 and months of 2025
    ],
    ids=["all-time", "year", "months", "months-then-year", "year-then-months"],
)
def test_whole_years_give_what_the_counted_results_give(history, period):
    counted = counted_versions(None)
    expected = {
        row["member_id"]: row
        for row in counted_seats(counted, period.start, period.end)
        .values("member_id")
        .annotate(**AGGREGATES)
        .order_by()
    }
    actual = {
        row["member_id"]: row
        for row in counted_module.aggregate_rows(counted, period.start, period.end)
    }
    assert actual.keys() == expected.keys()
    for member_id, row in expected.items():
        for name in ("games", "total_points", "rank_sum", "first", "fourth", "lasts", "best"):
            assert actual[member_id][name] == row[name], (member_id, name)


def test_the_migration_adds_up_the_years_the_ledger_would(history):
    expected = years_as_stored()
    MemberYear.objects.all().delete()
    migration = importlib.import_module("scoring.migrations.0008_member_years")
    migration.add_up_years(apps, None)
    assert years_as_stored() == expected
    assert CountedSeat.objects.exists()
