"""An online game's lobby rules in words, for its game page.

``{% lobby_rules hanchan online %}`` says what the lobby played otherwise than the game's
ruleset (the game's stored overrides: a private lobby's start points, return, uma,
rounding, no extension, no renchan, open tanyao, chips; :mod:`scoring.online.lobby_rules`)
and what its lobby type says of red fives, open tanyao and chips; and, for a game from a
Tenhou result line, the lobby and time of the line. Empty for a game played at the club.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from clubsite.formatting import format_points, signed_points
from scoring.models import Hanchan, OnlineGame
from scoring.online.lobby_rules import lobby_flags

register = template.Library()

# Overrides a page names one by one; any other (Tenhou's older ends, the rules a club's
# ruleset takes from the lobby) is counted.
_NAMED = (
    "start_points",
    "return_points",
    "oka",
    "uma",
    "final_rounding",
    "extension",
    "renchan",
    "open_tanyao",
    "chips",
)
# Follow the return points (scoring.online.lobby_rules): not worth a word of their own.
_FOLLOWING = ("extension_target", "dealer_top_min_score", "top_takes_remainder")


@register.simple_tag
def lobby_rules(hanchan: Hanchan, online: OnlineGame | None) -> str:
    """``"Lobby L1000: start 30,000 · return 30,000 · uma +15,000 / …"`` in the reader's
    language, or ``""`` where there is nothing to say."""
    if online is None:
        return ""
    overrides: dict[str, Any] = dict(hanchan.overrides or {})
    words = [_override_words(name, overrides[name]) for name in _NAMED if name in overrides]
    rest = [n for n in overrides if n not in _NAMED and n not in _FOLLOWING]
    flags = lobby_flags(online.rule_label)
    if "open_tanyao" not in overrides and flags.open_tanyao is False:
        words.append(_("no open tanyao"))
    if flags.red_fives is not None:
        words.append(_("red fives") if flags.red_fives else _("no red fives"))
    if flags.chips and "chips" not in overrides:
        words.append(_("chips (not counted)"))
    if rest:
        words.append(
            _("%(n)d more rules as the lobby played them") % {"n": len(rest)}
            if len(rest) > 1
            else _("1 more rule as the lobby played it")
        )
    if not words:
        return ""
    if online.lobby.strip("0"):
        head = _("Lobby %(lobby)s rules:") % {"lobby": online.lobby}
    else:
        head = _("Lobby rules:")
    if online.log_format == "result-line":
        head = _("From a result line of lobby %(lobby)s.") % {"lobby": online.lobby} + " " + head
    return f"{head} {' · '.join(words)}"


def _override_words(name: str, value: Any) -> str:
    if name == "start_points":
        return _("start %(points)s") % {"points": format_points(value)}
    if name == "return_points":
        return _("return %(points)s") % {"points": format_points(value)}
    if name == "oka":
        return _("oka %(points)s") % {"points": format_points(value)}
    if name == "uma":
        return _("uma %(uma)s") % {"uma": " / ".join(signed_points(u) for u in value)}
    if name == "final_rounding":
        return _("not rounded") if value == "none" else _("rounded to 1,000")
    if name == "extension":
        return _("no extension") if value == "none" else _("extension rounds")
    if name == "renchan":
        return _("no renchan") if value == "none" else _("renchan")
    if name == "open_tanyao":
        return _("open tanyao") if value else _("no open tanyao")
    return _("with chips") if value else _("no chips")
