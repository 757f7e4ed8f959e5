"""``python manage.py load_demo [--club SLUG]``: a demo club for ``make run`` (skipped if the
club has members).

A command of meetings, the highest app it fills (members, games and meetups): the apps build
on each other one way (``[tool.importlinter]`` in pyproject.toml)."""

from __future__ import annotations

import datetime
import random
from argparse import ArgumentParser
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test.utils import override_settings
from django.utils import timezone

from clubsite.club_commands import add_club_argument, command_club_scope
from clubsite.club_model import Club
from clubsite.club_scope import current_club
from clubsite.members import member_create
from clubsite.models import Member
from meetings import services as meetups
from meetings.models import Meetup, Venue
from scoring.engine import load_ruleset
from scoring.ledger import hanchan_import
from scoring.upkeep.sample_games import sample_hands

DEMO_PASSWORD = "mahjong-demo"
DEMO_MEMBERS = [
    ("aoki", "青木", "あおき"),
    ("baba", "馬場", "ばば"),
    ("chiba", "千葉", "ちば"),
    ("doi", "土井", "どい"),
    ("endo", "遠藤", "えんどう"),
    ("fujii", "藤井", "ふじい"),
    ("goto", "後藤", "ごとう"),
    ("harada", "原田", "はらだ"),
    ("imai", "今井", "いまい"),
    ("kanda", "神田", "かんだ"),
    ("kobayashi", "小林", "こばやし"),
    ("matsumoto", "松本", "まつもと"),
]
# (days ago, ruleset, seats as indexes into DEMO_MEMBERS, hands before the game stops or None)
DEMO_GAMES = [
    (6, "makura-1.5", (0, 1, 2, 3), None),
    (6, "makura-1.5", (4, 5, 6, 7), None),
    (5, "home-nashinashi", (8, 9, 10, 11), None),
    (3, "fuji-sanma", (0, 4, 8), None),
    (3, "sanma-float", (1, 5, 9), None),
    (1, "makura-1.3", (2, 6, 10, 11), None),
    (0, "makura-1.5", (0, 3, 6, 9), 5),
]
# The meetups, as indexes into DEMO_MEMBERS (the coordinator first; everyone plays):
# six days ago Aoki's table met and reported its game; Doi's line-up for later this week has
# two of four confirmed; Chiba calls for players for Friday and Saturday next week.
DEMO_HELD = (6, (0, 1, 2, 3))
DEMO_PROVISIONAL = (3, (3, 7, 8, 9), 1)  # (in days, players, how many confirmed besides Doi)
DEMO_OPEN_CALL = ((4, 5), (2, 4, 5))  # (weekdays next week, Mon = 0; applicants in order)


class Command(BaseCommand):
    help = (
        f"Create a demo club: a dozen members (password {DEMO_PASSWORD}; aoki is staff), "
        "finished games under several rulesets and one game in play, and three meetups: one "
        "held and reported, one waiting for confirmations, one open call. Does nothing if "
        "members exist. The meetups' notices go to example.org addresses: kept quiet unless "
        "--show-emails sends them through the configured mailer (the console in development)."
    )

    # "<slug>-" before each demo login when the demo's own are taken (a second demo club).
    login_prefix = ""
    # The games loaded (DEMO_GAMES' shape): load_demo_clubs gives the Makura club its own.
    games: Sequence[tuple[int, str, tuple[int, ...], int | None]] = DEMO_GAMES

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="load the demo club even with DEBUG off (it creates the steward "
            "aoki / mahjong-demo: never on a real club's database)",
        )
        parser.add_argument(
            "--show-emails",
            action="store_true",
            help="send the demo meetups' notice e-mails through the configured mailer "
            "(the console in development) instead of dropping them",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off: this looks like a real club's database, and the demo creates a "
                "steward with a published password. Use --force if it is a demo server."
            )
        with command_club_scope(options) as club:
            self._load(club, options)

    def _load(self, club: Club, options: dict[str, Any]) -> None:
        if Member.objects.filter(club=club).exists():
            self.stdout.write("Members exist already: no demo data loaded.")
            return
        # Logins are the site's, not a club's: a second demo club's members log in as
        # "<slug>-aoki" and so on.
        taken = get_user_model().objects.filter(username__in=[row[0] for row in DEMO_MEMBERS])
        self.login_prefix = f"{club.slug}-" if taken.exists() else ""
        rng = random.Random(20261122)
        today = timezone.localdate()
        # The demo's notices would fill the terminal of `make run` with e-mails nobody reads.
        quiet = override_settings(
            MAILERS={"default": {"BACKEND": "django.core.mail.backends.dummy.EmailBackend"}}
        )
        with nullcontext() if options["show_emails"] else quiet, transaction.atomic():
            members = [self._member(*row, staff=row[0] == "aoki") for row in DEMO_MEMBERS]
            demo_games_import(members, self.games, rng=rng, today=today, venue="ビック")
            self._held_meetup(members, today)
            self._provisional_meetup(members, today)
            self._open_call(members, today)
        self.stdout.write(
            f"Demo club loaded: {len(members)} members, {len(self.games)} games, "
            f"{Meetup.objects.filter(club=club).count()} meetups. "
            f"Log in as {members[0].user.get_username()} / {DEMO_PASSWORD}."
        )

    def _member(self, username: str, name: str, furigana: str, *, staff: bool) -> Member:
        number = Member.objects.filter(club=current_club()).count() + 1
        username = self.login_prefix + username
        return member_create(
            username=username,
            password=DEMO_PASSWORD,
            email=f"{username}@example.org",
            steward=staff,
            superuser=staff,
            display_name=name,
            furigana=furigana,
            phone=f"090-0000-{number:04d}",
        )

    def _held_meetup(self, members: Sequence[Member], today: datetime.date) -> None:
        """A meetup that took place and reported the demo's game of its day and table."""
        days_ago, seats = DEMO_HELD
        day = today - datetime.timedelta(days=days_ago)
        coordinator, *players = [members[i] for i in seats]
        # The services accept only future dates and mark a meetup held only on its day: the
        # call is made two days before, as it would have been, with the clock set back.
        with _clock_at(day - datetime.timedelta(days=2), datetime.time(20, 0)):
            meetup = self._arranged(coordinator, players, day, confirmed=len(players))
            meetups.meetup_finalize(meetup_id=meetup.pk, by=coordinator.user)
        with _clock_at(day, datetime.time(23, 30)):
            meetups.meetup_mark_held(meetup_id=meetup.pk, by=coordinator.user)
            played = Meetup.objects.get(pk=meetup.pk).report_candidates()
            meetups.meetup_report(
                meetup_id=meetup.pk,
                by=coordinator.user,
                hanchans=list(played),
                note="" if played else "楽しかったです。",
            )

    def _provisional_meetup(self, members: Sequence[Member], today: datetime.date) -> None:
        in_days, seats, confirmed = DEMO_PROVISIONAL
        coordinator, *players = [members[i] for i in seats]
        day = today + datetime.timedelta(days=in_days)
        self._arranged(coordinator, players, day, confirmed=confirmed)

    def _open_call(self, members: Sequence[Member], today: datetime.date) -> None:
        weekdays, seats = DEMO_OPEN_CALL
        coordinator, *applicants = [members[i] for i in seats]
        next_monday = today + datetime.timedelta(days=7 - today.weekday())
        meetup = meetups.meetup_post(
            by=coordinator.user,
            dates=[next_monday + datetime.timedelta(days=weekday) for weekday in weekdays],
            venue=_main_venue(),
            ruleset_id="makura-1.5",
            note="金曜か土曜、どちらか都合のいい方で。",
        )
        for member in applicants:
            meetups.meetup_apply(meetup_id=meetup.pk, by=member.user)

    def _arranged(
        self, coordinator: Member, players: Sequence[Member], day: datetime.date, *, confirmed: int
    ) -> Meetup:
        """A call for ``day`` that ``players`` applied to, its line-up declared and confirmed
        by the first ``confirmed`` of them (the coordinator plays and counts as confirmed)."""
        meetup = meetups.meetup_post(
            by=coordinator.user, dates=[day], venue=_main_venue(), ruleset_id="makura-1.5"
        )
        for member in players:
            meetups.meetup_apply(meetup_id=meetup.pk, by=member.user)
        meetups.meetup_declare(meetup_id=meetup.pk, by=coordinator.user, date=day)
        for member in players[:confirmed]:
            meetups.meetup_confirm(meetup_id=meetup.pk, by=member.user)
        return meetup


def demo_games_import(
    members: Sequence[Member],
    games: Sequence[tuple[int, str, tuple[int, ...], int | None]],
    *,
    rng: random.Random,
    today: datetime.date,
    venue: str,
) -> None:
    """Import ``games`` (DEMO_GAMES' shape: days ago, ruleset id, seats as indexes into
    ``members``, hands before the game stops or None for a finished game) into the club in
    scope, sample hands drawn from ``rng``, the first seat entering each as a steward."""
    for days_ago, ruleset_id, seats, in_play_after in games:
        players = [members[i] for i in seats]
        assert len(players) == load_ruleset(ruleset_id).players
        record = {
            "format": "club-game/1",
            "ruleset": ruleset_id,
            "players": [m.display_name for m in players],
            "hands": sample_hands(rng, ruleset_id, in_play_after=in_play_after),
            "venue": venue,
            "table": "A",
        }
        hanchan_import(
            record=record,
            members_by_name={m.display_name: m for m in players},
            played_on=today - datetime.timedelta(days=days_ago),
            by=players[0],
            steward=True,
        )


def _main_venue() -> Venue:
    """The club's main venue (else its first), as ``Venue.default`` chooses among its venues."""
    # The current club's own: Venue.default() would offer another club's venue.
    venues = Venue.objects.filter(club=current_club())
    venue = venues.filter(role=Venue.Role.MAIN).first() or venues.first()
    if venue is None:  # the seeded venues were deleted, or a club never had them: make one up
        venue = Venue.objects.create(name="ビック", address="札幌市中央区北4条西2丁目")
    return venue


@contextmanager
def _clock_at(day: datetime.date, time: datetime.time) -> Iterator[None]:
    """Run the meetup services as if it were ``time`` on ``day`` (club time), so that a past
    meetup is arranged the way it was then and its notices carry those times."""
    moment = timezone.make_aware(datetime.datetime.combine(day, time))
    with mock.patch.object(timezone, "now", lambda: moment):
        yield
