"""The built-in rulesets as a form offers them (new game, new meetup)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from clubsite.club_scope import current_club
from scoring.engine import available_rulesets, load_ruleset, ruleset_variants
from scoring.rulebook.names import ruleset_title


def ruleset_choices() -> list[tuple[str, str]]:
    """``(id, label)`` per built-in ruleset: the current club's default ruleset
    (``Club.default_ruleset``) first, then by id; the label is the ruleset's name in the
    reader's language and its number of players, e.g. "枕倶楽部標準ルール v1.5（4人）"."""
    default = current_club().default_ruleset
    ids = sorted(available_rulesets(), key=lambda ruleset_id: (ruleset_id != default, ruleset_id))
    choices = []
    for ruleset_id in ids:
        ruleset = load_ruleset(ruleset_id)
        label = gettext("%(name)s (%(players)d players)") % {
            "name": ruleset_title(ruleset.name),
            "players": ruleset.players,
        }
        choices.append((ruleset_id, label))
    return choices


def game_ruleset_choices() -> list[tuple[str, str]]:
    """:func:`ruleset_choices` with each ruleset's variants after it, as a new game offers
    them: ``("<id>:<variant>", label)``, e.g. the home game's East round only (seed 003
    L53-57). :func:`split_choice` reads the value back."""
    choices = []
    for ruleset_id, label in ruleset_choices():
        choices.append((ruleset_id, label))
        ruleset = load_ruleset(ruleset_id)
        for variant in ruleset_variants(ruleset_id):
            choices.append(
                (
                    variant.choice,
                    gettext("%(name)s · %(variant)s (%(players)d players)")
                    % {
                        "name": ruleset_title(ruleset.name),
                        "variant": gettext(variant.name),
                        "players": ruleset.players,
                    },
                )
            )
    return choices


def split_choice(choice: str) -> tuple[str, dict[str, Any]]:
    """A value of :func:`game_ruleset_choices` as ``(ruleset id, overrides)``.

    Raises:
        KeyError: no built-in ruleset or variant of that name.
    """
    ruleset_id, _colon, key = choice.partition(":")
    if not key:
        load_ruleset(ruleset_id)
        return ruleset_id, {}
    for variant in ruleset_variants(ruleset_id):
        if variant.key == key:
            return ruleset_id, dict(variant.overrides)
    raise KeyError(choice)
