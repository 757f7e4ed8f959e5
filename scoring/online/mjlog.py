"""Reading Tenhou's mjlog XML, as the Tenhou client and its log viewer save it.

``<mjloggm>`` holds ``<GO type lobby>`` (lobby rules, :mod:`.tenhou_rules`), ``<UN n0..n3>``
(URL-encoded names; a 3-player game leaves ``n3`` empty), then per hand ``<INIT seed="kyoku,
honba,sticks,dice,dice,dora" ten="250,250,…">`` (scores in hundreds), ``<REACH who step>``
(step 2: the stick is on the table), and the end: ``<AGARI>`` (one per winner: ``who``,
``fromWho``, ``paoWho``, ``ten="fu,points,limit"``, ``yaku``, ``yakuman``, ``sc`` score and
change pairs in hundreds) or ``<RYUUKYOKU>`` (``type`` names an abortive draw or ``nm``,
nagashi mangan; ``hai<seat>`` the hands shown, i.e. the tenpai players). The last carries
``owari``: final score and settlement per seat (docs/tenhou-rules.md §6).

An mjlog has no document type; a file that declares one (entities) is refused before it is
parsed, so no entity is ever expanded.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree

from .log import (
    TENHOU_LOG_ID,
    LogError,
    LogHand,
    OnlineLog,
    StatedEnd,
    date_of_log_id,
    deltas_between,
    round_label,
    settlement_points,
    stated_changes,
)
from .mjlog_hands import win_description
from .tenhou_rules import THREE_PLAYERS, mjlog_win_value, rulesets_of_go_type, rulesets_to_try

ABORTS = {
    "yao9": "kyuushu_kyuuhai",
    "reach4": "suucha_riichi",
    "ron3": "sancha_ron",
    "kan4": "suukaikan",
    "kaze4": "suufon_renda",
}
NAGASHI = "nm"


def read(text: str, raw: bytes, filename: str = "") -> OnlineLog:
    """The :class:`OnlineLog` of an mjlog's text (``raw``: the file; ``filename`` may hold
    the log id, e.g. ``2022081017gm-00e1-0000-2df24853.mjlog``).

    Raises:
        LogError: not well-formed XML, a DTD, or an element of the wrong shape, naming it.
    """
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise LogError("an mjlog has no document type: refused")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as error:
        raise LogError(f"not well-formed XML: {error}") from None
    go = root.find("GO")
    go_type = _int(go.get("type", "") if go is not None else "", "GO type")
    players, rulesets = rulesets_of_go_type(go_type)
    un = root.find("UN")
    if un is None:
        raise LogError("UN: the log names no players")
    names = [unquote(un.get(f"n{s}", "")) for s in range(players)]
    if players == 4 and un.get("n3", "") == "":
        players, rulesets = rulesets_of_go_type(go_type | THREE_PLAYERS)
        names = names[:3]
    match = TENHOU_LOG_ID.search(filename)
    if match:
        log_id, replay_url = match[0], f"https://tenhou.net/0/?log={match[0]}"
    else:
        log_id, replay_url = f"sha256:{hashlib.sha256(raw).hexdigest()[:32]}", ""
    blocks = _hand_blocks(root)
    if not blocks:
        raise LogError("INIT: the game has no hands")
    hands = []
    final_scores: tuple[int, ...] | None = None
    final_points: tuple[int, ...] | None = None
    for i, block in enumerate(blocks):
        nxt = blocks[i + 1][0] if i + 1 < len(blocks) else None
        hand, owari = _hand(block, nxt, players, i)
        hands.append(hand)
        if owari is not None:
            if i + 1 != len(blocks):
                raise LogError(f"hand {i + 1}: owari before the last hand")
            final_scores, final_points = owari
    if final_scores is None:
        raise LogError("owari: the log stops before the game ended")
    return OnlineLog(
        service="tenhou",
        log_format="mjlog",
        log_id=log_id,
        lobby=go.get("lobby", "") if go is not None else "",
        rule_label=f"GO type {go_type}",
        rulesets=rulesets_to_try(rulesets, players, log_id),
        players=tuple(names),
        hands=tuple(hands),
        final_scores=final_scores,
        final_points=final_points,
        played_on=date_of_log_id(log_id),
        replay_url=replay_url,
    )


def _int(value: str, where: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise LogError(f"{where}: {value!r} is not an integer") from None


def _ints(value: str | None, where: str) -> list[int]:
    if value is None:
        raise LogError(f"{where}: missing")
    try:
        return [int(x) for x in value.split(",")] if value else []
    except ValueError:
        raise LogError(f"{where}: {value!r} is not a list of integers") from None


# The elements of a hand that :func:`_hand` reads; the draws and discards (most of a log's
# elements) are left out once, not skipped by each of its passes.
_HAND_TAGS = frozenset(("REACH", "AGARI", "RYUUKYOKU"))


def _hand_blocks(root: ElementTree.Element) -> list[list[ElementTree.Element]]:
    """Each hand's ``INIT`` and then its ``REACH``, ``AGARI`` and ``RYUUKYOKU`` elements, in
    the log's order."""
    blocks: list[list[ElementTree.Element]] = []
    for element in root:
        tag = element.tag
        if tag == "INIT":
            blocks.append([element])
        elif blocks and tag in _HAND_TAGS:
            blocks[-1].append(element)
    return blocks


def _hand(
    block: list[ElementTree.Element],
    nxt: ElementTree.Element | None,
    players: int,
    i: int,
) -> tuple[LogHand, tuple[tuple[int, ...], tuple[int, ...]] | None]:
    where = f"hand {i + 1}"
    init = block[0]
    seed = _ints(init.get("seed"), f"{where}: INIT seed")
    if len(seed) < 3:
        raise LogError(f"{where}: INIT seed must start with kyoku, honba, sticks")
    kyoku, honba, sticks = seed[:3]
    start = _scores(init.get("ten"), players, f"{where}: INIT ten")
    riichi = [
        _int(e.get("who", ""), f"{where}: REACH who")
        for e in block
        if e.tag == "REACH" and e.get("step") == "2"
    ]
    agari = [e for e in block if e.tag == "AGARI"]
    draws = [e for e in block if e.tag == "RYUUKYOKU"]
    if not agari and not draws:
        raise LogError(f"{where}: the log stops in the middle of the hand (no AGARI nor RYUUKYOKU)")
    if agari and draws:
        raise LogError(f"{where}: a hand ends with AGARI or RYUUKYOKU, not both")
    ends = agari or draws
    stated = tuple(_stated(end, players, where) for end in ends)
    log_deltas = stated_changes(stated, players)
    if nxt is not None:
        deltas = deltas_between(start, _scores(nxt.get("ten"), players, f"hand {i + 2}: ten"))
    else:
        deltas = tuple(d - (1000 if s in riichi else 0) for s, d in enumerate(log_deltas))
    base: dict[str, Any] = {"riichi": riichi} if riichi else {}
    candidates = (
        _win(agari, base, players, where)
        if agari
        else _draw(draws[0], base, players, kyoku % 4, log_deltas, where)
    )
    owari_text = ends[-1].get("owari")
    owari = None
    if owari_text is not None:
        values = owari_text.split(",")
        if len(values) < 2 * players:
            raise LogError(f"{where}: owari must give each seat's score and settlement")
        owari = (
            tuple(_int(values[2 * s], f"{where}: owari") * 100 for s in range(players)),
            tuple(settlement_points(values[2 * s + 1], f"{where}: owari") for s in range(players)),
        )
    hand = LogHand(
        round=round_label(kyoku // 4, kyoku % 4),
        honba=honba,
        deposits=sticks * 1000,
        start_scores=start,
        deltas=deltas,
        candidates=candidates,
        stated=stated,
    )
    return hand, owari


def _stated(end: ElementTree.Element, players: int, where: str) -> StatedEnd:
    """An ``AGARI``'s or ``RYUUKYOKU``'s ``sc`` (each seat's score before it and change, in
    hundreds) and an ``AGARI``'s value (``ten``: fu, points, limit)."""
    sc = _ints(end.get("sc"), f"{where}: sc")
    if len(sc) < 2 * players:
        raise LogError(f"{where}: sc must give each seat's score and change")
    changes = tuple(sc[2 * seat + 1] * 100 for seat in range(players))
    before = tuple(sc[2 * seat] * 100 for seat in range(players))
    if end.tag != "AGARI":
        return StatedEnd(end.tag, changes, before)
    who = _seat(end, "who", players, where)
    ten = _ints(end.get("ten"), f"{where}: ten")
    if len(ten) < 2:
        raise LogError(f"{where}: ten must give fu, points and limit")
    return StatedEnd(f"AGARI of seat {who}", changes, before, winner=who, value=ten[1])


def _scores(value: str | None, players: int, where: str) -> tuple[int, ...]:
    scores = _ints(value, where)
    if len(scores) < players:
        raise LogError(f"{where}: must give {players} scores")
    return tuple(s * 100 for s in scores[:players])


def _seat(element: ElementTree.Element, key: str, players: int, where: str) -> int:
    seat = _int(element.get(key, ""), f"{where}: {key}")
    if not 0 <= seat < players:
        raise LogError(f"{where}: {key} {seat} is not a seat at the table")
    return seat


def _win(
    agari: list[ElementTree.Element], base: dict[str, Any], players: int, where: str
) -> tuple[dict[str, Any], ...]:
    wins = []
    losers = set()
    for element in agari:
        who = _seat(element, "who", players, where)
        src = _seat(element, "fromWho", players, where)
        win: dict[str, Any] = {
            "winner": who,
            **mjlog_win_value(
                element.get("ten", ""), element.get("yaku", ""), element.get("yakuman", ""), where
            ),
            **win_description(element),
        }
        if element.get("paoWho") is not None:
            pao = _seat(element, "paoWho", players, where)
            if pao != who:
                win["pao"] = pao
        wins.append(win)
        losers.add(None if src == who else src)
    if losers == {None}:
        if len(wins) != 1:
            raise LogError(f"{where}: a tsumo with more than one winner")
        return ({"result": "tsumo", "wins": wins, **base},)
    if None in losers or len(losers) != 1:
        raise LogError(f"{where}: wins from more than one discarder")
    return ({"result": "ron", "loser": losers.pop(), "wins": wins, **base},)


def _draw(
    element: ElementTree.Element,
    base: dict[str, Any],
    players: int,
    dealer: int,
    log_deltas: tuple[int, ...],
    where: str,
) -> tuple[dict[str, Any], ...]:
    kind = element.get("type")
    shown = [s for s in range(players) if element.get(f"hai{s}") is not None]
    if kind in ABORTS:
        return ({"result": "abort", "kind": ABORTS[kind], **base},)
    if kind == NAGASHI:
        nagashi = [s for s, d in enumerate(log_deltas) if d > 0]
        if not nagashi:
            raise LogError(f"{where}: a nagashi mangan that pays nobody")
        return ({"result": "draw", "nagashi": nagashi, "tenpai": shown, **base},)
    if kind is not None:
        raise LogError(f"{where}: unknown RYUUKYOKU type {kind!r}")
    return ({"result": "draw", "tenpai": shown, **base},)
