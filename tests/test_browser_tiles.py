"""A hand entered by its tiles on a phone: the tile keyboard on the hand
form, one tap per tile, the yaku and fu shown by the server, the hand stored with its tiles
and yaku; in Japanese and English. Screenshots of each."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import Hanchan, HandEntry
from tests.browser import kept_tap, screenshot, tap_and_settle
from tests.test_browser_confirmation import log_in
from tests.test_browser_hanchan import settle
from tests.test_browser_one_screen import radio

pytestmark = pytest.mark.browser

# Baba rons Chiba: riichi, pinfu, tanyao (the hand's tiles in tap order, the winning 5s last).
TAPS = ["2m", "3m", "4m", "5m", "6m", "7m", "2p", "3p", "4p", "8p", "8p", "6s", "7s", "5s"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_ron_entered_by_its_tiles(phone: Any, table_game: Hanchan, language: str) -> None:
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{table_game.pk}/")
    for name, value in (("result", "ron"), ("loser", "2"), ("winners", "1")):
        tap_and_settle(phone, radio(phone, name, value))
    kept_tap(phone, radio(phone, "riichi", "1"))  # goes with the tiles' preview
    phone.locator("#value-pad-1 details.tile-entry > summary").click()
    keyboard = phone.locator("#value-pad-1 .tile-keyboard")
    for tile in TAPS[:-1]:
        keyboard.locator(f"button[data-tile='{tile}']").click()
    # The 14th tile completes the hand: the server values it.
    with phone.expect_response(lambda r: "/preview/" in r.url):
        keyboard.locator("button[data-tile='5s']").click()
    settle(phone)
    result = phone.locator("#tile-result-1").inner_text()
    if language == "ja":
        assert "平和" in result and "断幺九" in result and "立直" in result
    else:
        assert "Pinfu" in result and "Tanyao" in result and "Riichi" in result
    assert "30" in result
    screenshot(phone, f"tiles-ron-{language}")
    with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/")):
        phone.locator("#hand-form button.confirm").click()
    phone.locator("#hand-entry .notice.success").wait_for()
    [win] = HandEntry.objects.get(hanchan=table_game).data["wins"]
    assert (win["han"], win["fu"]) == (3, 30)
    assert win["tiles"] == {"hand": "234567m23488p675s", "win_tile": "5s"}
    assert {y["name"] for y in win["yaku"]} == {"riichi", "pinfu", "tanyao"}


def _game(ruleset_id: str, members: list[Any]) -> Hanchan:
    from scoring.ledger import hanchan_start
    from scoring.standings.periods import club_today

    return hanchan_start(
        ruleset_id=ruleset_id, members=members, played_on=club_today(), by=members[0]
    )


def _open_keyboard(phone: Any, game: Hanchan) -> Any:
    """Baba (seat 1, in riichi) rons Chiba (seat 2); the tile keyboard of Baba's pad."""
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    for name, value in (("result", "ron"), ("loser", "2"), ("winners", "1")):
        tap_and_settle(phone, radio(phone, name, value))
    kept_tap(phone, radio(phone, "riichi", "1"))  # goes with the tiles' preview
    phone.locator("#value-pad-1 details.tile-entry > summary").click()
    return phone.locator("#value-pad-1 .tile-keyboard")


def _enter(phone: Any, keyboard: Any, taps: list[str]) -> str:
    for tile in taps[:-1]:
        keyboard.locator(f"button[data-tile='{tile}']").click()
    with phone.expect_response(lambda r: "/preview/" in r.url):
        keyboard.locator(f"button[data-tile='{taps[-1]}']").click()
    settle(phone)
    return str(phone.locator("#tile-result-1").inner_text())


def _confirm(phone: Any, game: Hanchan) -> dict[str, Any]:
    with phone.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/")):
        phone.locator("#hand-form button.confirm").click()
    phone.locator("#hand-entry .notice.success").wait_for()
    [win] = HandEntry.objects.get(hanchan=game).data["wins"]
    return dict(win)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_3_player_hand_with_north_set_aside(
    phone: Any, member: Any, other_member: Any, coordinator: Any, language: str
) -> None:
    """The 3-player club (002 N(2) L76) sets a north aside as a nuki dora; its
    keyboard at 390x844 has no 2m-8m keys and a key counting the norths set aside."""
    phone.context.add_cookies(
        [{"name": "django_language", "value": language, "url": phone.base_url}]
    )
    game = _game("sanma-float", [member, other_member, coordinator])
    keyboard = _open_keyboard(phone, game)
    assert keyboard.locator("button[data-tile='2m']").count() == 0
    assert keyboard.locator("button[data-tile='9m']").count() == 1
    north = keyboard.locator("button[data-aside='kita']")
    north.click()
    north.click()
    assert north.inner_text() == ("抜き北 北 ×2" if language == "ja" else "North set aside 北 ×2")
    box = north.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    # Riichi, a 9s tanki; the two norths are two dora: 3 han, 30 + 2 -> 40 fu.
    taps = ["2p", "3p", "4p", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s"]
    result = _enter(phone, keyboard, taps)
    assert ("ドラ" if language == "ja" else "Dora") in result
    assert "40" in result
    screenshot(phone, f"tiles-3p-north-{language}")
    win = _confirm(phone, game)
    assert (win["han"], win["fu"], win["tiles"]["kita"]) == (3, 40, 2)
    assert {y["name"]: y["han"] for y in win["yaku"]} == {"riichi": 1, "dora": 2}


def test_the_home_games_second_red_5p(
    phone: Any, member: Any, other_member: Any, coordinator: Any, outsider: Any
) -> None:
    """003 L91-94, the yellow set has two red 5p: the red 5p key takes two taps
    (then greys), and the hand counts two aka dora; at 390x844."""
    game = _game("home-nashinashi", [member, other_member, coordinator, outsider])
    keyboard = _open_keyboard(phone, game)
    red = keyboard.locator("button[data-tile='0p']")
    red.click()
    red.click()
    assert red.is_disabled()
    taps = ["2m", "3m", "4m", "5p", "6s", "7s", "8s", "2s", "3s", "4s", "9s", "9s"]
    result = _enter(phone, keyboard, taps)
    assert "赤ドラ" in result
    screenshot(phone, "tiles-home-two-red-5p-ja")
    win = _confirm(phone, game)
    assert {y["name"]: y["han"] for y in win["yaku"]} == {"riichi": 1, "aka_dora": 2}
    assert win["tiles"]["hand"].count("0") == 2


def test_fujis_keyboard_has_red_and_gold_fives_flowers_and_the_pocchi(
    phone: Any, member: Any, other_member: Any, coordinator: Any
) -> None:
    """004 L22-23 three red and one gold 5p and 5s (the 0p key takes three
    taps, the 5p key, drawn gold, one; no note asking for plain fives any more), L39 the
    白ポッチ key after haku; L27 four flowers set aside, L26 no north key; at 390x844. Baba
    rons with 000p 456p 789s 234s 11z, riichi: four fives and a flower, 5 dora, 6 han."""
    game = _game("fuji-sanma", [member, other_member, coordinator])
    keyboard = _open_keyboard(phone, game)
    assert keyboard.locator("button[data-tile='0m']").count() == 0
    assert keyboard.locator("button[data-aside='kita']").count() == 0
    assert keyboard.locator(".kb-five-dora").count() == 0
    pocchi = keyboard.locator("button[data-tile='0z']")
    assert pocchi.inner_text() == "白•"
    box = pocchi.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    flower = keyboard.locator("button[data-aside='flowers']")
    for _ in range(5):
        flower.click()
    assert flower.inner_text() == "花 ×0"  # four flowers, then back to none
    flower.click()
    assert flower.inner_text() == "花 ×1"
    red = keyboard.locator("button[data-tile='0p']")
    for _ in range(3):
        red.click()
    assert red.is_disabled()
    gold = keyboard.locator("button[data-tile='5p']")
    assert "gold" in (gold.get_attribute("class") or "")
    keyboard.locator("button[data-tile='4p']").click()
    gold.click()
    assert gold.is_disabled()
    screenshot(phone, "tiles-fuji-flowers-ja")
    taps = ["6p", "7s", "8s", "9s", "2s", "3s", "4s", "1z", "1z"]
    result = _enter(phone, keyboard, taps)
    assert "ドラ" in result
    win = _confirm(phone, game)
    assert win["limit"] == "haneman"  # 6 han
    assert win["tiles"] == {"hand": "000456p789234s11z", "win_tile": "1z", "flowers": 1}
    assert {y["name"]: y["han"] for y in win["yaku"]} == {"riichi": 1, "dora": 5}


def test_the_white_pocchi_drawn_in_riichi_from_the_keyboard(
    phone: Any, member: Any, other_member: Any, coordinator: Any
) -> None:
    """004 L39 "白ポッチは、リーチ後、オールマイティ牌です": Baba (South) in riichi draws the
    白ポッチ with 11p 234p 789p 678s 11z: it is taken as East, the round wind's pung: riichi,
    tsumo, east, 3 han; the win keeps 0z as its winning tile."""
    game = _game("fuji-sanma", [member, other_member, coordinator])
    log_in(phone, "aoki")
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    for name, value in (("result", "tsumo"), ("winner", "1")):
        tap_and_settle(phone, radio(phone, name, value))
    kept_tap(phone, radio(phone, "riichi", "1"))
    phone.locator("#value-pad-1 details.tile-entry > summary").click()
    keyboard = phone.locator("#value-pad-1 .tile-keyboard")
    taps = ["1p", "1p", "2p", "3p", "4p", "7p", "8p", "9p", "6s", "7s", "8s", "1z", "1z", "0z"]
    result = _enter(phone, keyboard, taps)
    assert "立直" in result and "場風" in result
    screenshot(phone, "tiles-fuji-pocchi-ja")
    win = _confirm(phone, game)
    assert win["han"] == 3
    assert win["tiles"] == {"hand": "11234789p678s110z", "win_tile": "0z"}
    assert {y["name"]: y["han"] for y in win["yaku"]} == {
        "riichi": 1,
        "tsumo": 1,
        "round_wind_east": 1,
    }
