"""Members find themselves: "my page" in the header of every page, in both
languages and big enough to tap; a member page without online names has no empty "online:"
line, and the member's own page links to where they set their names."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from clubsite.models import Member, OnlineName

ClientFor = Callable[[Member], Client]

pytestmark = pytest.mark.django_db

PAGES = ["game_list", "standings", "ruleset_list", "meetings:list", "tournaments:list"]


def my_page_links(html: str) -> list[str]:
    """The header's "my page" links, as ``href|text``."""
    header = html.split('<header class="site-header">')[1].split("</header>")[0]
    return [
        f"{href}|{text}"
        for href, text in re.findall(r'<a class="my-page" href="([^"]+)"[^>]*>([^<]+)</a>', header)
    ]


@pytest.mark.parametrize(("language", "label"), [("ja", "マイページ"), ("en", "My page")])
def test_it_links_my_page_in_the_header_of_every_page(
    client_for: ClientFor, member: Member, other_member: Member, language: str, label: str
) -> None:
    client = client_for(member)
    urls = [reverse(name) for name in PAGES]
    urls.append(reverse("member_detail", args=[other_member.pk]))
    for url in urls:
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code == 200, url
        assert my_page_links(response.text) == [f"/members/{member.pk}/|{label}"], url


def test_it_marks_my_page_as_the_current_page_there(
    client_for: ClientFor, member: Member, other_member: Member
) -> None:
    client = client_for(member)

    mine = client.get(reverse("member_detail", args=[member.pk])).text
    theirs = client.get(reverse("member_detail", args=[other_member.pk])).text

    assert f'class="my-page" href="/members/{member.pk}/" aria-current="page"' in mine
    assert "aria-current" not in theirs.split("</header>")[0]


def test_it_has_no_my_page_without_a_member_profile(client: Client, staff: User) -> None:
    assert my_page_links(client.get(reverse("login")).text) == []
    client.force_login(staff)
    assert my_page_links(client.get(reverse("game_list")).text) == []


def online_line(html: str) -> str:
    """The member page's online line as text, or "" when there is none."""
    match = re.search(r'<p class="online-game" id="member-online-names">(.*?)</p>', html, re.S)
    return match.group(1) if match else ""


def test_it_shows_no_online_line_for_a_member_without_online_names(
    client_for: ClientFor, member: Member, other_member: Member
) -> None:
    for language in ("ja", "en"):
        html = (
            client_for(member)
            .get(
                reverse("member_detail", args=[other_member.pk]),
                headers={"Accept-Language": language},
            )
            .text
        )
        assert 'id="member-online-names"' not in html
        assert "オンライン：" not in html and "Online:" not in html


def test_it_links_the_members_own_page_to_their_online_names(
    client_for: ClientFor, member: Member
) -> None:
    html = client_for(member).get(reverse("member_detail", args=[member.pk])).text

    line = online_line(html)
    # No names yet: no empty "Online:" label, only the way to set them.
    assert "オンライン：" not in line
    assert f'<a href="{reverse("online_names")}">あなたのオンライン名</a>' in line


def test_it_shows_a_members_online_names_to_others_without_the_link(
    client_for: ClientFor, member: Member, other_member: Member
) -> None:
    OnlineName.objects.create(member=other_member, service="tenhou", name="ばば打ち")

    line = online_line(
        client_for(member).get(reverse("member_detail", args=[other_member.pk])).text
    )

    assert line.startswith("オンライン： 天鳳 <b>ばば打ち</b>")
    assert reverse("online_names") not in line


@pytest.mark.browser
def test_my_page_is_a_44_px_tap_target_on_a_phone(phone: Any, member: Member) -> None:
    from tests.test_browser_confirmation import log_in

    log_in(phone, member.user.username)
    for language in ("ja", "en"):
        phone.context.add_cookies(
            [{"name": "django_language", "value": language, "url": phone.base_url}]
        )
        phone.goto(phone.base_url + reverse("standings"))
        link = phone.locator("a.my-page")
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (language, box)
        link.click()
        phone.wait_for_url(f"**/members/{member.pk}/")
