"""The Content-Security-Policy in Chromium: the pages a member uses
at the table and for meetups raise no violation, htmx still updates them in place, and a
logged-out phone's htmx tap lands on the login page, which leads back to the table.

Violations are caught both ways a page can report them: the ``securitypolicyviolation`` event
(listened for before any script of the page runs) and Chromium's console."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from clubsite.models import Member
from scoring.ledger import hanchan_start
from scoring.standings.periods import club_today

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => window.cspViolations.push(
  `${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`));
"""


class Watched:
    """A phone page whose CSP violations are collected, page after page."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.violations: list[str] = []
        page.context.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def collect(self) -> None:
        self.violations += self.page.evaluate("window.cspViolations || []")

    def goto(self, path: str) -> Any:
        self.collect()
        response = self.page.goto(self.page.base_url + path)
        self.page.wait_for_load_state("networkidle")
        assert response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        return response

    def log_in(self, username: str) -> None:
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", f"{username}-password")
        self.page.locator("form[action$='/accounts/login/'] button[type=submit]").click()
        self.page.wait_for_load_state("networkidle")


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


def test_the_pages_keep_to_the_policy_and_htmx_still_works(phone: Any, players) -> None:
    from meetings.models import Venue
    from meetings.services import meetup_post

    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    meetup = meetup_post(
        by=players[2].user,
        dates=[club_today() + datetime.timedelta(days=7)],
        # The venues the migration loads are gone after a live-server test flushed the
        # database, so the test brings its own.
        venue=Venue.objects.get_or_create(name="ビック", defaults={"address": "東京"})[0],
        ruleset_id="makura-1.5",
    )
    User.objects.filter(username="aoki").update(is_staff=True, is_superuser=True)
    watched = Watched(phone)
    watched.goto("/accounts/login/")
    watched.log_in("aoki")

    # The table screen: a draw's and an abortive draw's taps ask the server for a preview,
    # which htmx swaps in (a ron's and a tsumo's steps the phone draws itself:
    # static/js/table_steps.js).
    watched.goto(f"/games/{game.pk}/")
    previews: list[str] = []
    phone.on("request", lambda r: previews.append(r.url) if "/hands/preview/" in r.url else None)
    phone.locator("label.tap", has_text="流局").first.click()
    phone.wait_for_selector("input[name=tenpai]")  # the form grew by htmx
    phone.locator("label.tap", has_text="途中流局").click()
    phone.wait_for_selector("input[name=kind]")
    phone.wait_for_load_state("networkidle")
    assert len(previews) == 2
    assert phone.url.endswith(f"/games/{game.pk}/")  # updated in place, no page load

    for path in (
        "/",
        "/standings/",
        f"/meetups/{meetup.pk}/",
        "/meetups/",
        "/meetups/new/",
        f"/members/{players[0].pk}/",
        "/games/new/",
        "/rulesets/",
        "/standings/champions/",
        "/accounts/password/",
        "/admin/",
        f"/admin/auth/user/{players[1].user.pk}/change/",
    ):
        watched.goto(path)
    watched.collect()
    assert watched.violations == []


def test_a_logged_out_phone_is_sent_to_log_in_and_back_to_its_table(phone: Any, players) -> None:
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=club_today(), by=players[0]
    )
    watched = Watched(phone)
    watched.goto("/accounts/login/")
    watched.log_in("aoki")
    watched.goto(f"/games/{game.pk}/")
    phone.context.clear_cookies(name="sessionid")  # the session ends (expired, logged out)

    # A tap that asks the server (a draw) meets the login.
    phone.locator("label.tap", has_text="流局").first.click()
    phone.wait_for_url(re.compile(rf"/accounts/login/\?next=/games/{game.pk}/$"))
    assert phone.locator("input[name=username]").count() == 1  # the whole page, not a fragment
    assert phone.locator("#hand-entry").count() == 0
    watched.log_in("aoki")
    assert phone.url == phone.base_url + f"/games/{game.pk}/"
    watched.collect()
    assert watched.violations == []
