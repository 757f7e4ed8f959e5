"""A local yaku is declared once (scoring/engine/local_yaku.py: id, han closed and open, the
rulesets that have it, its seed rule) and every reader takes it from there: the ruleset's
check, the tiles' evaluation, the table's pad, the rules page's yaku table and the sheet."""

from __future__ import annotations

import dataclasses
import json
import uuid
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.dates import club_today
from clubsite.models import Member
from scoring.engine import RecordError, available_rulesets, load_ruleset
from scoring.engine.local_yaku import LOCAL_YAKU, YAKUMAN_HAN, LocalYaku
from scoring.ledger import hanchan_start
from scoring.rulebook import yaku_labels
from scoring.rulebook.sheet import rules_sheet
from scoring.rulebook.yaku_table import yaku_table
from scoring.tiles.contract import hand_value
from scoring.tiles.hand import HandTiles, Meld, local_yaku

# 004 L26, L60: pons of East, South and North, 111p and a 9m pair (the fuji-sanma test of
# tests/test_hand_house_rules.py): north_yakuhai and sanpuu.
SANPUU = {
    "hand": "111p99m",
    "win_tile": "9m",
    "melds": [
        {"type": "pon", "tiles": "111z"},
        {"type": "pon", "tiles": "222z"},
        {"type": "pon", "tiles": "444z"},
    ],
}


def test_every_local_yaku_has_a_label_in_english_and_japanese():
    for yaku in LOCAL_YAKU:
        assert yaku in yaku_labels.YAKU_LABELS, yaku
        with translation.override("ja"):
            japanese = yaku_labels.yaku_label(yaku)
        with translation.override("en"):
            assert japanese != yaku_labels.yaku_label(yaku) != yaku


def test_the_rulesets_of_each_yaku_are_the_ruleset_files():
    for ruleset_id in available_rulesets():
        declared = {y.id for y in LOCAL_YAKU.values() if ruleset_id in y.rulesets}
        assert set(load_ruleset(ruleset_id).local_yaku) == declared, ruleset_id


def test_the_table_says_what_the_seeds_say():
    """004 L26, L54-L61 (F-15); Makura §43 L350."""
    han = {y.id: (y.han_closed, y.han_open) for y in LOCAL_YAKU.values()}
    assert han == {
        "daisharin": (YAKUMAN_HAN, None),
        "shousharin": (6, None),
        "sanpuu": (2, 2),
        "north_yakuhai": (1, 1),
        "manzu_honitsu": (YAKUMAN_HAN, YAKUMAN_HAN),
        "suurenkou": (YAKUMAN_HAN, YAKUMAN_HAN),
        "sanrenkou": (2, 2),
        "shiisanputa": (YAKUMAN_HAN, None),
    }


def _sheet_value(ruleset_id: str, name: str) -> str:
    rs = load_ruleset(ruleset_id)
    rows = [row for section in rules_sheet(rs) for row in section.rows]
    return next(row.value for row in rows if row.name == name)


def _yaku_rows(ruleset_id: str) -> dict[str, list[str]]:
    table = yaku_table(load_ruleset(ruleset_id))
    return {row.name: [row.closed, row.open] for row in table.common + table.yakuman}


@pytest.fixture
def sanpuu_at_3_han(monkeypatch: pytest.MonkeyPatch) -> None:
    sanpuu = dataclasses.replace(LOCAL_YAKU["sanpuu"], han_closed=3, han_open=3)
    monkeypatch.setitem(LOCAL_YAKU, "sanpuu", sanpuu)


@pytest.mark.usefixtures("sanpuu_at_3_han")
def test_a_han_changed_in_the_table_reaches_the_tiles_the_rules_page_and_the_sheet():
    fuji = load_ruleset("fuji-sanma")
    value = hand_value({"ruleset": "fuji-sanma", "seat_wind": "W", **SANPUU}, fuji)
    assert {"name": "sanpuu", "han": 3} in value.to_json()["yaku"]
    with translation.override("en"):
        assert _yaku_rows("fuji-sanma")["Sanpuu"] == ["3", "3"]
        assert "Sanpuu (3 han)" in _sheet_value("fuji-sanma", "local_yaku")
    with translation.override("ja"):
        assert "三風（3翻）" in _sheet_value("fuji-sanma", "local_yaku")


@pytest.mark.usefixtures("sanpuu_at_3_han")
def test_a_han_changed_in_the_table_reaches_the_pad(
    client_for: Callable[[Member], Client],
    member: Member,
    other_member: Member,
    coordinator: Member,
) -> None:
    game = hanchan_start(
        ruleset_id="fuji-sanma",
        members=[member, other_member, coordinator],
        played_on=club_today(),
        by=member,
    )
    phone = client_for(member)
    page = phone.get(reverse("game_detail", args=[game.pk])).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    version = page.split('name="version" value="', 1)[1].split('"', 1)[0]
    preview = phone.post(
        reverse("hand_preview", args=[game.pk]),
        {
            "csrfmiddlewaretoken": token,
            "version": version,
            "result": "ron",
            "loser": "2",
            "winners": "1",
            "tiles_1": json.dumps(SANPUU),
            "request_id": str(uuid.uuid4()),
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "<li>Sanpuu <span>3 han</span></li>" in preview


def test_a_new_local_yaku_reaches_every_reader(monkeypatch: pytest.MonkeyPatch):
    """One entry (and its label) and a ruleset that lists it: the ruleset accepts it, the
    tiles count its han closed and open, the rules page and the sheet show it with its han."""
    monkeypatch.setitem(
        LOCAL_YAKU, "uumensai", LocalYaku("uumensai", 3, 2, ("fuji-sanma",), "a test")
    )
    monkeypatch.setitem(yaku_labels.YAKU_LABELS, "uumensai", "Uumensai")
    fuji = load_ruleset("fuji-sanma")
    rs = load_ruleset("fuji-sanma", {"local_yaku": [*fuji.local_yaku, "uumensai"]})
    closed = HandTiles(concealed=(0, 1, 2), melds=(), win_tile=2)
    opened = HandTiles(concealed=(0, 1, 2), melds=(Meld("pon", (4, 5, 6)),), win_tile=2)
    assert (local_yaku("uumensai", closed).han, local_yaku("uumensai", opened).han) == (3, 2)
    with translation.override("en"):
        table = yaku_table(rs)
        rows = {row.name: [row.closed, row.open] for row in table.common}
        assert rows["Uumensai"] == ["3", "2"]
        sheet = [row for section in rules_sheet(rs) for row in section.rows]
        assert "Uumensai (3 han)" in next(r.value for r in sheet if r.name == "local_yaku")
    monkeypatch.delitem(LOCAL_YAKU, "uumensai")
    with pytest.raises(RecordError) as unknown:
        load_ruleset("fuji-sanma", {"local_yaku": ["uumensai"]})
    assert unknown.value.code == "local_yaku_unknown"
