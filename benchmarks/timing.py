"""Timing helpers shared by the benchmarks: rounds taken in turns after a warm-up round, each
figure reported as the median of its rounds with the spread (10th to 90th percentile) and the
best beside it, and the machine's load.

The verdict of a target is the median's: the best of several rounds is what the machine can do
when nothing else runs, the median what a member gets on a machine shared with other work.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured quantity over its rounds: ``median``, the 10th and 90th percentiles
    (``p10``, ``p90``), ``best`` (the highest for a rate, the lowest for a time, as
    ``higher_is_better`` says) and the number of ``rounds``, all in the quantity's unit."""

    median: float
    p10: float
    p90: float
    best: float
    rounds: int
    higher_is_better: bool = True

    def spread_text(self, digits: int = 1) -> str:
        """``(p10-p90 1,100.0-1,300.0; best 1,350.0; 5 rounds)``: what a report prints after
        the median."""
        fmt = f",.{digits}f"
        return (
            f"(p10-p90 {self.p10:{fmt}}-{self.p90:{fmt}}; best {self.best:{fmt}}; "
            f"{self.rounds} rounds)"
        )


def figure(values: Sequence[float], *, higher_is_better: bool = True) -> Figure:
    """The :class:`Figure` of ``values`` (one per round, at least one).

    The percentiles are :func:`statistics.quantiles`' (``n=10``, inclusive method: the rounds
    are the whole population, so a percentile never lies outside the rounds' range, as the
    exclusive method's would with a few rounds); with one round every figure is that round's.

    Raises:
        ValueError: ``values`` is empty.
    """
    if not values:
        raise ValueError("no rounds to take a figure of")
    deciles = (
        statistics.quantiles(values, n=10, method="inclusive")
        if len(values) > 1
        else [values[0]] * 9
    )
    return Figure(
        median=statistics.median(values),
        p10=deciles[0],
        p90=deciles[-1],
        best=max(values) if higher_is_better else min(values),
        rounds=len(values),
        higher_is_better=higher_is_better,
    )


def time_in_turns(
    works: Sequence[Callable[[], object]],
    rounds: int,
    before: Callable[[int], None] = lambda index: None,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> list[list[float]]:
    """Seconds of each of ``works``, ``rounds`` times, in turns: a round of each, then the
    next (``before(i)`` runs untimed before each run of ``works[i]``). One untimed warm-up run
    of each first (imports, caches, connections: not the steady state). Taking turns keeps
    the machine's speed, which moves by a fifth from one minute to the next here, out of a
    ratio of two works' figures."""
    for index, work in enumerate(works):
        before(index)
        work()
    times: list[list[float]] = [[] for _ in works]
    for _ in range(rounds):
        for index, work in enumerate(works):
            before(index)
            start = clock()
            work()
            times[index].append(clock() - start)
    return times


def median_rates(
    *works: Callable[[], int],
    rounds: int = 5,
    clock: Callable[[], float] = time.perf_counter,
) -> list[Figure]:
    """Items per second of each of ``works`` (each returns how many items it did), in the order
    given: a warm-up round of each, then ``rounds`` rounds taken in turns
    (:func:`time_in_turns`); each rate a :class:`Figure` over the rounds.

    Raises:
        ZeroDivisionError: a round took no time on ``clock``.
    """
    counts: list[list[int]] = [[] for _ in works]

    def counted(index: int, work: Callable[[], int]) -> Callable[[], None]:
        return lambda: counts[index].append(work())

    times = time_in_turns(
        [counted(index, work) for index, work in enumerate(works)], rounds, clock=clock
    )
    # counts[i][0] is the warm-up's.
    return [
        figure([items / seconds for items, seconds in zip(counts[i][1:], times[i], strict=True)])
        for i in range(len(works))
    ]


def median_rate(
    work: Callable[[], int], rounds: int = 5, clock: Callable[[], float] = time.perf_counter
) -> Figure:
    """:func:`median_rates` of one ``work``."""
    return median_rates(work, rounds=rounds, clock=clock)[0]


def ratio(numerator: Figure, denominator: Figure) -> float:
    """The ratio of two figures' medians (a target on a ratio is judged on the medians)."""
    return numerator.median / denominator.median


def meets(value: Figure, target: float) -> bool:
    """Whether ``value``'s median reaches ``target``: at least it for a rate, at most it for a
    time (``value.higher_is_better``). The best round never decides."""
    return value.median >= target if value.higher_is_better else value.median <= target


def load_line(when: str, *, load: Callable[[], tuple[float, float, float]] = os.getloadavg) -> str:
    """``load average at the start: 0.52 0.61 0.70 (1, 5, 15 min; 2 cores)``: printed at the
    start and the end of each part, so that a figure is read beside what else ran."""
    one, five, fifteen = load()
    return (
        f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} "
        f"(1, 5, 15 min; {os.cpu_count()} cores)"
    )
