"""While the database is away (restarting, refusing connections) the site answers 503 with
Retry-After, in the reader's language, never a 500."""

from __future__ import annotations

import logging

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

from clubsite.db_unavailable import RETRY_AFTER_SECONDS
from clubsite.models import Member

pytestmark = pytest.mark.django_db


def take_database_away(monkeypatch) -> None:
    """From here on every query fails as on a connection PostgreSQL refused."""

    def refuse(self):
        raise OperationalError("connection to server at 10.1.2.3 port 5432 failed")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)


def logged_in(member: Member, language: str) -> Client:
    client = Client(headers={"accept-language": language}, raise_request_exception=False)
    client.force_login(member.user)
    return client


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The club's database is not answering just now: nothing can be shown or saved."),
        ("ja", "クラブのデータベースがいま応答していない"),
    ],
)
def test_a_page_is_a_503_with_retry_after(member, monkeypatch, language, words, caplog):
    client = logged_in(member, language)
    take_database_away(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS) == "30"
    assert response["Cache-Control"] == "no-store"
    text = response.text
    assert words in text and f'lang="{language}"' in text
    assert "10.1.2.3" not in text and "Traceback" not in text
    # Logged once, as the error it is, with its cause.
    (record,) = caplog.records
    assert record.exc_info and "10.1.2.3" in str(record.exc_info[1])


def test_a_post_is_a_503_too(member, monkeypatch):
    client = logged_in(member, "en")
    take_database_away(monkeypatch)
    response = client.post("/meetups/new/", {"note": "x"})
    assert response.status_code == 503 and response["Retry-After"] == "30"


def test_an_htmx_request_gets_the_503(member, monkeypatch):
    client = logged_in(member, "en")
    take_database_away(monkeypatch)
    response = client.get("/", headers={"hx-request": "true"})
    assert response.status_code == 503 and response["Retry-After"] == "30"


def test_a_dropped_connection_is_a_503(member, monkeypatch):
    client = logged_in(member, "en")

    def dropped(self):
        raise InterfaceError("connection already closed")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", dropped)
    assert client.get("/").status_code == 503


def test_other_errors_are_still_500(member, monkeypatch):
    """Only the database's connection errors: a bug stays a 500."""
    from scoring.views import games

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(games, "render", broken)
    response = logged_in(member, "en").get("/")
    assert response.status_code == 500


def test_with_the_database_back_pages_are_served(member):
    response = logged_in(member, "en").get("/")
    assert response.status_code == 200 and "Retry-After" not in response
