"""The qualification races of seed 001 (docs/rules-spec.md §4.2, §4.3, T-02, T-04, T-05,
T-06): who plays the year's Grand Champion and Meijin, from the monthly and half-year titles
(``scoring.standings.champions``) and the club's tournaments.

Points here are integers in the unit the standings show, tenths of a thousand points: a
settlement of +52,000 points (+52.0) is 520. Every open point of the rules is a club setting,
``settings.QUALIFICATION`` (defaults in :data:`DEFAULTS`):

- ``title_points`` (100, i.e. 10.0): what a monthly championship is worth in the Grand
  Champion race ("各月の月間チャンピオンを１０ポイント");
- ``tournament_formats`` (GP and Meijin): whose games' settlements are the "大会のポイント";
- ``grand_champion_top`` (6): the top of the ranking who qualify ("トータル点上位６名");
- ``meijin_monthly_seats`` (6): monthly champions by their champion month's points;
- ``meijin_substitutes``: ``"total_points"`` (T-05's recommended reading: the monthly
  champions who missed selection, by total points July-June) or ``"champions_first"``
  (those champions by champion-month points, then everyone else by total points);
- ``substitutes`` (4): how many substitutes each race lists.

The Grand Champion counts the calendar year (T-02): its titles and the tournaments that
ended in it. The previous year's winner is the first of the final ranking of the last Grand
Champion event that ended the year before. The seat for a woman (女流) goes to the
highest-ranked member of the women's division not already qualified (T-02's recommendation);
a seat whose holder is already in (the previous winner among the top 6), or that nobody
holds (no previous winner, no woman in the race), goes to the next in the ranking, and its
reason says which seat it stands in for and why (:data:`STAND_INS`). A title shared by
several members counts for each of them.

The Meijin of year Y: A, the second-half champion of Y-1 and the first-half champion of Y
(T-04: half years January-June and July-December); B, the monthly champions of July Y-1 to
June Y with the best points in their champion month, a champion of several months counting
with their best one; a member who is in by A takes no B seat, and a member holding both
halves leaves the second A seat to B (T-05). Only titles already decided count: a month or
half year still being played has a leader, not a champion.

Equal points in a race are ordered by the number of titles, then by the reading of the name
(furigana), as the pages say and as the event rankings order names.

"The last seat" a runner outside is behind is the last seat held by the ranking (the top 6
and any stand-in), not the 6th: a seat that stands in is held at its holder's points. A race
that cannot fill its eight seats says how many stay empty (:attr:`Race.empty_seats`).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Sum

from clubsite.models import Member
from scoring.ledger import counted_results
from scoring.standings import (
    Title,
    champions_history,
    club_today,
    in_tenths,
    period_standings,
    range_period,
)
from tournaments.live_ranking import event_ranking
from tournaments.models import Event
from tournaments.ranking import RankRow

DEFAULTS: dict[str, Any] = {
    "title_points": 100,
    "tournament_formats": ("gp", "meijin"),
    "grand_champion_top": 6,
    "meijin_monthly_seats": 6,
    "meijin_substitutes": "total_points",
    "substitutes": 4,
}


# The reasons of the seats that stand in for another (stable English; the pages translate).
STAND_INS = {
    "winner_in": "next in the ranking (previous winner already in)",
    "no_winner": "next in the ranking (no previous winner)",
    "woman_in": "next in the ranking (no other woman in the race)",
    "no_woman": "next in the ranking (no woman in the race)",
}
SEATS = 8  # both races (§4.2 "８名限定", §4.3 2 + 6)


def setting(name: str) -> Any:
    """A qualification setting: ``settings.QUALIFICATION[name]``, else :data:`DEFAULTS`."""
    return getattr(settings, "QUALIFICATION", {}).get(name, DEFAULTS[name])


@dataclass
class Runner:
    """A member in a race: ``points`` in tenths of a thousand; ``titles`` the monthly
    championships (Grand Champion) with ``title_months``; ``tournament_points``; for the
    Meijin, ``best_month`` (the champion month's points) and its ``champion_month``."""

    member_id: int
    name: str
    reading: str
    women_division: bool = False
    points: int = 0
    titles: int = 0
    title_months: list[datetime.date] = field(default_factory=list)
    tournament_points: int = 0
    best_month: int | None = None
    champion_month: datetime.date | None = None

    @property
    def race_points(self) -> int:
        """What the race ranks by: the champion month's points in the Meijin race (whose
        runners all have one), the points otherwise."""
        return self.points if self.best_month is None else self.best_month


@dataclass(frozen=True)
class Entry:
    """A qualified member or a substitute: ``reason`` in stable English (the command prints
    it as is; the pages translate it), ``points`` as the reason counts them."""

    runner: Runner
    reason: str
    points: int

    def as_json(self) -> dict[str, Any]:
        return {"member": self.runner.name, "reason": self.reason, "points": self.points}


@dataclass(frozen=True)
class Race:
    """A race's state: the ``ranking`` (everyone in the race, best first), who has
    ``qualified`` (in seat order), the ``substitutes``, and the ``cutoff``: the points of the
    last seat held by the ranking, a stand-in's included (``None`` when the race has no such
    line)."""

    key: str
    year: int
    start: datetime.date
    end: datetime.date
    ranking: list[Runner]
    qualified: list[Entry]
    substitutes: list[Entry]
    cutoff: int | None
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def empty_seats(self) -> int:
        """Seats nobody holds: the race has fewer runners (or title holders) than seats."""
        return max(0, SEATS - len(self.qualified))

    @property
    def why_empty(self) -> list[str]:
        """Why seats are empty, as stable codes the page words: ``"no_more_runners"`` (the
        Grand Champion: everyone with a title or tournament points is in), ``"half_open"``
        (the Meijin: a half-year title not decided, whose seat nobody else takes),
        ``"no_more_champions"`` (the Meijin: every monthly champion of the period is in)."""
        if not self.empty_seats:
            return []
        if self.key == "grand-champion":
            return ["no_more_runners"]
        reasons = []
        if not (self.notes.get("second_half") and self.notes.get("first_half")):
            reasons.append("half_open")
        if self.notes.get("monthly_seats_left"):
            reasons.append("no_more_champions")
        return reasons

    def is_in(self, runner: Runner) -> bool:
        return any(entry.runner.member_id == runner.member_id for entry in self.qualified)

    def bubble(self, size: int = 3) -> list[tuple[Runner, int]]:
        """The first ``size`` of the ranking who are not in, with the points each is behind
        the cutoff."""
        if self.cutoff is None:
            return []
        outside = [r for r in self.ranking if not self.is_in(r)]
        return [(r, max(0, self.cutoff - r.race_points)) for r in outside[:size]]

    def as_json(self) -> dict[str, Any]:
        return {
            "qualified": [entry.as_json() for entry in self.qualified],
            "substitutes": [entry.as_json() for entry in self.substitutes],
        }


def _by_ranking(entry: Entry) -> bool:
    """The seat is held by the ranking: the top 6 or a stand-in for another seat."""
    return entry.reason.startswith("top ") or entry.reason.startswith("next in the ranking")


def _order(runners: Iterable[Runner]) -> list[Runner]:
    return sorted(runners, key=lambda r: (-r.points, -r.titles, r.reading or r.name, r.name))


def _runners(member_ids: Iterable[int]) -> dict[int, Runner]:
    return {
        m.pk: Runner(m.pk, m.display_name, m.furigana, m.women_division)
        for m in Member.objects.filter(pk__in=set(member_ids))
    }


def _decided(today: datetime.date, end: datetime.date) -> datetime.date:
    """The ``today`` that makes every title up to ``end`` count that has been decided."""
    return min(today, end + datetime.timedelta(days=1))


# -- the Grand Champion ---------------------------------------------------------------------


def grand_champion_race(year: int, *, today: datetime.date | None = None) -> Race:
    """The Grand Champion race of ``year`` (§4.2, T-02): points are 10.0 per monthly title
    of the year plus the settlement points of the year's GP and Meijin games; the top 6,
    the previous year's winner and a woman player qualify, overlaps filled from the ranking.
    """
    today = club_today() if today is None else today
    start, end = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    history = champions_history(today=_decided(today, end), since=start)
    titles: dict[int, list[datetime.date]] = defaultdict(list)
    for title in history.months:
        if title.period.start.year == year:
            for holder in title.holders:
                titles[holder.member_id].append(title.period.start)
    tournament = _tournament_points(year)
    runners = _runners(set(titles) | set(tournament))
    for member_id, runner in runners.items():
        runner.title_months = sorted(titles.get(member_id, []))
        runner.titles = len(runner.title_months)
        runner.tournament_points = in_tenths(tournament.get(member_id, 0))
        runner.points = runner.titles * setting("title_points") + runner.tournament_points
    ranking = _order(runners.values())
    top = setting("grand_champion_top")
    qualified = [Entry(r, f"top {top}", r.points) for r in ranking[:top]]
    taken = {entry.runner.member_id for entry in qualified}

    def next_in_ranking() -> Runner | None:
        return next((r for r in ranking if r.member_id not in taken), None)

    previous = previous_winner(year)
    seat: Runner | None = None
    if previous is not None and previous.pk not in taken:
        seat = runners.get(previous.pk) or Runner(
            previous.pk, previous.display_name, previous.furigana, previous.women_division
        )
        reason = "previous year's winner"
    else:
        seat = next_in_ranking()
        reason = STAND_INS["winner_in" if previous is not None else "no_winner"]
    if seat is not None:
        qualified.append(Entry(seat, reason, seat.points))
        taken.add(seat.member_id)
    woman = next((r for r in ranking if r.women_division and r.member_id not in taken), None)
    if woman is not None:
        qualified.append(Entry(woman, "women's division", woman.points))
        taken.add(woman.member_id)
    else:
        extra = next_in_ranking()
        if extra is not None:
            any_woman = any(r.women_division for r in ranking)
            reason = STAND_INS["woman_in" if any_woman else "no_woman"]
            qualified.append(Entry(extra, reason, extra.points))
            taken.add(extra.member_id)
    substitutes = [Entry(r, "substitute", r.points) for r in ranking if r.member_id not in taken][
        : setting("substitutes")
    ]
    held = [entry.points for entry in qualified if _by_ranking(entry)]
    cutoff = min(held) if len(ranking) >= top and held else None
    return Race(
        "grand-champion",
        year,
        start,
        end,
        ranking,
        qualified,
        substitutes,
        cutoff,
        notes={"previous_winner": previous.display_name if previous else None},
    )


def _tournament_points(year: int) -> dict[int, int]:
    """Per member, the settlement points (ledger points) of their counted games (the ledger's
    one read; a table waiting for confirmation is left out) in the club's events of the
    counted formats that ended in ``year``."""
    rows = (
        counted_results()
        .filter(
            hanchan__event_table__round__event__format__in=list(setting("tournament_formats")),
            hanchan__event_table__round__event__ends_on__year=year,
        )
        .values("member_id")
        .annotate(total=Sum("points"))
        .order_by()
    )
    return {row["member_id"]: int(row["total"] or 0) for row in rows}


def previous_winner(year: int) -> Member | None:
    """The winner of the last finished Grand Champion event that ended in ``year - 1``."""
    event = (
        Event.objects.filter(
            format=Event.Format.GRAND_CHAMPION,
            status=Event.Status.FINISHED,
            ends_on__year=year - 1,
        )
        .order_by("-ends_on", "-pk")
        .first()
    )
    if event is None:
        return None
    rows: Sequence[RankRow] = event_ranking(event).rows
    if not rows:
        return None
    winner = event.participants.select_related("member").get(number=rows[0].number)
    return winner.member


# -- the Meijin -----------------------------------------------------------------------------


def meijin_b_order(runner: Runner) -> tuple[int, int, str, str]:
    """The order of the Meijin's B seats (§4.3 B, T-05): the champion month's points
    (highest first), then the number of monthly titles in the window (most first), then the
    reading of the name, as the race page says (a member with three titles
    no longer loses a tied seat to a one-title member by name)."""
    return (-(runner.best_month or 0), -runner.titles, runner.reading or runner.name, runner.name)


def meijin_race(year: int, *, today: datetime.date | None = None) -> Race:
    """The Meijin race of ``year`` (§4.3, T-04, T-05): A the second-half champion of
    ``year - 1`` and the first-half champion of ``year``; B the monthly champions of July
    ``year - 1`` to June ``year`` with the best champion-month points (ties: more titles,
    then reading, :func:`meijin_b_order`; a champion's seat is labelled with their best
    month, the latest of equal ones); substitutes as the ``meijin_substitutes`` setting
    says. A half year decided with no holder gives its A seat to B."""
    today = club_today() if today is None else today
    start, end = datetime.date(year - 1, 7, 1), datetime.date(year, 6, 30)
    history = champions_history(today=_decided(today, end), since=start)
    halves = {(t.period.start.year, t.period.start.month): t for t in history.halves}
    second_half = halves.get((year - 1, 7))
    first_half = halves.get((year, 1))
    months = [t for t in history.months if start <= t.period.start <= end]
    window = period_standings(range_period(start, end), min_games=0)
    totals = {row.member_id: row.total_points for row in [*window.rows, *window.below_minimum]}
    champions: dict[int, tuple[int, datetime.date]] = {}
    for title in months:
        points = title.points
        if points is None:
            continue
        for holder in title.holders:
            best = champions.get(holder.member_id)
            # The history lists months newest first, so of two best months with equal points
            # the latest names the seat (the points are the same either way).
            if best is None or points > best[0]:
                champions[holder.member_id] = (points, title.period.start)
    runners = _runners(set(champions) | set(totals) | _holders(second_half, first_half))
    for member_id, runner in runners.items():
        runner.points = in_tenths(totals.get(member_id, 0))
        if member_id in champions:
            best_points, month = champions[member_id]
            runner.best_month = in_tenths(best_points)
            runner.champion_month = month
            runner.titles = sum(1 for t in months for h in t.holders if h.member_id == member_id)
    qualified: list[Entry] = []
    taken: set[int] = set()
    seats_b = setting("meijin_monthly_seats")
    a_titles: list[tuple[Title | None, str]] = [
        (second_half, f"second-half champion {year - 1}"),
        (first_half, f"first-half champion {year}"),
    ]
    for half, label in a_titles:
        if half is None:
            continue  # not decided yet: the seat waits for its champion
        if not half.holders:
            # Decided with nobody holding it (no one met the minimum): its seat goes to the
            # months, as a member holding both halves leaves one (T-05).
            seats_b += 1
            continue
        for holder in half.holders:
            if holder.member_id in taken:
                seats_b += 1  # a member holding both halves leaves a seat to B (T-05)
                continue
            runner = runners[holder.member_id]
            qualified.append(Entry(runner, label, in_tenths(holder.total_points)))
            taken.add(holder.member_id)
    by_month = sorted((runners[m] for m in champions if m not in taken), key=meijin_b_order)
    for runner in by_month[:seats_b]:
        assert runner.champion_month is not None and runner.best_month is not None
        won = f"{runner.champion_month:%Y-%m}"
        qualified.append(Entry(runner, f"monthly champion {won}", runner.best_month))
        taken.add(runner.member_id)
    missed = [r for r in by_month if r.member_id not in taken]
    if setting("meijin_substitutes") == "champions_first":
        others = _order(r for r in runners.values() if r.member_id not in taken and r not in missed)
        order = [Entry(r, "monthly champion not selected", r.best_month or 0) for r in missed]
        order += [Entry(r, "total points", r.points) for r in others]
    else:
        order = [Entry(r, "monthly champion not selected", r.points) for r in _order(missed)]
    ranking = sorted((r for r in runners.values() if r.best_month is not None), key=meijin_b_order)
    cutoff = None
    chosen_b = [e for e in qualified if e.reason.startswith("monthly champion")]
    monthly_seats_left = seats_b - len(chosen_b)
    if len(chosen_b) == seats_b and chosen_b:
        cutoff = chosen_b[-1].points
    return Race(
        "meijin",
        year,
        start,
        end,
        ranking,
        qualified,
        order[: setting("substitutes")],
        cutoff,
        notes={
            "monthly_seats_left": monthly_seats_left,
            "second_half": second_half is not None,
            "first_half": first_half is not None,
        },
    )


def _holders(*titles: Title | None) -> set[int]:
    return {h.member_id for t in titles if t is not None for h in t.holders}


RACES: Mapping[str, Any] = {"grand-champion": grand_champion_race, "meijin": meijin_race}
