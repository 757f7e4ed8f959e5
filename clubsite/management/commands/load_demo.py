"""``python manage.py load_demo``: a demo club for ``make run`` (skipped if members exist)."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from clubsite.models import Member
from scoring.engine import load_ruleset
from scoring.sample_games import sample_hands
from scoring.services import hanchan_import

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


class Command(BaseCommand):
    help = (
        f"Create a demo club: a dozen members (password {DEMO_PASSWORD}; aoki is staff), "
        "finished games under several rulesets and one game in play. Does nothing if members "
        "exist."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if Member.objects.exists():
            self.stdout.write("Members exist already: no demo data loaded.")
            return
        rng = random.Random(20261122)
        today = timezone.localdate()
        with transaction.atomic():
            members = [self._member(*row, staff=row[0] == "aoki") for row in DEMO_MEMBERS]
            for days_ago, ruleset_id, seats, in_play_after in DEMO_GAMES:
                players = [members[i] for i in seats]
                assert len(players) == load_ruleset(ruleset_id).players
                record = {
                    "format": "club-game/1",
                    "ruleset": ruleset_id,
                    "players": [m.display_name for m in players],
                    "hands": sample_hands(rng, ruleset_id, in_play_after=in_play_after),
                    "venue": "ビック",
                    "table": "A",
                }
                hanchan_import(
                    record=record,
                    members_by_name={m.display_name: m for m in players},
                    played_on=today - datetime.timedelta(days=days_ago),
                    by=players[0],
                )
        self.stdout.write(
            f"Demo club loaded: {len(members)} members, {len(DEMO_GAMES)} games. "
            f"Log in as aoki / {DEMO_PASSWORD}."
        )

    def _member(self, username: str, name: str, furigana: str, *, staff: bool) -> Member:
        user = get_user_model().objects.create_user(
            username=username, password=DEMO_PASSWORD, is_staff=staff, is_superuser=staff
        )
        return Member.objects.create(user=user, display_name=name, furigana=furigana)
