"""The restore drill: a backup is only as good as its last restore.

:func:`run_drill` dumps the database, restores the dump into a fresh database, and compares
what the club sees before and after: every figure of :func:`figures`, computed in this process
on the live database and by ``manage.py restore_drill --figures`` in a child process on the
restored one. :func:`figures` also replays every settled counted game from its record
(:func:`scoring.ledger.hanchan_record`, the engine's ``replay_record``) and lists each game
whose replay differs from its counted result, so a restore that kept the totals but lost or
garbled a hand is caught too.

Two ways to dump and restore (``method``):

- ``pg_dump`` (the default on PostgreSQL): ``pg_dump --format=custom``, as README "Deploying"
  backs up, then ``createdb`` and ``pg_restore`` into a database of its own beside the club's
  (``<name>_drill``), dropped afterwards;
- ``dumpdata`` (the default on SQLite): Django's ``dumpdata`` (every app but content types,
  permissions, sessions, the admin's log and the task queue, which ``migrate`` makes or a
  restore does not need), then ``migrate``, ``flush`` and ``loaddata`` into a fresh SQLite
  file.
"""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connection

from scoring import standings as st
from scoring.engine import RecordError, replay_record
from scoring.ledger import (
    copied_key_disagreements,
    counted_games,
    counted_results,
    hanchan_record,
    settled,
)

BASE_DIR = Path(settings.BASE_DIR)
# What dumpdata leaves out: made again by migrate (content types, permissions), or of no use
# after a restore (sessions, the admin's log, the task queue's results).
DUMPDATA_EXCLUDE = [
    "contenttypes",
    "auth.permission",
    "sessions",
    "admin.logentry",
    "django_tasks_database",
]
METHODS = ("pg_dump", "dumpdata")


class DrillError(Exception):
    """A step of the drill could not be run (a dump or restore command failed)."""


# -- what is compared ----------------------------------------------------------------------------


def _row(row: st.StandingsRow) -> list[Any]:
    return [
        row.display_name, row.games, row.total_points, row.rank_sum, list(row.rank_counts),
        row.lasts, row.tobis, row.best_points, row.best_hanchan_id, row.uma_ep, row.chips,
    ]  # fmt: skip


def _standings(period: st.Period, ruleset_ids: list[str] | None) -> list[list[Any]]:
    table = st.period_standings(period, ruleset_ids=ruleset_ids, min_games=0)
    return [_row(r) for r in (*table.rows, *table.below_minimum)]


def replay_differences() -> tuple[int, list[str]]:
    """Replay every settled counted game from its record; returns how many were replayed and
    one line for each game whose replay differs from its counted result (scores, ranks,
    points by seat) or does not replay at all. A game with a correction waiting counts its
    earlier version, which its current hands no longer describe: it is left out."""
    counted: dict[int, list[tuple[int, int, int, int]]] = {}
    for seat in (
        counted_results()
        .order_by("hanchan_id", "seat")
        .values_list("hanchan_id", "seat", "final_score", "rank", "points")
    ):
        counted.setdefault(seat[0], []).append(seat[1:])
    games = (
        counted_games()
        .filter(settled())
        .select_related("ruleset_version")
        .prefetch_related("seats__member", "hands")
        .order_by("pk")
    )
    replayed = 0
    differences: list[str] = []
    for game in games.iterator(chunk_size=500):
        replayed += 1
        try:
            settlement = replay_record(hanchan_record(game)).settlement
        except RecordError as error:
            differences.append(f"game {game.pk}: does not replay: {error.line()}")
            continue
        if settlement is None:
            differences.append(f"game {game.pk}: its record stops before the end")
            continue
        again = [
            (index, settlement.scores[index], settlement.ranks[index], settlement.points[index])
            for index in range(len(settlement.points))
        ]
        if again != counted.get(game.pk, []):
            differences.append(
                f"game {game.pk}: replayed (seat, score, rank, points) {again}, "
                f"counted {counted.get(game.pk)}"
            )
    return replayed, differences


def figures(today: datetime.date) -> dict[str, Any]:
    """What the club sees of its history, as plain JSON data: the standings of all time, of
    each year and each month with counted games, under the standard rules and under each
    stored ruleset; the champions up to ``today``; every counted result; and the replay of
    every settled counted game (:func:`replay_differences`)."""
    days = sorted(set(counted_results().values_list("played_on", flat=True)))
    months = sorted({(day.year, day.month) for day in days})
    filters: dict[str, list[str] | None] = {"standard": None}
    filters |= {key: [key] for key in st.stored_ruleset_ids()}
    standings: dict[str, Any] = {}
    for name, ids in filters.items():
        standings[f"all/{name}"] = _standings(st.all_time_period(), ids)
        for year in sorted({day.year for day in days}):
            standings[f"{year}/{name}"] = _standings(st.year_period(year), ids)
    for year, month in months:
        standings[f"{year}-{month:02}/standard"] = _standings(st.month_period(year, month), None)
    if days:
        # A range that no roll-up covers whole: summed from the counted results themselves.
        span = st.range_period(days[0] + datetime.timedelta(days=1), days[-1])
        standings["range/standard"] = _standings(span, None)
    history = st.champions_history(today=today)
    champions = {
        kind: [
            [t.period.start.isoformat(), [h.display_name for h in t.holders], t.points]
            for t in titles
        ]
        for kind, titles in (("months", history.months), ("halves", history.halves))
    }
    results = [
        list(seat)
        for seat in counted_results()
        .order_by("hanchan_id", "seat")
        .values_list(
            "hanchan_id", "seat", "member__display_name", "played_on", "final_score", "rank",
            "points", "busted", "last_place", "hands", "wins", "deal_ins", "riichi",
        )
    ]  # fmt: skip
    replayed, differences = replay_differences()
    return {
        "standings": standings,
        "champions": champions,
        "counted_results": json.loads(json.dumps(results, default=str)),
        "replays": {"replayed": replayed, "differences": differences},
        "copied_keys": copied_key_disagreements(),
    }


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """One line per difference between two :func:`figures`, by key (at most 20 lines of
    standings or results, then a count)."""
    lines: list[str] = []
    for part in ("standings", "champions"):
        for key in sorted(set(before[part]) | set(after[part])):
            if before[part].get(key) != after[part].get(key):
                lines.append(f"{part} {key}: differs after the restore")
    rows_before, rows_after = before["counted_results"], after["counted_results"]
    if rows_before != rows_after:
        missing = len({json.dumps(r) for r in rows_before} - {json.dumps(r) for r in rows_after})
        lines.append(
            f"counted results: {len(rows_before)} before, {len(rows_after)} after, "
            f"{missing} missing or changed"
        )
    for label, side in (("before", before), ("after", after)):
        lines += [f"replay {label} the restore: {d}" for d in side["replays"]["differences"]]
        lines += [
            f"{key} {label} the restore: {count} rows differ from their source"
            for key, count in side.get("copied_keys", {}).items()
            if count
        ]
    if before["replays"]["replayed"] != after["replays"]["replayed"]:
        lines.append(
            f"games replayed: {before['replays']['replayed']} before, "
            f"{after['replays']['replayed']} after"
        )
    return lines[:20] + ([f"... and {len(lines) - 20} more"] if len(lines) > 20 else [])


# -- dump and restore ------------------------------------------------------------------------


@dataclass
class DrillReport:
    """What a drill did: the method, the restored database's description (no password),
    the games replayed on each side, the seconds of each step, and the differences (none: the
    restore is good)."""

    method: str
    restored_into: str
    replayed: int
    steps: dict[str, float] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)


def default_method() -> str:
    """``pg_dump`` on PostgreSQL, ``dumpdata`` otherwise."""
    return "pg_dump" if connection.vendor == "postgresql" else "dumpdata"


def _run(command: list[str], *, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command, cwd=BASE_DIR, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise DrillError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout


def _child_env(database_url: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("DATABASE_REPLICA_URL", None)
    return env


def _restored_figures(database_url: str, today: datetime.date) -> dict[str, Any]:
    """:func:`figures` of the database at ``database_url``, from a process of its own."""
    out = _run(
        [sys.executable, "manage.py", "restore_drill", "--figures", "--today", today.isoformat()],
        env=_child_env(database_url),
    )
    figures_: dict[str, Any] = json.loads(out)
    return figures_


def _postgres_env() -> dict[str, str]:
    """The environment of the PostgreSQL client commands for the default database."""
    db = settings.DATABASES["default"]
    given = {
        "PGHOST": db.get("HOST"),
        "PGPORT": db.get("PORT"),
        "PGUSER": db.get("USER"),
        "PGPASSWORD": db.get("PASSWORD"),
    }
    return {**os.environ, **{name: str(value) for name, value in given.items() if value}}


@contextmanager
def _restored_postgres(work: Path) -> Iterator[tuple[str, str]]:
    """pg_dump the default database, restore it into ``<name>_drill``; yields its URL and
    its description, and drops it afterwards."""
    db = settings.DATABASES["default"]
    name = str(connection.settings_dict["NAME"])
    target = f"{name}_drill"
    env = _postgres_env()
    dump = work / "club.dump"
    _run(["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", name], env=env)
    _run(["dropdb", "--if-exists", target], env=env)
    _run(["createdb", target], env=env)
    try:
        restore = ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={target}"]
        _run([*restore, str(dump)], env=env)
        user = db.get("USER") or ""
        password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
        credentials = f"{user}{password}@" if user else ""
        host = f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}"
        yield f"postgres://{credentials}{host}/{target}", f"PostgreSQL database {target}"
    finally:
        # A connection of the child process may linger a moment: dropdb waits for none.
        _run(["dropdb", "--if-exists", "--force", target], env=env)


@contextmanager
def _restored_sqlite(work: Path) -> Iterator[tuple[str, str]]:
    """dumpdata the default database, migrate a fresh SQLite file, empty it and loaddata into
    it."""
    dump = work / "club.json"
    call_command(
        "dumpdata",
        natural_foreign=True,
        exclude=DUMPDATA_EXCLUDE,
        output=str(dump),
        verbosity=0,
    )
    url = f"sqlite:///{work / 'restored.sqlite3'}"
    env = _child_env(url)
    _run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env=env)
    # The migrations seed rows of their own (the site's first club, whose slug the dump's
    # club may hold under another id): the restore starts as empty as the dump, content
    # types and permissions made again.
    _run([sys.executable, "manage.py", "flush", "--noinput", "-v", "0"], env=env)
    _run([sys.executable, "manage.py", "loaddata", str(dump), "-v", "0"], env=env)
    yield url, "a fresh SQLite file"


def run_drill(
    method: str | None = None,
    *,
    today: datetime.date | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> DrillReport:
    """Dump, restore into a fresh database, and compare (the module's description).

    Raises:
        DrillError: a dump or restore step failed, or ``method`` is unknown or does not fit
            the database (``pg_dump`` needs PostgreSQL).
    """
    method = method or default_method()
    if method not in METHODS:
        raise DrillError(f"method is one of {', '.join(METHODS)}, not {method!r}")
    if method == "pg_dump" and connection.vendor != "postgresql":
        raise DrillError("pg_dump needs the club's database on PostgreSQL")
    today = today or st.club_today()
    steps: dict[str, float] = {}
    started = time.perf_counter()
    before = figures(today)
    steps["figures before"] = time.perf_counter() - started
    progress(f"before: {before['replays']['replayed']:,} counted games replayed")
    restore = _restored_postgres if method == "pg_dump" else _restored_sqlite
    with tempfile.TemporaryDirectory(prefix="clubsite-drill-") as work:
        started = time.perf_counter()
        with restore(Path(work)) as (url, description):
            steps["dump and restore"] = time.perf_counter() - started
            progress(f"restored with {method} into {description}")
            started = time.perf_counter()
            after = _restored_figures(url, today)
            steps["figures after"] = time.perf_counter() - started
    return DrillReport(
        method=method,
        restored_into=description,
        replayed=after["replays"]["replayed"],
        steps=steps,
        differences=compare(before, after),
    )
