"""/healthz: database reachable, migrations applied, the worker's heartbeat
recent; JSON that tells nothing else, 200 or 503; answered before logins, the host check and
the HTTPS redirect."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from clubsite import health
from clubsite.worker_health import heartbeat
from tests.test_tasks import DATABASE, IMMEDIATE

pytestmark = pytest.mark.django_db


def probe(**headers: str) -> tuple[int, dict[str, str], dict[str, str]]:
    response = Client(headers=headers).get("/healthz")
    return response.status_code, json.loads(response.content), dict(response.headers)


def beat(seconds_ago: float) -> None:
    result = heartbeat.enqueue()
    DBTaskResult.objects.filter(pk=result.id).update(
        status="SUCCESSFUL",
        finished_at=timezone.now() - datetime.timedelta(seconds=seconds_ago),
    )


def test_all_well_without_a_worker(settings):
    settings.TASKS = IMMEDIATE
    status, body, headers = probe()
    assert status == 200
    assert body == {"status": "ok", "database": "ok", "migrations": "ok", "worker": "not used"}
    assert headers["Content-Type"] == "application/json"
    assert headers["Cache-Control"] == "no-store"


def test_with_a_worker_its_heartbeat_counts(settings):
    settings.TASKS = DATABASE
    status, body, _ = probe()
    assert (status, body["status"], body["worker"]) == (503, "unavailable", "stale")
    beat(seconds_ago=600)
    assert probe()[1]["worker"] == "stale"
    beat(seconds_ago=20)
    status, body, _ = probe()
    assert status == 200
    assert body == {"status": "ok", "database": "ok", "migrations": "ok", "worker": "ok"}


def test_pending_migrations_make_it_unavailable(monkeypatch, settings):
    settings.TASKS = IMMEDIATE
    monkeypatch.setattr(health, "_migrations_seen_applied", False)
    monkeypatch.setattr(
        health.MigrationExecutor, "migration_plan", lambda self, targets: [("a", False)]
    )
    status, body, _ = probe()
    assert (status, body["migrations"], body["status"]) == (503, "pending", "unavailable")


def test_a_database_away_is_a_503_that_says_only_that(monkeypatch, settings):
    settings.TASKS = IMMEDIATE

    def refuse(self):
        raise OperationalError("connection to server at 10.1.2.3 failed: Connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content) == {
        "status": "unavailable",
        "database": "unavailable",
        "migrations": "unknown",
        "worker": "unknown",
    }
    assert b"10.1.2.3" not in response.content and b"refused" not in response.content


def test_it_answers_anyone_on_any_host_over_http(settings):
    """No login, no ALLOWED_HOSTS, no HTTPS redirect: a probe on loopback gets its answer."""
    settings.TASKS = IMMEDIATE
    settings.ALLOWED_HOSTS = ["club.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    status, body, _ = probe(host="127.0.0.1:8000")
    assert (status, body["status"]) == (200, "ok")
    assert Client().get("/healthz/").status_code == 200
    assert Client().post("/healthz").status_code == 405
    # Other pages still redirect and check the host.
    assert Client(headers={"host": "club.example.org"}).get("/").status_code == 301


def test_it_tells_nothing_about_the_software(settings):
    settings.TASKS = IMMEDIATE
    response = Client().get("/healthz")
    text = response.content.decode()
    for secret in ("django", "python", "postgres", "sqlite", "/work", "6.1", "version"):
        assert secret not in text.lower()
    assert set(json.loads(text)) == {"status", "database", "migrations", "worker"}
