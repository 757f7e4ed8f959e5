"""The situational flags: how a hand was won that its tiles do not show, declared once.

Each is a key of the hand-value contract (:mod:`scoring.tiles.contract`) and a field of the
tiles' ``Situation`` (:class:`scoring.tiles.hand.Situation`). The record's win ``tiles``
carry those the record does not say otherwise (docs/game-record-format.md: a tsumo is the
hand's ``result``, a riichi its ``riichi`` list), and the tile keyboard offers a key for
those the hand form does not tap itself (tsumo, riichi and open riichi are its own taps):
the page renders the keyboard's list from here (``data-flags`` of
templates/scoring/_tile_keyboard.html, read by static/js/tiles.js). Renhou's key shows only
where the ruleset has renhou (Makura §44m, 002 S-20); tenhou, chiihou and renhou are keys so
that the yakuman that never combine can be valued (Makura 1.3 §43 L360, 1.5 L291-295).

A new flag needs its entry here, its field in ``Situation`` (and what the ``mahjong``
package makes of it, :mod:`scoring.tiles.package_reading`), and the label of its yaku in
``scoring/rulebook/yaku_labels.py`` with its Japanese in locale/ja.

Pure Python: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SituationFlag:
    """One flag: ``name`` (the contract's key), ``yaku`` (the id of the yaku it gives, whose
    label names the keyboard's key), ``in_record`` (a record's win ``tiles`` may carry it) and
    ``on_keyboard`` (the tile keyboard has a key for it)."""

    name: str
    yaku: str
    in_record: bool = True
    on_keyboard: bool = True


SITUATION_FLAGS: tuple[SituationFlag, ...] = (
    SituationFlag("tsumo", "tsumo", in_record=False, on_keyboard=False),
    SituationFlag("riichi", "riichi", in_record=False, on_keyboard=False),
    SituationFlag("ippatsu", "ippatsu"),
    SituationFlag("double_riichi", "daburu_riichi"),
    SituationFlag("open_riichi", "open_riichi", on_keyboard=False),
    SituationFlag("haitei", "haitei"),
    SituationFlag("houtei", "houtei"),
    SituationFlag("rinshan", "rinshan"),
    SituationFlag("chankan", "chankan"),
    SituationFlag("tenhou", "tenhou"),
    SituationFlag("chiihou", "chiihou"),
    SituationFlag("renhou", "renhou"),
)
# The contract's flags, in its order.
FLAGS = tuple(flag.name for flag in SITUATION_FLAGS)
# The flags a record's win ``tiles`` may carry.
RECORD_FLAGS = frozenset(flag.name for flag in SITUATION_FLAGS if flag.in_record)
# The tile keyboard's keys, in the order it shows them.
KEYBOARD_FLAGS = tuple(flag for flag in SITUATION_FLAGS if flag.on_keyboard)
