"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_rate(work: Callable[[], int], rounds: int = 5) -> float:
    """Items per second of ``work`` (which returns how many items it did), best of ``rounds``."""
    return best_rates(work, rounds=rounds)[0]


def best_rates(*works: Callable[[], int], rounds: int = 5) -> list[float]:
    """Items per second of each of ``works`` (each returns how many items it did), best of
    ``rounds``, in the order given. The rounds take turns (a round of each, then the next
    round of each), so that a ratio of two rates is not the machine's speed changing between
    one's rounds and the other's: this machine's speed moves by a fifth from one minute to
    the next."""
    best = [0.0] * len(works)
    for _ in range(rounds):
        for index, work in enumerate(works):
            start = time.perf_counter()
            items = work()
            best[index] = max(best[index], items / (time.perf_counter() - start))
    return best
