"""Hand entry on the table screen: taps, live preview, confirm, double submits, a second phone,
refusals next to their fields, corrections; for every action the page and the htmx fragment."""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from clubsite.models import Member
from scoring.engine import Game, RecordError, Ruleset, apply_overrides, load_ruleset, parse_hand
from scoring.ledger import hanchan_start, hand_record
from scoring.ledger.refusals import refusal_message
from scoring.models import Hanchan, HandEntry

ClientFor = Callable[[Member], Client]
DAY = datetime.date(2026, 11, 20)
HTMX = {"HTTP_HX_REQUEST": "true"}
HMX_EN = {**HTMX, "HTTP_ACCEPT_LANGUAGE": "en"}
# Baba (seat 1) rons Chiba (seat 2) for 3 han 30 fu: 3,900.
RON = {"result": "ron", "loser": "2", "winners": ["1"], "value_1": "3-30"}
MANGAN_TSUMO = {"result": "tsumo", "winner": "0", "value_0": "mangan"}


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    """Aoki (seat 0, the first dealer), Baba, Chiba, Doi."""
    return [member, other_member, coordinator, staff_member]


@pytest.fixture
def game(players: list[Member]) -> Hanchan:
    return hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY, by=players[0])


@pytest.fixture
def aoki(client_for: ClientFor, member: Member) -> Client:
    return client_for(member)


def table_url(game: Hanchan) -> str:
    return reverse("game_detail", args=[game.pk])


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden {name}"
    return match.group(1)


def form_fields(client: Client, game: Hanchan) -> dict[str, str]:
    """What a phone holds after opening the table screen: CSRF token, request id, version."""
    html = client.get(table_url(game)).text
    return {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "request_id": hidden(html, "request_id"),
        "version": hidden(html, "version"),
    }


def post(client: Client, url: str, data: dict[str, Any], fields: dict[str, str], **extra: Any):
    return client.post(url, {**fields, **data}, **extra)


def fieldset_with(html: str, name: str) -> str:
    """The <fieldset> (or step) that holds the input called ``name``."""
    for piece in re.split(r"<fieldset|<div class=\"step", html)[1:]:
        block = piece.split("</fieldset>")[0]
        if f'name="{name}"' in block:
            return block
    raise AssertionError(f"no field {name}")


def checked_values(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]*)"[^>]*checked', html)


def state(game: Hanchan) -> tuple[int, int]:
    game.refresh_from_db()
    return game.hands.count(), game.version


# The empty form


def test_it_shows_an_empty_hand_form_with_a_fresh_request_id_and_the_version(aoki, game):
    first = aoki.get(table_url(game)).text
    second = aoki.get(table_url(game)).text

    assert hidden(first, "request_id") != hidden(second, "request_id")
    uuid.UUID(hidden(first, "request_id"))
    assert hidden(first, "version") == str(game.version)
    form = re.search(r'<form id="hand-form".*?</form>', first, re.DOTALL).group(0)
    assert f'action="{reverse("hand_create", args=[game.pk])}"' in form
    assert 'method="post"' in form
    assert f'hx-post="{reverse("hand_preview", args=[game.pk])}"' in form
    for outcome in ("ロン", "ツモ", "流局", "途中流局", "チョンボ"):
        assert f"<span>{outcome}</span>" in form
    assert "局の結果を選んでください。" in form


def test_it_shows_the_form_in_english_when_the_browser_asks(aoki, game):
    response = aoki.get(table_url(game), HTTP_ACCEPT_LANGUAGE="en")

    assertContains(response, "<span>Ron</span>", html=True)
    assertContains(response, "East 1")
    assertNotContains(response, "ロン")


# Live preview


def test_it_previews_a_ron_as_an_htmx_fragment_without_writing(aoki, game):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_preview", args=[game.pk]), RON, fields, **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, 'id="hand-entry"')
    preview = re.search(r'id="hand-preview".*', response.text, re.DOTALL).group(0)
    assert "Chiba → Baba" in preview
    assert "3,900" in preview
    assert "ロン" in preview
    assert '<td class="delta plus">+3,900</td><td class="score">28,900</td>' in preview
    assert '<td class="delta minus">−3,900</td><td class="score">21,100</td>' in preview
    # The same request id and version go round again until the hand is confirmed.
    assert hidden(response.text, "request_id") == fields["request_id"]
    assert hidden(response.text, "version") == fields["version"]
    assert state(game) == (0, 0)


def test_who_dealt_in_tapped_first_is_a_ron(aoki, game):
    """The first screen's "Ron: who dealt in?" row sets the outcome too."""
    fields = form_fields(aoki, game)
    page = aoki.get(table_url(game), HTTP_ACCEPT_LANGUAGE="en").text
    assert 'id="ron-shortcut"' in page
    shortcut = {key: value for key, value in RON.items() if key != "result"}
    response = post(aoki, reverse("hand_preview", args=[game.pk]), shortcut, fields, **HMX_EN)
    assert 'name="result" value="ron"' in response.text
    assert re.search(r'name="result" value="ron"[^>]*checked', response.text)
    assert "3,900" in re.search(r'id="hand-preview".*', response.text, re.DOTALL).group(0)
    assert 'id="ron-shortcut"' not in response.text
    post(aoki, reverse("hand_create", args=[game.pk]), shortcut, fields)
    assert HandEntry.objects.get(hanchan=game).data["result"] == "ron"


def test_it_previews_on_a_full_page_without_javascript(aoki, game):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_preview", args=[game.pk]), RON, fields)

    assert response.status_code == 200
    assertContains(response, "<html")
    assertContains(response, "Chiba → Baba")
    assertContains(response, "28,900")
    assertContains(response, '<button type="submit" class="primary confirm" name="confirm"')
    assert checked_values(response.text, "result") == ["ron"]
    assert checked_values(response.text, "value_1") == ["3-30"]
    assert state(game) == (0, 0)


def test_it_shows_each_next_step_as_the_taps_come_in(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])

    after_outcome = post(aoki, url, {"result": "ron"}, fields, **HTMX).text
    assert 'name="loser"' in after_outcome
    assert 'name="winners"' in after_outcome
    assert 'name="value_1"' not in after_outcome
    assert "放銃者を選んでください。" in after_outcome
    assert "errorlist" not in after_outcome

    after_winner = post(aoki, url, {**RON, "value_1": ""}, fields, **HTMX).text
    assert 'name="value_1"' in after_winner
    assert "飜数または満貫以上を選んでください。" in after_winner

    after_value = post(aoki, url, RON, fields, **HTMX).text
    assert "Chiba → Baba" in after_value


# The value pad


def grid_fu(html: str, name: str, han: int) -> list[str]:
    """The fu offered in the grid's ``han`` column for the radio group ``name``."""
    return re.findall(rf'name="{name}" value="{han}-(\d+)"', html)


def tap_text(html: str, name: str, value: str) -> str:
    """Everything the button of ``name=value`` says (what it shows and what it reads out)."""
    match = re.search(
        rf'<label class="tap[^"]*"><input[^>]*name="{name}" value="{value}"[^>]*>(.*?)</label>',
        html,
        re.DOTALL,
    )
    assert match, f"no button {name}={value}"
    return re.sub(r"<[^>]+>", "", match[1]).strip()


def test_it_offers_a_han_fu_grid_of_what_the_ruleset_allows_for_a_ron(aoki, game):
    fields = form_fields(aoki, game)
    taps = {**RON, "value_1": ""}

    html = post(aoki, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text

    pad = fieldset_with(html, "value_1")
    # A ron: no 20 fu (tsumo only); 25 fu (seven pairs) from 2 han.
    assert grid_fu(pad, "value_1", 1) == ["30", "40", "50", "60", "70", "80", "90", "100", "110"]
    assert grid_fu(pad, "value_1", 2)[:2] == ["25", "30"]
    assert grid_fu(pad, "value_1", 4)[-1] == "110"
    assert '<th scope="col">3飜</th>' in pad
    assert '<th scope="row">30符</th>' in pad
    # Each cell shows what Baba (not the dealer) gets for it.
    assert tap_text(pad, "value_1", "1-30") == "1飜30符 1,000"
    assert tap_text(pad, "value_1", "3-30") == "3飜30符 3,900"
    assert tap_text(pad, "value_1", "2-25") == "2飜25符 1,600"
    # The limits, and counted hands of 5-13 han as han.
    for limit in ("mangan", "haneman", "baiman", "sanbaiman", "yakuman"):
        assert f'name="value_1" value="{limit}"' in pad
    assert re.findall(r'name="value_1" value="(\d+)"', pad) == [str(h) for h in range(5, 14)]
    assert tap_text(pad, "value_1", "6") == "6飜跳満"
    assert tap_text(pad, "value_1", "13") == "13飜役満"


def test_it_shows_tsumo_payments_for_the_dealer_and_the_others(aoki, game):
    url = reverse("hand_preview", args=[game.pk])
    fields = form_fields(aoki, game)

    others = post(aoki, url, {"result": "tsumo", "winner": "1"}, fields, **HTMX).text
    dealer = post(aoki, url, {"result": "tsumo", "winner": "0"}, fields, **HTMX).text

    # A tsumo may have 20 fu (pinfu) from 2 han; 25 fu (chiitoitsu, 2 han, and menzen tsumo)
    # from 3 han.
    assert grid_fu(others, "value_1", 1)[0] == "30"
    assert grid_fu(others, "value_1", 2)[:2] == ["20", "30"]
    assert grid_fu(others, "value_1", 3)[:2] == ["20", "25"]
    assert tap_text(others, "value_1", "3-30") == "3飜30符 1,000/2,000"
    assert tap_text(others, "value_1", "2-20") == "2飜20符 400/700"
    assert tap_text(dealer, "value_0", "3-30") == "3飜30符 2,000オール"


def test_a_2_han_25_fu_tsumo_is_refused_at_the_table(aoki, game):
    """No hand is a 2-han 25-fu tsumo (chiitoitsu is 2 han, Makura 1.5
    §45c, and its tsumo adds menzen tsumo); a form that sends one records nothing."""
    fields = form_fields(aoki, game)
    taps = {"result": "tsumo", "winner": "1", "value_1": "2-25"}
    html = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields).text
    assert "このルールでは2飜のツモに25符はありません。" in html
    assert game.hands.count() == 0
    # As a ron it is a chiitoitsu of 2 han: recorded.
    taps = {"result": "ron", "loser": "2", "winners": ["1"], "value_1": "2-25"}
    post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)
    assert game.hands.get().result["deltas"] == [0, 1600, -1600, 0]


def test_it_shows_the_rulesets_own_payments_in_the_grid(client_for, players):
    # Seed 006 rounds every payment up to 1,000; three players.
    sanma = hanchan_start(ruleset_id="sanma-float", members=players[:3], played_on=DAY)
    client = client_for(players[0])
    url = reverse("hand_preview", args=[sanma.pk])
    fields = form_fields(client, sanma)

    ron = post(client, url, {"result": "ron", "loser": "2", "winners": ["1"]}, fields).text
    tsumo = post(client, url, {"result": "tsumo", "winner": "0"}, fields).text

    assert tap_text(ron, "value_1", "3-30") == "3飜30符 4,000"
    assert tap_text(tsumo, "value_0", "3-30") == "3飜30符 2,000オール"


def test_it_offers_only_han_and_limits_under_a_fixed_fu_ruleset(client_for, players):
    sanma = hanchan_start(ruleset_id="fuji-sanma", members=players[:3], played_on=DAY)
    client = client_for(players[0])
    fields = form_fields(client, sanma)

    response = post(
        client,
        reverse("hand_preview", args=[sanma.pk]),
        {"result": "tsumo", "winner": "1", "value_1": "2"},
        fields,
        **HTMX,
    )

    assert re.findall(r'name="value_1" value="(\d+)"', response.text) == [
        str(h) for h in range(1, 15)
    ]
    assert 'name="value_1" value="2-30"' not in response.text
    assert 'class="value-grid"' not in response.text
    assert checked_values(response.text, "value_1") == ["2"]
    # Every hand is 30 fu here; 13 counted han are sanbaiman, 14 a yakuman (seed 004).
    assert tap_text(response.text, "value_1", "2").startswith("2飜")
    assert tap_text(response.text, "value_1", "13") == "13飜三倍満"
    assert tap_text(response.text, "value_1", "14") == "14飜役満"
    assert "Chiba → Baba" in response.text
    assert "seats-3" in response.text


def test_it_keeps_a_stored_value_no_button_offers(aoki, game):
    """An imported 6-han hand with its fu, or 15 counted han: a correction keeps them."""
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])

    with_fu = post(aoki, url, {**RON, "value_1": "6-40"}, fields, **HTMX).text
    fifteen = post(aoki, url, {**RON, "value_1": "15"}, fields, **HTMX).text
    no_fu = post(aoki, url, {**RON, "value_1": "3"}, fields, **HTMX).text

    assert checked_values(with_fu, "value_1") == ["6-40"]
    assert "Chiba → Baba" in with_fu
    assert checked_values(fifteen, "value_1") == ["15"]
    assert "32,000" in fifteen
    # Below 5 han the fu is needed: "3" alone is no choice.
    assert "Chiba → Baba" not in no_fu
    assert "errorlist" in fieldset_with(no_fu, "value_1")


def test_it_limits_the_yakuman_multiple_to_the_rulesets_cap(aoki, game):
    fields = form_fields(aoki, game)

    response = post(
        aoki,
        reverse("hand_preview", args=[game.pk]),
        {"result": "tsumo", "winner": "0", "value_0": "yakuman"},
        fields,
        **HTMX,
    )

    assert re.findall(r'name="yakuman_0" value="(\d)"', response.text) == ["1", "2", "3"]
    assert "16,000" in response.text


def test_it_hides_extras_the_ruleset_does_not_have(client_for, players):
    # Tenhou has nagashi, but no open riichi, no kara penalty and no rinshan liability.
    tenhou = hanchan_start(ruleset_id="tenhou-4p", members=players, played_on=DAY)
    client = client_for(players[0])
    fields = form_fields(client, tenhou)

    response = post(
        client, reverse("hand_preview", args=[tenhou.pk]), {"result": "draw"}, fields, **HTMX
    )

    assert 'name="tenpai"' in response.text
    assert 'name="nagashi"' in response.text  # Tenhou has nagashi mangan
    assert 'name="open_riichi"' not in response.text
    assert 'name="penalty_kara"' not in response.text
    assert 'name="rinshan_from"' not in response.text
    assert 'name="dealer_stops"' not in response.text


# Confirming


def test_it_records_a_hand_and_redirects_to_the_table(aoki, game):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_create", args=[game.pk]), RON, fields)

    assertRedirects(response, table_url(game), fetch_redirect_response=False)
    entry = game.hands.get()
    assert entry.data == {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]}
    assert entry.entered_by == game.seats.get(index=0).member
    page = aoki.get(table_url(game)).text
    assert "記録しました: ロン Baba←Chiba 3飜30符 3,900" in page
    assert '<span class="seat-score">28,900</span>' in page
    assert '<span class="seat-score">21,100</span>' in page
    assert "ロン Baba←Chiba 3飜30符 3,900" in re.search(r'id="hand-list".*', page, re.DOTALL)[0]


def test_it_records_a_hand_from_htmx_and_updates_every_region(aoki, game):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_create", args=[game.pk]), RON, fields, **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assert game.hands.count() == 1
    html = response.text
    # A fresh, empty form for the next hand, with a new request id and the new version.
    assert hidden(html, "request_id") != fields["request_id"]
    assert hidden(html, "version") == str(Hanchan.objects.get(pk=game.pk).version)
    assert checked_values(html, "result") == []
    assertContains(response, 'id="table-status" class="table-status" hx-swap-oob="true"')
    assertContains(response, 'id="hand-list" class="hand-list" hx-swap-oob="true"')
    assertContains(response, 'id="game-actions" class="game-actions" hx-swap-oob="true"')
    assertContains(response, '<span class="seat-score">28,900</span>')
    assertContains(response, "ロン Baba←Chiba 3飜30符 3,900")
    assertContains(response, '<p class="notice success" role="status">記録しました: ロン')


def test_it_records_a_double_submit_once(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_create", args=[game.pk])

    first = post(aoki, url, RON, fields)
    second = post(aoki, url, RON, fields)

    assertRedirects(first, table_url(game))
    assertRedirects(second, table_url(game))
    assert game.hands.count() == 1
    assert '<span class="seat-score">28,900</span>' in aoki.get(table_url(game)).text


def test_it_refuses_a_second_phone_with_the_current_table(aoki, client_for, other_member, game):
    first_phone = form_fields(aoki, game)
    second = client_for(other_member)
    second_phone = form_fields(second, game)
    post(aoki, reverse("hand_create", args=[game.pk]), RON, first_phone)
    before = state(game)

    response = post(second, reverse("hand_create", args=[game.pk]), MANGAN_TSUMO, second_phone)

    assert response.status_code == 200
    assertContains(response, "この局はすでに別の端末から入力されています。")
    assertContains(response, '<span class="seat-score">28,900</span>')
    assertContains(response, "ロン Baba←Chiba 3飜30符 3,900")
    assert state(game) == before
    # The form it shows is for the current version: entering again now works.
    assert hidden(response.text, "version") == str(before[1])


def test_it_refuses_a_second_phone_in_the_htmx_fragment(aoki, client_for, other_member, game):
    second = client_for(other_member)
    second_phone = form_fields(second, game)
    post(aoki, reverse("hand_create", args=[game.pk]), RON, form_fields(aoki, game))
    before = state(game)

    for url in (reverse("hand_preview", args=[game.pk]), reverse("hand_create", args=[game.pk])):
        response = post(second, url, MANGAN_TSUMO, second_phone, **HTMX)

        assert response.status_code == 200
        assertNotContains(response, "<html")
        assertContains(response, '<p class="notice" role="alert">この局はすでに別の端末から')
        assertContains(response, 'hx-swap-oob="true"')
        assertContains(response, '<span class="seat-score">28,900</span>')
    assert state(game) == before


@pytest.mark.parametrize("htmx", [{}, HTMX])
def test_it_shows_a_forbidden_fu_next_to_the_fu_and_writes_nothing(aoki, game, htmx):
    fields = form_fields(aoki, game)
    one_han_25_fu = {**RON, "value_1": "1-25"}

    response = post(aoki, reverse("hand_create", args=[game.pk]), one_han_25_fu, fields, **htmx)

    assert response.status_code == 200
    assert ("<html" in response.text) is not bool(htmx)
    value_pad = fieldset_with(response.text, "value_1")
    assert "errorlist" in value_pad
    assert "このルールでは1飜のロンに25符はありません。" in value_pad
    assert checked_values(response.text, "value_1") == ["1-25"]
    assert state(game) == (0, 0)


def test_it_forbids_20_fu_on_a_tsumo_where_the_ruleset_has_no_pinfu_tsumo(client_for, players):
    home = hanchan_start(ruleset_id="home-nashinashi", members=players, played_on=DAY)
    client = client_for(players[0])
    fields = form_fields(client, home)
    tsumo = {"result": "tsumo", "winner": "0", "value_0": "2-20"}

    response = post(client, reverse("hand_create", args=[home.pk]), tsumo, fields)

    assert response.status_code == 200
    assert "このルールでは2飜のツモに20符はありません。" in fieldset_with(response.text, "value_0")
    assert state(home) == (0, 0)


def test_it_shows_an_engine_refusal_next_to_its_field(client_for, players):
    strict = hanchan_start(
        ruleset_id="makura-1.5",
        members=players,
        played_on=DAY,
        overrides={"riichi_min_score": 30000},
    )
    client = client_for(players[0])
    fields = form_fields(client, strict)

    response = post(
        client, reverse("hand_create", args=[strict.pk]), {**RON, "riichi": ["0"]}, fields
    )

    assert response.status_code == 200
    riichi = fieldset_with(response.text, "riichi")
    assert "errorlist" in riichi
    assert "持ち点が足りずリーチできません（30,000点以上必要です）。" in riichi
    assert state(strict) == (0, 0)


def test_it_asks_for_missing_taps_next_to_their_fields_on_confirm(aoki, game):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_create", args=[game.pk]), {"result": "ron"}, fields)

    assert response.status_code == 200
    assert "放銃者を選んでください。" in fieldset_with(response.text, "loser")
    assert "和了者を選んでください。" in fieldset_with(response.text, "winners")
    assert state(game) == (0, 0)


def test_it_refuses_a_discarder_who_also_wins(aoki, game):
    fields = form_fields(aoki, game)

    response = post(
        aoki, reverse("hand_create", args=[game.pk]), {**RON, "loser": "1"}, fields, **HTMX
    )

    assert "放銃者は和了者になれません。" in fieldset_with(response.text, "loser")
    assert state(game) == (0, 0)


# How many taps


def test_it_records_a_mangan_tsumo_in_four_taps(aoki, game):
    """Outcome, winner, mangan, confirm: nothing else is needed (no riichi, nothing "more")."""
    fields = form_fields(aoki, game)
    taps = {"result": "tsumo", "winner": "0", "value_0": "mangan", "confirm": "1"}
    assert len(taps) == 4

    # Every tap is on a button the screen shows after the taps before it.
    seen = aoki.get(table_url(game)).text
    assert 'name="result" value="tsumo"' in seen
    seen = post(aoki, reverse("hand_preview", args=[game.pk]), {"result": "tsumo"}, fields).text
    assert 'name="winner" value="0"' in seen
    seen = post(aoki, reverse("hand_preview", args=[game.pk]), dict(list(taps.items())[:2]), fields)
    assert 'name="value_0" value="mangan"' in seen.text
    seen = post(aoki, reverse("hand_preview", args=[game.pk]), dict(list(taps.items())[:3]), fields)
    assert 'name="confirm"' in seen.text
    assert "Baba → Aoki" in seen.text

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    assert game.hands.get().data == {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}]}
    assert "ツモ Aoki 満貫 4,000オール" in aoki.get(table_url(game)).text


def test_it_records_a_han_and_fu_ron_in_five_taps(aoki, game):
    """Outcome, discarder, winner, one tap on the han x fu grid, confirm."""
    fields = form_fields(aoki, game)
    taps = {"result": "ron", "loser": "3", "winners": "1", "value_1": "3-30", "confirm": "1"}
    assert len(taps) == 5
    preview = reverse("hand_preview", args=[game.pk])

    # Every tap is on a button the screen shows after the taps before it.
    seen = aoki.get(table_url(game)).text
    assert 'name="result" value="ron"' in seen
    for shown, button in enumerate(["loser", "winners", "value_1", "confirm"], start=1):
        seen = post(aoki, preview, dict(list(taps.items())[:shown]), fields).text
        assert f'name="{button}"' in seen
        if button != "confirm":
            assert f'name="{button}" value="{taps[button]}"' in seen
    assert "Doi → Baba" in seen

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    entry = game.hands.get()
    assert entry.data == {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 1, "han": 3, "fu": 30}],
    }
    assert entry.result["deltas"] == [0, 3900, 0, -3900]


def test_it_records_a_limit_ron_in_five_taps(aoki, game):
    fields = form_fields(aoki, game)
    taps = {"result": "ron", "loser": "3", "winners": "1", "value_1": "mangan", "confirm": "1"}
    assert len(taps) == 5

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    entry = game.hands.get()
    assert entry.data == {"result": "ron", "loser": 3, "wins": [{"winner": 1, "limit": "mangan"}]}
    assert entry.result["deltas"] == [0, 8000, 0, -8000]


def test_it_records_a_counted_hand_as_han(client_for, players):
    # Seed 004: 13 counted han are a sanbaiman, and the record keeps the 13 han.
    sanma = hanchan_start(ruleset_id="fuji-sanma", members=players[:3], played_on=DAY)
    client = client_for(players[0])
    taps = {"result": "ron", "loser": "2", "winners": ["1"], "value_1": "13"}

    response = post(
        client, reverse("hand_create", args=[sanma.pk]), taps, form_fields(client, sanma)
    )

    assertRedirects(response, table_url(sanma))
    entry = sanma.hands.get()
    assert entry.data == {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 13}]}
    assert entry.result["deltas"][1] == 24000


@pytest.mark.parametrize("left_out", ["result", "winner", "value_0"])
def test_it_needs_every_one_of_the_four_taps(aoki, game, left_out):
    fields = form_fields(aoki, game)
    taps = {"result": "tsumo", "winner": "0", "value_0": "mangan", "confirm": "1"}
    del taps[left_out]

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assert response.status_code == 200
    assert state(game) == (0, 0)


# Every kind of hand through the form


@pytest.mark.parametrize(
    ("taps", "stored", "deltas"),
    [
        (
            {"result": "draw", "tenpai": ["0", "3"], "riichi": ["3"]},
            {"result": "draw", "tenpai": [0, 3], "riichi": [3]},
            [1500, -1500, -1500, 500],
        ),
        (
            {"result": "abort", "kind": "kyuushu_kyuuhai"},
            {"result": "abort", "kind": "kyuushu_kyuuhai"},
            [0, 0, 0, 0],
        ),
        ({"result": "chombo", "offender": "2"}, {"result": "chombo", "offender": 2}, None),
        (
            {"result": "ron", "loser": "0", "winners": ["1", "3"], "value_1": "mangan"}
            | {"value_3": "2-25"},
            {
                "result": "ron",
                "loser": 0,
                "wins": [{"winner": 1, "limit": "mangan"}, {"winner": 3, "han": 2, "fu": 25}],
            },
            [-9600, 8000, 0, 1600],
        ),
        (
            {"result": "tsumo", "winner": "2", "value_2": "yakuman", "yakuman_2": "2"}
            | {"pao_2": "1", "open_riichi": ["0"]},
            {
                "result": "tsumo",
                "wins": [{"winner": 2, "limit": "yakuman", "yakuman": 2, "pao": 1}],
                "riichi": [0],
                "open_riichi": [0],
            },
            [-1000, -64000, 65000, 0],
        ),
        (
            {"result": "draw", "nagashi": ["1"], "penalty_kara": ["2"]},
            {"result": "draw", "nagashi": [1], "penalties": [{"seat": 2, "kind": "kara"}]},
            [-4000, 9000, -3000, -2000],
        ),
    ],
    ids=["draw-riichi", "abort", "chombo", "double-ron", "pao-open-riichi", "nagashi-kara"],
)
def test_it_records_every_kind_of_hand(aoki, game, taps, stored, deltas):
    fields = form_fields(aoki, game)

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    entry = game.hands.get()
    assert entry.data == stored
    if deltas is not None:
        assert entry.result["deltas"] == deltas


def test_it_carries_riichi_deposits_over_a_draw(aoki, game):
    draw = {"result": "draw", "tenpai": ["0", "3"], "riichi": ["3"]}
    post(aoki, reverse("hand_create", args=[game.pk]), draw, form_fields(aoki, game))

    page = aoki.get(table_url(game)).text

    assert '<span class="round">東1局</span>' in page
    assert '<span class="honba">1本場</span>' in page
    assert "供託 <b>1,000</b>" in page
    preview = post(
        aoki, reverse("hand_preview", args=[game.pk]), RON, form_fields(aoki, game), **HTMX
    ).text
    assert "卓 → Baba" in preview
    assert "+5,200" in preview  # 3,900 + 300 honba + 1,000 deposits


def test_it_ends_the_game_and_shows_the_end_screen(aoki, game):
    # Chiba deals in a triple yakuman: 96,000 puts him far below zero (tobi).
    fields = form_fields(aoki, game)
    taps = {"result": "ron", "loser": "2", "winners": ["1"], "value_1": "yakuman"}
    taps |= {"yakuman_1": "3"}
    preview = post(aoki, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text
    assert "対局終了: トビ終了" in preview

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    page = aoki.get(table_url(game)).text
    assert 'id="hand-form"' not in page
    assert "トビ終了" in page
    assert "最終結果" in page


def test_it_offers_the_dealer_stop_at_all_last_only(aoki, game):
    fields = form_fields(aoki, game)
    preview = post(aoki, reverse("hand_preview", args=[game.pk]), MANGAN_TSUMO, fields).text
    assert 'name="dealer_stops"' not in preview
    for _ in range(7):  # seven draws with the dealer noten: South 4
        game.refresh_from_db()
        hand_record(
            hanchan_id=game.pk,
            hand={"result": "draw", "tenpai": []},
            expected_version=game.version,
            request_id=uuid.uuid4(),
        )
    game.refresh_from_db()
    assert game.state["table"]["round"] == "S4"
    fields = form_fields(aoki, game)
    taps = {"result": "tsumo", "winner": "3", "value_3": "mangan", "dealer_stops": "on"}

    preview = post(aoki, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text
    assert 'name="dealer_stops"' in preview
    assert "対局終了: アガリやめ" in preview
    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, fields)

    assertRedirects(response, table_url(game))
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    assert game.ended_by == "agari_yame"
    assert "アガリやめ" in aoki.get(table_url(game)).text


def test_it_explains_a_refused_dealer_stop_next_to_it_in_japanese(aoki, game):
    for _ in range(7):  # South 4
        game.refresh_from_db()
        hand_record(
            hanchan_id=game.pk,
            hand={"result": "draw", "tenpai": []},
            expected_version=game.version,
            request_id=uuid.uuid4(),
        )
    game.refresh_from_db()
    # Baba's tsumo: Doi, the dealer, did not keep the deal and cannot stop.
    taps = {"result": "tsumo", "winner": "1", "value_1": "mangan", "dealer_stops": "on"}

    response = post(aoki, reverse("hand_create", args=[game.pk]), taps, form_fields(aoki, game))

    assert response.status_code == 200
    step = fieldset_with(response.text, "dealer_stops")
    assert "親が対局を終了できるのは、アガリかテンパイで連荘するときだけです。" in step
    assert "keeping the deal" not in response.text
    assert state(game) == (7, 7)


# Engine refusals in the reader's language


def refusal(ruleset: Ruleset, before: list[dict[str, Any]], hand: dict[str, Any]) -> RecordError:
    """What the engine says to ``hand`` after the hands ``before``."""
    played = Game(ruleset)
    for index, earlier in enumerate(before):
        played.play(parse_hand(earlier, ruleset.players, index))
    with pytest.raises(RecordError) as error:
        played.play(parse_hand(hand, ruleset.players, len(before)))
    return error.value


def ron(**win: Any) -> dict[str, Any]:
    return {"result": "ron", "loser": 2, "wins": [{"winner": 1, **win}]}


TOBI = ron(limit="yakuman", yakuman=3)
TRIPLE_RON = {
    "result": "ron",
    "loser": 0,
    "wins": [{"winner": s, "limit": "mangan"} for s in (1, 2, 3)],
}
NO_SUCH_FU = "この符はこのルールでは使えません。"
FIVE_HONBA = [{"result": "draw", "tenpai": [0]}] * 5
TO_SOUTH_4 = [{"result": "draw", "tenpai": []}] * 7  # the dealer noten each time
# Seven draws do not reach South 4 under seed 003; seven small rons by the next seat do.
SMALL_RONS_TO_SOUTH_4 = [
    {"result": "ron", "loser": (d + 2) % 4, "wins": [{"winner": (d + 1) % 4, "han": 2, "fu": 30}]}
    for d in (0, 1, 2, 3, 0, 1, 2)
]


@pytest.mark.parametrize(
    ("ruleset_id", "overrides", "before", "hand", "key", "japanese"),
    [
        ("makura-1.5", {}, [TOBI], ron(han=1, fu=30), "result", "この対局は終了しています。"),
        ("makura-1.5", {"riichi_min_score": 30000}, [], {**ron(limit="mangan"), "riichi": [0]},
         "riichi", "持ち点が足りずリーチできません（30,000点以上必要です）。"),
        ("tenhou-4p", {}, [], {"result": "draw", "riichi": [0], "open_riichi": [0]},
         "open_riichi", "このルールにはオープンリーチはありません。"),
        ("makura-1.5", {}, [], ron(han=1, fu=25), "wins[0].fu", NO_SUCH_FU),
        ("fuji-sanma", {}, [], ron(han=2, fu=40), "wins[0].fu", NO_SUCH_FU),
        ("makura-1.5", {}, [], ron(han=2, fu=30, rinshan_from=3), "wins[0].rinshan_from", None),
        ("home-nashinashi", {}, FIVE_HONBA, ron(han=1, fu=30), "wins[0].han",
         "5本場からは2飜縛りです。"),
        ("fuji-sanma", {}, [], ron(limit="yakuman", pao=0), "wins[0].pao",
         "このルールには包（役満の責任払い）はありません。"),
        ("makura-1.5", {}, [], ron(limit="mangan", chips=1), "wins[0].chips",
         "このルールにはチップはありません。"),
        ("makura-1.5", {"multi_ron_max": 1}, [],
         {"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "mangan"},
                                                 {"winner": 2, "limit": "mangan"}]},
         "wins", "このルールでは、1枚の捨て牌で和了できるのは1人までです。"),
        ("tenhou-4p", {}, [], TRIPLE_RON, "wins",
         "このルールではトリプルロンは途中流局（三家和）です。"),
        ("makura-1.5", {}, [], {"result": "abort", "kind": "sancha_ron"}, "kind",
         "このルールにはその途中流局はありません。"),
        ("tenhou-4p", {}, [], {"result": "draw", "penalties": [{"seat": 1, "kind": "kara"}]},
         "penalties[0].kind", "このルールにはその罰符はありません。"),
        ("makura-1.5", {"nagashi": "none"}, [], {"result": "draw", "nagashi": [1]}, "nagashi",
         "このルールには流し満貫はありません。"),
        ("makura-1.5", {}, [], {"result": "draw", "tenpai": [0], "dealer_stops": True},
         "dealer_stops", "対局を終了できるのはオーラスの親だけです。"),
        ("tenhou-4p", {}, TO_SOUTH_4,
         {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}], "dealer_stops": True},
         "dealer_stops", "このルールにはアガリやめはありません。"),
        ("makura-1.5", {}, TO_SOUTH_4, {"result": "draw", "tenpai": [3], "dealer_stops": True},
         "dealer_stops", "このルールにはテンパイやめはありません。"),
        ("home-nashinashi", {}, SMALL_RONS_TO_SOUTH_4,
         {"result": "tsumo", "wins": [{"winner": 3, "han": 1, "fu": 30}], "dealer_stops": True},
         "dealer_stops", "まだ誰も30,000点に届いていないため、対局は続きます。"),
    ],
)  # fmt: skip
def test_it_translates_each_engine_refusal(ruleset_id, overrides, before, hand, key, japanese):
    ruleset = apply_overrides(load_ruleset(ruleset_id), overrides)
    error = refusal(ruleset, before, hand)
    assert error.key == key

    with translation.override("ja"):
        text = refusal_message(error, ruleset)
    with translation.override("en"):
        english = refusal_message(error, ruleset)

    if japanese is None:  # a refusal no form sends: the engine's English, introduced
        assert text == f"このルールではできません: {error.message}"
    else:
        assert japanese in text
        assert not re.search(r"[A-Za-z]", text)
        assert "Not possible under these rules" not in english


# Who may enter


@pytest.mark.parametrize("name", ["hand_create", "hand_preview"])
def test_it_refuses_a_member_who_is_not_at_the_table(client_for, outsider, game, name):
    client = client_for(outsider)
    page = client.get(table_url(game)).text
    assert 'id="hand-form"' not in page
    token = hidden(page, "csrfmiddlewaretoken")
    data = {**MANGAN_TSUMO, "csrfmiddlewaretoken": token, "version": "0"}
    data["request_id"] = str(uuid.uuid4())

    page_response = client.post(reverse(name, args=[game.pk]), data)
    fragment_response = client.post(reverse(name, args=[game.pk]), data, **HTMX)

    assert page_response.status_code == 403
    assert fragment_response.status_code == 403
    assert state(game) == (0, 0)


@pytest.mark.parametrize("name", ["hand_create", "hand_preview"])
def test_it_sends_an_anonymous_visitor_to_the_login_page(client, game, name):
    url = reverse(name, args=[game.pk])

    response = client.post(url, {**MANGAN_TSUMO, "version": "0"})

    assertRedirects(response, f"{reverse('login')}?next={url}")
    assert state(game) == (0, 0)


def test_it_enforces_csrf_on_hand_entry(aoki, game):
    fields = form_fields(aoki, game)
    del fields["csrfmiddlewaretoken"]

    response = post(aoki, reverse("hand_create", args=[game.pk]), MANGAN_TSUMO, fields)

    assert response.status_code == 403
    assert state(game) == (0, 0)


def test_it_lets_staff_without_a_profile_enter_a_hand(client, staff, game):
    client.force_login(staff)
    fields = form_fields(client, game)

    response = post(client, reverse("hand_create", args=[game.pk]), MANGAN_TSUMO, fields)

    assertRedirects(response, table_url(game))
    assert game.hands.get().entered_by is None


def test_it_refuses_a_hand_after_the_game_is_over(aoki, game):
    fields = form_fields(aoki, game)
    tobi = {"result": "ron", "loser": "2", "winners": ["1"], "value_1": "yakuman", "yakuman_1": "3"}
    post(aoki, reverse("hand_create", args=[game.pk]), tobi, fields)
    before = state(game)

    late = {**fields, "request_id": str(uuid.uuid4()), "version": str(before[1])}
    response = post(aoki, reverse("hand_create", args=[game.pk]), MANGAN_TSUMO, late)

    assert response.status_code == 200
    assertContains(response, "この対局は終了しています。")
    assert state(game) == before


# Corrections


@pytest.fixture
def played(aoki: Client, game: Hanchan) -> Hanchan:
    """Two hands: Baba rons Chiba for 3,900 (East 1), then Chiba's mangan tsumo (East 2)."""
    for hand in (
        {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]},
        {"result": "tsumo", "wins": [{"winner": 2, "limit": "mangan"}]},
    ):
        game.refresh_from_db()
        hand_record(
            hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
        )
    game.refresh_from_db()
    return game


def test_it_opens_a_hand_for_correction_filled_in_as_stored(aoki, played):
    url = reverse("hand_edit", args=[played.pk, 1])

    page = aoki.get(url)
    fragment = aoki.get(url, **HTMX)

    for response in (page, fragment):
        assert response.status_code == 200
        html = response.text
        assert checked_values(html, "result") == ["ron"]
        assert checked_values(html, "loser") == ["2"]
        assert checked_values(html, "winners") == ["1"]
        assert checked_values(html, "value_1") == ["3-30"]
        assert "1局目を訂正" in html
        assert f'action="{url}"' in html
        assert "Chiba → Baba" in html
    assertContains(page, "<html")
    assertNotContains(fragment, "<html")


@pytest.mark.parametrize("htmx", [{}, HTMX])
def test_it_corrects_a_hand_and_recomputes_the_rest(aoki, played, htmx):
    url = reverse("hand_edit", args=[played.pk, 1])
    html = aoki.get(url).text
    data = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        **RON,
        "value_1": "3-40",
    }

    response = aoki.post(url, data, **htmx)

    if htmx:
        assert response.status_code == 200
        assertNotContains(response, "<html")
        assertContains(response, "1局目を訂正しました。")
        assertContains(response, 'hx-swap-oob="true"')
    else:
        assertRedirects(response, table_url(played))
    first, second = played.hands.order_by("sequence")
    assert first.data["wins"] == [{"winner": 1, "han": 3, "fu": 40}]
    assert first.result["deltas"] == [0, 5200, -5200, 0]
    assert second.result["scores"] == [23000, 26200, 27800, 23000]
    page = aoki.get(table_url(played)).text
    assert "ロン Baba←Chiba 3飜40符 5,200" in page
    assert '<span class="seat-score">27,800</span>' in page


def test_it_refuses_a_correction_that_makes_a_later_hand_impossible(aoki, played):
    url = reverse("hand_edit", args=[played.pk, 1])
    html = aoki.get(url).text
    before = state(played)
    # A triple yakuman would bust Chiba: the game would end before hand 2.
    data = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        **RON,
        "value_1": "yakuman",
        "yakuman_1": "3",
    }

    response = aoki.post(url, data)

    assert response.status_code == 200
    assertContains(response, "この訂正をすると2局目が成り立ちません")
    assert checked_values(response.text, "value_1") == ["yakuman"]
    assert state(played) == before
    assert played.hands.order_by("sequence")[0].data["wins"][0]["han"] == 3


def test_it_previews_a_correction_without_writing(aoki, played):
    url = reverse("hand_edit", args=[played.pk, 1])
    html = aoki.get(url).text
    before = state(played)
    data = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        **RON,
        "loser": "3",
    }

    response = aoki.post(reverse("hand_edit_preview", args=[played.pk, 1]), data, **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, "Doi → Baba")
    assert state(played) == before


def test_it_takes_a_resent_correction_as_done(aoki, played):
    url = reverse("hand_edit", args=[played.pk, 1])
    html = aoki.get(url).text
    data = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        **RON,
        "value_1": "3-40",
    }

    first = aoki.post(url, data)
    second = aoki.post(url, data)

    assertRedirects(first, table_url(played))
    assertRedirects(second, table_url(played))
    assert played.changes.filter(action="corrected").count() == 1


def test_it_refuses_a_correction_from_a_stale_page(aoki, played):
    url = reverse("hand_edit", args=[played.pk, 1])
    html = aoki.get(url).text
    played.refresh_from_db()
    hand_record(
        hanchan_id=played.pk,
        hand={"result": "draw", "tenpai": []},
        expected_version=played.version,
        request_id=uuid.uuid4(),
    )
    before = state(played)
    data = {
        "csrfmiddlewaretoken": hidden(html, "csrfmiddlewaretoken"),
        "version": hidden(html, "version"),
        **RON,
        "value_1": "3-40",
    }

    response = aoki.post(url, data)

    assert response.status_code == 200
    assertContains(response, "この局はすでに別の端末から入力されています。")
    assert state(played) == before


def test_it_refuses_corrections_by_a_member_not_at_the_table(client_for, outsider, played):
    client = client_for(outsider)
    token = hidden(client.get(table_url(played)).text, "csrfmiddlewaretoken")
    url = reverse("hand_edit", args=[played.pk, 1])
    before = state(played)
    data = {"csrfmiddlewaretoken": token, "version": str(before[1]), **RON, "value_1": "3-40"}

    assert client.get(url).status_code == 403
    assert client.get(url, **HTMX).status_code == 403
    assert client.post(url, data).status_code == 403
    assert client.post(reverse("hand_edit_preview", args=[played.pk, 1]), data).status_code == 403
    assert state(played) == before
    assert HandEntry.objects.get(hanchan=played, sequence=0).data["wins"][0]["fu"] == 30


def test_it_gives_404_for_a_hand_that_does_not_exist(aoki, played):
    assert aoki.get(reverse("hand_edit", args=[played.pk, 3])).status_code == 404
    assert aoki.get(reverse("hand_edit", args=[played.pk, 0])).status_code == 404


def test_it_offers_only_the_abortive_draws_the_ruleset_has(aoki, client_for, players, game):
    fields = form_fields(aoki, game)
    makura = post(
        aoki, reverse("hand_preview", args=[game.pk]), {"result": "abort"}, fields, **HTMX
    ).text
    assert re.findall(r'name="kind" value="(\w+)"', makura) == [
        "suufon_renda",
        "kyuushu_kyuuhai",
        "suucha_riichi",
        "suukaikan",
    ]
    assert "九種九牌" in makura
    # Seed 004 has no abortive draws at all: no button for them.
    sanma = hanchan_start(ruleset_id="fuji-sanma", members=players[:3], played_on=DAY)
    page = client_for(players[0]).get(table_url(sanma)).text
    assert 'name="result" value="tsumo"' in page
    assert 'name="result" value="abort"' not in page


def test_it_records_chips_and_the_kan_feeders_liability(client_for, players):
    home = hanchan_start(ruleset_id="home-nashinashi", members=players, played_on=DAY)
    client = client_for(players[0])
    fields = form_fields(client, home)
    taps = {
        "result": "tsumo",
        "winner": "1",
        "value_1": "mangan",
        "rinshan_from": "3",
        "chips_1": "2",
    }

    preview = post(client, reverse("hand_preview", args=[home.pk]), taps, fields, **HTMX).text
    assert 'name="chips_1"' in preview
    assert '<details class="more" open>' in preview
    assert "Doi → Baba" in preview
    assert "責任払い（嶺上開花）" in preview
    response = post(client, reverse("hand_create", args=[home.pk]), taps, fields)

    assertRedirects(response, table_url(home))
    entry = home.hands.get()
    assert entry.data == {
        "result": "tsumo",
        "wins": [{"winner": 1, "limit": "mangan", "rinshan_from": 3, "chips": 2}],
    }
    assert entry.result["deltas"] == [0, 8000, 0, -8000]
    assert entry.result["chips"] == [0, 2, 0, -2]


def test_it_enters_a_hand_in_a_constant_number_of_queries(aoki, game):
    """At most 15 queries per hand entry (session and savepoints included), however many
    hands the game already has."""
    counts = []
    for hands_before in (0, 6):
        for _ in range(hands_before - game.hands.count()):
            record_draw = {"result": "draw", "tenpai": [0]}
            game.refresh_from_db()
            hand_record(
                hanchan_id=game.pk,
                hand=record_draw,
                expected_version=game.version,
                request_id=uuid.uuid4(),
            )
        fields = form_fields(aoki, game)
        with CaptureQueriesContext(connection) as entry:
            post(aoki, reverse("hand_create", args=[game.pk]), RON, fields)
        with CaptureQueriesContext(connection) as table:
            aoki.get(table_url(game))
        counts.append((len(entry), len(table)))

    assert counts[0] == counts[1]
    assert counts[0][0] <= 15
    assert counts[0][1] <= 15


# What follows the hand


def preview_of(html: str) -> str:
    return re.search(r'id="hand-preview".*', html, re.DOTALL).group(0)


def test_the_preview_says_who_deals_next(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])
    # Baba (South) rons: the deal passes to Baba, East 2, no honba.
    passes = preview_of(post(aoki, url, RON, fields, **HTMX).text)
    assert re.search(r"次: <b>東2局 0本場</b>,\s*親はBaba", passes)
    # Aoki, the dealer, rons instead: Aoki deals again, East 1 with one honba (renchan).
    dealer = {"result": "ron", "loser": "2", "winners": ["0"], "value_0": "3-30"}
    stays = preview_of(post(aoki, url, dealer, fields, **HTMX).text)
    assert re.search(r"次: <b>東1局 1本場</b>,\s*Aokiの連荘", stays)
    assert 'id="preview-final"' not in stays


def test_the_preview_of_a_last_hand_shows_the_settlement(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])
    # The dealer's yakuman ron takes 48,000 from Chiba: a bust ends the game (Makura 1.5 §7).
    bust = {"result": "ron", "loser": "2", "winners": ["0"], "value_0": "yakuman"}
    html = preview_of(post(aoki, url, bust, fields, **HTMX).text)
    assert 'id="preview-next"' not in html
    final = re.search(r'id="preview-final".*?</table>', html, re.DOTALL).group(0)
    names = re.findall(r'<th scope="row">(\w+)</th>', final)
    assert names[0] == "Aoki" and names[-1] == "Chiba"
    assert "73,000" in final
    assert state(game) == (0, 0)


# A noten riichi at a draw

NOTEN_RIICHI = {"result": "draw", "tenpai": ["1"], "riichi": ["0"]}


def test_a_noten_riichi_is_flagged_and_entered_as_its_chombo_in_one_tap(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])
    html = post(aoki, url, NOTEN_RIICHI, fields, **HTMX).text
    warning = re.search(r'id="noten-riichi".*?</div>', html, re.DOTALL).group(0)
    # The clause in the reader's language.
    assert "Aoki" in warning and "枕倶楽部 標準ルール v1.5 §27・§33e" in warning
    assert "Makura" not in warning
    english = post(aoki, url, NOTEN_RIICHI, fields, **HMX_EN).text
    warning_en = re.search(r'id="noten-riichi".*?</div>', english, re.DOTALL).group(0)
    assert "(Makura 1.5 §27, §33e)" in warning_en
    assert 'form="noten-chombo-0"' in warning
    offer = re.search(r'<form id="noten-chombo-0".*?</form>', html, re.DOTALL).group(0)
    sent = dict(re.findall(r'name="(\w+)" value="([^"]*)"', offer))
    assert sent["result"] == "chombo" and sent["offender"] == "0" and sent["riichi"] == "0"
    assert sent["request_id"] == fields["request_id"] and sent["version"] == fields["version"]

    # The tap: the same hand previewed as Aoki's chombo (the dealer pays 4,000 all, §35).
    chombo = post(aoki, url, {"result": "chombo", "offender": "0", "riichi": ["0"]}, fields)
    preview = preview_of(chombo.text)
    assert 'id="noten-riichi"' not in chombo.text
    assert checked_values(chombo.text, "result") == ["chombo"]
    assert "Aoki → Baba" in preview and "4,000" in preview
    assert state(game) == (0, 0)


def test_a_noten_riichi_is_only_noten_where_the_rules_have_no_such_chombo(client_for, players):
    # The FUJI club's rules do not list noten riichi as a chombo (docs/rules-spec.md F-20).
    sanma = hanchan_start(ruleset_id="fuji-sanma", members=players[:3], played_on=DAY)
    client = client_for(players[0])
    fields = form_fields(client, sanma)
    html = post(client, reverse("hand_preview", args=[sanma.pk]), NOTEN_RIICHI, fields, **HTMX).text
    warning = re.search(r'id="noten-riichi".*?</div>', html, re.DOTALL).group(0)
    assert "Aoki" in warning and "noten-chombo" not in html


# A preview costs the same at hand 30 as at hand 2


def game_with_hands(players: list[Member], hands: int) -> Hanchan:
    import random

    from scoring.ledger import hanchan_import
    from scoring.upkeep.sample_games import sample_hands

    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": sample_hands(random.Random(hands), "makura-1.5", in_play_after=hands),
    }
    return hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )


def test_a_preview_reads_and_sends_the_same_at_any_hand(aoki, players):
    measured = []
    for hands in (1, 9):
        game = game_with_hands(players, hands)
        assert game.hands.count() == hands and game.status == Hanchan.Status.IN_PLAY
        fields = form_fields(aoki, game)
        url = reverse("hand_preview", args=[game.pk])
        with CaptureQueriesContext(connection) as queries:
            response = post(aoki, url, {"result": "draw"}, fields, **HTMX)
        assert 'id="hand-entry"' in response.text and 'id="hand-list"' not in response.text
        measured.append((len(queries), len(response.content)))
    (few_queries, few_bytes), (many_queries, many_bytes) = measured
    assert few_queries == many_queries
    assert abs(few_bytes - many_bytes) < 200  # the same form; only names and numbers differ


def test_a_recorded_hand_sends_its_own_row_and_not_the_whole_list(aoki, players):
    """The answer to a confirm holds the new hand's row, out of band at the
    top of the list, and the one new line of the history, not every hand again; the chart is
    drawn again only when it is scrolled to. Its size and its queries do not grow with the
    game."""
    sizes, counts = [], []
    for hands in (1, 9):
        game = game_with_hands(players, hands)
        fields = form_fields(aoki, game)
        everyone_tenpai = {"result": "draw", "tenpai": ["0", "1", "2", "3"]}
        with CaptureQueriesContext(connection) as queries:
            response = post(
                aoki, reverse("hand_create", args=[game.pk]), everyone_tenpai, fields, **HTMX
            )
        assert response.status_code == 200
        html = response.text
        assert f'id="hand-{hands + 1}"' in html
        assert f'id="hand-{hands}"' not in html  # the earlier rows stay on the page as they are
        assert 'hx-swap-oob="afterbegin:#hand-rows"' in html
        # The chart stays on the page; a marker in it draws it again when it is seen.
        marker = html[html.index('<a id="chart-refresh"') :]
        marker = marker[: marker.index(">")]
        assert 'hx-swap-oob="true"' in marker
        assert f'hx-get="/games/{game.pk}/chart/" hx-target="#score-chart"' in marker
        assert 'hx-trigger="intersect once"' in marker
        assert 'id="score-chart"' not in html and "<svg" not in html
        history = html[html.index('hx-swap-oob="afterbegin:#history-rows"') :]
        assert history.count("<li>") == 1
        assert f"<b>Aoki</b> {hands + 1}局目を入力</li>" in history  # "entered hand N"
        assert 'id="table-status"' in html and 'id="hand-entry"' in html
        sizes.append(len(html))
        counts.append(len(queries))
    assert abs(sizes[0] - sizes[1]) < 100
    assert counts[0] == counts[1]


def test_the_chart_drawn_again_when_scrolled_to_has_every_hand(aoki, players):
    """The marker a recorded hand leaves in place of the chart loads this."""
    game = game_with_hands(players, 3)
    html = aoki.get(reverse("game_chart", args=[game.pk]), headers={"hx-request": "true"}).text
    assert html.lstrip().startswith('<div id="score-chart">')
    marker = html[html.index('<span id="chart-refresh"') :]
    assert marker.startswith('<span id="chart-refresh" class="chart-refresh"></span>')
    assert '<title id="scores-chart-title">' in html
    rows = html[html.index("<tbody>") : html.index("</tbody>")]
    assert rows.count("<tr>") == 4  # the start and three hands
    assert "hx-swap-oob" not in html


def test_the_table_screen_draws_its_charts_when_seen_while_the_game_is_in_play(aoki, players):
    """In play, the page carries the charts' marker (a link to their page without
    JavaScript), not the charts: its first load does not grow with the game. Finished, the
    page is the game's story and draws them with it."""
    import random

    from scoring.ledger import hanchan_import
    from scoring.upkeep.sample_games import sample_hands

    sizes = []
    for hands in (3, 12):
        game = game_with_hands(players, hands)
        html = aoki.get(reverse("game_detail", args=[game.pk])).text
        assert f'id="hand-{hands}"' in html
        assert 'id="scores-chart"' not in html and 'id="placement-chances"' not in html
        marker = html[html.index('<a id="chart-refresh"') :]
        assert marker.startswith(
            f'<a id="chart-refresh" class="chart-refresh" href="/games/{game.pk}/chart/"'
        )
        assert ">持ち点の推移と順位確率</a>" in marker[: marker.index("</a>") + 4]
        sizes.append(len(html))
    # Nine more hands add their rows alone (about 1.1 KB each with its Correct link), no chart.
    assert sizes[1] - sizes[0] < 9 * 1_300
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": sample_hands(random.Random(5), "makura-1.5"),
    }
    finished = hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )
    html = aoki.get(reverse("game_detail", args=[finished.pk])).text
    assert 'id="scores-chart"' in html and 'id="placement-chances"' in html
    assert '<span id="chart-refresh" class="chart-refresh"></span>' in html


# Changing only the winner keeps the value


def test_the_value_follows_the_winner_when_only_the_winner_changes(aoki, game):
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])
    # Baba was tapped as the tsumo's winner with a mangan, then Aoki (the dealer) instead.
    html = post(aoki, url, {"result": "tsumo", "winner": "0", "value_1": "mangan"}, fields).text
    assert checked_values(html, "value_0") == ["mangan"]
    assert checked_values(html, "value_1") == []
    assert "4,000" in preview_of(html)  # the dealer's mangan tsumo: 4,000 all
    # A ron: the winner moved from Baba to Doi, the value with them.
    moved = post(aoki, url, {**RON, "winners": ["3"]}, fields).text
    assert checked_values(moved, "value_3") == ["3-30"]
    assert "Chiba → Doi" in preview_of(moved)
    # Two winners and one value: nothing is guessed.
    double = post(aoki, url, {**RON, "winners": ["1", "3"], "value_0": "1-30"}, fields).text
    assert checked_values(double, "value_1") == ["3-30"]
    assert checked_values(double, "value_3") == []


def test_a_correction_of_the_winner_keeps_the_value(aoki, game):
    fields = form_fields(aoki, game)
    post(aoki, reverse("hand_create", args=[game.pk]), RON, fields)
    game.refresh_from_db()
    edit = reverse("hand_edit", args=[game.pk, 1])
    page = aoki.get(edit).text
    version = hidden(page, "version")
    token = hidden(page, "csrfmiddlewaretoken")
    corrected = {
        "csrfmiddlewaretoken": token,
        "version": version,
        "result": "ron",
        "loser": "2",
        "winners": ["3"],
        "value_1": "3-30",
    }
    response = aoki.post(reverse("hand_edit_preview", args=[game.pk, 1]), corrected)
    assert checked_values(response.text, "value_3") == ["3-30"]
    assert "Chiba → Doi" in preview_of(response.text)


def test_a_two_tenpai_draw_shows_what_each_noten_player_pays(aoki, game):
    """The noten payments of 3,000 (Makura 1.5 §8) are 1,500 from each noten
    player to the two tenpai players together, not four payments of 750 (which no stick pays)."""
    fields = form_fields(aoki, game)
    draw = {"result": "draw", "tenpai": ["0", "1"]}
    html = post(aoki, reverse("hand_preview", args=[game.pk]), draw, fields, **HMX_EN).text
    preview = re.search(r'id="hand-preview".*', html, re.DOTALL).group(0)
    assert "750" not in preview
    assert preview.count("1,500") >= 2
    assert "Aoki, Baba" in preview


# One value pad open at a time; the confirm bar's payments netted.


def confirm_summary(html: str) -> list[str]:
    """The confirm bar's payments, each as "payer → payee amount"."""
    bar = re.search(r'id="confirm-summary">(.*?)</p>', html, re.DOTALL)
    assert bar, "no confirm summary"
    return [
        re.sub(r"<[^>]+>|\s+", " ", item).strip().replace("  ", " ")
        for item in re.findall(r'<span class="summary-payment">(.*?)</span>', bar.group(1))
    ]


def test_a_winners_own_riichi_stick_is_not_shown_going_to_the_table_and_back(aoki, game):
    """Baba rons Chiba with his own riichi: the payments list says the stick went out and
    came back; the confirm bar says what changes hands, Chiba → Baba 3,900, and nothing else
    (it said "Baba → Table 1,000 · Table → Baba 1,000" too)."""
    fields = form_fields(aoki, game)
    response = post(
        aoki, reverse("hand_preview", args=[game.pk]), {**RON, "riichi": ["1"]}, fields, **HTMX
    )
    preview = re.search(r'<ul class="payments">(.*?)</ul>', response.text, re.DOTALL).group(1)
    assert "Baba → 卓" in preview and "卓 → Baba" in preview
    assert confirm_summary(response.text) == ["Chiba → Baba 3,900"]


def test_a_double_rons_bar_gives_each_payer_and_payee_once(aoki, game):
    """Chiba deals into Aoki (the dealer, in riichi, 2 han 30 fu) and Doi (1 han 30 fu) at
    1 honba: value and honba one amount each (the bar cut off the second winner); Aoki's stick
    goes to the table and the deposits to Doi, the winner nearer the discarder, so both of
    those lines stay."""
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=game.seats.get(index=0).member,
    )
    fields = form_fields(aoki, game)
    data = {
        "result": "ron",
        "loser": "2",
        "winners": ["0", "3"],
        "riichi": ["0"],
        "value_0": "2-30",
        "value_3": "1-30",
    }
    response = post(aoki, reverse("hand_preview", args=[game.pk]), data, fields, **HTMX)
    # Aoki deals (renchan): 2 han 30 fu is 2,900, 1 han 30 fu 1,000; 300 of honba each.
    assert confirm_summary(response.text) == [
        "Aoki → 卓 1,000",
        "Chiba → Doi 1,300",
        "Chiba → Aoki 3,200",
        "卓 → Doi 1,000",
    ]


def test_one_value_pad_is_open_at_a_time(aoki, game):
    """A double ron: the second winner's pad is a line saying it comes next until the first
    one's value is in; then the first pad is one line showing its value (its buttons a tap
    away, the value still sent) and the second opens. "More: rare cases" comes once every
    value is in (on the page before, hidden: a value drawn on the phone shows it)."""
    fields = form_fields(aoki, game)
    url = reverse("hand_preview", args=[game.pk])
    both = {"result": "ron", "loser": "2", "winners": ["1", "3"]}

    html = post(aoki, url, both, fields, **HTMX).text
    assert 'class="step pad-note pad-waiting" id="value-pad-3"' in html
    assert 'name="value_3"' not in html
    assert 'id="pad-fold-1"' not in html and 'name="value_1"' in html
    assert '<details class="more" hidden>' in html

    html = post(aoki, url, {**both, "value_1": "3-30"}, fields, **HTMX).text
    fold = re.search(r'<details class="pad-fold" id="pad-fold-1"><summary>(.*?)</summary>', html)
    assert fold and re.sub(r"<[^>]+>", "", fold.group(1)) == "3飜30符 3,900 変更"
    assert checked_values(html, "value_1") == ["3-30"]
    assert 'id="value-pad-3"' in html and 'name="value_3"' in html
    assert "pad-waiting" not in html
    assert '<details class="more" hidden>' in html

    html = post(aoki, url, {**both, "value_1": "3-30", "value_3": "mangan"}, fields, **HTMX).text
    fold = re.search(r'id="pad-fold-3"><summary>(.*?)</summary>', html)
    assert fold and re.sub(r"<[^>]+>", "", fold.group(1)) == "満貫 変更"
    assert '<details class="more">' in html


def test_no_template_comment_shows_on_the_table_screen(aoki, game):
    """A {# #} comment ends on its own line: one over two lines is printed as text (the chart's
    note showed under the hand list, in English on a Japanese page)."""
    hand_record(
        hanchan_id=game.pk,
        hand={"result": "draw", "tenpai": [0]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=game.seats.get(index=0).member,
    )
    html = aoki.get(table_url(game)).text
    assert 'id="score-chart"' in html
    assert "{#" not in html and "#}" not in html
