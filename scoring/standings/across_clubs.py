"""A person's figures in each of their clubs, side by side: the one view that reads one
person's results across clubs (docs/clubs.md). Each club's figures stay on its own line: a
3-player club's places are out of three, and points in a club's own units (a FUJI club's
chips, a home game's) are never added across clubs."""

from __future__ import annotations

import datetime
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal

from django.db.models import Sum

from clubsite.club_choice import ClubLink
from scoring.models import MemberYear


def with_year_figures(links: list[ClubLink], user_id: int, year: int) -> list[ClubLink]:
    """``links`` (the person's clubs, ``clubsite.club_choice.club_links``) with login
    ``user_id``'s figures in each club in calendar ``year``: games and average place (two
    decimals, half up), summed from the year's roll-ups (``MemberYear``: every counted game of
    every ruleset of that club). One query."""
    # The person's own rows in each of their clubs: read past the club scope, by design
    # (tests/test_club_scoping.py names this module).
    rows = (
        MemberYear.objects.with_scopes_disabled()
        .filter(member__user_id=user_id, member__active=True, year=datetime.date(year, 1, 1))
        .values("club__slug")
        .annotate(games=Sum("games"), rank_sum=Sum("rank_sum"))
    )
    figures = {row["club__slug"]: (row["games"], row["rank_sum"]) for row in rows}
    result = []
    for link in links:
        games, rank_sum = figures.get(link.slug, (0, 0))
        average = (
            (Decimal(rank_sum) / games).quantize(Decimal("0.01"), ROUND_HALF_UP) if games else None
        )
        result.append(replace(link, games=games, average_place=average))
    return result
