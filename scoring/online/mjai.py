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

from scoring.engine.hand_value import counted_basic_points
from scoring.engine.limits import LIMITS, MANGAN_BASIC_POINTS

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
    # The original mjai server's spellings (gimite/mjai, lib/mjai/active_game.rb).
    "suchareach": "suucha_riichi",
    "sufonrenta": "suufon_renda",
    "sukaikan": "suukaikan",
}
NAGASHI = ("nagashimangan", "nagashi_mangan")
# The original mjai server's start (gimite/mjai, lib/mjai/player.rb: 25,000); Tenhou's
# three-player start for a 3-player log.
START_POINTS = {4: 25000, 3: 35000}
Kyoku = tuple[int, dict[str, Any], list[tuple[int, dict[str, Any]]]]
# Counted hands below mangan only (the engine's basic points before any limit, under a
# mangan's): the others pay a mangan.
_COUNTED = [
    (han, fu)
    for han in (1, 2, 3, 4)
    for fu in (30, 40, 20, 25, 50, 60, 70, 80, 90, 100, 110)
    if counted_basic_points(han, fu) < MANGAN_BASIC_POINTS
]
VALUE_CANDIDATES: tuple[dict[str, Any], ...] = (
    *({"han": han, "fu": fu} for han, fu in _COUNTED),
    *({"limit": limit} for limit in LIMITS if limit != "yakuman"),
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
    names: list[Any] = []
    kyokus: list[Kyoku] = []
    final_scores: tuple[int, ...] | None = None
    ended = False
    for number, event in events:
        kind = event["type"]
        if kind == "start_game":
            value = event.get("names")
            names = value if isinstance(value, list) else []
        elif kind == "start_kyoku":
            kyokus.append((number, event, []))
        elif kind in ("tsumo", "reach_accepted", "hora", "ryukyoku"):
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
    players = _players(kyokus, names)
    # A seat the log names no one at (Mortal's arena writes empty names)
    # is nameless: the ledger matches it by seat (``--map "seat 2=member"``), never by name.
    nameless = tuple(
        seat
        for seat in range(players)
        if seat >= len(names) or not isinstance(names[seat], str) or not names[seat].strip()
    )
    seats = tuple(
        f"seat {seat + 1}" if seat in nameless else str(names[seat]) for seat in range(players)
    )
    if final_scores is not None:
        final_scores = final_scores[:players]
    rounds = _rounds(kyokus, players)
    tables = _tables(kyokus, players)
    hands = tuple(
        _hand(
            kyokus, i, players, rounds[i], tables[i], tables[i + 1] if i + 1 < len(tables) else None
        )
        for i in range(len(kyokus))
    )
    return OnlineLog(
        service="mjai",
        log_format="mjai",
        log_id=f"sha256:{hashlib.sha256(raw).hexdigest()[:32]}",
        lobby="",
        rule_label="",
        rulesets=ruleset_ids(players=players, east_south=None),
        players=seats,
        hands=hands,
        final_scores=final_scores,
        final_points=None,
        played_on=None,
        replay_url="",
        nameless=nameless,
    )


def _players(kyokus: list[Kyoku], names: list[Any]) -> int:
    """How many play: the seats with a start score in the first ``start_kyoku`` (a 3-player
    writer may give four, the fourth 0), else as many as the first hand's ``deltas`` (the
    original mjai server writes no scores there), else the names, else four."""
    number, first, events = kyokus[0]
    if "scores" in first:
        scores = _scores(first.get("scores"), None, f"line {number}: scores")
        return sum(1 for s in scores if s) if len(scores) == 4 else len(scores)
    for n, event in events:
        if isinstance(event.get("deltas"), list):
            return len(_scores(event["deltas"], None, f"line {n}: deltas"))
    return len(names) if len(names) in (3, 4) else 4


def _tables(kyokus: list[Kyoku], players: int) -> list[tuple[tuple[int, ...], int]]:
    """Each hand's start scores and deposits (points on the table).

    Where a ``start_kyoku`` gives them (``scores``, ``kyotaku``) they are the log's. The
    original mjai server (gimite/mjai, ``ActiveGame#play_kyoku``) writes no ``scores`` and its
    Tenhou converter (``TenhouArchive``) no ``kyotaku`` either: they follow
    from the previous hand's — its riichi sticks out, each win's and draw's ``deltas`` in, the
    deposits taken by a win — and the first hand's scores from the first ``scores`` the log
    states after a win or draw in it, less the changes to there; a log that states none
    starts from the server's 25,000 (35,000 for three players). The engine then checks every
    figure the log states against these: each end's ``deltas`` and ``scores`` after it, and
    the final scores.
    """
    out: list[tuple[tuple[int, ...], int]] = []
    for i, (number, start, events) in enumerate(kyokus):
        where = f"line {number}"
        scores: tuple[int, ...] | None = None
        if "scores" in start:
            scores = _scores(start.get("scores"), players, f"{where}: scores")
        if "kyotaku" in start:
            deposits = _int(start, "kyotaku", where) * 1000
        elif out:
            _, before_events = kyokus[i - 1][1:]
            won = any(e["type"] == "hora" for _, e in before_events)
            deposits = 0 if won else out[-1][1] + 1000 * _sticks(before_events)
        else:
            deposits = 0
        if scores is None:
            scores = (
                _carried(kyokus[i - 1][2], out[-1][0], players) if out else _first(events, players)
            )
        out.append((scores, deposits))
    return out


def _sticks(events: list[tuple[int, dict[str, Any]]]) -> int:
    return sum(1 for _, e in events if e["type"] == "reach_accepted")


def _changes(events: list[tuple[int, dict[str, Any]]], players: int) -> tuple[int, ...]:
    """Each seat's change over a hand's events: the ``deltas`` of its wins and draw, the
    riichi sticks put out."""
    total = [0] * players
    for n, event in events:
        if event["type"] == "reach_accepted":
            seat = _int(event, "actor", f"line {n}")
            if 0 <= seat < players:
                total[seat] -= 1000
        elif event.get("deltas") is not None or event["type"] == "hora":
            for seat, d in enumerate(_scores(event.get("deltas"), players, f"line {n}: deltas")):
                total[seat] += d
    return tuple(total)


def _carried(
    events: list[tuple[int, dict[str, Any]]], before: tuple[int, ...], players: int
) -> tuple[int, ...]:
    return tuple(b + c for b, c in zip(before, _changes(events, players), strict=True))


def _first(events: list[tuple[int, dict[str, Any]]], players: int) -> tuple[int, ...]:
    for i, (n, event) in enumerate(events):
        if event["type"] in ("hora", "ryukyoku") and event.get("scores") is not None:
            after = _scores(event["scores"], players, f"line {n}: scores")
            to_here = _changes(events[: i + 1], players)
            return tuple(a - c for a, c in zip(after, to_here, strict=True))
    return (START_POINTS[players],) * players


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


def _rounds(kyokus: list[Kyoku], players: int) -> list[tuple[int, int]]:
    """Each hand's wind (0 = East) and dealer seat (:func:`_rounds_as_written`).

    The converter of Mateces/mortal-sanma (``scripts/tenhou6_to_mjai.py``) writes a 3-player
    hand from Tenhou's round number, which counts four hands a wind (South 1 is 4), as if it
    counted three: ``bakaze`` is that number // 3, ``kyoku`` and ``oya`` its remainder (South
    1 becomes "S", 2, ``oya`` 1; South 3 "W", 1). Read as written, such a log's deal jumps a
    seat after East 3; where it does and Tenhou's number (``bakaze`` x 3 + ``kyoku`` - 1) read
    four a wind gives a deal that goes round seat by seat, that is the log's.
    """
    written = _rounds_as_written(kyokus, players)
    if players != 3 or _in_order(written, players):
        return written
    counted = []
    for _line, start, _events in kyokus:
        number = WINDS[str(start.get("bakaze"))] * 3 + _int(start, "kyoku", "") - 1
        if number % 4 == 3:
            return written
        counted.append((number // 4, number % 4))
    return counted if _in_order(counted, players) else written


def _in_order(rounds: list[tuple[int, int]], players: int) -> bool:
    """Each hand is the previous one again (renchan, a draw) or the next dealer's."""
    for (wind, dealer), after in itertools.pairwise(rounds):
        passed = (wind + (dealer + 1 == players), (dealer + 1) % players)
        if after not in ((wind, dealer), passed):
            return False
    return True


def _rounds_as_written(kyokus: list[Kyoku], players: int) -> list[tuple[int, int]]:
    """Each hand's wind (0 = East) and dealer seat, from ``bakaze`` and ``kyoku`` (1-based).

    A 3-player log may number its hands otherwise than the 4-player game:
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
    kyokus: list[Kyoku],
    i: int,
    players: int,
    round_of: tuple[int, int],
    table: tuple[tuple[int, ...], int],
    following: tuple[tuple[int, ...], int] | None,
) -> LogHand:
    number, start, events = kyokus[i]
    where = f"line {number}"
    wind, dealer = round_of
    honba = _int(start, "honba", where)
    scores, deposits = table
    riichi = [_int(e, "actor", f"line {n}") for n, e in events if e["type"] == "reach_accepted"]
    horas = [(n, e) for n, e in events if e["type"] == "hora"]
    draws = [(n, e) for n, e in events if e["type"] == "ryukyoku"]
    if horas and draws:
        raise LogError(f"{where}: a hand ends with hora or ryukyoku, not both")
    if not horas and not draws and following is None:
        raise LogError(f"{where}: the log stops in the middle of the hand (no hora nor ryukyoku)")
    # A draw without deltas (mortal-sanma's converter writes an abortive draw, all tenpai and
    # all noten so) states no figure; its changes are the next hand's start scores'.
    stated = tuple(
        _stated(n, event, players)
        for n, event in horas or draws
        if event["type"] == "hora" or event.get("deltas") is not None
    )
    log_deltas = stated_changes(stated, players)
    if following is not None:
        deltas = deltas_between(scores, following[0])
    else:
        deltas = tuple(d - (1000 if s in riichi else 0) for s, d in enumerate(log_deltas))
    base: dict[str, Any] = {"riichi": riichi} if riichi else {}
    if horas:
        candidates = _wins(horas, base, players)
    elif draws:
        candidates = _draws(draws[0][1], base, players, dealer, log_deltas)
    else:
        # A hand that ends without a result event and goes on to the next
        # (mortal-sanma's earlier converter wrote nothing for 九種九牌 and 全員聴牌): an
        # abortive draw, or an exhaustive draw all tenpai or all noten, whichever the next
        # hand's round, honba and deposits follow from.
        abort = {"result": "abort", "kind": "kyuushu_kyuuhai", **base}
        draws_read = (
            {"result": "draw", "tenpai": list(range(players)), **base},
            {"result": "draw", "tenpai": [], **base},
        )
        # 九種九牌 is called on a first draw; a wall drawn further ended otherwise.
        first_go_round = sum(1 for _, e in events if e["type"] == "tsumo") <= players
        candidates = (abort, *draws_read) if first_go_round else (*draws_read, abort)
    return LogHand(
        round=round_label(wind, dealer),
        honba=honba,
        deposits=deposits,
        start_scores=scores,
        deltas=deltas,
        candidates=candidates,
        stated=stated,
    )


def _stated(n: int, event: dict[str, Any], players: int) -> StatedEnd:
    """A ``hora``'s or ``ryukyoku``'s ``deltas``, and its ``scores`` (after it) where given;
    a ``hora``'s ``hora_points`` (the original mjai server's: what the win pays, honba and
    deposits left out) as the win's value."""
    after = event.get("scores")
    value = event.get("hora_points") if event["type"] == "hora" else None
    valued = isinstance(value, int) and not isinstance(value, bool)
    return StatedEnd(
        f"{event['type']} at line {n}",
        changes=_scores(event.get("deltas"), players, f"line {n}: deltas"),
        after=None if after is None else _scores(after, players, f"line {n}: scores"),
        winner=event.get("actor") if valued else None,
        value=value if valued else None,
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
