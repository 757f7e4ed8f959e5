"""The hand forms of the table screen, built for one game at one point of it: the next hand's
(:func:`new_hand_form`) and a correction's (:func:`correction_form`). Each values the winners'
tiles first (:func:`scoring.entry.tile_entry.read_tiles`) and hands the form the table it needs
(dealer, all-last, round wind, honba, paarenchan); the form only parses the taps."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from scoring.engine import Ruleset, TableState, dealer_win_streak, is_paarenchan_next
from scoring.entry.hand_form import HandForm, hand_form_data
from scoring.entry.tile_entry import read_tiles
from scoring.ledger import state_before, stored_game
from scoring.models import Hanchan, HandEntry
from scoring.views.access import names_of


def new_hand_form(
    hanchan: Hanchan,
    ruleset: Ruleset,
    data: Any = None,
    *,
    strict: bool = False,
    form_class: type[HandForm] = HandForm,
) -> HandForm:
    """The form for the next hand; a fresh request id and the version it was drawn at.
    ``form_class``: a :class:`HandForm` that labels the seats otherwise
    (:mod:`scoring.views.next_entry`)."""
    table = hanchan.state["table"]
    round_wind, honba = table["round"][:1], table["honba"]
    data, tiles = read_tiles(
        data, ruleset=ruleset, dealer=table["dealer"], round_wind=round_wind, honba=honba
    )
    return form_class(
        data,
        ruleset=ruleset,
        names=names_of(hanchan),
        dealer=table["dealer"],
        all_last=table["all_last"],
        strict=strict,
        round_wind=round_wind,
        honba=honba,
        paarenchan=is_paarenchan_next(paarenchan_streak(hanchan, ruleset)),
        tiles=tiles,
        initial={"request_id": uuid.uuid4(), "version": hanchan.version},
    )


def paarenchan_streak(hanchan: Hanchan, ruleset: Ruleset) -> int:
    """The next hand's dealer's wins in a row (:func:`scoring.engine.dealer_win_streak`),
    where the ruleset has paarenchan (Makura §44f). Read only when the honba could hold such a
    streak (every win of a dealer who keeps the deal adds one), so a usual hand costs no query."""
    table = hanchan.state["table"]
    # A streak of n wins has put at least n honba on the table.
    if not ruleset.paarenchan or not is_paarenchan_next(table["honba"]):
        return 0
    entries = list(hanchan.hands.order_by("sequence").only("data", "result"))
    return dealer_win_streak(
        [entry.data for entry in entries], [entry.result for entry in entries], table["dealer"]
    )


def table_before(hanchan: Hanchan, entries: Sequence[HandEntry], sequence: int) -> TableState:
    """The table just before hand ``sequence`` (0-based), for the correction form."""
    return state_before(stored_game(hanchan, entries), sequence)


def correction_form(
    ruleset: Ruleset,
    before: TableState,
    names: Sequence[str],
    version: int,
    data: Any,
    *,
    strict: bool = False,
) -> HandForm:
    """The form correcting a hand played at table ``before`` (its tiles valued there)."""
    data, tiles = read_tiles(
        data,
        ruleset=ruleset,
        dealer=before.dealer,
        round_wind=before.round[:1],
        honba=before.honba,
    )
    return HandForm(
        data,
        ruleset=ruleset,
        names=names,
        dealer=before.dealer,
        all_last=before.all_last,
        strict=strict,
        round_wind=before.round[:1],
        honba=before.honba,
        tiles=tiles,
        initial={"version": version},
    )


def stored_hand_form(
    ruleset: Ruleset, before: TableState, names: Sequence[str], version: int, entry: HandEntry
) -> HandForm:
    """The correction form filled in with the hand as stored."""
    data = hand_form_data(entry.data)
    data["version"] = str(version)
    return correction_form(ruleset, before, names, version, data)
