"""Reading mjai event logs (JSON lines), as mjai servers, Mortal and mjai.app write them.

Events used: ``start_game`` (``names``), ``start_kyoku`` (``bakaze``, ``kyoku`` 1-based,
``honba``, ``kyotaku`` sticks, ``oya``, ``scores``), ``reach_accepted`` (the stick is on the
table), ``hora`` (``actor``, ``target``: the discarder, or the actor on a tsumo; ``deltas``;
``scores`` after it where the writer gives them), ``ryukyoku`` (``deltas``; ``reason``,
``tenpais`` and ``scores`` where given), ``end_game`` (``scores`` where given). Every other
event (draws, discards, calls) is skipped.
As in Tenhou's logs, a hand's deltas leave out the stick a riichi put out in it.

mjai gives a win's payments but not its han and fu (the original mjai's ``fan``/``fu`` are
used when present). Otherwise every value is a candidate, and :mod:`.verify` keeps the first
that makes the engine pay exactly the log's deltas; the stored record then carries that
value, which pays the same as the real hand (``1 han 40 fu`` and ``2 han 20 fu`` may stand
for each other). A hand with pao cannot be read this way and is refused.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

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
from .tenhou_rules import ruleset_ids

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
ABORTS = {
    "kyushukyuhai": "kyuushu_kyuuhai",
    "kyuushukyuuhai": "kyuushu_kyuuhai",
    "suufonrenda": "suufon_renda",
    "suuchariichi": "suucha_riichi",
    "suukaikan": "suukaikan",
    "suukantsu": "suukaikan",
    "sanchaho": "sancha_ron",
}
NAGASHI = ("nagashimangan", "nagashi_mangan")
# Counted hands below mangan only (fu x 2^(han+2) < 2,000): the others pay a mangan.
_COUNTED = [
    (han, fu)
    for han in (1, 2, 3, 4)
    for fu in (30, 40, 20, 25, 50, 60, 70, 80, 90, 100, 110)
    if fu << (han + 2) < 2000
]
VALUE_CANDIDATES: tuple[dict[str, Any], ...] = (
    *({"han": han, "fu": fu} for han, fu in _COUNTED),
    *({"limit": limit} for limit in ("mangan", "haneman", "baiman", "sanbaiman")),
    *({"limit": "yakuman", "yakuman": n} for n in range(1, 7)),
)


def looks_like(text: str) -> bool:
    """``text`` starts with an mjai ``start_game`` (or ``start_kyoku``) event."""
    first = text.lstrip()[:200]
    return first.startswith("{") and ('"start_game"' in first or '"start_kyoku"' in first)


def read(text: str, raw: bytes) -> OnlineLog:
    """The :class:`OnlineLog` of an mjai log's text (``raw``: the file, for its hash).

    Raises:
        LogError: a line that is not a JSON object, or events of the wrong shape, naming
            the line.
    """
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except (json.JSONDecodeError, RecursionError, ValueError) as error:
            raise LogError(f"line {number}: not a JSON event: {error}") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise LogError(f"line {number}: an event must be an object with a type")
        events.append((number, event))
    names: list[str] | None = None
    kyokus: list[tuple[int, dict[str, Any], list[tuple[int, dict[str, Any]]]]] = []
    final_scores: tuple[int, ...] | None = None
    ended = False
    for number, event in events:
        kind = event["type"]
        if kind == "start_game":
            value = event.get("names")
            if isinstance(value, list) and all(isinstance(n, str) for n in value):
                names = value
        elif kind == "start_kyoku":
            kyokus.append((number, event, []))
        elif kind in ("reach_accepted", "hora", "ryukyoku"):
            if not kyokus:
                raise LogError(f"line {number}: {kind} before any start_kyoku")
            kyokus[-1][2].append((number, event))
        elif kind == "end_game":
            ended = True
            if event.get("scores") is not None:
                final_scores = _scores(event["scores"], None, f"line {number}: scores")
            break
    if not kyokus:
        raise LogError("start_kyoku: the log has no hands")
    if not ended:
        raise LogError("end_game: the log stops before the game ended")
    first_scores = _scores(kyokus[0][1].get("scores"), None, f"line {kyokus[0][0]}: scores")
    players = sum(1 for s in first_scores if s) if len(first_scores) == 4 else len(first_scores)
    if names is None:
        names = [f"player {s + 1}" for s in range(players)]
    if len(names) < players:
        raise LogError(f"start_game: names must name {players} players")
    if final_scores is not None:
        final_scores = final_scores[:players]
    rounds = _rounds(kyokus, players)
    hands = tuple(_hand(kyokus, i, players, rounds[i]) for i in range(len(kyokus)))
    return OnlineLog(
        service="mjai",
        log_format="mjai",
        log_id=f"sha256:{hashlib.sha256(raw).hexdigest()[:32]}",
        lobby="",
        rule_label="",
        rulesets=ruleset_ids(players=players, east_south=None),
        players=tuple(names[:players]),
        hands=hands,
        final_scores=final_scores,
        final_points=None,
        played_on=None,
        replay_url="",
    )


def _scores(value: Any, players: int | None, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise LogError(f"{where}: must be a list of scores")
    scores = tuple(points_of(v, where) for v in value)
    return scores if players is None else scores[:players]


def _int(event: dict[str, Any], key: str, where: str) -> int:
    value = event.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LogError(f"{where}: {key} must be an integer")
    return value


def _rounds(
    kyokus: list[tuple[int, dict[str, Any], list[tuple[int, dict[str, Any]]]]], players: int
) -> list[tuple[int, int]]:
    """Each hand's wind (0 = East) and dealer seat, from ``bakaze`` and ``kyoku`` (1-based).

    A 3-player log may number its hands otherwise than the 4-player game (issue 22 item 5):
    a ``kyoku`` past the number of players (4 for what is South 1, as four seats' numbering
    goes on) is read by the dealer seat (``oya``, else ``kyoku`` counted round the table), and
    the wind follows the previous hand's, one wind on when the deal has gone round — also
    where the log keeps the previous ``bakaze`` as the deal goes round.
    """
    out: list[tuple[int, int]] = []
    for line, start, _events in kyokus:
        where = f"line {line}"
        wind = WINDS.get(str(start.get("bakaze")))
        if wind is None:
            raise LogError(f"{where}: bakaze must be E, S, W or N")
        kyoku = _int(start, "kyoku", where)
        if not 1 <= kyoku <= 16:
            raise LogError(f"{where}: kyoku {kyoku} is no hand of a round")
        oya = start.get("oya")
        dealer = (kyoku - 1) % players
        if kyoku > players and isinstance(oya, int) and 0 <= oya < players:
            dealer = oya
        if out and players == 3:
            previous_wind, previous_dealer = out[-1]
            # A wind never comes back: the log's, if it is on from the previous hand's.
            if kyoku > players or wind <= previous_wind:
                wind = previous_wind + (dealer < previous_dealer)
        out.append((wind, dealer))
    return out


def _hand(
    kyokus: list[tuple[int, dict[str, Any], list[tuple[int, dict[str, Any]]]]],
    i: int,
    players: int,
    round_of: tuple[int, int],
) -> LogHand:
    number, start, events = kyokus[i]
    where = f"line {number}"
    wind, dealer = round_of
    honba = _int(start, "honba", where)
    sticks = _int(start, "kyotaku", where)
    scores = _scores(start.get("scores"), players, f"{where}: scores")
    riichi = [_int(e, "actor", f"line {n}") for n, e in events if e["type"] == "reach_accepted"]
    horas = [(n, e) for n, e in events if e["type"] == "hora"]
    draws = [(n, e) for n, e in events if e["type"] == "ryukyoku"]
    if not horas and not draws:
        raise LogError(f"{where}: the log stops in the middle of the hand (no hora nor ryukyoku)")
    if horas and draws:
        raise LogError(f"{where}: a hand ends with hora or ryukyoku, not both")
    stated = tuple(_stated(n, event, players) for n, event in horas or draws)
    log_deltas = stated_changes(stated, players)
    if i + 1 < len(kyokus):
        n_next, nxt, _ = kyokus[i + 1]
        deltas = deltas_between(scores, _scores(nxt.get("scores"), players, f"line {n_next}"))
    else:
        deltas = tuple(d - (1000 if s in riichi else 0) for s, d in enumerate(log_deltas))
    base: dict[str, Any] = {"riichi": riichi} if riichi else {}
    candidates = (
        _wins(horas, base, players)
        if horas
        else _draws(draws[0][1], base, players, dealer, log_deltas)
    )
    return LogHand(
        round=round_label(wind, dealer),
        honba=honba,
        deposits=sticks * 1000,
        start_scores=scores,
        deltas=deltas,
        candidates=candidates,
        stated=stated,
    )


def _stated(n: int, event: dict[str, Any], players: int) -> StatedEnd:
    """A ``hora``'s or ``ryukyoku``'s ``deltas``, and its ``scores`` (after it) where given."""
    after = event.get("scores")
    return StatedEnd(
        f"{event['type']} at line {n}",
        changes=_scores(event.get("deltas"), players, f"line {n}: deltas"),
        after=None if after is None else _scores(after, players, f"line {n}: scores"),
    )


def _wins(
    horas: list[tuple[int, dict[str, Any]]], base: dict[str, Any], players: int
) -> tuple[dict[str, Any], ...]:
    seats = []
    values: list[tuple[dict[str, Any], ...]] = []
    for n, event in horas:
        actor = _int(event, "actor", f"line {n}")
        target = _int(event, "target", f"line {n}")
        if not (0 <= actor < players and 0 <= target < players):
            raise LogError(f"line {n}: actor and target must be seats at the table")
        seats.append((actor, target))
        han, fu = event.get("fan", event.get("han")), event.get("fu")
        if isinstance(han, int) and isinstance(fu, int) and han < 13:
            values.append(({"han": han, "fu": fu},))
        else:
            values.append(VALUE_CANDIDATES)
    targets = {t for _, t in seats}
    tsumo = seats[0][0] == seats[0][1]
    if tsumo and len(seats) != 1:
        raise LogError(f"line {horas[1][0]}: a tsumo with more than one winner")
    if len(targets) != 1:
        raise LogError(f"line {horas[1][0]}: wins from more than one discarder")
    out = []
    for combination in itertools.product(*values):
        wins = [
            {"winner": actor, **value} for (actor, _), value in zip(seats, combination, strict=True)
        ]
        if tsumo:
            out.append({"result": "tsumo", "wins": wins, **base})
        else:
            out.append({"result": "ron", "loser": seats[0][1], "wins": wins, **base})
    return tuple(out)


def _draws(
    event: dict[str, Any],
    base: dict[str, Any],
    players: int,
    dealer: int,
    log_deltas: tuple[int, ...],
) -> tuple[dict[str, Any], ...]:
    reason = str(event.get("reason", "")).lower()
    if reason in ABORTS:
        return ({"result": "abort", "kind": ABORTS[reason], **base},)
    gainers = [s for s, d in enumerate(log_deltas) if d > 0]
    tenpais = event.get("tenpais")
    shown = (
        [s for s, t in enumerate(tenpais[:players]) if t is True]
        if isinstance(tenpais, list)
        else None
    )
    nagashi = (
        tuple(
            {"result": "draw", "nagashi": gainers, "tenpai": tenpai, **base}
            for tenpai in ([], [dealer])
        )
        if gainers
        else ()
    )
    if reason in NAGASHI:
        return nagashi
    if shown is not None:
        return ({"result": "draw", "tenpai": shown, **base},)
    readings: list[dict[str, Any]] = []
    if gainers:
        readings.append({"result": "draw", "tenpai": gainers, **base})
    else:
        readings += [
            {"result": "draw", "tenpai": [], **base},
            {"result": "draw", "tenpai": list(range(players)), **base},
        ]
    return (*readings, *nagashi)
