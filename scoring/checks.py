"""System checks for the club's scoring settings: a typo in the environment is reported by
``manage.py check`` (and at server start), not by the first game that finishes. Also the
check of a new club's default ruleset (:func:`built_in_ruleset`).

The ``CLUB_*`` choices are what a new club starts with (each club then keeps its own,
``clubsite.club_model.Club``); they are checked by the validators of the stewards' club
settings page (:mod:`scoring.club_choices`), so that a default is never a choice the page
would refuse."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from scoring import club_choices
from scoring.ledger import POLICIES


def _refused(validator: Any, value: object) -> bool:
    try:
        validator(value)
    except ValidationError:
        return True
    return False


@register()
def confirmation_setting(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """``CLUB_CONFIRMATION`` is one of :data:`scoring.ledger.confirmation.POLICIES`."""
    value = getattr(settings, "CLUB_CONFIRMATION", "every_other")
    if not _refused(club_choices.validate_confirmation, value):
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

    services = {value for value, _label in ONLINE_SERVICES}
    return [
        Error(
            f"CLUB_ONLINE_IN_STANDINGS has {key!r}",
            hint=(
                "Write <ruleset>@<service>, e.g. tenhou-4p@tenhou; services: "
                f"{', '.join(sorted(services))}."
            ),
            id="scoring.E002",
        )
        for key in getattr(settings, "CLUB_ONLINE_IN_STANDINGS", [])
        if _refused(club_choices.validate_online_key, key)
    ]


@register()
def standings_ties_setting(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """``CLUB_STANDINGS_TIES`` names tie-breakers of
    :data:`scoring.standings.table.TIE_BREAKERS`, each once."""
    from scoring.standings.table import TIE_BREAKERS

    value = getattr(settings, "CLUB_STANDINGS_TIES", [])
    names = list(value) if isinstance(value, list | tuple) else [value]
    if not _refused(club_choices.validate_standings_ties, names):
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


@register()
def new_club_settings(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """A new club's other choices: ``CLUB_TIME_ZONE`` is a zoneinfo key,
    ``CLUB_DEFAULT_RULESET`` and each of ``CLUB_STANDARD_RULESETS`` (one at least) a built-in
    ruleset, ``CLUB_LIST_ADDRESS`` an e-mail address or empty."""
    hints = {
        "CLUB_TIME_ZONE": (
            club_choices.validate_time_zone,
            "Write a zoneinfo key, e.g. Asia/Tokyo or UTC.",
        ),
        "CLUB_DEFAULT_RULESET": (
            club_choices.validate_ruleset,
            "Write the id of a built-in ruleset (the site's /rulesets/ page lists them).",
        ),
        "CLUB_STANDARD_RULESETS": (
            club_choices.validate_standard_rulesets,
            "List one or more ids of built-in rulesets.",
        ),
        "CLUB_LIST_ADDRESS": (
            club_choices.validate_list_address,
            "Write an e-mail address, or leave it empty for no list.",
        ),
    }
    errors = []
    for name, (validator, hint) in hints.items():
        if not hasattr(settings, name):
            continue
        value = getattr(settings, name)
        if _refused(validator, value):
            errors.append(Error(f"{name} is {value!r}", hint=hint, id="scoring.E004"))
    return errors
