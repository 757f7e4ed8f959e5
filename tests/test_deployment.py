"""A production-ready server: the deployment checks pass with a
production environment, security settings come from the environment, errors are logged on
standard error and mailed to the admins, the demo refuses a production database, and a
logged-out phone's htmx request is sent to the login page."""

from __future__ import annotations

import ast
import io
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

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


@override_settings(DEBUG=False, ADMINS=["Steward <steward@example.org>"])
def test_a_server_error_is_one_line_on_standard_error(client_for, member, monkeypatch):
    """The handler that LOGGING puts on standard error writes the 500, traceback and all, as
    one line: time, level, logger, message."""
    from scoring.views import games

    def broken(*args, **kwargs):
        raise RuntimeError("the ledger is on fire")

    monkeypatch.setattr(games, "awaiting_viewer", broken)
    (handler,) = [h for h in logging.getLogger("django").handlers if h.name == "stderr"]
    assert type(handler) is logging.StreamHandler  # on sys.stderr, LOGGING naming no stream
    stream = io.StringIO()
    monkeypatch.setattr(handler, "stream", stream)
    client = client_for(member)
    client.raise_request_exception = False
    assert client.get(reverse("game_list")).status_code == 500
    (line,) = stream.getvalue().splitlines()
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} ERROR django.request "
        r"Internal Server Error: / .*RuntimeError: the ledger is on fire",
        line.replace("\\n", " "),
    ), line
    assert mail.outbox[0].to == ["Steward <steward@example.org>"]
    assert "the ledger is on fire" in mail.outbox[0].body


def test_a_missing_page_is_neither_logged_nor_mailed(client_for, member, settings, monkeypatch):
    settings.DEBUG = False
    (handler,) = [h for h in logging.getLogger("django").handlers if h.name == "stderr"]
    stream = io.StringIO()
    monkeypatch.setattr(handler, "stream", stream)
    assert client_for(member).get("/no-such-page/").status_code == 404
    assert stream.getvalue() == "" and mail.outbox == []


def test_admins_are_read_as_e_mail_addresses(tmp_path):
    code = "from django.conf import settings as s; print(s.ADMINS)"
    env = {**PRODUCTION, "DJANGO_ADMINS": '"Ng, Mary" <mary@example.org>, 青木 <aoki@example.org>,'
           " doi@example.org"}  # fmt: skip
    done = manage("shell", "-c", code, env=env, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    admins = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert admins[0] == '"Ng, Mary" <mary@example.org>' and admins[2] == "doi@example.org"
    assert admins[1].endswith(" <aoki@example.org>")
    broken = manage("check", env={**PRODUCTION, "DJANGO_ADMINS": "Steward"}, tmp_path=tmp_path)
    assert broken.returncode != 0 and "DJANGO_ADMINS" in broken.stderr


def test_a_logged_out_phone_gets_hx_redirect_to_the_login_page(db):
    response = Client().post(
        "/games/1/hands/preview/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="http://testserver/games/1/?tab=hands",
    )
    assert response.status_code == 200 and response.content == b""
    # Back to the table screen after logging in, not to the fragment's address.
    assert response["HX-Redirect"] == reverse("login") + "?next=/games/1/%3Ftab%3Dhands"
    elsewhere = Client().post(
        "/games/1/hands/preview/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL="https://evil.example/games/1/",
    )
    assert elsewhere["HX-Redirect"] == reverse("login") + "?next=/games/1/hands/preview/"
    # A whole page (not htmx) goes to the login with a plain redirect (the home page is the
    # club's public page for a visitor: a member's page here).
    page = Client().get(reverse("standings"))
    assert page.status_code == 302 and "HX-Redirect" not in page
    assert page["Location"] == reverse("login") + "?next=/standings/"


# -- bad input at the edges -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["Aoki\nBaba", "tab\tname", "x" * 61, "   "])
def test_create_member_refuses_a_display_name_that_is_not_one_line(db, name):
    from clubsite.models import Member

    with pytest.raises(CommandError):
        call_command("create_member", "someone", "--name", name, "--password", "pw-12345678")
    assert not Member.objects.exists()


def test_create_member_trims_the_display_name(db):
    from clubsite.models import Member

    call_command("create_member", "someone", "--name", "  Aoki  ", "--password", "pw-12345678",
                 stdout=io.StringIO())  # fmt: skip
    assert Member.objects.get().display_name == "Aoki"


def test_import_games_refuses_to_create_a_member_with_a_line_break(tmp_path, db):
    from scoring.models import Hanchan

    record = {
        "ruleset": "makura-1.5",
        "players": ["A\nB", "C", "D", "E"],
        "final_scores": {"scores": [45300, 30000, 19700, 5000]},
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("import_games", str(path), "--create-members", "--date", "2026-11-20",
                     stdout=io.StringIO(), stderr=err)  # fmt: skip
    assert raised.value.returncode == 2
    assert "players" in err.getvalue() and err.getvalue().count("\n") == 1
    assert not Hanchan.objects.exists()


def test_import_games_refuses_a_file_that_is_no_record(tmp_path, db):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe not json")
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("import_games", str(path), stdout=io.StringIO(), stderr=err)
    assert raised.value.returncode == 2 and "not UTF-8" in err.getvalue()


def test_a_meetup_is_arranged_at_most_two_years_ahead(member):
    import datetime

    from meetings.models import Venue
    from meetings.services import MeetupError, meetup_post

    with translation.override("en"), pytest.raises(MeetupError, match="two years"):
        meetup_post(
            by=member.user,
            dates=[datetime.date(9999, 12, 31)],
            venue=Venue.objects.get_or_create(name="ビック", defaults={"address": "東京"})[0],
            ruleset_id="makura-1.5",
        )


def test_a_failed_notice_e_mail_is_logged_marked_and_the_rest_go_out(
    member, other_member, coordinator, staff_member, monkeypatch, caplog,
    django_capture_on_commit_callbacks, client_for,
):  # fmt: skip
    """One recipient's e-mail failing stops nothing else; the log names the
    meetup and the recipient; stewards see the mark on the meetup's page."""
    import datetime

    from django.core.mail import mailers

    from meetings.models import Notice, Venue
    from meetings.services import meetup_apply, meetup_post

    for person in (member, other_member, coordinator):
        person.user.email = f"{person.user.username}@example.org"
        person.user.save()
    meetup = meetup_post(
        by=coordinator.user,
        dates=[datetime.date.today() + datetime.timedelta(days=7)],
        venue=Venue.objects.get_or_create(name="ビック", defaults={"address": "東京"})[0],
        ruleset_id="makura-1.5",
    )
    backend = type(mailers.default)  # each access makes a new backend: patch its class
    real = backend.send_messages

    def picky(self, messages):
        if any("chiba@" in address for m in messages for address in m.to):
            raise ConnectionRefusedError("the mail server refused Chiba")
        return real(self, messages)

    monkeypatch.setattr(backend, "send_messages", picky)
    mail.outbox.clear()
    with (
        caplog.at_level(logging.ERROR, logger="clubsite.mail"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        meetup_apply(meetup_id=meetup.pk, by=member.user, dates=None)
    notice = Notice.objects.filter(meetup=meetup).order_by("-pk").first()
    failing = [r for r in caplog.records if "not delivered" in r.getMessage()]
    assert failing and f"meetup {meetup.pk}" in failing[0].getMessage()
    assert "chiba@example.org" in failing[0].getMessage()
    assert notice.undelivered and "chiba@example.org" in notice.undelivered[0]
    # The coordinator's e-mail failed; the club's list still got the notice.
    assert meetup.club.list_address == "club-list@example.org"
    assert [m.to for m in mail.outbox] == [["club-list@example.org"]]
    page = client_for(staff_member).get(f"/meetups/{meetup.pk}/").text
    assert "chiba@example.org" in page
    assert "chiba@example.org" not in client_for(member).get(f"/meetups/{meetup.pk}/").text


def test_pages_go_out_compressed(client_for, member):
    """HTML is gzipped for a browser that takes it."""
    client = client_for(member)
    plain = client.get("/")
    packed = client.get("/", headers={"accept-encoding": "gzip, br"})
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content) / 2


COLLECT = """
import sys
import django
from django.conf import settings
django.setup()
settings.STATIC_ROOT = sys.argv[1]
from django.core.management import call_command
call_command("collectstatic", interactive=False, verbosity=0)
"""


def test_collectstatic_builds_the_production_static_files(tmp_path):
    """`make serve` runs collectstatic with the hashed, compressed storage: every file a
    stylesheet or script names must exist (vendored files carry no source-map references),
    and the service worker's Workbox files are there under their plain and hashed names."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    environment.update(PRODUCTION)
    environment["DJANGO_SETTINGS_MODULE"] = "clubsite.settings"
    environment["DATABASE_URL"] = f"sqlite:///{tmp_path / 'deploy.sqlite3'}"
    root = tmp_path / "collected"
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, str(root)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    sw = "vendor/workbox-7.4.1/workbox-sw.js"
    assert (root / sw).is_file() and (root / manifest[sw]).is_file()
    assert (root / (sw + ".br")).is_file()
    assert (root / manifest["css/site.css"]).is_file()
