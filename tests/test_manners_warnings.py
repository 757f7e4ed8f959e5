"""Manners warnings (seed 004 L140-163 "酷い場合は上がり放棄となります",
seed 001 L1-35): a steward notes one against a player at a game; it is listed on the game's
warnings page and on the member page for stewards only; anyone else gets 403; bad input is
refused and nothing is written."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring.ledger import hanchan_start
from scoring.models import MannersWarning

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(member, other_member, coordinator, outsider):
    return hanchan_start(
        ruleset_id="fuji-sanma",
        members=[member, other_member, coordinator],
        played_on=datetime.date(2026, 11, 20),
    )


def client(member, language="en") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    c.force_login(member.user)
    return c


def test_a_steward_notes_agari_houki_and_it_is_listed(game, staff_member, other_member):
    steward = client(staff_member)
    url = reverse("game_manners", args=[game.pk])
    page = steward.get(url).text
    assert 'name="note"' in page and other_member.display_name in page
    response = steward.post(
        url,
        {"member": other_member.pk, "severity": "agari_houki", "note": "Drew before his turn"},
    )
    assert response.status_code == 302
    warning = MannersWarning.objects.get()
    assert (warning.member, warning.hanchan, warning.noted_by, warning.severity) == (
        other_member, game, staff_member, "agari_houki")  # fmt: skip
    listed = steward.get(url).text
    assert "Drew before his turn" in listed and "agari-houki (may not win the hand)" in listed
    member_page = steward.get(reverse("member_detail", args=[other_member.pk])).text
    section = member_page[member_page.index('id="member-manners"') :]
    assert "Drew before his turn" in section
    assert f'href="{reverse("game_detail", args=[game.pk])}"' in section
    ja = client(staff_member, "ja").get(reverse("member_detail", args=[other_member.pk])).text
    assert "上がり放棄（その局は和了できない）" in ja


def test_only_stewards_see_or_note_warnings(game, member, other_member):
    player = client(member)
    url = reverse("game_manners", args=[game.pk])
    assert player.get(url).status_code == 403
    response = player.post(url, {"member": other_member.pk, "severity": "warning", "note": "x"})
    assert response.status_code == 403
    assert not MannersWarning.objects.exists()
    page = player.get(reverse("member_detail", args=[other_member.pk])).text
    assert 'id="member-manners"' not in page
    assert 'id="manners-link"' not in player.get(reverse("game_detail", args=[game.pk])).text


@pytest.mark.parametrize(
    "data",
    [
        {"member": None, "severity": "warning", "note": "Slammed tiles"},  # nobody named
        {"member": "outsider", "severity": "warning", "note": "Slammed tiles"},  # not seated
        {"severity": "warning", "note": "tab\there"},  # a control character
        {"severity": "warning", "note": "nul\x00byte"},
        {"severity": "warning", "note": "x" * 301},
        {"severity": "banned", "note": "Slammed tiles"},
    ],
)
def test_bad_input_is_refused_and_nothing_written(game, staff_member, outsider, other_member, data):
    data = {"member": other_member.pk, **data}
    if data["member"] == "outsider":
        data["member"] = outsider.pk
    if data["member"] is None:
        del data["member"]
    response = client(staff_member).post(reverse("game_manners", args=[game.pk]), data)
    assert response.status_code == 400
    assert not MannersWarning.objects.exists()
