"""Hands entered by their tiles at the table: the tile
keyboard writes a winner's tiles in the hidden field ``tiles_<seat>`` (the hand-value
contract's tile keys and situational flags, as JSON); this module values them with the
hand-value contract (:func:`scoring.tiles.contract.hand_value`, the valuation behind
``POST /api/hand-value/``) before the hand form reads the taps, so the form only parses.

What it gives the form and the pad: the pad value the tiles make (filled in where no value
was tapped), a warning where the tapped value differs, a refusal where the tiles are no hand
this ruleset allows, and the win's ``yaku`` and ``tiles`` for the record
(docs/game-record-format.md, "yaku" and "tiles" on a win).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from clubsite.fields import posted_number
from scoring.engine import Ruleset
from scoring.engine.situations import SITUATION_FLAGS
from scoring.entry.pad_values import pad_value, value_label
from scoring.tiles.contract import TILE_KEYS, ContractError, hand_value
from scoring.tiles.evaluate import HandRefused, HandValue

# What a winner's tiles may say (the contract's keys but those the table knows: ruleset,
# tsumo, riichi, winds, honba): the flags a record's win carries.
TILE_SPEC_KEYS = TILE_KEYS + tuple(flag.name for flag in SITUATION_FLAGS if flag.in_record)


@dataclass
class TileEntry:
    """The tiles of one hand's winners, valued: per seat, the evaluation (``values``), a
    warning where the tapped value differs (``warnings``), why the tiles were refused
    (``errors``), and the win's record keys ``yaku`` and ``tiles`` (``record``)."""

    values: dict[int, HandValue] = field(default_factory=dict)
    warnings: dict[int, str] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    record: dict[int, dict[str, Any]] = field(default_factory=dict)


def read_tiles(
    data: Any, *, ruleset: Ruleset, dealer: int, round_wind: str, honba: int
) -> tuple[Any, TileEntry]:
    """The posted taps ``data`` (a QueryDict, or None) with each winner's value filled from
    his tiles where none was tapped, and the :class:`TileEntry` of the hand.

    A winner is a seat the taps name as the tsumo's ``winner`` or a ron's ``winners``
    (``result`` already implied by a tapped ``loser``); his riichi is a tapped ``riichi`` or
    ``open_riichi`` (a double riichi is the flag of the tiles instead). ``dealer`` (seat,
    0-based), ``round_wind`` ("E", "S", ...) and ``honba`` are the hand's, from the table.
    Nothing raises: refused tiles are in ``errors``, for the form to show next to the value.
    """
    entry = TileEntry()
    if data is None or not hasattr(data, "getlist"):
        return data, entry
    result = data.get("result")
    if result == "tsumo":
        winners = [data.get("winner") or ""]
    elif result == "ron":
        winners = [w for w in data.getlist("winners") if w != data.get("loser")]
    else:
        return data, entry
    riichi = set(data.getlist("riichi")) | set(data.getlist("open_riichi"))
    filled = data
    for raw in winners:
        seat = posted_number(raw, max_digits=1)
        if seat is None or seat >= ruleset.players:
            continue
        text = data.get(f"tiles_{seat}") or ""
        if not text:
            continue
        spec = _spec(text)
        if spec is None:
            entry.errors[seat] = _("The tiles could not be read.")
            continue
        contract = {key: spec[key] for key in TILE_SPEC_KEYS if key in spec}
        contract |= {
            "ruleset": ruleset.id,
            "tsumo": result == "tsumo",
            "riichi": raw in riichi and not spec.get("double_riichi"),
            "seat_wind": "ESWN"[(seat - dealer) % ruleset.players],
            "round_wind": round_wind,
            "honba": honba,
        }
        try:
            value = hand_value(contract, ruleset)
        except (ContractError, HandRefused) as error:
            entry.errors[seat] = _("The tiles: %(why)s") % {"why": error}
            continue
        entry.values[seat] = value
        entry.record[seat] = {
            "yaku": [{"name": y.name, "han": y.han} for y in value.yaku if y.han],
            "tiles": {key: contract[key] for key in TILE_SPEC_KEYS if contract.get(key)},
        }
        from_tiles = pad_value(value, ruleset)
        tapped = data.get(f"value_{seat}") or ""
        if not tapped:
            if filled is data:
                filled = data.copy()
            filled[f"value_{seat}"] = from_tiles
        elif tapped != from_tiles:
            warning = _("The tiles make %(tiles)s; the value tapped is %(tapped)s.")
            entry.warnings[seat] = warning % {
                "tiles": value_label(from_tiles, ruleset),
                "tapped": value_label(tapped, ruleset),
            }
    return filled, entry


def _spec(text: str) -> Mapping[str, Any] | None:
    try:
        spec = json.loads(text)
    except ValueError:
        return None
    return spec if isinstance(spec, dict) else None
