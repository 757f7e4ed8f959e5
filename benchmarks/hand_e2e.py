"""A hand end to end: the CPU a ron costs a gunicorn worker and PostgreSQL, beside the handler's
alone.

Run by ``make bench`` (``python -m benchmarks``, part ``hand_e2e``) as ``python -m
benchmarks.hand_e2e`` in a process of its own, or alone. Like :mod:`benchmarks.hand_entry` it
creates, migrates and drops a scratch database on the local PostgreSQL (``BENCH_E2E_DATABASE``,
by default ``clubsite_bench_e2e_<pid>``; one of that name that exists already is left alone and
the run stops). It starts gunicorn as the ``Procfile`` does (``clubsite.gunicorn_conf``: sync
workers, DEBUG off) with ONE worker (``WEB_CONCURRENCY=1``), so that the process serving every
request is known, on a free loopback port.

The hand is a ron with riichi and its value as the table screen sends it
(:func:`benchmarks.page_requests.ron_requests`: the previews that ask the server (none: the
phone draws them) and the confirm, each with ``HX-Request``, form-urlencoded, the CSRF cookie
and token, ``Accept- Encoding: gzip``), on a game's second hand (the first answers with the
whole list), each hand at a game of its own, whose first hand was confirmed through the same
way, untimed (:data:`FIRST`). Per hand are read, before the previews, before the
confirm and after it (each after a pause of :data:`SETTLE` s, so that what the worker does after
its answer, closing the connection, is not counted in the next request):

- the worker's CPU, from ``/proc/<worker pid>``;
- the database's: the backend serving the worker's connection (``CONN_MAX_AGE`` keeps one),
  found by the worker's socket's local port as ``pg_stat_activity.client_port``;
- the wall time of the requests, from sending each to reading its whole answer.

CPU is read by :func:`benchmarks.proc_cpu.cpu_seconds` (``schedstat``'s nanoseconds on this
kernel) and, beside it, by ``stat``'s 10 ms ticks (:func:`benchmarks.proc_cpu.stat_cpu_seconds`)
for the whole ron: a round is :data:`HANDS` hands, so that a round's ticks say something, and its
figure is their mean per hand. :data:`ROUNDS` rounds are counted, after a warm-up round that is
not; in turns with them, rounds of the same requests sent to Django's handler in this process
(:class:`benchmarks.hand_entry._Phone`, the CPU of the handler alone as ``make bench``'s
``hand_entry`` part measures it) with its own backend's CPU. Printed: each figure's median per
hand with its spread (10th-90th percentile) and best (:func:`benchmarks.timing.figure`), the
target (a ron as the page sends it, worker + database <= 20 ms, by the median), the
hands recorded (each game 2, once each) and the machine's load average before and after.
Exit status 1 when the target is missed or a hand went wrong, 2 when the run could not start.

Settings (environment): ``BENCH_E2E_ROUNDS`` (default 15), ``BENCH_E2E_HANDS`` (hands a round,
default 10).
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.capacity import HTMX, request
from benchmarks.hand_entry import PG_SERVER, _free_port, _NoRedirect, _Phone
from benchmarks.page_requests import RON_PREVIEWS, ron_requests
from benchmarks.proc_cpu import children, connected_ports, cpu_seconds, stat_cpu_seconds
from benchmarks.scratch_db import create_database, drop_database, use_bench_environment
from benchmarks.serving import server_answers
from benchmarks.timing import Figure, figure

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = os.environ.get("BENCH_E2E_DATABASE") or f"clubsite_bench_e2e_{os.getpid()}"
ROUNDS = int(os.environ.get("BENCH_E2E_ROUNDS", "15"))
HANDS = int(os.environ.get("BENCH_E2E_HANDS", "10"))
# A ron as the page sends it, worker + database CPU, ms (the median).
RON_TARGET_MS = 20
# Seconds to wait before reading a process's CPU after an answer: the worker closes the
# connection and returns to its loop after the client has read the answer.
SETTLE = 0.01
LABEL = 44


@dataclass
class Rounds:
    """Per-hand figures of each counted round, ms, by name (the mean of the round's hands)."""

    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, total_seconds: float, hands: int) -> None:
        self.values.setdefault(name, []).append(total_seconds * 1000 / hands)

    def figure(self, name: str) -> Figure:
        return figure(self.values[name], higher_is_better=False)


@dataclass
class Sums:
    """What one round's hands added up, s, by name."""

    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds


def _after_settling(read: Callable[[], tuple[float, ...]]) -> tuple[float, ...]:
    time.sleep(SETTLE)
    return read()


def _new_games(members: list[Any], count: int) -> list[int]:
    """``count`` new Makura 1.5 games of ``members``; each gets its first hand (:data:`FIRST`)
    through the way that then plays the ron, the second hand (version 1)."""
    from scoring.ledger import hanchan_start

    return [
        int(
            hanchan_start(
                ruleset_id="makura-1.5", members=members, played_on=datetime.date(2026, 11, 22)
            ).pk
        )
        for _ in range(count)
    ]


# A game's first hand, an exhaustive draw with the dealer tenpai, confirmed through the server
# that then gets the ron, not timed: at a table the hand before was confirmed there too, so
# the ron's answer fills in the next hand's form the server drew then
# (scoring/views/next_entry.py), as every confirm but a game's first few (one per worker) does.
FIRST = {"version": "0", "confirm": "1", "result": "draw", "tenpai": "0"}


def _session(member: Any) -> str:
    """A logged-in session's key for ``member``, as a phone's cookie carries it."""
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(member.user.pk)
    session["_auth_user_backend"] = "clubsite.auth_backends.MemberModelBackend"
    session["_auth_user_hash"] = member.user.get_session_auth_hash()
    session.create()
    return session.session_key or ""


def _backend_of(ports: list[int]) -> int:
    """The pid of the scratch database's backend whose client is on one of ``ports``.

    Raises:
        RuntimeError: none or several.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND client_port = ANY(%s)",
            [DB_NAME, ports],
        )
        pids = [row[0] for row in cursor.fetchall()]
    if len(pids) != 1:
        raise RuntimeError(f"backends of the worker's ports {ports}: {pids}")
    return int(pids[0])


def _own_backend() -> int:
    """The pid of the backend serving this process's Django connection."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


class Http:
    """The hands sent to gunicorn: one phone's session and one connection at a time, as
    :func:`benchmarks.capacity.request` sends a phone's requests."""

    def __init__(self, base: str, session: str, worker: int, backend: int) -> None:
        self.base = base
        self.session = session
        self.worker = worker
        self.backend = backend
        self.opener = urllib.request.build_opener(_NoRedirect)
        self.errors: list[str] = []

    def read(self) -> tuple[float, ...]:
        """(worker CPU s, database CPU s, the same by ``stat``'s ticks)."""
        return (
            cpu_seconds(self.worker),
            cpu_seconds(self.backend),
            stat_cpu_seconds(self.worker),
            stat_cpu_seconds(self.backend),
        )

    def first(self, game: int) -> None:
        """The game's first hand (:data:`FIRST`), not timed."""
        path = f"/games/{game}/hands/"
        fields = {"request_id": str(uuid.uuid4()), **FIRST}
        status, body, _ = request(
            self.opener, self.base, self.session, path, list(fields.items()), HTMX
        )
        if status != 200 or b'class="notice success"' not in body:
            self.errors.append(f"game {game} first hand: {status}")

    def hand(self, game: int, sums: Sums) -> None:
        """The ron at ``game``, its CPU and wall time added to ``sums``."""
        start = _after_settling(self.read)
        confirm = start
        for sent in ron_requests(str(uuid.uuid4()), 1):
            if sent.confirm:
                confirm = _after_settling(self.read)
            status, body, seconds = request(
                self.opener,
                self.base,
                self.session,
                f"/games/{game}/hands/{sent.path}",
                sent.fields,
                HTMX,
            )
            sums.add("wall", seconds)
            if sent.confirm:
                sums.add("confirm wall", seconds)
            if status != 200 or (sent.confirm and b'class="notice success"' not in body):
                self.errors.append(f"game {game} {sent.path or 'confirm'}: {status}")
        end = _after_settling(self.read)
        sums.add("worker", end[0] - start[0])
        sums.add("database", end[1] - start[1])
        sums.add("worker ticks", end[2] - start[2])
        sums.add("database ticks", end[3] - start[3])
        sums.add("confirm worker", end[0] - confirm[0])
        sums.add("confirm database", end[1] - confirm[1])


class InProcess:
    """The same hands sent to Django's handler in this process (:class:`hand_entry._Phone`:
    the handler's CPU alone), with the CPU of this process's backend."""

    def __init__(self, member: Any) -> None:
        self.phone = _Phone(member)
        self.backend = _own_backend()
        self.errors: list[str] = []

    def first(self, game: int) -> None:
        """The game's first hand (:data:`FIRST`), not timed."""
        answer = self.phone.post(
            f"/games/{game}/hands/", {"request_id": str(uuid.uuid4()), **FIRST}
        )
        if answer.status_code != 200:
            self.errors.append(f"game {game} first hand: {answer.status_code}")

    def hand(self, game: int, sums: Sums) -> None:
        self.phone.clock.ms = 0.0
        start = _after_settling(lambda: (cpu_seconds(self.backend),))[0]
        confirm = start
        previews = 0.0
        for sent in ron_requests(str(uuid.uuid4()), 1):
            if sent.confirm:
                previews = self.phone.clock.ms
                confirm = _after_settling(lambda: (cpu_seconds(self.backend),))[0]
            answer = self.phone.post(f"/games/{game}/hands/{sent.path}", sent.fields)
            if answer.status_code != 200:
                self.errors.append(f"game {game} {sent.path or 'confirm'}: {answer.status_code}")
        end = _after_settling(lambda: (cpu_seconds(self.backend),))[0]
        sums.add("handler", self.phone.clock.ms / 1000)
        sums.add("handler database", end - start)
        sums.add("confirm handler", (self.phone.clock.ms - previews) / 1000)
        sums.add("confirm handler database", end - confirm)


def _play(http: Http, in_process: InProcess, games: list[int], rounds: Rounds | None) -> None:
    """A round of each way, :data:`HANDS` hands each (the first half of ``games`` over HTTP,
    the second in process); ``rounds`` None: a warm-up, not counted."""
    ways: tuple[tuple[Http | InProcess, list[int]], ...] = (
        (http, games[:HANDS]),
        (in_process, games[HANDS:]),
    )
    for way, batch in ways:
        for game in batch:
            way.first(game)
        sums = Sums()
        for game in batch:
            way.hand(game, sums)
        if rounds is not None:
            for name, seconds in sums.seconds.items():
                rounds.add(name, seconds, len(batch))


def _start_server(port: int, log: Any) -> subprocess.Popen[bytes]:
    """gunicorn as the ``Procfile`` runs it, with one worker."""
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "clubsite.wsgi",
            "--config",
            "python:clubsite.gunicorn_conf",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env={**os.environ, "WEB_CONCURRENCY": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def main() -> int:
    """The run; exit status as the module says."""
    use_bench_environment(PG_SERVER, DB_NAME, secret_prefix="e2e-", tasks_backend="database")
    import django
    from django.core.management import call_command
    from django.db import connections

    if not create_database(PG_SERVER, DB_NAME, who="hand e2e", variable="BENCH_E2E_DATABASE"):
        return 2
    server: subprocess.Popen[bytes] | None = None
    rounds = Rounds()
    with tempfile.TemporaryFile() as log:
        try:
            django.setup()
            from django.db.models import Count

            from clubsite.members import member_create
            from scoring.models import HandEntry

            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            members = [
                member_create(username=f"e{seat}", display_name=f"E{seat}") for seat in range(4)
            ]
            session = _session(members[0])
            games = _new_games(members, (ROUNDS + 1) * 2 * HANDS)
            port = _free_port()
            base = f"http://127.0.0.1:{port}"
            server = _start_server(port, log)
            if not server_answers(base, log, "hand e2e"):
                return 2
            workers = children(server.pid)
            if len(workers) != 1:
                print(f"hand e2e: gunicorn has {len(workers)} workers, not 1")
                return 2
            worker = workers[0]
            pg_port = urllib.parse.urlsplit(PG_SERVER).port or 5432
            # A table screen read opens the worker's connection, kept open (CONN_MAX_AGE).
            opener = urllib.request.build_opener(_NoRedirect)
            request(opener, base, session, f"/games/{games[0]}/", None, {})
            backend = _backend_of(connected_ports(worker, pg_port))
            http = Http(base, session, worker, backend)
            in_process = InProcess(members[0])
            load_before = os.getloadavg()
            batches = [games[i : i + 2 * HANDS] for i in range(0, len(games), 2 * HANDS)]
            _play(http, in_process, batches[0], None)
            for batch in batches[1:]:
                _play(http, in_process, batch, rounds)
            load_after = os.getloadavg()
            same = (
                children(server.pid) == [worker]
                and _backend_of(connected_ports(worker, pg_port)) == backend
            )
            stored = sorted(
                HandEntry.objects.filter(hanchan_id__in=games)
                .values_list("hanchan_id")
                .annotate(count=Count("pk"))
                .values_list("count", flat=True)
            )
            recorded = stored.count(2)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=40)
            connections.close_all()
            drop_database(PG_SERVER, DB_NAME)
    ok, lines = report(rounds, errors=http.errors + in_process.errors)
    sound = same and recorded == len(games) == len(stored)
    print(
        f"hand end to end: gunicorn (1 sync worker, clubsite.gunicorn_conf) and PostgreSQL on "
        f"the loopback; a ron with riichi and its value as the table screen sends it "
        f"({RON_PREVIEWS} previews + confirm), {HANDS} hands (games) a round, {ROUNDS} rounds "
        f"after a warm-up, in turns with the same requests to the handler alone in process; "
        f"ms per hand, median of the rounds"
    )
    print("\n".join(lines))
    print(
        f"{'games with the ron stored once (of 2 hands)':<{LABEL}} {recorded:>6} / {len(games)}"
        f"   worker and its backend the same throughout: {'yes' if same else 'NO'}"
        f" {'ok' if sound else 'FAILED'}"
    )
    print(
        f"{'load average before / after (1 min)':<{LABEL}} {load_before[0]:>6.2f} / "
        f"{load_after[0]:.2f} ({os.cpu_count()} cores)"
    )
    return 0 if ok and sound else 1


def report(rounds: Rounds, errors: list[str]) -> tuple[bool, list[str]]:
    """(whether the ron met its target and no request failed, the lines to print) of the
    counted ``rounds`` (their per-hand ms by name, as :class:`Http` and :class:`InProcess`
    add them) and the requests' ``errors``."""

    rounds = Rounds(dict(rounds.values))  # the sums below are the report's own

    def line(label: str, name: str, note: str = "") -> str:
        value = rounds.figure(name)
        return f"{label:<{LABEL}} {value.median:>6.1f} ms {note}{value.spread_text()}"

    both = "worker + database"
    for prefix in ("", "confirm "):
        rounds.values[prefix + both] = [
            w + d
            for w, d in zip(
                rounds.values[prefix + "worker"], rounds.values[prefix + "database"], strict=True
            )
        ]
        rounds.values[prefix + "handler + database"] = [
            h + d
            for h, d in zip(
                rounds.values[prefix + "handler"],
                rounds.values[prefix + "handler database"],
                strict=True,
            )
        ]
    rounds.values["ticks"] = [
        w + d
        for w, d in zip(rounds.values["worker ticks"], rounds.values["database ticks"], strict=True)
    ]
    ron = rounds.figure(both).median
    ok = ron <= RON_TARGET_MS and not errors
    verdict = "ok" if ron <= RON_TARGET_MS else "ABOVE"
    worker, handler = rounds.figure("worker").median, rounds.figure("handler").median
    lines = [
        line("e2e ron: worker + database CPU", both, f"target <= {RON_TARGET_MS} {verdict} "),
        line("e2e ron: gunicorn worker CPU", "worker"),
        line("e2e ron: database CPU (the worker's backend)", "database"),
        line(f"e2e ron: wall time ({RON_PREVIEWS + 1} requests)", "wall"),
        line("e2e ron: worker + database by 10 ms ticks", "ticks", "(/proc stat) "),
        line("handler alone: the ron (in process)", "handler"),
        line("handler alone: its database CPU", "handler database"),
        line("handler alone: handler + database", "handler + database"),
        f"{'the worker beyond the handler (medians)':<{LABEL}} {worker - handler:>6.1f} ms"
        f" ({worker / handler:.2f}x: gunicorn, the socket, the WSGI environ)",
        line("e2e confirm alone: worker + database CPU", "confirm " + both),
        line("e2e confirm alone: gunicorn worker CPU", "confirm worker"),
        line("e2e confirm alone: database CPU", "confirm database"),
        line("e2e confirm alone: wall time", "confirm wall"),
        line("handler alone: its confirm", "confirm handler"),
        line("handler alone: its confirm + database", "confirm handler + database"),
    ]
    if errors:
        lines.append(f"{'requests failed':<{LABEL}} {len(errors):>6}   target 0 FAILED")
        lines += [f"   {error}" for error in errors[:5]]
    return ok, lines


if __name__ == "__main__":
    sys.exit(main())
