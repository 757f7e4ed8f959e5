"""How sure a player's figure is (issue 23 item 1): 95% intervals for a rate (Wilson) and a
mean (Student's t), from the plain counts and sums the ledger's facts add up.

Plain Python over ``scipy.stats``: no query, no Django. An estimate is an exact
:class:`~fractions.Fraction`; its bounds are floats (a statistic's interval, not ledger
points), ``None`` where the sample cannot give one (no observation for a rate, fewer than two
for a mean). docs/player-stats.md, "Figures and their intervals".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from scipy import stats  # type: ignore[import-untyped]  # scipy ships no stubs

CONFIDENCE = 0.95


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure over ``n`` observations: ``value`` (``None`` when ``n`` is 0) and its 95%
    interval ``low`` .. ``high`` (``None`` where there is none). ``total``: the successes of a
    rate, the sum of a mean's observations."""

    n: int
    total: int
    value: Fraction | None
    low: float | None
    high: float | None


def wilson(successes: int, n: int) -> Estimate:
    """The rate ``successes / n`` with its Wilson score interval (``scipy.stats.binomtest``,
    ``method="wilson"``): it stays inside 0..1 and keeps its width at 0 or ``n`` successes,
    where the normal approximation collapses to a point.

    Raises:
        ValueError: ``n`` negative, or ``successes`` outside ``0..n``.
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"a rate needs 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return Estimate(0, 0, None, None, None)
    interval = stats.binomtest(successes, n).proportion_ci(
        confidence_level=CONFIDENCE, method="wilson"
    )
    return Estimate(n, successes, Fraction(successes, n), float(interval.low), float(interval.high))


def t_mean(
    n: int, total: int, squares: int, *, within: tuple[int | None, int | None] = (None, None)
) -> Estimate:
    """The mean of ``n`` integer observations from their ``total`` and the sum of their
    ``squares``, with Student's t interval (``scipy.stats.t``, ``n - 1`` degrees of freedom).
    The sample variance is taken exactly, ``(n * squares - total**2) / (n * (n - 1))``, so
    large points do not lose digits; all observations equal: the interval is the mean.
    ``within``: the least and greatest value an observation can take (``None``: unbounded);
    the interval is cut to them (a mean place is never below 1st, a win value never below 0).

    Raises:
        ValueError: ``n`` negative, or sums no ``n`` integers can have (negative variance).
    """
    if n < 0:
        raise ValueError(f"a mean needs n >= 0, got {n}")
    if n == 0:
        return Estimate(0, 0, None, None, None)
    mean = Fraction(total, n)
    if n == 1:
        return Estimate(n, total, mean, None, None)
    spread = n * squares - total * total
    if spread < 0:
        raise ValueError(f"no {n} numbers sum to {total} with squares summing to {squares}")
    half = float(stats.t.ppf((1 + CONFIDENCE) / 2, n - 1)) * math.sqrt(spread / (n * (n - 1)) / n)
    least, greatest = within
    low, high = float(mean) - half, float(mean) + half
    if least is not None:
        low = max(low, float(least))
    if greatest is not None:
        high = min(high, float(greatest))
    return Estimate(n, total, mean, low, high)


def count_only(total: int, n: int) -> Estimate:
    """A figure with no interval (a count, a best streak) over ``n`` observations."""
    return Estimate(n, total, Fraction(total), None, None)
