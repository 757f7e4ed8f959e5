"""What if: a season of about 1,300 counted hanchans re-scored under another
ruleset in at most 5 s, page and all.

:func:`run_whatif_bench` (re)creates a PostgreSQL database of its own (``BENCH_WHATIF_DATABASE``
from the environment, else ``clubsite_bench_whatif_<pid>``) on the server of ``DATABASE_URL``
(or 127.0.0.1:5432 as ``postgres``), and in a child process whose Django points at it migrates,
seeds a year of club nights (``seed_history``) and times ``/standings/what-if/`` for that year
under tenhou-4p: the games read through the ledger, each replayed under its own rules (the
exactness check) and under the other ruleset's, the page rendered. After a warm-up request that
does not count, the median of a few rounds is the verdict; the spread (10th-90th percentile)
and the best are shown beside it.
``python -m benchmarks.whatif`` prints the report.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.timing import figure, meets

BENCH_DATABASE = os.environ.get("BENCH_WHATIF_DATABASE") or f"clubsite_bench_whatif_{os.getpid()}"
# 96 members come to about 1,300 makura-1.5 hanchans a year (seed 1), the club's season.
MEMBERS = 96
SEED = 1
END = datetime.date(2026, 10, 31)
OTHER = "tenhou-4p"
TIME_TARGET_S = 5.0
ROUNDS = 3

ROOT = Path(__file__).resolve().parent.parent


def run_whatif_bench(*, keep: bool = False) -> list[str]:
    """Seed a year into a scratch database and time the what-if page over it.

    Returns the report lines (hanchans re-scored, games refused, the median seconds with their
    spread and best, the target and a verdict on the median: ``ok`` or ``ABOVE TARGET``).
    ``keep`` leaves the database.

    Raises:
        RuntimeError: PostgreSQL is unreachable or the child process failed.
    """
    from benchmarks.standings import _admin, _server_url

    server = _server_url()
    _admin(server, f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
    _admin(server, f"CREATE DATABASE {BENCH_DATABASE}")
    try:
        result = _measure_in_child(f"{server}/{BENCH_DATABASE}")
    finally:
        if not keep:
            _admin(server, f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
    return whatif_report(result)


def whatif_report(result: dict[str, Any]) -> list[str]:
    """The report lines from the child's figures (``times_s`` and ``cpu_s``: seconds per
    round; ``games``, ``refused``, ``not_reproduced``)."""
    seconds = figure(result["times_s"], higher_is_better=False)
    cpu = figure(result["cpu_s"], higher_is_better=False)
    verdict = "ok" if meets(seconds, TIME_TARGET_S) else "ABOVE TARGET"
    return [
        f"what if: {result['games']:,} counted hanchans of {END.year} re-scored under {OTHER} "
        f"({result['refused']} refused, {result['not_reproduced']} not reproduced); "
        f"median of {ROUNDS} rounds after a warm-up",
        f"{'what-if page, a season':<44} {seconds.median:>12.2f} s "
        f"target <= {TIME_TARGET_S} {verdict} {seconds.spread_text(2)}",
        f"{'  of which Python in the web process (CPU)':<44} {cpu.median:>12.2f} s "
        f"{cpu.spread_text(2)}",
    ]


def _measure_in_child(database_url: str) -> dict[str, Any]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "benchmark-only",
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.whatif", "--child"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"what-if bench failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _child() -> dict[str, Any]:
    """In the child: seed the year, then time the page."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from scoring.upkeep.history_seeding import seed_history

    call_command("migrate", verbosity=0, skip_checks=True)
    seed_history(years=1, members=MEMBERS, seed=SEED, end=END)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would after a bulk load
    call_command("collectstatic", interactive=False, verbosity=0)
    viewer = Client()
    viewer.force_login(get_user_model().objects.order_by("pk")[0])
    url = f"/standings/what-if/?period=year&year={END.year}&to={OTHER}"
    times = []
    cpu = []
    # The first request warms the process (imports, templates, the rulesets) and is left out.
    assert viewer.get(url).status_code == 200
    for _ in range(ROUNDS):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = viewer.get(url)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert response.status_code == 200, response.status_code
    from scoring.engine import load_ruleset
    from scoring.standings import year_period
    from scoring.standings.counted import counted_versions
    from scoring.whatif.period import period_games
    from scoring.whatif.standings import what_if

    season = year_period(END.year)
    games = period_games(counted_versions(None).ids, season.start, season.end)
    result = what_if(games, load_ruleset(OTHER))
    return {
        "games": result.games,
        "refused": len(result.refused),
        "not_reproduced": len(result.not_reproduced),
        "times_s": times,
        "cpu_s": cpu,
    }


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(_child()))
    else:
        print("\n".join(run_whatif_bench()))
