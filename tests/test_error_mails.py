"""Error mails to ADMINS: at most one per cause every few minutes. A 500
that anyone can bring about on purpose must not flood the stewards' inbox; standard error
still logs every one."""

from __future__ import annotations

import io
import logging
import sys

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from clubsite.logs import OncePerCause


def record(message: str, *args: object, at: float) -> logging.LogRecord:
    """An error record of ``django.request`` made at time ``at`` (in seconds)."""
    made = logging.LogRecord("django.request", logging.ERROR, __file__, 1, message, args, None)
    made.created = at
    return made


def test_it_lets_the_first_of_a_cause_through_and_drops_its_repeats_for_the_window():
    once = OncePerCause(minutes=5)
    assert once.filter(record("Internal Server Error: %s", "/a/", at=1000))
    # The same template for another path, and the same again: repeats of one cause.
    assert not once.filter(record("Internal Server Error: %s", "/b/", at=1001))
    assert not once.filter(record("Internal Server Error: %s", "/a/", at=1000 + 299))
    # Five minutes after the one that was sent, it goes out again.
    assert once.filter(record("Internal Server Error: %s", "/a/", at=1000 + 300))
    assert not once.filter(record("Internal Server Error: %s", "/a/", at=1000 + 301))


def test_the_cause_of_an_error_is_its_type_and_where_it_was_raised():
    once = OncePerCause(minutes=5)

    def fail(error: Exception) -> None:
        raise error

    def caught(error: Exception) -> logging.LogRecord:
        try:
            fail(error)
        except Exception:
            made = record("Internal Server Error: %s", "/x/", at=1000)
            made.exc_info = sys.exc_info()
            return made

    assert once.filter(caught(ValueError("one")))
    assert not once.filter(caught(ValueError("another message, the same place")))
    assert once.filter(caught(KeyError("another type")))
    # Another place: another cause, even of the same type and message.
    other = record("Internal Server Error: %s", "/x/", at=1000)
    try:
        raise ValueError("one")
    except ValueError:
        other.exc_info = sys.exc_info()
    assert once.filter(other)


def test_it_forgets_the_oldest_causes_beyond_its_memory(monkeypatch):
    once = OncePerCause(minutes=5)
    monkeypatch.setattr(OncePerCause, "MAX_CAUSES", 3)
    for number in range(5):
        assert once.filter(record(f"cause {number}", at=1000))
    assert len(once._sent) == 3
    assert once.filter(record("cause 0", at=1001))  # forgotten: sent again
    assert not once.filter(record("cause 4", at=1001))


@pytest.fixture
def mail_filter(monkeypatch) -> OncePerCause:
    """The filter LOGGING puts on the mail_admins handler, with nothing sent yet."""
    (handler,) = [h for h in logging.getLogger("django").handlers if h.name == "mail_admins"]
    (found,) = [f for f in handler.filters if isinstance(f, OncePerCause)]
    monkeypatch.setattr(found, "_sent", {})
    return found


@override_settings(DEBUG=False, ADMINS=["steward@example.org"])
def test_the_same_server_error_again_and_again_is_one_mail(
    mail_filter, client_for, member, monkeypatch
):
    assert mail_filter.window == 5 * 60
    from scoring.views import games

    def broken(*args, **kwargs):
        raise RuntimeError("the ledger is on fire")

    monkeypatch.setattr(games, "awaiting_viewer", broken)
    (stderr,) = [h for h in logging.getLogger("django").handlers if h.name == "stderr"]
    stream = io.StringIO()
    monkeypatch.setattr(stderr, "stream", stream)
    client = client_for(member)
    client.raise_request_exception = False
    for _ in range(5):
        assert client.get(reverse("game_list")).status_code == 500
    assert len(mail.outbox) == 1 and "the ledger is on fire" in mail.outbox[0].body
    assert len(stream.getvalue().splitlines()) == 5  # every one logged, one line each

    def broken_elsewhere(*args, **kwargs):
        raise RuntimeError("the ledger is on fire")

    monkeypatch.setattr(games, "awaiting_viewer", broken_elsewhere)
    assert client.get(reverse("game_list")).status_code == 500
    assert len(mail.outbox) == 2
