"""The previous ``replay_record``, frozen: the reference the replay benchmark compares with.

For comparison only, never called by the app: ``python -m benchmarks`` times
:func:`replay_record` here against :func:`scoring.engine.replay_record` in the same process,
in turns, and requires the engine's to replay at least 1.6 times as many records a second;
``tests/test_replay_reference.py`` holds the two to the same output on the sample records and
the records of ``tests/data``.

This is the replay path as it stood before records were checked while replaying, copied
unchanged from ``scoring/engine`` (each section below names its module): the record's text
and numbers checked in a walk of their own first (``check_record_values``), each hand parsed
into a :class:`~scoring.engine.Hand` (``parse_hand``) and played through the game
(``Game``, ``HandOutcomes``, ``HandLedger``), its wins valued and checked (``check_win``,
``win_basic_points``, ``ron_value``, ``tsumo_shares``) and the game settled
(``final_settlement``, ``rank_order``) as they were then. What the faster replay left as it
was is imported: the data types (``Hand``, ``Win``, ``HandResult``, ``TableState``,
``Payment``, ``Settlement``, ``Replay``), so that the two replays build the same objects, the
limit table, the ruleset files, the final-scores records and the bust rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scoring.engine.errors import RecordError
from scoring.engine.final_scores import KEY as FINAL_SCORES
from scoring.engine.final_scores import parse_final_scores, settle_final_scores
from scoring.engine.game import HandResult, TableState
from scoring.engine.hand_value import LEGAL_FU
from scoring.engine.hands import RESULTS, Hand, Penalty, Win
from scoring.engine.limits import (
    LIMIT_BASIC_POINTS,
    LIMITS,
    MANGAN_BASIC_POINTS,
    YAKUMAN_BASIC_POINTS,
    counted_limit,
)
from scoring.engine.replay import Replay
from scoring.engine.ruleset import ABORTIVE_KINDS, MAX_CHIPS_PER_PAYER, Ruleset
from scoring.engine.ruleset_files import INT_LIMIT, load_ruleset
from scoring.engine.settlement import Payment, Settlement, is_bust
from scoring.engine.situations import RECORD_FLAGS

# -- scoring/engine/record_values.py ---------------------------------------------------------


def check_record_values(record: Any) -> None:
    """Refuse a record holding text or a number that no game has.

    Args:
        record: a parsed JSON value (a game record, or anything else: only its text and its
            integers are looked at, in keys and values at any depth).

    Raises:
        RecordError: code ``text_not_storable`` for a text (or key) with a NUL character or
            a lone surrogate; ``number_out_of_range`` (params: limit) for an integer beyond
            ``INT_LIMIT`` either way. The key is the path to the value
            (``players[0]``, ``final_scores.scores[1]``), and a value inside a hand is
            attributed to that hand (``hand 3: wins[0].chips: ...``).
    """
    # Replays are a hot path: a plain scan first, the paths only to name a fault found.
    if not _has_fault(record):
        return
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), record)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if fault := _text_fault(value):
                hand_index, key = _where(path)
                raise RecordError(hand_index, key, f"text with {fault}", code="text_not_storable")
        elif isinstance(value, int) and not isinstance(value, bool):
            if not -INT_LIMIT <= value <= INT_LIMIT:
                hand_index, key = _where(path)
                raise RecordError(
                    hand_index,
                    key,
                    f"a number beyond {INT_LIMIT:,} either way",
                    code="number_out_of_range",
                    params={"limit": INT_LIMIT},
                )
        elif isinstance(value, Mapping):
            for name in value:
                if fault := _text_fault(str(name)):
                    hand_index, key = _where(path)
                    raise RecordError(
                        hand_index, key, f"a key with {fault}", code="text_not_storable"
                    )
            # Pushed last first, so that the first fault in the record is the one reported.
            stack.extend(((*path, str(name)), value[name]) for name in reversed(list(value)))
        elif isinstance(value, list | tuple):
            stack.extend(((*path, i), value[i]) for i in reversed(range(len(value))))


def _has_fault(record: Any) -> bool:
    """Whether ``record`` holds, at any depth, what :func:`check_record_values` refuses.
    Exact types first (parsed JSON is dicts, lists, str and int), the ABCs only otherwise."""
    stack = [record]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            if "\x00" in value or (not value.isascii() and _text_fault(value)):
                return True
        elif kind is int:
            if not -INT_LIMIT <= value <= INT_LIMIT:
                return True
        elif kind is dict or isinstance(value, Mapping):
            for name in value:
                text = name if type(name) is str else str(name)
                if "\x00" in text or (not text.isascii() and _text_fault(text)):
                    return True
            stack.extend(value.values())
        elif kind is list or kind is tuple or isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, str):
            stack.append(str(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            stack.append(int(value))
    return False


def _text_fault(text: str) -> str | None:
    """What keeps ``text`` out of a database's text column, or None."""
    if "\x00" in text:
        return "a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate"
    return None


def _where(path: tuple[str | int, ...]) -> tuple[int | None, str]:
    """The hand index (None outside ``hands``) and the key of the value at ``path``:
    ``("hands", 3, "wins", 0, "chips")`` is hand 3's ``wins[0].chips``. A player's name is
    ``players``, the key of every refusal of the players (the ledger's field)."""
    hand_index = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand_index, path = path[1], path[2:]
    if path[:1] == ("players",):
        path = path[:1]
    key = ""
    for part in path:
        key += f"[{part}]" if isinstance(part, int) else f".{part}" if key else part
    return hand_index, key or ("hand" if hand_index is not None else "record")


# -- scoring/engine/hands.py -----------------------------------------------------------------

# ``time_up`` is this repository's extension (docs/game-record-format.md, "Extensions"):
# time was called during this hand, the last one of a time-limited game (T-07).
_COMMON_KEYS = frozenset(
    {"result", "riichi", "open_riichi", "penalties", "dealer_stops", "time_up"}
)


# ``chombo`` on a ron, tsumo or draw is this repository's extension (docs/game-record-format.md,
# "Extensions"): a chombo paid after the hand's own result (seed 003 L402-410, L426-428, H-18).
_RESULT_KEYS = {
    "ron": frozenset({"wins", "loser", "chombo"}),
    "tsumo": frozenset({"wins", "chombo"}),
    "draw": frozenset({"tenpai", "nagashi", "chombo"}),
    "abort": frozenset({"kind", "tenpai"}),
    "chombo": frozenset({"offender"}),
}


_ALLOWED_KEYS = {result: _COMMON_KEYS | keys for result, keys in _RESULT_KEYS.items()}


_WIN_KEYS = frozenset(
    {"winner", "han", "fu", "limit", "yakuman", "pao", "rinshan_from", "chips", "yaku", "tiles"}
)


# ``yaku`` and ``tiles`` describe a win and never change a payment (this repository's
# extension, docs/game-record-format.md): ``yaku`` the yaku with their han, as the tile
# evaluation names them; ``tiles`` the winning hand in the hand-value contract's keys (the
# hand, calls and winning tile; the dora indicators, kita and the situational flags that are
# true, :data:`.situations.RECORD_FLAGS`), so that the hand can be valued again.
# ``flowers``: 004's flowers set aside (L27), as the hand-value contract takes them (a
# FUJI win entered by its tiles with a flower was once refused as malformed).
_TILE_KEYS = frozenset(
    {"hand", "melds", "win_tile", "dora_indicators", "ura_indicators", "kita", "flowers"}
)


_PENALTY_KEYS = frozenset({"seat", "kind"})


def _seat(value: Any, players: int, index: int, key: str) -> int:
    if value.__class__ is not int:
        raise RecordError(index, key, "must be a seat number", code="not_a_seat")
    if not 0 <= value < players:
        raise RecordError(
            index,
            key,
            f"seat {value} is out of range 0-{players - 1}",
            code="seat_out_of_range",
            params={"seat": value, "players": players},
        )
    return int(value)


def _seats(data: Mapping[str, Any], key: str, players: int, index: int) -> tuple[int, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if value.__class__ is not list:
        raise RecordError(index, key, "must be a list of seats", code="not_a_seat_list")
    if not value:
        return ()
    out = tuple([_seat(v, players, index, key) for v in value])
    if len(set(out)) != len(out):
        raise RecordError(index, key, "lists a seat twice", code="seat_listed_twice")
    return out


def parse_hand(data: Any, players: int, index: int) -> Hand:
    """Parse one record hand object into a :class:`Hand`.

    ``time_up: true`` marks the hand in play when time was called in a time-limited game
    (rules-spec T-07): the game ends after it and settles as usual.

    Args:
        data: the JSON object of the hand.
        players: 3 or 4; seats must be ``0 <= seat < players``.
        index: the hand's index in the record, for error messages.

    Raises:
        RecordError: wrong type, unknown key, a key that does not go with ``result``, a seat
            out of range or repeated, a winner who is also the loser, a tsumo without exactly
            one win. ``hand_index`` is ``index``.
    """
    if data.__class__ is not dict and not isinstance(data, Mapping):
        raise RecordError(index, "result", "a hand must be an object", code="hand_not_an_object")
    result = data.get("result")
    if result not in _RESULT_KEYS:
        raise RecordError(
            index, "result", f"must be one of {', '.join(RESULTS)}", code="unknown_result"
        )
    allowed = _ALLOWED_KEYS[result]
    if not data.keys() <= allowed:
        for key in data:
            if key not in allowed:
                if any(key in keys for keys in _RESULT_KEYS.values()):
                    raise RecordError(
                        index,
                        key,
                        f"does not go with result {result!r}",
                        code="key_not_for_result",
                        params={"result": result},
                    )
                raise RecordError(index, key, "unknown key", code="unknown_key")

    riichi = _seats(data, "riichi", players, index)
    open_riichi = _seats(data, "open_riichi", players, index)
    if open_riichi and not set(open_riichi) <= set(riichi):
        raise RecordError(
            index,
            "open_riichi",
            "every open riichi seat must also be in riichi",
            code="open_riichi_without_riichi",
        )
    raw_penalties = data.get("penalties")
    penalties = () if raw_penalties is None else _parse_penalties(raw_penalties, players, index)
    dealer_stops = data.get("dealer_stops", False)
    if dealer_stops is not True and dealer_stops is not False:
        raise RecordError(index, "dealer_stops", "must be true or false", code="not_a_boolean")
    if "time_up" in data:
        time_up = data["time_up"]
        if time_up is not True and time_up is not False:
            raise RecordError(index, "time_up", "must be true or false", code="not_a_boolean")
        if time_up:
            hand = _parse_outcome(
                data, result, players, index, riichi, open_riichi, penalties, dealer_stops
            )._replace(time_up=True)
            return _with_chombo(hand, data, players, index)
    hand = _parse_outcome(
        data, result, players, index, riichi, open_riichi, penalties, dealer_stops
    )
    return _with_chombo(hand, data, players, index)


def _with_chombo(hand: Hand, data: Mapping[str, Any], players: int, index: int) -> Hand:
    """``hand`` with the ``chombo`` extension, when the hand has one: an object
    ``{"offender": seat}`` and, on a draw, ``"noten_payments": true`` when the draw is settled
    before the chombo (seed 003 L426-428); a winner cannot also owe the chombo."""
    if "chombo" not in data:
        return hand
    value = data["chombo"]
    if (
        not isinstance(value, Mapping)
        or "offender" not in value
        or not set(value) <= {"offender", "noten_payments"}
    ):
        raise RecordError(
            index,
            "chombo",
            "must be an object {offender[, noten_payments]}",
            code="chombo_not_an_object",
        )
    offender = _seat(value["offender"], players, index, "chombo.offender")
    noten_payments = value.get("noten_payments", False)
    if noten_payments is not True and noten_payments is not False:
        raise RecordError(
            index, "chombo.noten_payments", "must be true or false", code="not_a_boolean"
        )
    if noten_payments and hand.result != "draw":
        raise RecordError(
            index,
            "chombo.noten_payments",
            "only a draw has noten payments",
            code="key_not_for_result",
            params={"result": hand.result},
        )
    if any(win.winner == offender for win in hand.wins):
        raise RecordError(
            index,
            "chombo.offender",
            "a winner cannot also owe a chombo in the same hand",
            code="chombo_offender_is_winner",
            params={"seat": offender},
        )
    return hand._replace(chombo_after=offender, chombo_noten_payments=noten_payments)


def _parse_outcome(
    data: Mapping[str, Any],
    result: str,
    players: int,
    index: int,
    riichi: tuple[int, ...],
    open_riichi: tuple[int, ...],
    penalties: tuple[Penalty, ...],
    dealer_stops: bool,
) -> Hand:
    """The outcome part of :func:`parse_hand` (after the keys common to every result)."""

    if result == "ron" or result == "tsumo":
        raw_wins = data.get("wins")
        if not isinstance(raw_wins, list) or not raw_wins:
            raise RecordError(
                index, "wins", "must be a non-empty list of wins", code="wins_not_a_list"
            )
        wins = tuple([_parse_win(w, i, index, players) for i, w in enumerate(raw_wins)])
        if len(wins) > 1 and len({w.winner for w in wins}) != len(wins):
            raise RecordError(index, "wins", "the same seat wins twice", code="winner_twice")
        if result == "tsumo":
            if len(wins) != 1:
                raise RecordError(
                    index, "wins", "a tsumo has exactly one win", code="tsumo_needs_one_win"
                )
            return Hand(
                result, wins, None, riichi, open_riichi, (), (), None, None, penalties, dealer_stops
            )
        if "loser" not in data:
            raise RecordError(
                index, "loser", "a ron needs the discarder's seat", code="ron_needs_loser"
            )
        loser = _seat(data["loser"], players, index, "loser")
        for i, w in enumerate(wins):
            if w.winner == loser:
                raise RecordError(
                    index,
                    "loser",
                    "the discarder cannot also be a winner",
                    code="loser_is_winner",
                    params={"seat": loser},
                )
            if w.rinshan_from is not None:
                raise RecordError(
                    index, f"wins[{i}].rinshan_from", "only a tsumo has it", code="rinshan_on_ron"
                )
        return Hand(
            result, wins, loser, riichi, open_riichi, (), (), None, None, penalties, dealer_stops
        )

    if result == "draw":
        tenpai = _seats(data, "tenpai", players, index)
        nagashi = _seats(data, "nagashi", players, index)
        return Hand(
            result,
            (),
            None,
            riichi,
            open_riichi,
            tenpai,
            nagashi,
            None,
            None,
            penalties,
            dealer_stops,
        )
    if result == "abort":
        kind = data.get("kind")
        if kind not in ABORTIVE_KINDS:
            raise RecordError(
                index,
                "kind",
                f"must be one of {', '.join(ABORTIVE_KINDS)}",
                code="unknown_abortive_draw",
            )
        tenpai = _seats(data, "tenpai", players, index)
        return Hand(
            result, (), None, riichi, open_riichi, tenpai, (), kind, None, penalties, dealer_stops
        )
    if "offender" not in data:
        raise RecordError(
            index, "offender", "a chombo needs the offender's seat", code="chombo_needs_offender"
        )
    offender = _seat(data["offender"], players, index, "offender")
    return Hand(
        result, (), None, riichi, open_riichi, (), (), None, offender, penalties, dealer_stops
    )


def _parse_penalties(value: Any, players: int, index: int) -> tuple[Penalty, ...]:
    if not isinstance(value, list):
        raise RecordError(
            index, "penalties", "must be a list of {seat, kind}", code="penalties_not_a_list"
        )
    out = []
    for i, item in enumerate(value):
        key = f"penalties[{i}]"
        if not isinstance(item, Mapping) or set(item) != _PENALTY_KEYS:
            raise RecordError(
                index,
                key,
                "must be an object with exactly seat and kind",
                code="penalty_not_an_object",
            )
        if not isinstance(item["kind"], str):
            raise RecordError(index, f"{key}.kind", "must be a string", code="not_a_string")
        out.append(Penalty(_seat(item["seat"], players, index, f"{key}.seat"), item["kind"]))
    return tuple(out)


def _integer(data: Mapping[str, Any], key: str, index: int, prefix: str) -> int | None:
    value = data.get(key)
    if value is None or value.__class__ is int:
        return value
    raise RecordError(index, f"{prefix}.{key}", "must be an integer", code="not_an_integer")


def _parse_win(data: Any, i: int, index: int, players: int) -> Win:
    prefix = f"wins[{i}]"
    if data.__class__ is not dict and not isinstance(data, Mapping):
        raise RecordError(index, prefix, "a win must be an object", code="win_not_an_object")
    if not data.keys() <= _WIN_KEYS:
        for key in data:
            if key not in _WIN_KEYS:
                raise RecordError(index, f"{prefix}.{key}", "unknown key", code="unknown_key")
    if "winner" not in data:
        raise RecordError(index, f"{prefix}.winner", "missing", code="winner_missing")
    winner = _seat(data["winner"], players, index, f"{prefix}.winner")
    han = _integer(data, "han", index, prefix)
    fu = _integer(data, "fu", index, prefix)
    limit = data.get("limit")
    if limit is not None:
        if limit not in LIMITS:
            raise RecordError(
                index,
                f"{prefix}.limit",
                f"must be one of {', '.join(LIMITS)}",
                code="unknown_limit",
            )
        if han is not None or fu is not None:
            raise RecordError(
                index,
                f"{prefix}.limit",
                "give either limit or han/fu, not both",
                code="limit_with_han_fu",
            )
    elif han is None:
        raise RecordError(
            index, f"{prefix}.han", "a win needs han (and fu) or a limit", code="han_missing"
        )
    elif han < 1:
        raise RecordError(index, f"{prefix}.han", "must be at least 1", code="han_below_one")
    yakuman = 1
    if "yakuman" in data:
        if limit != "yakuman":
            raise RecordError(
                index,
                f"{prefix}.yakuman",
                "goes only with limit yakuman",
                code="yakuman_without_limit",
            )
        yakuman = _integer(data, "yakuman", index, prefix) or 0
        if not 1 <= yakuman <= 6:
            raise RecordError(
                index,
                f"{prefix}.yakuman",
                "must be a multiple from 1 to 6",
                code="yakuman_multiple_out_of_range",
                params={"yakuman": yakuman},
            )
    pao = rinshan_from = None
    if data.get("pao") is not None:
        pao = _seat(data["pao"], players, index, f"{prefix}.pao")
        if pao == winner:
            raise RecordError(
                index, f"{prefix}.pao", "the winner cannot be liable for pao", code="pao_is_winner"
            )
    if data.get("rinshan_from") is not None:
        rinshan_from = _seat(data["rinshan_from"], players, index, f"{prefix}.rinshan_from")
        if rinshan_from == winner:
            raise RecordError(
                index,
                f"{prefix}.rinshan_from",
                "the winner cannot feed the kan",
                code="rinshan_from_is_winner",
            )
    chips = _integer(data, "chips", index, prefix) or 0
    if chips < 0:
        raise RecordError(
            index,
            f"{prefix}.chips",
            "must not be negative",
            code="negative_chips",
            params={"chips": chips},
        )
    yaku = _parse_yaku(data.get("yaku"), index, prefix)
    tiles = _parse_tiles(data.get("tiles"), index, prefix)
    return Win(winner, han, fu, limit, yakuman, pao, rinshan_from, chips, yaku, tiles)


def _parse_yaku(value: Any, index: int, prefix: str) -> tuple[tuple[str, int], ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(
        isinstance(y, Mapping)
        and set(y) == {"name", "han"}
        and isinstance(y["name"], str)
        and 0 < len(y["name"]) <= 40
        and isinstance(y["han"], int)
        and not isinstance(y["han"], bool)
        and 0 <= y["han"] <= 26
        for y in value
    ):
        raise RecordError(
            index,
            f"{prefix}.yaku",
            'must be a list of {"name": yaku, "han": 0-26}',
            code="yaku_malformed",
        )
    return tuple((y["name"], y["han"]) for y in value)


def _parse_tiles(value: Any, index: int, prefix: str) -> tuple[tuple[str, Any], ...]:
    if value is None:
        return ()
    ok = (
        isinstance(value, Mapping)
        and set(value) <= _TILE_KEYS | RECORD_FLAGS
        and all(isinstance(value[f], bool) for f in RECORD_FLAGS & set(value))
        and all(
            isinstance(value.get(k, []), list)
            and len(value.get(k, [])) <= 5
            and all(isinstance(t, str) and len(t) <= 3 for t in value.get(k, []))
            for k in ("dora_indicators", "ura_indicators")
        )
        and all(
            not isinstance(value.get(key, 0), bool)
            and isinstance(value.get(key, 0), int)
            and 0 <= value.get(key, 0) <= 8
            for key in ("kita", "flowers")
        )
        and isinstance(value.get("hand"), str)
        and isinstance(value.get("win_tile"), str)
        and len(value["hand"]) <= 60
        and len(value["win_tile"]) <= 3
    )
    melds = value.get("melds", []) if isinstance(value, Mapping) else None
    ok = (
        ok
        and isinstance(melds, list)
        and len(melds) <= 4
        and all(
            isinstance(m, Mapping)
            and set(m) == {"type", "tiles"}
            and m["type"] in ("chi", "pon", "kan", "ankan")
            and isinstance(m["tiles"], str)
            and len(m["tiles"]) <= 10
            for m in melds
        )
    )
    if not ok:
        raise RecordError(
            index,
            f"{prefix}.tiles",
            'must be {"hand": mpsz, "melds": [{"type", "tiles"}], "win_tile": mpsz}',
            code="tiles_malformed",
        )
    out: list[tuple[str, Any]] = [("hand", value["hand"])]
    if melds:
        out.append(("melds", [{"type": m["type"], "tiles": m["tiles"]} for m in melds]))
    out.append(("win_tile", value["win_tile"]))
    for key in ("dora_indicators", "ura_indicators"):
        if value.get(key):
            out.append((key, list(value[key])))
    for key in ("kita", "flowers"):
        if value.get(key):
            out.append((key, value[key]))
    out += sorted((flag, True) for flag in RECORD_FLAGS if value.get(flag))
    return tuple(out)


# -- scoring/engine/hand_outcomes.py ---------------------------------------------------------

# Nagashi paid as a mangan, a baiman or a yakuman (the ruleset's ``nagashi``).
NAGASHI_BASIC_POINTS = {name: LIMIT_BASIC_POINTS[name] for name in ("mangan", "baiman", "yakuman")}


class HandLedger:
    """The money of one hand while it is being worked out; committed only if it is valid."""

    __slots__ = ("deltas", "table", "payments", "chips", "chips_moved", "wins")

    def __init__(self, players: int, deposits: int) -> None:
        self.deltas = [0] * players
        self.table = deposits
        self.payments: list[Payment] = []
        self.chips = [0] * players
        self.chips_moved = False
        self.wins: list[int] = []

    def pay(self, payer: int | None, payee: int | None, amount: int, reason: str) -> None:
        """Move ``amount`` points; ``None`` is the table. Zero amounts are not recorded."""
        if amount <= 0:
            return
        if payer is None:
            self.table -= amount
        else:
            self.deltas[payer] -= amount
        if payee is None:
            self.table += amount
        else:
            self.deltas[payee] += amount
        self.payments.append(Payment(payer, payee, amount, reason))

    def take_deposits(self, seat: int) -> None:
        """Everything on the table goes to ``seat``."""
        self.pay(None, seat, self.table, "deposits")

    def pay_chips(self, payers: tuple[int, ...] | list[int], winner: int, chips: int) -> None:
        """Each of ``payers`` gives ``chips`` chips to ``winner`` (seed 003 L438-470)."""
        if chips:
            self.chips_moved = True
            for payer in payers:
                self.chips[payer] -= chips
                self.chips[winner] += chips


class HandOutcomes:
    """The payment rules of one hand, mixed into :class:`~scoring.engine.game.Game`: each
    returns whether the dealer keeps the deal and the next honba count."""

    ruleset: Ruleset
    scores: list[int]
    honba: int
    wind_index: int
    hand_number: int

    if TYPE_CHECKING:

        def is_all_last(self) -> bool: ...

    def _put_out_sticks(self, hand: Hand, ledger: HandLedger) -> None:
        """Riichi sticks (Makura §19; the 2,000 open-riichi fee of 004 L42) and penalties."""
        if not hand.riichi and not hand.penalties:
            return
        rs = self.ruleset
        if hand.open_riichi and not rs.open_riichi:
            raise RecordError(
                None, "open_riichi", "this ruleset has no open riichi", code="no_open_riichi"
            )
        for seat in hand.riichi:
            if rs.riichi_min_score and self.scores[seat] < rs.riichi_min_score:
                raise RecordError(
                    None,
                    "riichi",
                    f"seat {seat} has {self.scores[seat]} points; "
                    f"riichi needs at least {rs.riichi_min_score}",
                    code="riichi_below_minimum",
                    params={
                        "seat": seat,
                        "score": self.scores[seat],
                        "min_score": rs.riichi_min_score,
                    },
                )
            stick = rs.open_riichi_stick if seat in hand.open_riichi else rs.riichi_stick
            ledger.pay(seat, None, stick, "riichi")
        for i, penalty in enumerate(hand.penalties):
            amount = rs.penalty_amount(penalty.kind)
            if amount is None:
                raise RecordError(
                    None,
                    f"penalties[{i}].kind",
                    f"this ruleset has no {penalty.kind!r} penalty",
                    code="no_such_penalty",
                    params={"kind": penalty.kind},
                )
            ledger.pay(penalty.seat, None, amount, "penalty")

    def _check_wins(self, hand: Hand, tsumo: bool) -> None:
        rs = self.ruleset
        for i, win in enumerate(hand.wins):
            check_win(rs, win, i, tsumo=tsumo, honba=self.honba)
            if win.pao is not None and not rs.pao:
                raise RecordError(None, f"wins[{i}].pao", "this ruleset has no pao", code="no_pao")
            if win.chips and not rs.chips:
                raise RecordError(
                    None, f"wins[{i}].chips", "this ruleset has no chips", code="no_chips"
                )
            if win.chips > MAX_CHIPS_PER_PAYER:
                raise RecordError(
                    None,
                    f"wins[{i}].chips",
                    f"more than {MAX_CHIPS_PER_PAYER} chips from one payer",
                    code="chips_out_of_range",
                    params={"chips": win.chips, "max": MAX_CHIPS_PER_PAYER},
                )

    def _ron(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        loser = hand.loser
        assert loser is not None
        if len(hand.wins) > rs.multi_ron_max:
            if len(hand.wins) == 3 and "sancha_ron" in rs.abortive_draws:
                raise RecordError(
                    None,
                    "wins",
                    "a triple ron is an abortive draw here: record abort sancha_ron",
                    code="sancha_ron_is_abort",
                    params={"max": rs.multi_ron_max},
                )
            raise RecordError(
                None,
                "wins",
                f"this ruleset allows at most {rs.multi_ron_max} ron winners",
                code="too_many_ron_winners",
                params={"max": rs.multi_ron_max, "winners": len(hand.wins)},
            )
        self._check_wins(hand, tsumo=False)
        # Turn order from the discarder decides the first winner (上家取り / 頭ハネ, §24).
        order = (
            hand.wins
            if len(hand.wins) == 1
            else sorted(hand.wins, key=lambda w: (w.winner - loser) % n)
        )
        first = order[0].winner
        for win in order:
            winner = win.winner
            value = ron_value(rs, win_basic_points(rs, win), winner == dealer)
            honba_points = (
                rs.honba_ron * honba if rs.multi_ron_honba == "each" or winner == first else 0
            )
            liable = win.pao if win.pao is not None and win.pao != loser else None
            if liable is None:
                ledger.pay(loser, winner, value, "ron")
                if honba_points:
                    ledger.pay(loser, winner, honba_points, "honba")
                ledger.pay_chips((loser,), winner, win.chips)
            else:
                # Pao on a ron: the liable player and the discarder pay half each (M-05,
                # 002 P(1), 003 L594-596).
                half = round_up(value // 2, 100)
                ledger.pay(liable, winner, half, "pao")
                ledger.pay(loser, winner, value - half, "ron")
                self._pao_ron_honba(ledger, liable, loser, winner, honba_points)
                ledger.pay_chips((loser, liable), winner, win.chips)
            ledger.wins.append(winner)
        if rs.multi_ron_deposits == "first" or len(order) == 1:
            ledger.take_deposits(first)
        else:
            # H-19: split equally in 100s; what does not divide goes to the first winner.
            share = ledger.table // len(order) // 100 * 100
            rest = ledger.table - share * len(order)
            for position, win in enumerate(order):
                ledger.pay(None, win.winner, share + (rest if position == 0 else 0), "deposits")
        if rs.multi_ron_renchan == "any_winner":
            keep = any(w.winner == dealer for w in order)
        else:
            keep = first == dealer
        return keep, (honba + 1 if keep else 0)

    def _pao_ron_honba(
        self, ledger: HandLedger, liable: int, loser: int, winner: int, honba_points: int
    ) -> None:
        mode = self.ruleset.pao_ron_honba
        if mode == "discarder":
            ledger.pay(loser, winner, honba_points, "honba")
        elif mode == "liable":
            ledger.pay(liable, winner, honba_points, "honba")
        elif mode == "each":
            ledger.pay(liable, winner, honba_points, "honba")
            ledger.pay(loser, winner, honba_points, "honba")
        else:
            half = round_up(honba_points // 2, 100)
            ledger.pay(liable, winner, half, "honba")
            ledger.pay(loser, winner, honba_points - half, "honba")

    def _tsumo(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        self._check_wins(hand, tsumo=True)
        win = hand.wins[0]
        winner = win.winner
        dealer_wins = winner == dealer
        b = win_basic_points(rs, win)
        payers: tuple[int, ...]
        if win.pao is not None:
            # Pao on a tsumo: the liable player pays the whole value and the honba (M-05, S-10).
            ledger.pay(win.pao, winner, ron_value(rs, b, dealer_wins), "pao")
            ledger.pay(win.pao, winner, rs.honba_ron * honba, "honba")
            payers = (win.pao,)
        elif win.rinshan_from is not None and rs.rinshan_liability != "none":
            # Daiminkan rinshan: the feeder pays alone (002 K(8) / S-11, 003 L235-239 / H-24).
            feeder = win.rinshan_from
            if rs.rinshan_liability == "ron_value":
                value = ron_value(rs, b, dealer_wins)
                honba_points = rs.honba_ron * honba
            else:
                dealer_share, other_share = tsumo_shares(rs, b, dealer_wins)
                value = sum(
                    dealer_share if seat == dealer else other_share
                    for seat in range(n)
                    if seat != winner
                )
                honba_points = rs.honba_tsumo_each * honba * (n - 1)
            ledger.pay(feeder, winner, value, "rinshan")
            ledger.pay(feeder, winner, honba_points, "honba")
            payers = (feeder,)
        else:
            dealer_share, other_share = tsumo_shares(rs, b, dealer_wins)
            each_honba = rs.honba_tsumo_each * honba
            payers = tuple(seat for seat in range(n) if seat != winner)
            for seat in payers:
                ledger.pay(seat, winner, dealer_share if seat == dealer else other_share, "tsumo")
                if each_honba:
                    ledger.pay(seat, winner, each_honba, "honba")
        ledger.pay_chips(payers, winner, win.chips)
        ledger.wins.append(winner)
        ledger.take_deposits(winner)
        return dealer_wins, (honba + 1 if dealer_wins else 0)

    def _draw(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        rs = self.ruleset
        n = rs.players
        if hand.nagashi:
            return self._nagashi(hand, dealer, honba, ledger)
        tenpai = hand.tenpai
        # H-18 / seed 003 L410: a draw with a chombo exchanges the chombo only, unless the
        # record says the draw is settled first (the pao case, L426-428).
        settled = hand.chombo_after is None or hand.chombo_noten_payments
        if settled and 0 < len(tenpai) < n:
            # the noten players pay the total equally, the tenpai players share it.
            noten = [seat for seat in range(n) if seat not in tenpai]
            each_pair = rs.noten_total // (len(noten) * len(tenpai))
            for payer in noten:
                for payee in tenpai:
                    ledger.pay(payer, payee, each_pair, "noten")
        keep = dealer in tenpai or (
            rs.draws_keep_dealer_from_round >= 0
            and self.wind_index >= rs.draws_keep_dealer_from_round
        )
        return keep, honba + 1

    def _nagashi(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        """Nagashi paid as a tsumo of its value by each player who made it (M-07, S-12, H-23,
        F-14, Tenhou §3); it replaces the noten payments."""
        rs = self.ruleset
        n = rs.players
        if rs.nagashi == "none":
            raise RecordError(None, "nagashi", "this ruleset has no nagashi", code="no_nagashi")
        b = NAGASHI_BASIC_POINTS[rs.nagashi]
        each_honba = rs.honba_tsumo_each * honba if rs.nagashi_honba else 0
        for seat in hand.nagashi:
            dealer_share, other_share = tsumo_shares(rs, b, seat == dealer)
            for payer in range(n):
                if payer != seat:
                    share = dealer_share if payer == dealer else other_share
                    ledger.pay(payer, seat, share, "nagashi")
                    ledger.pay(payer, seat, each_honba, "honba")
            ledger.wins.append(seat)
        if rs.nagashi_takes_deposits:
            ledger.take_deposits(min(hand.nagashi, key=lambda s: (s - dealer) % n))
        if rs.nagashi_rotation == "as_win":
            keep = dealer in hand.nagashi
            return keep, (honba + 1 if keep else 0)
        if rs.nagashi_rotation == "as_draw":
            return dealer in hand.tenpai, honba + 1
        return True, honba + 1

    def _abort(self, hand: Hand, dealer: int, honba: int) -> tuple[bool, int]:
        rs = self.ruleset
        assert hand.kind is not None
        if hand.kind not in rs.abortive_draws:
            raise RecordError(
                None,
                "kind",
                f"this ruleset has no abortive draw {hand.kind}",
                code="no_such_abortive_draw",
                params={"kind": hand.kind},
            )
        if rs.abortive_renchan == "always":
            keep = True
        elif rs.abortive_renchan == "never":
            keep = False
        else:
            # M-03 (a); in suucha_riichi every riichi seat counts as tenpai.
            keep = dealer in hand.tenpai or (hand.kind == "suucha_riichi" and dealer in hand.riichi)
        return keep, honba + 1

    def _pay_chombo(self, offender: int, dealer: int, ledger: HandLedger) -> None:
        """The chombo payment alone: fixed, or mangan-style by who deals; never honba."""
        rs = self.ruleset
        for seat in range(rs.players):
            if seat == offender:
                continue
            if rs.chombo_payment == "fixed":
                amount = rs.chombo_each
            elif offender == dealer or seat == dealer:
                amount = 2 * MANGAN_BASIC_POINTS
            else:
                amount = MANGAN_BASIC_POINTS
            ledger.pay(offender, seat, amount, "chombo")

    def _chombo(self, hand: Hand, dealer: int, honba: int, ledger: HandLedger) -> tuple[bool, int]:
        """Chombo: fixed or mangan-style payment, never honba (Makura §33/§35, 002 C, 003
        L301-303, 004 L35); this hand's riichi sticks as ``chombo_riichi`` says."""
        rs = self.ruleset
        n = rs.players
        offender = hand.offender
        assert offender is not None
        self._pay_chombo(offender, dealer, ledger)
        if rs.chombo_riichi != "keep":
            for seat in hand.riichi:
                if rs.chombo_riichi == "return_all" or seat != offender:
                    stick = rs.open_riichi_stick if seat in hand.open_riichi else rs.riichi_stick
                    ledger.pay(None, seat, stick, "riichi_return")
        if rs.chombo_effect == "replay":
            return True, honba
        if rs.chombo_effect == "replay_honba_plus":
            return True, honba + 1
        # rotate_if_dealer (002 C(3), S-09): the all-last dealer who stays top replays.
        if offender != dealer:
            return True, honba
        if self.is_all_last():
            after = [self.scores[s] + ledger.deltas[s] for s in range(n)]
            if rank_order(rs, after)[0] == dealer:
                return True, honba
        return False, honba


# -- scoring/engine/game.py ------------------------------------------------------------------


class Game(HandOutcomes):
    """One hanchan (or tonpuusen) under a ruleset, fed hand by hand.

    >>> from scoring.engine import Game, load_ruleset, parse_hand
    >>> game = Game(load_ruleset("makura-1.5"))
    >>> game.play(parse_hand({"result": "ron", "loser": 2,
    ...     "wins": [{"winner": 1, "han": 3, "fu": 30}]}, 4, 0)).deltas
    (0, 3900, -3900, 0)

    ``play`` validates the hand against the ruleset and the state before changing anything:
    a rejected hand leaves the game exactly as it was.
    """

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        n = ruleset.players
        self.scores = [ruleset.start_points] * n
        self.deposits = 0
        self.honba = 0
        self.wind_index = 0
        self.hand_number = 0  # 0-based within the wind; equals the dealer's seat
        self.ended_by: str | None = None
        self.results: list[HandResult] = []
        self.chips = [0] * n
        self.win_counts = [0] * n
        self.settlement: Settlement | None = None
        self._winds = ruleset.round_winds()
        self._hands_before = 0  # hands played before a restore(); results holds the rest
        self._no_chips = (0,) * n

    @property
    def hands_played(self) -> int:
        """How many hands the game has had (the next hand's index in the record)."""
        return self._hands_before + len(self.results)

    def snapshot(self) -> dict[str, Any]:
        """The state between hands as plain JSON data, for :meth:`restore`.

        Lets a ledger store the state with the game and apply the next hand without replaying
        the earlier ones. A finished game cannot be snapshotted (nothing follows it).
        """
        if self.ended_by is not None:
            raise ValueError("a finished game has no next hand")
        return {
            "hands_played": self.hands_played,
            "scores": list(self.scores),
            "deposits": self.deposits,
            "honba": self.honba,
            "wind_index": self.wind_index,
            "hand_number": self.hand_number,
            "chips": list(self.chips),
            "win_counts": list(self.win_counts),
        }

    @classmethod
    def restore(cls, ruleset: Ruleset, snapshot: dict[str, Any]) -> Game:
        """A game in the state :meth:`snapshot` recorded (under the same ``ruleset``)."""
        game = cls(ruleset)
        game._hands_before = snapshot["hands_played"]
        game.scores = list(snapshot["scores"])
        game.deposits = snapshot["deposits"]
        game.honba = snapshot["honba"]
        game.wind_index = snapshot["wind_index"]
        game.hand_number = snapshot["hand_number"]
        game.chips = list(snapshot["chips"])
        game.win_counts = list(snapshot["win_counts"])
        return game

    # -- state ------------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        """Seat of the current dealer (seat 0 deals East 1)."""
        return self.hand_number

    @property
    def round_label(self) -> str:
        """The current hand's label: wind and hand number, e.g. "S3"."""
        return f"{self._winds[self.wind_index]}{self.hand_number + 1}"

    def is_all_last(self) -> bool:
        """The current hand is the last hand of the final base round or of an extension."""
        return (
            self.hand_number == self.ruleset.players - 1
            and self.wind_index >= self.ruleset.rounds - 1
        )

    def state(self) -> TableState:
        """A snapshot of the table before the next hand (see :class:`TableState`)."""
        return TableState(
            round=self.round_label,
            dealer=self.dealer,
            honba=self.honba,
            deposits=self.deposits,
            scores=tuple(self.scores),
            all_last=self.is_all_last(),
            ended_by=self.ended_by,
            hands_played=self.hands_played,
        )

    # -- playing a hand ---------------------------------------------------------------------
    def play(self, hand: Hand) -> HandResult:
        """Apply ``hand`` and advance the game.

        Returns:
            The :class:`HandResult`. When this hand ends the game, ``self.ended_by`` and
            ``self.settlement`` are set.

        Raises:
            RecordError: (``hand_index`` = number of hands already played) the game is over,
                or a seat or value the ruleset does not allow here: a fu it forbids, pao where
                it has none, too many ron winners, an abortive draw it does not have, riichi
                below its minimum score, ``dealer_stops`` where no stop is allowed, ...
        """
        index = self.hands_played
        if self.ended_by is not None:
            raise RecordError(
                index,
                "result",
                f"the game already ended ({self.ended_by})",
                code="game_over",
                params={"ended_by": self.ended_by},
            )
        try:
            return self._play(hand)
        except RecordError as error:
            if error.hand_index is None:
                raise error.with_hand(index) from None
            raise

    def _play(self, hand: Hand) -> HandResult:
        rs = self.ruleset
        n = rs.players
        dealer = self.hand_number
        honba = self.honba
        ledger = HandLedger(n, self.deposits)
        self._put_out_sticks(hand, ledger)

        result = hand.result
        if result == "ron":
            keep_dealer, next_honba = self._ron(hand, dealer, honba, ledger)
        elif result == "tsumo":
            keep_dealer, next_honba = self._tsumo(hand, dealer, honba, ledger)
        elif result == "draw":
            keep_dealer, next_honba = self._draw(hand, dealer, honba, ledger)
        elif result == "abort":
            keep_dealer, next_honba = self._abort(hand, dealer, honba)
        else:
            keep_dealer, next_honba = self._chombo(hand, dealer, honba, ledger)
        if keep_dealer and rs.renchan == "none" and result != "chombo":
            # A lobby without renchan (Tenhou's 0x641 logs): the deal passes after every win
            # and draw; a dealer's win resets the honba as anyone's win does, a draw adds one.
            keep_dealer = False
            next_honba = 0 if self._dealer_won(hand) else next_honba
        # H-18: the win or the draw is settled first, then the chombo; the hand's own result
        # decides the dealer and the honba. A bust by the chombo payment alone ends the game
        # only where the ruleset says so (tobi_after_chombo).
        bust_scores: list[int] | None = None
        if hand.chombo_after is not None and not rs.chombo_after_result:
            raise RecordError(
                None,
                "chombo",
                "the ruleset waives a chombo in a hand that ends in a win or a draw",
                code="no_chombo_after_result",
            )
        if hand.chombo_after is not None:
            if not rs.tobi_after_chombo:
                bust_scores = [s + d for s, d in zip(self.scores, ledger.deltas, strict=True)]
            self._pay_chombo(hand.chombo_after, dealer, ledger)

        deltas = ledger.deltas
        new_scores = [score + delta for score, delta in zip(self.scores, deltas, strict=True)]
        ended = self._end_after_hand(hand, new_scores, keep_dealer, ledger, bust_scores)

        # Everything is valid: commit.
        # Positional: HandResult is built for every hand of every replay.
        record = HandResult(
            self.round_label,
            dealer,
            honba,
            self.deposits,
            tuple(deltas),
            tuple(new_scores),
            ledger.table,
            tuple(ledger.payments),
            tuple(ledger.chips) if ledger.chips_moved else self._no_chips,
        )
        self.results.append(record)
        self.scores = new_scores
        self.deposits = ledger.table
        for seat in ledger.wins:
            self.win_counts[seat] += 1
        if ledger.chips_moved:
            self.chips = [self.chips[s] + ledger.chips[s] for s in range(n)]
        if ended is None:
            ended = self._advance(keep_dealer, next_honba)
        if ended is None and hand.time_up:
            # T-07: time was called during this hand; it is the last one.
            ended = "time_up"
        if ended is not None:
            self._finish(ended)
        return record

    # -- ending and advancing ---------------------------------------------------------------
    def _end_after_hand(
        self,
        hand: Hand,
        scores: list[int],
        keep_dealer: bool,
        ledger: HandLedger,
        bust_scores: list[int] | None = None,
    ) -> str | None:
        """Tobi, agari/tenpai-yame and the dealer-top end; validates ``dealer_stops``.
        ``bust_scores``: the scores the bust check reads where they differ from ``scores``
        (before a chombo paid after the hand, under ``tobi_after_chombo = false``)."""
        rs = self.ruleset
        ended: str | None = None
        checked = scores if bust_scores is None else bust_scores
        if (
            rs.tobi
            and min(checked) <= 0
            and (hand.result != "chombo" or rs.tobi_after_chombo)
            and any(is_bust(rs, score) for score in checked)
        ):
            ended = "tobi"
        dealer = self.hand_number
        if hand.dealer_stops:
            kind = self._check_dealer_stop(hand, scores, keep_dealer)
            ended = ended or kind
        if (
            ended is None
            and keep_dealer
            and rs.dealer_top_ends != "never"
            and (
                self.is_all_last() or (rs.dealer_top_in_extension and self.wind_index >= rs.rounds)
            )
            and rank_order(rs, scores)[0] == dealer
            and scores[dealer] >= rs.dealer_top_min_score
            and (
                rs.dealer_top_ends == "after_any_hand"
                or (rs.dealer_top_ends == "after_win" and self._dealer_won(hand))
                or (
                    rs.dealer_top_ends == "after_win_or_tenpai" and self._dealer_won_or_tenpai(hand)
                )
            )
        ):
            ended = "dealer_top"
        return ended

    def _dealer_won(self, hand: Hand) -> bool:
        """The dealer won this hand: a ron/tsumo win, or a nagashi that counts as a win."""
        dealer = self.hand_number
        if hand.result == "ron" or hand.result == "tsumo":
            return any(w.winner == dealer for w in hand.wins)
        return (
            hand.result == "draw"
            and dealer in hand.nagashi
            and self.ruleset.nagashi_rotation == "as_win"
        )

    def _dealer_tenpai(self, hand: Hand) -> bool:
        return hand.result == "draw" and self.hand_number in hand.tenpai

    def _dealer_won_or_tenpai(self, hand: Hand) -> bool:
        return self._dealer_won(hand) or self._dealer_tenpai(hand)

    def _check_dealer_stop(self, hand: Hand, scores: list[int], keep_dealer: bool) -> str:
        rs = self.ruleset
        if not self.is_all_last():
            raise RecordError(
                None,
                "dealer_stops",
                "only the all-last dealer can stop",
                code="dealer_stop_not_all_last",
            )
        if keep_dealer and self._dealer_won(hand):
            kind, allowed = "agari_yame", rs.agari_yame
        elif keep_dealer and self._dealer_tenpai(hand):
            kind, allowed = "tenpai_yame", rs.tenpai_yame
        else:
            raise RecordError(
                None,
                "dealer_stops",
                "the dealer can stop only after keeping the deal by a win or tenpai",
                code="dealer_stop_needs_renchan",
            )
        if not allowed:
            if kind == "agari_yame":
                raise RecordError(
                    None, "dealer_stops", "this ruleset has no agari_yame", code="no_agari_yame"
                )
            raise RecordError(
                None, "dealer_stops", "this ruleset has no tenpai_yame", code="no_tenpai_yame"
            )
        if rs.yame_needs_target and max(scores) < rs.extension_target:
            raise RecordError(
                None,
                "dealer_stops",
                f"nobody has {rs.extension_target} points yet: the game goes on (H-21)",
                code="yame_needs_target",
                params={"target": rs.extension_target, "top_score": max(scores)},
            )
        return kind

    def _advance(self, keep_dealer: bool, next_honba: int) -> str | None:
        """Move to the next hand; returns why the game ended, if it did."""
        rs = self.ruleset
        self.honba = next_honba
        if keep_dealer:
            return None
        in_extension = self.wind_index >= rs.rounds
        self.hand_number += 1
        target_reached = max(self.scores) >= rs.extension_target
        if self.hand_number == rs.players:
            self.hand_number = 0
            next_wind = self.wind_index + 1
            if next_wind < rs.rounds:
                self.wind_index = next_wind
                return None
            # The end of the base game or of an extension round (seed 003 L39-50, Tenhou §4).
            if rs.extension != "none" and next_wind < len(self._winds) and not target_reached:
                self.wind_index = next_wind
                return None
            self.hand_number = rs.players - 1
            return "last_hand"
        if in_extension and rs.extension == "sudden_death" and target_reached:
            self.hand_number -= 1
            return "last_hand"
        return None

    def _finish(self, ended_by: str) -> None:
        self.ended_by = ended_by
        last = self.results[-1]
        self.settlement = final_settlement(
            self.ruleset,
            self.scores,
            deposits=self.deposits,
            ended_by=ended_by,
            busting_payments=last.payments,
            chips=self.chips,
            win_counts=self.win_counts,
        )


# -- scoring/engine/replay.py ----------------------------------------------------------------

RECORD_FORMAT = "club-game/1"


# ``final_scores`` (instead of hands) is this repository's extension for games entered as
# final scores only (docs/game-record-format.md, "Extensions").
_RECORD_KEYS = frozenset({"format", "ruleset", "overrides", "players", "hands", FINAL_SCORES})


# Descriptive keys the app writes on export; they do not change the replay.
_METADATA_KEYS = frozenset({"date", "venue", "table", "title", "source", "note"})


def ruleset_of_record(record: Any) -> Ruleset:
    """The ruleset a record names, with its ``overrides`` applied.

    Every reading of a record starts here, so the rest of the record's text and numbers are
    checked here too (:func:`~scoring.engine.record_values.check_record_values`), once its
    ruleset and overrides have been read by their own, more specific rules.

    Raises:
        RecordError: the record is not an object, has the wrong ``format``, names no or an
            unknown ruleset, has bad overrides, or holds a text or a number no game has.
    """
    if not isinstance(record, Mapping):
        raise RecordError(
            None, "record", "a game record must be a JSON object", code="record_not_an_object"
        )
    for key in record:
        if key not in _RECORD_KEYS and key not in _METADATA_KEYS:
            raise RecordError(None, key, "unknown key", code="unknown_key")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise RecordError(
            None,
            "format",
            f"must be {RECORD_FORMAT!r}",
            code="unknown_format",
            params={"format": RECORD_FORMAT},
        )
    ruleset_id = record.get("ruleset")
    if not isinstance(ruleset_id, str):
        raise RecordError(None, "ruleset", "must name a ruleset", code="ruleset_missing")
    try:
        ruleset = load_ruleset(ruleset_id, record.get("overrides") or None)
    except KeyError:
        raise RecordError(
            None,
            "ruleset",
            f"unknown ruleset {ruleset_id!r}",
            code="unknown_ruleset",
            params={"ruleset": ruleset_id},
        ) from None
    check_record_values(record)
    return ruleset


def replay_record(record: Any) -> Replay:
    """Replay a game record (a parsed JSON object) from East 1.

    Args:
        record: ``{"format", "ruleset", "overrides", "players", "hands"}`` as in
            docs/game-record-format.md, or with ``final_scores`` instead of ``hands``
            (:mod:`scoring.engine.final_scores`).

    Returns:
        A :class:`Replay`; ``to_json()`` gives exactly the ``replay`` output.

    Raises:
        RecordError: the first fault found, with the hand's index and key (see the format's
            "Errors": a hand after the game ended, a winner who is also the loser, a tsumo with
            two wins, a seat out of range, a fu the ruleset does not allow, ...).
    """
    ruleset = ruleset_of_record(record)
    players = record_players(record, ruleset)
    if FINAL_SCORES in record:
        return _replay_final_scores(record, ruleset, players)
    game, hands = _play_hands(record, ruleset)
    return Replay(
        ruleset=ruleset,
        players=tuple(players),
        hands=tuple(hands),
        results=tuple(game.results),
        settlement=game.settlement,
        state=game.state(),
    )


def game_of_record(record: Any) -> Game:
    """The :class:`Game` of a record's hands, played from East 1, to go on from (the next
    hand's dealer, honba, deposits and scores; ``ended_by`` set if the game is over).

    Raises:
        RecordError: as :func:`replay_record`; a record of final scores only (code
            ``game_over``: no hand follows it).
    """
    ruleset = ruleset_of_record(record)
    record_players(record, ruleset)
    if FINAL_SCORES in record:
        raise RecordError(
            None,
            FINAL_SCORES,
            "the game already ended (final_scores)",
            code="game_over",
            params={"ended_by": "final_scores"},
        )
    game, _hands = _play_hands(record, ruleset)
    return game


def _play_hands(record: Mapping[str, Any], ruleset: Ruleset) -> tuple[Game, list[Hand]]:
    """The record's ``hands`` parsed and played from East 1."""
    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list):
        raise RecordError(None, "hands", "must be a list of hands", code="hands_not_a_list")
    game = Game(ruleset)
    hands = []
    for index, raw in enumerate(raw_hands):
        hand = parse_hand(raw, ruleset.players, index)
        game.play(hand)
        hands.append(hand)
    return game, hands


def _replay_final_scores(record: Mapping[str, Any], ruleset: Ruleset, players: list[str]) -> Replay:
    """A game entered as final scores only: no hands, the settlement of its final scores."""
    if record.get("hands", []) != []:
        raise RecordError(
            None,
            FINAL_SCORES,
            "a record has hands or final scores, not both",
            code="final_scores_with_hands",
        )
    settlement = settle_final_scores(ruleset, parse_final_scores(record[FINAL_SCORES], ruleset))
    return Replay(
        ruleset=ruleset,
        players=tuple(players),
        hands=(),
        results=(),
        settlement=settlement,
        state=TableState(
            round="",
            dealer=0,
            honba=0,
            deposits=0,
            scores=settlement.scores,
            all_last=False,
            ended_by=settlement.ended_by,
            hands_played=0,
        ),
    )


def record_players(record: Mapping[str, Any], ruleset: Ruleset) -> list[str]:
    """The record's ``players``: as many distinct, non-blank names as ``ruleset`` seats.

    Raises:
        RecordError: (key ``players``) not a list of names, the wrong number, a name twice.
    """
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(players) != ruleset.players
    ):
        raise RecordError(
            None,
            "players",
            f"must be {ruleset.players} names for ruleset {ruleset.id!r}",
            code="players_wrong_count",
            params={"players": ruleset.players, "ruleset": ruleset.id},
        )
    if len(set(players)) != len(players):
        raise RecordError(None, "players", "the same name sits twice", code="player_twice")
    return list(players)


# -- scoring/engine/hand_value.py -----------------------------------------------------------


def basic_points(rs: Ruleset, han: int, fu: int) -> int:
    """Basic points b of a counted hand of ``han`` han and ``fu`` fu under ``rs``.

    Applies the limits and kiriage mangan (§45f of Makura; S(1) of seed 002). A counted hand of
    ``counted_yakuman_han`` or more is a single yakuman (M-21: it never combines). Does not
    validate ``fu``; see :func:`check_win`.
    """
    limit = counted_limit(
        han, sanbaiman_han=rs.sanbaiman_han, counted_yakuman_han=rs.counted_yakuman_han
    )
    if limit is not None:
        return limit.basic_points
    b = counted_basic_points(han, fu)
    if b >= MANGAN_BASIC_POINTS:
        return MANGAN_BASIC_POINTS
    # 1,920 is 30 fu 4 han or 60 fu 3 han.
    if b == 1920 and (rs.kiriage == "both" or (rs.kiriage == "4han30fu" and han == 4)):
        return MANGAN_BASIC_POINTS
    return b


def counted_basic_points(han: int, fu: int) -> int:
    """The formula alone, before any limit: b = fu x 2^(han+2) (rules-spec §0 [SK]). A hand
    below mangan is worth exactly this; :func:`basic_points` applies the limits."""
    return fu << (han + 2)


def win_basic_points(rs: Ruleset, win: Win) -> int:
    """Basic points of ``win`` (han/fu or limit); fixed-fu rulesets use ``rs.fixed_fu``."""
    if win.limit is not None:
        if win.limit == "yakuman":
            return YAKUMAN_BASIC_POINTS * min(win.yakuman, rs.yakuman_max)
        return LIMIT_BASIC_POINTS[win.limit]
    assert win.han is not None
    fu = win.fu if rs.fu_scoring and win.fu is not None else rs.fixed_fu
    return basic_points(rs, win.han, fu)


def ron_value(rs: Ruleset, b: int, dealer_wins: bool) -> int:
    """What the discarder pays for a ron of basic points ``b`` (honba not included)."""
    return round_up(b * 6 if dealer_wins else b * 4, rs.payment_rounding)


def _fu_impossible(rs: Ruleset, han: int, fu: int, tsumo: bool) -> bool:
    if fu == 25:
        return han < (3 if tsumo else 2)
    if fu == 20:
        return not tsumo or han < 2 or not rs.pinfu_tsumo_20fu
    return False


def check_win(rs: Ruleset, win: Win, i: int, *, tsumo: bool, honba: int) -> None:
    """Check that ``win`` (the i-th win of a hand) is a value the ruleset allows.

    Raises:
        RecordError: with ``hand_index=None`` (the caller adds it) and key
            ``wins[i].<field>``: a fu the ruleset forbids (or any fu where it has none), a
            missing fu below mangan, too few han at high honba (seed 003 L106, H-22).
    """
    prefix = f"wins[{i}]"
    if win.limit is not None:
        return
    assert win.han is not None
    if rs.two_han_minimum_from_honba and honba >= rs.two_han_minimum_from_honba and win.han < 2:
        raise RecordError(
            None,
            f"{prefix}.han",
            f"2 han are needed from {rs.two_han_minimum_from_honba} honba",
            code="two_han_minimum",
            params={"from_honba": rs.two_han_minimum_from_honba, "honba": honba, "han": win.han},
        )
    if not rs.fu_scoring:
        if win.fu is not None and win.fu != rs.fixed_fu:
            raise RecordError(
                None,
                f"{prefix}.fu",
                "this ruleset has no fu; leave fu out",
                code="fu_not_scored",
                params={"fu": win.fu, "fixed_fu": rs.fixed_fu},
            )
        return
    if win.fu is None:
        if win.han < 5:
            raise RecordError(
                None,
                f"{prefix}.fu",
                "a hand below 5 han needs its fu",
                code="fu_needed",
                params={"han": win.han},
            )
        return
    if win.fu not in LEGAL_FU:
        raise RecordError(
            None,
            f"{prefix}.fu",
            "must be 20-110 in steps of 10, or 25",
            code="fu_out_of_range",
            params={"fu": win.fu},
        )
    if _fu_impossible(rs, win.han, win.fu, tsumo):
        how = "tsumo" if tsumo else "ron"
        raise RecordError(
            None,
            f"{prefix}.fu",
            f"{win.fu} fu is impossible for a {win.han}-han {how} here",
            code="fu_not_allowed",
            params={"han": win.han, "fu": win.fu, "win": how},
        )


def round_up(points: int, unit: int) -> int:
    """``points`` rounded up to a multiple of ``unit`` (100 or 1,000)."""
    return -(-points // unit) * unit


def tsumo_shares(rs: Ruleset, b: int, dealer_wins: bool) -> tuple[int, int]:
    """Tsumo payments for basic points ``b`` (honba not included).

    Returns ``(dealer_share, other_share)``: what the dealer pays and what each other payer
    pays for a non-dealer winner; for a dealer winner both are what each player pays. In
    3-player games with ``sanma_tsumo="north_split"`` each payer also pays half of the absent
    North's share, rounded up (X-01 b); with "tsumo_loss" that share is lost (X-01 a).
    """
    unit = rs.payment_rounding
    if dealer_wins:
        each = round_up(2 * b, unit)
        if rs.players == 3 and rs.sanma_tsumo == "north_split":
            each += round_up(each // 2, unit)
        return each, each
    dealer_share = round_up(2 * b, unit)
    other_share = round_up(b, unit)
    if rs.players == 3 and rs.sanma_tsumo == "north_split":
        half_absent = round_up(other_share // 2, unit)
        return dealer_share + half_absent, other_share + half_absent
    return dealer_share, other_share


# -- scoring/engine/settlement.py -----------------------------------------------------------


def rank_order(rs: Ruleset, scores: Sequence[int]) -> list[int]:
    """Seats from top to last; equal scores by seat order from the chicha (§1, M-02, X-05)."""
    if rs.tie_break == "seat_order":
        return sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    return sorted(range(len(scores)), key=lambda s: (-scores[s], -s))


def final_settlement(
    rs: Ruleset,
    scores: Sequence[int],
    *,
    deposits: int = 0,
    ended_by: str = "last_hand",
    busting_payments: Sequence[Payment] = (),
    chips: Sequence[int] | None = None,
    win_counts: Sequence[int] | None = None,
) -> Settlement:
    """Settle a finished game.

    Args:
        rs: the ruleset.
        scores: each seat's score at the end of the last hand (points), deposits excluded.
        deposits: points still on the table; they go to the top (Makura §24/§38, S-06, H-14,
            F-21, Tenhou "供託はトップ取り").
        ended_by: why the game ended; tobi payments (seed 003) are made only after ``"tobi"``.
        busting_payments: the payments of the hand that ended the game, to find who busted
            whom (H-06).
        chips: chip balance per seat before yakitori (rulesets with chips).
        win_counts: wins per seat over the game (nagashi counts, H-28), for yakitori.

    Returns:
        A :class:`Settlement`. Ranks use the seat-order tie-break and are taken before tobi
        payments (H-07 a). Points: (score - return) rounded per ``final_rounding`` + uma +
        oka to the top; with ``top_takes_remainder`` the top gets minus the others' sum (R1,
        M-01); with ``box_under="zero"`` a negative score settles as 0 (F-04).
    """
    n = rs.players
    order = rank_order(rs, scores)
    top = order[0]
    final = list(scores)
    final[top] += deposits
    ranks = [0] * n
    for position, seat in enumerate(order):
        ranks[seat] = position + 1

    uma_points = [0] * n
    uma_ep: list[int] | None = None
    if rs.uma_floating:
        floaters = sum(1 for s in final if s >= rs.float_threshold)
        row = rs.uma_floating[max(floaters, 1) - 1]
        ep = [row[ranks[s] - 1] for s in range(n)]
        if rs.uma_ep_points:
            uma_points = [e * rs.uma_ep_points for e in ep]
        else:
            uma_ep = ep
    elif rs.uma:
        uma_points = [rs.uma[ranks[s] - 1] for s in range(n)]

    points = [0] * n
    for s in range(n):
        settled = max(final[s], 0) if rs.box_under == "zero" else final[s]
        diff = settled - rs.return_points
        if rs.final_rounding == "truncate_after_uma":
            value = _truncate(diff + uma_points[s])
        else:
            value = _rounded(rs.final_rounding, settled, rs.return_points) + uma_points[s]
        points[s] = value + (rs.oka if s == top else 0)
    if rs.top_takes_remainder:
        points[top] = -sum(points[s] for s in range(n) if s != top)

    tobi_payments: list[Payment] = []
    if rs.tobi_payment and ended_by == "tobi":
        for busted in range(n):
            if not is_bust(rs, final[busted]):
                continue
            busters = sorted(
                {p.payee for p in busting_payments if p.payer == busted and p.payee is not None}
            )
            if not busters:
                continue
            # H-06: shares rounded down to 100 (5,000 / 3 -> 1,600 each, seed 003 L498-500).
            share = rs.tobi_payment // len(busters) // 100 * 100
            for buster in busters:
                points[busted] -= share
                points[buster] += share
                tobi_payments.append(Payment(busted, buster, share, "tobi"))

    chip_balance: tuple[int, ...] | None = None
    if rs.chips:
        balance = list(chips) if chips is not None else [0] * n
        if rs.yakitori_chips and win_counts is not None:
            winners = [s for s in range(n) if win_counts[s] > 0]
            for s in range(n):
                if win_counts[s] == 0:
                    for w in winners:
                        balance[s] -= rs.yakitori_chips
                        balance[w] += rs.yakitori_chips
        chip_balance = tuple(balance)

    return Settlement(
        scores=tuple(final),
        ranks=tuple(ranks),
        points=tuple(points),
        chips=chip_balance,
        uma_ep=None if uma_ep is None else tuple(uma_ep),
        ended_by=ended_by,
        tobi_payments=tuple(tobi_payments),
    )


def _truncate(points: int) -> int:
    """Toward zero, to a multiple of 1,000."""
    return points // 1000 * 1000 if points >= 0 else -(-points // 1000 * 1000)


def _rounded(mode: str, score: int, return_points: int) -> int:
    """``score - return_points`` rounded to 1,000 as ``mode`` says (M-01, Tenhou §1).

    The round-half modes round the score itself (Tenhou: "終了時の得点は1000点未満を四捨五入").
    """
    diff = score - return_points
    if mode == "none":
        return diff
    if mode == "floor":
        return diff // 1000 * 1000
    if mode == "truncate_before_uma":
        return _truncate(diff)
    if mode == "round_half_up":
        return (score + 500) // 1000 * 1000 - return_points
    if mode == "round_half_away":
        magnitude = (abs(score) + 500) // 1000 * 1000
        return (magnitude if score >= 0 else -magnitude) - return_points
    raise AssertionError(f"unhandled final_rounding {mode}")  # pragma: no cover
