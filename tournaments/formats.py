"""The tournament formats of seed 001 as presets (docs/rules-spec.md §4, T-01, T-03, T-07).

Pure data: a format is a list of phases, each a number of rounds with a way of seating them.
A steward picks a preset and may adjust it (rounds, carry-over) before the event starts.

- **GP** (麻雀GP大会, §4.1): 4 preliminary games by a pairing table drawn by lot in advance,
  time-limited (T-07); 2 final games seated by preliminary standing (1st-4th at table 1, ...);
  the final ranking is the total of all 6 games; no tobi ("飛びは無し"), box-under counts.
- **Grand Champion** (§4.2): 6 preliminary games, every pairing by lot; the top 4 play 2 final
  games; the champion is decided by the finals only (T-01 default; ``carry_over`` adds the
  preliminaries instead). Standard rules in full.
- **Meijin** (名人戦, §4.3): 8 games; tables by lot for games 1-2, then before games 3, 5 and 7
  ranks 1-4 by total so far go to the upper table and 5-8 to the lower (T-03); final rank by
  the total of all 8. Standard rules in full.
- **Custom**: preliminary rounds (by lot or by standing), optional finals for the top N, with
  or without carry-over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Seating = Literal["lot", "standing"]


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """One phase: ``kind`` (``"preliminary"``, ``"final"``, or ``"main"`` for a format that
    has no finals); ``rounds`` games each player plays; ``seating``: ``"lot"`` (a pairing table
    drawn at random for all the phase's rounds) or ``"standing"`` (tables by the ranking so
    far, 1st-4th at table 1, re-drawn every ``reseat_every`` rounds); ``qualifiers``: how many
    of the ranking enter this phase (``None``: everyone); ``counts``: its games count in the
    final ranking; ``time_limited``: its games may be cut off by time (T-07); ``minutes``: the
    length of each of its rounds on the clock (``None``: no clock)."""

    kind: Literal["preliminary", "final", "main"]
    rounds: int
    seating: Seating
    reseat_every: int = 0
    qualifiers: int | None = None
    counts: bool = True
    time_limited: bool = False
    minutes: int | None = None


# The GP's preliminaries are time-limited ("予選は時間制限あり", seed 001 L376) but the seed
# gives no length (rules-spec T-07, M-17): one hour a game by default; a steward gives
# another length when starting a round.
GP_ROUND_MINUTES = 60


@dataclass(frozen=True, slots=True)
class FormatPlan:
    """A format: its ``phases`` in order, the rule ``overrides`` every game gets, and the
    number of ``players`` it is made for (``None``: any multiple of the table size)."""

    key: str
    phases: tuple[PhasePlan, ...]
    overrides: dict[str, Any] = field(default_factory=dict)
    players: int | None = None

    @property
    def rounds(self) -> int:
        """Games each finalist plays in all."""
        return sum(phase.rounds for phase in self.phases)


def gp() -> FormatPlan:
    """The Mahjong GP (§4.1)."""
    return FormatPlan(
        "gp",
        (
            PhasePlan("preliminary", 4, "lot", time_limited=True, minutes=GP_ROUND_MINUTES),
            PhasePlan("final", 2, "standing"),
        ),
        overrides={"tobi": False},
    )


def grand_champion(*, carry_over: bool = False) -> FormatPlan:
    """The Grand Champion (§4.2): preliminaries count only with ``carry_over`` (T-01)."""
    return FormatPlan(
        "grand_champion",
        (
            PhasePlan("preliminary", 6, "lot", counts=carry_over),
            PhasePlan("final", 2, "standing", qualifiers=4),
        ),
        players=8,
    )


def meijin() -> FormatPlan:
    """The Meijin (§4.3, T-03): 8 players, re-seated by standing every 2 games."""
    return FormatPlan(
        "meijin",
        (
            PhasePlan("main", 2, "lot"),
            PhasePlan("main", 6, "standing", reseat_every=2),
        ),
        players=8,
    )


def custom(
    *,
    preliminary_rounds: int,
    preliminary_seating: Seating = "lot",
    final_rounds: int = 0,
    finalists: int | None = None,
    carry_over: bool = True,
    reseat_every: int = 0,
) -> FormatPlan:
    """A club's own format.

    Raises:
        ValueError: no preliminary round, a negative number of final rounds, or finalists
            without final rounds.
    """
    if preliminary_rounds < 1 or final_rounds < 0:
        raise ValueError("a tournament has at least one preliminary round")
    if finalists is not None and final_rounds == 0:
        raise ValueError("finalists need final rounds")
    phases = [
        PhasePlan(
            "preliminary",
            preliminary_rounds,
            preliminary_seating,
            reseat_every=reseat_every if preliminary_seating == "standing" else 0,
            counts=carry_over or final_rounds == 0,
        )
    ]
    if final_rounds:
        phases.append(PhasePlan("final", final_rounds, "standing", qualifiers=finalists))
    return FormatPlan("custom", tuple(phases))


PRESETS = {"gp": gp, "grand_champion": grand_champion, "meijin": meijin}
