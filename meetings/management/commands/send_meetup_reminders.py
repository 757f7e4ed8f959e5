"""``python manage.py send_meetup_reminders [--club SLUG]``: run from cron, e.g. every hour (on a
site of several clubs, one line per club)."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from clubsite.club_commands import add_club_argument, command_club_scope
from meetings.services import reminders_send


class Command(BaseCommand):
    help = (
        "E-mail the members of provisional line-ups who have not confirmed "
        "MEETUP_REMINDER_HOURS (default 24) hours after being asked. Each member is reminded "
        "once per request to confirm, so running this often sends nothing twice."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--hours",
            type=float,
            default=None,
            help="remind after this many hours instead of MEETUP_REMINDER_HOURS",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, hours: float | None = None, **options: Any) -> None:
        after = datetime.timedelta(hours=settings.MEETUP_REMINDER_HOURS if hours is None else hours)
        with command_club_scope(options):
            count = reminders_send(after=after)
        self.stdout.write(f"Reminded {count} member(s).")
