"""Development's e-mail on the console: the welcome mail printed base64 in
Japanese and cut its link with a quoted-printable soft line break in English. The console
backend of development (clubsite.mail.ConsoleEmailBackend) prints the text as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.conf import settings
from django.test.utils import override_settings

from clubsite.desk.welcome import set_password_url, welcome_email_send
from tests.conftest import make_member

CONSOLE = {"default": {"BACKEND": "clubsite.mail.ConsoleEmailBackend"}}


@pytest.mark.parametrize(
    ("language", "words"), [("ja", "青木さん"), ("en", "Welcome to the club")], ids=["ja", "en"]
)
def test_the_welcome_mail_reads_on_the_console_with_its_link_whole(db, capsys, language, words):
    member = make_member("aoki", "青木", "あおき")
    member.user.email = "aoki@example.org"
    member.user.save()
    long_site = "http://clubsite.development.example.org:8000/a-long-path-before-the-link"
    with override_settings(MAILERS=CONSOLE, CLUB_SITE_URL=long_site):
        url = set_password_url(member).rsplit("/", 3)[0]  # the link less its token
        assert welcome_email_send(member.pk, language) == 1
    printed = capsys.readouterr().out
    assert "Content-Transfer-Encoding" not in printed and "=?utf-8?" not in printed
    assert re.search(r"^To: 青木 <aoki@example.org>$", printed, re.M)
    assert words in printed
    # The link on one line, whole (its token differs from the one made above).
    (line,) = [line for line in printed.splitlines() if url in line]
    assert re.search(re.escape(url) + r"/[\w-]+/[\w-]+/$", line), line
    assert "=\n" not in printed


def test_development_prints_mail_with_it():
    # The test settings may send elsewhere; the default while debugging is this backend, as
    # the settings module reads a development environment in a fresh interpreter.
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env["DJANGO_DEBUG"] = "1"
    read = subprocess.run(
        [sys.executable, "-c", "from clubsite import settings; print(settings.email_backend)"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert read.stdout.strip() == "clubsite.mail.ConsoleEmailBackend"
