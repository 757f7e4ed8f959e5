"""``python manage.py load_demo_clubs``: the seeds' five clubs on one site, for ``make run``
(skipped if any club has members).

The site's own club (``CLUB_SLUG``, made by the migration) becomes the Makura club of seeds
000/001, filled as ``load_demo`` fills a club (its members, its meetups) but with games of
its own rules only; the others are made by ``club_create``: the 3-player club of seed 002
(ruleset ``sanma-float``), the home game of seed 003 (``home-nashinashi``) and the Shinbashi
FUJI Club of seed 004 (``fuji-sanma``). Some people belong to two clubs: one login, a
membership per club, a display name per club (``clubsite.members.membership_create``)."""

from __future__ import annotations

import random
from argparse import ArgumentParser
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from clubsite.club_model import Club
from clubsite.club_scope import club_scope, only_club
from clubsite.club_services import club_create
from clubsite.members import member_create, membership_create
from clubsite.models import Member
from meetings.management.commands import load_demo
from meetings.management.commands.load_demo import DEMO_PASSWORD, demo_games_import
from scoring.models import Hanchan

# The Makura club's games (load_demo.DEMO_GAMES' shape): its own rules only, two older games
# under v1.3 (seed 000) before v1.5 (seed 001). Six days ago seats 0-3 played the game of the
# held meetup (load_demo.DEMO_HELD); today's game is in play.
MAKURA_GAMES: list[tuple[int, str, tuple[int, ...], int | None]] = [
    (20, "makura-1.3", (2, 6, 10, 11), None),
    (13, "makura-1.3", (1, 5, 8, 11), None),
    (6, "makura-1.5", (0, 1, 2, 3), None),
    (6, "makura-1.5", (4, 5, 6, 7), None),
    (3, "makura-1.5", (8, 9, 10, 11), None),
    (0, "makura-1.5", (0, 3, 6, 9), 5),
]


# The Makura club's public page: its keywords, as its public home page gave them (seed 001's
# closing lines), and every section shown, with the join form (seed 001's join address).
MAKURA_PUBLIC_TEXT = """札幌の麻雀サークルです。地下鉄麻生駅の近くで、平日の夜に集まっています。

枕倶楽部の楽しい麻雀キーワード
■和気藹々 ■雑談とジョーク ■ルールとマナーは厳格に ■勝負は真剣に

入会のお申し込み・お問い合わせは、下のフォームからどうぞ。"""


@dataclass(frozen=True)
class DemoClub:
    """A demo club besides Makura: ``members`` are (login, display name here, furigana,
    steward?), a login another club has already joining as the same person; ``games`` are
    (days ago, seats as indexes into ``members``, hands before the game stops or None)."""

    slug: str
    name: str
    ruleset: str
    venue: str
    members: tuple[tuple[str, str, str, bool], ...]
    games: tuple[tuple[int, tuple[int, ...], int | None], ...]


MAKURA_NAME = "枕倶楽部"  # seeds 000/001's headers
OTHER_CLUBS = (
    # Seed 002 names no club: its rules' own words, a 3-player club.
    DemoClub(
        slug="sanma",
        name="三人麻雀クラブ",
        ruleset="sanma-float",
        venue="雀荘",
        members=(
            ("tanaka", "田中", "たなか", True),
            ("baba", "ババ", "ばば", False),  # Makura's 馬場
            ("ueda", "上田", "うえだ", False),
            ("watanabe", "渡辺", "わたなべ", False),
            ("yamada", "山田", "やまだ", False),
            ("yoshida", "吉田", "よしだ", False),
        ),
        games=(
            (9, (0, 1, 2), None),
            (9, (3, 4, 5), None),
            (2, (0, 3, 5), None),
            (0, (1, 2, 4), 4),
        ),
    ),
    # Seed 003: a home game among friends, once or twice a month at the host's table.
    DemoClub(
        slug="home",
        name="自宅麻雀",
        ruleset="home-nashinashi",
        venue="自宅",
        members=(
            ("nakamura", "中村", "なかむら", True),
            ("aoki", "青木さん", "あおき", False),  # Makura's steward 青木
            ("kanda", "神田くん", "かんだ", False),  # Makura's 神田
            ("ono", "小野", "おの", False),
            ("sakai", "酒井", "さかい", False),
        ),
        games=(
            (14, (0, 1, 2, 3), None),
            (14, (0, 1, 3, 4), None),
            (0, (0, 2, 3, 4), 6),
        ),
    ),
    # Seed 004's header: 新橋 FUJIクラブ.
    DemoClub(
        slug="fuji",
        name="新橋 FUJIクラブ",
        ruleset="fuji-sanma",
        venue="新橋 FUJIクラブ",
        members=(
            ("kimura", "木村", "きむら", True),
            ("saito", "斎藤", "さいとう", False),
            ("shimizu", "清水", "しみず", False),
            ("tanaka", "田中", "たなか", False),  # the 3-player club's steward too
            ("hayashi", "林", "はやし", False),
            ("mori", "森", "もり", False),
        ),
        games=(
            (5, (0, 1, 2), None),
            (5, (3, 4, 5), None),
            (1, (0, 3, 4), None),
            (0, (1, 2, 5), 3),
        ),
    ),
)


class Command(BaseCommand):
    help = (
        "Create the seeds' five demo clubs on one site: the site's club becomes the Makura "
        "club (load_demo's members and meetups, its own rules' games), and a 3-player club "
        "(slug sanma), a home game (home) and the Shinbashi FUJI Club (fuji) are added, each "
        f"with members, games and one game in play. Password {DEMO_PASSWORD} for every "
        "login; aoki (Makura's steward) also plays in the home game. Does nothing if any "
        "club has members."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="load the demo clubs even with DEBUG off (never on a real club's database)",
        )
        parser.add_argument(
            "--show-emails",
            action="store_true",
            help="send the Makura meetups' notice e-mails through the configured mailer",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off: this looks like a real club's database, and the demo creates a "
                "steward with a published password. Use --force if it is a demo server."
            )
        if Member.objects.with_scopes_disabled().exists():
            self.stdout.write("Members exist already: no demo clubs loaded.")
            return
        quiet = override_settings(
            MAILERS={"default": {"BACKEND": "django.core.mail.backends.dummy.EmailBackend"}}
        )
        with nullcontext() if options["show_emails"] else quiet:
            makura = self._makura(options)
            clubs = [makura, *(self._club(demo) for demo in OTHER_CLUBS)]
        base = settings.CLUB_SITE_URL.rstrip("/")
        self.stdout.write(f"Demo clubs loaded ({len(clubs)}):")
        for club in clubs:
            with club_scope(club):
                members, games = Member.objects.count(), Hanchan.objects.count()
            self.stdout.write(
                f"  {base}/c/{club.slug}/  {club.name}: {members} members, {games} games"
            )
        self.stdout.write(
            f"Log in as aoki / {DEMO_PASSWORD} (steward of {MAKURA_NAME}, member of 自宅麻雀); "
            "baba and kanda are in two clubs, tanaka in two (sanma steward, fuji), "
            "kimura in fuji only (steward)."
        )

    def _makura(self, options: dict[str, Any]) -> Club:
        """The site's own club (its slug kept, so / and old links still lead there), renamed
        and given the Makura rules (seed 001, v1.5 standard), filled by load_demo."""
        makura = Club.objects.filter(slug=settings.CLUB_SLUG).first() or only_club()
        loader = load_demo.Command()
        loader.stdout, loader.stderr = self.stdout, self.stderr
        loader.games = MAKURA_GAMES
        # One transaction per club, committed inside its scope: the ratings' task runs on
        # commit (ratings/receivers.py) and reads the club in scope.
        with club_scope(makura), transaction.atomic():
            makura.name = MAKURA_NAME
            makura.default_ruleset = "makura-1.5"
            makura.standard_rulesets = ["makura-1.5"]
            makura.public_text = MAKURA_PUBLIC_TEXT
            makura.public_rules = makura.public_venues = makura.public_meetups = True
            makura.public_boards = makura.public_join = True
            makura.save(
                update_fields=[
                    "name",
                    "default_ruleset",
                    "standard_rulesets",
                    "public_text",
                    "public_rules",
                    "public_venues",
                    "public_meetups",
                    "public_boards",
                    "public_join",
                ]
            )
            # Its notices stay quiet (or not) as this command's: the setting is ours already.
            loader._load(makura, {**options, "show_emails": True})
        return makura

    def _club(self, demo: DemoClub) -> Club:
        club = Club.objects.filter(slug=demo.slug).first() or club_create(
            slug=demo.slug, name=demo.name, default_ruleset=demo.ruleset
        )
        users = get_user_model().objects
        members = []
        with club_scope(club), transaction.atomic():
            for number, (username, name, furigana, steward) in enumerate(demo.members, 1):
                user = users.filter(username=username).first()
                if user is None:
                    member = member_create(
                        username=username,
                        password=DEMO_PASSWORD,
                        email=f"{username}@example.org",
                        steward=steward,
                        display_name=name,
                        furigana=furigana,
                        phone=f"080-0000-{number:04d}",
                        club=club,
                    )
                else:
                    role = Member.Role.STEWARD if steward else Member.Role.MEMBER
                    member = membership_create(
                        user, club=club, display_name=name, furigana=furigana, role=role
                    )
                members.append(member)
            rng = random.Random(f"demo-{demo.slug}")
            games = [(days, demo.ruleset, seats, stop) for days, seats, stop in demo.games]
            demo_games_import(members, games, rng=rng, today=timezone.localdate(), venue=demo.venue)
        return club
