"""The words the table screen's scripts show, in the reader's language, as the page hands them
over: the tile keyboard's (``static/js/tiles.js``) and the offline panel's
(``static/js/offline.js``)."""

from __future__ import annotations

import functools
import json

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from scoring.engine.situations import KEYBOARD_FLAGS
from scoring.rulebook.yaku_labels import yaku_label

_TILE_FLAGS = json.dumps([flag.name for flag in KEYBOARD_FLAGS])


def tile_flags() -> str:
    """The tile keyboard's situational flags (:data:`scoring.engine.situations.KEYBOARD_FLAGS`,
    in order), as JSON for its ``data-flags``: static/js/tiles.js draws a key for each."""
    return _TILE_FLAGS


def tile_labels() -> str:
    """The words of the tile keyboard (static/js/tiles.js), as JSON for a data attribute, in
    the active language (worked out once per language: every tap of a hand draws them)."""
    return _tile_labels(get_language() or "")


@functools.lru_cache(maxsize=16)
def _tile_labels(language: str) -> str:
    return json.dumps(
        {
            "hand": _("Hand"),
            "chi": _("Chi"),
            "pon": _("Pon"),
            "kan": _("Open kan"),
            "ankan": _("Closed kan"),
            "dora": _("Dora indicator"),
            "ura": _("Ura indicator"),
            "win": _("Winning tile: tap a tile of the hand"),
            "back": _("Back"),
            "clear": _("Clear"),
            "check": _("Value the tiles"),
            # The situational flags' keys, named as their yaku.
            **{flag.name: yaku_label(flag.yaku) for flag in KEYBOARD_FLAGS},
            "calls": _("Calls"),
            "indicators": _("Indicators"),
        },
        ensure_ascii=False,
    )


def offline_labels() -> dict[str, str | list[str]]:
    """The words of the offline hand panel (static/js/offline.js), in the reader's language;
    a message with a count as its forms for one and for more (:func:`_counted`)."""
    return {
        "offline": _(
            "No connection. Enter the hand here: it is kept on this phone and sent when the "
            "connection returns."
        ),
        "ron": _("Ron"),
        "tsumo": _("Tsumo"),
        "draw": _("Draw"),
        "loser": _("Who dealt in?"),
        "winner": _("Who won?"),
        "tenpai": _("Who was tenpai?"),
        "riichi": _("Riichi"),
        "value": _("Value"),
        "confirm": _("Keep it to send"),
        "waiting": _("waiting to send"),
        "estimated": _("estimated: the hand before it is not sent yet"),
        "conflict": _(
            "While this phone was offline, another phone entered hands in this game. Your hand "
            "waiting to send:"
        ),
        "after": _("Record it after them"),
        "discard": _("Discard it"),
        "refused": _("The server refused this hand:"),
        "olderCopy": _(
            "This copy of the page was saved before the latest hands: they are on the server "
            "and come back with the connection. Enter the next hand here."
        ),
        "otherLogin": _(
            "Kept on this phone while someone else was logged in: it is sent when they log in "
            "again here."
        ),
        # In place of the hand form while hands wait: [one hand, more] ("{n}" the count).
        "sendingFirst": _counted(
            "%(n)d hand is waiting to send. Sending it first.",
            "%(n)d hands are waiting to send. Sending them first.",
        ),
        "heldFirst": _counted(
            "%(n)d hand is waiting to send. First choose what to do with the hand held above.",
            "%(n)d hands are waiting to send. First choose what to do with the hand held above.",
        ),
        "sendNow": _("Send now"),
    }


_COUNT_SENTINEL = 987654


def _counted(singular: str, plural: str) -> list[str]:
    """A message with a count for the page's script: its form for one and for two, "{n}" in
    place of the count (English and Japanese have no other forms)."""
    return [
        (ngettext(singular, plural, n) % {"n": _COUNT_SENTINEL}).replace(
            str(_COUNT_SENTINEL), "{n}"
        )
        for n in (1, 2)
    ]
