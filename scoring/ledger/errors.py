"""What the ledger refuses, and the sentence a player reads for an engine refusal."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.engine import RecordError, Ruleset
from scoring.ledger.refusals import refusal_message


class LedgerError(Exception):
    """An action the ledger refuses; nothing was written.

    ``str(error)`` is a message for the person at the table (or, for a game record, the
    engine's one-line form); ``field`` names the input at fault (a record key such as
    ``wins[0].fu``, or empty); ``cause`` is the engine's :class:`RecordError` when the engine
    refused; ``later_hand`` is the 1-based number of a later hand that a correction would
    make impossible.
    """

    def __init__(
        self,
        message: str,
        field: str = "",
        *,
        cause: RecordError | None = None,
        later_hand: int | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.cause = cause
        self.later_hand = later_hand


class StaleHanchan(LedgerError):
    """The game changed since the client loaded it (another phone entered a hand first)."""

    def __init__(self, hanchan: object) -> None:
        super().__init__(
            _("This hand was already entered from another phone. Here is the current table.")
        )
        self.hanchan = hanchan


def refusal(error: RecordError, ruleset: Ruleset) -> str:
    """The engine's refusal in the reader's language (see :mod:`scoring.ledger.refusals`)."""
    return refusal_message(error, ruleset)
