"""The counted games of a period, as records for a what-if: the one
module of :mod:`scoring.whatif` that reads the database, through the ledger's façade for
what counts (:func:`scoring.ledger.counted_games`, :func:`~scoring.ledger.counted_results`,
:func:`~scoring.ledger.waiting_games`).

Each game's record is the ledger's export (:func:`scoring.ledger.hanchan_record`), built here
from the stored hands' ``data`` as rows rather than model objects: a season is a thousand
games of a dozen hands each, and the objects would take as long as the replays. The
pinned ruleset version's differences from today's built-in ruleset go into ``overrides``
with the game's own, as the export does; ``tests/test_whatif.py`` checks the two records
are equal for every game of a seeded history.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from scoring.engine import load_ruleset
from scoring.ledger import counted_games, counted_results, waiting_games
from scoring.models import HandEntry, RulesetVersion, Seat
from scoring.standings import tournament_games
from scoring.whatif.games import Game, Result

# Descriptive parameters of a ruleset version, never an override (as the ledger's export).
_NAMES = ("id", "name", "sources")


def period_games(
    version_ids: Sequence[int], start: date, end: date, *, tournaments: bool = True
) -> list[Game]:
    """The counted games played from ``start`` to ``end`` (club-local dates, inclusive)
    under the stored ruleset versions ``version_ids``, oldest first, each with its record
    and its counted result; ``tournaments=False`` leaves tournament games out (as the
    standings' filter). A game whose correction waits for confirmation comes with
    ``pending`` set: its hands are no longer those of its counted result. Seven queries
    whatever the number of games (games, waiting, final scores, versions, seats, hands,
    counted results)."""
    games = counted_games().filter(
        played_on__range=(start, end), ruleset_version_id__in=list(version_ids)
    )
    if not tournaments:
        games = games.exclude(tournament_games())
    chosen = games.values("pk")
    rows = list(
        games.order_by("played_on", "pk").values_list(
            "pk", "played_on", "ruleset_version_id", "overrides", "venue", "table_name"
        )
    )
    waiting = set(waiting_games().filter(pk__in=chosen).values_list("pk", flat=True))
    final_scores = dict(
        counted_games()
        .filter(pk__in=chosen, final_scores_only=True)
        .values_list("pk", "state__final_scores")
    )
    versions = _versions({row[2] for row in rows})
    players: dict[int, list[tuple[int, int, str]]] = {row[0]: [] for row in rows}
    for hanchan_id, index, member_id, name in Seat.objects.filter(
        hanchan_id__in=chosen
    ).values_list("hanchan_id", "index", "member_id", "member__display_name"):
        players[hanchan_id].append((index, member_id, name))
    hands: dict[int, list[tuple[int, Any]]] = {row[0]: [] for row in rows}
    for hanchan_id, sequence, data in HandEntry.objects.filter(hanchan_id__in=chosen).values_list(
        "hanchan_id", "sequence", "data"
    ):
        hands[hanchan_id].append((sequence, data))
    stored: dict[int, dict[int, tuple[int, int, int]]] = {row[0]: {} for row in rows}
    for hanchan_id, seat, points, rank, final_score in (
        counted_results()
        .filter(hanchan_id__in=chosen)
        .values_list("hanchan_id", "seat", "points", "rank", "final_score")
    ):
        stored[hanchan_id][seat] = (points, rank, final_score)
    out = []
    for pk, played_on, version_id, overrides, venue, table_name in rows:
        ruleset_id, pinned = versions[version_id]
        seats = sorted(players[pk])
        record: dict[str, Any] = {
            "format": "club-game/1",
            "ruleset": ruleset_id,
            "overrides": {**pinned, **(overrides or {})},
            "players": [name for _, _, name in seats],
            "hands": [data for _, data in sorted(hands[pk], key=lambda hand: hand[0])],
            "date": played_on.isoformat(),
            "venue": venue,
            "table": table_name,
        }
        if pk in final_scores:
            record["final_scores"] = final_scores[pk]
        counted = [stored[pk][index] for index, _, _ in seats]
        out.append(
            Game(
                hanchan_id=pk,
                played_on=played_on,
                record=record,
                members=tuple(member_id for _, member_id, _ in seats),
                stored=Result(
                    points=tuple(c[0] for c in counted),
                    ranks=tuple(c[1] for c in counted),
                    scores=tuple(c[2] for c in counted),
                ),
                pending=pk in waiting,
            )
        )
    return out


def _versions(ids: set[int]) -> dict[int, tuple[str, dict[str, Any]]]:
    """Per stored ruleset version: its ruleset id, and the parameters where it differs
    from today's built-in ruleset (the overrides that replay it as it was)."""
    out = {}
    for pk, ruleset_id, parameters in RulesetVersion.objects.filter(pk__in=ids).values_list(
        "pk", "ruleset_id", "parameters"
    ):
        current = load_ruleset(ruleset_id).parameters()
        out[pk] = (
            ruleset_id,
            {
                name: value
                for name, value in parameters.items()
                if current.get(name) != value and name not in _NAMES
            },
        )
    return out
