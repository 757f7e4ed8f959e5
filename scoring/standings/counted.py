"""The counted results the standings read: which ruleset versions count, and the plain
aggregates over ``CountedSeat`` (scoring/models.py) that every table, title and player page
adds up. One query each, whatever the size of the history."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import (
    Q,
    QuerySet,
)

from clubsite.club_scope import current_club
from clubsite.models import Member
from scoring.ledger import (  # the roll-ups' figures, shared with the standings
    BEST_MASK,
    BEST_SHIFT,
    counted_results,
)
from scoring.ledger import TOTALS_ADDED as ADDED
from scoring.ledger import TOTALS_AGGREGATES as AGGREGATES
from scoring.ledger import TOTALS_MONTH_SUMS as MONTH_SUMS
from scoring.models import CountedSeat, MemberMonth, MemberYear, RulesetVersion


@dataclass(frozen=True, slots=True)
class Versions:
    """The stored ruleset versions whose games count: ``ruleset_ids`` asked for, version
    ``ids``, and per version its ruleset id and number of players; ``units``: the club's own
    units these versions settle besides points: ``"ep"`` where floating
    uma is kept in ep apart from points (seed 002 L10-24, rules-spec S-01), ``"chips"`` where
    the ruleset keeps a chip ledger (seed 003 L438-460, H-16)."""

    ruleset_ids: tuple[str, ...]
    ids: tuple[int, ...]
    ruleset_of: Mapping[int, str]
    players_of: Mapping[int, int]
    units: tuple[str, ...] = ()


def standard_keys() -> tuple[str, ...]:
    """What the current club's standard table counts: its standard rulesets' club games
    (``Club.standard_rulesets``), and the online games it lists in
    ``Club.online_in_standings`` (``"tenhou-4p@tenhou"``: Tenhou games under tenhou-4p). By
    default online games count only in their own filter."""
    club = current_club()
    return (*club.standard_rulesets, *club.online_in_standings)


def split_key(name: str) -> tuple[str, str]:
    """A standings key's ruleset id and online service (``""`` for club games):
    ``"tenhou-4p@tenhou"`` -> ``("tenhou-4p", "tenhou")``."""
    ruleset_id, _, service = name.partition("@")
    return ruleset_id, service


def counted_versions(ruleset_ids: Sequence[str] | None) -> Versions:
    """The versions of ``ruleset_ids`` (standings keys: a ruleset id for club games,
    ``"<ruleset id>@<service>"`` for online games; ``None``: :func:`standard_keys`). One
    query."""
    names = tuple(standard_keys() if ruleset_ids is None else ruleset_ids)
    wanted = {split_key(name) for name in names}
    ruleset_of: dict[int, str] = {}
    players_of: dict[int, int] = {}
    units: set[str] = set()
    for pk, ruleset_id, service, parameters in RulesetVersion.objects.filter(
        ruleset_id__in={ruleset_id for ruleset_id, _ in wanted}
    ).values_list("pk", "ruleset_id", "service", "parameters"):
        if (ruleset_id, service) in wanted:
            ruleset_of[pk] = ruleset_id
            players_of[pk] = int(parameters["players"])
            units.update(units_of(parameters))
    return Versions(
        names, tuple(ruleset_of), ruleset_of, players_of, tuple(u for u in UNITS if u in units)
    )


UNITS = ("ep", "chips")


def units_of(parameters: Mapping[str, Any]) -> set[str]:
    """The units besides points a ruleset version's ``parameters`` settle (see
    :class:`Versions`)."""
    units = set()
    if parameters.get("uma_floating") and not parameters.get("uma_ep_points"):
        units.add("ep")
    if parameters.get("chips"):
        units.add("chips")
    return units


def tournament_games(prefix: str = "") -> Q:
    """A filter for tournament games: a tournament's table is a one-to-one of its game
    (``tournaments.models.Table``, reverse name ``event_table``), named here as a path of
    the ORM, not imported, since scoring sits below the tournaments. ``prefix`` reaches the
    game, e.g. ``"hanchan__"`` from a counted seat."""
    return Q(**{f"{prefix}event_table__isnull": False})


def tournaments_counted_by_default() -> bool:
    """Whether the standings count tournament games unless the page says otherwise (the
    current club's ``tournaments_in_standings``; rules-spec §4.4 leaves it to the club)."""
    return bool(current_club().tournaments_in_standings)


def counted_seats(counted: Versions, start: date, end: date) -> QuerySet[CountedSeat]:
    """Counted results (the ledger's one read, :func:`scoring.ledger.counts.counted_results`)
    of games played from ``start`` to ``end`` under ``counted``; a guest's seat at the
    club's event (``CountedSeat.guest``: another club's member) is no standings' seat."""
    return counted_results().filter(
        played_on__range=(start, end), ruleset_version_id__in=list(counted.ids), guest=False
    )


def month_aligned(start: date, end: date) -> bool:
    """The period is whole months (a month, a half year, a year, all time), so the members'
    monthly totals add up to it."""
    if start.day != 1:
        return False
    return end == date.max or (end + timedelta(days=1)).day == 1


def aggregate_rows(
    counted: Versions, start: date, end: date, *, tournaments: bool = True
) -> list[dict[str, Any]]:
    """Per member, the figures of :data:`AGGREGATES` over the period. For whole months, the
    members' yearly totals for the whole years in it (a year, all time: one query) and their
    monthly totals for the months around them (a half year, a month: one query; a range
    with both: two), a few rows per member and year or month whatever the size of the
    history; else, or without the ``tournaments`` games (which the monthly totals hold
    too), one query over the counted results of the range."""
    if not tournaments or not month_aligned(start, end):
        seats = counted_seats(counted, start, end)
        if not tournaments:
            seats = seats.exclude(tournament_games("hanchan__"))
        return [dict(v) for v in seats.values("member_id").annotate(**AGGREGATES).order_by()]
    versions = list(counted.ids)
    first_year = start.year if start.month == 1 else start.year + 1
    last_year = end.year if (end.month, end.day) == (12, 31) else end.year - 1
    parts: list[Iterable[Mapping[str, Any]]] = []
    if first_year <= last_year:
        years = MemberYear.objects.filter(
            ruleset_version_id__in=versions,
            year__range=(date(first_year, 1, 1), date(last_year, 1, 1)),
        )
        parts.append(years.values("member_id").annotate(**MONTH_SUMS).order_by())
        around = Q(month__lt=date(first_year, 1, 1)) | Q(month__gt=date(last_year, 12, 31))
    else:
        around = Q()
    if first_year > last_year or start < date(first_year, 1, 1) or end > date(last_year, 12, 31):
        months = MemberMonth.objects.filter(
            around, ruleset_version_id__in=versions, month__range=(start, end)
        )
        parts.append(months.values("member_id").annotate(**MONTH_SUMS).order_by())
    if len(parts) == 1:
        return [dict(v) for v in parts[0]]
    merged: dict[int, dict[str, Any]] = {}
    for part in parts:
        for values in part:
            merged[values["member_id"]] = merge(merged.get(values["member_id"]), values)
    return list(merged.values())


def merge(into: dict[str, Any] | None, values: Mapping[str, Any]) -> dict[str, Any]:
    """Add one month's aggregate row to a member's running row (half years from months:
    totals and counts add up, the best game is the larger)."""
    if into is None:
        return dict(values)
    for name in ADDED:
        into[name] += values[name]
    into["best"] = max(into["best"], values["best"])
    return into


def decode_best(best: int) -> tuple[int, int]:
    """``(points, hanchan_id)`` of the best game from the encoded maximum."""
    return best >> BEST_SHIFT, BEST_MASK - (best & BEST_MASK)


def display_names(member_ids: Iterable[int]) -> dict[int, str]:
    """Display names by member id. One query."""
    return dict(Member.objects.filter(pk__in=list(member_ids)).values_list("pk", "display_name"))
