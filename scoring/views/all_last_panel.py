"""The table screen's all-last conditions as a view-model (docs/all-last.md): for each player
below the top, each better place and what reaches it, in the pad's words ("満貫ツモ",
"3,900 出アガリ", "2,000 直撃（馬場）"). The figures are the engine's
(:func:`scoring.entry.all_last.pad_conditions`); nothing here values a hand, it only words the
values the engine chose, with the pad's own labels and payment lines.

Shown from the hand that can end the game: the all-last hand, and a hand in which a seat would
bust by paying a dealer's mangan ron with the honba (a tobi ruleset), the usual way a game
ends early. Never on an open pad: the panel is a closed ``<details>`` under the scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.engine import Game, Ruleset, basic_points, hand_payment
from scoring.engine.all_last import Target, pad_win
from scoring.engine.hand_value import win_basic_points
from scoring.engine.limits import LIMIT_BASIC_POINTS
from scoring.engine.settlement import is_bust
from scoring.entry.all_last import pad_conditions
from scoring.rulebook.hand_labels import LIMIT_LABELS, payment_lines
from scoring.views.display import rank_label

MANGAN_HAN = 5
_LIMIT_OF_BASIC_POINTS = {points: name for name, points in LIMIT_BASIC_POINTS.items()}


@dataclass(frozen=True)
class PlaceRow:
    """One better place: its label ("2nd") and what reaches it, each a phrase ("Mangan by
    tsumo"); none when nothing does (``out_of_reach``)."""

    place: str
    routes: list[str]

    @property
    def out_of_reach(self) -> bool:
        return not self.routes


@dataclass(frozen=True)
class SeatRow:
    """A player below the top: seat, name, current place's label and a row per better place."""

    seat: int
    name: str
    place: str
    rows: list[PlaceRow]


def can_end_game(rs: Ruleset, table: Mapping[str, Any]) -> bool:
    """The hand in play can end the game: the all-last hand, or (where a bust ends the game)
    a seat would bust paying a dealer's mangan ron with the honba."""
    if table["all_last"]:
        return True
    if not rs.tobi:
        return False
    mangan, _more = hand_payment(rs, han=MANGAN_HAN, fu=rs.fixed_fu, dealer=True, tsumo=False)
    pays = mangan + rs.honba_ron * table["honba"]
    return any(is_bust(rs, score - pays) for score in table["scores"])


def all_last_rows(
    rs: Ruleset, snapshot: dict[str, Any], table: Mapping[str, Any], names: Sequence[str]
) -> list[SeatRow]:
    """The panel's rows for the game in ``snapshot`` (the ledger's ``state["game"]``) with
    ``table`` (its ``state["table"]``); the players in seat order, the top left out."""
    conditions = pad_conditions(Game.restore(rs, snapshot))
    dealer = conditions.dealer
    return [
        SeatRow(
            seat=seat,
            name=names[seat],
            place=rank_label(conditions.places[seat]),
            rows=[
                PlaceRow(
                    place=rank_label(target.place),
                    routes=_routes(rs, target, seat, seat == dealer, names),
                )
                for target in targets
            ],
        )
        for seat, targets in enumerate(conditions.targets)
        if targets
    ]


def _routes(
    rs: Ruleset, target: Target, seat: int, dealer: bool, names: Sequence[str]
) -> list[str]:
    """The ways to a place, in words: the tsumo, then the ron from anyone (the value every
    discarder gives), or, cheapest first, the direct hits (one discarder whose value is less
    than another's, or the only one who can give it) and the rons from some seats."""
    routes: list[str] = []
    if target.tsumo is not None:
        routes.append(
            _("%(value)s by tsumo") % {"value": value_words(rs, target.tsumo, dealer, tsumo=True)}
        )
    by_value: dict[str, list[int]] = {}
    for loser, value in target.ron:
        if value is not None:
            by_value.setdefault(value, []).append(loser)
    if len(by_value) == 1 and len(next(iter(by_value.values()))) == len(target.ron):
        [value] = by_value
        routes.append(
            _("%(value)s ron from anyone") % {"value": value_words(rs, value, dealer, tsumo=False)}
        )
        return routes

    def cost(value: str | None) -> float:
        return float("inf") if value is None else win_basic_points(rs, pad_win(value).win(seat))

    for value in sorted(by_value, key=cost):
        losers = by_value[value]
        words = value_words(rs, value, dealer, tsumo=False)
        others = [v for s, v in target.ron if s not in losers]
        if len(losers) == 1 and any(cost(v) > cost(value) for v in others):
            routes.append(
                _("%(value)s direct hit on %(name)s") % {"value": words, "name": names[losers[0]]}
            )
        else:
            routes.append(
                _("%(value)s ron from %(names)s")
                % {
                    "value": words,
                    "names": pgettext("between names in a list", ", ").join(
                        names[s] for s in losers
                    ),
                }
            )
    return routes


def value_words(rs: Ruleset, value: str, dealer: bool, *, tsumo: bool) -> str:
    """A pad value as the pad words what it brings: a limit's name ("Mangan"), else what the
    win pays, honba aside ("3,900"; a tsumo "1,000/2,000", the dealer's "2,000 all")."""
    win = pad_win(value)
    if win.limit is not None:
        return str(LIMIT_LABELS[win.limit])
    assert win.han is not None
    fu = win.fu if win.fu is not None and rs.fu_scoring else rs.fixed_fu
    limit = _LIMIT_OF_BASIC_POINTS.get(basic_points(rs, win.han, fu))
    if limit is not None:
        return str(LIMIT_LABELS[limit])
    lines = payment_lines(rs, win.han, fu, dealer=dealer, tsumo=tsumo)
    return " ".join(lines) if tsumo and dealer else "".join(lines)
