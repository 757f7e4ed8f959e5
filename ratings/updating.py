"""The ratings follow the ledger (docs/ratings.md).

Games are rated per family (4- or 3-player) in the order ``(played_on, at, hanchan_id)``
(:class:`ratings.models.RatedGame`), from what counts (``scoring.ledger.counted_games`` and
``counted_results``; placement = the counted rank). When games change what counts
(:func:`follow`, run by the task :func:`ratings.tasks.ratings_follow`):

- a new counted game later than every rated game of its family is rated at once on the
  current ratings (incremental);
- a new counted game earlier than the latest rated one (a late confirmation of an older
  game), or a rated game whose counted result changed (a correction or a void confirmed), makes
  the family's ratings be replayed from the earliest such game: the history after it is
  deleted, every member's rating is taken back to where it stood before it, and the counted
  games from there on are rated again in order. Ratings are thus always what a rating of all
  counted games in order gives (:func:`rebuild`, ``manage.py rating_rebuild``).

One transaction per family, its :class:`ratings.models.RatingBook` row locked.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery

from ratings.model import Rating as ModelRating
from ratings.model import RatingModel
from ratings.models import Family, RatedGame, Rating, RatingBook, RatingStep
from scoring.ledger import counted_games, counted_results

# Bulk inserts in slices that SQLite's variable limit takes.
BATCH = 500


@dataclass(frozen=True, slots=True, order=True)
class Key:
    """Where a game stands in rating order."""

    played_on: datetime.date
    at: datetime.datetime
    hanchan_id: int


@dataclass(frozen=True, slots=True)
class _Counted:
    key: Key
    version: int
    family: int
    seats: tuple[tuple[int, int], ...]  # (member id, placement) in seat order


def follow(hanchan_ids: Sequence[int]) -> None:
    """Bring the ratings up to date with the games ``hanchan_ids``, whose counted result has
    changed (newly counted, corrected or voided). Games that do not count and were never rated
    change nothing."""
    ids = sorted(set(hanchan_ids))
    if not ids:
        return
    for family in Family.values:
        with transaction.atomic():
            _lock(family)
            # Read under the lock: a change committed since the task was enqueued is seen
            # here, and its own task finds nothing left to do.
            now = {pk: g for pk, g in _counted(ids=ids).items() if g.family == family}
            _follow_family(family, ids, now)


def rebuild(family: int | None = None) -> int:
    """Rate every counted game again from the start, for ``family`` (default: both). Returns
    the number of games rated."""
    total = 0
    for each in [family] if family is not None else Family.values:
        with transaction.atomic():
            _lock(each)
            total += _replay(each, None)
    return total


def _follow_family(family: int, ids: Sequence[int], now: dict[int, _Counted]) -> None:
    was = {
        g.hanchan_id: g
        for chunk in _chunks(ids)
        for g in RatedGame.objects.filter(hanchan_id__in=chunk, family=family)
    }
    changed = [
        _key(g) for pk, g in was.items() if pk not in now or now[pk].version != g.counted_version
    ]
    changed += [now[pk].key for pk, g in was.items() if pk in now and _key(g) != now[pk].key]
    new = sorted((game for pk, game in now.items() if pk not in was), key=lambda g: g.key)
    latest = (
        RatedGame.objects.filter(family=family).order_by("-played_on", "-at", "-hanchan_id").first()
    )
    if new and latest is not None and new[0].key < _key(latest):
        changed.append(new[0].key)
    if changed:
        _replay(family, min(changed))
    elif new:
        members = {m for g in new for m, _ in g.seats}
        current = {
            r.member_id: (ModelRating(r.mu, r.sigma), r.games)
            for r in Rating.objects.filter(family=family, member_id__in=members)
        }
        _store(family, _rate(RatingModel(), new, current), current, members)


def _replay(family: int, start: Key | None) -> int:
    """Delete the family's history from ``start`` on (all of it for None), take every member
    back to their rating before it, and rate the counted games from there again. Returns the
    number of games rated."""
    RatedGame.objects.filter(_from(start), family=family).delete()
    current: dict[int, tuple[ModelRating, int]] = {}
    if start is not None:
        # A member's last remaining step is their rating before ``start``.
        last = RatingStep.objects.filter(member_id=OuterRef("member_id"), family=family).order_by(
            "-games"
        )
        for row in Rating.objects.filter(family=family).annotate(
            then_mu=Subquery(last.values("mu")[:1]),
            then_sigma=Subquery(last.values("sigma")[:1]),
            then_games=Subquery(last.values("games")[:1]),
        ):
            if row.then_games is not None:
                current[row.member_id] = (ModelRating(row.then_mu, row.then_sigma), row.then_games)
    Rating.objects.filter(family=family).exclude(member_id__in=list(current)).delete()
    since = None if start is None else start.played_on
    games = sorted(
        (
            g
            for g in _counted(since=since).values()
            if g.family == family and (start is None or g.key >= start)
        ),
        key=lambda g: g.key,
    )
    rated = _rate(RatingModel(), games, current)
    _store(family, rated, current, set(current))
    return len(rated)


_Row = tuple[int, int, ModelRating, int]  # member, placement, rating after, games so far


def _rate(
    model: RatingModel, games: Sequence[_Counted], current: dict[int, tuple[ModelRating, int]]
) -> list[tuple[_Counted, list[_Row]]]:
    """Rate ``games`` in order on ``current`` (member id -> rating and games rated; updated in
    place). Returns each game rated with its seats' rows."""
    rated = []
    for game in games:
        members = [m for m, _ in game.seats]
        if len(set(members)) != len(members):
            continue  # one member in two seats: no order between them to learn from
        before = [current[m][0] if m in current else model.new() for m in members]
        after = model.rate(before, [p for _, p in game.seats])
        rows = []
        for (member, placement), rating in zip(game.seats, after, strict=True):
            games_so_far = (current[member][1] if member in current else 0) + 1
            current[member] = (rating, games_so_far)
            rows.append((member, placement, rating, games_so_far))
        rated.append((game, rows))
    return rated


def _store(
    family: int,
    rated: Sequence[tuple[_Counted, list[_Row]]],
    current: dict[int, tuple[ModelRating, int]],
    members: set[int],
) -> None:
    """Store the rated games, their steps and the ratings of ``members`` in ``current``."""
    RatedGame.objects.bulk_create(
        (
            RatedGame(
                hanchan_id=game.key.hanchan_id,
                family=family,
                played_on=game.key.played_on,
                at=game.key.at,
                counted_version=game.version,
            )
            for game, _ in rated
        ),
        batch_size=BATCH,
    )
    pks = dict(
        RatedGame.objects.filter(
            family=family, played_on__gte=rated[0][0].key.played_on
        ).values_list("hanchan_id", "pk")
        if rated
        else ()
    )
    RatingStep.objects.bulk_create(
        (
            RatingStep(
                game_id=pks[game.key.hanchan_id],
                member_id=member,
                family=family,
                played_on=game.key.played_on,
                placement=placement,
                mu=rating.mu,
                sigma=rating.sigma,
                games=games_so_far,
            )
            for game, rows in rated
            for member, placement, rating, games_so_far in rows
        ),
        batch_size=BATCH,
    )
    Rating.objects.bulk_create(
        [
            Rating(
                member_id=m,
                family=family,
                mu=current[m][0].mu,
                sigma=current[m][0].sigma,
                games=current[m][1],
            )
            for m in sorted(members)
            if m in current
        ],
        batch_size=BATCH,
        update_conflicts=True,
        unique_fields=["member", "family"],
        update_fields=["mu", "sigma", "games"],
    )


def _chunks(ids: Sequence[int]) -> list[Sequence[int]]:
    """``ids`` in slices a query's parameters take on every backend (SQLite's limit)."""
    return [ids[i : i + BATCH] for i in range(0, len(ids), BATCH)]


def _lock(family: int) -> None:
    RatingBook.objects.get_or_create(family=family)
    RatingBook.objects.select_for_update().get(family=family).save()


def _key(game: RatedGame) -> Key:
    return Key(game.played_on, game.at, game.hanchan_id)


def _from(start: Key | None) -> Q:
    """Rated games at or after ``start`` (all for None)."""
    if start is None:
        return Q()
    return (
        Q(played_on__gt=start.played_on)
        | Q(played_on=start.played_on, at__gt=start.at)
        | Q(played_on=start.played_on, at=start.at, hanchan_id__gte=start.hanchan_id)
    )


def _counted(
    *, ids: Sequence[int] | None = None, since: datetime.date | None = None
) -> dict[int, _Counted]:
    """The counted games ``ids`` (or all played on ``since`` or later; all for None), with
    their seats. Two queries (two per :data:`BATCH` ids)."""
    found: dict[int, tuple[datetime.date, datetime.datetime, int | None]] = {}
    seats: dict[int, list[tuple[int, int, int]]] = {}
    for chunk in [None] if ids is None else _chunks(ids):
        games = counted_games()
        results = counted_results()
        if chunk is not None:
            games, results = games.filter(pk__in=chunk), results.filter(hanchan_id__in=chunk)
        if since is not None:
            games = games.filter(played_on__gte=since)
            results = results.filter(played_on__gte=since)
        for pk, played_on, finished_at, created_at, version in games.values_list(
            "pk", "played_on", "finished_at", "created_at", "counted_version"
        ):
            found[pk] = (played_on, finished_at or created_at, version)
            seats[pk] = []
        for hanchan_id, seat, member_id, rank in results.values_list(
            "hanchan_id", "seat", "member_id", "rank"
        ):
            if hanchan_id in seats:
                seats[hanchan_id].append((seat, member_id, rank))
    return {
        pk: _Counted(
            key=Key(played_on, at, pk),
            version=version or 0,
            family=len(seats[pk]),
            seats=tuple((member, rank) for _, member, rank in sorted(seats[pk])),
        )
        for pk, (played_on, at, version) in found.items()
        if len(seats[pk]) in Family.values
    }


def counted_in_order(family: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The family's counted games in rating order, each as its members and their placements
    in seat order (the harness's real games, ``manage.py rating_eval``)."""
    games = sorted((g for g in _counted().values() if g.family == family), key=lambda g: g.key)
    return [
        (tuple(m for m, _ in g.seats), tuple(p for _, p in g.seats))
        for g in games
        if len({m for m, _ in g.seats}) == len(g.seats)
    ]
