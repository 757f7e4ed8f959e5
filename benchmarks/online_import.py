"""Online game logs read and re-scored per second (``make bench``): every real log
of tests/data/online, by format (Mahjong Soul's own records included), through
:func:`scoring.online.reading.read_game_file` and :func:`scoring.online.verify.verify`: what
an import does before it writes.

And stored per second (:func:`run_online_store_bench`): the same logs read,
re-scored, matched to their members and stored in the ledger on PostgreSQL, in a database of
its own (``BENCH_ONLINE_DATABASE``, else ``clubsite_bench_online_<pid>``, on the server of
``DATABASE_URL``), by :func:`scoring.ledger.import_logs` (one batch: the upload page's and
``import_games``' way) and, for comparison, one :func:`scoring.ledger.import_verified`
transaction per log (their way before), with the SQL statements per stored log.
``python -m benchmarks.online_import`` prints both.
"""

from __future__ import annotations

import datetime
import gc
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.timing import figure, median_rate, meets
from scoring.online.reading import read_game_file
from scoring.online.verify import verify

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "online"
# Logs re-scored per second, each format (a log is a whole game of 8 to 20 hands): the upload
# page takes 20 files, re-scored in 4 seconds at most. mjai and stripped Mahjong Soul records
# state no han, so every value is tried for each win: they are the slowest.
IMPORT_TARGET = 5.0
# Logs read, re-scored and stored per second in a batch.
STORE_TARGET = 100.0
STORE_ROUNDS = 3
BENCH_DATABASE = os.environ.get("BENCH_ONLINE_DATABASE") or f"clubsite_bench_online_{os.getpid()}"
PLAYED_ON = datetime.date(2026, 1, 10)


def real_logs() -> dict[str, list[tuple[str, bytes]]]:
    """The fixtures' files (``name``, bytes) by format."""
    by_format: dict[str, list[tuple[str, bytes]]] = defaultdict(list)
    for path in sorted(DATA.glob("*/*")):
        if path.suffix not in (".json", ".mjlog", ".xml", ".jsonl"):
            continue
        raw = path.read_bytes()
        game = read_game_file(raw, path.name)
        if game.log is not None:
            by_format[game.log.log_format].append((path.name, raw))
    return by_format


def run_online_import_bench() -> list[str]:
    """Logs read and re-scored per second, each format, as report lines."""
    lines = []
    for log_format, files in sorted(real_logs().items()):

        def work(files: list[tuple[str, bytes]] = files) -> int:
            for name, raw in files:
                log = read_game_file(raw, name).log
                assert log is not None
                verify(log)
            return len(files)

        rate = median_rate(work, rounds=3)
        verdict = "ok" if meets(rate, IMPORT_TARGET) else "BELOW TARGET"
        label = f"online logs re-scored ({log_format}, {len(files)})"
        unit = "logs/s"
        lines.append(
            f"{label:<44} {rate.median:>12,.1f} {unit:<12} target >= {IMPORT_TARGET:,} {verdict} "
            f"{rate.spread_text()}"
        )
    return lines


def run_online_store_bench(*, keep: bool = False) -> list[str]:
    """Logs stored per second (the median of :data:`STORE_ROUNDS` after a warm-up round, with
    the spread and the best) and SQL statements per stored log, in a batch and one by one, as
    report lines; the batch's median rate against :data:`STORE_TARGET`. ``keep`` leaves the
    scratch database.

    Raises:
        RuntimeError: PostgreSQL is unreachable or the child process failed.
    """
    from benchmarks.scratch_db import bench_environment
    from benchmarks.standings import _admin, _server_url

    server = _server_url()
    _admin(server, f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
    _admin(server, f"CREATE DATABASE {BENCH_DATABASE}")
    try:
        # environ={}: the child's settings module and key are this bench's own, not the caller's.
        env = {
            **os.environ,
            **bench_environment(
                server, BENCH_DATABASE, secret_prefix="benchmark-only-", environ={}
            ),
        }
        done = subprocess.run(
            [sys.executable, "-m", "benchmarks.online_import", "--child"],
            cwd=DATA.parent.parent.parent,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"online store bench failed:\n{done.stderr[-3000:]}")
        result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        if not keep:
            _admin(server, f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
    # The whole path (read, re-score, store) is what the target is about.
    return store_report(result)


def store_report(result: dict[str, Any]) -> list[str]:
    """The store bench's lines from the child's figures (``result``: ``logs``, and for
    ``batch`` and ``single`` the rates per round, ``rates`` and ``store_rates`` in logs/s,
    ``statements`` per stored log and ``stored``); the verdict is the batch's median rate's."""
    batch, single = result["batch"], result["single"]
    rates = {
        (label, key): figure(result[label][key])
        for label in ("batch", "single")
        for key in ("rates", "store_rates")
    }
    verdict = "ok" if meets(rates["batch", "rates"], STORE_TARGET) else "BELOW TARGET"

    def rate(label: str, key: str) -> str:
        measured = rates[label, key]
        return f"{measured.median:>12,.1f} logs/s {measured.spread_text()}"

    return [
        f"online logs stored: {batch['stored']} of {result['logs']} real logs "
        f"(the rest refused as the same game), read, re-scored and stored on PostgreSQL; "
        f"median of {STORE_ROUNDS} rounds after a warm-up",
        f"{'online logs stored per second (a batch)':<44} "
        f"{rates['batch', 'rates'].median:>12,.1f} {'logs/s':<12} target >= {STORE_TARGET:,} "
        f"{verdict} {rates['batch', 'rates'].spread_text()}",
        f"{'  the store alone (after re-scoring)':<44} {rate('batch', 'store_rates')}",
        f"{'  SQL statements per stored log (a batch)':<44} {batch['statements']:>12.1f}",
        f"{'online logs stored per second (one by one)':<44} {rate('single', 'rates')}",
        f"{'  the store alone (after re-scoring)':<44} {rate('single', 'store_rates')}",
        f"{'  SQL statements per stored log (one by one)':<44} {single['statements']:>12.1f}",
    ]


def _child() -> dict[str, Any]:
    """In the child: migrate, save every seat's member once, then time the stores."""
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from scoring.ledger import LedgerError, import_logs, import_verified, match_players
    from scoring.models import Hanchan

    call_command("migrate", verbosity=0, skip_checks=True)
    files = [item for items in real_logs().values() for item in items]

    def verified_logs() -> list[Any]:
        games = []
        for name, raw in files:
            log = read_game_file(raw, name).log
            assert log is not None
            games.append(verify(log))
        return games

    # The club's steady state: every seat's online name saved for a member (equal names and
    # NoName seats get a member of their own each time, as an import by command does).
    import_logs(verified_logs(), played_on=PLAYED_ON, create_members=True)

    def one_by_one(games: list[Any]) -> int:
        stored = 0
        for game in games:
            try:
                players = match_players(game.log, create_members=True)
                import_verified(game, players, played_on=PLAYED_ON)
                stored += 1
            except LedgerError:
                pass
        return stored

    def batch(games: list[Any]) -> int:
        outcomes = import_logs(games, played_on=PLAYED_ON, create_members=True)
        return sum(isinstance(o, Hanchan) for o in outcomes)

    figures = {}
    for label, work in (("batch", batch), ("single", one_by_one)):
        rates, store_rates, statements, stored = [], [], 0.0, 0
        # One round more than counted: the first warms the process and the server (imports,
        # plans, the tables' pages in memory) and is left out.
        for _ in range(STORE_ROUNDS + 1):
            Hanchan.objects.all().delete()
            # Each round starts from a vacuumed database and a collected heap: the last
            # round's rows and games are garbage, not the path's, and autovacuum of them or
            # a full collection (~0.13 s) in the middle of a round was that round's noise.
            # No ANALYZE: statistics of emptied tables are no club's.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM")
            reset_queries()
            games = []
            gc.collect()
            start = time.perf_counter()
            games = verified_logs()
            verified_at = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                stored = work(games)
            end = time.perf_counter()
            rates.append(stored / (end - start))
            store_rates.append(stored / (end - verified_at))
            statements = len(queries) / stored
        figures[label] = {
            "rates": rates[1:],
            "store_rates": store_rates[1:],
            "statements": statements,
            "stored": stored,
        }
    return {"logs": len(files), **figures}


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        print(json.dumps(_child()))
    else:
        print("\n".join([*run_online_import_bench(), *run_online_store_bench()]))
