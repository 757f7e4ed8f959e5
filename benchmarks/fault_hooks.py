"""The fault runs' hook in the server: a gunicorn worker killed exactly between a hand's
commit and its answer (the confirm stored, the phone told nothing).

:class:`KillAfterCommitMiddleware` is in the middleware only of the fault runs' server
(:mod:`benchmarks.fault_settings`, with ``FAULTS_HOOK_DIR`` set); production settings never
name it. Innermost, it sees the view's answer before any other middleware: when it is a
recorded hand (``hand_create``, 200: the htmx table with its success notice, or the outbox's
JSON ``"recorded"``) and the run has armed a kill (:func:`arm`) of that kind, the worker that
claims the marker checks that the hand is committed (no transaction open on the connection,
the entry with the form's request id readable), writes a line to the kill log and SIGKILLs
itself: gunicorn's arbiter starts another worker, the phone's connection is reset.

Files in the hook folder: ``arm-<kind>`` (``htmx``: an online confirm, ``json``: an outbox
send; one kill each), ``kills.log`` (one JSON line a kill: ``kind``, ``request_id``,
``pid``, ``game``).
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse

KINDS = ("htmx", "json")
LOG = "kills.log"


def arm(folder: Path, kind: str) -> None:
    """Arm one kill of ``kind`` (``htmx`` or ``json``) in hook folder ``folder``."""
    if kind not in KINDS:
        raise ValueError(f"no such kill: {kind}")
    (folder / f"arm-{kind}").write_text(kind)


def kills(folder: Path) -> list[dict[str, Any]]:
    """The kills done so far, in order: ``{"kind", "request_id", "pid", "game"}`` each."""
    path = folder / LOG
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def recorded_kind(request: HttpRequest, response: HttpResponse) -> str | None:
    """``htmx`` or ``json`` when ``response`` answers ``request`` with a recorded hand
    (``hand_create``, 200), else None."""
    match = request.resolver_match
    if request.method != "POST" or match is None or match.url_name != "hand_create":
        return None
    if response.status_code != 200 or response.streaming:
        return None
    body = response.content
    if response.get("Content-Type", "").startswith("application/json"):
        return "json" if json.loads(body).get("status") == "recorded" else None
    return "htmx" if b'class="notice success"' in body else None


def committed(request_id: str) -> bool:
    """The hand with ``request_id`` is committed: no transaction open on this worker's
    connection, and the stored entry readable."""
    from scoring.models import HandEntry

    if connection.in_atomic_block:
        return False
    return HandEntry.objects.filter(request_id=request_id).exists()


class KillAfterCommitMiddleware:
    """SIGKILL this worker after a recorded hand's commit, before its answer leaves, once
    per armed kill (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.folder = Path(os.environ["FAULTS_HOOK_DIR"])

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        kind = recorded_kind(request, response)
        if kind is None:
            return response
        marker = self.folder / f"arm-{kind}"
        claimed = self.folder / f"claimed-{kind}-{os.getpid()}"
        try:
            # One worker claims the marker (rename is atomic): one kill per arming.
            marker.rename(claimed)
        except FileNotFoundError:
            return response
        request_id = request.POST.get("request_id", "")
        if not committed(request_id):
            claimed.rename(marker)  # not this one: the next recorded hand
            return response
        match = request.resolver_match
        line = {
            "kind": kind,
            "request_id": request_id,
            "pid": os.getpid(),
            "game": match.kwargs.get("pk") if match else None,
        }
        with (self.folder / LOG).open("a") as log:
            log.write(json.dumps(line) + "\n")
            log.flush()
            os.fsync(log.fileno())
        claimed.unlink()
        self.kill()
        return response  # reached only when kill is replaced (the tests)

    @staticmethod
    def kill() -> None:
        """SIGKILL this process: no answer, no cleanup (the tests put another here)."""
        os.kill(os.getpid(), signal.SIGKILL)
