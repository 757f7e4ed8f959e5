"""The ledger in the admin: stewards can look, nobody edits scores there."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scoring.ledger import hanchan_start
from scoring.models import Hanchan


@pytest.fixture
def steward_client(db) -> Client:
    root = User.objects.create_superuser("root", password="root-password")
    client = Client()
    client.force_login(root)
    return client


def test_it_shows_games_with_their_seats_and_hands(
    steward_client, member, other_member, coordinator, staff_member
):
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, staff_member],
        played_on=datetime.date(2026, 11, 1),
        table_name="Table A",
    )
    page = steward_client.get("/admin/scoring/hanchan/")
    assert page.status_code == 200
    assert "Table A" in page.content.decode()
    detail = steward_client.get(f"/admin/scoring/hanchan/{game.pk}/change/")
    assert detail.status_code == 200
    assert "Aoki" in detail.content.decode()
    assert steward_client.get("/admin/scoring/hanchan/add/").status_code == 403
    assert Hanchan.objects.count() == 1
