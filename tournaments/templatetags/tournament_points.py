"""Filters for the tournament pages: settlement points as the standings write them."""

from __future__ import annotations

from django import template

from clubsite.formatting import settlement_points

register = template.Library()


@register.filter
def settlement(points: int | None) -> str:
    """52000 -> "+52.0", -3000 -> "−3.0"; ``None`` (not played) -> "–"."""
    return "–" if points is None else settlement_points(points)


@register.filter
def sign(points: int | None) -> str:
    """The colour class of a score: "plus", "minus" or "zero" ("" when not played)."""
    if points is None:
        return ""
    return "plus" if points > 0 else "minus" if points < 0 else "zero"


@register.filter
def tenths(points: int | None) -> str:
    """Race points (tenths of a thousand): 520 -> "52.0", -35 -> "−3.5"; ``None`` -> "–"."""
    if points is None:
        return "–"
    whole, tenth = divmod(abs(points), 10)
    text = f"{whole:,}.{tenth}"
    return f"−{text}" if points < 0 else text
