"""System checks for the club's scoring settings: a typo in the environment is reported by
``manage.py check`` (and at server start), not by the first game that finishes. Also the
check of a new club's default ruleset (:func:`built_in_ruleset`)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from scoring.ledger import POLICIES


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


@register()
def online_standings_setting(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Each ``CLUB_ONLINE_IN_STANDINGS`` key is ``"<built-in ruleset>@<online service>"``."""
    from clubsite.models import ONLINE_SERVICES
    from scoring.engine import available_rulesets

    services = {value for value, _label in ONLINE_SERVICES}
    rulesets = set(available_rulesets())
    errors = []
    for key in getattr(settings, "CLUB_ONLINE_IN_STANDINGS", []):
        ruleset_id, _at, service = str(key).partition("@")
        if ruleset_id not in rulesets or service not in services:
            errors.append(
                Error(
                    f"CLUB_ONLINE_IN_STANDINGS has {key!r}",
                    hint=(
                        "Write <ruleset>@<service>, e.g. tenhou-4p@tenhou; services: "
                        f"{', '.join(sorted(services))}."
                    ),
                    id="scoring.E002",
                )
            )
    return errors


@register()
def standings_ties_setting(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """``CLUB_STANDINGS_TIES`` names tie-breakers of
    :data:`scoring.standings.table.TIE_BREAKERS`, each once."""
    from scoring.standings.table import TIE_BREAKERS

    value = getattr(settings, "CLUB_STANDINGS_TIES", [])
    names = list(value) if isinstance(value, list | tuple) else [value]
    if all(name in TIE_BREAKERS for name in names) and len(set(names)) == len(names):
        return []
    return [
        Error(
            f"CLUB_STANDINGS_TIES is {value!r}",
            hint=f"List some of: {', '.join(TIE_BREAKERS)}, each once.",
            id="scoring.E003",
        )
    ]


def built_in_ruleset(ruleset_id: str) -> None:
    """A club's ``default_ruleset`` is a built-in ruleset (one of
    :func:`scoring.engine.available_rulesets`): the check ``clubsite.club_services`` runs on a
    new club's (registered by :class:`scoring.apps.ScoringConfig`).

    Raises:
        ValidationError: any other id, with the ids there are.
    """
    from scoring.engine import available_rulesets

    known = available_rulesets()
    if ruleset_id not in known:
        raise ValidationError(
            gettext("No built-in ruleset is called %(id)r; the rulesets: %(known)s.")
            % {"id": ruleset_id, "known": ", ".join(known)},
            code="ruleset",
        )
