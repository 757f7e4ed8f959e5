"""A production-ready server (issue 9, items 2, 6 and 7): the deployment checks pass with a
production environment, security settings come from the environment, errors are logged on
standard error and mailed to the admins, the demo refuses a production database, and a
logged-out phone's htmx request is sent to the login page."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "x7$k2!" * 10,  # 60 characters, varied enough for check --deploy
    "DJANGO_ALLOWED_HOSTS": "club.example.org",
    "DJANGO_ADMINS": "Steward <steward@example.org>",
}


def manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    environment.update(env)
    environment["DATABASE_URL"] = f"sqlite:///{tmp_path / 'deploy.sqlite3'}"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_deployment_checks_pass_in_production(tmp_path):
    done = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


def test_each_security_setting_comes_from_the_environment(tmp_path):
    env = {
        **PRODUCTION,
        "DJANGO_SECURE_HSTS_SECONDS": "60",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
        "DJANGO_SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://club.example.org",
    }
    code = (
        "from django.conf import settings as s; print(s.SECURE_HSTS_SECONDS, "
        "s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_PROXY_SSL_HEADER, s.CSRF_TRUSTED_ORIGINS, s.ADMINS)"
    )
    done = manage("shell", "-c", code, env=env, tmp_path=tmp_path)
    assert done.stdout.strip().splitlines()[-1] == (
        "60 False False False ('HTTP_X_FORWARDED_PROTO', 'https') "
        "['https://club.example.org'] ['Steward <steward@example.org>']"
    )


def test_the_demo_refuses_a_production_database(settings, db):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo")


@override_settings(DEBUG=False, ADMINS=["steward@example.org"])
def test_a_server_error_is_logged_and_mailed_to_the_admins(caplog, client_for, member, monkeypatch):
    from scoring.views import games

    def broken(*args, **kwargs):
        raise RuntimeError("the ledger is on fire")

    monkeypatch.setattr(games, "awaiting_viewer", broken)
    client = client_for(member)
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(reverse("game_list"))
    assert response.status_code == 500
    assert any("the ledger is on fire" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
    assert len(mail.outbox) == 1 and "steward@example.org" in mail.outbox[0].to


def test_a_logged_out_phone_gets_hx_redirect_to_the_login_page(db):
    response = Client().post("/games/1/hands/preview/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert "next=" in response["HX-Redirect"]
    page = Client().get(reverse("game_list"))
    assert page.status_code == 302 and "HX-Redirect" not in page
