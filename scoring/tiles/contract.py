"""The hand-value contract, shared by ``manage.py hand_value`` and the JSON
endpoint: one hand in, one answer out.

In: ``{"ruleset": "makura-1.5", "hand": "234m067p11z", "melds": [{"type": "pon", "tiles":
"555z"}], "win_tile": "1z", "tsumo": false, "seat_wind": "S", "round_wind": "E", "riichi":
true, "ippatsu": false, "double_riichi": false, "open_riichi": false, "haitei": false,
"houtei": false, "rinshan": false, "chankan": false, "tenhou": false, "chiihou": false,
"renhou": false, "dora_indicators": ["4m"], "ura_indicators": ["9s"], "kita": 0,
"flowers": 0}``: tiles in
mpsz notation (``0`` a red five), ``hand`` the concealed tiles with the winning tile, meld
types ``chi``, ``pon``, ``kan`` (open) and ``ankan``; a missing flag is false, a missing list
empty, a missing wind East; ``kita`` north tiles and ``flowers`` flower tiles set aside as
nuki dora (only where the ruleset has them, ``nuki_north`` and ``flowers``). A ``0``
is a red five of the ruleset's set (``red_fives``: two ``0p`` in 003's yellow set, L91-94;
three ``0p`` and three ``0s`` in 004's, L22); in a set with gold fives (004 L22-23) a plain
``5p``/``5s`` is the gold one, and ``0z`` is the 白ポッチ where the set has it (004 L39;
:mod:`scoring.tiles.notation`). Extension: ``"honba": n`` (default 0) for a ruleset's 2-han
minimum from some honba (003 L106).

Out: ``{"han": int, "fu": int, "yaku": [{"name": "riichi", "han": 1}, ...], "yakuman": int,
"limit": "mangan"|...|null}`` (:meth:`scoring.tiles.evaluate.HandValue.to_json`), or
``{"error": "..."}`` for bad input or a hand the ruleset does not allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import Ruleset, load_ruleset
from scoring.engine.situations import FLAGS

from .evaluate import HandValue, evaluate
from .hand import MELD_KINDS, WINDS, HandRefused, HandTiles, Meld, Situation
from .notation import TileError, TileSet, tile_types

# The situational flags are the engine's declaration (:mod:`scoring.engine.situations`).
# What the tiles themselves say (the rest is the ruleset, the seat's situation and flags).
TILE_KEYS = ("hand", "melds", "win_tile", "dora_indicators", "ura_indicators", "kita", "flowers")
KEYS = frozenset({"ruleset", "seat_wind", "round_wind", "honba", *TILE_KEYS, *FLAGS})
MELD_SIZES = {"chi": 3, "pon": 3, "kan": 4, "ankan": 4}


class ContractError(ValueError):
    """Input that does not follow the contract; ``str(error)`` names the key."""


def read_hand(data: Any, ruleset: Ruleset | None = None) -> tuple[str, HandTiles, Situation, int]:
    """The ruleset id, tiles, situation and honba of one contract object; the set's red and
    gold fives and 白ポッチ are ``ruleset``'s, or the built-in ruleset's that ``data`` names
    (one red five per suit if none).

    Raises:
        ContractError: not an object, an unknown key, a value of the wrong type, tiles that
            are not mpsz or hold a tile five times, a meld of the wrong size or kind, a
            winning tile not in ``hand``.
    """
    if not isinstance(data, Mapping):
        raise ContractError("a hand must be a JSON object")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ContractError(f"{unknown[0]}: unknown key")
    ruleset_id = data.get("ruleset")
    if not isinstance(ruleset_id, str):
        raise ContractError("ruleset: must name a built-in ruleset")
    flags: dict[str, bool] = {}
    for flag in FLAGS:
        value = data.get(flag, False)
        if not isinstance(value, bool):
            raise ContractError(f"{flag}: must be true or false")
        flags[flag] = value
    winds: dict[str, str] = {}
    for key in ("seat_wind", "round_wind"):
        value = data.get(key, "E")
        if value not in tuple(WINDS):
            raise ContractError(f"{key}: must be E, S, W or N")
        winds[key] = value
    honba = data.get("honba", 0)
    if isinstance(honba, bool) or not isinstance(honba, int) or not 0 <= honba <= 100:
        raise ContractError("honba: must be 0 to 100")
    kita = data.get("kita", 0)
    if isinstance(kita, bool) or not isinstance(kita, int) or not 0 <= kita <= 4:
        raise ContractError("kita: must be 0 to 4")
    flowers = data.get("flowers", 0)
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise ContractError("flowers: must be 0 to 8")
    if ruleset is None:
        try:
            ruleset = load_ruleset(ruleset_id)
        except KeyError:
            ruleset = None
    if ruleset is None:
        tiles = TileSet()
    else:
        tiles = TileSet(
            ruleset.red_fives, ruleset.gold_fives, pocchi=ruleset.white_pocchi != "none"
        )
    try:
        melds = tuple(_meld(m, i, tiles) for i, m in enumerate(_list(data, "melds")))
        hand_text = data.get("hand")
        if not isinstance(hand_text, str):
            raise ContractError("hand: must be the concealed tiles in mpsz notation")
        concealed = tuple(tiles.take_all(hand_text))
        win_tile = _win_tile(data.get("win_tile"), hand_text, concealed)
        dora = tuple(tiles.take_all("".join(_tile_list(data, "dora_indicators"))))
        ura = tuple(tiles.take_all("".join(_tile_list(data, "ura_indicators"))))
    except TileError as error:
        raise ContractError(str(error)) from None
    return (
        ruleset_id,
        HandTiles(
            concealed=concealed,
            melds=melds,
            win_tile=win_tile,
            dora_indicators=dora,
            ura_indicators=ura,
            kita=kita,
            flowers=flowers,
        ),
        Situation(**flags, seat_wind=winds["seat_wind"], round_wind=winds["round_wind"]),
        honba,
    )


def answer(data: Any) -> dict[str, Any]:
    """The contract's answer to one hand: its value, or ``{"error": ...}``."""
    try:
        ruleset_id = data.get("ruleset") if isinstance(data, Mapping) else None
        try:
            ruleset = load_ruleset(ruleset_id) if isinstance(ruleset_id, str) else None
        except KeyError:
            read_hand(data)  # a malformed hand is named before an unknown ruleset
            raise ContractError(f"ruleset: unknown ruleset {ruleset_id!r}") from None
        return hand_value(data, ruleset).to_json()
    except (ContractError, HandRefused) as error:
        return {"error": str(error)}


def hand_value(data: Any, ruleset: Ruleset | None = None) -> HandValue:
    """The value of one contract object under ``ruleset`` (a game's own, possibly a stored
    version; default: the built-in ruleset ``data`` names): the one valuation behind the
    endpoint, ``manage.py hand_value`` and the table's tile keyboard
    (:mod:`scoring.entry.tile_entry`).

    Raises:
        ContractError: input that does not follow the contract (:func:`read_hand`).
        HandRefused: tiles that are no winning hand, or a hand the ruleset does not allow.
    """
    if ruleset is None:
        raise ContractError("ruleset: must name a built-in ruleset")
    # The tiles are the game's set (a stored version's), not the built-in ruleset's.
    _ruleset_id, tiles, situation, honba = read_hand(data, ruleset)
    return evaluate(ruleset, tiles, situation, honba=honba)


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ContractError(f"{key}: must be a list")
    return value


def _tile_list(data: Mapping[str, Any], key: str) -> list[str]:
    values = _list(data, key)
    for value in values:
        if not isinstance(value, str) or len(tile_types(value)) != 1:
            raise ContractError(f'{key}: each must be one tile, e.g. "4m"')
    return values


def _meld(value: Any, index: int, tiles: TileSet) -> Meld:
    where = f"melds[{index}]"
    if not isinstance(value, Mapping) or value.get("type") not in MELD_KINDS:
        raise ContractError(f'{where}: must be {{"type": chi|pon|kan|ankan, "tiles": ...}}')
    kind = value["type"]
    text = value.get("tiles")
    if not isinstance(text, str):
        raise ContractError(f"{where}.tiles: must be mpsz notation")
    types = tile_types(text)
    if len(types) != MELD_SIZES[kind]:
        raise ContractError(f"{where}.tiles: a {kind} has {MELD_SIZES[kind]} tiles")
    kinds = sorted(t for t, _ in types)
    if kind == "chi":
        if (
            kinds[0] >= 27
            or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]
            or (kinds[0] // 9 != kinds[2] // 9)
        ):
            raise ContractError(f"{where}.tiles: a chi is three tiles in a row of one suit")
    elif len(set(kinds)) != 1:
        raise ContractError(f"{where}.tiles: a {kind} is the same tile {MELD_SIZES[kind]} times")
    return Meld(kind, tuple(tiles.take(t, red) for t, red in types))


def _win_tile(value: Any, hand_text: str, concealed: tuple[int, ...]) -> int:
    if not isinstance(value, str) or len(tile_types(value)) != 1:
        raise ContractError('win_tile: must be one tile, e.g. "1z"')
    [(wanted, red)] = tile_types(value)
    for (tile_type, is_red), tile_id in zip(tile_types(hand_text), concealed, strict=True):
        if tile_type == wanted and is_red == red:
            return tile_id
    raise ContractError(f"win_tile: {value} is not in the hand")
