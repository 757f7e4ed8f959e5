"""Timing helpers shared by the benchmarks."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_rate(work: Callable[[], int], rounds: int = 5) -> float:
    """Items per second of ``work`` (which returns how many items it did), best of ``rounds``."""
    best = 0.0
    for _ in range(rounds):
        start = time.perf_counter()
        items = work()
        best = max(best, items / (time.perf_counter() - start))
    return best
