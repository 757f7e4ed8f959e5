"""Members' running totals per month, kept up to date by every write of the ledger."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.models import Hanchan


def games_changed(hanchans: Sequence[Hanchan]) -> None:
    """Bring the totals of the members of ``hanchans`` up to date (inside the caller's
    transaction) after those games' settlement, status or hands changed."""
