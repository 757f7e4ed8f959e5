"""The next hand's form after a confirm, drawn once per game and filled in for each hand.

A hand recorded from the table screen while the game goes on is answered with, among the
regions that changed, the hand-entry region for the next hand: a fresh, empty form. That form
is the same from one hand to the next but for a handful of values: its request id, the game
version it is drawn at, the CSRF token, the notice ("Hand 5 recorded"), and the seat winds in
front of the names, which follow the dealer. Everything else it shows depends on the game (its
address, ruleset, players' names, the viewer's rights), the language, and three facts of the
table that change rarely: time called, all-last (the dealer's agari-yame), and paarenchan.

So the region is rendered once for a game and those facts, with marks in place of the
changing values (:func:`next_entry_html`), kept in this process (a bounded LRU), and each
confirm fills the marks in: the confirm neither builds the next hand's form nor renders its
region. ``tests/test_next_entry.py`` holds every answer equal, byte for byte but for the
random request id and CSRF token, to the region rendered anew, hand after hand through sample
games of every shipped ruleset in both languages.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.urls import get_script_prefix
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from scoring.engine import is_paarenchan_next
from scoring.entry.hand_form import HandForm
from scoring.rulebook.hand_labels import SEAT_WINDS
from scoring.views.hand_forms import new_hand_form, paarenchan_streak
from scoring.views.table_regions import TablePage, entry_region

# The marks: text no form value, name or translation holds. The request id's is a UUID (the
# form renders the UUID given), the version's a number no game reaches.
_REQUEST_ID = uuid.UUID("6e657874-2d68-4e61-ae64-2d666f726d21")
_VERSION = 987_654_321_012
_CSRF = "next-entry-csrf-token-mark"
_NOTICE = "next-entry-notice-mark"
_WIND = "next-entry-wind-{seat}-mark"

# Regions kept in a process: a club night's tables in two languages, a few of them with time
# called or all-last, several times over (each about 13 KB).
_KEPT = 256


class _MarkedWindForm(HandForm):
    """The next hand's form with a mark for each seat's wind (filled in per dealer)."""

    def _seat_label(self, seat: int) -> str:
        return format_html(
            '<span class="seat-wind" aria-hidden="true">{}</span> {}',
            _WIND.format(seat=seat),
            self.names[seat],
        )


class _Regions:
    """The rendered regions of this process, least recently used first out."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._lock = threading.Lock()
        # Regions filled in from a kept one, and drawn (and kept), since the last clear.
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: tuple[Any, ...]) -> str | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                self._kept.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], html: str) -> None:
        with self._lock:
            self._kept[key] = html
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.hits = self.misses = 0


REGIONS = _Regions(_KEPT)


def reusable(request: HttpRequest, page: TablePage) -> bool:
    """Whether the next hand's region may be filled in from a kept one: the viewer keeps
    the score of a game in play and has no message waiting (the region shows those, and
    showing them uses them up), and ``settings.TABLE_NEXT_ENTRY_REUSE`` is on."""
    return (
        getattr(settings, "TABLE_NEXT_ENTRY_REUSE", True)
        and page.in_play
        and page.can_keep
        and len(get_messages(request)) == 0
    )


def next_entry_html(request: HttpRequest, page: TablePage, notice: str) -> SafeString:
    """The hand-entry region (``scoring/game_detail.html#entry``) for the next hand of
    ``page``'s game, with ``notice`` as a success: the same HTML as the region rendered anew,
    but for a fresh request id and CSRF token. Only where :func:`reusable` says so.

    Returns:
        The region's HTML, safe (the notice escaped here, as the template would).
    """
    hanchan = page.hanchan
    table = hanchan.state["table"]
    paarenchan = is_paarenchan_next(paarenchan_streak(hanchan, page.ruleset))
    key = (
        get_script_prefix(),  # the club's address the region's links are under
        hanchan.pk,
        hanchan.ruleset_version_id,
        json.dumps(hanchan.overrides or {}, sort_keys=True),
        get_language(),
        tuple(page.names),
        page.can_change,
        hanchan.time_called,
        table["all_last"],
        paarenchan,
    )
    marked = REGIONS.get(key)
    if marked is None:
        marked = _render_marked(request, page)
        REGIONS.put(key, marked)
    players = page.ruleset.players
    dealer = table["dealer"]
    html = (
        marked.replace(str(_REQUEST_ID), str(uuid.uuid4()))
        .replace(f'value="{_VERSION}"', f'value="{hanchan.version}"')
        .replace(_CSRF, get_token(request))
        .replace(_NOTICE, str(conditional_escape(notice)))
    )
    for seat in range(players):
        wind = conditional_escape(SEAT_WINDS[(seat - dealer) % players])
        html = html.replace(_WIND.format(seat=seat), str(wind))
    return mark_safe(html)  # noqa: S308  # rendered by the template, the fills escaped


def _render_marked(request: HttpRequest, page: TablePage) -> str:
    """The region rendered with the marks in place of the values that change by hand."""
    form = new_hand_form(page.hanchan, page.ruleset, form_class=_MarkedWindForm)
    form.initial.update(request_id=_REQUEST_ID, version=_VERSION)
    context = (
        page.context()
        | entry_region(page, form=form, notice=_NOTICE, notice_is_success=True)
        | {"csrf_token": _CSRF, "messages": ()}
    )
    # The region alone: the partial's own surroundings come with the template filling it in.
    return get_template("scoring/game_detail.html#entry").render(context, request).strip()
