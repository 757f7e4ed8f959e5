"""Standings on PostgreSQL: the rendered standings, champions and player pages on a 1-year and
on a 10-year club history (the standings' budget: every page under 60 ms and at most 10 queries on
10 years of 120 members and >= 20,000 hanchans, each at most 1.3 times its 1-year time;
docs/capacity.md).

:func:`run_standings_bench` (re)creates a database of its own (``BENCH_DATABASE`` from the
environment, else ``clubsite_bench_<pid>``, so that two runs on one server never drop each
other's) on the PostgreSQL server of ``DATABASE_URL`` (or 127.0.0.1:5432 as ``postgres``),
migrates it, fills it with ``seed_history`` and measures, once per history size, in a child
process that points Django at that database; it returns the report as lines of text.
``python -m benchmarks.standings`` prints them. Seeding the 10-year history takes minutes.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.timing import figure

BENCH_DATABASE = os.environ.get("BENCH_DATABASE") or f"clubsite_bench_{os.getpid()}"
MEMBERS = 120
SEED = 1
# A fixed last day, so that every run measures the same history; the month measured is the
# last one of the history.
END = datetime.date(2026, 10, 31)
TIME_TARGET_MS = 60.0
QUERY_TARGET = 10
RATIO_TARGET = 1.3
ROUNDS = 25

ROOT = Path(__file__).resolve().parent.parent


def run_standings_bench(*, keep: bool = False) -> list[str]:
    """Seed a 1-year and a 10-year history into ``clubsite_bench`` and measure the standings.

    Returns the report lines: per history its hanchans, then side by side the median time of
    ``ROUNDS`` runs after a warm-up run (ms; the 10th-90th percentile spread and the best in
    parentheses; the verdict is the median's) and the query count of the monthly and all-time
    standings (and, for information, the champions history the page reads, 12 months, and the
    player page), the targets and a verdict per line. ``keep`` leaves the database (with the
    10-year history) in place afterwards.

    Raises:
        RuntimeError: PostgreSQL is unreachable or a child process failed.
    """
    server = _server_url()
    results = {}
    try:
        for years in (1, 10):
            _recreate_database(server)
            results[years] = _measure_in_child(f"{server}/{BENCH_DATABASE}", years)
    finally:
        if not keep:
            _drop_database(server)
    return _report(results[1], results[10])


def _server_url() -> str:
    """``postgres://user@host:port`` of the PostgreSQL server to use."""
    import dj_database_url

    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        config = dj_database_url.parse(url)
        user = config.get("USER") or "postgres"
        password = f":{config['PASSWORD']}" if config.get("PASSWORD") else ""
        host = config.get("HOST") or "127.0.0.1"
        port = config.get("PORT") or 5432
        return f"postgres://{user}{password}@{host}:{port}"
    return "postgres://postgres@127.0.0.1:5432"


def _admin(server: str, sql: str) -> None:
    import psycopg

    try:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(sql)
    except psycopg.OperationalError as error:
        raise RuntimeError(f"PostgreSQL at {server}: {error}") from None


def _drop_database(server: str) -> None:
    _admin(server, f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")


def _recreate_database(server: str) -> None:
    _drop_database(server)
    _admin(server, f"CREATE DATABASE {BENCH_DATABASE}")


def _measure_in_child(database_url: str, years: int) -> dict[str, Any]:
    """Migrate, seed and measure in a fresh interpreter whose Django uses ``database_url``."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        # As deployed: with DEBUG on, Django would also keep every query it runs.
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        # Measured over plain HTTP on the loopback: no HTTPS redirect, no secure-only cookies.
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.standings", "--child", str(years)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"standings bench ({years} years) failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _child(years: int) -> dict[str, Any]:
    """In the child: build the history, then time the standings."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from scoring import standings
    from scoring.models import Hanchan

    call_command("migrate", verbosity=0, skip_checks=True)
    started = time.perf_counter()
    call_command(
        "seed_history",
        years=years,
        members=MEMBERS,
        seed=SEED,
        end=END,
        skip_checks=True,
        stdout=open(os.devnull, "w"),  # noqa: SIM115 - closed with the process
    )
    seeding = time.perf_counter() - started
    with connection.cursor() as cursor:
        # What autovacuum does soon after a bulk load; without statistics the planner
        # guesses one row per table and picks nested loops.
        cursor.execute("ANALYZE")

    month = standings.month_period(END.year, END.month)
    after = END + datetime.timedelta(days=1)
    year_ago = standings.month_period(after.year - 1, after.month).start
    year = standings.year_period(END.year)
    whole = standings.all_time_period()
    regular = max(standings.period_standings(whole).rows, key=lambda row: row.games).member_id
    # The pages as a member opens them, rendered by Django in this process (server time).
    call_command("collectstatic", interactive=False, verbosity=0)
    from django.contrib.auth import get_user_model
    from django.test import Client

    viewer = Client()
    viewer.force_login(get_user_model().objects.order_by("pk")[0])

    def page(url: str) -> Callable[[], object]:
        def get() -> object:
            response = viewer.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return get

    cases: dict[str, Callable[[], object]] = {
        "month_page": page(f"/standings/?period=month&month={END:%Y-%m}"),
        "year_page": page(f"/standings/?period=year&year={END.year}"),
        "all_time_page": page("/standings/?period=all"),
        "champions_page": page("/standings/champions/"),
        "player_year_page": page(f"/members/{regular}/?period=year&year={END.year}"),
        "player_all_time_page": page(f"/members/{regular}/?period=all"),
        "month": lambda: standings.period_standings(month, min_games=4),
        "all_time": lambda: standings.period_standings(whole, min_games=4),
        # What the champions page reads: the last 12 completed months (scoring.views.standings).
        "champions": lambda: standings.champions_history(today=after, since=year_ago),
        "player_year": lambda: standings.player_page(regular, year),
        "player_all_time": lambda: standings.player_page(regular, whole),
    }
    measured = {}
    for name, work in cases.items():
        work()  # warm: connection, ruleset versions in the server's cache
        times = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            work()
            times.append((time.perf_counter() - start) * 1000)
        reset_queries()
        with CaptureQueriesContext(connection) as queries:
            work()
        spread = figure(times, higher_is_better=False)
        measured[name] = {
            "median_ms": spread.median,
            "p10_ms": spread.p10,
            "p90_ms": spread.p90,
            "best_ms": spread.best,
            "queries": len(queries),
        }
    return {
        "years": years,
        "hanchans": Hanchan.objects.count(),
        "finished": Hanchan.objects.finished().count(),
        "seeding_s": seeding,
        "measured": measured,
    }


def _report(small: dict[str, Any], large: dict[str, Any]) -> list[str]:
    lines = [
        f"standings on PostgreSQL, {MEMBERS} members, median (p10-p90; best) of {ROUNDS} "
        f"after a warm-up (targets, on the median: < {TIME_TARGET_MS:.0f} ms, "
        f"<= {QUERY_TARGET} queries)",
        f"{'':<40} {'1-year history':>38} {'10-year history':>38}",
        f"{'hanchans (seeding time)':<40} {_count(small):>38} {_count(large):>38}",
    ]
    labels = {
        "month_page": f"monthly standings page ({END:%Y-%m})",
        "year_page": f"yearly standings page ({END.year})",
        "all_time_page": "all-time standings page",
        "champions_page": "champions page",
        "player_year_page": f"player page, busiest member, {END.year}",
        "player_all_time_page": "player page, busiest member, all time",
        "month": f"  of which the standings ({END:%Y-%m})",
        "all_time": "  of which the all-time standings",
        "champions": "  of which the champions, 12 months",
        "player_year": f"  of which the player's figures, {END.year}",
        "player_all_time": "  of which the player's figures, all time",
    }
    for name, label in labels.items():
        cells = [_cell(run["measured"][name]) for run in (small, large)]
        verdict = ""
        if name.endswith("_page"):
            medians = [run["measured"][name]["median_ms"] for run in (small, large)]
            ratio = medians[1] / medians[0]
            ok = (
                all(median < TIME_TARGET_MS for median in medians)
                and all(run["measured"][name]["queries"] <= QUERY_TARGET for run in (small, large))
                and ratio <= RATIO_TARGET
            )
            verdict = f" {ratio:.2f}x " + ("ok" if ok else "ABOVE TARGET")
        lines.append(f"{label:<40} {cells[0]:>38} {cells[1]:>38}{verdict}")
    lines.append(
        f"(pages: < {TIME_TARGET_MS:.0f} ms, <= {QUERY_TARGET} queries, 10-year / 1-year "
        f"<= {RATIO_TARGET}; the lines below a page are its parts, for information)"
    )
    if large["hanchans"] < 20_000:
        lines.append(f"10-year history has only {large['hanchans']:,} hanchans (< 20,000)")
    return lines


def _count(run: dict[str, Any]) -> str:
    return f"{run['hanchans']:,} ({run['seeding_s']:.0f} s)"


def _cell(measured: dict[str, Any]) -> str:
    return (
        f"{measured['median_ms']:.1f} ({measured['p10_ms']:.1f}-{measured['p90_ms']:.1f}; "
        f"best {measured['best_ms']:.1f}) ms, {measured['queries']} q"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]))))
    else:
        print("\n".join(run_standings_bench(keep="--keep" in sys.argv)))
