"""A hand with a win or a draw and a chombo (seed 003 L402-410, L426-428;
rules-spec H-18): the record format's ``chombo`` extension on a ron, tsumo or draw
(docs/game-record-format.md, "Extensions"). The win (or the settled draw) is paid first, then
the chombo; the hand's own result decides the dealer and the honba; the record replays exactly
through the ledger."""

from __future__ import annotations

import datetime
import uuid

import pytest

from scoring.engine import RecordError, parse_hand
from scoring.ledger import hanchan_import, hanchan_record, hanchan_start, hand_record
from scoring.models import HandSeat
from tests.test_engine_game import replay

HOME = "home-nashinashi"
# The home game pays a chombo mangan-style (L301-303): a non-dealer pays the dealer 4,000 and
# each other player 2,000; a dealer pays 4,000 to each.


def test_a_ron_then_the_chombo_l408_409():
    """L408-409 "誰かが上がった後場合、上がり点のやり取りをした後で、チョンボ代のやり取りを行う":
    seat 1 rons seat 3 for 3,900 (3 han 30 fu, nashi-nashi), then seat 2 pays the chombo."""
    hand = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 3, "fu": 30}],
            "chombo": {"offender": 2}}  # fmt: skip
    out = replay(HOME, [hand])
    first = out["hands"][0]
    assert first["deltas"] == [4000, 3900 + 2000, -8000, -3900 + 2000]
    # The win decides: a non-dealer won, the deal passes, no honba.
    assert (out["hands"][0]["round"], out["final"]) == ("E1", None)
    second = replay(HOME, [hand, {"result": "draw", "tenpai": [1]}])["hands"][1]
    assert (second["round"], second["dealer"], second["honba"]) == ("E2", 1, 0)


def test_a_draw_then_only_the_chombo_l410():
    """L410 "流局になった場合、チョンボのやり取りだけを行う": no noten payments, the chombo
    only; the dealer keeps the deal when tenpai (the draw's own rule, L139)."""
    hand = {"result": "draw", "tenpai": [0, 1], "chombo": {"offender": 2}}
    out = replay(HOME, [hand, {"result": "draw", "tenpai": [0]}])
    assert out["hands"][0]["deltas"] == [4000, 2000, -8000, 2000]
    assert (out["hands"][1]["round"], out["hands"][1]["honba"]) == ("E1", 1)


def test_a_settled_draw_then_the_chombo_l426_428():
    """L427-428 "上がりまたは流局後の点数をやり取りした後でチョンボ代を支払う" (the pao case):
    the noten payments of 3,000 (L203-210), then the chombo."""
    hand = {"result": "draw", "tenpai": [0, 1], "chombo": {"offender": 2, "noten_payments": True}}
    out = replay(HOME, [hand])
    assert out["hands"][0]["deltas"] == [4000 + 1500, 2000 + 1500, -8000 - 1500, 2000 - 1500]


def test_a_tsumo_by_the_dealer_then_the_chombo_keeps_the_deal():
    hand = {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}],
            "chombo": {"offender": 3}}  # fmt: skip
    out = replay(HOME, [hand, {"result": "draw", "tenpai": [0]}])
    assert out["hands"][0]["deltas"] == [12000 + 4000, -4000 + 2000, -4000 + 2000, -4000 - 8000]
    assert (out["hands"][1]["round"], out["hands"][1]["honba"]) == ("E1", 1)


def test_the_record_round_trips():
    data = {"result": "draw", "tenpai": [1], "chombo": {"offender": 2, "noten_payments": True}}
    assert parse_hand(data, 4, 0).to_json() == data
    data = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 1, "fu": 30}],
            "chombo": {"offender": 2}}  # fmt: skip
    assert parse_hand(data, 4, 0).to_json() == data


def test_noten_payments_only_on_a_draw():
    data = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 1, "fu": 30}],
            "chombo": {"offender": 2, "noten_payments": True}}  # fmt: skip
    with pytest.raises(RecordError) as refused:
        parse_hand(data, 4, 0)
    assert (refused.value.key, refused.value.code) == (
        "chombo.noten_payments",
        "key_not_for_result",
    )


def test_without_the_extension_nothing_changes():
    """A plain draw still pays noten, a plain chombo hand is still a chombo hand."""
    plain = replay(HOME, [{"result": "draw", "tenpai": [0, 1]}])
    assert plain["hands"][0]["deltas"] == [1500, 1500, -1500, -1500]


@pytest.mark.django_db
def test_the_ledger_stores_and_replays_it(member, other_member, coordinator, staff_member):
    players = [member, other_member, coordinator, staff_member]
    game = hanchan_start(ruleset_id=HOME, members=players, played_on=datetime.date(2026, 11, 20))
    hand = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 3, "fu": 30}],
            "chombo": {"offender": 2}}  # fmt: skip
    hand_record(hanchan_id=game.pk, hand=hand, expected_version=0, request_id=uuid.uuid4())
    game.refresh_from_db()
    assert game.state["table"]["scores"] == [31000, 32900, 19000, 25100]
    record = hanchan_record(game)
    assert record["hands"][0]["chombo"] == {"offender": 2}
    facts = {f.seat: f for f in HandSeat.objects.filter(hand__hanchan=game)}
    assert (facts[2].chombo, facts[1].won, facts[1].win_value) == (True, True, 3900)
    copy = hanchan_import(
        record=record,
        members_by_name={m.display_name: m for m in players},
        played_on=datetime.date(2026, 11, 21),
        allow_duplicate=True,
    )
    assert copy.state["table"]["scores"] == game.state["table"]["scores"]


def test_makura_waives_a_chombo_in_a_won_hand():
    """Makura 1.5 §34: the win stands and the chombo is waived: the record cannot carry one."""
    hand = {"result": "ron", "loser": 3, "wins": [{"winner": 1, "han": 3, "fu": 30}],
            "chombo": {"offender": 2}}  # fmt: skip
    with pytest.raises(RecordError) as refused:
        replay("makura-1.5", [hand])
    assert (refused.value.code, refused.value.hand_index) == ("no_chombo_after_result", 0)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "legend", "tag"),
    [("en", "A chombo too, paid after", "Chombo after: Chiba"),
     ("ja", "チョンボもあり（あとで支払い）", "あとでチョンボ：Chiba")],
)  # fmt: skip
def test_the_table_takes_a_ron_with_a_chombo(
    member, other_member, coordinator, staff_member, client_for, language, legend, tag
):
    from django.urls import reverse

    from tests.test_hand_entry_views import HTMX, form_fields, post

    players = [member, other_member, coordinator, staff_member]
    game = hanchan_start(ruleset_id=HOME, members=players, played_on=datetime.date(2026, 11, 20))
    client = client_for(member)
    client.cookies["django_language"] = language
    fields = form_fields(client, game)
    taps = {"result": "ron", "loser": "3", "winners": ["1"], "value_1": "3-30"}
    preview = post(client, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text
    assert legend in preview and 'name="chombo_after"' in preview
    taps["chombo_after"] = "2"
    response = post(client, reverse("hand_create", args=[game.pk]), taps, fields)
    assert response.status_code in (200, 302)
    game.refresh_from_db()
    assert game.state["table"]["scores"] == [31000, 32900, 19000, 25100]
    assert tag in client.get(reverse("game_detail", args=[game.pk])).text


@pytest.mark.django_db
def test_makura_tables_do_not_offer_it(member, other_member, coordinator, staff_member, client_for):
    from django.urls import reverse

    from tests.test_hand_entry_views import HTMX, form_fields, post

    players = [member, other_member, coordinator, staff_member]
    game = hanchan_start(
        ruleset_id="makura-1.5", members=players, played_on=datetime.date(2026, 11, 20)
    )
    client = client_for(member)
    fields = form_fields(client, game)
    taps = {"result": "ron", "loser": "3", "winners": ["1"], "value_1": "3-30"}
    preview = post(client, reverse("hand_preview", args=[game.pk]), taps, fields, **HTMX).text
    assert 'name="chombo_after"' not in preview
