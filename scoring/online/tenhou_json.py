"""Reading Tenhou's JSON game log (the tenhou.net/6 form), and Mahjong Soul's in that form.

Shape (docs/tenhou-rules.md §6): ``{"name": [...], "rule": {"disp": "四鳳南喰赤"}, "ref":
log id, "sc": [score, settlement, ...] , "log": [round, ...]}``; a round is ``[[kyoku, honba,
sticks], start scores, dora, ura, then per seat haipai, draws, discards, then the result]``.
The result is ``["和了", deltas, [who, from, pao, "30符2飜2000点", yaku...], ...]`` (one pair
per winner), ``["流局", deltas]``, ``["流し満貫", deltas]``, ``["全員聴牌"]``, ``["全員不聴"]``
or an abortive draw (``九種九牌``, ``四風連打``, ``四家立直``, ``四槓散了``, ``三家和了``).
Kyoku 0–3 are East 1–4, 4–7 South, 8–11 West; 3-player logs skip 3 and 7 and have an empty
fourth seat. The deltas leave out a riichi stick put out in the hand; a discard written
``r…`` declares riichi.

Mahjong Soul records converted to this form (tensoul and its forks) read the same way; a
``rule.disp`` naming a Mahjong Soul room (``…の間…``) marks them.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from .log import (
    TENHOU_LOG_ID,
    LogError,
    LogHand,
    OnlineLog,
    StatedEnd,
    date_of_log_id,
    deltas_between,
    points_of,
    round_label,
    settlement_points,
    stated_changes,
)
from .tenhou_rules import json_yaku, rulesets_of_disp, rulesets_to_try, win_value

ABORTS = {
    "九種九牌": "kyuushu_kyuuhai",
    "四風連打": "suufon_renda",
    "四家立直": "suucha_riichi",
    "四槓散了": "suukaikan",
    "三家和了": "sancha_ron",
}
DRAWS = ("流局", "全員聴牌", "全員不聴", "流し満貫")
WIN = "和了"
# Mahjong Soul's record ids (a tensoul ``ref``): date, then a UUID.
MAJSOUL_ID = re.compile(r"\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
RESULT_INDEX = 16
# The points at the end of a win's result string: ``7700点``, ``400-700点``, ``500点∀``.
_POINTS = re.compile(r"(\d+)(?:-(\d+))?点(∀)?$")


def looks_like(data: Any) -> bool:
    """``data`` (parsed JSON) has the keys of a Tenhou JSON log."""
    return isinstance(data, dict) and isinstance(data.get("log"), list) and "name" in data


def read(data: dict[str, Any], raw: bytes) -> OnlineLog:
    """The :class:`OnlineLog` of a parsed Tenhou JSON log (``raw``: the file, for its hash).

    Raises:
        LogError: a key missing or of the wrong shape, naming it.
    """
    names = data.get("name")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise LogError("name: must be the list of player names")
    players = 3 if len(names) == 3 or (len(names) == 4 and names[3] == "") else 4
    rule = data.get("rule")
    disp = str(rule.get("disp", "")) if isinstance(rule, dict) else ""
    ref = str(data.get("ref", "") or "")
    # A Mahjong Soul room (…の間), friendly or tournament room (友人戦, 大会戦), or its own
    # record id (``240302-203b66a8-…``) where the room's name says neither.
    majsoul = "の間" in disp or "友人戦" in disp or "大会戦" in disp or MAJSOUL_ID.fullmatch(ref)
    service = "majsoul" if majsoul else "tenhou"
    if TENHOU_LOG_ID.fullmatch(ref):
        log_id, replay_url = ref, f"https://tenhou.net/0/?log={ref}"
    elif ref and service == "majsoul":
        log_id, replay_url = ref, f"https://game.mahjongsoul.com/?paipu={ref}"
    else:
        log_id, replay_url = f"sha256:{hashlib.sha256(raw).hexdigest()[:32]}", ""
    rounds = data["log"]
    if not rounds:
        raise LogError("log: the game has no hands")
    hands = tuple(_hand(rounds, i, players) for i in range(len(rounds)))
    # Only the final scores are compared; the settlement (``sc``'s points, Tenhou's own: in
    # tenths from 2022, scoring.online.tenhou_rules.SETTLEMENT_CHANGES) chooses a game's era
    # where its day does not, and a private lobby's uma (scoring.online.lobby_rules).
    final_scores = _final_scores(data.get("sc"), players)
    return OnlineLog(
        service=service,
        log_format="tenhou-json",
        log_id=log_id,
        lobby=str(data.get("lobby", "") or ""),
        rule_label=disp,
        rulesets=rulesets_to_try(rulesets_of_disp(disp, players), players, log_id),
        players=tuple(names[:players]),
        hands=hands,
        final_scores=final_scores,
        final_points=None,
        played_on=date_of_log_id(log_id),
        replay_url=replay_url,
        stated_points=_stated_points(data.get("sc"), players),
    )


def _hand(rounds: list[Any], i: int, players: int) -> LogHand:
    where = f"log[{i}]"
    rnd = rounds[i]
    if not isinstance(rnd, list) or len(rnd) <= RESULT_INDEX:
        raise LogError(f"{where}: a round must be a list of {RESULT_INDEX + 1} items")
    head = rnd[0]
    if not (isinstance(head, list) and len(head) >= 3 and all(isinstance(x, int) for x in head)):
        raise LogError(f"{where}[0]: must be [kyoku, honba, riichi sticks]")
    kyoku, honba, sticks = head[:3]
    start = _scores(rnd[1], players, f"{where}[1]")
    result = rnd[RESULT_INDEX]
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise LogError(f"{where}: the round has no result")
    riichi = _riichi_seats(rnd, players, result)
    stated = _stated(result, players, where)
    log_deltas = stated_changes(stated, players)
    if i + 1 < len(rounds):
        nxt = rounds[i + 1]
        if not isinstance(nxt, list) or len(nxt) < 2:
            raise LogError(f"log[{i + 1}]: a round must be a list")
        deltas = deltas_between(start, _scores(nxt[1], players, f"log[{i + 1}][1]"))
    else:
        deltas = tuple(d - (1000 if s in riichi else 0) for s, d in enumerate(log_deltas))
    return LogHand(
        round=round_label(kyoku // 4, kyoku % 4),
        honba=honba,
        deposits=sticks * 1000,
        start_scores=start,
        deltas=deltas,
        candidates=_candidates(result, players, kyoku % 4, riichi, log_deltas, where),
        stated=stated,
    )


def _scores(value: Any, players: int, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) < players:
        raise LogError(f"{where}: must be the scores of {players} players")
    return tuple(points_of(v, where) for v in value[:players])


def _stated(result: list[Any], players: int, where: str) -> tuple[StatedEnd, ...]:
    """The log's deltas of the hand: one array per winner (``[deltas, win]`` pairs), or the
    draw's; none if it writes none (an abortive draw, ``全員聴牌``)."""
    if result[0] != WIN:
        return tuple(
            StatedEnd(result[0], _scores(array, players, f"{where}: result deltas"))
            for array in result[1:2]
        )
    ends = []
    for i in range(1, len(result), 2):
        deltas = _scores(result[i], players, f"{where}: result deltas")
        win = result[i + 1] if i + 1 < len(result) else None
        if not (isinstance(win, list) and len(win) >= 4 and isinstance(win[0], int)):
            ends.append(StatedEnd("和了", deltas))
            continue
        who, value = win[0], _value(win, players)
        ends.append(StatedEnd(f"和了 of seat {who}", deltas, winner=who, value=value))
    return tuple(ends)


def _value(win: list[Any], players: int) -> int | None:
    """What the win's result string says the hand pays the winner (``30符4飜7700点`` a ron
    or ``2000-4000点`` a non-dealer's tsumo, ``4000点∀`` each of the others), or ``None``
    for a string in no such form."""
    match = _POINTS.search(win[3]) if isinstance(win[3], str) else None
    if match is None:
        return None
    first, dealer, each = int(match[1]), match[2], match[3]
    if win[0] != win[1]:
        return first if dealer is None and not each else None
    if each:
        return first * (players - 1)
    return None if dealer is None else first * (players - 2) + int(dealer)


def _riichi_seats(rnd: list[Any], players: int, result: list[Any]) -> tuple[int, ...]:
    """Seats whose riichi stick went on the table: a declaration ronned puts out none."""
    losers = set()
    if result[0] == WIN:
        for info in result[2::2]:
            if isinstance(info, list) and len(info) >= 2 and info[0] != info[1]:
                losers.add(info[1])
    seats = []
    for seat in range(players):
        discards = rnd[6 + 3 * seat]
        if not isinstance(discards, list):
            continue
        declared = [j for j, d in enumerate(discards) if isinstance(d, str) and d.startswith("r")]
        if not declared:
            continue
        if seat in losers and declared[-1] == len(discards) - 1:
            continue
        seats.append(seat)
    return tuple(seats)


def _candidates(
    result: list[Any],
    players: int,
    dealer: int,
    riichi: tuple[int, ...],
    log_deltas: tuple[int, ...],
    where: str,
) -> tuple[dict[str, Any], ...]:
    kind = result[0]
    base: dict[str, Any] = {"riichi": list(riichi)} if riichi else {}
    if kind == WIN:
        return (_win_hand(result, base, players, where),)
    if kind in ABORTS:
        return ({"result": "abort", "kind": ABORTS[kind], **base},)
    if kind not in DRAWS:
        raise LogError(f"{where}: unknown result {kind!r}")
    gainers = [s for s, d in enumerate(log_deltas) if d > 0]
    if kind == "流し満貫":
        if not gainers:
            raise LogError(f"{where}: a nagashi mangan that pays nobody")
        # The log does not say whether the dealer was tenpai: the next round tells.
        return tuple(
            {"result": "draw", "nagashi": gainers, "tenpai": tenpai, **base}
            for tenpai in ([], [dealer])
        )
    if kind == "全員聴牌":
        return ({"result": "draw", "tenpai": list(range(players)), **base},)
    if kind == "全員不聴":
        return ({"result": "draw", "tenpai": [], **base},)
    if not gainers:
        return tuple({"result": "draw", "tenpai": t, **base} for t in ([], list(range(players))))
    return ({"result": "draw", "tenpai": gainers, **base},)


def _win_hand(result: list[Any], base: dict[str, Any], players: int, where: str) -> dict[str, Any]:
    wins = []
    losers = set()
    tsumo = False
    for info in result[2::2]:
        if not (isinstance(info, list) and len(info) >= 4):
            raise LogError(f"{where}: a win must be [who, from, pao, result, yaku...]")
        who, src, pao = info[:3]
        if not all(isinstance(x, int) and 0 <= x < players for x in (who, src, pao)):
            raise LogError(f"{where}: a win names a seat that is not at the table")
        win: dict[str, Any] = {"winner": who, **win_value(info[3], info[4:], where)}
        yaku = json_yaku(info[4:])
        if yaku:
            win["yaku"] = yaku
        if pao != who:
            win["pao"] = pao
        wins.append(win)
        if src == who:
            tsumo = True
        else:
            losers.add(src)
    if not wins:
        raise LogError(f"{where}: a win with no winner")
    if tsumo:
        if len(wins) != 1:
            raise LogError(f"{where}: a tsumo with more than one winner")
        return {"result": "tsumo", "wins": wins, **base}
    if len(losers) != 1:
        raise LogError(f"{where}: a multiple ron from more than one discarder")
    return {"result": "ron", "loser": losers.pop(), "wins": wins, **base}


def _final_scores(value: Any, players: int) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) < 2 * players:
        raise LogError("sc: must be the final score and settlement of each player")
    return tuple(points_of(value[2 * s], "sc") for s in range(players))


def _stated_points(value: Any, players: int) -> tuple[int, ...] | None:
    """The settlement ``sc`` writes (``24.1`` = +24,100 points), read only for a private
    lobby's uma; ``None`` where it is not numbers."""
    try:
        return tuple(settlement_points(value[2 * s + 1], "sc") for s in range(players))
    except (LogError, TypeError, IndexError, KeyError):
        return None


def parse_text(text: str) -> Any:
    """The JSON value of ``text``, or :class:`LogError` naming the fault."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as error:
        raise LogError(f"not valid JSON: {error}") from None
