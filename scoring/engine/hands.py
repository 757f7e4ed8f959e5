"""Hand outcomes as the engine takes them, and their parsing from record JSON.

The shapes follow docs/game-record-format.md ("Keys of a hand", "Keys of a win"). Parsing
checks structure only (types, keys, seat ranges, one result's keys); whether a hand is legal
under a ruleset at a point of the game is the game's check (:mod:`scoring.engine.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from .errors import RecordError
from .limits import LIMITS
from .ruleset import ABORTIVE_KINDS
from .situations import RECORD_FLAGS

RESULTS = ("ron", "tsumo", "draw", "abort", "chombo")
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
# The keys of a hand (by result) and of a win that most have: a hand or a win with no other
# key is read without looking for each of the others.
_RARE_HAND_KEYS = frozenset(
    {"open_riichi", "penalties", "dealer_stops", "time_up", "chombo", "nagashi"}
)
_PLAIN_KEYS = {result: keys - _RARE_HAND_KEYS for result, keys in _ALLOWED_KEYS.items()}
_PLAIN_WIN_KEYS = frozenset({"winner", "han", "fu"})


class Win(NamedTuple):
    """One win of a ron or tsumo.

    ``han``/``fu`` or ``limit`` give the value; ``yakuman`` is the multiple with
    ``limit="yakuman"``; ``pao`` and ``rinshan_from`` are liable seats; ``chips`` are chips
    earned per payer (rulesets with chips). Seats are indexes into the record's players.
    ``yaku`` (name, han) pairs and ``tiles`` (``hand``, ``melds``, ``win_tile`` in mpsz) only
    describe the win; no payment reads them.
    """

    winner: int
    han: int | None = None
    fu: int | None = None
    limit: str | None = None
    yakuman: int = 1
    pao: int | None = None
    rinshan_from: int | None = None
    chips: int = 0
    yaku: tuple[tuple[str, int], ...] = ()
    tiles: tuple[tuple[str, Any], ...] = ()


class Penalty(NamedTuple):
    """A penalty put on the table this hand, e.g. a kara call (``kind="kara"``)."""

    seat: int
    kind: str


class Hand(NamedTuple):
    """One hand's outcome: ``result`` is ron, tsumo, draw, abort or chombo.

    Seat tuples (``riichi``, ``tenpai``, ...) hold seat indexes; see the record format for the
    meaning of each key.
    """

    result: str
    wins: tuple[Win, ...] = ()
    loser: int | None = None
    riichi: tuple[int, ...] = ()
    open_riichi: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    kind: str | None = None
    offender: int | None = None
    penalties: tuple[Penalty, ...] = ()
    dealer_stops: bool = False
    time_up: bool = False
    # The offender of a chombo paid after this hand's win or draw (the ``chombo`` extension),
    # and whether a draw's noten payments are made before it (H-18: only in the pao case).
    chombo_after: int | None = None
    chombo_noten_payments: bool = False

    def to_json(self) -> dict[str, Any]:
        """The hand as a record hand object (only the keys that carry information)."""
        out: dict[str, Any] = {"result": self.result}
        if self.result == "ron":
            out["loser"] = self.loser
        if self.wins:
            out["wins"] = [_win_json(w) for w in self.wins]
        for key in ("riichi", "open_riichi", "tenpai", "nagashi"):
            seats = getattr(self, key)
            if seats:
                out[key] = list(seats)
        if self.kind is not None:
            out["kind"] = self.kind
        if self.offender is not None:
            out["offender"] = self.offender
        if self.penalties:
            out["penalties"] = [{"seat": p.seat, "kind": p.kind} for p in self.penalties]
        if self.dealer_stops:
            out["dealer_stops"] = True
        if self.time_up:
            out["time_up"] = True
        if self.chombo_after is not None:
            out["chombo"] = {"offender": self.chombo_after}
            if self.chombo_noten_payments:
                out["chombo"]["noten_payments"] = True
        return out


def _win_json(win: Win) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": win.winner}
    if win.limit is not None:
        out["limit"] = win.limit
        if win.limit == "yakuman":
            out["yakuman"] = win.yakuman
    else:
        out["han"] = win.han
        if win.fu is not None:
            out["fu"] = win.fu
    for key in ("pao", "rinshan_from"):
        if getattr(win, key) is not None:
            out[key] = getattr(win, key)
    if win.chips:
        out["chips"] = win.chips
    if win.yaku:
        out["yaku"] = [{"name": name, "han": han} for name, han in win.yaku]
    if win.tiles:
        out["tiles"] = dict(win.tiles)
    return out


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
    return _seat_list(data.get(key), key, players, index)


def _seat_list(value: Any, key: str, players: int, index: int) -> tuple[int, ...]:
    """``value``, the hand's ``key``, as a tuple of distinct seats (``None``: none)."""
    if value is None:
        return ()
    if value.__class__ is not list:
        raise RecordError(index, key, "must be a list of seats", code="not_a_seat_list")
    if len(value) == 1:
        # One seat, as most riichi and many tenpai lists are: nothing to find twice.
        seat = value[0]
        if seat.__class__ is not int or not 0 <= seat < players:
            _seat(seat, players, index, key)
        return (seat,)
    if not value:
        return ()
    for seat in value:
        if seat.__class__ is not int or not 0 <= seat < players:
            _seat(seat, players, index, key)
    out = tuple(value)
    if len(out) > 1 and len(set(out)) != len(out):
        raise RecordError(index, key, "lists a seat twice", code="seat_listed_twice")
    return out


# A hand is built once, whole (a record's hands are read on every replay): every field, in
# the order of :class:`Hand`, given to ``tuple.__new__`` without the keyword machinery.
_new_tuple = tuple.__new__


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
    # Most hands have none of the rarer keys: all their keys are checked, and none of the
    # rarer ones looked for, at one look.
    plain = data.keys() <= _PLAIN_KEYS[result]
    if not plain and not data.keys() <= (allowed := _ALLOWED_KEYS[result]):
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

    riichi = data.get("riichi")
    if riichi is None or (riichi.__class__ is list and not riichi):
        riichi = ()  # no riichi, as most hands have, read at a look
    else:
        riichi = _seat_list(riichi, "riichi", players, index)
    # Most hands have none of the rarer keys: their checks are skipped at one look.
    rare = not plain
    open_riichi: tuple[int, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    dealer_stops = time_up = False
    if rare:
        open_riichi = _seats(data, "open_riichi", players, index)
        if open_riichi and not set(open_riichi) <= set(riichi):
            raise RecordError(
                index,
                "open_riichi",
                "every open riichi seat must also be in riichi",
                code="open_riichi_without_riichi",
            )
        raw_penalties = data.get("penalties")
        if raw_penalties is not None:
            penalties = _parse_penalties(raw_penalties, players, index)
        dealer_stops = data.get("dealer_stops", False)
        if dealer_stops is not True and dealer_stops is not False:
            raise RecordError(index, "dealer_stops", "must be true or false", code="not_a_boolean")
        time_up = data.get("time_up", False)
        if time_up is not True and time_up is not False:
            raise RecordError(index, "time_up", "must be true or false", code="not_a_boolean")

    wins: tuple[Win, ...] = ()
    loser: int | None = None
    kind: str | None = None
    offender: int | None = None
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    if result == "ron" or result == "tsumo":
        raw_wins = data.get("wins")
        win: Win | None = None
        if raw_wins.__class__ is list and len(raw_wins) == 1:
            # One win, as most have: a single winner, as a tsumo needs.
            win = _parse_win(raw_wins[0], 0, index, players)
            wins = (win,)
        else:
            wins = _parse_wins(raw_wins, result, players, index)
        if result == "ron":
            loser = data.get("loser")
            # One win of another seat, not fed by a kan, as most rons are; else every check.
            if not (
                win is not None
                and loser.__class__ is int
                and 0 <= loser < players
                and win.winner != loser
                and win.rinshan_from is None
            ):
                loser = _ron_loser(data, wins, players, index)
    elif result == "draw":
        tenpai = _seats(data, "tenpai", players, index)
        if rare:
            nagashi = _seats(data, "nagashi", players, index)
    elif result == "abort":
        kind = data.get("kind")
        if kind not in ABORTIVE_KINDS:
            raise RecordError(
                index,
                "kind",
                f"must be one of {', '.join(ABORTIVE_KINDS)}",
                code="unknown_abortive_draw",
            )
        tenpai = _seats(data, "tenpai", players, index)
    else:
        if "offender" not in data:
            raise RecordError(
                index,
                "offender",
                "a chombo needs the offender's seat",
                code="chombo_needs_offender",
            )
        offender = _seat(data["offender"], players, index, "offender")
    chombo_after = None
    chombo_noten_payments = False
    if rare and "chombo" in data:
        chombo_after, chombo_noten_payments = _parse_chombo(data, result, wins, players, index)
    return _new_tuple(
        Hand,
        (
            result,
            wins,
            loser,
            riichi,
            open_riichi,
            tenpai,
            nagashi,
            kind,
            offender,
            penalties,
            dealer_stops,
            time_up,
            chombo_after,
            chombo_noten_payments,
        ),
    )


def _parse_chombo(
    data: Mapping[str, Any], result: str, wins: tuple[Win, ...], players: int, index: int
) -> tuple[int, bool]:
    """The ``chombo`` extension of a hand: an object ``{"offender": seat}`` and, on a draw,
    ``"noten_payments": true`` when the draw is settled before the chombo (seed 003
    L426-428); a winner cannot also owe the chombo. Returns the offender and that flag."""
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
    if noten_payments and result != "draw":
        raise RecordError(
            index,
            "chombo.noten_payments",
            "only a draw has noten payments",
            code="key_not_for_result",
            params={"result": result},
        )
    if any(win.winner == offender for win in wins):
        raise RecordError(
            index,
            "chombo.offender",
            "a winner cannot also owe a chombo in the same hand",
            code="chombo_offender_is_winner",
            params={"seat": offender},
        )
    return offender, noten_payments


def _parse_wins(raw_wins: Any, result: str, players: int, index: int) -> tuple[Win, ...]:
    """The ``wins`` of a ron or a tsumo: a non-empty list, no seat twice, one on a tsumo."""
    if not isinstance(raw_wins, list) or not raw_wins:
        raise RecordError(index, "wins", "must be a non-empty list of wins", code="wins_not_a_list")
    if len(raw_wins) == 1:
        wins: tuple[Win, ...] = (_parse_win(raw_wins[0], 0, index, players),)
    else:
        wins = tuple([_parse_win(w, i, index, players) for i, w in enumerate(raw_wins)])
        if len({w.winner for w in wins}) != len(wins):
            raise RecordError(index, "wins", "the same seat wins twice", code="winner_twice")
    if result == "tsumo" and len(wins) != 1:
        raise RecordError(index, "wins", "a tsumo has exactly one win", code="tsumo_needs_one_win")
    return wins


def _ron_loser(data: Mapping[str, Any], wins: tuple[Win, ...], players: int, index: int) -> int:
    """A ron's ``loser``: a seat that is no winner's, and no win fed by a kan (tsumo only)."""
    if "loser" not in data:
        raise RecordError(
            index, "loser", "a ron needs the discarder's seat", code="ron_needs_loser"
        )
    loser = data["loser"]
    if loser.__class__ is not int or not 0 <= loser < players:
        _seat(loser, players, index, "loser")
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
    return loser


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
    # The key's prefix (``wins[0]``) is written only for an error: most wins have none.
    if data.__class__ is not dict and not isinstance(data, Mapping):
        raise RecordError(index, f"wins[{i}]", "a win must be an object", code="win_not_an_object")
    plain = data.keys() <= _PLAIN_WIN_KEYS
    if not plain and not data.keys() <= _WIN_KEYS:
        for key in data:
            if key not in _WIN_KEYS:
                raise RecordError(index, f"wins[{i}].{key}", "unknown key", code="unknown_key")
    winner = data.get("winner")
    if winner.__class__ is not int or not 0 <= winner < players:
        if "winner" not in data:
            raise RecordError(index, f"wins[{i}].winner", "missing", code="winner_missing")
        _seat(winner, players, index, f"wins[{i}].winner")
    han = data.get("han")
    if han is not None and han.__class__ is not int:
        _integer(data, "han", index, f"wins[{i}]")
    fu = data.get("fu")
    if fu is not None and fu.__class__ is not int:
        _integer(data, "fu", index, f"wins[{i}]")
    if plain and han is not None and han >= 1:
        # Han (and fu) alone, as most wins are.
        return _new_tuple(Win, (winner, han, fu, None, 1, None, None, 0, (), ()))
    limit = data.get("limit")
    if limit is not None:
        if limit not in LIMITS:
            raise RecordError(
                index,
                f"wins[{i}].limit",
                f"must be one of {', '.join(LIMITS)}",
                code="unknown_limit",
            )
        if han is not None or fu is not None:
            raise RecordError(
                index,
                f"wins[{i}].limit",
                "give either limit or han/fu, not both",
                code="limit_with_han_fu",
            )
    elif han is None:
        raise RecordError(
            index, f"wins[{i}].han", "a win needs han (and fu) or a limit", code="han_missing"
        )
    elif han < 1:
        raise RecordError(index, f"wins[{i}].han", "must be at least 1", code="han_below_one")
    yakuman = 1
    if "yakuman" in data:
        prefix = f"wins[{i}]"
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
    pao = data.get("pao")
    if pao is not None:
        pao = _seat(pao, players, index, f"wins[{i}].pao")
        if pao == winner:
            raise RecordError(
                index, f"wins[{i}].pao", "the winner cannot be liable for pao", code="pao_is_winner"
            )
    rinshan_from = data.get("rinshan_from")
    if rinshan_from is not None:
        rinshan_from = _seat(rinshan_from, players, index, f"wins[{i}].rinshan_from")
        if rinshan_from == winner:
            raise RecordError(
                index,
                f"wins[{i}].rinshan_from",
                "the winner cannot feed the kan",
                code="rinshan_from_is_winner",
            )
    chips = data.get("chips")
    if chips is None:
        chips = 0
    elif chips.__class__ is not int:
        _integer(data, "chips", index, f"wins[{i}]")
    elif chips < 0:
        raise RecordError(
            index,
            f"wins[{i}].chips",
            "must not be negative",
            code="negative_chips",
            params={"chips": chips},
        )
    yaku = data.get("yaku")
    yaku = () if yaku is None else _parse_yaku(yaku, index, f"wins[{i}]")
    tiles = data.get("tiles")
    tiles = () if tiles is None else _parse_tiles(tiles, index, f"wins[{i}]")
    return _new_tuple(Win, (winner, han, fu, limit, yakuman, pao, rinshan_from, chips, yaku, tiles))


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


def parse_hands(data: Any, players: int) -> list[Hand]:
    """Parse a record's ``hands`` list. Raises ``RecordError`` (see :func:`parse_hand`)."""
    if not isinstance(data, Sequence) or isinstance(data, str):
        raise RecordError(None, "hands", "must be a list of hands", code="hands_not_a_list")
    return [parse_hand(h, players, i) for i, h in enumerate(data)]
