"""The built-in rulesets as a form offers them (new game, new meetup)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from scoring.engine import available_rulesets, load_ruleset
from scoring.ruleset_names import ruleset_title


def ruleset_choices() -> list[tuple[str, str]]:
    """``(id, label)`` per built-in ruleset: the club's default (``CLUB_DEFAULT_RULESET``)
    first, then by id; the label is the ruleset's name in the reader's language and its
    number of players, e.g. "枕倶楽部標準ルール v1.5（4人）"."""
    default = settings.CLUB_DEFAULT_RULESET
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
