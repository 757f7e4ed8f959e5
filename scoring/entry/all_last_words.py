"""The words of the all-last conditions for the offline panel (``static/js/offline_all_last.js``),
in the active language: the table screen's own (``scoring/views/all_last_panel.py`` and
``templates/scoring/game_detail.html``), with ``{value}``, ``{name}``, ``{names}`` and
``{place}`` where the browser puts what the engine's figures give (docs/all-last.md).

The msgids are the table screen's, one catalogue entry each: ``scoring.views`` imports this
wing, so it cannot import its words back.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

# scoring.views.display's RANK_LABELS.
_PLACES = {
    1: gettext_lazy("1st"),
    2: gettext_lazy("2nd"),
    3: gettext_lazy("3rd"),
    4: gettext_lazy("4th"),
}


def _slot(text: str, **slots: str) -> str:
    """``text`` (a python-format msgstr) with each ``%(name)s`` left as ``{name}``."""
    return text % {name: "{" + name + "}" for name in slots}


def all_last_words(players: int) -> dict[str, object]:
    """The panel's words: ``title`` (the summary), ``note``, ``out`` (out of reach), ``to``
    ("To {place}:"), the routes ``tsumo``, ``anyone``, ``direct`` and ``from``, ``sep`` (between
    names) and ``places`` (the label of places 1 to ``players``)."""
    return {
        "title": _("What each player needs"),
        "note": _("Winning the next hand alone, no riichi, honba and deposits included."),
        "out": _("out of reach"),
        "to": _slot(_("To %(place)s:"), place=""),
        "tsumo": _slot(_("%(value)s by tsumo"), value=""),
        "anyone": _slot(_("%(value)s ron from anyone"), value=""),
        "direct": _slot(_("%(value)s direct hit on %(name)s"), value="", name=""),
        "from": _slot(_("%(value)s ron from %(names)s"), value="", names=""),
        "sep": pgettext("between names in a list", ", "),
        "places": [str(_PLACES.get(place, place)) for place in range(1, players + 1)],
    }
