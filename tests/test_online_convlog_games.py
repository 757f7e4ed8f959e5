"""Whole games from mjai-reviewer's converter fixtures and a Tenhou viewer's.

Real logs, copied byte for byte (tests/data/online/README.md):

- ``convlog/ranked_game.json`` (2019050417gm-0029-0000-4f2a8622, 特南喰赤, ends in East 3 on
  a bust) and ``convlog/suukantsu_1.json`` (2020020316gm-0001-0000-7b22ddf5, 般東喰赤, ends in
  East 2 on a bust): Tenhou's JSON as Tenhou writes it (``ver``, ``ratingc``, ``dan``,
  ``sc``), from Equim-chan/mjai-reviewer (Apache-2.0), commit
  2dc5ec5c8b28517cfb45f57eb21536d9a8f67aa9, ``convlog/tests/testdata/``;
- ``convlog/double_nukidora.json`` (2021010217gm-00b9-0000-3eb2e915, 三鳳南喰赤, 12 hands):
  Tenhou's JSON of a three-player game of January 2021, its ``sc`` rounded (+42 for 47,200);
  ``convlog/chankan.json`` (Mahjong Soul 三銀の間, East-only, the all-last dealer's win ends
  it), ``convlog/kokushi_ankan.json`` (三金の間, a dealer's kokushi ends it on a bust) and
  ``convlog/refused/kokushi_peinuki.json`` (三玉の間): Mahjong Soul games as
  hidacow/mjai-reviewer3p's tensoul writes them (names A, B, C; ``sc`` Mahjong Soul's
  settlement: back to 35,000, uma +15/0/-15, not rounded), from hidacow/mjai-reviewer3p
  (Apache-2.0), commit 03c84faa5a09aa6ea28e0dca314de020b05e5af7, ``convlog/tests/testdata/``;
- ``visualizer/test.mjlog``: a Tenhou 特上 East-only mjlog (GO type 97, no log id) from
  CrazyBBB/tenhou-visualizer (GPL-3.0), commit e347d832a4edbde00484cfa06c5cddf0025890a7,
  ``src/test/resources/mjlog/test.mjlog``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils.translation import override

from scoring.models import Hanchan
from scoring.online.log import LogAltered, LogError, LogMismatch
from scoring.online.reading import read_game_file
from scoring.online.verify import verify

DATA = Path(__file__).parent / "data" / "online"
CONVLOG = DATA / "convlog"
MJLOG = DATA / "visualizer" / "test.mjlog"


def read(raw: bytes, name: str):
    log = read_game_file(raw, name).log
    assert log is not None
    return log


def sc_points(path: Path) -> list[int]:
    """The settlement a JSON's ``sc`` writes, in points (``-29.8`` = -29,800)."""
    sc = json.loads(path.read_text())["sc"]
    players = 3 if json.loads(path.read_text())["name"][3] == "" else 4
    return [round(float(p) * 1000) for p in sc[1 : 2 * players : 2]]


@pytest.mark.parametrize(
    ("name", "ruleset", "points"),
    [
        ("ranked_game.json", "tenhou-4p", [-19000, 65000, -55000, 9000]),
        ("suukantsu_1.json", "tenhou-4p-east", [18000, -11000, -74000, 67000]),
        # Tenhou rounded three-player games in January 2021: +42 / -8 / -34, not the
        # tenths +42.2 / -8.1 / -34.1.
        ("double_nukidora.json", "tenhou-3p", [-8000, 42000, -34000]),
        # Mahjong Soul's own settlement, not Tenhou's (-39.8 / -14.2 / +54.0 before).
        ("chankan.json", "tenhou-3p-east", [-29800, -9200, 39000]),
        ("kokushi_ankan.json", "tenhou-3p", [63000, -63000, 0]),
    ],
)
def test_a_whole_game_is_re_scored_hand_by_hand_and_settled_as_its_service_did(
    name, ruleset, points
):
    path = CONVLOG / name
    log = read(path.read_bytes(), name)
    verified = verify(log)
    assert verified.ruleset == ruleset
    assert len(verified.results) == len(log.hands)
    for result, hand in zip(verified.results, log.hands, strict=True):
        assert result.deltas == hand.deltas, hand.label
    assert verified.final["scores"] == list(log.final_scores)
    assert verified.final["points"] == points == sc_points(path)
    assert verified.settlement_note == ""


def test_a_mahjong_soul_ranked_room_settles_back_to_its_start_and_keeps_open_tanyao():
    """mjai-reviewer3p's room name leaves 喰 out (三銀の間赤): Mahjong Soul's ranked rooms play
    open tanyao all the same; the extension still asks for 40,000 (majsoul-3p)."""
    log = read((CONVLOG / "chankan.json").read_bytes(), "chankan.json")
    verified = verify(log)
    assert verified.overrides == {
        "return_points": 35000,
        "oka": 0,
        "uma": [15000, 0, -15000],
    }
    assert log.service == "majsoul"


def test_an_edited_sc_of_a_mahjong_soul_ranked_game_is_noted_not_followed():
    data = json.loads((CONVLOG / "chankan.json").read_text())
    data["sc"] = [20200, -39.8, 25800, -9.2, 59000, 49, 0, 0]
    verified = verify(read(json.dumps(data, ensure_ascii=False).encode(), "x.json"))
    assert verified.final["points"] == [-29800, -9200, 39000]
    assert "the log's [-39800, -9200, 49000]" in verified.settlement_note


def test_the_three_player_era_of_2021_is_tenhous_rounding():
    log = read((CONVLOG / "double_nukidora.json").read_bytes(), "double_nukidora.json")
    verified = verify(log)
    assert verified.overrides == {"final_rounding": "round_half_away", "top_takes_remainder": True}
    # The same game with an sc in tenths is settled as its day says, the sc noted.
    data = json.loads((CONVLOG / "double_nukidora.json").read_text())
    data["sc"] = [31900, -8.1, 47200, 42.2, 25900, -34.1, 0, 0]
    edited = verify(read(json.dumps(data, ensure_ascii=False).encode(), "x.json"))
    assert edited.final["points"] == [-8000, 42000, -34000]
    assert "the log's [-8100, 42200, -34100]" in edited.settlement_note


def test_a_tenhou_mjlog_without_log_id_is_re_scored_and_settled_as_its_owari():
    log = read(MJLOG.read_bytes(), "test.mjlog")
    verified = verify(log)
    assert verified.ruleset == "tenhou-4p-east"
    assert [r.deltas for r in verified.results] == [h.deltas for h in log.hands]
    assert verified.final["points"] == [42000, -33000, 9000, -18000] == list(log.final_points)


def edited_json(name: str, hand: int, change: int) -> bytes:
    data = json.loads((CONVLOG / name).read_text())
    deltas = data["log"][hand][-1][1]
    winner = max(range(len(deltas)), key=lambda s: deltas[s])
    loser = min(range(len(deltas)), key=lambda s: deltas[s])
    deltas[winner] += change
    deltas[loser] -= change
    return json.dumps(data, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    ("name", "hand", "label"),
    [
        ("ranked_game.json", 1, "E2 0 honba"),
        ("double_nukidora.json", 3, "E2 0 honba"),
        ("chankan.json", 1, "E2 0 honba"),
    ],
)
def test_one_hands_edited_points_are_refused_naming_the_hand(name, hand, label):
    with pytest.raises(LogError) as refused:
        verify(read(edited_json(name, hand, 100), name))
    assert isinstance(refused.value, (LogAltered, LogMismatch))
    assert refused.value.hand == label


def test_an_edited_agari_of_the_mjlog_is_refused_naming_the_hand():
    raw = MJLOG.read_bytes().replace(b'ten="30,1500,0"', b'ten="30,2000,0"')
    with pytest.raises(LogAltered) as refused:
        verify(read(raw, "test.mjlog"))
    assert refused.value.hand == "E3 1 honba"


def test_the_kita_kokushi_whose_deltas_leave_out_the_stick_is_refused_naming_the_hand():
    """Its last win's deltas (-48,000 / +48,000) leave out seat 0's riichi stick that its own
    final scores (94,000) give the winner: the log contradicts itself in East 3."""
    path = CONVLOG / "refused" / "kokushi_peinuki.json"
    with pytest.raises(LogError) as refused:
        verify(read(path.read_bytes(), path.name))
    assert refused.value.hand == "E3 0 honba"


def test_the_games_import_once(db):
    paths = [str(p) for p in sorted(CONVLOG.glob("*.json"))] + [str(MJLOG)]
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        call_command("import_games", *paths, "--create-members", stdout=out, stderr=err)
    assert out.getvalue().count("imported ") == 6, err.getvalue()
    stored = {
        game.online.log_id: [s.points for s in game.seats.order_by("index")]
        for game in Hanchan.objects.select_related("online")
    }
    assert stored["2021010217gm-00b9-0000-3eb2e915"] == [-8000, 42000, -34000]
    assert [-29800, -9200, 39000] in stored.values()  # chankan.json: Mahjong Soul's
    assert [63000, -63000, 0] in stored.values()  # kokushi_ankan.json
    out = io.StringIO()
    with override("en"), pytest.raises(CommandError):
        call_command(
            "import_games",
            *paths,
            str(CONVLOG / "refused" / "kokushi_peinuki.json"),
            stdout=out,
            stderr=io.StringIO(),
        )
    assert out.getvalue().count("already imported") == 6
    assert Hanchan.objects.count() == 6


# -- JBreidfjord/riichi-rs's whole games (LGPL-2.1, commit ee74c7920836cd5c05c4964048302c97137af72b:
# riichi/data/t6-samples/notable-features/, t6-samples-excluded/ and tenhou-shuffle/test_data/)

RIICHI_RS = DATA / "riichi-rs"


@pytest.mark.parametrize(
    ("name", "points"),
    [
        # 2008-12-17, 上東喰赤速: East-only uma +10/+5 and rounded, the top takes the rest.
        ("yakuman-kazoe-17.json", [-35000, -8000, -26000, 69000]),
        # 2016-02-25, one hand: a kokushi ron busts seat 1.
        ("2016022509gm-0009-0000-b327da61.json", [5000, -57000, -15000, 67000]),
        ("2016022509gm-0009-0000-b327da61.xml", [5000, -57000, -15000, 67000]),
        # 2022: in tenths.
        ("ron-2-no-honba.json", None),
        ("abort-almost-nagashi-mangan.json", None),
        ("pao-2.json", None),
        ("pao.json", None),
        ("yakuman-2.json", None),
        # Tenhou lobby 7447 (a private lobby's log id).
        ("furiten.json", None),
        ("yakuman-four-kans-2.json", None),
    ],
)
def test_riichi_rs_whole_games_are_re_scored_and_settled_as_tenhou_did(name, points):
    path = RIICHI_RS / name
    log = read(path.read_bytes(), name)
    verified = verify(log)
    assert [r.deltas for r in verified.results] == [h.deltas for h in log.hands]
    stated = log.final_points if log.final_points is not None else log.stated_points
    assert stated is not None
    assert verified.final["points"] == list(stated)
    if points is not None:
        assert verified.final["points"] == points
    assert verified.settlement_note == ""


def test_the_one_hand_game_as_mjlog_and_as_json_is_one_game(db):
    xml = RIICHI_RS / "2016022509gm-0009-0000-b327da61.xml"
    out = io.StringIO()
    with override("en"):
        call_command("import_games", str(xml), "--create-members", stdout=out)
        call_command("import_games", str(xml.with_suffix(".json")), stdout=out)
    assert "imported tenhou 2016022509gm-0009-0000-b327da61" in out.getvalue()
    assert "already imported" in out.getvalue()
    assert Hanchan.objects.count() == 1


# -- a ranked lobby's result line that links its log (Tenhou's ``scc`` files) ----------------

# The form of teplofizik/TenhouViewer's readme line (6d75a794c4f72c339f1e4b87aafd97679e1fc932,
# ``readme.md``: ``00:00 | 05 | 三鳳南喰赤－ |
# <a href="…?log=2013022000gm-00b9-0000-73f9f276">牌譜</a> |
# Ixy0411(+76.0) ゆかこき(-5.0) garu47(-71.0)<br>``), written for the real game
# tenhou-json/2024010120gm-00b9-0000-e324b88a.json: its names and its sc, best first.
SCC_LINE = (
    '20:41 | 13 | 三鳳南喰赤－ | <a href="http://tenhou.net/0/?log=2024010120gm-00b9-0000-e324b88a">'
    "牌譜</a> | 代々木寿人(+70.7) れすこ(-17.5) 傍若無人51(-53.2)<br>\n"
)
SCC_LOG = DATA / "tenhou-json" / "2024010120gm-00b9-0000-e324b88a.json"


@pytest.mark.parametrize("line_first", [True, False], ids=["line-then-log", "log-then-line"])
def test_a_result_line_that_links_its_log_and_the_log_are_one_game(db, tmp_path, line_first):
    lines = tmp_path / "scc.txt"
    lines.write_text(SCC_LINE, encoding="utf-8")
    first, second = (lines, SCC_LOG) if line_first else (SCC_LOG, lines)
    out = io.StringIO()
    with override("en"):
        call_command(
            "import_games", str(first), "--create-members", "--date", "2026-11-29", stdout=out
        )
        call_command("import_games", str(second), "--date", "2026-11-29", stdout=out)
    assert "already imported" in out.getvalue(), out.getvalue()
    game = Hanchan.objects.get()
    assert game.online.log_id == "2024010120gm-00b9-0000-e324b88a"
    # The line is dated by its log's id, not by --date.
    assert str(game.played_on) == "2024-01-01"


# -- MahjongPantheon/pantheon's tensoul games (GPL-3.0; commit
# b8609fd8f4d905d2d72ce73a0034f50a0772e18b, Mimir/tests/helpers/onlineLog/testdata/format6/)


def test_a_four_player_mahjong_soul_ranked_game_is_settled_as_mahjong_soul_did():
    """``pantheon/tensoul_usual.json``: 銅の間東喰赤 (October 2023); its sc is Mahjong Soul's
    +33.6 / +7.8 / -9.4 / -32.0 (back to 25,000, uma +15/+5/-5/-15). Tenhou's settlement
    (+54 / +8 / -19 / -43) was stored before."""
    path = DATA / "pantheon" / "tensoul_usual.json"
    log = read(path.read_bytes(), path.name)
    verified = verify(log)
    assert [r.deltas for r in verified.results] == [h.deltas for h in log.hands]
    assert verified.final["points"] == [33600, 7800, -9400, -32000] == sc_points(path)
    assert verified.settlement_note == ""


def test_a_tournament_rooms_uma_is_read_never_more_for_a_lower_rank():
    """``lobby/tensoul_with_same_nicknames.json`` (大会戦東喰): +10.0 / -28.7 / -15.0 / +33.7
    for 30,000 / 11,300 / 15,000 / 43,700 is +15/+5/-5/-15 back to 25,000, not +0/+10/0/-10
    with Tenhou's 30,000 and oka (the same points, rules no room has); the extension still
    asks 30,000."""
    path = DATA / "lobby" / "tensoul_with_same_nicknames.json"
    log = read(path.read_bytes(), path.name)
    verified = verify(log)
    assert verified.overrides is not None
    assert verified.overrides["uma"] == [15000, 5000, -5000, -15000]
    assert verified.overrides["return_points"] == 25000
    assert "extension_target" not in verified.overrides
    assert verified.final["points"] == [10000, -28700, -15000, 33700] == sc_points(path)
