"""A ruleset's name in the reader's language: the pages of every app show it so (the ledger's
games, the standings, meetups, tournaments)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubsite.models import ONLINE_SERVICES
from scoring.engine import load_ruleset, variant_of

# The built-in rulesets' names (scoring/rulesets/*.toml), here for makemessages: a game shows
# its pinned ruleset's name in the reader's language when the name is one of these.
RULESET_NAMES = (
    gettext_noop("Makura Club standard rules v1.5"),
    gettext_noop("Makura Club standard rules v1.3"),
    gettext_noop("Shinbashi FUJI Club 3-player rules"),
    gettext_noop("Home game house rules (nashi-nashi, chips)"),
    gettext_noop("3-player club rules (floating uma)"),
    gettext_noop("Tenhou 4-player East-South (般南喰赤)"),
    gettext_noop("Tenhou 3-player East-South (三般南喰赤)"),
    gettext_noop("Tenhou 4-player East-only (般東喰赤)"),
    gettext_noop("Tenhou 3-player East-only (三般東喰赤)"),
    gettext_noop("Mahjong Soul 4-player East-South (四人南)"),
    gettext_noop("Mahjong Soul 4-player East-only (四人東)"),
    gettext_noop("Mahjong Soul 3-player East-South (三人南)"),
    gettext_noop("Mahjong Soul 3-player East-only (三人東)"),
)

# The built-in variants' names (scoring/rulesets/variants/*.toml), likewise.
VARIANT_NAMES = (gettext_noop("East round only (short of time)"),)


def ruleset_title(name: str) -> str:
    """A ruleset's name as the reader says it (a name not in RULESET_NAMES stays as it is)."""
    return _(name) if name else name


def ruleset_label(ruleset_id: str) -> str:
    """A ruleset id's name in the reader's language (the id when it is not a built-in); a
    standings key of online games (``"tenhou-4p@tenhou"``) adds the service."""
    ruleset_id, _at, service = ruleset_id.partition("@")
    try:
        label = ruleset_title(load_ruleset(ruleset_id).name)
    except KeyError:
        label = ruleset_id
    if service:
        return _("%(ruleset)s, online (%(service)s)") % {
            "ruleset": label,
            "service": dict(ONLINE_SERVICES).get(service, service),
        }
    return label


def game_ruleset_title(name: str, ruleset_id: str, overrides: dict | None) -> str:
    """A game's rules as the reader says them: its ruleset's ``name`` and, when the game's
    ``overrides`` are one of the ruleset's variants, that variant's name, e.g. "Home game house
    rules (nashi-nashi, chips) · East round only (short of time)"."""
    title = ruleset_title(name)
    variant = variant_of(ruleset_id, overrides)
    if variant is None:
        return title
    return _("%(ruleset)s · %(variant)s") % {"ruleset": title, "variant": _(variant.name)}
