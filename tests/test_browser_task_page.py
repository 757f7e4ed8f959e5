"""The stewards' task page at a phone's size: in Japanese and English, no
sideways scroll with a long error line, every link and button a 44 x 44 px target."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from tests.browser import screenshot
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_task_page import queue  # noqa: F401

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("language", "heading"), [("ja", "タスクの一覧"), ("en", "Task queue")])
def test_the_task_page_fits_a_phone(
    phone: Any,
    staff_member: Member,
    queue: None,  # noqa: F811
    language: str,
    heading: str,
) -> None:
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "doi")
    phone.locator(".site-nav a[href='/tasks/']").click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text() == heading
    assert phone.locator("#tasks-failed li").count() == 1
    assert phone.locator("#tasks-waiting li").count() == 1
    no_sideways_scroll(phone)
    for target in phone.locator("main a, main button, .site-nav a").all():
        if not target.is_visible():
            continue
        box = target.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, target.inner_text()
    error = phone.locator("#tasks-failed .task-error").bounding_box()
    assert error["x"] + error["width"] <= 390
    screenshot(phone, f"task-page-{language}")
