"""How sure a player's figure is: 95% intervals for a rate
(Wilson) and a mean (Student's t), from the plain counts and sums the ledger's facts add up.

Plain Python over ``scipy.stats``: no query, no Django. An estimate is an exact
:class:`~fractions.Fraction`; its bounds are floats (a statistic's interval, not ledger
points), ``None`` where the sample cannot give one: no observation for a rate; for a mean,
fewer than :data:`MEAN_MIN_N` values (the t interval leans on the values' spread, which two
or five values do not show: two equal wins gave "8,000 – 8,000") or values all equal so
far. docs/player-stats.md, "Figures and their ranges".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from scipy import stats  # type: ignore[import-untyped]  # scipy ships no stubs

CONFIDENCE = 0.95
# The fewest values a mean gets an interval from: below it the page says
# "too few" rather than a range the sample's own spread cannot support.
MEAN_MIN_N = 10

# Why an estimate has no interval, for the page to say so.
TOO_FEW = "too_few"
ALL_EQUAL = "all_equal"


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure over ``n`` observations: ``value`` (``None`` when ``n`` is 0) and its 95%
    interval ``low`` .. ``high`` (``None`` where there is none). ``total``: the successes of a
    rate, the sum of a mean's observations. ``missing``: why a mean with values has no
    interval (:data:`TOO_FEW`, :data:`ALL_EQUAL`), else ``""``."""

    n: int
    total: int
    value: Fraction | None
    low: float | None
    high: float | None
    missing: str = ""


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
    # A rate is within 0..1 whatever the float arithmetic gives at its ends.
    low, high = max(float(interval.low), 0.0), min(float(interval.high), 1.0)
    return Estimate(n, successes, Fraction(successes, n), low, high)


def t_mean(
    n: int, total: int, squares: int, *, within: tuple[int | None, int | None] = (None, None)
) -> Estimate:
    """The mean of ``n`` integer observations from their ``total`` and the sum of their
    ``squares``, with Student's t interval (``scipy.stats.t``, ``n - 1`` degrees of freedom)
    from :data:`MEAN_MIN_N` observations on. The sample variance is taken exactly,
    ``(n * squares - total**2) / (n * (n - 1))``, so large points do not lose digits. Fewer
    observations: no interval, ``missing`` :data:`TOO_FEW`; all of them equal: no interval
    (a range of one value would claim certainty), ``missing`` :data:`ALL_EQUAL`.
    ``within``: the least and greatest value an observation can take (``None``: unbounded);
    the interval is cut to them (a mean place is never below 1st, a win never below the
    least win the rules pay).

    Raises:
        ValueError: ``n`` negative, or sums no ``n`` integers can have (negative variance).
    """
    if n < 0:
        raise ValueError(f"a mean needs n >= 0, got {n}")
    if n == 0:
        return Estimate(0, 0, None, None, None)
    mean = Fraction(total, n)
    spread = n * squares - total * total
    if spread < 0:
        raise ValueError(f"no {n} numbers sum to {total} with squares summing to {squares}")
    if n < MEAN_MIN_N:
        return Estimate(n, total, mean, None, None, TOO_FEW)
    if spread == 0:
        return Estimate(n, total, mean, None, None, ALL_EQUAL)
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
