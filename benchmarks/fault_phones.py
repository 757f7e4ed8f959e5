"""The fault runs' Python phones (:mod:`benchmarks.faults`): what the table screen and
``static/js/offline.js`` send, with urllib (the Chromium phones are
:mod:`benchmarks.fault_browser`).

- a hand online is a preview per tap and the confirm, htmx requests (``HX-Request``) carrying
  the form's ``csrfmiddlewaretoken``, ``request_id`` and ``version``, with the phone's session
  and CSRF cookies; a confirm answered 503 is tapped again after ``Retry-After`` (compressed:
  ``FAULTS_RETRY_AFTER``), the same form, so the same request id;
- a confirm that gets no answer (htmx's ``sendError``: refused, reset, no answer; a worker
  killed after the commit) puts the hand in the outbox with a new request id and the version
  it was entered on (``keepHand``); while offline the table's next hands go there too, each
  at the version after the one before;
- the outbox is sent in order (``send``: ``Accept: application/json``, the CSRF token as
  field and header) when the network returns; a hand whose answer was lost is sent again with
  the same request id; a ``stale`` answer (409) is the player's choice: a hand already in the
  table's list (its first confirm got through, the answer did not) is discarded, the rest
  recorded after it.
"""

from __future__ import annotations

import collections
import http.client
import json
import os
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from benchmarks.hand_entry import CSRF_SECRET, _hand_fields, _NoRedirect

SPEED = float(os.environ.get("FAULTS_SPEED", "100"))
HANDS = int(os.environ.get("FAULTS_HANDS", "24"))
RETRY_AFTER_S = float(os.environ.get("FAULTS_RETRY_AFTER", "1"))
TIMEOUT_S = 30.0  # a phone gives up on an answer after this long (gunicorn's worker timeout)
NETWORK = "network"  # the status counted for a request that got no HTTP answer


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
    stale: int = 0  # outbox sends answered 409 stale
    # How often each request id was sent to record a hand (confirms and outbox sends).
    sent: collections.Counter[str] = field(default_factory=collections.Counter)
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
            fields = list(fields)
            if path.endswith("/hands/"):
                with self.figures.lock:
                    self.figures.sent.update(v for name, v in fields if name == "request_id")
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
        hand = list(form_fields(_hand_fields(number)))
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
            *form_fields(_hand_fields(number)),
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
                    self.figures.stale += 1
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


def form_fields(fields: Mapping[str, str | list[str]]) -> list[tuple[str, str]]:
    """A hand's form fields as the page posts them: ``(name, value)`` pairs in order, a list
    (the tenpai, the riichi) one pair per value."""
    pairs: list[tuple[str, str]] = []
    for name, value in fields.items():
        pairs += [(name, v) for v in value] if isinstance(value, list) else [(name, value)]
    return pairs


def page_version(body: bytes) -> int | None:
    """The game's version in a table page (its hand form's ``version``), or None."""
    found = re.search(rb'name="version" value="(\d+)"', body)
    return int(found.group(1)) if found else None


def phone_records(
    phone: Phone, game: int, fields: list[tuple[str, str]], stop: float
) -> tuple[uuid.UUID | None, bool]:
    """A phone that reaches the server (on mobile data, say) opens the table and enters a
    hand (``fields``: the form's, without request id and version): a preview per tap, the
    confirm, tapped again after a 503. Its request id and whether it was recorded."""
    while time.monotonic() < stop:
        page = phone.request(f"/games/{game}/", None, HTMX)
        version = page_version(page.body) if page.status == 200 else None
        if version is None:
            time.sleep(RETRY_AFTER_S)
            continue
        rid = uuid.uuid4()
        base = [("request_id", str(rid)), ("version", str(version))]
        path = f"/games/{game}/hands/"
        for tap in range(1, len(fields) + 1):
            phone.request(path + "preview/", base + fields[:tap], HTMX)
        while time.monotonic() < stop:
            answer = phone.request(path, base + fields, HTMX)
            if answer.status == 200:
                return rid, b'class="notice success"' in answer.body
            time.sleep(RETRY_AFTER_S)
    return None, False
