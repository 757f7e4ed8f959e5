"""Fault runs: a club night of 40 phones at 10 tables, compressed in time, through the
database held down, gunicorn workers killed between a hand's commit and its answer, and the
venue's network lost for a while; every hand recorded exactly once, and every game equal to
its replay.

Run by ``make faults`` (``python -m benchmarks.faults``), never by the test suite. It runs
against a PostgreSQL cluster of its own (:class:`benchmarks.pg_cluster.PrivateCluster`:
``initdb`` into a temporary folder, a free loopback port, trust authentication; as root, run
as the ``postgres`` user), removed in a ``finally``: the machine's cluster is never touched.
It creates and migrates the database ``clubsite_faults`` there and serves the app as the
``Procfile`` does: gunicorn, 3 sync workers, DEBUG off, on a free loopback port, with
:mod:`benchmarks.fault_settings` (the site's settings and the kill hook of
:mod:`benchmarks.fault_hooks`). The phones reach it through a loopback proxy that stands for
the venue's Wi-Fi (:mod:`benchmarks.fault_venue`), so the network can be cut.

In the ``postgres`` and ``network`` runs three tables are the real table screen in
Chromium, hands tapped on the hand form and, when the network or the database is away, on
``offline.js``'s offline panel, its outbox sent by ``offline.js`` itself
(:mod:`benchmarks.fault_browser`); the other tables are Python phones that send what the
table screen and ``offline.js`` send (:mod:`benchmarks.fault_phones`). The faults, one run
each on new games:

- ``postgres``: a third of the way in, the cluster is stopped (``pg_ctl stop -m fast``),
  held down ``FAULTS_DB_OUTAGE`` seconds (default 10) and started again; the phones get 503
  with ``Retry-After`` and tap again (Python) or keep the hand offline (Chromium);
- ``worker``: three times, a worker is killed exactly between an online confirm's commit and
  its answer (the hook, armed by the run); the phone gets no answer, keeps the hand offline
  as ``offline.js`` does, and the outbox's ``stale`` answer shows it already in the list;
- ``network``: every connection cut and none let through for ``FAULTS_OUTAGE`` seconds
  (default 10, for the venue's 60), then a second in which requests reach the server but no
  answer comes back; when the network is back, twice a worker is killed between an outbox
  send's commit and its answer, and the outbox sends the hand again with the same request id.
  Meanwhile at two browser tables a phone on mobile data records a hand, so that the page's
  outbox is answered ``stale`` and the player chooses: discard (the hand was entered twice)
  and record after (another hand).

After each run: per game, every hand the table played stored exactly once (its request ids
are the ones the phones sent for it, in the order played), and the game's stored state and
each hand's stored result equal to the engine's replay of the stored record
(:func:`check_games`); each killed hand stored once (an outbox hand under the request id it
was sent again with). Exit status 1 on a lost or doubled hand, a replay difference, a 500
(or any answer a phone should not get), a 503 without ``Retry-After``, or a fault not
reached (a kill not hit, the stale path not taken).

Settings (environment): ``FAULTS_SPEED`` (default 100: a hand every 2-3 minutes a table
becomes one every 1.2-1.8 s), ``FAULTS_HANDS`` (hands a table plays per run, default 24),
``FAULTS_DB_OUTAGE`` (seconds the database is held down, at least 10, default 10),
``FAULTS_OUTAGE`` (seconds the network is cut, default 10), ``FAULTS_RETRY_AFTER`` (seconds a
Python phone waits before tapping again after a 503, default 1), ``FAULTS_RUNS``
(comma-separated, default ``postgres,worker,network``), ``FAULTS_BROWSER_TABLES`` (default
3; 0 for none) and ``FAULTS_BROWSER_RUNS`` (the runs with browser tables, default
``postgres,network``).
"""

from __future__ import annotations

import collections
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import fault_hooks
from benchmarks.fault_browser import BrowserFigures, BrowserTable, Clock, play_tables
from benchmarks.fault_phones import (
    HANDS,
    NETWORK,
    SPEED,
    Answer,
    Figures,
    Phone,
    Table,
)
from benchmarks.fault_venue import Venue
from benchmarks.hand_entry import _free_port
from benchmarks.pg_cluster import PrivateCluster
from benchmarks.scratch_db import create_database, use_bench_environment

__all__ = [
    "NETWORK",
    "Answer",
    "Figures",
    "GameCheck",
    "Phone",
    "Venue",
    "check_games",
]

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "clubsite_faults"
TABLES = 10
PHONES_PER_TABLE = 4
WORKERS = 3  # as the Procfile
DB_OUTAGE_S = max(10.0, float(os.environ.get("FAULTS_DB_OUTAGE", "10")))
OUTAGE_S = float(os.environ.get("FAULTS_OUTAGE", "10"))
RUNS = os.environ.get("FAULTS_RUNS", "postgres,worker,network").split(",")
BROWSER_TABLES = min(TABLES, int(os.environ.get("FAULTS_BROWSER_TABLES", "3")))
BROWSER_RUNS = os.environ.get("FAULTS_BROWSER_RUNS", "postgres,network").split(",")
# The browser tables that bring about the stale answer on purpose (fault_browser's plan).
PLANS = ["after", "discard"]
WORKER_KILLS = 3
OUTBOX_KILLS = 2
LOSSY_S = 1.0  # after the outage: requests get through, answers do not
# After its last hand, how long a table may take to empty its outboxes (offline.js sends every
# 30 s; a held hand answered, then the rest sent, can take three of those).
SETTLE_S = 150.0
KILL_WAIT_S = 45.0  # how long an armed kill may wait for a recorded hand of its kind


# -- the checks -------------------------------------------------------------------------------


@dataclass
class GameCheck:
    """What :func:`check_games` found in one game: ``lost`` hands the table played that are
    not stored, ``doubled`` hands stored more than once, ``strays`` stored hands no phone
    sent, ``out_of_order`` stored hands after a later one, ``replay`` the differences
    between the stored game and the engine's replay of its record (one line each)."""

    game: int
    lost: int = 0
    doubled: int = 0
    strays: int = 0
    out_of_order: int = 0
    replay: list[str] = field(default_factory=list)
    lost_hands: list[int] = field(default_factory=list)  # hand numbers, in the order played
    doubled_hands: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.doubled or self.strays or self.out_of_order or self.replay)


def check_games(played: Mapping[int, list[set[uuid.UUID]]]) -> list[GameCheck]:
    """Check each game against what its table played: ``played`` maps a game id to its hands
    in the order played, each the set of request ids the phones sent for it (the confirm's
    and the outbox's).

    A hand is stored exactly once when exactly one stored entry carries one of its request
    ids; the entries follow the order played. The stored record
    (:func:`scoring.ledger.hanchan_record`) is replayed by the engine
    (:func:`scoring.engine.replay_record`): the game's table (round, dealer, honba, deposits,
    scores, hands played) and each entry's result (deltas, scores, deposits) must equal the
    replay's."""
    from scoring.engine import replay_record
    from scoring.ledger import hanchan_record
    from scoring.models import Hanchan

    checks = []
    games = Hanchan.objects.filter(pk__in=list(played)).select_related("ruleset_version")
    for game in games.prefetch_related("seats__member", "hands").order_by("pk"):
        check = GameCheck(game.pk)
        hands = played[game.pk]
        owner = {rid: index for index, ids in enumerate(hands) for rid in ids}
        entries = sorted(game.hands.all(), key=lambda entry: entry.sequence)
        stored: collections.Counter[int] = collections.Counter()
        last = -1
        for entry in entries:
            index = owner.get(entry.request_id) if entry.request_id else None
            if index is None:
                check.strays += 1
                continue
            stored[index] += 1
            if index < last:
                check.out_of_order += 1
            last = max(last, index)
        check.lost_hands = [index for index in range(len(hands)) if not stored[index]]
        check.doubled_hands = sorted(index for index, count in stored.items() if count > 1)
        check.lost = len(check.lost_hands)
        check.doubled = sum(count - 1 for count in stored.values() if count > 1)
        check.replay = _replay_differences(game, entries, replay_record, hanchan_record)
        checks.append(check)
    missing = set(played) - {check.game for check in checks}
    checks += [GameCheck(pk, lost=len(played[pk]), replay=["game missing"]) for pk in missing]
    return checks


def _replay_differences(
    game: Any, entries: list[Any], replay: Callable[[Any], Any], record: Callable[[Any], Any]
) -> list[str]:
    from scoring.engine import RecordError

    try:
        replayed = replay(record(game))
    except RecordError as error:
        return [f"game {game.pk}: does not replay: {error}"]
    differences = []
    table = dict((game.state or {}).get("table", {}))
    state = replayed.state
    again = {
        "round": state.round,
        "dealer": state.dealer,
        "honba": state.honba,
        "deposits": state.deposits,
        "scores": list(state.scores),
        "all_last": state.all_last,
        "hands_played": state.hands_played,
    }
    if table != again:
        differences.append(f"game {game.pk}: stored table {table}, replayed {again}")
    if len(replayed.results) != len(entries):
        differences.append(
            f"game {game.pk}: {len(entries)} hands stored, {len(replayed.results)} replayed"
        )
    for entry, result in zip(entries, replayed.results, strict=False):
        expected = result.to_json()
        kept = {key: entry.result.get(key) for key in expected}
        if kept != expected:
            differences.append(f"game {game.pk} hand {entry.sequence}: {kept} != {expected}")
    return differences


# -- the faults -----------------------------------------------------------------------------------


def _arm_and_wait(hooks: Path, kind: str, stop: float) -> dict[str, Any] | None:
    """Arm one kill of ``kind`` and wait until a worker did it (by ``stop``): its log line."""
    done = len(fault_hooks.kills(hooks))
    fault_hooks.arm(hooks, kind)
    while time.monotonic() < stop:
        found = fault_hooks.kills(hooks)
        if len(found) > done:
            return found[done]
        time.sleep(0.01)
    with_marker = hooks / f"arm-{kind}"
    with_marker.unlink(missing_ok=True)
    return None


def _fault(
    kind: str, cluster: PrivateCluster, hooks: Path, venue: Venue, length: float
) -> tuple[list[str], list[dict[str, Any]]]:
    """Inflict fault ``kind`` on a run expected to last ``length`` seconds: what was done,
    and the kills done between a commit and its answer."""
    notes: list[str] = []
    killed: list[dict[str, Any]] = []
    if kind == "postgres":
        time.sleep(length / 3)
        stopped = cluster.stop()
        time.sleep(DB_OUTAGE_S)
        started = cluster.start()
        notes.append(
            f"PostgreSQL held down {stopped + DB_OUTAGE_S + started:.1f} s "
            f"(stop -m fast {stopped:.1f} s, {DB_OUTAGE_S:g} s down, start {started:.1f} s)"
        )
    elif kind == "worker":
        for _ in range(WORKER_KILLS):
            time.sleep(length / (WORKER_KILLS + 1))
            if kill := _arm_and_wait(hooks, "htmx", time.monotonic() + KILL_WAIT_S):
                killed.append(kill)
        notes.append(f"{len(killed)} of {WORKER_KILLS} kills after an online confirm's commit")
    elif kind == "network":
        time.sleep(length / 4)
        venue.set_mode("down", OUTAGE_S)
        time.sleep(OUTAGE_S)
        venue.set_mode("lossy")
        time.sleep(LOSSY_S)
        venue.set_mode("up")
        notes.append(f"network down {OUTAGE_S:g} s, then {LOSSY_S:g} s of lost answers")
        for _ in range(OUTBOX_KILLS):
            if kill := _arm_and_wait(hooks, "json", time.monotonic() + KILL_WAIT_S):
                killed.append(kill)
        notes.append(f"{len(killed)} of {OUTBOX_KILLS} kills after an outbox send's commit")
    return notes, killed


def _kill_outcomes(
    killed: list[dict[str, Any]],
    played: Mapping[int, list[set[uuid.UUID]]],
    sent: Mapping[str, int],
) -> list[str]:
    """What went wrong with the killed hands (none: each stored once; an outbox hand sent
    again with the same request id and stored under it)."""
    from scoring.models import HandEntry

    problems = []
    for kill in killed:
        rid = uuid.UUID(kill["request_id"])
        hand = next((ids for hands in played.values() for ids in hands if rid in ids), None)
        if hand is None:
            problems.append(f"killed hand {rid}: no phone sent it")
            continue
        stored = list(HandEntry.objects.filter(request_id__in=list(hand)))
        if len(stored) != 1:
            problems.append(f"killed hand {rid}: stored {len(stored)} times")
        elif kill["kind"] == "json" and (stored[0].request_id != rid or sent.get(str(rid), 0) < 2):
            problems.append(f"killed outbox hand {rid}: not sent again with its request id")
    return problems


# -- the run --------------------------------------------------------------------------------------


def _members() -> list[list[tuple[Any, str]]]:
    """Per table, four members with a logged-in session each: [[(member, session key)]]."""
    from django.contrib.sessions.backends.db import SessionStore

    from clubsite.members import member_create

    tables = []
    for table in range(TABLES):
        seats = []
        for seat in range(PHONES_PER_TABLE):
            member = member_create(username=f"f{table}-{seat}", display_name=f"F{table}-{seat}")
            user = member.user
            session = SessionStore()
            session["_auth_user_id"] = str(user.pk)
            session["_auth_user_backend"] = "clubsite.auth_backends.MemberModelBackend"
            session["_auth_user_hash"] = user.get_session_auth_hash()
            session.create()
            seats.append((member, session.session_key or ""))
        tables.append(seats)
    return tables


def _games(members: list[list[tuple[Any, str]]], run: int) -> list[int]:
    import datetime

    from scoring.ledger import hanchan_start

    return [
        hanchan_start(
            ruleset_id="makura-1.5",
            members=[member for member, _ in seats],
            played_on=datetime.date(2026, 11, 22),
            table_name=f"{run}-{index}",
        ).pk
        for index, seats in enumerate(members)
    ]


@dataclass
class Server:
    """Where the run's phones find the site: ``base`` through the venue, ``direct`` (a phone
    on mobile data), the cluster, the hook folder and the venue."""

    base: str
    direct: str
    cluster: PrivateCluster
    hooks: Path
    venue: Venue


@dataclass
class Outcome:
    """One run's result: passed, the lines printed, the figures for the summary."""

    ok: bool
    lines: list[str]
    figures: dict[str, float] = field(default_factory=dict)


def run_fault(kind: str, server: Server, members: list[list[tuple[Any, str]]], run: int) -> Outcome:
    """One club night's run under fault ``kind``, checked."""
    from django.db import connections

    load_before = os.getloadavg()
    figures = Figures()
    browser = BrowserFigures()
    games = _games(members, run)
    connections.close_all()
    browsers = BROWSER_TABLES if kind in BROWSER_RUNS else 0
    planned = PLANS[:browsers] if kind == "network" else []
    tables = [
        Table(game, [Phone(server.base, s, figures) for _, s in seats], figures, run * 100 + i)
        for i, (game, seats) in enumerate(zip(games, members, strict=True))
        if i >= browsers
    ]
    on_pages = [
        (games[i], members[i][0][1], Phone(server.direct, members[i][1][1], figures), plan)
        for i, plan in zip(range(browsers), planned + [None] * browsers, strict=False)
    ]
    clock = Clock()
    pages: list[BrowserTable] = []
    browser_thread = threading.Thread(
        target=play_tables, args=(server.base, on_pages, server.venue, browser, clock, pages)
    )
    if on_pages:
        browser_thread.start()
        clock.ready.wait()
    length = HANDS * 150 / SPEED
    clock.stop = stop = time.monotonic() + length + max(OUTAGE_S, DB_OUTAGE_S) + SETTLE_S
    threads = [threading.Thread(target=table.play, args=(stop,)) for table in tables]
    for thread in threads:
        thread.start()
    clock.start.set()
    try:
        notes, killed = _fault(kind, server.cluster, server.hooks, server.venue, length)
    finally:
        server.venue.set_mode("up")
        if not server.cluster.running():
            server.cluster.start()
        for thread in threads:
            thread.join()
        if on_pages:
            browser_thread.join()
    connections.close_all()
    played = {table.game: table.played for table in tables} | {p.game: p.played for p in pages}
    if len(pages) != len(on_pages):
        browser.unexpected.append(f"{len(pages)} of {len(on_pages)} browser tables played")
    checks = check_games(played)
    sent = figures.sent + browser.sent
    kill_problems = _kill_outcomes(killed, played, sent)
    expected_kills = {"worker": WORKER_KILLS, "network": OUTBOX_KILLS}.get(kind, 0)
    lost = sum(check.lost for check in checks)
    doubled = sum(check.doubled for check in checks)
    other = sum(check.strays + check.out_of_order for check in checks)
    replay = [line for check in checks for line in check.replay]
    hands = sum(len(hands) for hands in played.values())
    stored = sum(table.done for table in tables)
    statuses = ", ".join(
        f"{status}: {count}" for status, count in sorted(figures.statuses.items(), key=str)
    )
    page_statuses = ", ".join(
        f"{status}: {count}" for status, count in sorted(browser.statuses.items(), key=str)
    )
    unreached = []
    if len(killed) < expected_kills:
        unreached.append(f"{len(killed)} of {expected_kills} kills hit")
    if planned and (browser.after < 1 or browser.discarded < 1):
        unreached.append("the stale outbox's choice (record after, discard) not both taken")
    on_a_page = {table.game for table in pages}
    unexpected = [
        f"game {check.game}{' (Chromium)' if check.game in on_a_page else ''}: hands lost "
        f"{check.lost_hands}, doubled {check.doubled_hands}"
        for check in checks
        if check.lost or check.doubled
    ]
    unexpected += figures.unexpected + browser.unexpected + kill_problems + unreached
    python_hands = sum(len(table.played) for table in tables)
    ok = (
        not (lost or doubled or other or replay or unexpected)
        and figures.no_retry_after == 0
        and stored == python_hands
    )
    kinds = collections.Counter(kill["kind"] for kill in killed)
    resent = sum(1 for kill in killed if kill["kind"] == "json" and sent[kill["request_id"]] >= 2)
    p50 = _percentile(figures.latencies, 50)
    p95 = _percentile(figures.latencies, 95)
    load_after = os.getloadavg()
    lines = [
        f"fault {kind}: {'; '.join(notes)}",
        f"  {'tables: Python / Chromium':<46} {len(tables)} / {len(pages)}",
        f"  {'hands played (Python known stored)':<46} {hands} ({stored} of {python_hands})",
        f"  {'Python answers by status':<46} {statuses}",
        f"  {'503 without Retry-After':<46} {figures.no_retry_after}",
        f"  {'Python: kept offline / sent again or retried':<46} "
        f"{figures.kept_offline} / {figures.retries}",
        f"  {'Python: outbox stale (409) / discarded':<46} {figures.stale} / {figures.discarded}",
        f"  {'killed between commit and answer':<46} "
        + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "0")
        + f"; stored once {len(killed) - len(kill_problems)}; outbox resent same id {resent}",
    ]
    if on_pages:
        lines += [
            f"  {'Chromium answers by status':<46} {page_statuses}",
            f"  {'Chromium: online / kept in offline.js outbox':<46} "
            f"{browser.online} / {browser.kept}",
            f"  {'Chromium: outbox sends (recorded / stale)':<46} "
            f"{browser.sent_json} ({browser.recorded_json} / {browser.stale})",
            f"  {'Chromium: stale choice after / discard':<46} "
            f"{browser.after} / {browser.discarded}"
            f"; mobile-data hands {browser.mobile}",
            f"  {'Chromium: hands held until the outbox was sent':<46} {browser.waited}",
        ]
    lines += [
        f"  {'Python latency p50 / p95 / max':<46} {p50:.0f} / {p95:.0f} / "
        f"{figures.slowest[0] * 1000:.0f} ms (the slowest: {figures.slowest[1]})",
        f"  {'load average before / after (1 min)':<46} {load_before[0]:.2f} / {load_after[0]:.2f}",
        f"  {'lost / doubled / strays or out of order':<46} {lost} / {doubled} / {other}",
        f"  {'replay differences':<46} {len(replay)}   {'ok' if ok else 'FAILED'}",
        *[f"    {line}" for line in (unexpected + replay)[:8]],
    ]
    numbers = {
        "p50": p50,
        "p95": p95,
        "503": float(figures.statuses.get(503, 0)),
        "retries": float(figures.retries),
        "kills": float(len(killed)),
        "stale": float(figures.stale + browser.stale),
        "load": load_before[0],
    }
    return Outcome(ok, lines, numbers)


def _percentile(seconds: list[float], percent: int) -> float:
    """The ``percent``-th percentile of ``seconds``, in ms (0 for none)."""
    ordered = sorted(seconds)
    return ordered[max(0, round(len(ordered) * percent / 100) - 1)] * 1000 if ordered else 0.0


def _serve(port: int, hooks: Path) -> subprocess.Popen[bytes]:
    """gunicorn as the Procfile runs it, with the fault runs' settings (the kill hook)."""
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "benchmarks.fault_settings",
        "FAULTS_HOOK_DIR": str(hooks),
    }
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "clubsite.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(WORKERS),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def main() -> int:
    cluster = PrivateCluster()
    hooks = Path(tempfile.mkdtemp(prefix="clubsite-faults-hooks-"))
    gunicorn: subprocess.Popen[bytes] | None = None
    venue: Venue | None = None
    ok = True
    try:
        cluster.start()
        # Tasks run in the request: only gunicorn is started here, no task worker.
        use_bench_environment(
            cluster.url, DB_NAME, secret_prefix="faults-", tasks_backend="immediate"
        )
        import django
        from django.core.management import call_command

        # A new cluster: the database cannot exist already.
        create_database(cluster.url, DB_NAME, who="faults", variable="")
        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        members = _members()
        port = _free_port()
        gunicorn = _serve(port, hooks)
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5)
                break
            except OSError:
                time.sleep(0.5)
        else:
            print("faults: gunicorn did not answer within 5 minutes; nothing was run")
            return 2
        venue = Venue(port)
        server = Server(
            f"http://127.0.0.1:{venue.port}", f"http://127.0.0.1:{port}", cluster, hooks, venue
        )
        print(
            f"fault runs: {TABLES} tables, {TABLES * PHONES_PER_TABLE} phones ({BROWSER_TABLES} "
            f"tables in Chromium in {', '.join(BROWSER_RUNS)}), {HANDS} hands a table per run, "
            f"a hand every {120 / SPEED:.2f}-{180 / SPEED:.2f} s (2-3 min at {SPEED:g}x), "
            f"gunicorn {WORKERS} workers, a private PostgreSQL on port {cluster.port}; "
            f"load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        outcomes = []
        for run, kind in enumerate(RUNS, start=1):
            outcome = run_fault(kind.strip(), server, members, run)
            outcomes.append(outcome)
            ok = ok and outcome.ok
            print("\n".join(outcome.lines), flush=True)
        if len(outcomes) > 1:
            p95 = [outcome.figures["p95"] for outcome in outcomes]
            print(
                f"over the {len(outcomes)} runs: Python latency p95 median "
                f"{statistics.median(p95):.0f} ms (spread {min(p95):.0f}-{max(p95):.0f})"
            )
        print("every run ok" if ok else "FAILED")
    finally:
        if venue is not None:
            venue.close()
        if gunicorn is not None:
            gunicorn.terminate()
            gunicorn.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        cluster.remove()
        shutil.rmtree(hooks, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
