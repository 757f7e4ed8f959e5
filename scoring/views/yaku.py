"""The yaku records page: the yakuman hall of fame, with the hands' tiles
drawn where the win carries them, and how often the club wins each yaku."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubsite.fields import is_key
from clubsite.models import Member
from scoring.rulebook.yaku_labels import yaku_label
from scoring.standings.yaku import YakumanRecord, yaku_counts, yakuman_records
from scoring.tiles.notation import SUITS, TileError, tile_types

HONOURS = ("東", "南", "西", "北", "白", "發", "中")
SUIT_MARKS = {"m": "萬", "p": "筒", "s": "索"}


@dataclass(frozen=True)
class TileChip:
    """One tile as drawn: its ``face`` (number or honour), ``suit`` mark and CSS class."""

    face: str
    suit: str
    css: str


def tile_chips(text: str) -> list[TileChip]:
    """mpsz as tiles to draw: ``"05m"`` -> red 5 萬, 5 萬; honours by their kanji, the
    白ポッチ (``0z``, 004 L39) as 白 with a dot."""
    try:
        types = tile_types(text)
    except TileError:
        return []
    chips = []
    for tile_type, red in types:
        suit = SUITS[tile_type // 9]
        if suit == "z":
            face = HONOURS[tile_type - 27] + ("•" if red else "")
            chips.append(TileChip(face, "", "tile honour"))
        else:
            css = f"tile suit-{suit}" + (" red" if red else "")
            chips.append(TileChip(str(tile_type % 9 + 1), SUIT_MARKS[suit], css))
    return chips


@dataclass(frozen=True)
class YakumanLine:
    """A yakuman hall-of-fame row: the record, the winner's name(s), and the tiles drawn
    (concealed hand, each call, the winning tile) as tile chips."""

    record: YakumanRecord
    names: str
    hand: list[TileChip]
    melds: list[list[TileChip]]
    win_tile: list[TileChip]


def yakuman_line(record: YakumanRecord) -> YakumanLine:
    """The record as drawn: the closed tiles without the winning tile, the calls, then the
    winning tile apart (the record's ``hand`` includes it)."""
    tiles: dict[str, Any] = record.tiles or {}
    hand = tile_chips(tiles.get("hand", ""))
    win_tile = tile_chips(tiles.get("win_tile", ""))
    if win_tile and win_tile[0] in hand:
        hand.remove(win_tile[0])
    return YakumanLine(
        record=record,
        names=" · ".join(yaku_label(name) for name in record.names),
        hand=hand,
        melds=[tile_chips(m["tiles"]) for m in tiles.get("melds", [])],
        win_tile=win_tile,
    )


def yaku_page(request: HttpRequest) -> HttpResponse:
    """The club's yaku records, or one member's (``?member=<id>``)."""
    member = None
    raw = request.GET.get("member", "")
    if is_key(raw):
        member = Member.objects.filter(pk=int(raw)).first()
    member_id = member.pk if member is not None else None
    wins, counts = yaku_counts(member_id)
    context = {
        "member": member,
        "yakuman": [yakuman_line(r) for r in yakuman_records(member_id=member_id)],
        "wins": wins,
        "counts": [
            {"name": yaku_label(name), "wins": n, "share": f"{100 * n / wins:.1f}%"}
            for name, n in counts
        ]
        if wins
        else [],
    }
    return render(request, "scoring/yaku.html", context)
