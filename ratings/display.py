"""What the pages show of the ratings (docs/ratings.md): one number, the
estimate ``mu`` (a new member's 25.0), with how sure it is in words: "new" below
``settings.RATING_PROVISIONAL_GAMES`` rated games (default 10: not ranked yet), "still
moving" while sigma is above half a new member's (about 90 games in the simulated club), then
"settled"; a member's history as a line of that number. The ordinal ``mu - 3 sigma`` is not
shown: it grows with the games played whatever the results (an average member's went from 0
to 19 over 300 games), and "1.7 ±7.9" read as nothing. Read-only; two queries for a member,
one for a list."""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass

from django.conf import settings

from clubsite.models import Member
from ratings.model import TUNED, RatingModel
from ratings.models import Family, Rating, RatingStep

# The member page's history: the last games, as a list and as a line.
HISTORY_GAMES = 50
LIST_GAMES = 10
# The line's drawing box (SVG user units) and the margin inside it.
CHART_WIDTH = 320
CHART_HEIGHT = 96
CHART_PAD = 6


# A rating is settled once its sigma has fallen to half a new member's: a game then moves it
# about a quarter as far as a newcomer's (0.3 against 1.1 on average in the simulated club,
# at about 90 games; docs/ratings.md).
SETTLED_SIGMA = TUNED.sigma / 2

# How sure a rating is, in words (the template says them).
NEW = "new"
MOVING = "moving"
SETTLED = "settled"


@functools.cache
def settled_games(seats: int) -> int:
    """About how many games a member plays before the rating is settled: the games after
    which a table of ``seats`` newcomers, finishing in turn at every place, are at
    :data:`SETTLED_SIGMA` (89 at 4 seats, 71 at 3 with the tuned model; the simulated club's
    members reach it at about 90 four-player games)."""
    model = RatingModel(TUNED)
    ratings = [model.new() for _ in range(seats)]
    games = 0
    while ratings[0].sigma > SETTLED_SIGMA:
        ratings = model.rate(ratings, [(seat + games) % seats + 1 for seat in range(seats)])
        games += 1
    return games


def provisional_games() -> int:
    """Games below which a rating is new, not ranked (``settings.RATING_PROVISIONAL_GAMES``)."""
    return int(getattr(settings, "RATING_PROVISIONAL_GAMES", 10))


@dataclass(frozen=True, slots=True)
class Shown:
    """A rating as shown: ``mu`` (the one number pages show) and ``sigma`` (OpenSkill units),
    ``ordinal`` (``mu - 3 sigma``, kept for the harness and the admin), ``games`` rated,
    ``provisional`` below the threshold, and ``state``: :data:`NEW` (provisional),
    :data:`MOVING` (sigma above :data:`SETTLED_SIGMA`) or :data:`SETTLED`."""

    ordinal: float
    mu: float
    sigma: float
    games: int
    provisional: bool

    @property
    def state(self) -> str:
        if self.provisional:
            return NEW
        return MOVING if self.sigma > SETTLED_SIGMA else SETTLED


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One game of a member's history: date, hanchan, placement, the rating (``mu``) after
    it."""

    played_on: datetime.date
    hanchan_id: int
    placement: int
    mu: float


@dataclass(frozen=True, slots=True)
class MemberFamily:
    """A member's rating in one family, with its history: ``lines`` newest first (the last
    :data:`LIST_GAMES`), ``points``: the SVG polyline of the rating over the last
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
    values = [s.mu for s in oldest_first]
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
            HistoryLine(s.played_on, s.game.hanchan_id, s.placement, s.mu)
            for s in steps[:LIST_GAMES]
        ],
        points=points,
        low=low,
        high=high,
    )


@dataclass(frozen=True, slots=True)
class ListLine:
    """One line of the ratings list: place (by rating; 0 for a new member, not ranked),
    member, the rating as shown."""

    place: int
    member_id: int
    name: str
    shown: Shown


def rating_list(family: int) -> tuple[list[ListLine], list[ListLine]]:
    """Every rated member of ``family``: those ranked (at least the provisional games),
    highest rating first (ties by name), and the new ones, most games first (then by name),
    unranked: a few games say too little to place anyone. A guest of one of the club's events
    (another club's member) is rated as an opponent but not listed. One query."""
    rated = (
        Rating.objects.filter(family=family)
        .exclude(member__role=Member.Role.GUEST)
        .select_related("member")
    )
    rows = [(r, shown(r)) for r in rated]
    ranked = sorted(
        (row for row in rows if not row[1].provisional),
        key=lambda row: (-row[0].mu, row[0].member.display_name),
    )
    new = sorted(
        (row for row in rows if row[1].provisional),
        key=lambda row: (-row[0].games, row[0].member.display_name),
    )
    return (
        [
            ListLine(place, r.member_id, r.member.display_name, view)
            for place, (r, view) in enumerate(ranked, start=1)
        ],
        [ListLine(0, r.member_id, r.member.display_name, view) for r, view in new],
    )
