"""Yaku records: the yakuman hall of fame and how often each yaku is won,
for the club and for a member, from the ledger's ``WinYaku`` facts of games that count (the
ledger's one read, :func:`scoring.ledger.counts.counted_yaku`). Hands
are counted when their win carries its yaku (imported online games, hands entered by their
tiles); a yakuman entered as a limit counts as "yakuman"."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, QuerySet

from clubsite.models import Member
from scoring.ledger import counted_yaku
from scoring.models import WinYaku

NOT_YAKU = ("dora", "aka_dora", "ura_dora")


@dataclass(frozen=True, slots=True)
class YakumanRecord:
    """One yakuman win: when, who, which yakuman (ids), the game, the hand's tiles (the
    record's ``tiles``, or ``None`` when entered without them)."""

    played_on: date
    member_id: int
    member_name: str
    names: tuple[str, ...]
    hanchan_id: int
    tiles: dict[str, Any] | None


def yakuman_records(limit: int = 100, *, member_id: int | None = None) -> list[YakumanRecord]:
    """The latest ``limit`` yakuman wins (of one member, if given; of the club's own members
    otherwise: a guest of an event between clubs is another club's), newest first. One
    query."""
    found = counted_yaku().filter(yakuman=True)
    found = found.filter(member_id=member_id) if member_id is not None else _own(found)
    rows = list(
        found.select_related("hanchan", "member", "hand").order_by(
            "-hanchan__played_on", "-hand_id", "name"
        )[: limit * 4]
    )
    records: dict[tuple[int, int], YakumanRecord] = {}
    for row in rows:
        key = (row.hand_id, row.member_id)
        if key in records:
            old = records[key]
            records[key] = YakumanRecord(
                old.played_on, old.member_id, old.member_name, (*old.names, row.name),
                old.hanchan_id, old.tiles,
            )  # fmt: skip
            continue
        if len(records) == limit:
            break
        records[key] = YakumanRecord(
            played_on=row.hanchan.played_on,
            member_id=row.member_id,
            member_name=row.member.display_name,
            names=(row.name,),
            hanchan_id=row.hanchan_id,
            tiles=_tiles_of(row.hand.data, row.seat),
        )
    return list(records.values())


def _own(rows: QuerySet[WinYaku]) -> QuerySet[WinYaku]:
    """``rows`` of the club's own members: a guest's wins at an event between clubs are their
    own club's figures, not the host's (docs/clubs.md, "Events between clubs")."""
    return rows.exclude(member__role=Member.Role.GUEST)


def _tiles_of(data: dict[str, Any], seat: int) -> dict[str, Any] | None:
    for win in data.get("wins", []):
        if win.get("winner") == seat and "tiles" in win:
            tiles: dict[str, Any] = win["tiles"]
            return tiles
    return None


def yaku_counts(member_id: int | None = None) -> tuple[int, list[tuple[str, int]]]:
    """``(wins with their yaku, [(yaku id, wins with it), ...])``, most frequent first, for
    the club (its own members) or one member. Dora, red fives and ura dora are not yaku. Two
    queries."""
    rows = counted_yaku().exclude(name__in=NOT_YAKU)
    rows = rows.filter(member_id=member_id) if member_id is not None else _own(rows)
    wins = rows.values("hand_id", "member_id").distinct().count()
    counts = [
        (row["name"], row["wins"])
        for row in rows.values("name").annotate(wins=Count("id")).order_by("-wins", "name")
    ]
    return wins, counts
