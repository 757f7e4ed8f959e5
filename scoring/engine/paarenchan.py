"""Paarenchan: how many wins in a row the dealer of the next hand has (Makura 1.3 §44f
L386-388, 1.5 L316-318; rules-spec §1 "Paarenchan", M-09).

"連続した親のアガリの8回目以降を役満と扱う。ただしチョンボのあった局はカウントを途絶しない":
the dealer's 8th consecutive win, and every one after it, is yakuman. M-09's defaults: a draw
of any kind (exhaustive, abortive, nagashi) resets the count, a chombo hand is skipped, a
dealer who wins one of several rons counts. The count belongs to one dealer: a new dealer
starts at 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# The win that is paarenchan: the dealer's 8th in a row (Makura §44f).
PAARENCHAN_WIN = 8


def dealer_win_streak(
    hands: Sequence[Mapping[str, Any]], results: Sequence[Mapping[str, Any]], dealer: int
) -> int:
    """The wins in a row of ``dealer`` (the next hand's dealer, a seat index) at the end of
    ``hands`` (a game's hands as in the record format, oldest first) with their ``results``
    (the replay's per-hand output, each with ``"dealer"``); 0 when the last counted hand was
    not their win.

    Raises:
        ValueError: ``hands`` and ``results`` differ in length.
    """
    if len(hands) != len(results):
        raise ValueError("one result per hand")
    streak = 0
    for hand, result in zip(hands, results, strict=True):
        kind = hand.get("result")
        if kind == "chombo":
            continue
        winners = {win.get("winner") for win in hand.get("wins") or ()}
        if kind in ("ron", "tsumo") and result.get("dealer") == dealer and dealer in winners:
            streak += 1
        else:
            streak = 0
    return streak


def is_paarenchan_next(streak: int) -> bool:
    """Whether the dealer's next win is paarenchan, after ``streak`` wins in a row."""
    return streak >= PAARENCHAN_WIN - 1
