"""Dealing into an open riichi (rules-spec M-13): under Makura 1.3 §18
L130-134 a player not in riichi who deals in pays a yakuman; under Makura 1.5 §18 L115-121
(and 003 L361-371, 004 L40-46) only when stuck — the table asks, and a careless discard goes
back with no ron. A single yakuman, plus honba (M-13)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from scoring.ledger import hanchan_start
from scoring.models import HandEntry
from tests.test_hand_entry_views import HTMX, form_fields, post

pytestmark = pytest.mark.django_db

# Seat 1 declares open riichi and rons seat 3, who is not in riichi.
RON = {"result": "ron", "loser": "3", "winners": ["1"], "open_riichi": ["1"], "value_1": "2-30"}


@pytest.fixture
def players(member, other_member, coordinator, staff_member):
    return [member, other_member, coordinator, staff_member]


def game_under(ruleset_id, players):
    return hanchan_start(
        ruleset_id=ruleset_id, members=players, played_on=datetime.date(2026, 11, 20)
    )


def preview(client, game, taps) -> str:
    fields = form_fields(client, game)
    return post(client, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text


def confirm(client, game, taps):
    fields = form_fields(client, game)
    return post(client, reverse("hand_create", args=[game.pk]), taps, fields)


def test_makura_1_5_asks_whether_the_discarder_was_stuck(players, client_for):
    game = game_under("makura-1.5", players)
    client = client_for(players[0])
    client.cookies["django_language"] = "en"
    html = preview(client, game, RON)
    assert "Doi is not in riichi and dealt into an open riichi: was Doi stuck?" in html
    assert 'name="open_riichi_stuck"' in html
    confirm(client, game, RON)
    assert not HandEntry.objects.filter(hanchan=game).exists()  # not answered: nothing written


def test_not_stuck_the_tile_goes_back_and_nothing_is_written(players, client_for):
    """Makura 1.5 §18 L117-121: the tile goes back, nobody may ron it."""
    game = game_under("makura-1.5", players)
    client = client_for(players[0])
    client.cookies["django_language"] = "en"
    response = confirm(client, game, {**RON, "open_riichi_stuck": "no"})
    assert "A careless discard into an open riichi goes back: there is no ron." in response.text
    assert not HandEntry.objects.filter(hanchan=game).exists()


def test_stuck_the_open_riichi_is_a_yakuman(players, client_for):
    game = game_under("makura-1.5", players)
    client = client_for(players[0])
    confirm(client, game, {**RON, "open_riichi_stuck": "yes"})
    entry = HandEntry.objects.get(hanchan=game)
    win = entry.data["wins"][0]
    assert (win["limit"], win.get("yakuman", 1)) == ("yakuman", 1)
    # A non-dealer's yakuman ron: 32,000 from the discarder; the open riichi's stick back.
    assert entry.result["deltas"][3] == -32000
    assert entry.result["deltas"][1] == 32000 - 1000 + 1000


def test_makura_1_3_any_deal_in_is_a_yakuman_without_asking(players, client_for):
    """Makura 1.3 §18 L130-134 (M-13): the value tapped gives way to a single yakuman."""
    game = game_under("makura-1.3", players)
    client = client_for(players[0])
    client.cookies["django_language"] = "ja"
    html = preview(client, game, RON)
    assert "Doiさんはリーチせずにオープンリーチに放銃したので役満です。" in html
    assert 'name="open_riichi_stuck"' not in html
    confirm(client, game, RON)
    win = HandEntry.objects.get(hanchan=game).data["wins"][0]
    assert win["limit"] == "yakuman"


def test_a_discarder_in_riichi_is_an_ordinary_ron(players, client_for):
    game = game_under("makura-1.5", players)
    client = client_for(players[0])
    taps = {**RON, "riichi": ["3"]}
    assert 'name="open_riichi_stuck"' not in preview(client, game, taps)
    confirm(client, game, taps)
    win = HandEntry.objects.get(hanchan=game).data["wins"][0]
    assert (win.get("han"), win.get("fu")) == (2, 30)
