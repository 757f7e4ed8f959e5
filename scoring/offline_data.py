"""What the table screen needs to take a hand without a connection (issue 10, item 7).

The page carries, as JSON (``json_script``, no inline code), the table as it stands — seats,
dealer, honba, deposits, scores, the game version the hand is entered on — and the engine's
payment for every value a pad offers, from ``scoring.engine.hand_value``: what the discarder
pays for a ron, and the tsumo shares, by dealer or not, before honba. ``static/js/offline.js``
adds honba, deposits and riichi sticks to show a queued hand's payments; the server, once the
hand is sent, plays it through the engine as any other hand, and that result stands.

Only the common outcomes are offered offline: a ron with one winner, a tsumo, an exhaustive
draw; anything rarer waits for a connection.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language

from scoring.engine import Ruleset, legal_fu
from scoring.engine.hand_value import LIMIT_BASIC_POINTS, basic_points, ron_value, tsumo_shares
from scoring.value_pad import value_choices

_COUNTED = re.compile(r"(\d+)(?:-(\d+))?")


@functools.lru_cache(maxsize=64)
def _payments(
    rs: Ruleset, language: str
) -> tuple[tuple[str, str, tuple[int, ...], tuple[bool, bool]], ...]:
    """``(value, label, (ron by a non-dealer, ron by the dealer, tsumo: dealer's share,
    each other's share, dealer's tsumo: each), (possible for a ron, for a tsumo))`` per pad
    value; the last pair as the engine allows it (:func:`scoring.engine.legal_fu`)."""
    rows = []
    for value, label in value_choices(rs, language):
        possible = (True, True)
        if value in LIMIT_BASIC_POINTS:
            b = LIMIT_BASIC_POINTS[value]
        else:
            match = _COUNTED.fullmatch(value)
            if match is None:
                continue
            han = int(match[1])
            fu = int(match[2]) if match[2] else (rs.fixed_fu or 30)
            b = basic_points(rs, han, fu)
            if match[2]:
                possible = (fu in legal_fu(rs, han, False), fu in legal_fu(rs, han, True))
        dealer_share, other_share = tsumo_shares(rs, b, False)
        dealer_each, _ = tsumo_shares(rs, b, True)
        rows.append(
            (
                value,
                str(label),
                (
                    ron_value(rs, b, False),
                    ron_value(rs, b, True),
                    dealer_share,
                    other_share,
                    dealer_each,
                ),
                possible,
            )
        )
    return tuple(rows)


def offline_values(rs: Ruleset) -> dict[str, Any]:
    """The engine's payment for every pad value under ``rs`` (the same all game long: the
    full page carries it once, the table's updates do not)."""
    return {
        "riichiStick": rs.riichi_stick,
        "honbaRon": rs.honba_ron,
        "honbaTsumoEach": rs.honba_tsumo_each,
        "notenTotal": rs.noten_total,
        "values": [
            {"value": value, "label": label, "pay": list(pay), "ron": ron, "tsumo": tsumo}
            for value, label, pay, (ron, tsumo) in _payments(rs, get_language() or "")
        ],
    }


def offline_data(
    rs: Ruleset,
    table: Mapping[str, Any],
    *,
    names: list[str],
    version: int,
    action: str,
    labels: dict[str, str],
    where: str = "",
    user: int | None = None,
) -> dict[str, Any]:
    """The table as it stands, for offline entry (see the module docstring): ``table`` is the
    game's stored table (``round``, ``dealer``, ``honba``, ``deposits``, ``scores``);
    ``labels`` the few words the offline panel shows, in the reader's language; ``where``
    the round, honba and deposits as the page says them (the panel shows them with the
    scores: a page reloaded offline may be older than the table it enters hands for); ``user``
    the login the page is for (hands kept offline are sent by the login that kept them). Sent
    with every update of the table's status; :func:`offline_values` goes with it on the page.
    """
    return {
        "action": action,
        "version": version,
        "seats": names,
        "dealer": table["dealer"],
        "round": table["round"],
        "honba": table["honba"],
        "deposits": table["deposits"],
        "scores": list(table["scores"]),
        "where": where,
        "user": user,
        "labels": labels,
    }
