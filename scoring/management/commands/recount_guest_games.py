"""``python manage.py recount_guest_games [--club SLUG]``: make a club's rows of its members'
games as guests at other clubs' events again from the hosts' counted results, as live
counting makes them (events between clubs, docs/clubs.md); none when the club does not count
them (``Club.guest_events_in_standings``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubsite.club_commands import add_club_argument, command_club_scope
from scoring.ledger import recount_guest_games


class Command(BaseCommand):
    help = (
        "Count the club's members' games at other clubs' events into its standings again "
        "(or out of them, if the club does not count them). One transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with command_club_scope(options) as club:
            rows = recount_guest_games(club)
        self.stdout.write(f"{rows} guest seats counted in {club.slug}.")
