"""Numbers as the club writes them, in one place for every page, e-mail and export.

Points are integers in points everywhere in the code; these functions only format them:
scores with thousands separators ("25,000"), score changes with a sign ("+3,900"),
settlements in thousands with one decimal ("+55.0"), uma in thousands ("+20"). The minus
sign is U+2212, as printed.
"""

from __future__ import annotations

from django.utils.translation import gettext

MINUS = "\N{MINUS SIGN}"


def format_points(points: int) -> str:
    """A score: 25000 -> "25,000"; -8000 -> "−8,000"."""
    return f"{points:,}".replace("-", MINUS)


def signed_points(points: int) -> str:
    """A score change: "+3,900", "−3,900", "0"."""
    return f"+{format_points(points)}" if points > 0 else format_points(points)


def settlement_points(points: int) -> str:
    """A settlement in thousands with one decimal, as clubs write it: 55000 -> "+55.0",
    -12300 -> "−12.3", 0 -> "0.0". Finer amounts keep their digits (150 -> "+0.15")."""
    whole, rest = divmod(abs(points), 1000)
    decimals = str(rest // 100) if rest % 100 == 0 else f"{rest:03d}".rstrip("0")
    amount = f"{whole}.{decimals}"
    if points > 0:
        return f"+{amount}"
    if points < 0:
        return f"{MINUS}{amount}"
    return amount


def format_thousands(points: int) -> str:
    """Points in thousands, as uma is quoted: 20000 -> "+20", -5000 -> "−5", 2500 -> "+2.5"."""
    whole, rest = divmod(abs(points), 1000)
    # Integer arithmetic rather than points / 1000: points are never floats.
    amount = str(whole) if rest == 0 else f"{whole}.{rest:03d}".rstrip("0")
    if points > 0:
        return f"+{amount}"
    if points < 0:
        return f"{MINUS}{amount}"
    return amount


def format_uma(uma: tuple[int, ...]) -> str:
    """(20000, 10000, -10000, -20000) -> "+20 / +10 / −10 / −20"; "none" without uma."""
    if not uma:
        return gettext("none")
    return " / ".join(format_thousands(points) for points in uma)
