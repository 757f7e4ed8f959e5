"""A hand entered by its tiles on the table screen: the server values the
tiles under the game's ruleset (the keyboard only writes them), fills the value, shows the
yaku and fu, flags a tapped value the tiles do not make, and stores the win with its tiles
and yaku."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable

from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.models import Hanchan, HandEntry, WinYaku

# Baba (seat 1, South in East 1) rons Chiba: riichi, pinfu, tanyao, one dora (2m, shown by
# 1m): 4 han 30 fu, a mangan under makura-1.5's kiriage (§45f).
TILES = {
    "hand": "234567m234p67s88p5s",
    "win_tile": "5s",
    "dora_indicators": ["1m"],
}


def fields(client: Client, game: Hanchan) -> dict[str, str]:
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    version = re.search(r'name="version" value="([^"]*)"', html)
    assert token and version
    return {"csrfmiddlewaretoken": token.group(1), "version": version.group(1)}


def ron(extra: dict[str, str]) -> dict[str, str]:
    return {
        "result": "ron",
        "loser": "2",
        "winners": "1",
        "riichi": "1",
        "tiles_1": json.dumps(TILES),
        "request_id": str(uuid.uuid4()),
        **extra,
    }


def test_the_tiles_fill_the_value_and_show_the_yaku(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    base = fields(phone, table_game)
    preview = phone.post(
        reverse("hand_preview", args=[table_game.pk]),
        ron(base),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert 'id="tile-result-1"' in preview
    for name in ("Riichi", "Pinfu", "Tanyao", "Dora"):
        assert name in preview
    assert "30 fu" in preview
    # The value came from the tiles: the confirm bar shows the mangan's 8,000.
    assert "8,000" in preview
    phone.post(reverse("hand_create", args=[table_game.pk]), {**ron(base), "confirm": "1"})
    entry = HandEntry.objects.get(hanchan=table_game)
    [win] = entry.data["wins"]
    assert (win["han"], win["fu"]) == (4, 30)
    assert win["tiles"] == {**TILES}
    assert {y["name"] for y in win["yaku"]} == {"riichi", "pinfu", "tanyao", "dora"}
    assert entry.result["deltas"] == [0, 8000, -8000, 0]
    assert set(WinYaku.objects.values_list("name", flat=True)) == {
        "riichi",
        "pinfu",
        "tanyao",
        "dora",
    }


def test_a_tapped_value_the_tiles_do_not_make_is_flagged(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    preview = phone.post(
        reverse("hand_preview", args=[table_game.pk]),
        ron({**fields(phone, table_game), "value_1": "2-30"}),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert 'class="notice tile-warning"' in preview
    assert "The tiles make 4 han 30 fu; the value tapped is 2 han 30 fu." in preview


def test_tiles_that_are_no_winning_hand_are_refused_next_to_the_value(
    table_game: Hanchan, client_for: Callable[[Member], Client], member: Member
) -> None:
    phone = client_for(member)
    data = ron(fields(phone, table_game))
    data["tiles_1"] = json.dumps({**TILES, "hand": "234567m234p67s89p5s"})
    response = phone.post(
        reverse("hand_create", args=[table_game.pk]),
        {**data, "value_1": "4-30", "confirm": "1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "The tiles: the tiles are not a winning hand" in response.content.decode()
    assert not HandEntry.objects.exists()
