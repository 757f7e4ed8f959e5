"""Reading Mahjong Soul's own game records: ``GameDetailRecords`` decoded to JSON, 4- and
3-player.

Replay tools and downloaders write a record as the protobuf messages of Mahjong Soul's
``liqi.proto`` turned into JSON (protobuf.js ``toObject``, Python ``MessageToDict``): ``head``
(``RecordGame``: ``uuid``, ``start_time``, ``config.mode.mode`` — 1/2 four players East-only/
East-South, 11/12 three players —, ``config.meta.room_id``, ``accounts[]`` with ``seat`` and
``nickname``, ``result.players[]`` with ``seat``, ``part_point_1`` the final score and
``total_point`` the settlement) and the records, either ``data.actions[]`` (version 210715
on: ``{"type": 1, "result": {"name": ".lq.RecordNewRound", "data": {...}}}``) or
``data.records[]`` (``{"name": ..., "data": ...}``); the ``data`` level, the ``head`` and the
``.lq.`` prefix may be missing. As protobuf writes JSON, a field at its default (seat 0,
``false``, ``0``) may be left out.

Records used (the others — draws, calls but for pao, kans but for their count — are skipped):

- ``RecordNewRound``: ``chang`` (0 East … 3 North), ``ju`` (the dealer's seat), ``ben``
  (honba), ``liqibang`` (riichi sticks on the table), ``scores``; a hand begins.
- ``RecordDiscardTile``: ``seat``, ``is_liqi``/``is_wliqi`` (a riichi declared; its stick goes
  out unless that discard is ronned), the discarder a ron is paid by; ``RecordAnGangAddGang``
  (an added kan may be robbed: chankan) and ``RecordBaBei`` (a kita may be ronned) likewise.
- ``RecordChiPengGang`` and ``RecordAnGangAddGang``: the melds of winds and dragons, for pao
  (the fourth wind or third dragon meld makes its discarder liable, as tensoul reads them).
- ``RecordHule``: ``hules[]`` (``seat``, ``zimo``, ``count`` han, ``fu``, ``yiman``, ``fans[]``
  ``id``/``val``, ``point_rong``, ``point_zimo_qin``/``point_zimo_xian``), ``delta_scores``
  (the hand's changes, riichi sticks put out in it left out; ``old_scores``/``scores`` are not
  read: no real record found shows whether they count the sticks put out).
- ``RecordNoTile``: ``players[].tingpai``, ``liujumanguan``, ``scores[].delta_scores``.
- ``RecordLiuJu``: ``type`` 1 九種九牌, 2 四風連打, else 四家立直 (four riichi), 四槓散了 (four
  kans) or 三家和了.

A record whose wins state no han (a record stripped of them) is read as mjai is: every value
is a candidate and :mod:`.verify` keeps the one that pays exactly the record's changes. The
rulesets tried are the ``majsoul`` presets (docs/online-logs.md). Pure Python: no Django.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.limits import counted_limit

from .links import replay_url
from .log import (
    LogError,
    LogHand,
    OnlineLog,
    StatedEnd,
    deltas_between,
    points_of,
    round_label,
    stated_changes,
)
from .mjai import VALUE_CANDIDATES
from .mjlog_hands import TENHOU_YAKU

# Mahjong Soul's fan ids to Tenhou's yaku ids (:data:`.mjlog_hands.TENHOU_YAKU`); 10 and 11
# (seat and round wind) are placed by the winds of the hand, 34 (kita) and the local yaku
# Tenhou has not are left out. Source: the fan table (YAKU_NAMES by Mahjong Soul's fan id) of
# a tensoul port for NAGA, and tensoul's DAISANGEN = 37, DAISUUSHI = 50.
_FAN_TO_TENHOU = {
    1: 0, 2: 1, 3: 3, 4: 4, 5: 5, 6: 6, 7: 18, 8: 19, 9: 20, 12: 8, 13: 9, 14: 7, 15: 23,
    16: 24, 17: 25, 18: 21, 19: 26, 20: 27, 21: 28, 22: 29, 23: 30, 24: 31, 25: 22, 26: 33,
    27: 34, 28: 32, 29: 35, 30: 2, 31: 52, 32: 54, 33: 53, 35: 37, 36: 38, 37: 39, 38: 40,
    39: 42, 40: 43, 41: 44, 42: 47, 43: 50, 44: 51, 45: 45, 47: 46, 48: 41, 49: 48, 50: 49,
    59: 36,
}  # fmt: skip
SEAT_WIND_FAN, ROUND_WIND_FAN = 10, 11
# The yakuman a meld makes its discarder liable for (Mahjong Soul's fan ids).
DAISANGEN_FAN, DAISUUSHII_FAN = 37, 50
MODES = {1: (4, False), 2: (4, True), 11: (3, False), 12: (3, True)}
# Ranked rooms by ``head.config.meta.mode_id`` (East-only, East-South): 4 players 2-16,
# 3 players 17-26. [OPEN] as public tools list them; a real ranked game's configuration in
# ChildeRolando/MjsoulTileTrace (real-ranked-rule-config.json) is mode_id 6 with mode 2.
ROOMS = {
    **dict.fromkeys((2, 3, 17, 18), "銅の間"),
    **dict.fromkeys((5, 6, 19, 20), "銀の間"),
    **dict.fromkeys((8, 9, 21, 22), "金の間"),
    **dict.fromkeys((11, 12, 23, 24), "玉の間"),
    **dict.fromkeys((15, 16, 25, 26), "王座の間"),
}
RECORD_NAMES = (
    "RecordNewRound",
    "RecordDiscardTile",
    "RecordChiPengGang",
    "RecordAnGangAddGang",
    "RecordBaBei",
    "RecordHule",
    "RecordNoTile",
    "RecordLiuJu",
)
KAN_CALL, PON_CALL = 2, 1
ADDED_KAN = 2


def looks_like(data: Any) -> bool:
    """``data`` (parsed JSON) holds Mahjong Soul records: a ``RecordNewRound`` among them."""
    entries = _entries(data)
    return entries is not None and any(name == "RecordNewRound" for name, _ in entries)


def read(data: Any, raw: bytes) -> OnlineLog:
    """The :class:`OnlineLog` of a decoded Mahjong Soul record (``raw``: the file, for its
    hash where the record has no ``head.uuid``).

    Raises:
        LogError: a record of the wrong shape, naming it (``actions[12] RecordHule: …``).
    """
    entries = _entries(data) or []
    head = data.get("head") if isinstance(data, dict) else None
    head = head if isinstance(head, dict) else {}
    hands_raw: list[_RawHand] = []
    for index, (name, body) in enumerate(entries):
        where = f"records[{index}] {name}"
        if name == "RecordNewRound":
            hands_raw.append(_RawHand(where, body))
        elif name in RECORD_NAMES:
            if not hands_raw:
                raise LogError(f"{where}: before any RecordNewRound")
            hands_raw[-1].events.append((where, name, body))
    if not hands_raw:
        raise LogError("RecordNewRound: the record has no hands")
    first = _scores(hands_raw[0].start.get("scores"), None, f"{hands_raw[0].where}: scores")
    players = len(first)
    if players not in (3, 4):
        raise LogError(f"{hands_raw[0].where}: scores for {players} players")
    names = _names(head, players)
    hands = tuple(_hand(hands_raw, i, players) for i in range(len(hands_raw)))
    mode = _int_or(_dig(head, "config", "mode"), "mode", 0)
    meta = _dig(head, "config", "meta")
    room = _int_or(meta, "room_id", 0) or _int_or(meta, "contest_uid", 0)
    uuid = head.get("uuid")
    if isinstance(uuid, str) and uuid.strip():
        log_id = uuid.strip()
    else:
        log_id = f"sha256:{hashlib.sha256(raw).hexdigest()[:32]}"
    return OnlineLog(
        service="majsoul",
        log_format="majsoul-json",
        log_id=log_id,
        lobby=str(room) if room else "",
        rule_label=rule_label(head, players),
        rulesets=rulesets_of_mode(mode, players),
        players=names,
        hands=hands,
        final_scores=_final_scores(head, players),
        final_points=None,
        stated_points=_stated_points(head, players),
        played_on=_played_on(head),
        replay_url=replay_url("majsoul", log_id),
    )


def rule_label(head: dict[str, Any], players: int) -> str:
    """The room and rules as tensoul writes a Mahjong Soul game's ``rule.disp``:
    ``玉の間南喰赤``, ``三友人戦東喰赤``, ``大会戦南喰`` — 東/南 the length (``mode``), 喰 open
    tanyao (every Mahjong Soul room has it), 赤 red fives (a ranked room, or a room of its own
    with ``detail_rule.dora_count``)."""
    mode = _int_or(_dig(head, "config", "mode"), "mode", 0)
    meta = _dig(head, "config", "meta")
    mode_id = _int_or(meta, "mode_id", 0)
    if mode_id:
        room = ROOMS.get(mode_id, "")
    elif _int_or(meta, "room_id", 0):
        room = "友人戦"
    elif _int_or(meta, "contest_uid", 0):
        room = "大会戦"
    else:
        room = ""
    east_south = MODES.get(mode, (players, None))[1]
    length = "" if east_south is None else ("南" if east_south else "東")
    red = mode_id or _int_or(_dig(head, "config", "mode", "detail_rule"), "dora_count", 0)
    return f"{'三' if players == 3 else ''}{room}{length}喰{'赤' if red else ''}"


def rulesets_of_mode(mode: int, players: int) -> tuple[str, ...]:
    """The ``majsoul`` presets for ``head.config.mode.mode`` (1/11 East-only, 2/12
    East-South), the record's length first; both lengths when the record does not say."""
    base = "majsoul-3p" if players == 3 else "majsoul"
    east_south = MODES.get(mode, (players, None))[1]
    if east_south is False:
        return (f"{base}-east", base)
    return (base, f"{base}-east")


@dataclass
class _RawHand:
    where: str
    start: dict[str, Any]
    events: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)


def _entries(data: Any) -> list[tuple[str, dict[str, Any]]] | None:
    """The records of ``data`` as ``(name without .lq., body)``, or ``None`` where it holds
    no list of records; an empty action (no result: a player's input) is skipped."""
    levels: list[Any] = [data]
    if isinstance(data, dict):
        levels.append(data.get("data"))
        if isinstance(data.get("data"), dict):
            levels.append(data["data"].get("data"))
    for level in levels:
        items: Any = level
        if isinstance(level, dict):
            items = level.get("actions") or level.get("records")
        if not isinstance(items, list) or not items:
            continue
        out = []
        for item in items:
            if not isinstance(item, dict):
                continue
            record = item.get("result", item)
            if not isinstance(record, dict) or not isinstance(record.get("name"), str):
                continue
            body = record.get("data") or {}
            if not isinstance(body, dict):
                raise LogError(f"{record['name']}: data must be an object (a decoded record)")
            out.append((record["name"].rsplit(".", 1)[-1], body))
        if out:
            return out
    return None


def _dig(data: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _int_or(data: Any, key: str, default: int) -> int:
    value = data.get(key, default) if isinstance(data, dict) else default
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _seat(body: dict[str, Any], players: int, where: str, key: str = "seat") -> int:
    value = body.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise LogError(f"{where}: {key} {value!r} is not a seat at the table")
    return value


def _scores(value: Any, players: int | None, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise LogError(f"{where}: must be a list of scores")
    if players is not None and len(value) < players:
        raise LogError(f"{where}: must be the scores of {players} players")
    scores = tuple(points_of(v, where) for v in value)
    return scores if players is None else scores[:players]


def _names(head: dict[str, Any], players: int) -> tuple[str, ...]:
    """Each seat's nickname (``head.accounts``); a seat with none (a CPU) is ``"AI (seat n)"``."""
    names = [f"AI (seat {seat + 1})" for seat in range(players)]
    accounts = head.get("accounts")
    for account in accounts if isinstance(accounts, list) else []:
        if not isinstance(account, dict):
            continue
        seat = account.get("seat", 0)
        nickname = account.get("nickname")
        if isinstance(seat, int) and 0 <= seat < players and isinstance(nickname, str):
            names[seat] = nickname
    return tuple(names)


def _final_scores(head: dict[str, Any], players: int) -> tuple[int, ...] | None:
    """The final scores of ``head.result.players`` (``part_point_1`` by seat), or ``None``."""
    rows = _dig(head, "result", "players")
    if not isinstance(rows, list) or len(rows) != players:
        return None
    scores: list[int | None] = [None] * players
    for row in rows:
        if not isinstance(row, dict):
            return None
        seat = row.get("seat", 0)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise LogError(f"head.result.players: seat {seat!r} is not a seat at the table")
        scores[seat] = points_of(row.get("part_point_1", 0), "head.result.players")
    if any(s is None for s in scores):
        raise LogError("head.result.players: every seat must have its final score")
    return tuple(s for s in scores if s is not None)


def _stated_points(head: dict[str, Any], players: int) -> tuple[int, ...] | None:
    """Each seat's settlement as ``head.result.players[].total_point`` writes it (points:
    ``45000`` is +45.0, as tensoul reads it), or ``None``. Not compared: a friendly room's
    return and uma are read from it (:mod:`.lobby_rules`), a ranked room's counts rank
    points the club does not."""
    rows = _dig(head, "result", "players")
    if not isinstance(rows, list) or len(rows) != players:
        return None
    points: dict[int, int] = {}
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("seat", 0), int):
            return None
        value = row.get("total_point", 0)
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        points[row.get("seat", 0)] = value
    if sorted(points) != list(range(players)):
        return None
    return tuple(points[seat] for seat in range(players))


def _played_on(head: dict[str, Any]) -> datetime.date | None:
    """The day the game began (``head.start_time``, seconds since 1970, UTC), or ``None``."""
    value = head.get("start_time")
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    try:
        return datetime.datetime.fromtimestamp(value, tz=datetime.UTC).date()
    except (OverflowError, OSError, ValueError):
        return None


@dataclass
class _Table:
    """What the records of one hand say, read in order."""

    players: int
    riichi: list[int] = field(default_factory=list)
    pending: int | None = None  # a riichi declared on the last discard, its stick not out
    last_actor: int | None = None  # whose discard, added kan or kita a ron is paid by
    kans: int = 0
    winds: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    dragons: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    liable_wind: int | None = None
    liable_dragon: int | None = None

    def accept_riichi(self) -> None:
        """The riichi declared on the last discard stands: the discard was not ronned."""
        if self.pending is not None:
            self.riichi.append(self.pending)
            self.pending = None

    def meld(self, owner: int, tile: Any, feeder: int | None) -> None:
        """A pon or kan of ``tile`` by ``owner`` (``feeder`` the discarder, ``None`` closed)."""
        if not (isinstance(tile, str) and len(tile) == 2 and tile[1] == "z"):
            return
        if tile[0] in "1234":
            self.winds[owner] += 1
            if self.winds[owner] == 4 and feeder is not None:
                self.liable_wind = feeder
        elif tile[0] in "567":
            self.dragons[owner] += 1
            if self.dragons[owner] == 3 and feeder is not None:
                self.liable_dragon = feeder


def _hand(hands: list[_RawHand], i: int, players: int) -> LogHand:
    raw = hands[i]
    start = raw.start
    where = raw.where
    chang = _int_or(start, "chang", 0)
    ju = _seat(start, players, where, "ju")
    honba = _int_or(start, "ben", 0)
    sticks = _int_or(start, "liqibang", 0)
    scores = _scores(start.get("scores"), players, f"{where}: scores")
    table = _Table(players)
    ends: list[tuple[str, str, dict[str, Any]]] = []
    for event in raw.events:
        ev_where, name, body = event
        if ends:
            raise LogError(f"{ev_where}: after the end of the hand ({ends[0][0]})")
        if name == "RecordDiscardTile":
            table.accept_riichi()
            seat = _seat(body, players, ev_where)
            table.last_actor = seat
            if body.get("is_liqi") or body.get("is_wliqi"):
                table.pending = seat
        elif name in ("RecordAnGangAddGang", "RecordBaBei"):
            table.accept_riichi()
            seat = _seat(body, players, ev_where)
            table.last_actor = seat
            if name == "RecordAnGangAddGang":
                table.kans += 1
                if body.get("type", 0) != ADDED_KAN:
                    table.meld(seat, body.get("tiles"), None)
        elif name == "RecordChiPengGang":
            table.accept_riichi()
            seat = _seat(body, players, ev_where)
            kind = body.get("type", 0)
            if kind in (PON_CALL, KAN_CALL):
                table.kans += kind == KAN_CALL
                tiles = body.get("tiles")
                tile = tiles[0] if isinstance(tiles, list) and tiles else None
                table.meld(seat, tile, _feeder(body, seat, table.last_actor))
        else:
            if name != "RecordHule":
                table.accept_riichi()
            ends.append(event)
    if not ends:
        raise LogError(f"{where}: the record stops in the middle of the hand (no end)")
    end_where, end_name, end = ends[0]
    stated: tuple[StatedEnd, ...]
    if end_name == "RecordHule":
        hules = _hules(end, players, end_where)
        loser = _loser(hules, table, end, players, end_where)
        if loser is not None and table.pending == loser:
            table.pending = None  # the riichi discard was ronned: no stick went out
        table.accept_riichi()
        stated = _hule_stated(end, hules, ju, players, end_where)
        base = _base(table)
        candidates = _wins(hules, loser, table, base, chang, ju, players, end_where)
    elif end_name == "RecordNoTile":
        stated = _no_tile_stated(end, players, end_where)
        candidates = _no_tile(end, _base(table), players, ju, stated, end_where)
    else:
        stated = ()
        candidates = ({"result": "abort", "kind": _abort_kind(end, table), **_base(table)},)
    log_deltas = stated_changes(stated, players)
    if i + 1 < len(hands):
        nxt = hands[i + 1]
        deltas = deltas_between(scores, _scores(nxt.start.get("scores"), players, nxt.where))
    else:
        # The last hand: the record's own changes (none written is none paid: an all-noten or
        # all-tenpai draw), the sticks put out in it; the final scores check them.
        deltas = tuple(d - (1000 if s in table.riichi else 0) for s, d in enumerate(log_deltas))
    return LogHand(
        round=round_label(chang, ju),
        honba=honba,
        deposits=sticks * 1000,
        start_scores=scores,
        deltas=deltas,
        candidates=candidates,
        stated=stated,
    )


def _feeder(body: dict[str, Any], seat: int, last: int | None) -> int | None:
    """Whose discard a call took: the one of ``froms`` that is not the caller, else the
    last discarder."""
    froms = body.get("froms")
    if isinstance(froms, list):
        others = [f for f in froms if isinstance(f, int) and f != seat]
        if len(others) == 1:
            return others[0]
    return last


def _base(table: _Table) -> dict[str, Any]:
    return {"riichi": sorted(set(table.riichi))} if table.riichi else {}


def _hules(end: dict[str, Any], players: int, where: str) -> list[dict[str, Any]]:
    hules = end.get("hules")
    if not isinstance(hules, list) or not hules or not all(isinstance(h, dict) for h in hules):
        raise LogError(f"{where}: hules must list the wins")
    for hule in hules:
        _seat(hule, players, where)
    return hules


def _loser(
    hules: list[dict[str, Any]], table: _Table, end: dict[str, Any], players: int, where: str
) -> int | None:
    """Who pays a ron: the last discard's, added kan's or kita's seat; ``None`` on a tsumo."""
    if any(h.get("zimo") for h in hules):
        if len(hules) != 1:
            raise LogError(f"{where}: a tsumo with more than one winner")
        return None
    if table.last_actor is not None:
        return table.last_actor
    raise LogError(f"{where}: a ron with no discard before it")


def _hule_stated(
    end: dict[str, Any], hules: list[dict[str, Any]], dealer: int, players: int, where: str
) -> tuple[StatedEnd, ...]:
    """The hand's ``delta_scores`` as one end, and each win's value as written
    (``point_rong``, ``point_zimo_qin``/``point_zimo_xian``)."""
    if end.get("delta_scores") is None:
        return ()
    changes = _scores(end.get("delta_scores"), players, f"{where}: delta_scores")
    return tuple(
        StatedEnd(
            f"RecordHule of seat {hule.get('seat', 0)}",
            changes if index == 0 else (0,) * players,
            winner=hule.get("seat", 0),
            value=_win_points(hule, dealer, players),
        )
        for index, hule in enumerate(hules)
    )


def _win_points(hule: dict[str, Any], dealer: int, players: int) -> int | None:
    """What the win pays its winner as the record writes it, honba and deposits left out."""
    if "count" not in hule and "fu" not in hule:
        return None
    if not hule.get("zimo"):
        value = hule.get("point_rong")
        return value if isinstance(value, int) and value > 0 else None
    each = hule.get("point_zimo_xian", 0)
    dealer_pays = hule.get("point_zimo_qin", 0)
    if not (isinstance(each, int) and isinstance(dealer_pays, int)):
        return None
    if hule.get("seat", 0) == dealer:
        return each * (players - 1)
    return dealer_pays + each * (players - 2)


def _wins(
    hules: list[dict[str, Any]],
    loser: int | None,
    table: _Table,
    base: dict[str, Any],
    chang: int,
    dealer: int,
    players: int,
    where: str,
) -> tuple[dict[str, Any], ...]:
    """The club-record hands a ``RecordHule`` may be: one per reading of each win's value and
    pao (a yakuman win of a record that states its fans has its pao read from the melds)."""
    per_win: list[list[dict[str, Any]]] = []
    for hule in hules:
        seat = hule.get("seat", 0)
        if loser is not None and seat == loser:
            raise LogError(f"{where}: seat {seat} rons its own discard")
        readings: list[dict[str, Any]] = []
        for value in _values(hule):
            win: dict[str, Any] = {"winner": seat, **value}
            yaku = _yaku(hule, chang, dealer, players)
            if yaku:
                win["yaku"] = yaku
            readings.append(win)
            if value.get("limit") == "yakuman":
                for liable in _liable(hule, table, seat):
                    readings.append({**win, "pao": liable})
        per_win.append(readings)
    out = []
    for combination in itertools.product(*per_win):
        wins = list(combination)
        if loser is None:
            out.append({"result": "tsumo", "wins": wins, **base})
        else:
            out.append({"result": "ron", "loser": loser, "wins": wins, **base})
    return tuple(out)


def _values(hule: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The record's value keys of a win: from ``yiman``/``fans``, ``count`` and ``fu`` where
    the record states them, else every value (:data:`.mjai.VALUE_CANDIDATES`)."""
    if "count" not in hule and not hule.get("yiman"):
        return VALUE_CANDIDATES
    if hule.get("yiman"):
        fans = hule.get("fans")
        count = (
            sum(
                f.get("val", 0)
                for f in fans
                if isinstance(f, dict) and isinstance(f.get("val"), int)
            )
            if isinstance(fans, list)
            else 0
        )
        return ({"limit": "yakuman", "yakuman": max(count, 1)},)
    han, fu = hule.get("count", 0), hule.get("fu", 0)
    if not (isinstance(han, int) and isinstance(fu, int)) or han < 1:
        return VALUE_CANDIDATES
    if han >= 13:
        return ({"limit": "yakuman", "yakuman": 1},)
    if fu == 0:
        # The limit of the record's han (below 13, a yakuman above), by the standard table.
        limit = counted_limit(han)
        return ({"limit": limit.name},) if limit else VALUE_CANDIDATES
    return ({"han": han, "fu": fu},)


def _liable(hule: dict[str, Any], table: _Table, winner: int) -> list[int]:
    """The seats that may be liable (pao) for a yakuman win: from the melds, for the fans
    the record names (daisangen, daisuushii), or either where it names none."""
    fans = hule.get("fans")
    ids = {f.get("id") for f in fans if isinstance(f, dict)} if isinstance(fans, list) else None
    seats = []
    if table.liable_dragon is not None and (ids is None or DAISANGEN_FAN in ids):
        seats.append(table.liable_dragon)
    if table.liable_wind is not None and (ids is None or DAISUUSHII_FAN in ids):
        seats.append(table.liable_wind)
    return [s for s in dict.fromkeys(seats) if s != winner]


def _yaku(hule: dict[str, Any], chang: int, dealer: int, players: int) -> list[dict[str, Any]]:
    """The win's yaku as the record's ``yaku`` (docs/game-record-format.md): the package's
    names by Tenhou's ids, ``val`` han (a yakuman 13 a multiple); none of 0 han."""
    fans = hule.get("fans")
    if not isinstance(fans, list):
        return []
    seat = hule.get("seat", 0)
    out = []
    for fan in fans:
        if not isinstance(fan, dict) or not isinstance(fan.get("id", 0), int):
            continue
        ident, val = fan.get("id", 0), fan.get("val", 0)
        if ident == SEAT_WIND_FAN:
            tenhou = 10 + (seat - dealer) % players
        elif ident == ROUND_WIND_FAN:
            tenhou = 14 + chang
        else:
            tenhou = _FAN_TO_TENHOU.get(ident, -1)
        if tenhou not in TENHOU_YAKU or not isinstance(val, int) or val <= 0:
            continue
        out.append({"name": TENHOU_YAKU[tenhou], "han": 13 * val if hule.get("yiman") else val})
    return out


def _no_tile_stated(end: dict[str, Any], players: int, where: str) -> tuple[StatedEnd, ...]:
    """An exhaustive draw's payments: ``scores[].delta_scores`` summed (a nagashi mangan has
    one entry per player paid), none where the record writes none."""
    entries = end.get("scores")
    if not isinstance(entries, list) or not entries:
        return ()
    total = [0] * players
    for entry in entries:
        if not isinstance(entry, dict):
            raise LogError(f"{where}: scores must be objects")
        if entry.get("delta_scores") is None:
            continue
        for seat, change in enumerate(_scores(entry["delta_scores"], players, where)):
            total[seat] += change
    what = "RecordNoTile (nagashi mangan)" if end.get("liujumanguan") else "RecordNoTile"
    return (StatedEnd(what, tuple(total)),)


def _no_tile(
    end: dict[str, Any],
    base: dict[str, Any],
    players: int,
    dealer: int,
    stated: tuple[StatedEnd, ...],
    where: str,
) -> tuple[dict[str, Any], ...]:
    rows = end.get("players")
    if not isinstance(rows, list) or len(rows) < players:
        raise LogError(f"{where}: players must say who was tenpai")
    shown = [row.get("tingpai") if isinstance(row, dict) else False for row in rows[:players]]
    tenpai = [seat for seat, tingpai in enumerate(shown) if tingpai]
    if not end.get("liujumanguan"):
        return ({"result": "draw", "tenpai": tenpai, **base},)
    paid = [e.get("seat", 0) for e in end.get("scores") or [] if isinstance(e, dict)] or [
        s for s, d in enumerate(stated_changes(stated, players)) if d > 0
    ]
    if not paid:
        raise LogError(f"{where}: a nagashi mangan that pays nobody")
    return ({"result": "draw", "nagashi": sorted(set(paid)), "tenpai": tenpai, **base},)


def _abort_kind(end: dict[str, Any], table: _Table) -> str:
    """The abortive draw of a ``RecordLiuJu``: type 1 九種九牌, 2 四風連打; the others read
    from the hand (four riichi sticks, four kans), as tensoul reads them."""
    kind = end.get("type", 0)
    if kind == 1:
        return "kyuushu_kyuuhai"
    if kind == 2:
        return "suufon_renda"
    if len(set(table.riichi)) == 4:
        return "suucha_riichi"
    if table.kans >= 4:
        return "suukaikan"
    return "sancha_ron"
