"""The counted games of a period, as records for a what-if (issue 23 item 4): the one
module of :mod:`scoring.whatif` that reads the database, through the ledger's façade only
(:func:`scoring.ledger.counted_games`, :func:`~scoring.ledger.counted_results`,
:func:`~scoring.ledger.hanchan_record`, :func:`~scoring.ledger.is_waiting`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db.models import Prefetch

from scoring.ledger import counted_games, counted_results, hanchan_record, is_waiting
from scoring.models import HandEntry, Seat
from scoring.standings import tournament_games
from scoring.whatif.games import Game, Result


def period_games(
    version_ids: Sequence[int], start: date, end: date, *, tournaments: bool = True
) -> list[Game]:
    """The counted games played from ``start`` to ``end`` (club-local dates, inclusive)
    under the stored ruleset versions ``version_ids``, oldest first, each with its record
    and its counted result; ``tournaments=False`` leaves tournament games out (as the
    standings' filter). A game whose correction waits for confirmation comes with
    ``pending`` set: its hands are no longer those of its counted result. Four queries
    whatever the number of games (games, seats, hands, counted results)."""
    games = (
        counted_games()
        .filter(played_on__range=(start, end), ruleset_version_id__in=list(version_ids))
        .select_related("ruleset_version")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("member").only(
                    "hanchan_id", "index", "member_id", "member__display_name"
                ),
            ),
            # A hand's entry as made is all a record holds (not its result, its state before).
            Prefetch("hands", queryset=HandEntry.objects.only("hanchan_id", "sequence", "data")),
        )
        .order_by("played_on", "pk")
    )
    if not tournaments:
        games = games.exclude(tournament_games())
    hanchans = list(games)
    stored: dict[int, dict[int, tuple[int, int, int]]] = {h.pk: {} for h in hanchans}
    for hanchan_id, seat, points, rank, final_score in counted_results().filter(
        hanchan_id__in=list(stored)
    ).values_list("hanchan_id", "seat", "points", "rank", "final_score"):
        stored[hanchan_id][seat] = (points, rank, final_score)
    out = []
    for hanchan in hanchans:
        seats = sorted(hanchan.seats.all(), key=lambda s: s.index)
        counted = [stored[hanchan.pk][seat.index] for seat in seats]
        out.append(
            Game(
                hanchan_id=hanchan.pk,
                played_on=hanchan.played_on,
                record=hanchan_record(hanchan),
                members=tuple(seat.member_id for seat in seats),
                stored=Result(
                    points=tuple(c[0] for c in counted),
                    ranks=tuple(c[1] for c in counted),
                    scores=tuple(c[2] for c in counted),
                ),
                pending=is_waiting(hanchan),
            )
        )
    return out
