"""``python manage.py replay FILE``: print what the ledger makes of a game record."""

from __future__ import annotations

from typing import Any

from scoring.engine import replay_record
from scoring.management.record_command import RecordCommand


class Command(RecordCommand):
    help = (
        "Replay a game record (club-game/1 JSON) and print the hands and the final settlement "
        "as JSON on standard output. Bad input: one line on standard error, exit status 2."
    )

    def answer(self, record: Any) -> dict[str, Any]:
        return replay_record(record).to_json()
