"""Each member's plain counts over a period and a ruleset family: the
contract of ``manage.py player_stats`` (docs/player-stats.md).

Which games count is the ledger's one read (:func:`scoring.ledger.counted_results`): games
waiting for confirmation, in play or voided count nowhere. The game-level figures (games,
placements, points) add up the counted results; the hand-level ones count the ``HandSeat``
facts of those games' hands, written by the ledger with each hand: no JSON is read and no
rule re-derived here. Three queries (results, hand facts, who fed whom) and one for names,
whatever the size of the history.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from clubsite.models import ONLINE_SERVICES, Member
from scoring.engine import available_rulesets, load_ruleset
from scoring.ledger import counted_results
from scoring.models import CountedSeat, HandSeat, RulesetVersion
from scoring.standings.counted import split_key, standard_keys
from scoring.standings.table import in_tenths


class BadArguments(ValueError):
    """A period or ruleset the figures cannot be asked for; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class Selection:
    """What the figures are asked for: standings ``keys``, the stored ruleset ``version_ids``
    they name, the family's number of ``players``, and the club-local dates (``None``: open).
    ``least_win``, ``least_ron``: the least win and ron those versions pay, in points (0:
    not known), the floors of the mean values' intervals
    (:func:`scoring.stats.families.family_selection`)."""

    keys: tuple[str, ...]
    version_ids: tuple[int, ...]
    players: int
    start: date | None = None
    end: date | None = None
    least_win: int = 0
    least_ron: int = 0


DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def club_date(text: str, option: str) -> date:
    """A club-local ``YYYY-MM-DD`` date. Raises :class:`BadArguments`."""
    try:
        if DATE.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise BadArguments(f"{option} {text!r}: a date is YYYY-MM-DD")


def selection(
    keys: Sequence[str] | None, start: date | None = None, end: date | None = None
) -> Selection:
    """The versions and family of the standings ``keys`` (a ruleset id, ``<id>@<service>``
    for online games; ``None`` or empty: the club's standard ones, as the standings count).

    Raises:
        BadArguments: an unknown ruleset or service, 3- and 4-player rulesets together, or
            ``start`` after ``end``.
    """
    if start is not None and end is not None and start > end:
        raise BadArguments(f"--from {start} is after --to {end}")
    names = tuple(dict.fromkeys(keys or standard_keys()))
    wanted = {split_key(name) for name in names}
    services = {code for code, _ in ONLINE_SERVICES}
    builtin = set(available_rulesets())
    stored: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for pk, ruleset_id, service, parameters in RulesetVersion.objects.filter(
        ruleset_id__in={ruleset_id for ruleset_id, _ in wanted}
    ).values_list("pk", "ruleset_id", "service", "parameters"):
        stored.setdefault((ruleset_id, service), []).append((pk, int(parameters["players"])))
    families: dict[int, list[str]] = {}
    for name in names:
        ruleset_id, service = split_key(name)
        if "@" in name and service not in services:
            raise BadArguments(f"--ruleset {name!r}: no online service {service!r}")
        versions = stored.get((ruleset_id, service), [])
        if ruleset_id not in builtin and not versions:
            raise BadArguments(f"--ruleset {name!r}: no such ruleset")
        players = {p for _, p in versions}
        if ruleset_id in builtin:
            players.add(load_ruleset(ruleset_id).players)
        for count in players:
            families.setdefault(count, []).append(name)
    if len(families) > 1:
        raise BadArguments(
            "--ruleset mixes 3- and 4-player rulesets "
            f"({', '.join(families[3])} / {', '.join(families[4])}): ask one family at a time"
        )
    ids = tuple(pk for key in sorted(wanted) for pk, _ in stored.get(key, []))
    return Selection(names, ids, next(iter(families)), start, end)


def counted_seats(chosen: Selection) -> QuerySet[CountedSeat]:
    """The counted results of the selection's games (the ledger's one read of what counts)."""
    seats = counted_results().filter(ruleset_version_id__in=chosen.version_ids)
    if chosen.start is not None:
        seats = seats.filter(played_on__gte=chosen.start)
    if chosen.end is not None:
        seats = seats.filter(played_on__lte=chosen.end)
    return seats


# The hand-level counts, over the HandSeat facts of counted games. A chombo hand is played
# again, so it is no hand of its own: hands, riichi and dealer hands leave it out, as
# CountedSeat does (scoring.ledger.confirmation.counted_seats). Annotated under other names
# (``figure_*``): an annotation named as a column would shadow it in the filters after it.
NOT_CHOMBO = ~Q(outcome="chombo")
HAND_COUNTS: dict[str, Any] = {
    "hands": Count("pk", filter=NOT_CHOMBO),
    "wins": Count("pk", filter=Q(won=True)),
    "tsumo_wins": Count("pk", filter=Q(tsumo=True)),
    "deal_ins": Count("pk", filter=Q(dealt_in=True)),
    "riichi": Count("pk", filter=Q(riichi=True) & NOT_CHOMBO),
    "riichi_wins": Count("pk", filter=Q(riichi=True, won=True)),
    "dealer_hands": Count("pk", filter=Q(dealer=True) & NOT_CHOMBO),
    "dealer_wins": Count("pk", filter=Q(dealer=True, won=True)),
    "win_value": Sum("win_value"),
    "deal_in_value": Sum("deal_in_value"),
    "draws": Count("pk", filter=Q(outcome="draw")),
    "draws_tenpai": Count("pk", filter=Q(outcome="draw", tenpai=True)),
    "chombo": Count("pk", filter=Q(chombo=True)),
}


def player_counts(chosen: Selection) -> list[dict[str, Any]]:
    """One object per member with a counted game in the selection, sorted by display name:
    the keys of docs/player-stats.md, every figure an integer (``placements`` a list of
    ``chosen.players`` counts, ``fed`` winner's name -> deal-ins to them)."""
    seats = counted_seats(chosen)
    places = {
        f"place_{place}": Count("pk", filter=Q(rank=place))
        for place in range(1, chosen.players + 1)
    }
    games: dict[int, Mapping[str, Any]] = {
        row["member_id"]: row
        for row in seats.values("member_id")
        .annotate(games=Count("pk"), total_points=Sum("points"), **places)
        .order_by()
    }
    if not games:
        return []
    facts = HandSeat.objects.filter(hanchan_id__in=seats.values("hanchan_id"))
    hands: dict[int, Mapping[str, Any]] = {
        row["member_id"]: row
        for row in facts.values("member_id")
        .annotate(**{f"figure_{key}": figure for key, figure in HAND_COUNTS.items()})
        .order_by()
    }
    fed: dict[int, dict[int, int]] = {}
    for discarder, winner, count in (
        facts.filter(fed_by__isnull=False)
        .values("fed_by_id", "member_id")
        .annotate(deal_ins=Count("pk"))
        .values_list("fed_by_id", "member_id", "deal_ins")
        .order_by()
    ):
        fed.setdefault(discarder, {})[winner] = count
    names = dict(Member.objects.filter(pk__in=games).values_list("pk", "display_name"))
    rows = []
    for member_id, game in games.items():
        hand = hands.get(member_id, {})
        rows.append(
            {
                "member": names[member_id],
                "games": game["games"],
                "placements": [game[f"place_{p}"] for p in range(1, chosen.players + 1)],
                "points_x10": in_tenths(game["total_points"] or 0),
                **{key: hand.get(f"figure_{key}") or 0 for key in HAND_COUNTS},
                "fed": {
                    names[winner]: count
                    for winner, count in sorted(
                        fed.get(member_id, {}).items(), key=lambda item: names[item[0]]
                    )
                },
            }
        )
    return sorted(rows, key=lambda row: row["member"])
