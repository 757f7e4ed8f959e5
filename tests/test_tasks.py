"""The task queue and the password reset through it: the
backend comes from CLUB_TASKS_BACKEND; a reset request enqueues the same task whether the club
has the address or not, and with the worker's queue no mail goes out until the worker runs it;
`make serve` runs the web server and the worker together (clubsite/procfile.py)."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.tasks import default_task_backend
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from clubsite import procfile
from clubsite.models import Member
from clubsite.password_reset import send_password_reset_emails
from tests.test_accounts import reset_link
from tests.test_deployment import PRODUCTION, manage

ROOT = Path(__file__).resolve().parent.parent

IMMEDIATE = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
RECORDING = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def aoki(member: Member) -> Member:
    member.user.email = "aoki@example.org"
    member.user.save()
    return member


def ask_reset(email: str, *, language: str = "en", address: str = "10.0.0.7") -> None:
    client = Client(headers={"accept-language": language})
    response = client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")


def new_password_page(link: str) -> str:
    return Client().get(link, follow=True).text


# -- the backend from the environment ----------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({}, "django.tasks.backends.immediate.ImmediateBackend"),  # debugging: no worker needed
        (PRODUCTION, "django_tasks_db.DatabaseBackend"),
        ({"CLUB_TASKS_BACKEND": "database"}, "django_tasks_db.DatabaseBackend"),
        (
            {**PRODUCTION, "CLUB_TASKS_BACKEND": "immediate"},
            "django.tasks.backends.immediate.ImmediateBackend",
        ),
    ],
)
def test_it_takes_the_backend_from_club_tasks_backend(tmp_path, monkeypatch, env, backend):
    monkeypatch.delenv("CLUB_TASKS_BACKEND", raising=False)
    code = "from django.conf import settings; print(settings.TASKS['default']['BACKEND'])"
    done = manage("shell", "-c", code, env=env, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == backend


def test_it_refuses_an_unknown_backend(tmp_path):
    done = manage("check", env={"CLUB_TASKS_BACKEND": "celery"}, tmp_path=tmp_path)
    assert done.returncode != 0
    assert "CLUB_TASKS_BACKEND is one of immediate, database, not 'celery'" in done.stderr


def test_the_tests_run_tasks_at_once(settings):
    assert settings.TASKS == IMMEDIATE


# -- the password reset's task ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "subject"),
    [("en", "A new password for the club's site"), ("ja", "クラブのサイトの新しいパスワード")],
)
def test_it_mails_a_working_link_to_a_known_address(aoki, language, subject):
    ask_reset("aoki@example.org", language=language)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["aoki@example.org"] and message.subject == subject
    link = reset_link(message.body)
    assert link and 'name="new_password1"' in new_password_page(link)


def test_it_mails_nothing_for_an_unknown_address(aoki):
    ask_reset("nobody@example.org")
    assert mail.outbox == []


def test_the_task_mails_each_active_login_with_the_address(aoki, other_member, coordinator):
    other_member.user.email = "AOKI@example.org"  # the same address, another case
    other_member.user.save()
    coordinator.user.email = "aoki@example.org"
    coordinator.user.is_active = False
    coordinator.user.save()
    assert send_password_reset_emails.call("Aoki@Example.org", "en") == 2
    assert sorted(message.to[0] for message in mail.outbox) == [
        "AOKI@example.org",
        "aoki@example.org",
    ]


def test_the_links_start_with_the_club_site_url(aoki, settings):
    settings.CLUB_SITE_URL = "https://club.example.org/mahjong/"
    send_password_reset_emails.call("aoki@example.org", "en")
    assert "https://club.example.org/mahjong/accounts/reset/" in mail.outbox[0].body


def test_the_request_does_the_same_work_for_a_known_and_an_unknown_address(aoki, settings):
    settings.TASKS = RECORDING
    counts = []
    for email in ("aoki@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as queries:
            ask_reset(email, language="ja")
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert [(r.task, r.args) for r in default_task_backend.results] == [  # type: ignore[attr-defined]
        (send_password_reset_emails, ["aoki@example.org", "ja"]),
        (send_password_reset_emails, ["nobody@example.org", "ja"]),
    ]
    assert mail.outbox == []


def test_the_task_does_the_same_work_for_an_unknown_address_but_the_sending(aoki):
    """Where the task runs in the request (the immediate backend), a known
    address took 273 ms and an unknown one 61: the unknown one built no e-mail. Now both build
    one (a token, both templates, the same queries); only the known one's is sent."""
    from django.contrib.auth.tokens import default_token_generator

    from clubsite import password_reset

    work = []
    for email in ("aoki@example.org", "nobody@example.org"):
        with (
            mock.patch.object(
                default_token_generator,
                "make_token",
                wraps=default_token_generator.make_token,
            ) as tokens,
            mock.patch.object(
                password_reset, "render_to_string", wraps=password_reset.render_to_string
            ) as renders,
            CaptureQueriesContext(connection) as queries,
        ):
            sent = send_password_reset_emails.call(email, "en")
        templates = [call.args[0] for call in renders.call_args_list]
        work.append((tokens.call_count, templates, len(queries), sent))
    assert (
        work[0][:3]
        == work[1][:3]
        == (
            1,
            [password_reset.SUBJECT_TEMPLATE, password_reset.BODY_TEMPLATE],
            work[0][2],
        )
    )
    assert (work[0][3], work[1][3]) == (1, 0)
    assert [message.to for message in mail.outbox] == [["aoki@example.org"]]


def test_a_request_beyond_the_limits_enqueues_nothing(aoki, settings):
    settings.TASKS = RECORDING
    settings.CLUB_PASSWORD_RESET_ACCOUNT_LIMIT = 1
    ask_reset("aoki@example.org")
    ask_reset("aoki@example.org", address="10.0.0.8")
    assert len(default_task_backend.results) == 1  # type: ignore[attr-defined]


# -- with the worker's queue -------------------------------------------------------------------


@pytest.fixture
def worker_process_state() -> Iterator[None]:
    """db_worker, run here, takes over SIGINT and SIGTERM and sets its loggers' levels; they
    are the test process's again afterwards."""
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT]
    handlers = {number: signal.getsignal(number) for number in signals}
    loggers = [logging.getLogger(name) for name in ("django.tasks", "django_tasks_db")]
    levels = [logger.level for logger in loggers]
    yield
    for number, handler in handlers.items():
        signal.signal(number, handler)
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def run_worker() -> None:
    """The worker, once over the queue (as `manage.py db_worker` runs, but it stops when the
    queue is empty)."""
    call_command(
        "db_worker",
        "--batch",
        "--no-reload",
        "--no-startup-delay",
        "--interval",
        "0",
        verbosity=0,
    )


@pytest.mark.django_db(transaction=True)
def test_with_the_worker_no_mail_goes_out_until_the_worker_runs(
    aoki, settings, worker_process_state
):
    settings.TASKS = DATABASE
    counts = []
    for email in ("aoki@example.org", "nobody@example.org"):
        with CaptureQueriesContext(connection) as queries:
            ask_reset(email)
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert mail.outbox == []
    assert DBTaskResult.objects.filter(status="READY").count() == 2

    run_worker()

    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 2
    assert [message.to for message in mail.outbox] == [["aoki@example.org"]]
    link = reset_link(mail.outbox[0].body)
    assert link and 'name="new_password1"' in new_password_page(link)


# -- make serve: the web server and the worker together ----------------------------------------


def test_the_procfile_runs_gunicorn_and_the_worker():
    processes = procfile.read((ROOT / "Procfile").read_text())
    assert list(processes) == ["web", "worker"]
    assert processes["web"].startswith("gunicorn clubsite.wsgi ")
    assert processes["worker"] == "python manage.py db_worker"


def test_it_reads_a_procfile():
    text = '# a comment\n\nweb: gunicorn app --bind "$HOST:$PORT"\nworker:python work.py\n'
    assert procfile.read(text) == {
        "web": 'gunicorn app --bind "$HOST:$PORT"',
        "worker": "python work.py",
    }
    with pytest.raises(ValueError, match="line 1"):
        procfile.read("no colon here\n")


def test_when_one_process_ends_the_others_are_stopped():
    started = time.monotonic()
    status = procfile.run({"quick": "sleep 0.2; exit 3", "slow": "sleep 60"}, grace=5)
    assert status == 3
    assert time.monotonic() - started < 10


def test_a_signal_stops_every_process(tmp_path):
    (tmp_path / "Procfile").write_text("one: sleep 60\ntwo: sleep 60\n")
    runner = subprocess.Popen(
        [sys.executable, "-m", "clubsite.procfile", str(tmp_path / "Procfile")],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1)
    runner.send_signal(signal.SIGTERM)
    assert runner.wait(timeout=10) == 0
    assert runner.stderr is not None
    log = runner.stderr.read()
    assert "stopping one, two" in log
