"""The many-clubs benchmarks' code at a tiny size, so that it cannot rot between runs of
``make bench``: the pages with N clubs (benchmarks/clubs.py: a club's history copied into
other clubs, the pages' queries with one club and with several) and the phones spread over
clubs (benchmarks/capacity.py, against the live server)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection

from benchmarks import capacity, clubs
from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.models import Member
from scoring import standings
from scoring.models import CountedSeat, Hanchan, HandEntry, MemberMonth
from scoring.upkeep.history_seeding import seed_history


def table_of(club: Club) -> list[tuple[str, int, int]]:
    """``club``'s all-time standings: (display name, games, points) a row."""
    with club_scope(club):
        rows = standings.period_standings(standings.all_time_period()).rows
        return [(row.display_name, row.games, row.total_points) for row in rows]


def rows_of(club: Club) -> dict[str, int]:
    with club_scope(club):
        return {
            "members": Member.objects.count(),
            "hanchans": Hanchan.objects.count(),
            "hands": HandEntry.objects.count(),
            "counted": CountedSeat.objects.count(),
            "months": MemberMonth.objects.count(),
        }


@pytest.mark.django_db
def test_pages_cost_the_same_queries_with_more_clubs() -> None:
    """A club's measured pages, then three clubs of history added (one seeded, two copied):
    every page answers 200 with the same number of queries, each copy holds its template's
    rows and standings under its own club, and every foreign key of the copies holds."""
    measured = only_club()
    with club_scope(measured):
        seed_history(years=1, members=16, seed=1, end=clubs.END, games_per_night=1)
    urls = clubs.page_urls(measured)
    assert set(urls) == {"month_page", "all_time_page", "player_page", "game_page"}
    assert all(url.startswith("/c/club/") for url in urls.values())
    viewer = clubs.viewer_client(measured)
    alone = {name: clubs.page_queries(viewer, url) for name, url in urls.items()}
    before = rows_of(measured)
    standing = table_of(measured)

    grown = clubs.add_clubs(3, years=1, members=16)

    assert Club.objects.count() == 4
    others = list(Club.objects.exclude(pk=measured.pk).order_by("slug"))
    assert [club.slug for club in others] == ["other-001", "other-002", "other-003"]
    template = rows_of(others[0])
    assert template["hanchans"] == grown["hanchans_each"] > 0
    assert template["counted"] > 0 and template["months"] > 0
    assert table_of(others[0]), "the template club's standings are empty"
    for copy in others[1:]:
        assert rows_of(copy) == template
        assert table_of(copy) == table_of(others[0])
    assert grown["rows"] > 2 * sum(template.values())
    # The measured club is untouched, and its pages cost what they cost alone.
    assert rows_of(measured) == before
    assert table_of(measured) == standing
    assert clubs.page_urls(measured) == urls
    with_others = {name: clubs.page_queries(viewer, url) for name, url in urls.items()}
    assert with_others == alone
    assert all(count > 0 for count in alone.values())
    # Copied logins are each copy's own.
    with club_scope(others[2]):
        usernames = set(Member.objects.values_list("user__username", flat=True))
    assert usernames and all(name.endswith("~2") for name in usernames)
    connection.check_constraints()


@pytest.mark.django_db
def test_copy_refuses_rows_of_another_club() -> None:
    """Rows after the mark that are not the template's: refused, nothing copied."""
    first = only_club()
    since = clubs.high_water()
    with club_scope(first):
        seed_history(years=1, members=8, seed=3, end=clubs.END, games_per_night=1)
    second = Club.objects.create(slug="second", name="Second")
    target = Club.objects.create(slug="target", name="Target")
    with pytest.raises(ValueError, match="rows of another club"):
        clubs.copy_club_rows(since, second, [target])
    assert rows_of(target)["hanchans"] == 0


def test_time_in_turns_and_spread() -> None:
    calls: list[str] = []
    times = clubs.time_in_turns(
        [lambda: calls.append("a"), lambda: time.sleep(0.002)],
        3,
        lambda index: calls.append(f"use {index}"),
    )
    # One untimed run of each first, then the rounds in turns.
    assert calls == ["use 0", "a", "use 1"] + ["use 0", "a", "use 1"] * 3
    assert [len(t) for t in times] == [3, 3]
    assert min(times[1]) >= 2.0
    figures = clubs.spread([float(n) for n in range(1, 12)])
    assert figures["median_ms"] == 6.0
    assert figures["p10_ms"] == pytest.approx(2.0)
    assert figures["p90_ms"] == pytest.approx(10.0)
    assert figures["best_ms"] == 1.0


def test_report_verdicts() -> None:
    def page(median: float, queries: int) -> dict[str, float]:
        return {
            "median_ms": median,
            "p10_ms": median - 1,
            "p90_ms": median + 1,
            "best_ms": median - 2,
            "queries": queries,
        }

    built = {"seeding_s": 90, "hanchans": 20_000, "hands": 200_000, "bytes": 300 * 2**20}
    grown = {
        "clubs": 200,
        "hanchans_each": 1_000,
        "seeding_s": 10,
        "copying_s": 60,
        "analyze_s": 5,
        "hanchans": 219_000,
        "hands": 2_000_000,
        "bytes": 3000 * 2**20,
    }
    measured: dict[str, Any] = {
        "club": "club",
        "measured": {
            "month_page": [page(30, 7), page(33, 7)],
            "all_time_page": [page(30, 7), page(37, 7)],
            "player_page": [page(20, 9), page(20, 10)],
            "game_page": [page(10, 8), page(10, 8)],
        },
    }
    lines = clubs.report(built, grown, measured)
    assert "199 other clubs of 1,000 hanchans each" in lines[0]
    month, all_time, player, game = lines[-4:]
    assert "30.0 (29.0-31.0; best 28.0) ms, 7 q" in month and month.endswith("1.10x ok")
    assert all_time.endswith("1.23x ABOVE TARGET")
    assert player.endswith("1.00x ABOVE TARGET")  # a query more
    assert game.endswith("1.00x ok")


@pytest.mark.django_db(transaction=True)
def test_phones_spread_over_clubs(live_server: Any) -> None:
    """Two tables in two clubs play two hands each through the live server, each under its
    club's prefix: no error, each club's games checked in its scope, nothing lost, doubled or
    seen by the other club; a phone asking for its game under the other club's prefix: 404."""
    made = capacity.make_clubs(2)
    assert [club.slug for club in made] == ["club", "cap-02"]
    seated = capacity.seat_tables(2, made)
    assert [seat.slug for seat in seated] == ["club", "cap-02"]
    for seat in seated:
        with club_scope(seat.club):
            assert Member.objects.filter(pk__in=[m.pk for m in seat.members]).count() == 4
    games = capacity.start_games(seated, "")
    tables = [
        capacity.Table(live_server.url, game, seat.sessions, seed=index, club=seat.slug)
        for index, (game, seat) in enumerate(zip(games, seated, strict=True))
    ]
    figures = capacity.Figures()
    for table in tables:
        table.play(2, figures, (0.0, 0.0), time.monotonic() + 60)
    assert figures.errors == []
    assert len(figures.latencies["confirm"]) == 4
    assert [len(table.played) for table in tables] == [2, 2]
    checks = capacity.check_clubs(tables, seated, [])
    assert [(c.club, c.foreign, c.unseen) for c in checks] == [("club", 0, 0), ("cap-02", 0, 0)]
    for check in checks:
        assert len(check.checks) == 1 and check.checks[0].ok
    for club in made:
        with club_scope(club):
            assert HandEntry.objects.count() == 2
    status, _, _ = capacity.request(
        tables[0].opener,
        live_server.url,
        tables[0].sessions[0],
        f"/c/cap-02/games/{tables[0].game}/",
        None,
        {},
    )
    assert status == 404
    ok, lines = capacity.report(
        figures,
        [c for check in checks for c in check.checks],
        [2, 2],
        1.0,
        (0.1, 0.1, 0.1),
        clubs=checks,
    )
    assert "per club, the worst: errors / lost / doubled" in lines[7]
    assert lines[7].split()[9:14] == ["0", "/", "0", "/", "0"]
    assert lines[8].endswith("0 / 0   target 0 ok")


def test_bench_parts_chosen_by_only(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m benchmarks --only a,b`` runs those parts in the run's order; an unknown
    part stops with status 2, naming the parts."""
    from benchmarks.__main__ import PARTS, parse_only

    assert parse_only([]) == list(PARTS)
    assert parse_only(["--only", "clubs_pages,capacity_clubs"]) == ["capacity_clubs", "clubs_pages"]
    with pytest.raises(SystemExit) as stopped:
        parse_only(["--only", "clubs"])
    assert stopped.value.code == 2
    assert "unknown part clubs; the parts: engine, hand_entry" in capsys.readouterr().err
