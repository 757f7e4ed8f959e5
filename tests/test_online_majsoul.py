"""Mahjong Soul's own game records, decoded to JSON, re-scored hand by hand.

``tests/data/online/majsoul/real-record-wire.json`` is a real Mahjong Soul game (a ranked
4-player East-South game, stripped of names and of every win's han by the project that
published it: ChildeRolando/MjsoulTileTrace; tests/data/online/README.md). The other games
are real Tenhou games written as Mahjong Soul records (tests/online_conversions.py), for what
the real record leaves out: the head (names, uuid, final scores), han and fu, fans, pao,
3-player games and draws.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import OnlineName
from scoring.engine import load_ruleset
from scoring.models import Hanchan, OnlineGame, WinYaku
from scoring.online import majsoul
from scoring.online.log import LogAltered, LogError, NotAGameLog
from scoring.online.reading import read_game_file
from scoring.online.verify import verify
from tests.conftest import make_member
from tests.online_conversions import load, tenhou_to_majsoul

DATA = Path(__file__).parent / "data" / "online"
REAL = DATA / "majsoul" / "real-record-wire.json"
TENHOU = sorted((DATA / "tenhou-json").glob("*.json"))
PAIR = DATA / "pairs" / "2019103023gm-00a9-0000-f90e0fe9.json"
SANMA = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"


def read_bytes(raw: bytes):
    log = read_game_file(raw, "record.json").log
    assert log is not None
    return log


def derived(path: Path) -> bytes:
    return json.dumps(tenhou_to_majsoul(load(path)), ensure_ascii=False).encode()


def test_the_real_record_is_re_scored_hand_by_hand():
    log = read_bytes(REAL.read_bytes())
    assert (log.service, log.log_format) == ("majsoul", "majsoul-json")
    assert log.log_id.startswith("sha256:") and log.replay_url == ""  # the record has no head
    assert log.players == ("AI (seat 1)", "AI (seat 2)", "AI (seat 3)", "AI (seat 4)")
    assert log.rulesets == ("majsoul", "majsoul-east")
    assert [h.label for h in log.hands] == [
        "E1 0 honba", "E2 0 honba", "E3 0 honba", "E4 0 honba", "S1 0 honba",
        "S1 1 honba", "S2 0 honba", "S3 0 honba", "S4 0 honba",
    ]  # fmt: skip
    verified = verify(log)
    assert verified.ruleset == "majsoul" and verified.overrides is None
    for result, hand in zip(verified.results, log.hands, strict=True):
        assert result.deltas == hand.deltas, hand.label
    # Riichi sticks read from the discards (is_liqi), the ronned declaration of none.
    assert [h.get("riichi", []) for h in verified.record["hands"]] == [
        [], [0, 1], [0, 3], [2], [1], [2, 3], [2], [1, 2, 3], [1],
    ]  # fmt: skip
    assert verified.record["hands"][1]["loser"] == 1
    assert verified.final["scores"] == [54400, 10500, 15200, 19900]
    # Friendly-room settlement from 25,000 with uma +15/+5/-5/-15 (scoring/rulesets/majsoul).
    assert verified.final["points"] == [44400, -29500, -14800, -100]


def test_an_edited_change_in_the_real_record_is_refused_naming_the_hand():
    data = json.loads(REAL.read_bytes())
    hules = [a for a in data["actions"] if a.get("result", {}).get("name") == ".lq.RecordHule"]
    hules[1]["result"]["data"]["delta_scores"] = [9800, -7800, 0, 0]
    log = read_bytes(json.dumps(data).encode())
    with pytest.raises(LogAltered) as refused:
        verify(log)
    assert str(refused.value) == (
        "E2 0 honba: the engine gives [8700, -8700, 0, 0], the log [8800, -8800, 0, 0] "
        "(the changes the log states, RecordHule of seat 0)"
    )


def test_a_record_cut_short_or_not_decoded_is_refused_in_one_line():
    data = json.loads(REAL.read_bytes())
    cut = {"actions": data["actions"][:-3]}
    with pytest.raises(LogError, match=r"^records\[\d+\] RecordNewRound: the record stops in"):
        read_bytes(json.dumps(cut).encode())
    # Records left as protobuf bytes (base64) are no game log this reader can read.
    undecoded = {"head": {"uuid": "x"}, "data": {"records": ["CgIIAQ==", "EgI="]}}
    with pytest.raises(NotAGameLog, match="not a game log"):
        read_bytes(json.dumps(undecoded).encode())


@pytest.mark.parametrize("path", [*TENHOU, PAIR], ids=lambda p: p.name)
def test_a_game_written_as_a_mahjong_soul_record_is_re_scored_the_same(path):
    data = load(path)
    log = read_bytes(derived(path))
    players = 3 if data["name"][3] == "" else 4
    assert len(log.players) == players and log.players == tuple(data["name"][:players])
    assert log.log_id == f"derived-{data['ref']}"
    assert log.replay_url == f"https://game.mahjongsoul.com/?paipu=derived-{data['ref']}"
    verified = verify(log)
    assert verified.ruleset.startswith("majsoul-3p" if players == 3 else "majsoul")
    assert tuple(verified.final["scores"]) == tuple(data["sc"][0 : 2 * players : 2])
    for result, hand in zip(verified.results, log.hands, strict=True):
        assert result.deltas == hand.deltas, hand.label
    # Every win names its fans: the record's yaku, as many as the Tenhou log's of 1 han or more.
    wins = [w for h in verified.record["hands"] for w in h.get("wins", [])]
    stated = [
        [y for y in win[4:] if not y.endswith("(0飜)")]
        for rnd in data["log"]
        if rnd[16][0] == "和了"
        for win in rnd[16][2::2]
    ]
    assert [len(w["yaku"]) for w in wins] == [len(y) for y in stated]


def test_pao_is_read_from_the_melds_and_double_yakuman_from_the_fans():
    log = read_bytes(derived(PAIR))
    last = verify(log).record["hands"][-1]
    win = last["wins"][0]
    assert (win["limit"], win["yakuman"], win["pao"]) == ("yakuman", 2, 2)
    assert {(y["name"], y["han"]) for y in win["yaku"]} == {("daisangen", 13), ("tsuisou", 13)}


def test_draws_are_read_with_or_without_their_payments_and_liuju_by_type():
    data = load(DATA / "tenhou-json" / "2022080601gm-00a9-0000-e3595545.json")
    record = tenhou_to_majsoul(data)
    for action in record["data"]["actions"]:
        if action["result"]["name"] == ".lq.RecordNoTile":
            del action["result"]["data"]["scores"]  # a draw that writes no payments
    log = read_bytes(json.dumps(record, ensure_ascii=False).encode())
    draws = [h for h in log.hands if h.candidates[0]["result"] == "draw"]
    assert len(draws) == 4 and all(h.stated == () for h in draws)
    verified = verify(log)
    assert tuple(verified.final["scores"]) == tuple(data["sc"][0:8:2])
    aborts = [h for h in read_bytes(derived(PAIR)).hands if h.candidates[0]["result"] == "abort"]
    assert [h.candidates[0]["kind"] for h in aborts] == ["kyuushu_kyuuhai"]


def test_a_three_player_record_is_read_with_its_seats_and_mahjong_souls_rules():
    log = read_bytes(derived(SANMA))
    assert log.rulesets == ("majsoul-3p", "majsoul-3p-east")
    assert log.rule_label == "三玉の間南喰赤"
    verified = verify(log)
    assert verified.ruleset == "majsoul-3p"
    assert [h.round for h in log.hands][-3:] == ["S1", "S2", "S3"]
    # 35,000 each, settled from 35,000 with uma +15/0/-15: 75,700 is +55.7.
    assert verified.final["scores"] == [75700, 6800, 22500]
    assert verified.final["points"] == [55700, -43200, -12500]


def test_a_friendly_rooms_settlement_is_read_from_the_records_total_points():
    """A friendly room (``head.config.meta.room_id``) settles as its owner set it: the
    record's ``total_point`` gives return and uma (the lobby's rules); a ranked
    room's (玉の間) keeps the preset's."""
    data = load(SANMA)
    record = tenhou_to_majsoul(data, room_id=1234)
    log = read_bytes(json.dumps(record, ensure_ascii=False).encode())
    assert (log.lobby, log.rule_label) == ("1234", "三友人戦南喰")
    assert log.stated_points == (70700, -53200, -17500)
    verified = verify(log)
    assert verified.ruleset == "majsoul-3p" and verified.overrides == {
        "uma": [30000, -5000, -25000]
    }
    assert verified.final["points"] == [70700, -53200, -17500]
    ranked = verify(read_bytes(derived(SANMA)))
    assert ranked.overrides is None and ranked.final["points"] == [55700, -43200, -12500]


def test_the_mahjong_soul_presets_differ_from_tenhou_where_mahjong_soul_does():
    differing = {
        name
        for name, value in load_ruleset("majsoul").parameters().items()
        if load_ruleset("tenhou-4p").parameters()[name] != value
    }
    assert differing == {
        "id", "name", "sources", "return_points", "oka", "uma", "final_rounding",
        "top_takes_remainder", "abortive_draws", "multi_ron_max", "multi_ron_honba",
        "double_yakuman",
    }  # fmt: skip
    rs = load_ruleset("majsoul")
    assert "sancha_ron" not in rs.abortive_draws and rs.multi_ron_max == 3
    assert rs.kiriage == "none" and set(rs.double_yakuman) == {
        "kokushi_13_sided", "suuankou_tanki", "junsei_chuuren", "daisuushii",
    }  # fmt: skip
    sanma = load_ruleset("majsoul-3p")
    assert (sanma.start_points, sanma.honba_ron, sanma.noten_total) == (35000, 200, 2000)
    assert (sanma.uma, sanma.sanma_tsumo) == ((15000, 0, -15000), "tsumo_loss")


def test_import_stores_the_game_its_yaku_and_its_replay(db, tmp_path):
    target = tmp_path / "record.json"
    target.write_bytes(derived(PAIR))
    out = io.StringIO()
    with override("en"):
        call_command("import_games", str(target), "--create-members", stdout=out)
    assert "imported majsoul" in out.getvalue(), out.getvalue()
    game = Hanchan.objects.get()
    online = OnlineGame.objects.get(hanchan=game)
    assert (online.service, online.log_format) == ("majsoul", "majsoul-json")
    assert online.replay_url == "https://game.mahjongsoul.com/?paipu=derived-" + load(PAIR)["ref"]
    yaku = set(WinYaku.objects.filter(hanchan=game).values_list("seat", "name", "han"))
    assert (0, "daisangen", 13) in yaku and (0, "tsuisou", 13) in yaku


def test_a_player_uploads_their_mahjong_soul_record_on_the_import_page(db):
    names = load(SANMA)["name"][:3]
    members = []
    for number, name in enumerate(names):
        member = make_member(f"soul{number}", f"Soul {number}", f"雀魂{number}")
        OnlineName.objects.create(member=member, service="majsoul", name=name)
        members.append(member)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(members[0].user)
    upload = SimpleUploadedFile("paipu.json", derived(SANMA))
    html = client.post(reverse("game_import"), {"logs": [upload]}).content.decode()
    assert "Stored: 1. Refused: 0." in html and "75,700 / 6,800 / 22,500" in html
    game = Hanchan.objects.get()
    assert [s.member for s in game.seats.order_by("index")] == members
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Online game (Mahjong Soul), log derived-" in page


def test_looks_like_needs_a_new_round_among_named_records():
    assert majsoul.looks_like({"records": [{"name": ".lq.RecordNewRound", "data": {}}]})
    assert majsoul.looks_like([{"name": "RecordNewRound", "data": {"scores": [1]}}])
    assert not majsoul.looks_like({"players": ["A", "B", "C", "D"], "hands": []})
    assert not majsoul.looks_like({"log": [], "name": []})
