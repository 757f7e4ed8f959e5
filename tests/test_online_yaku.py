"""Yaku from a Tenhou JSON log: each win's yaku strings (``立直(1飜)``,
``役牌 中(1飜)``, ``ドラ(2飜)``, ``大三元(役満)``) become the record's ``wins[].yaku`` as an
mjlog's ``<AGARI>`` yaku do, so a JSON import fills the yaku records too. On the real logs of
tests/data/online/ (README.md there), the same game as mjlog and JSON in ``pairs/``."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member
from scoring.models import Hanchan, WinYaku
from scoring.online.reading import read_game_file
from scoring.online.tenhou_rules import json_yaku

DATA = Path(__file__).parent / "data" / "online"
PAIR = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9"
JSON_LOGS = sorted((DATA / "tenhou-json").glob("*.json")) + [PAIR.with_suffix(".json")]


def wins_yaku(path: Path) -> list[list[dict]]:
    log = read_game_file(path.read_bytes(), path.name).log
    assert log is not None
    return [w.get("yaku", []) for h in log.hands for w in h.candidates[0].get("wins", [])]


def test_yaku_strings_read_as_the_mjlog_reader_names_them():
    assert json_yaku(["立直(1飜)", "役牌 中(1飜)", "ドラ(2飜)", "裏ドラ(0飜)"]) == [
        {"name": "riichi", "han": 1},
        {"name": "chun", "han": 1},
        {"name": "dora", "han": 2},
    ]
    assert json_yaku(["大三元(役満)", "字一色(役満)"]) == [
        {"name": "daisangen", "han": 13},
        {"name": "tsuisou", "han": 13},
    ]
    assert json_yaku(["国士無双１３面(役満)"]) == [{"name": "daburu_kokushi", "han": 13}]
    assert json_yaku(["謎の役(1飜)", 7, "立直"]) == []


@pytest.mark.parametrize("path", JSON_LOGS, ids=lambda p: p.name)
def test_every_yaku_of_the_json_logs_is_read(path):
    data = json.loads(path.read_bytes())
    stated = [
        y
        for rnd in data["log"]
        if rnd[16][0] == "和了"
        for win in rnd[16][2::2]
        for y in win[4:]
        if not re.search(r"\(0飜\)$", y)
    ]
    read = [y for win in wins_yaku(path) for y in win]
    assert len(read) == len(stated) > 0
    # Each win's han add up to the han of its result string (below yakuman).
    counted_wins = [
        (win, counted)
        for rnd in data["log"]
        if rnd[16][0] == "和了"
        for win in rnd[16][2::2]
        if (counted := re.match(r"\d+符(\d+)飜", win[3]))
    ]
    assert counted_wins  # the log has wins of counted han to check
    for win, counted in counted_wins:
        assert sum(y["han"] for y in json_yaku(win[4:])) == int(counted[1])


def test_the_same_game_as_mjlog_and_json_gives_the_same_yaku():
    mjlog = wins_yaku(PAIR.with_suffix(".xml"))
    tenhou_json = wins_yaku(PAIR.with_suffix(".json"))
    assert [Counter((y["name"], y["han"]) for y in w) for w in mjlog] == [
        Counter((y["name"], y["han"]) for y in w) for w in tenhou_json
    ]
    assert any(y["name"] == "daisangen" for w in tenhou_json for y in w)


def imported_yaku(path: Path) -> Counter:
    with override("en"):
        call_command("import_games", str(path), "--create-members", stdout=io.StringIO())
    game = Hanchan.objects.latest("pk")
    return Counter(
        WinYaku.objects.filter(hanchan=game).values_list("seat", "name", "han", "yakuman")
    )


def test_a_json_import_stores_the_yaku_an_mjlog_import_does(db, client: Client):
    from_json = imported_yaku(PAIR.with_suffix(".json"))
    assert ((0, "daisangen", 13, True)) in from_json
    assert ((0, "tsuisou", 13, True)) in from_json
    assert (0, "yakuman", 13, True) not in from_json  # named, not a bare yakuman
    member = Member.objects.get(seats__hanchan__isnull=False, seats__index=0)
    client.force_login(member.user)
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Daisangen" in html and member.display_name in html
    ja = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "大三元" in ja and "字一色" in ja
    Hanchan.objects.all().delete()
    WinYaku.objects.all().delete()
    # The same game from its mjlog (the JSON's game deleted: stored once otherwise).
    assert imported_yaku(PAIR.with_suffix(".xml")) == from_json
