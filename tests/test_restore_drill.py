"""The restore drill: `manage.py restore_drill` dumps the database, restores
it into a fresh one and finds the standings, champions, counted results and the replay of
every counted game the same; a restore that loses something is caught (exit status 1).

Transactional tests: the dump (pg_dump on PostgreSQL) reads committed rows only."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from scoring.ledger import counted_games
from scoring.models import CountedSeat
from scoring.upkeep import restore_drill
from scoring.upkeep.history_seeding import seed_history

pytestmark = pytest.mark.django_db(transaction=True)

END = datetime.date(2026, 10, 31)
TODAY = "2026-11-26"


@pytest.fixture
def history() -> int:
    """A year of a small club's nights through the ledger (the fixture of the drill)."""
    summary = seed_history(years=1, members=10, seed=5, games_per_night=1, end=END)
    return summary.hanchans


def drill(*args: str) -> str:
    out = io.StringIO()
    call_command("restore_drill", "--today", TODAY, *args, stdout=out)
    return out.getvalue()


def test_the_seeded_history_comes_back_identical(history):
    games = counted_games().count()
    assert games > 30
    output = drill()
    method = "pg_dump" if connection.vendor == "postgresql" else "dumpdata"
    assert f"restore drill: identical after restoring with {method}" in output
    assert f"{games:,} games replayed" in output
    # What was compared: every counted game of the seeded history replays to its counted
    # result; the standings of all time, the years, the months and a range; the champions.
    figures = restore_drill.figures(datetime.date(2026, 11, 26))
    assert figures["replays"] == {"replayed": games, "differences": []}
    assert set(figures["copied_keys"].values()) == {0}
    assert "HandSeat.member" in figures["copied_keys"]
    assert "all/standard" in figures["standings"] and "2026-10/standard" in figures["standings"]
    assert "range/standard" in figures["standings"]
    assert figures["champions"]["months"], "no monthly champion in a year of club nights"
    assert len(figures["counted_results"]) == CountedSeat.objects.count()
    total = sum(row[2] for row in figures["standings"]["all/standard"])
    assert total == sum(
        CountedSeat.objects.filter(
            ruleset_version__ruleset_id="makura-1.5", ruleset_version__service=""
        ).values_list("points", flat=True)
    )


def test_a_restore_that_loses_something_fails_the_drill(history, monkeypatch):
    """A dump without the members' monthly and yearly roll-ups: the counted results and the
    replays come back, the standings read from the roll-ups do not."""
    monkeypatch.setattr(
        restore_drill,
        "DUMPDATA_EXCLUDE",
        [*restore_drill.DUMPDATA_EXCLUDE, "scoring.membermonth", "scoring.memberyear"],
    )
    errors = io.StringIO()
    with pytest.raises(CommandError, match=r"restore drill: \d+ difference\(s\) after restoring"):
        call_command("restore_drill", "--today", TODAY, "--method", "dumpdata", stderr=errors)
    lines = errors.getvalue().splitlines()
    assert "standings 2025/standard: differs after the restore" in lines
    assert not any(line.startswith(("counted results", "replay")) for line in lines)


def test_a_changed_figure_is_named():
    before = {
        "standings": {"all/standard": [["Aoki", 2, 10]]},
        "champions": {"months": []},
        "counted_results": [[1, 0, "Aoki"]],
        "replays": {"replayed": 1, "differences": []},
    }
    after = {
        "standings": {"all/standard": [["Aoki", 2, 9]]},
        "champions": {"months": []},
        "counted_results": [],
        "replays": {"replayed": 0, "differences": ["game 1: does not replay"]},
        "copied_keys": {"HandSeat.member": 3, "WinYaku.member": 0},
    }
    assert restore_drill.compare(before, after) == [
        "standings all/standard: differs after the restore",
        "counted results: 1 before, 0 after, 1 missing or changed",
        "replay after the restore: game 1: does not replay",
        "HandSeat.member after the restore: 3 rows differ from their source",
        "games replayed: 1 before, 0 after",
    ]
    assert restore_drill.compare(before, before) == []
