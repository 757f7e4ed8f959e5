"""Fault runs: a club night of 40 phones at 10 tables, compressed in time,
through PostgreSQL restarting, a gunicorn worker killed mid-request and the venue's network
lost for a while; every hand recorded exactly once, and every game equal to its replay.

Run by ``make faults`` (``python -m benchmarks.faults``), never by the test suite: it restarts
the machine's PostgreSQL (``pg_ctlcluster --skip-systemctl-redirect <newest> main restart``,
as root) and starts it again in a ``finally`` if anything stops the run. Like
:mod:`benchmarks.hand_entry`, whose client code it shares, it creates, migrates and drops a
database of its own (``FAULTS_DATABASE``, default ``clubsite_faults``; one of that name that
exists already is left alone and the run stops) and serves the app as the ``Procfile`` does:
gunicorn, 3 sync workers, DEBUG off, on a free loopback port. The phones reach it through a
loopback proxy that stands for the venue's Wi-Fi, so the network can be cut.

A phone does what the table screen and ``static/js/offline.js`` do:

- a hand online is a preview per tap and the confirm, htmx requests (``HX-Request``) carrying
  the form's ``csrfmiddlewaretoken``, ``request_id`` and ``version``, with the phone's session
  and CSRF cookies; a confirm answered 503 is tapped again after ``Retry-After`` (compressed:
  ``FAULTS_RETRY_AFTER``), the same form, so the same request id;
- a confirm that cannot reach the server (htmx's ``sendError``: refused, reset, no answer)
  puts the hand in the outbox with a new request id and the version it was entered on
  (``keepHand``); while offline the table's next hands go there too, each at the version
  after the one before;
- the outbox is sent in order (``send``: ``Accept: application/json``, the CSRF token as
  field and header) when the network returns; a hand whose answer was lost is sent again with
  the same request id; a ``stale`` answer (409) is the player's choice: a hand already in the
  table's list (its first confirm got through, the answer did not) is discarded, the rest
  recorded after it.

The other three phones at a table read the table screen now and then. The faults, one run
each on new games: ``postgres`` (a restart a third of the way in), ``worker`` (three SIGKILLs
of a worker caught serving a phone, i.e. holding an established connection on gunicorn's port,
at a quarter, half and three quarters), ``network`` (every
connection cut and none let through for ``FAULTS_OUTAGE`` seconds, default 10 for the
venue's 60; then a second in which requests reach the server but no answer comes back).

After each run: per game, every hand the table played stored exactly once (its request ids
are the ones the phones sent for it, in the order played), and the game's stored state and
each hand's stored result equal to the engine's replay of the stored record
(:func:`check_games`). Exit status 1 on a lost or doubled hand, a replay difference, a 500
(or any answer a phone should not get), or a 503 without ``Retry-After``.

Settings (environment): ``FAULTS_SPEED`` (default 100: a hand every 2-3 minutes a table
becomes one every 1.2-1.8 s), ``FAULTS_HANDS`` (hands a table plays per run, default 24),
``FAULTS_OUTAGE`` (seconds, default 10), ``FAULTS_RETRY_AFTER`` (seconds a phone waits before
tapping again after a 503, default 1), ``FAULTS_RUNS`` (comma-separated, default
``postgres,worker,network``).
"""

from __future__ import annotations

import collections
import contextlib
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.hand_entry import CSRF_SECRET, PG_SERVER, _free_port, _hand_fields, _NoRedirect
from benchmarks.scratch_db import create_database, drop_database, use_bench_environment

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = os.environ.get("FAULTS_DATABASE") or "clubsite_faults"
TABLES = 10
PHONES_PER_TABLE = 4
WORKERS = 3  # as the Procfile
SPEED = float(os.environ.get("FAULTS_SPEED", "100"))
HANDS = int(os.environ.get("FAULTS_HANDS", "24"))
OUTAGE_S = float(os.environ.get("FAULTS_OUTAGE", "10"))
RETRY_AFTER_S = float(os.environ.get("FAULTS_RETRY_AFTER", "1"))
RUNS = os.environ.get("FAULTS_RUNS", "postgres,worker,network").split(",")
LOSSY_S = 1.0  # after the outage: requests get through, answers do not
TIMEOUT_S = 30.0  # a phone gives up on an answer after this long (gunicorn's worker timeout)
SETTLE_S = 90.0  # after its last hand, how long a table may take to empty its outboxes
NETWORK = "network"  # the status counted for a request that got no HTTP answer


def _pg_cluster() -> list[str]:
    version = sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(p) for p in v.split(".")])
    return [version[-1], "main"]


def _pg_ctl(action: str) -> None:
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", *_pg_cluster(), action],
        check=True,
        capture_output=True,
    )


def _pg_online() -> bool:
    status = subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", *_pg_cluster(), "status"],
        capture_output=True,
    )
    return status.returncode == 0


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
        check.lost = sum(1 for index in range(len(hands)) if not stored[index])
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


# -- the venue's network --------------------------------------------------------------------------


class Venue:
    """A loopback TCP proxy between the phones and gunicorn, standing for the venue's Wi-Fi.

    ``up``: bytes pass both ways. ``down``: every open connection is cut and a new one is
    closed at once. ``lossy``: requests reach the server, and a connection is cut as soon as
    the server starts to answer (the answer is lost, the work done)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.mode = "up"
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=256)
        self.port = int(self._listener.getsockname()[1])
        threading.Thread(target=self._accept, daemon=True).start()

    def set_mode(self, mode: str) -> None:
        with self._lock:
            self.mode = mode
            cut = list(self._open) if mode == "down" else []
        for sock in cut:
            _cut(sock)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self.mode == "down":
                _cut(client)
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                _cut(client)
                continue
            with self._lock:
                self._open.add(client)
            threading.Thread(target=self._pump, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, True), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket, answer: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if answer and self.mode == "lossy":
                    break
                target.sendall(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(target)
            _cut(source)
            _cut(target)

    def close(self) -> None:
        self._listener.close()
        self.set_mode("down")


def _cut(sock: socket.socket) -> None:
    """Drop a connection: shut down first, which wakes the pump blocked reading it (a bare
    close from another thread would leave the phone waiting for its timeout)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


# -- the phones -----------------------------------------------------------------------------------


@dataclass
class Answer:
    """One request's outcome: ``status`` (an HTTP status, or :data:`NETWORK`), its
    ``Retry-After``, body and how long it took (s)."""

    status: int | str
    retry_after: str | None
    body: bytes
    seconds: float


@dataclass
class Figures:
    """What the phones saw during one run."""

    statuses: collections.Counter[int | str] = field(default_factory=collections.Counter)
    latencies: list[float] = field(default_factory=list)
    retries: int = 0  # confirms tapped again after a 503, outbox hands sent again
    kept_offline: int = 0  # hands the offline panel took (told "saved offline, will send")
    discarded: int = 0  # outbox hands already in the table's list (first confirm got through)
    no_retry_after: int = 0  # 503 answers without Retry-After
    slowest: tuple[float, str] = (0.0, "")
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, answer: Answer, what: str) -> None:
        with self.lock:
            self.statuses[answer.status] += 1
            self.latencies.append(answer.seconds)
            if answer.seconds > self.slowest[0]:
                self.slowest = (answer.seconds, f"{what} {answer.status}")
            if answer.status == 503 and not answer.retry_after:
                self.no_retry_after += 1
            if answer.status not in (200, 302, 409, 503, NETWORK):
                self.unexpected.append(f"{what}: HTTP {answer.status}")


class Phone:
    """One member's phone at a table: its session and CSRF cookies, its outbox."""

    def __init__(self, base: str, session: str, figures: Figures) -> None:
        self.base = base
        self.figures = figures
        self.cookie = f"sessionid={session}; csrftoken={CSRF_SECRET}"
        self.outbox: list[dict[str, Any]] = []
        self.opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self, path: str, fields: Iterable[tuple[str, str]] | None, headers: Mapping[str, str]
    ) -> Answer:
        body = None
        all_headers = {"Cookie": self.cookie, **headers}
        if fields is not None:
            body = urllib.parse.urlencode([("csrfmiddlewaretoken", CSRF_SECRET), *fields]).encode()
            all_headers |= {
                "X-CSRFToken": CSRF_SECRET,
                "Origin": self.base,
                "Content-Type": "application/x-www-form-urlencoded",
            }
        request = urllib.request.Request(self.base + path, data=body, headers=all_headers)
        start = time.perf_counter()
        try:
            with self.opener.open(request, timeout=TIMEOUT_S) as response:
                answer = Answer(response.status, None, response.read(), 0.0)
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, error.headers.get("Retry-After"), error.read(), 0.0)
        except (OSError, http.client.HTTPException):
            answer = Answer(NETWORK, None, b"", 0.0)
        answer.seconds = time.perf_counter() - start
        self.figures.note(answer, f"{'POST' if body else 'GET'} {path}")
        return answer


HTMX = {"HX-Request": "true", "Accept": "text/html"}
OUTBOX = {"Accept": "application/json"}


class Table:
    """A table's game and its four phones, playing ``HANDS`` hands at the compressed pace."""

    def __init__(self, game: int, phones: list[Phone], figures: Figures, seed: int) -> None:
        self.game = game
        self.phones = phones
        self.figures = figures
        self.rng = random.Random(seed)
        self.version = 0  # the game's version as the table knows it
        self.played: list[set[uuid.UUID]] = []  # per hand, the request ids sent for it
        self.done = 0  # hands the table knows are stored
        self.offline: Phone | None = None  # the phone whose panel took hands
        self.stop = 0.0

    def play(self, stop: float) -> None:
        """Play the hands, then send what the outbox still holds, until ``stop``
        (``time.monotonic()``)."""
        self.stop = stop
        time.sleep(self.rng.uniform(0, 0.5))
        for number in range(HANDS):
            if time.monotonic() > stop:
                self.figures.unexpected.append(f"game {self.game}: out of time at hand {number}")
                return
            time.sleep(self.rng.uniform(120, 180) / SPEED)
            for reader in self.rng.sample(self.phones, 1):
                reader.request(f"/games/{self.game}/", None, HTMX)
            self.played.append(set())
            if self.offline is not None:
                self._keep(self.offline, number)
                self._flush(self.offline)
            else:
                self._online(self.rng.choice(self.phones), number)
        while self.offline is not None and time.monotonic() < stop:
            time.sleep(0.5)
            self._flush(self.offline)

    def _online(self, phone: Phone, number: int) -> None:
        """Taps (a preview each) and the confirm, as htmx sends them."""
        hand = list(_form_fields(_hand_fields(number)))
        rid = uuid.uuid4()
        base = [("request_id", str(rid)), ("version", str(self.version))]
        path = f"/games/{self.game}/hands/"
        for tap in range(1, len(hand) + 1):
            answer = phone.request(path + "preview/", base + hand[:tap], HTMX)
            if answer.status == NETWORK:
                self._keep(phone, number)
                return
        while True:
            self.played[number].add(rid)
            answer = phone.request(path, base + hand, HTMX)
            if answer.status == 200 and b'class="notice success"' in answer.body:
                self.version += 1
                self.done += 1
                return
            if answer.status == 200:
                # The table re-drawn with a refusal or as another phone moved it: not expected
                # at a table whose hands one phone enters at a time.
                self.figures.unexpected.append(f"game {self.game}: hand {number} not recorded")
                return
            if answer.status == NETWORK:
                self._keep(phone, number)
                return
            # 503 (or anything else: the player taps Confirm again, the same form).
            if time.monotonic() > self.stop:
                self.figures.unexpected.append(f"game {self.game}: hand {number} never confirmed")
                return
            with self.figures.lock:
                self.figures.retries += 1
            time.sleep(RETRY_AFTER_S)

    def _keep(self, phone: Phone, number: int) -> None:
        """The offline panel takes hand ``number`` into ``phone``'s outbox (keepHand)."""
        self.offline = phone
        rid = uuid.uuid4()
        self.played[number].add(rid)
        fields = [
            ("request_id", str(rid)),
            ("version", str(self.version + len(phone.outbox))),
            *_form_fields(_hand_fields(number)),
        ]
        phone.outbox.append({"fields": fields, "sent": 0})
        with self.figures.lock:
            self.figures.kept_offline += 1

    def _flush(self, phone: Phone) -> None:
        """Send the outbox in order until one fails (offline.js flush)."""
        while phone.outbox:
            item = phone.outbox[0]
            if item["sent"]:
                with self.figures.lock:
                    self.figures.retries += 1
            item["sent"] += 1
            answer = phone.request(f"/games/{self.game}/hands/", item["fields"], OUTBOX)
            try:
                data = json.loads(answer.body)
            except ValueError:
                return  # no answer, or the 503 page: the hands wait for the next chance
            if data.get("status") == "recorded":
                phone.outbox.pop(0)
                self.version = int(data["version"])
                self.done += 1
            elif data.get("status") == "stale":
                # The player looks at the table: the hands it holds beyond those the phone
                # saw recorded are this outbox's first ones (their confirm got through, the
                # answer did not): discard those, record the rest after them.
                landed = int(data["version"]) - self.version
                if landed <= 0 or landed > len(phone.outbox):
                    self.figures.unexpected.append(f"game {self.game}: stale {data}")
                    return
                with self.figures.lock:
                    self.figures.discarded += landed
                del phone.outbox[:landed]
                self.version += landed
                self.done += landed
                for index, kept in enumerate(phone.outbox):
                    kept["fields"] = [
                        ("version", str(self.version + index)) if name == "version" else (name, v)
                        for name, v in kept["fields"]
                    ]
            else:
                self.figures.unexpected.append(f"game {self.game}: outbox answer {data}")
                phone.outbox.pop(0)
        self.offline = None


def _form_fields(fields: Mapping[str, str | list[str]]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for name, value in fields.items():
        pairs += [(name, v) for v in value] if isinstance(value, list) else [(name, value)]
    return pairs


# -- the faults -----------------------------------------------------------------------------------


def _workers(arbiter: int) -> list[int]:
    path = Path(f"/proc/{arbiter}/task/{arbiter}/children")
    return [int(pid) for pid in path.read_text().split()]


def _serving(port: int) -> set[str]:
    """The socket inodes of the established connections to gunicorn's ``port``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        columns = line.split()
        if columns[3] == "01" and int(columns[1].split(":")[1], 16) == port:
            inodes.add(columns[9])
    return inodes


def _kill_busy_worker(arbiter: int, port: int) -> str:
    """SIGKILL a gunicorn worker in the middle of a request: one holding an established
    connection from a phone; after 5 s of looking, any worker."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        serving = _serving(port)
        for pid in _workers(arbiter):
            try:
                links = [os.readlink(fd) for fd in Path(f"/proc/{pid}/fd").iterdir()]
            except OSError:
                continue
            if any(link[8:-1] in serving for link in links if link.startswith("socket:[")):
                os.kill(pid, 9)
                return "mid-request"
        time.sleep(0.002)
    os.kill(random.choice(_workers(arbiter)), 9)
    return "idle"


def _fault(kind: str, arbiter: int, port: int, venue: Venue, length: float) -> list[str]:
    """Inflict fault ``kind`` on a run expected to last ``length`` seconds; what was done."""
    notes = []
    if kind == "postgres":
        time.sleep(length / 3)
        start = time.monotonic()
        _pg_ctl("restart")
        notes.append(f"PostgreSQL restarted in {time.monotonic() - start:.1f} s")
    elif kind == "worker":
        for _ in range(3):
            time.sleep(length / 4)
            notes.append(f"worker killed ({_kill_busy_worker(arbiter, port)})")
    elif kind == "network":
        time.sleep(length / 4)
        venue.set_mode("down")
        time.sleep(OUTAGE_S)
        venue.set_mode("lossy")
        time.sleep(LOSSY_S)
        venue.set_mode("up")
        notes.append(f"network down {OUTAGE_S:g} s, then {LOSSY_S:g} s of lost answers")
    return notes


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


def run_fault(
    kind: str, base: str, arbiter: int, venue: Venue, members: list[list[tuple[Any, str]]], run: int
) -> tuple[bool, list[str]]:
    """One club night's run under fault ``kind``, checked; (ok, the lines to print)."""
    from django.db import connections

    figures = Figures()
    games = _games(members, run)
    connections.close_all()
    tables = [
        Table(game, [Phone(base, session, figures) for _, session in seats], figures, run * 100 + i)
        for i, (game, seats) in enumerate(zip(games, members, strict=True))
    ]
    length = HANDS * 150 / SPEED
    stop = time.monotonic() + length + OUTAGE_S + SETTLE_S
    threads = [threading.Thread(target=table.play, args=(stop,)) for table in tables]
    for thread in threads:
        thread.start()
    try:
        notes = _fault(kind, arbiter, venue.upstream, venue, length)
    finally:
        venue.set_mode("up")
        if not _pg_online():
            _pg_ctl("start")
        for thread in threads:
            thread.join()
    connections.close_all()
    checks = check_games({table.game: table.played for table in tables})
    lost = sum(check.lost for check in checks)
    doubled = sum(check.doubled for check in checks)
    other = sum(check.strays + check.out_of_order for check in checks)
    replay = [line for check in checks for line in check.replay]
    hands = sum(len(table.played) for table in tables)
    stored = sum(table.done for table in tables)
    statuses = ", ".join(
        f"{status}: {count}" for status, count in sorted(figures.statuses.items(), key=str)
    )
    ok = (
        not (lost or doubled or other or replay or figures.unexpected)
        and figures.no_retry_after == 0
        and stored == hands
    )
    lines = [
        f"fault {kind}: {'; '.join(notes)}",
        f"  {'hands played / known stored by the phones':<44} {hands} / {stored}",
        f"  {'answers by status':<44} {statuses}",
        f"  {'503 without Retry-After':<44} {figures.no_retry_after}",
        f"  {'hands kept offline / sent again or retried':<44} "
        f"{figures.kept_offline} / {figures.retries}",
        f"  {'outbox hands already stored (discarded)':<44} {figures.discarded}",
        f"  {'latency p50 / p95 / max':<44} {_percentile(figures.latencies, 50):.0f} / "
        f"{_percentile(figures.latencies, 95):.0f} / {figures.slowest[0] * 1000:.0f} ms"
        f" (the slowest: {figures.slowest[1]})",
        f"  {'lost / doubled / strays or out of order':<44} {lost} / {doubled} / {other}",
        f"  {'replay differences':<44} {len(replay)}   {'ok' if ok else 'FAILED'}",
        *[f"    {line}" for line in (figures.unexpected + replay)[:5]],
    ]
    return ok, lines


def _percentile(seconds: list[float], percent: int) -> float:
    """The ``percent``-th percentile of ``seconds``, in ms (0 for none)."""
    ordered = sorted(seconds)
    return ordered[max(0, round(len(ordered) * percent / 100) - 1)] * 1000 if ordered else 0.0


def main() -> int:
    # Tasks run in the request: only gunicorn is started here, no task worker.
    use_bench_environment(PG_SERVER, DB_NAME, secret_prefix="faults-", tasks_backend="immediate")
    import django
    from django.core.management import call_command
    from django.db import connections

    if not create_database(PG_SERVER, DB_NAME, who="faults", variable="FAULTS_DATABASE"):
        return 2
    server: subprocess.Popen[bytes] | None = None
    venue: Venue | None = None
    ok = True
    try:
        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        members = _members()
        port = _free_port()
        server = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "clubsite.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(WORKERS),
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(60):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5)
                break
            except OSError:
                time.sleep(0.5)
        else:
            print("faults: gunicorn did not answer within 5 minutes; nothing was run")
            return 2
        venue = Venue(port)
        base = f"http://127.0.0.1:{venue.port}"
        print(
            f"fault runs: {TABLES} tables, {TABLES * PHONES_PER_TABLE} phones, {HANDS} hands a "
            f"table per run, a hand every {120 / SPEED:.2f}-{180 / SPEED:.2f} s "
            f"(2-3 min at {SPEED:g}x), gunicorn {WORKERS} workers, PostgreSQL"
        )
        for run, kind in enumerate(RUNS, start=1):
            passed, lines = run_fault(kind.strip(), base, server.pid, venue, members, run)
            ok = ok and passed
            print("\n".join(lines), flush=True)
    finally:
        if not _pg_online():
            _pg_ctl("start")
        if venue is not None:
            venue.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        connections.close_all()
        drop_database(PG_SERVER, DB_NAME)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
