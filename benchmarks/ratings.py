"""The rating's targets (docs/ratings.md), exactly: on the simulated club
of :data:`ratings.evaluation.BENCH_CLUB` with the tuned parameters, Spearman >= 0.85 against
the true skill on same-strength tables and >= 85% of the oracle's log-loss gain over uniform
on random tables. A line is BELOW TARGET when a figure misses."""

from __future__ import annotations

import time

from ratings.evaluation import (
    BENCH_CLUB,
    GAIN_SHARE_TARGET,
    SPEARMAN_TARGET,
    simulated,
)
from ratings.model import TUNED


def run_ratings_bench() -> list[str]:
    """The figures as lines of text (see the module)."""
    start = time.perf_counter()
    figures = simulated(BENCH_CLUB, TUNED)
    seconds = time.perf_counter() - start
    rho = figures.same_strength.spearman or 0.0
    share = figures.random.gain_share or 0.0

    def verdict(ok: bool) -> str:
        return "ok" if ok else "BELOW TARGET"

    return [
        f"ratings: {TUNED} on {figures.random.games:,} + {figures.same_strength.games:,} "
        f"simulated games ({seconds:.1f} s)",
        f"{'same-strength tables: Spearman':<44} {rho:>12.3f} {'':<12} "
        f"target >= {SPEARMAN_TARGET} {verdict(rho >= SPEARMAN_TARGET)}",
        f"{'random tables: share of the oracle gain':<44} {share:>12.3f} {'':<12} "
        f"target >= {GAIN_SHARE_TARGET} {verdict(share >= GAIN_SHARE_TARGET)}",
        f"{'random tables: log-loss (uniform, oracle)':<44} "
        f"{figures.random.log_loss:>12.4f} ({figures.random.uniform:.4f}, "
        f"{figures.random.oracle or 0:.4f})",
    ]
