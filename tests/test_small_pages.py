"""Small things outside the table screen's script: /favicon.ico answers, a
game entered as final scores says so instead of "no hands yet", a refused request (a forged
post, a PermissionDenied) gets a page in the site's language and look, and a final score
below zero can be typed on a phone."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite.models import Member
from scoring.ledger import hanchan_final_scores, hanchan_start
from scoring.models import Hanchan
from tests.conftest import make_member

ClientFor = Callable[[Member], Client]

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, outsider: Member):
    return [member, other_member, coordinator, outsider]


@pytest.fixture
def game(players: list[Member]) -> Hanchan:
    return hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=timezone.localdate(), by=players[0]
    )


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)
    assert match
    return match.group(1)


# /favicon.ico


def test_it_answers_favicon_ico_with_the_apps_icon_without_a_login(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"] == static("icons/icon-192.png")
    assert "max-age" in response["Cache-Control"]
    icon = finders.find("icons/icon-192.png")
    assert icon is not None
    with open(icon, "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"


def test_every_page_names_its_icon(client: Client) -> None:
    html = client.get(reverse("login")).text
    assert re.search(r'<link rel="icon" type="image/png" href="[^"]*icons/icon-192\.png">', html)


# A game entered as final scores


def test_a_final_scores_game_says_so_instead_of_no_hands_yet(
    game: Hanchan, players: list[Member], client_for: ClientFor
) -> None:
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": [45300, 30000, 19700, 5000]},
        expected_version=game.version,
        by=players[0],
    )
    client = client_for(players[1])

    ja = client.get(reverse("game_detail", args=[game.pk])).text
    en = client.get(reverse("game_detail", args=[game.pk]), headers={"Accept-Language": "en"})

    assert "最終持ち点で入力された対局です。局の記録はありません。" in ja
    assert "まだ局がありません。" not in ja
    assert "Entered as final scores: no hands were recorded." in en.text
    assert "No hands yet." not in en.text


def test_a_game_without_hands_in_play_still_has_no_hands_yet(
    game: Hanchan, players: list[Member], client_for: ClientFor
) -> None:
    html = client_for(players[0]).get(reverse("game_detail", args=[game.pk])).text
    assert "まだ局がありません。" in html and 'id="final-scores-only"' not in html


# Refusals: 403 pages


def test_a_forged_post_gets_the_sites_page_in_the_readers_language(
    game: Hanchan, players: list[Member], client_for: ClientFor
) -> None:
    client = client_for(players[0])
    client.get(reverse("game_detail", args=[game.pk]))  # the CSRF cookie, as a browser has it
    version = game.version

    for language, words in [
        ("ja", "このフォームは送信できませんでした"),
        ("en", "This form could not be sent"),
    ]:
        response = client.post(
            reverse("game_final_scores", args=[game.pk]),
            {"csrfmiddlewaretoken": "forged" * 8, "version": version},
            headers={"Accept-Language": language},
        )
        assert response.status_code == 403
        assert words in response.text
        assert '<header class="site-header">' in response.text  # the site's look
        assert f'<html lang="{language}">' in response.text
        assert "CSRF verification failed" not in response.text
        assert "403 Forbidden" not in response.text
    game.refresh_from_db()
    assert game.version == version and game.status == Hanchan.Status.IN_PLAY


def test_a_permission_denied_gets_the_sites_page_with_its_reason(
    game: Hanchan, client_for: ClientFor
) -> None:
    stranger = make_member("fuji", "Fuji", "ふじ")
    client = client_for(stranger)

    ja = client.get(reverse("game_final_scores", args=[game.pk]))
    en = client.get(reverse("game_final_scores", args=[game.pk]), headers={"Accept-Language": "en"})

    assert ja.status_code == en.status_code == 403
    assert "<h1>できません</h1>" in ja.text
    assert "<h1>Not allowed</h1>" in en.text
    assert "Only the players at this table and staff may change it." in en.text
    assert '<header class="site-header">' in ja.text
    assert "403 Forbidden" not in ja.text + en.text


# Final scores below zero, typed on a phone


def test_final_score_boxes_take_a_minus_on_a_phone_keyboard(
    game: Hanchan, players: list[Member], client_for: ClientFor
) -> None:
    html = client_for(players[0]).get(reverse("game_final_scores", args=[game.pk])).text

    boxes = re.findall(r'<input[^>]*name="score_\d"[^>]*>', html)
    assert len(boxes) == 4
    for box in boxes:
        # Not inputmode="numeric": the iPhone's number pad has no minus key.
        assert 'type="text"' in box and 'inputmode="text"' in box, box
        assert "numeric" not in box
        assert 'pattern="' in box


@pytest.mark.parametrize("typed", ["-5000", "－５０００", "ー5,000", "▲5000", " - 5000 "])
def test_a_busted_score_is_read_however_a_phone_types_the_minus(
    game: Hanchan, players: list[Member], client_for: ClientFor, typed: str
) -> None:
    client = client_for(players[0])
    url = reverse("game_final_scores", args=[game.pk])
    token = csrf_token(client.get(url).text)

    response = client.post(
        url,
        {
            "csrfmiddlewaretoken": token,
            "version": game.version,
            "deposits": 0,
            "score_0": "55,300",
            "score_1": "30000",
            "score_2": "19700",
            "score_3": typed,
        },
    )

    assert response.status_code == 302, response.text
    game.refresh_from_db()
    assert game.state["final_scores"]["scores"] == [55300, 30000, 19700, -5000]


@pytest.mark.browser
def test_a_negative_final_score_is_typed_and_sent_in_the_browser(
    phone: Any, game: Hanchan, players: list[Member]
) -> None:
    from tests.test_browser_confirmation import log_in

    log_in(phone, players[0].user.username)
    phone.goto(phone.base_url + reverse("game_final_scores", args=[game.pk]))
    box = phone.locator("input[name=score_3]")
    assert box.get_attribute("inputmode") == "text"
    for seat, score in enumerate(["55300", "30000", "19700", "-5000"]):
        phone.locator(f"input[name=score_{seat}]").fill(score)
    assert box.evaluate("input => input.checkValidity()")
    phone.locator("#final-scores-form button[type=submit]").click()
    phone.wait_for_load_state()
    assert "最終持ち点で入力された対局です" in phone.inner_text("main")
    game.refresh_from_db()
    assert game.state["final_scores"]["scores"] == [55300, 30000, 19700, -5000]


def test_no_page_sends_a_member_to_the_repositorys_docs() -> None:
    """The site serves no ``docs/`` folder: a member's page explains itself in its own words
    (the figures' and the ratings' methods once ended "Details: docs/player-stats.md")."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    templates = [*root.glob("templates/**/*.html"), *root.glob("*/templates/**/*.html")]
    assert len(templates) > 50
    cited = [str(t.relative_to(root)) for t in templates if re.search(r"docs/\w", t.read_text())]
    assert cited == []
