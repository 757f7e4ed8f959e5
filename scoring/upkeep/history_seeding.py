"""A synthetic club history for development and benchmarks (``manage.py seed_history``).

Years of club nights are made of random but legal games
(:func:`scoring.upkeep.sample_games.sample_hands`) stored through
:func:`scoring.ledger.hanchans_import_bulk`: the ledger's own import path
(:func:`scoring.ledger.prepare_import`, then its writer), a whole night at a time with a few
bulk inserts instead of a dozen queries per game. Voided games go through
:func:`scoring.ledger.hanchan_void`. Everything is drawn from one seeded ``random.Random``:
the same arguments on the same database give the same history.
"""

from __future__ import annotations

import datetime
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction

from clubsite.dates import club_today
from clubsite.members import NewMember, members_create_many
from clubsite.models import Member
from scoring.ledger import GameToImport, hanchan_void, hanchans_import_bulk
from scoring.models import RulesetVersion
from scoring.upkeep.sample_games import sample_hands

# -- the synthetic club -------------------------------------------------------------------------

# (family name, reading) and (given name, reading): common Japanese names.
FAMILY_NAMES = [
    ("佐藤", "さとう"), ("鈴木", "すずき"), ("高橋", "たかはし"), ("田中", "たなか"),
    ("伊藤", "いとう"), ("渡辺", "わたなべ"), ("山本", "やまもと"), ("中村", "なかむら"),
    ("小林", "こばやし"), ("加藤", "かとう"), ("吉田", "よしだ"), ("山田", "やまだ"),
    ("佐々木", "ささき"), ("山口", "やまぐち"), ("松本", "まつもと"), ("井上", "いのうえ"),
    ("木村", "きむら"), ("林", "はやし"), ("斎藤", "さいとう"), ("清水", "しみず"),
    ("山崎", "やまざき"), ("森", "もり"), ("池田", "いけだ"), ("橋本", "はしもと"),
    ("阿部", "あべ"), ("石川", "いしかわ"), ("山下", "やました"), ("中島", "なかじま"),
    ("石井", "いしい"), ("小川", "おがわ"), ("前田", "まえだ"), ("岡田", "おかだ"),
    ("長谷川", "はせがわ"), ("藤田", "ふじた"), ("後藤", "ごとう"), ("近藤", "こんどう"),
    ("村上", "むらかみ"), ("遠藤", "えんどう"), ("青木", "あおき"), ("坂本", "さかもと"),
    ("斉藤", "さいとう"), ("福田", "ふくだ"), ("太田", "おおた"), ("西村", "にしむら"),
    ("藤井", "ふじい"), ("金子", "かねこ"), ("岡本", "おかもと"), ("藤原", "ふじわら"),
]  # fmt: skip
GIVEN_NAMES = [
    ("健一", "けんいち"), ("誠", "まこと"), ("大輔", "だいすけ"), ("翔太", "しょうた"),
    ("拓也", "たくや"), ("直樹", "なおき"), ("浩二", "こうじ"), ("隆", "たかし"),
    ("亮", "りょう"), ("剛", "つよし"), ("修", "おさむ"), ("学", "まなぶ"),
    ("和也", "かずや"), ("智之", "ともゆき"), ("雄一", "ゆういち"), ("哲也", "てつや"),
    ("茂", "しげる"), ("進", "すすむ"), ("達也", "たつや"), ("悠斗", "ゆうと"),
    ("陽子", "ようこ"), ("恵子", "けいこ"), ("由美", "ゆみ"), ("真由美", "まゆみ"),
    ("美穂", "みほ"), ("麻衣", "まい"), ("彩", "あや"), ("千尋", "ちひろ"),
    ("直美", "なおみ"), ("裕子", "ゆうこ"), ("愛", "あい"), ("さくら", "さくら"),
]  # fmt: skip
VENUES = ["ビック", "ビック", "ビック", "麻雀クラブJUN", "さわやか麻雀"]
# Club nights: Wednesdays and Saturdays, and Fridays every other week (2.5 a week).
CLUB_WEEKDAYS = (2, 5)
EXTRA_WEEKDAY = 4
# Rulesets of the tables: mostly the club's standard, now and then another.
FOUR_PLAYER_RULESETS = [
    ("makura-1.5", 88),
    ("makura-1.3", 4),
    ("tenhou-4p", 5),
    ("home-nashinashi", 3),
]
THREE_PLAYER_RULESETS = [("sanma-float", 5), ("fuji-sanma", 3), ("tenhou-3p", 2)]
# How likely a member is to come on a given night: a few regulars, many occasional players.
ATTENDANCE = [0.05, 0.1, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6]
VOID_RATE = 0.005


@dataclass
class SeedSummary:
    """What :func:`seed_history` made."""

    members: int = 0
    nights: int = 0
    hanchans: int = 0
    voided: int = 0
    hands: int = 0
    by_ruleset: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True, slots=True)
class _Regular:
    member: Member
    joined: datetime.date
    left: datetime.date
    attendance: float


def seed_history(
    *,
    years: int,
    members: int,
    seed: int = 1,
    games_per_night: int = 3,
    end: datetime.date | None = None,
    progress: Callable[[str], None] | None = None,
) -> SeedSummary:
    """Create ``members`` members and ``years`` years of club nights ending on ``end``.

    Club nights fall on Wednesdays and Saturdays, and every other Friday. Each member has a
    join date (most from the start), perhaps a leaving date, and a chance of coming on a
    night; those who come are drawn into tables of four (three left over make a 3-player
    table) ``games_per_night`` times, and each table plays one hanchan per round: mostly under
    makura-1.5, sometimes under another ruleset; about one game in 200 is voided.

    Args:
        end: the last day (default: today where the club is).
        progress: called with a line of text after each year.

    Returns:
        A :class:`SeedSummary`. One transaction per club night.

    Raises:
        ValueError: ``years``, ``members`` or ``games_per_night`` below 1, or fewer than 4
            members.
    """
    if years < 1 or games_per_night < 1:
        raise ValueError("years and games per night must be at least 1")
    if members < 4:
        raise ValueError("a club needs at least 4 members")
    rng = random.Random(seed)
    last = end if end is not None else club_today()
    first = _years_before(last, years) + datetime.timedelta(days=1)
    summary = SeedSummary()
    club = _make_members(rng, members, seed, first, last)
    summary.members = len(club)
    versions: dict[str, RulesetVersion] = {}

    night = first
    nights_before = games_before = 0
    while night <= last:
        if _is_club_night(night):
            present = [
                r.member
                for r in club
                if r.joined <= night <= r.left and rng.random() < r.attendance
            ]
            _club_night(rng, night, present, games_per_night, summary, versions)
        following = night + datetime.timedelta(days=1)
        if progress is not None and (following.year != night.year or following > last):
            progress(
                f"{night.year}: {summary.nights - nights_before} club nights, "
                f"{summary.hanchans - games_before:,} hanchans"
            )
            nights_before, games_before = summary.nights, summary.hanchans
        night = following
    return summary


def _years_before(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)


def _is_club_night(day: datetime.date) -> bool:
    weekday = day.weekday()
    return weekday in CLUB_WEEKDAYS or (
        weekday == EXTRA_WEEKDAY and day.isocalendar().week % 2 == 0
    )


def _make_members(
    rng: random.Random, count: int, seed: int, first: datetime.date, last: datetime.date
) -> list[_Regular]:
    """``count`` new members with unused Japanese names and accounts with no password."""
    taken = set(Member.objects.values_list("display_name", flat=True))
    names = [(f, g) for f in FAMILY_NAMES for g in GIVEN_NAMES]
    rng.shuffle(names)
    chosen = []
    for (family, family_kana), (given, given_kana) in names:
        name = f"{family} {given}"
        if name not in taken:
            chosen.append((name, f"{family_kana} {given_kana}"))
        if len(chosen) == count:
            break
    else:
        raise ValueError(f"not enough unused names for {count} members")
    user_model = get_user_model()
    prefix = f"history-{seed}-"
    existing = set(
        user_model.objects.filter(username__startswith=prefix).values_list("username", flat=True)
    )
    numbers = (n for n in range(1, 10**6) if f"{prefix}{n:04d}" not in existing)
    created = members_create_many(
        new=[
            NewMember(username=f"{prefix}{next(numbers):04d}", display_name=name, furigana=kana)
            for name, kana in chosen
        ]
    )
    span = (last - first).days
    club = []
    for member in created:
        # Two thirds are there from the start; the others join later. One in five leaves.
        joined = first
        if rng.random() > 2 / 3:
            joined = first + datetime.timedelta(days=rng.randrange(max(span, 1)))
        left = last
        if rng.random() < 0.2:
            left = joined + datetime.timedelta(days=rng.randrange(max((last - joined).days, 1)))
        club.append(_Regular(member, joined, left, rng.choice(ATTENDANCE)))
    return club


def _weighted(rng: random.Random, choices: Sequence[tuple[str, int]]) -> str:
    return rng.choices([c for c, _w in choices], weights=[w for _c, w in choices])[0]


def _club_night(
    rng: random.Random,
    night: datetime.date,
    present: list[Member],
    rounds: int,
    summary: SeedSummary,
    versions: dict[str, RulesetVersion],
) -> None:
    if len(present) < 3:
        return
    venue = rng.choice(VENUES)
    games = []
    for _round in range(rounds):
        rng.shuffle(present)
        tables = [present[i : i + 4] for i in range(0, len(present) - 3, 4)]
        if len(present) % 4 == 3:
            tables.append(present[-3:])
        for number, players in enumerate(tables):
            pool = FOUR_PLAYER_RULESETS if len(players) == 4 else THREE_PLAYER_RULESETS
            ruleset_id = _weighted(rng, pool)
            record = {
                "format": "club-game/1",
                "ruleset": ruleset_id,
                "players": [m.display_name for m in players],
                "hands": sample_hands(rng, ruleset_id),
                "venue": venue,
                "table": chr(ord("A") + number),
            }
            games.append(
                GameToImport(
                    record=record,
                    members_by_name={m.display_name: m for m in players},
                    played_on=night,
                    by=players[0],
                )
            )
    voids = [rng.random() < VOID_RATE for _ in games]
    with transaction.atomic():
        hanchans = hanchans_import_bulk(games, versions=versions)
        for hanchan, void in zip(hanchans, voids, strict=True):
            if void:
                hanchan_void(hanchan_id=hanchan.pk, expected_version=hanchan.version)
    summary.nights += 1
    summary.hanchans += len(games)
    summary.voided += sum(voids)
    summary.hands += sum(len(g.record["hands"]) for g in games)
    summary.by_ruleset.update(g.record["ruleset"] for g in games)
