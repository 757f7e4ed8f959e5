"""System checks for the club's scoring settings: a typo in the environment is reported by
``manage.py check`` (and at server start), not by the first game that finishes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register

from scoring.ledger.confirmation import POLICIES


@register()
def confirmation_setting(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """``CLUB_CONFIRMATION`` is one of :data:`scoring.ledger.confirmation.POLICIES`."""
    value = getattr(settings, "CLUB_CONFIRMATION", "every_other")
    if value in POLICIES:
        return []
    return [
        Error(
            f"CLUB_CONFIRMATION is {value!r}",
            hint=f"Use one of: {', '.join(POLICIES)}.",
            id="scoring.E001",
        )
    ]
