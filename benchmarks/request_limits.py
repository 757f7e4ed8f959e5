"""One member's worst requests against the server as ``make serve`` runs it: how long each holds
a gunicorn worker, and whether a password reset tells a real address from an unknown one by its
time.

``python -m benchmarks.request_limits`` (run by ``make bench``). Like :mod:`benchmarks.capacity`
it creates, migrates and drops a PostgreSQL database of its own (``LIMITS_DATABASE``, default
``clubsite_limits_<pid>``) and serves the ``Procfile``'s processes (gunicorn, 3 sync workers,
DEBUG off, and the task worker) on a free loopback port.

The worst requests, each sent ``LIMITS_ROUNDS`` times (default 5) by a logged-in member over
a socket of its own, timed from the connection to the answer's last byte (the time a sync
worker is held, and a little more):

- ``upload 20 x 20 MB``: the audit's upload, 20 files of 20 MB in one body (400 MB); the
  client stops sending when the answer comes;
- ``upload 20 mjai logs``: the heaviest upload within the limits, 20 real mjai logs re-scored
  hand by hand (refused at the end: the member sat in none);
- ``upload 20 gzip bombs``: 20 gzip files within the 5 MB, each 20 MB of text unpacked;
- ``urlencoded 3 MB``: the audit's form body, to a hand entry and to the upload page;
- ``paste 10,000 lines``: the audit's paste (895 KB), and a paste of 200 lines the page reads.

Each line gives the median and the range of the seconds, the status and the answer's size;
the target is that none holds a worker more than 5 s, with no worker killed meanwhile.

Then ``LIMITS_RESETS`` (default 50) password reset requests for addresses the club has and as
many for addresses it does not, taking turns, each address once (so no per-account limit is
reached; the per-address limit is lifted for the run): the medians and their difference,
target under 10 ms; once with the worker's queue (production's), once with the task run in
the request (``CLUB_TASKS_BACKEND=immediate``), e-mails sent to memory in both.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from benchmarks.hand_entry import CSRF_SECRET, PG_SERVER, _free_port
from benchmarks.scratch_db import create_database, drop_database, use_bench_environment

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = os.environ.get("LIMITS_DATABASE") or f"clubsite_limits_{os.getpid()}"
ROUNDS = int(os.environ.get("LIMITS_ROUNDS", "5"))
RESETS = int(os.environ.get("LIMITS_RESETS", "50"))
HELD_TARGET_S = 5.0
RESET_DIFFERENCE_TARGET_MS = 10.0
MJAI = ROOT / "tests" / "data" / "online" / "mjai" / "126_204_0_mjai.jsonl"
BOUNDARY = "----limits-bench"
LINE = "L1000 | 00:30 | 四般南喰赤－ | A(+45.0) B(+10.0) C(-15.0) D(-40.0)\n"
MIB = 1024 * 1024


@dataclass
class Answer:
    """What the server sent back to one request: the HTTP ``status``, the ``seconds`` from the
    first byte sent to the last byte read (wall clock), and the answer's ``size`` in bytes."""

    status: int
    seconds: float
    size: int  # bytes of the answer, headers included


@dataclass
class Request:
    """A request to send: its head's path, content type and body (length and chunks)."""

    label: str
    path: str
    content_type: str
    length: int
    chunks: Iterator[bytes] | None = None


def send(port: int, session: str, request: Request, *, timeout: float = 60.0) -> Answer:
    """``request`` sent as a browser would (session and CSRF cookies, the token as a header),
    its body in 64 KB writes that stop when the server answers (a server that refuses a
    body need not read it); the answer read to its end (the server closes)."""
    head = (
        f"POST {request.path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Cookie: sessionid={session}; csrftoken={CSRF_SECRET}\r\n"
        f"X-CSRFToken: {CSRF_SECRET}\r\nReferer: http://127.0.0.1:{port}/\r\n"
        f"Content-Type: {request.content_type}\r\nContent-Length: {request.length}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head)
        for chunk in request.chunks or ():
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        answer = bytearray()
        try:
            while data := sock.recv(65536):
                answer += data
        except ConnectionResetError:
            pass
    seconds = time.monotonic() - started
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return Answer(status, seconds, len(answer))


def _multipart(parts: list[tuple[str, str, bytes]]) -> bytes:
    """A multipart body of ``(field, file name or "", content)`` parts."""
    out = io.BytesIO()
    for field, filename, content in parts:
        out.write(f"--{BOUNDARY}\r\n".encode())
        disposition = f'form-data; name="{field}"'
        if filename:
            disposition += f'; filename="{filename}"'
        out.write(f"Content-Disposition: {disposition}\r\n".encode())
        if filename:
            out.write(b"Content-Type: application/octet-stream\r\n")
        out.write(b"\r\n" + content + b"\r\n")
    out.write(f"--{BOUNDARY}--\r\n".encode())
    return out.getvalue()


def _whole(label: str, path: str, body: bytes, content_type: str) -> Request:
    chunks = (body[i : i + 65536] for i in range(0, len(body), 65536))
    return Request(label, path, content_type, len(body), chunks)


def _huge_upload(files: int, size: int) -> Request:
    """``files`` files of ``size`` bytes each, generated as they are sent."""
    heads = [
        (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="logs"; '
            f'filename="log{i}.json"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        for i in range(files)
    ]
    tail = f"--{BOUNDARY}--\r\n".encode()
    length = sum(len(h) + size + 2 for h in heads) + len(tail)
    block = b"[" * 65536

    def chunks() -> Iterator[bytes]:
        for head in heads:
            yield head
            left = size
            while left > 0:
                yield block[: min(left, len(block))]
                left -= len(block)
            yield b"\r\n"
        yield tail

    return Request(
        f"upload {files} x {size // MIB} MB",
        "/games/import/",
        f"multipart/form-data; boundary={BOUNDARY}",
        length,
        chunks(),
    )


def worst_requests(game: int) -> list[Request]:
    """The requests of the module's docstring, fresh (their bodies are iterators)."""
    multipart = f"multipart/form-data; boundary={BOUNDARY}"
    urlencoded = "application/x-www-form-urlencoded"
    mjai = MJAI.read_bytes()
    bomb = gzip.compress(b"[" * (20 * MIB), 9)
    big_form = b"lines=" + urllib.parse.quote(LINE * 40_000).encode()[: 3 * MIB]
    return [
        _huge_upload(20, 20 * MIB),
        _whole(
            "upload 20 mjai logs",
            "/games/import/",
            _multipart([("logs", f"log{i}.jsonl", mjai) for i in range(20)]),
            multipart,
        ),
        _whole(
            "upload 20 gzip bombs",
            "/games/import/",
            _multipart([("logs", f"log{i}.json.gz", bomb) for i in range(20)]),
            multipart,
        ),
        _whole("urlencoded 3 MB to a hand", f"/games/{game}/hands/", big_form, urlencoded),
        _whole("urlencoded 3 MB to the upload", "/games/import/", big_form, urlencoded),
        _whole(
            "paste 10,000 lines",
            "/games/import/",
            _multipart([("lines", "", (LINE * 10_000).encode())]),
            multipart,
        ),
        _whole(
            "paste 200 lines read",
            "/games/import/",
            _multipart([("lines", "", (LINE * 200).encode())]),
            multipart,
        ),
    ]


def _setup() -> tuple[str, int, list[str]]:
    """A member with a session, a game in play, and the reset's known addresses: (session
    key, game id, addresses)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from clubsite.members import member_create
    from scoring.ledger import hanchan_start

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    members = []
    for seat in range(4):
        members.append(member_create(username=f"l{seat}", display_name=f"L{seat}"))
    game = hanchan_start(
        ruleset_id="makura-1.5", members=members, played_on=datetime.date(2026, 11, 22)
    )
    session = SessionStore()
    user = members[0].user
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "clubsite.auth_backends.MemberModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    known = []
    for number in range(RESETS):
        email = f"known{number}@example.org"
        get_user_model().objects.create_user(f"k{number}", email=email, password="pw-" + email)
        known.append(email)
    return session.session_key or "", game.pk, known


def _serve(port: int, log: IO[bytes], *names: str, **environ: str) -> subprocess.Popen[bytes]:
    """The ``Procfile``'s processes (``names``: only those) with ``environ`` added."""
    return subprocess.Popen(
        [sys.executable, "-m", "clubsite.procfile", "Procfile", *names],
        cwd=ROOT,
        env={**os.environ, "HOST": "127.0.0.1", "PORT": str(port), **environ},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _stop(server: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    except ProcessLookupError:
        server.wait()


def _workers(root: int) -> set[int]:
    """The gunicorn workers under the runner ``root`` (processes whose parent's parent is
    the runner's child gunicorn)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found = set()
    for child in children.get(root, []):
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"gunicorn" in cmdline:
            found.update(children.get(child, []))
    return found


def _answers(port: int, log: IO[bytes]) -> bool:
    """Whether the server answers ``/healthz`` within a minute; if not, its log's end shown."""
    for _ in range(120):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
            return True
        except urllib.error.HTTPError:
            return True  # it answers (503 before the worker's first heartbeat)
        except OSError:
            time.sleep(0.5)
    log.seek(0)
    print("request_limits: the server did not answer within a minute")
    print(log.read().decode(errors="replace")[-2000:])
    return False


def _resets(port: int, known: list[str], times: dict[str, list[float]], prefix: str) -> None:
    """A reset request for each known address and as many unknown, in pairs, each address
    once (its per-account limit never reached); a few first, not timed."""
    for number in range(3):
        _reset(port, f"warm-{prefix}{number}@example.org")
    rng = random.Random(32)
    for number, email in enumerate(known):
        pair = [("known", email), ("unknown", f"nobody-{prefix}{number}@example.org")]
        rng.shuffle(pair)  # which goes first, at random: neither always follows the other
        for kind, address in pair:
            times.setdefault(kind, []).append(_reset(port, address))


def _reset(port: int, email: str) -> float:
    body = urllib.parse.urlencode({"email": email, "csrfmiddlewaretoken": CSRF_SECRET}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/accounts/password_reset/",
        data=body,
        headers={
            "Cookie": f"csrftoken={CSRF_SECRET}",
            "Referer": f"http://127.0.0.1:{port}/",
            "Content-Type": "application/x-www-form-urlencoded",
        },
        method="POST",
    )
    opener = urllib.request.build_opener(_NoRedirect)
    started = time.monotonic()
    try:
        opener.open(request, timeout=30).close()
    except urllib.error.HTTPError as answer:
        if answer.code != 302:
            raise
    return time.monotonic() - started


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def main() -> int:
    """Run the worst requests and the password resets against gunicorn on a scratch
    PostgreSQL database and print each figure beside its target.

    Returns:
        The exit status: 0 when every target is met, 1 when one is not (a worker held over
        5 s, a 500, a killed worker, or known and unknown resets 10 ms or more apart), 2 when
        the scratch database or the server could not be had.
    """
    use_bench_environment(PG_SERVER, DB_NAME, secret_prefix="limits-", tasks_backend="database")
    # Every reset request within the per-address limit: the run measures the answer's time.
    os.environ["CLUB_PASSWORD_RESET_ADDRESS_LIMIT"] = str(10 * RESETS)
    os.environ["DJANGO_EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
    import django
    from django.db import connections

    if not create_database(PG_SERVER, DB_NAME, who="request_limits", variable="LIMITS_DATABASE"):
        return 2
    server: subprocess.Popen[bytes] | None = None
    held: dict[str, list[Answer]] = {}
    resets: dict[str, dict[str, list[float]]] = {"queued": {}, "in the request": {}}
    killed = 0
    with tempfile.TemporaryFile() as log:
        try:
            django.setup()
            session, game, known = _setup()
            connections.close_all()
            port = _free_port()
            server = _serve(port, log)
            if not _answers(port, log):
                return 2
            # Every worker loads its templates, catalogs and rulesets first, not timed.
            for _ in range(6):
                for request in worst_requests(game)[-2:]:
                    send(port, session, request)
            before = _workers(server.pid)
            for _ in range(ROUNDS):
                for request in worst_requests(game):
                    held.setdefault(request.label, []).append(send(port, session, request))
            killed = len(before - _workers(server.pid))
            _resets(port, known, resets["queued"], "")
            _stop(server)
            # The same requests where the task runs in the request (CLUB_TASKS_BACKEND=
            # immediate, gunicorn alone): the e-mail built for both, sent (to memory) for the
            # known only.
            port = _free_port()
            server = _serve(port, log, "web", CLUB_TASKS_BACKEND="immediate")
            if not _answers(port, log):
                return 2
            _resets(port, known, resets["in the request"], "again-")
        finally:
            if server is not None:
                _stop(server)
            connections.close_all()
            drop_database(PG_SERVER, DB_NAME)
    ok, lines = report(held, killed, resets)
    print(
        f"request limits: gunicorn as the Procfile runs it, PostgreSQL, {ROUNDS} rounds, "
        "seconds a worker is held, median (range)"
    )
    print("\n".join(lines))
    return 0 if ok else 1


def report(
    held: dict[str, list[Answer]], killed: int, resets: dict[str, dict[str, list[float]]]
) -> tuple[bool, list[str]]:
    """The lines ``make bench`` prints, and whether every target is met."""
    lines = []
    ok = True
    for label, answers in held.items():
        seconds = [a.seconds for a in answers]
        worst = max(seconds)
        good = worst <= HELD_TARGET_S and all(0 < a.status < 500 for a in answers)
        ok &= good
        statuses = "/".join(sorted({str(a.status) for a in answers}))
        size = max(a.size for a in answers)
        lines.append(
            f"{label:<34} {statistics.median(seconds):>6.2f} s "
            f"({min(seconds):.2f}-{worst:.2f}) {statuses:>7} {size / 1024:>7.1f} KB "
            f"target <= {HELD_TARGET_S:g} s, < 500 {'ok' if good else 'ABOVE TARGET'}"
        )
    ok &= killed == 0
    lines.append(
        f"{'workers killed during the requests':<34} {killed:>6} target 0 "
        f"{'ok' if killed == 0 else 'ABOVE TARGET'}"
    )
    for where, times in resets.items():
        known = statistics.median(times["known"]) * 1000
        unknown = statistics.median(times["unknown"]) * 1000
        difference = abs(known - unknown)
        good = difference < RESET_DIFFERENCE_TARGET_MS
        ok &= good
        lines.append(
            f"{f'password reset, mail {where}':<34} {known:>6.1f} / {unknown:.1f} ms median, "
            f"known / unknown ({len(times['known'])} each): difference {difference:.1f} ms "
            f"target < {RESET_DIFFERENCE_TARGET_MS:g} {'ok' if good else 'ABOVE TARGET'}"
        )
    return ok, lines


if __name__ == "__main__":
    sys.exit(main())
