"""The club's rules page on a 390 x 844 phone in Japanese and English: the
worked settlement, the yaku table and the manners fit the screen with no sideways scroll, and
every section is there. Screenshots under tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from clubsite.models import Member
from tests.browser import PHONE, screenshot
from tests.test_browser_standings import log_in, no_sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def aoki(django_user_model: Any) -> Member:
    user = django_user_model.objects.create_user("aoki", password="aoki-password")
    return Member.objects.create(user=user, display_name="Aoki", furigana="あおき")


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ja-JP", ["精算の例", "役", "ダブル役満", "枕倶楽部マナーガイド", "進行と罰則",
                   "以下の場合はアガリ放棄となる。"]),
        ("en-US", ["A game's settlement, worked", "Yaku", "double yakuman",
                   "The Makura Club's manners guide", "Play procedure", "No kuikae after a chii"]),
    ],
)  # fmt: skip
def test_the_rules_page_reads_on_a_phone(chromium, live_server, aoki, locale, words):
    context = chromium.new_context(viewport=PHONE, locale=locale, device_scale_factor=2)
    page = context.new_page()
    page.base_url = live_server.url
    try:
        log_in(page, reverse("ruleset_detail", args=["makura-1.5"]))
        text = page.locator("main").inner_text()
        for word in words:
            assert word in text, word
        no_sideways_scroll(page)
        # The yaku table's han columns stay on screen beside the names.
        box = page.locator("#yaku table").first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        screenshot(page, f"rules-makura-1.5-{locale}")
        # The index takes a reader to the play procedure, and its links are
        # 44 px tap targets.
        for link in page.locator(".rules-index a").all():
            box = link.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
        page.locator(".rules-index a[href='#procedure']").click()
        heading = page.locator("#procedure-title").bounding_box()
        # At the top, to within a pixel: the jump lands on a fraction of one (-0.11 seen).
        assert heading is not None and -1 < heading["y"] < PHONE["height"] / 2
    finally:
        context.close()
