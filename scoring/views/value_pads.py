"""The value pads the phone draws itself when a winner is tapped (static/js/table_steps.js):
the server's own pad (``scoring/game_detail.html#value-pad``, the same partial the table
screen renders) for a dealer's and a non-dealer's ron and tsumo, written once per ruleset
and language as a file of its own beside the engine's figures
(``/offline-values/<version>/<language>/pads-<fingerprint>.json``), kept by the browser's
cache and the service worker like them. The seat and the winner's name are left as
``{seat}`` and ``__NAME__`` for the phone to fill in.

The file: ``{"ron": html, "tsumo": html, "dealerRon": html, "dealerTsumo": html}``, each the
``<fieldset class="step value-pad">`` of an untapped pad.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re

from django.template.loader import render_to_string
from django.utils import translation

from scoring.engine import Ruleset
from scoring.entry.hand_form import HandForm
from scoring.entry.offline_data import ValuesFile as ValuesFile
from scoring.entry.value_pad import win_pads
from scoring.views.table_labels import tile_flags, tile_labels

NAME = "__NAME__"
SEAT = "{seat}"
# The pad's seat-named parts: its fields' names and ids, its own id and its parts' ids.
_SEAT_NAMED = (
    r"(value|tiles|yakuman)_{seat}(?![0-9])|(value-pad|pad-fold|tile-result)-{seat}(?![0-9])"
)


def _pad_html(rs: Ruleset, *, dealer: bool, tsumo: bool) -> str:
    """The untapped pad of the last seat (the dealer or not), its seat and name left open."""
    seat = rs.players - 1
    data: dict[str, str | list[str]] = (
        {"result": "tsumo", "winner": str(seat)}
        if tsumo
        else {"result": "ron", "loser": "0", "winners": [str(seat)]}
    )
    form = HandForm(
        data,
        ruleset=rs,
        names=[NAME] * rs.players,
        dealer=seat if dealer else 0,
        all_last=False,
    )
    [pad] = win_pads(form)
    html = render_to_string(
        "scoring/game_detail.html#value-pad",
        {
            "pad": pad,
            "ruleset": rs,
            "editing": None,
            "tile_labels": tile_labels(),
            "tile_flags": tile_flags(),
        },
    ).strip()
    pattern = re.compile(_SEAT_NAMED.format(seat=seat))
    return pattern.sub(lambda m: m.group(0)[: -len(str(seat))] + SEAT, html)


def value_pads(rs: Ruleset) -> dict[str, str]:
    """The four pads of ``rs`` in the active language (see the module docstring)."""
    return {
        "ron": _pad_html(rs, dealer=False, tsumo=False),
        "tsumo": _pad_html(rs, dealer=False, tsumo=True),
        "dealerRon": _pad_html(rs, dealer=True, tsumo=False),
        "dealerTsumo": _pad_html(rs, dealer=True, tsumo=True),
    }


@functools.lru_cache(maxsize=64)
def value_pads_file(rs: Ruleset, language: str) -> ValuesFile:
    """:func:`value_pads` for ``rs`` in ``language`` as the file the phone fetches (compact
    UTF-8 JSON and its fingerprint), made once per process."""
    with translation.override(language):
        pads = value_pads(rs)
    body = json.dumps(pads, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    return ValuesFile(body, hashlib.sha256(body).hexdigest()[:16])
