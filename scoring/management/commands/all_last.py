"""``python manage.py all_last FILE``: what each player needs in the hand in play."""

from __future__ import annotations

from typing import Any

from scoring.entry.all_last import record_conditions
from scoring.management.record_command import RecordCommand


class Command(RecordCommand):
    help = (
        "Read a game record (club-game/1 JSON) of a game in play and print, as JSON on "
        "standard output, each player's current place and, for each better place, the "
        "smallest value of the ruleset's value pad with which they reach it by winning the "
        "next hand alone: by ron from each other player and by tsumo (honba and deposits "
        "included, no riichi declared; null: out of reach). Smallest: no value paying the "
        "winner less reaches the place; of values paying the same, a limit's name, else the "
        "lowest han, then the lowest fu. A finished game or a bad record: one line on "
        "standard error, exit status 2. See docs/all-last.md."
    )

    def answer(self, record: Any) -> dict[str, Any]:
        return record_conditions(record).to_json()
