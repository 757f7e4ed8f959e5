"""Real Tenhou JSON games written again in other formats, for the readers' tests: what a
Mahjong Soul record or a 3-player mjai log of the same game would say.

Only the facts the readers use are written (the figures of every hand, who declared riichi,
who discarded the winning tile, the calls that make a player liable), each taken from the
real log as it is; the draws and discards in between are left out, as the readers skip them.
tests/data/online/README.md ("Derived logs") names the games used.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scoring.online.majsoul import _FAN_TO_TENHOU, ROUND_WIND_FAN, SEAT_WIND_FAN
from scoring.online.mjlog_hands import TENHOU_YAKU_NAMES

# Tenhou's yaku ids back to Mahjong Soul's fan ids (10-13 and 14-17: the seat and round wind).
_TENHOU_TO_FAN = {tenhou: fan for fan, tenhou in _FAN_TO_TENHOU.items()} | {
    **dict.fromkeys(range(10, 14), SEAT_WIND_FAN),
    **dict.fromkeys(range(14, 18), ROUND_WIND_FAN),
}
_YAKU = re.compile(r"^(?P<name>.+)\((?:(?P<han>\d+)飜|(?P<yakuman>役満))\)$")
_COUNTED = re.compile(r"^(\d+)符(\d+)飜")
_POINTS = re.compile(r"(\d+)(?:-(\d+))?点(∀)?$")
# Tenhou JSON's abortive draws and the RecordLiuJu type Mahjong Soul writes for each.
_LIUJU = {"九種九牌": 1, "四風連打": 2, "四槓散了": 3, "四家立直": 4, "三家和了": 5}
_MJAI_WINDS = "ESWN"


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _players(log: dict[str, Any]) -> int:
    names = log["name"]
    return 3 if len(names) == 3 or names[3] == "" else 4


def _riichi(rnd: list[Any], seat: int) -> bool:
    discards = rnd[6 + 3 * seat]
    return any(isinstance(d, str) and d.startswith("r") for d in discards)


def _ronned_riichi(rnd: list[Any], seat: int) -> bool:
    """The seat's riichi declaration was its last discard (so it may have been ronned)."""
    discards = rnd[6 + 3 * seat]
    return bool(discards) and isinstance(discards[-1], str) and discards[-1].startswith("r")


def _honor_pons(rnd: list[Any], seat: int, players: int) -> list[tuple[str, int]]:
    """The seat's pons and open kans of honours, with the seat they were called from
    (Tenhou JSON: ``p474747`` called from the left, ``47p4747`` across, ``4747p47`` right)."""
    out = []
    for call in rnd[5 + 3 * seat]:
        if not isinstance(call, str) or not ("p" in call or "m" in call):
            continue
        marker = "p" if "p" in call else "m"
        position = call.index(marker) // 2
        tile = int(call[call.index(marker) + 1 : call.index(marker) + 3])
        if tile < 41:
            continue
        # Left (kamicha), across, right (shimocha); three players have no one across.
        feeder = (seat - 1 - position) % players if players == 4 else (seat + position - 1) % 3
        out.append((f"{tile - 40}z", feeder))
    return out


def _fans(yaku: list[str]) -> tuple[list[dict[str, int]], bool]:
    fans = []
    yiman = False
    for text in yaku:
        match = _YAKU.match(text)
        if match is None:
            continue
        name = match["name"].strip().replace("１３", "13")
        names = [n.replace("１３", "13") for n in TENHOU_YAKU_NAMES]
        if name not in names:
            continue
        fan = _TENHOU_TO_FAN.get(names.index(name))
        if fan is None:
            continue
        if match["yakuman"]:
            yiman = True
            fans.append({"id": fan, "val": 1})
        elif int(match["han"]):
            fans.append({"id": fan, "val": int(match["han"])})
    return fans, yiman


def _hule(info: list[Any], dealer: int, players: int) -> dict[str, Any]:
    who, src, _pao, result, *yaku = info
    fans, yiman = _fans(yaku)
    hule: dict[str, Any] = {"seat": who, "zimo": who == src, "fans": fans, "yiman": yiman}
    counted = _COUNTED.match(result)
    han = sum(f["val"] for f in fans) if not yiman else 13
    hule["count"] = int(counted[2]) if counted else han
    hule["fu"] = int(counted[1]) if counted else 0
    points = _POINTS.search(result)
    assert points is not None, result
    first, second = int(points[1]), points[2]
    if who != src:
        hule["point_rong"] = first
    elif who == dealer:
        hule["point_zimo_xian"] = first
    else:
        hule["point_zimo_xian"], hule["point_zimo_qin"] = first, int(second)
    return hule


def tenhou_to_majsoul(log: dict[str, Any], *, room_id: int = 0) -> dict[str, Any]:
    """``log`` (tenhou.net/6 JSON) as a Mahjong Soul record: ``head`` and ``data.actions``;
    played in a ranked room (玉の間), or in the friendly room ``room_id``, settled as the log."""
    players = _players(log)
    actions: list[dict[str, Any]] = []

    def add(name: str, data: dict[str, Any]) -> None:
        actions.append({"type": 1, "result": {"name": f".lq.{name}", "data": data}})

    for rnd in log["log"]:
        kyoku, honba, sticks = rnd[0][:3]
        dealer = kyoku % 4
        result = rnd[16]
        add(
            "RecordNewRound",
            {
                "chang": kyoku // 4,
                "ju": dealer,
                "ben": honba,
                "liqibang": sticks,
                "scores": rnd[1][:players],
            },
        )
        losers = {i[1] for i in result[2::2] if i[0] != i[1]} if result[0] == "和了" else set()
        loser = next(iter(losers), None)
        for seat in range(players):
            for tile, feeder in _honor_pons(rnd, seat, players):
                add("RecordChiPengGang", {"seat": seat, "type": 1, "tiles": [tile] * 3,
                                          "froms": [seat, seat, feeder]})  # fmt: skip
            if _riichi(rnd, seat) and not (seat == loser and _ronned_riichi(rnd, seat)):
                add("RecordDiscardTile", {"seat": seat, "tile": "1z", "is_liqi": True})
        if result[0] == "和了":
            if loser is not None:
                add("RecordDiscardTile", {"seat": loser, "tile": "1z",
                                          "is_liqi": _ronned_riichi(rnd, loser)})  # fmt: skip
            total = [0] * players
            for deltas in result[1::2]:
                total = [t + d for t, d in zip(total, deltas[:players], strict=True)]
            add(
                "RecordHule",
                {
                    "hules": [_hule(info, dealer, players) for info in result[2::2]],
                    "delta_scores": total,
                },
            )
        elif result[0] in _LIUJU:
            add("RecordLiuJu", {"type": _LIUJU[result[0]]})
        else:
            deltas = (result[1] if len(result) > 1 else [0] * 4)[:players]
            if result[0] == "全員聴牌":
                tenpai = list(range(players))
            else:
                tenpai = [s for s, d in enumerate(deltas) if d > 0]
            add(
                "RecordNoTile",
                {
                    "liujumanguan": result[0] == "流し満貫",
                    "players": [{"tingpai": s in tenpai} for s in range(players)],
                    "scores": [{"seat": s, "delta_scores": deltas} for s in tenpai[:1]],
                },
            )
    sc = log.get("sc") or []
    east_south = "東" not in log["rule"]["disp"]
    mode = (10 if players == 3 else 0) + (2 if east_south else 1)
    meta = (
        {"room_id": room_id} if room_id else {"mode_id": (23 if players == 3 else 11) + east_south}
    )
    return {
        "head": {
            "uuid": "derived-" + str(log.get("ref", "")),
            "config": {"mode": {"mode": mode}, "meta": meta},
            "accounts": [{"seat": s, "nickname": log["name"][s]} for s in range(players)],
            "result": {
                "players": [
                    {
                        "seat": s,
                        "part_point_1": sc[2 * s],
                        "total_point": round(sc[2 * s + 1] * 1000),
                    }
                    for s in range(players)
                ]
            },
        },
        "data": {"version": 210715, "actions": actions},
    }


def tenhou_to_mjai_3p(log: dict[str, Any], *, numbering: str = "per_wind") -> str:
    """``log`` (a 3-player tenhou.net/6 JSON) as mjai-reviewer3p's convlog writes it
    (hidacow/mjai-reviewer3p, convlog/src/conv.rs): four scores and names with an empty fourth
    seat, ``kyoku`` ``kyoku_num % 4 + 1`` and ``oya`` ``kyoku_num % 4``, one ``hora`` per winner
    with that winner's deltas, a ``ryukyoku`` with the draw's deltas, no reason.

    ``numbering``: ``"per_wind"`` as convlog; ``"counted_on"``, the hands numbered on past the
    East round (South 1 is ``kyoku`` 4, South 2 is 5 …), as a writer counting four seats' hands
    does; ``"east_throughout"``, ``bakaze`` left at East as the deal goes round."""
    lines = [{"type": "start_game", "names": log["name"], "kyoku_first": 4, "aka_flag": True}]
    for rnd in log["log"]:
        kyoku, honba, sticks = rnd[0][:3]
        lines.append(
            {
                "type": "start_kyoku",
                "bakaze": "E" if numbering == "east_throughout" else _MJAI_WINDS[kyoku // 4],
                "kyoku": kyoku % 4 + 1 + (3 * (kyoku // 4) if numbering == "counted_on" else 0),
                "honba": honba,
                "kyotaku": sticks,
                "oya": kyoku % 4,
                "scores": rnd[1],
            }
        )
        result = rnd[16]
        losers = {i[1] for i in result[2::2] if i[0] != i[1]} if result[0] == "和了" else set()
        for seat in range(3):
            ronned = seat in losers and _ronned_riichi(rnd, seat)
            if _riichi(rnd, seat) and not ronned:
                lines.append({"type": "reach", "actor": seat})
                lines.append({"type": "reach_accepted", "actor": seat})
        if result[0] == "和了":
            for deltas, info in zip(result[1::2], result[2::2], strict=True):
                lines.append(
                    {"type": "hora", "actor": info[0], "target": info[1], "deltas": deltas}
                )
        else:
            deltas = result[1] if len(result) > 1 else [0, 0, 0, 0]
            lines.append({"type": "ryukyoku", "deltas": deltas})
        lines.append({"type": "end_kyoku"})
    lines.append({"type": "end_game"})
    return "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n"
