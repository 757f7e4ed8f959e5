"""Capacity: a 50-table tournament, 200 phones, at 20 times a club's pace,
against the server as ``make serve`` runs it; target p95 < 150 ms, 0 errors, nothing lost.

Run by ``make bench`` (``python -m benchmarks``) as ``python -m benchmarks.capacity`` in a
process of its own, or alone. Like :mod:`benchmarks.hand_entry` it creates, migrates and drops
a scratch database on the local PostgreSQL (``CAPACITY_DATABASE``, by default
``clubsite_bench_capacity_<pid>``; one of that name that exists already is left alone and the
run stops). The server is the ``Procfile``'s, started as ``make serve`` starts it
(``python -m clubsite.procfile Procfile``: gunicorn as the Procfile says and the task worker,
DEBUG off, the database task backend) on a free loopback port.

Each table is a game and its four phones, each phone with its own session. Before each hand a
table waits 2-3 minutes divided by the speed (``CAPACITY_SPEED``, default 20: 6-9 s), then one
of its phones reads the table screen (a whole page, as a reload does) and another enters the
hand as the table screen sends it: a preview per tap that asks the server (``HX-Request``, the
form's request id and version, the CSRF token; the taps the phone draws itself send nothing:
:func:`benchmarks.page_requests.asks_server`), then the confirm. The hands cycle through an
exhaustive draw with everyone tenpai (5 taps), a ron by the dealer with riichi and a 3-han 30-fu
value (4 taps: who dealt in, who won, riichi, value), another draw, and a mangan tsumo by the
next seat (3 taps), so the game moves on a round every fourth hand. Every phone accepts gzip, as
a browser does. A confirm that fails (no answer, 503) is tapped again after a second, the same
form, up to 3 times; every failure counts as an error.

After the run every game is checked against its stored records as
:func:`benchmarks.faults.check_games` does: each hand the table played stored exactly once,
in order, and the game's table and each hand's result equal to the engine's replay of its
record. Printed: the latency p50 / p95 of the confirms, of the previews and of the table
screen reads, the requests and hands a second, the CPU per hand of the server (the
``Procfile``'s processes) and of PostgreSQL (the backends of the scratch database), the CPU
of the phones themselves (this process, on the same cores), the errors, the hands lost /
doubled and the replay differences, and the machine's load average before and after (other
work on the 2 cores shows in the latencies). Exit status
1 when a p95 is 150 ms or more, or on any error, lost or doubled hand, or replay difference.

Settings (environment): ``CAPACITY_TABLES`` (default 50), ``CAPACITY_SPEED`` (default 20),
``CAPACITY_HANDS`` (hands a table plays, default 16, at most 31), ``CAPACITY_PROCFILE`` (another
Procfile to measure, say with other gunicorn settings; default the repository's).

Many clubs: ``--clubs N`` (or ``CAPACITY_CLUBS``; default 1) spreads the tables over N clubs,
the site's own and N - 1 made by ``club_create`` (``cap-02``, ...), table ``i`` in club
``i mod N``: each club its own members, sessions and games, every page under
``/c/<slug>/``. The games are then checked club by club, each in its club's scope (a game the
club does not see counts as lost), and each club must see exactly its own games; the errors,
lost and doubled hands of the worst club are printed beside the totals. ``make bench`` runs
it with 1 club and with 20 (``--only capacity,capacity_clubs``).
"""

from __future__ import annotations

import gzip
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from benchmarks.fault_phones import form_fields
from benchmarks.faults import GameCheck, _percentile, check_games
from benchmarks.hand_entry import CSRF_SECRET, PG_SERVER, _free_port, _hand_fields, _NoRedirect
from benchmarks.page_requests import asks_server
from benchmarks.scratch_db import create_database, drop_database, use_bench_environment
from benchmarks.serving import server_answers
from clubsite.procfile import read

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = os.environ.get("CAPACITY_DATABASE") or f"clubsite_bench_capacity_{os.getpid()}"
TABLES = int(os.environ.get("CAPACITY_TABLES", "50"))
PHONES_PER_TABLE = 4
SPEED = float(os.environ.get("CAPACITY_SPEED", "20"))
HANDS = min(31, int(os.environ.get("CAPACITY_HANDS", "16")))
PROCFILE = os.environ.get("CAPACITY_PROCFILE", "Procfile")
CLUBS = int(os.environ.get("CAPACITY_CLUBS", "1"))
P95_TARGET_MS = 150
TIMEOUT_S = 30.0  # gunicorn's worker timeout
CONFIRM_TRIES = 3
WARM_TABLES = 8

HTMX = {"HX-Request": "true", "Accept": "text/html"}


def capacity_hand(number: int) -> list[tuple[str, str]]:
    """Hand ``number`` of a table as its taps send it, in order: the confirm sends them all.

    Hands ``4k + 1`` are a ron by the dealer (seat ``k % 4``, who stays) with riichi, 3 han
    30 fu, from the seat opposite; the others are those of :func:`hand_entry._hand_fields`
    (draws with everyone tenpai, every fourth a mangan tsumo by the seat after the dealer).
    No one goes below zero and the game stays within East 1 to South 4 for 31 hands."""
    if number % 4 != 1:
        return form_fields(_hand_fields(number))
    dealer = str(number // 4 % 4)
    loser = str((number // 4 + 2) % 4)
    return [("loser", loser), ("winners", dealer), ("riichi", dealer), (f"value_{dealer}", "3-30")]


def confirm_fields(number: int) -> list[tuple[str, str]]:
    """What the confirm of hand ``number`` posts besides the request id and version: a ron's
    outcome is named by the confirm (the taps start at who dealt in)."""
    taps = capacity_hand(number)
    return [("result", "ron"), *taps] if number % 4 == 1 else taps


@dataclass
class Figures:
    """What the phones saw: latencies (s) by kind of request, and the errors."""

    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"confirm": [], "preview": [], "read": []}
    )
    errors: list[str] = field(default_factory=list)
    # Errors by the club's short name ("" on a one-club run, whose pages have no prefix).
    club_errors: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


def request(
    opener: urllib.request.OpenerDirector,
    base: str,
    session: str,
    path: str,
    fields: list[tuple[str, str]] | None,
    headers: Mapping[str, str],
) -> tuple[int | str, bytes, float]:
    """One request as a phone sends it, through ``opener`` (one a table: building one loads
    the SSL certificates, which costs more CPU than the request): (the status or the network
    error's text, the body uncompressed, seconds until the whole answer was read)."""
    all_headers = {
        "Cookie": f"sessionid={session}; csrftoken={CSRF_SECRET}",
        "Accept-Encoding": "gzip",
        **headers,
    }
    body = None
    if fields is not None:
        body = urllib.parse.urlencode([("csrfmiddlewaretoken", CSRF_SECRET), *fields]).encode()
        all_headers |= {
            "X-CSRFToken": CSRF_SECRET,
            "Origin": base,
            "Content-Type": "application/x-www-form-urlencoded",
        }
    start = time.perf_counter()
    try:
        with opener.open(
            urllib.request.Request(base + path, data=body, headers=all_headers), timeout=TIMEOUT_S
        ) as response:
            status: int | str = response.status
            content = response.read()
            encoding = response.headers.get("Content-Encoding")
    except urllib.error.HTTPError as error:
        status, content, encoding = error.code, error.read(), error.headers.get("Content-Encoding")
    except OSError as error:
        return f"{type(error).__name__}: {error}", b"", time.perf_counter() - start
    seconds = time.perf_counter() - start
    return status, gzip.decompress(content) if encoding == "gzip" else content, seconds


class Table:
    """A table's game and its four phones' sessions, playing ``hands`` hands; ``club``: the
    short name of the club whose pages it uses (``/c/<club>/games/...``), ``""`` for the
    site's one club's unprefixed pages."""

    def __init__(
        self, base: str, game: int, sessions: list[str], seed: int, club: str = ""
    ) -> None:
        self.base = base
        self.game = game
        self.club = club
        self.prefix = f"/c/{club}" if club else ""
        self.sessions = sessions
        self.rng = random.Random(seed)
        self.version = 0
        self.played: list[set[uuid.UUID]] = []  # per hand, the request id sent for it
        self.opener = urllib.request.build_opener(_NoRedirect)

    def play(
        self, hands: int, figures: Figures | None, pause: tuple[float, float], stop: float
    ) -> None:
        """Play ``hands`` hands, each after a pause drawn from ``pause`` (s), until ``stop``
        (``time.monotonic()``); the latencies and errors go to ``figures`` (None: a warm-up,
        not counted). Stops at a hand not recorded: the game's version would be off for the
        rest."""
        for number in range(hands):
            time.sleep(self.rng.uniform(*pause))
            if time.monotonic() > stop:
                self._error(figures, f"game {self.game}: out of time at hand {number}")
                return
            reader, player = self.rng.sample(self.sessions, 2)
            self._note(
                figures,
                "read",
                request(
                    self.opener, self.base, reader, f"{self.prefix}/games/{self.game}/", None, {}
                ),
            )
            if not self._hand(player, number, figures):
                return

    def _hand(self, session: str, number: int, figures: Figures | None) -> bool:
        rid = uuid.uuid4()
        self.played.append({rid})
        base = [("request_id", str(rid)), ("version", str(self.version))]
        taps = capacity_hand(number)
        path = f"{self.prefix}/games/{self.game}/hands/"
        for tap in range(1, len(taps) + 1):
            if not asks_server(*taps[tap - 1]):
                continue  # drawn on the phone (benchmarks.page_requests.asks_server)
            self._note(
                figures,
                "preview",
                request(
                    self.opener, self.base, session, path + "preview/", base + taps[:tap], HTMX
                ),
            )
        for _ in range(CONFIRM_TRIES):
            answer = request(
                self.opener, self.base, session, path, base + confirm_fields(number), HTMX
            )
            self._note(figures, "confirm", answer)
            if answer[0] == 200 and b'class="notice success"' in answer[1]:
                self.version += 1
                return True
            if answer[0] == 200:
                self._error(figures, f"game {self.game} hand {number}: not recorded")
                return False
            time.sleep(1)
        return False

    def _note(
        self, figures: Figures | None, kind: str, answer: tuple[int | str, bytes, float]
    ) -> None:
        if figures is None:
            return
        status, _, seconds = answer
        with figures.lock:
            figures.latencies[kind].append(seconds)
            if status != 200:
                figures.errors.append(f"{self._name()} {kind}: {status}")
                figures.club_errors[self.club] += 1

    def _error(self, figures: Figures | None, text: str) -> None:
        if figures is not None:
            with figures.lock:
                figures.errors.append(f"{self.club}: {text}" if self.club else text)
                figures.club_errors[self.club] += 1

    def _name(self) -> str:
        return f"{self.club} game {self.game}" if self.club else f"game {self.game}"


def _cpu_seconds(pids: Iterable[int]) -> float:
    """CPU time (user + system, s) the living processes ``pids`` have used."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _descendants(root: int) -> list[int]:
    """The pids of ``root``'s living descendants, ``root`` left out."""
    found: list[int] = []
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            children = [
                int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            ]
        except OSError:
            continue
        found += children
        pending += children
    return found


def _backends() -> list[int]:
    """The pids of the PostgreSQL backends serving the scratch database (they live as long as
    the server's connections, ``CONN_MAX_AGE``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if command.startswith(b"postgres:") and f" {DB_NAME} ".encode() in command:
                pids.append(int(entry.name))
    return pids


def make_clubs(count: int) -> list[Any]:
    """The clubs the tables are spread over: the site's own club (the migration's) and
    ``count - 1`` more (``cap-02``, ...) made by ``club_create``."""
    from clubsite.club_scope import only_club
    from clubsite.club_services import club_create

    first = only_club()
    return [first] + [
        club_create(slug=f"cap-{number:02d}", name=f"Capacity club {number}")
        for number in range(2, count + 1)
    ]


@dataclass
class Seated:
    """A table's four members and their logged-in sessions' keys, in one club; ``slug``
    the club's short name its pages go under, ``""`` on a one-club run (the pages as before
    clubs, without a prefix)."""

    club: Any
    slug: str
    members: list[Any]
    sessions: list[str]


def seat_tables(count: int, clubs: list[Any]) -> list[Seated]:
    """``count`` tables of four new members, each with a logged-in session, table ``i`` in
    ``clubs[i % len(clubs)]`` (its members made in that club's scope)."""
    from django.contrib.sessions.backends.db import SessionStore

    from clubsite.club_scope import club_scope
    from clubsite.members import member_create

    tables = []
    for table in range(count):
        club = clubs[table % len(clubs)]
        members, sessions = [], []
        with club_scope(club):
            for seat in range(PHONES_PER_TABLE):
                member = member_create(username=f"c{table}-{seat}", display_name=f"C{table}-{seat}")
                members.append(member)
                user = member.user
                session = SessionStore()
                session["_auth_user_id"] = str(user.pk)
                session["_auth_user_backend"] = "clubsite.auth_backends.MemberModelBackend"
                session["_auth_user_hash"] = user.get_session_auth_hash()
                session.create()
                sessions.append(session.session_key or "")
        tables.append(Seated(club, club.slug if len(clubs) > 1 else "", members, sessions))
    return tables


def start_games(tables: list[Seated], label: str) -> list[int]:
    """A game for each table, in its club."""
    import datetime

    from clubsite.club_scope import club_scope
    from scoring.ledger import hanchan_start

    games = []
    for index, table in enumerate(tables):
        with club_scope(table.club):
            games.append(
                hanchan_start(
                    ruleset_id="makura-1.5",
                    members=table.members,
                    played_on=datetime.date(2026, 11, 22),
                    table_name=f"{label}{index}",
                ).pk
            )
    return games


@dataclass
class ClubCheck:
    """The games of one club, checked in its scope: ``checks`` per game
    (:func:`benchmarks.faults.check_games`), ``foreign`` the games the club sees that are
    not its own, ``unseen`` its own games it does not see."""

    club: str
    checks: list[GameCheck]
    foreign: int
    unseen: int


def check_clubs(tables: list[Table], seated: list[Seated], others: list[int]) -> list[ClubCheck]:
    """Check each club's games in its own scope: each table's hands stored once and equal to
    the replay (:func:`benchmarks.faults.check_games`), and the games the club sees exactly
    its own (its tables' and ``others``, the warm-up games, those of its tables)."""
    from clubsite.club_scope import club_scope
    from scoring.models import Hanchan

    clubs: dict[int, Any] = {}
    played: dict[int, dict[int, list[set[uuid.UUID]]]] = {}
    own: dict[int, set[int]] = {}
    for table, seat in zip(tables, seated, strict=True):
        clubs[seat.club.pk] = seat.club
        played.setdefault(seat.club.pk, {})[table.game] = table.played
        own.setdefault(seat.club.pk, set()).add(table.game)
    # Each warm-up game was started at the table of the same index, in that table's club.
    for game, seat in zip(others, seated, strict=False):
        own[seat.club.pk].add(game)
    found = []
    for key, club in clubs.items():
        with club_scope(club):
            checks = check_games(played[key])
            seen = set(Hanchan.objects.values_list("pk", flat=True))
        found.append(ClubCheck(club.slug, checks, len(seen - own[key]), len(own[key] - seen)))
    return found


def _run_tables(
    tables: list[Table], hands: int, figures: Figures | None, pause: tuple[float, float]
) -> None:
    """The tables play at once; a run takes at most twice its length at the slowest pace,
    and a minute (a server so slow is far past the targets anyway)."""
    stop = time.monotonic() + 2 * hands * pause[1] + 60
    threads = [threading.Thread(target=t.play, args=(hands, figures, pause, stop)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _serve(port: int, log: IO[bytes]) -> subprocess.Popen[bytes]:
    """The Procfile's processes as ``make serve`` runs them (its last step), in a session of
    their own, their output to ``log``."""
    return subprocess.Popen(
        [sys.executable, "-m", "clubsite.procfile", PROCFILE],
        cwd=ROOT,
        env={**os.environ, "HOST": "127.0.0.1", "PORT": str(port)},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the runner's group (it stops gunicorn and the worker gracefully), SIGKILL
    after 40 s."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    except ProcessLookupError:
        server.wait()


def main(argv: list[str] | None = None) -> int:
    """The run; ``argv``: ``--clubs N`` (default ``CAPACITY_CLUBS``, 1). Exit status as the
    module says."""
    arguments = sys.argv[1:] if argv is None else argv
    clubs_count = CLUBS
    if arguments[:1] == ["--clubs"] and len(arguments) == 2 and arguments[1].isdigit():
        clubs_count = int(arguments[1])
    elif arguments:
        print("usage: python -m benchmarks.capacity [--clubs N]", file=sys.stderr)
        return 2
    # The database task backend, as `make serve` runs it: the Procfile's task worker runs them.
    use_bench_environment(PG_SERVER, DB_NAME, secret_prefix="capacity-", tasks_backend="database")
    import django
    from django.core.management import call_command
    from django.db import connections

    if not create_database(PG_SERVER, DB_NAME, who="capacity", variable="CAPACITY_DATABASE"):
        return 2
    server: subprocess.Popen[bytes] | None = None
    with tempfile.TemporaryFile() as log:  # the server's output, shown if it fails to start
        try:
            django.setup()
            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            seated = seat_tables(TABLES, make_clubs(clubs_count))
            warm_games = start_games(seated[:WARM_TABLES], "warm-")
            games = start_games(seated, "")
            connections.close_all()
            port = _free_port()
            base = f"http://127.0.0.1:{port}"
            server = _serve(port, log)
            if not server_answers(base, log, "capacity"):
                return 2
            # A server in use all evening has every template, catalog and ruleset loaded: a few
            # hands of each kind at other games first, in every worker, not timed.
            warm = [
                Table(base, game, table.sessions, seed=1000 + index, club=table.slug)
                for index, (game, table) in enumerate(zip(warm_games, seated, strict=False))
            ]
            _run_tables(warm, 4, None, (0.0, 0.05))
            tables = [
                Table(base, game, table.sessions, seed=index, club=table.slug)
                for index, (game, table) in enumerate(zip(games, seated, strict=True))
            ]
            figures = Figures()
            processes = _descendants(server.pid)
            load_before = os.getloadavg()
            cpu_before = (
                _cpu_seconds(processes),
                _cpu_seconds(_backends()),
                time.process_time(),
            )
            started = time.monotonic()
            _run_tables(tables, HANDS, figures, (120 / SPEED, 180 / SPEED))
            seconds = time.monotonic() - started
            # The server's processes of the run: a worker that ended (killed, restarted) would be
            # missing, and its successor counted from zero: none is expected.
            cpu = (
                _cpu_seconds(processes) - cpu_before[0],
                _cpu_seconds(_backends()) - cpu_before[1],
                time.process_time() - cpu_before[2],
            )
            load_after = os.getloadavg()
            club_checks = check_clubs(tables, seated, warm_games)
        finally:
            if server is not None:
                _stop(server)
            connections.close_all()
            drop_database(PG_SERVER, DB_NAME)
    web = read(Path(ROOT, PROCFILE).read_text())["web"]
    checks = [check for club in club_checks for check in club.checks]
    ok, lines = report(
        figures,
        checks,
        [len(t.played) for t in tables],
        seconds,
        cpu,
        clubs=club_checks if clubs_count > 1 else None,
    )
    spread = ""
    if clubs_count > 1:
        per_club = sorted({TABLES // clubs_count, -(-TABLES // clubs_count)})
        spread = (
            f" over {clubs_count} clubs ({'-'.join(map(str, per_club))} tables each,"
            " pages under /c/<slug>/)"
        )
    print(
        f"capacity: {TABLES} tables, {TABLES * PHONES_PER_TABLE} phones{spread}, {HANDS} hands a "
        f"table, a hand every {120 / SPEED:g}-{180 / SPEED:g} s (2-3 min at {SPEED:g}x), "
        f"PostgreSQL, web: {web}"
    )
    print("\n".join(lines))
    print(
        f"{'load average before / after (2 cores)':<44} {load_before[0]:>6.2f} / "
        f"{load_after[0]:.2f}"
    )
    return 0 if ok else 1


def report(
    figures: Figures,
    checks: list[GameCheck],
    hands: list[int],
    seconds: float,
    cpu: tuple[float, float, float],
    clubs: list[ClubCheck] | None = None,
) -> tuple[bool, list[str]]:
    """(whether the run met its targets, the lines to print) for a run of ``seconds`` in
    which the tables played ``hands`` hands each, the server's processes used ``cpu[0]`` s of
    CPU, PostgreSQL ``cpu[1]`` and the phones (this process) ``cpu[2]``; ``clubs``: a run of
    several clubs, each club's own checks (``checks`` are then theirs together), a line more
    for the worst club and one for the games each club sees."""
    played = sum(hands)
    lost = sum(check.lost for check in checks)
    doubled = sum(check.doubled for check in checks)
    replay = [line for check in checks for line in check.replay]
    replay += [
        f"game {check.game}: {check.strays} stray, {check.out_of_order} out of order"
        for check in checks
        if check.strays or check.out_of_order
    ]
    latencies = figures.latencies
    p95 = {kind: _percentile(values, 95) for kind, values in latencies.items()}
    fast = p95["confirm"] < P95_TARGET_MS and p95["preview"] < P95_TARGET_MS
    sound = not (figures.errors or lost or doubled or replay) and played == TABLES * HANDS
    requests = sum(len(values) for values in latencies.values())

    def row(label: str, kind: str, target: bool) -> str:
        values = latencies[kind]
        line = (
            f"{label:<44} {_percentile(values, 50):>6.1f} / {p95[kind]:.1f} ms"
            f" ({len(values)} requests)"
        )
        if target:
            verdict = "ok" if p95[kind] < P95_TARGET_MS else "ABOVE"
            line += f" target p95 < {P95_TARGET_MS} ms {verdict}"
        return line

    verdict = "ok" if sound else "FAILED"
    lines = [
        row("confirm p50 / p95", "confirm", True),
        row("preview (each tap) p50 / p95", "preview", True),
        row("table screen read p50 / p95", "read", False),
        f"{'requests / s, hands / s':<44} {requests / seconds:>6.1f} / {played / seconds:.2f}"
        f" over {seconds:.0f} s",
        f"{'CPU per hand: server / PostgreSQL':<44} {cpu[0] * 1000 / max(played, 1):>6.1f} / "
        f"{cpu[1] * 1000 / max(played, 1):.1f} ms (taps, confirm, a read; the server"
        f" {cpu[0] / seconds * 100:.0f}% of a core)",
        f"{'CPU of the phones (this process)':<44} {cpu[2] / seconds * 100:>5.0f}% of a core",
        f"{'errors / hands lost / doubled / replay diffs':<44} {len(figures.errors):>6} / "
        f"{lost} / {doubled} / {len(replay)}   target 0 {verdict}",
        *[f"   {line}" for line in (figures.errors + replay)[:5]],
    ]
    if clubs is not None:
        worst = max(
            clubs,
            key=lambda club: (
                figures.club_errors[club.club]
                + sum(check.lost + check.doubled + len(check.replay) for check in club.checks)
            ),
        )
        worst_lost = sum(check.lost for check in worst.checks)
        worst_doubled = sum(check.doubled for check in worst.checks)
        foreign = sum(club.foreign for club in clubs)
        unseen = sum(club.unseen for club in clubs)
        apart = not (foreign or unseen)
        sound = sound and apart
        lines.insert(
            7,
            f"{'per club, the worst: errors / lost / doubled':<44} "
            f"{figures.club_errors[worst.club]:>6} / {worst_lost} / {worst_doubled}   "
            f"({worst.club}; {len(clubs)} clubs) target 0 {'ok' if sound else 'FAILED'}",
        )
        lines.insert(
            8,
            f"{'games of another club seen / own unseen':<44} {foreign:>6} / {unseen}"
            f"   target 0 {'ok' if apart else 'FAILED'}",
        )
    return fast and sound, lines


if __name__ == "__main__":
    sys.exit(main())
