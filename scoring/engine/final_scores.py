"""Games entered as final scores only: the raw scores at the end, settled by the ruleset.

Tournaments and nights played on paper often keep only each seat's final raw score. Such a
game is a record with ``final_scores`` instead of ``hands`` (a compatible
extension of docs/game-record-format.md, documented there):

    "final_scores": {"scores": [45300, 30000, 19700, 4000], "deposits": 1000,
                     "tobi": [{"busted": 3, "by": 0}], "chips": [2, 0, -1, -1]}

``scores`` are each seat's points at the end, deposits excluded (integers, steps of 100,
summing with ``deposits`` to the ruleset's total); ``deposits`` the riichi sticks left on
the table (they go to the top, as after any last hand); ``tobi`` who busted whom, needed
where the ruleset ends on tobi and pays for it (seed 003 H-06) and allowed only where a
named seat is bust; ``chips`` the chip balance where the ruleset has chips (default none
moved; yakitori cannot be known and is not applied). The settlement is the engine's own
(:func:`~scoring.engine.settlement.final_settlement`); ``ended_by`` is ``"tobi"`` when a
score is bust under a ruleset with tobi, else ``"final_scores"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RecordError
from .ruleset import Ruleset
from .settlement import Payment, Settlement, final_settlement, is_bust

KEY = "final_scores"
_KEYS = frozenset({"scores", "deposits", "tobi", "chips"})


@dataclass(frozen=True, slots=True)
class FinalScores:
    """Parsed ``final_scores``: ``scores`` per seat and ``deposits`` in points, ``tobi`` as
    ``(busted seat, seat who busted them)`` pairs, ``chips`` per seat or ``None``."""

    scores: tuple[int, ...]
    deposits: int
    tobi: tuple[tuple[int, int], ...]
    chips: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The record's ``final_scores`` object (only the keys that carry information)."""
        out: dict[str, Any] = {"scores": list(self.scores)}
        if self.deposits:
            out["deposits"] = self.deposits
        if self.tobi:
            out["tobi"] = [{"busted": b, "by": by} for b, by in self.tobi]
        if self.chips is not None:
            out["chips"] = list(self.chips)
        return out


def _fail(key: str, message: str, code: str, **params: int | str) -> RecordError:
    return RecordError(None, f"{KEY}.{key}" if key else KEY, message, code=code, params=params)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_final_scores(raw: Any, ruleset: Ruleset) -> FinalScores:
    """Check a record's ``final_scores`` against ``ruleset``.

    Raises:
        RecordError: (key ``final_scores`` or ``final_scores.<key>``) not an object, an
            unknown key, not one integer score per seat, a score not in steps of 100, scores
            and deposits not adding up to the ruleset's total, a bad ``tobi`` entry (a seat
            out of range, a seat that is not bust, a bust without who busted them where the
            ruleset pays for tobi), chips where the ruleset has none or not summing to 0.
    """
    n = ruleset.players
    if not isinstance(raw, Mapping):
        raise _fail("", "must be an object with the final scores", "final_scores_not_object")
    for key in raw:
        if key not in _KEYS:
            raise _fail(str(key), "unknown key", "unknown_key")
    scores = raw.get("scores")
    if not isinstance(scores, list) or len(scores) != n or not all(map(_integer, scores)):
        raise _fail("scores", f"must be {n} integer scores", "final_scores_shape", players=n)
    if any(score % 100 for score in scores):
        raise _fail("scores", "scores go in steps of 100", "final_scores_step")
    deposits = raw.get("deposits", 0)
    if not _integer(deposits) or deposits < 0 or deposits % 100:
        raise _fail("deposits", "must be 0 or more, in steps of 100", "final_scores_deposits")
    total = n * ruleset.start_points
    if sum(scores) + deposits != total:
        raise _fail(
            "scores",
            f"scores and deposits add up to {sum(scores) + deposits}, not {total}",
            "final_scores_total",
            total=total,
            sum=sum(scores) + deposits,
        )
    tobi = _parse_tobi(raw.get("tobi", []), ruleset, scores)
    chips = raw.get("chips")
    if chips is not None:
        if not ruleset.chips:
            raise _fail("chips", "this ruleset has no chips", "no_chips")
        if not isinstance(chips, list) or len(chips) != n or not all(map(_integer, chips)):
            raise _fail("chips", f"must be {n} integers", "final_scores_shape", players=n)
        if sum(chips):
            raise _fail("chips", "chips must sum to 0", "final_scores_chips")
    return FinalScores(
        scores=tuple(scores),
        deposits=deposits,
        tobi=tobi,
        chips=None if chips is None else tuple(chips),
    )


def _parse_tobi(raw: Any, ruleset: Ruleset, scores: list[int]) -> tuple[tuple[int, int], ...]:
    n = ruleset.players
    if not isinstance(raw, list):
        raise _fail("tobi", "must be a list of {busted, by}", "final_scores_tobi")
    pairs = []
    for entry in raw:
        if not isinstance(entry, Mapping) or set(entry) != {"busted", "by"}:
            raise _fail("tobi", "each entry is {busted, by}", "final_scores_tobi")
        busted, by = entry["busted"], entry["by"]
        if not (_integer(busted) and _integer(by) and 0 <= busted < n and 0 <= by < n):
            raise _fail("tobi", f"seats go from 0 to {n - 1}", "seat_out_of_range", players=n)
        if busted == by:
            raise _fail("tobi", "a player cannot bust themselves", "final_scores_tobi")
        if not ruleset.tobi or not is_bust(ruleset, scores[busted]):
            raise _fail(
                "tobi", f"seat {busted} is not bust here", "final_scores_not_bust", seat=busted
            )
        pairs.append((busted, by))
    if ruleset.tobi and ruleset.tobi_payment:
        named = {busted for busted, _by in pairs}
        for seat, score in enumerate(scores):
            if is_bust(ruleset, score) and seat not in named:
                raise _fail(
                    "tobi",
                    f"seat {seat} is bust: say who busted them (the ruleset pays for tobi)",
                    "final_scores_tobi_needs_buster",
                    seat=seat,
                )
    return tuple(pairs)


def settle_final_scores(ruleset: Ruleset, final: FinalScores) -> Settlement:
    """The settlement of a game entered as final scores (see the module docstring)."""
    busted = ruleset.tobi and any(is_bust(ruleset, score) for score in final.scores)
    # The payer/payee pairs are all final_settlement reads of the busting hand (H-06).
    busting = tuple(Payment(b, by, 100, "ron") for b, by in final.tobi)
    return final_settlement(
        ruleset,
        final.scores,
        deposits=final.deposits,
        ended_by="tobi" if busted else "final_scores",
        busting_payments=busting,
        chips=final.chips,
    )
