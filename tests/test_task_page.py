"""The stewards' task page, /tasks/: the failed tasks with their error and
the waiting ones with a mail's attempt, in Japanese and English, for stewards only, linked
from a steward's menu."""

from __future__ import annotations

import datetime

import pytest
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from clubsite.mail import resend_email
from clubsite.models import Member
from clubsite.task_retries import MAX_ATTEMPTS
from tests.test_tasks import DATABASE, IMMEDIATE

pytestmark = pytest.mark.django_db


def page(user_member: Member, language: str) -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user_member.user)
    response = client.get("/tasks/")
    assert response.status_code == 200
    return response.text


@pytest.fixture
def queue(settings) -> None:
    settings.TASKS = DATABASE
    message = {
        "subject": "Hello",
        "body": "Body",
        "from_email": "club@example.org",
        "to": ["aoki@example.org"],
        "cc": [],
        "bcc": [],
        "reply_to": [],
        "headers": {},
    }
    due = timezone.make_aware(datetime.datetime(2026, 12, 1, 19, 30))
    error = "SMTPServerDisconnected: gone"
    resend_email.using(run_after=due).enqueue(message, "greeting", attempt=3, last_error=error)
    failed = resend_email.enqueue(message, "greeting", attempt=MAX_ATTEMPTS, last_error="x")
    DBTaskResult.objects.filter(pk=failed.id).update(
        status="FAILED",
        finished_at=timezone.now(),
        exception_class_path="clubsite.mail.MailNotDelivered",
        traceback="Traceback ...\nclubsite.mail.MailNotDelivered: greeting: e-mail to "
        "aoki@example.org not delivered after 6 attempts: TimeoutError: timed out\n",
    )


def test_a_steward_sees_the_failed_and_the_waiting_in_english(staff_member, queue):
    text = page(staff_member, "en")
    assert "<h1>Task queue</h1>" in text
    assert "Failed (1)" in text and "Waiting or running (1)" in text
    assert (
        "clubsite.mail.MailNotDelivered: greeting: e-mail to aoki@example.org not delivered "
        "after 6 attempts: TimeoutError: timed out"
    ) in text
    assert f"attempt 3 of {MAX_ATTEMPTS}" in text and "12/1 19:30" in text
    assert "Last error" in text and "SMTPServerDisconnected: gone" in text
    assert "To: aoki@example.org" in text


def test_and_in_japanese(staff_member, queue):
    text = page(staff_member, "ja")
    assert "<h1>タスクの一覧</h1>" in text
    assert "失敗（1）" in text and "待機中・実行中（1）" in text
    assert f"{MAX_ATTEMPTS}回中3回目" in text and "前回のエラー" in text and "宛先: aoki" in text
    assert "メールの再送" in text


def test_an_empty_queue_says_so(staff_member, settings):
    settings.TASKS = DATABASE
    text = page(staff_member, "en")
    assert "No task has failed." in text and "Nothing is waiting." in text
    assert "No heartbeat from the worker lately" in text


def test_without_a_worker_it_says_where_tasks_run(staff_member, settings):
    settings.TASKS = IMMEDIATE
    text = page(staff_member, "en")
    assert 'id="tasks-immediate"' in text and "CLUB_TASKS_BACKEND=immediate" in text


def test_only_stewards_see_it_and_their_menu_links_it(member, staff_member, client_for):
    assert client_for(member).get("/tasks/").status_code == 403
    assert Client().get("/tasks/").status_code == 302
    assert '<a href="/tasks/">' in client_for(staff_member).get("/").text
    assert '<a href="/tasks/">' not in client_for(member).get("/").text


def test_a_superuser_steward_is_linked_to_every_task_in_the_admin(staff_member, settings):
    """The link reversed the admin URL under the package's name
    (``django_tasks_db``) instead of its app label (``django_tasks_database``), so the page
    answered 500 for every superuser; a plain steward never reached that line."""
    settings.TASKS = DATABASE
    staff_member.user.is_superuser = True
    staff_member.user.save()
    text = page(staff_member, "en")
    assert '<a href="/admin/django_tasks_database/dbtaskresult/">' in text
    assert "Every task, with its traceback, in the admin" in text
    assert "/admin/django_tasks_database/" not in page_of_plain_steward(settings)


def page_of_plain_steward(settings) -> str:
    from tests.conftest import make_member

    return page(make_member("imai", "Imai", "いまい", steward=True), "en")


def test_a_message_as_a_task_argument_round_trips():
    from clubsite.mail import message_data, message_from_data

    message = EmailMessage(
        "件名", "本文\n", "club@example.org", ["a@example.org"], headers={"X-Club": "1"}
    )
    data = message_data(message)
    assert data is not None
    again = message_from_data(data)
    assert (again.subject, again.body, again.to, again.extra_headers) == (
        "件名",
        "本文\n",
        ["a@example.org"],
        {"X-Club": "1"},
    )
    message.attach("a.txt", "x", "text/plain")
    assert message_data(message) is None


def test_every_label_names_a_task_of_the_site():
    """The page names tasks by their code path: a task renamed or moved would lose its name."""
    from django.tasks import Task
    from django.utils import translation
    from django.utils.module_loading import import_string

    from clubsite.task_queue import TASK_LABELS

    for path in TASK_LABELS:
        task = import_string(path)
        assert isinstance(task, Task) and task.module_path == path
    with translation.override("ja"):
        assert str(TASK_LABELS["ratings.tasks.ratings_follow"]) == "レーティングの更新"
        assert str(TASK_LABELS["clubsite.desk.welcome.send_welcome_email"]) == "ようこそメール"
