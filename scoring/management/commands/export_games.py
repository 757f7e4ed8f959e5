"""``python manage.py export_games [--club SLUG]``: a club's games in the ledger as game records
(JSON)."""

from __future__ import annotations

import datetime
import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from clubsite.club_commands import add_club_argument, command_club_scope
from scoring.ledger import hanchan_record
from scoring.models import Hanchan


class Command(BaseCommand):
    help = (
        "Print a club's games as a JSON list of club-game/1 records (finished games by default). "
        "The output can be given back to import_games and replays to the stored results."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--id", type=int, action="append", dest="ids", help="game id")
        parser.add_argument("--since", type=datetime.date.fromisoformat, help="from this date")
        parser.add_argument("--until", type=datetime.date.fromisoformat, help="to this date")
        parser.add_argument(
            "--status",
            choices=[s.value for s in Hanchan.Status],
            default=Hanchan.Status.FINISHED,
            help="games with this status (default: finished)",
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        with command_club_scope(options) as club:
            self._export(club.pk, options)

    def _export(self, club_id: int, options: dict[str, Any]) -> None:
        # The club's games only, an --id of another club's game among them: an export given
        # to import_games elsewhere must not carry a game the club never played.
        games = (
            Hanchan.objects.filter(club_id=club_id)
            .select_related("ruleset_version")
            .prefetch_related("seats__member", "hands")
        )
        if options["ids"]:
            games = games.filter(pk__in=options["ids"])
        else:
            games = games.filter(status=options["status"])
        if options["since"]:
            games = games.filter(played_on__gte=options["since"])
        if options["until"]:
            games = games.filter(played_on__lte=options["until"])
        records = [hanchan_record(game) for game in games.order_by("played_on", "pk")]
        self.stdout.write(json.dumps(records, ensure_ascii=False, indent=1))
