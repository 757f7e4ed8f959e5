"""What the pages show of the ratings (docs/ratings.md): the ordinal ``mu - 3 sigma`` with
sigma, "provisional" below ``settings.RATING_PROVISIONAL_GAMES`` rated games (default 10), a
member's history as a line of ordinals. Read-only; two queries for a member, one for a list."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings

from ratings.models import Family, Rating, RatingStep

# The member page's history: the last games, as a list and as a line.
HISTORY_GAMES = 50
LIST_GAMES = 10
# The line's drawing box (SVG user units) and the margin inside it.
CHART_WIDTH = 320
CHART_HEIGHT = 96
CHART_PAD = 6


def provisional_games() -> int:
    """Games below which a rating is provisional (``settings.RATING_PROVISIONAL_GAMES``)."""
    return int(getattr(settings, "RATING_PROVISIONAL_GAMES", 10))


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as shown: ``ordinal`` and ``sigma`` (OpenSkill units), ``games`` rated,
    ``provisional`` below the threshold."""

    ordinal: float
    mu: float
    sigma: float
    games: int
    provisional: bool


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One game of a member's history: date, hanchan, placement, the rating after it."""

    played_on: datetime.date
    hanchan_id: int
    placement: int
    ordinal: float
    sigma: float


@dataclass(frozen=True, slots=True)
class MemberFamily:
    """A member's rating in one family, with its history: ``lines`` newest first (the last
    :data:`LIST_GAMES`), ``points``: the SVG polyline of the ordinal over the last
    :data:`HISTORY_GAMES` games, oldest left; ``low``/``high``: its range."""

    family: int
    label: str
    shown: Shown
    lines: list[HistoryLine]
    points: str
    low: float
    high: float


def shown(rating: Rating | RatingStep) -> Shown:
    """``rating`` as shown."""
    return Shown(
        ordinal=rating.ordinal,
        mu=rating.mu,
        sigma=rating.sigma,
        games=rating.games,
        provisional=rating.games < provisional_games(),
    )


def member_ratings(member_id: int) -> list[MemberFamily]:
    """The member's ratings, 4-player first, each with its history. Two queries."""
    ratings = {r.family: r for r in Rating.objects.filter(member_id=member_id)}
    steps: dict[int, list[RatingStep]] = {f: [] for f in ratings}
    for family in ratings:
        steps[family] = list(
            RatingStep.objects.filter(member_id=member_id, family=family)
            .select_related("game")
            .order_by("-games")[:HISTORY_GAMES]
        )
    return [
        _member_family(family, ratings[family], steps[family])
        for family in Family.values
        if family in ratings
    ]


def _member_family(family: int, rating: Rating, steps: list[RatingStep]) -> MemberFamily:
    oldest_first = list(reversed(steps))
    values = [s.ordinal for s in oldest_first]
    low, high = (min(values), max(values)) if values else (0.0, 0.0)
    span = (high - low) or 1.0
    step_x = (CHART_WIDTH - 2 * CHART_PAD) / max(len(values) - 1, 1)
    points = " ".join(
        f"{CHART_PAD + i * step_x:.1f},"
        f"{CHART_HEIGHT - CHART_PAD - (v - low) / span * (CHART_HEIGHT - 2 * CHART_PAD):.1f}"
        for i, v in enumerate(values)
    )
    return MemberFamily(
        family=family,
        label=str(Family(family).label),
        shown=shown(rating),
        lines=[
            HistoryLine(s.played_on, s.game.hanchan_id, s.placement, s.ordinal, s.sigma)
            for s in steps[:LIST_GAMES]
        ],
        points=points,
        low=low,
        high=high,
    )


@dataclass(frozen=True, slots=True)
class ListLine:
    """One line of the ratings list: place (by ordinal), member, the rating as shown."""

    place: int
    member_id: int
    name: str
    shown: Shown


def rating_list(family: int) -> list[ListLine]:
    """Every rated member of ``family``, highest ordinal first (ties by name). One query."""
    rows = sorted(
        Rating.objects.filter(family=family).select_related("member"),
        key=lambda r: (-r.ordinal, r.member.display_name),
    )
    return [
        ListLine(place, r.member_id, r.member.display_name, shown(r))
        for place, r in enumerate(rows, start=1)
    ]
