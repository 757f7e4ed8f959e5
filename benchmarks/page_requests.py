"""The requests the table screen sends for a hand, in order, shared by the benchmarks that
send them: the handler alone in process (:mod:`benchmarks.hand_entry`, Django's test client)
and the hand end to end through gunicorn and PostgreSQL (:mod:`benchmarks.hand_e2e`). When
the page's requests change, this is the one place to follow them.

A request is a path under the game's hands (``/games/<id>/hands/`` + ``path``: ``"preview/"``
for a tap's preview, ``""`` for the confirm) and its form fields in order; the CSRF token is
the sender's to add (the page's form carries it, htmx sends it as a header too).
"""

from __future__ import annotations

from typing import NamedTuple

# A ron as the table screen sends it: who dealt in (that is the ron), who won, a riichi, the
# value, then the confirm. Who dealt in shows the ron's steps on the phone and who won its
# value pad (static/js/table_steps.js, the pads file); the riichi before the value is kept by
# the page (static/js/table.js); the value's preview is drawn on the phone
# (static/js/table_preview.js): the confirm alone goes to the server.
# (name, value, whether the tap asks the server for a preview)
RON_TAPS = [
    ("loser", "2", False),
    ("winners", "1", False),
    ("riichi", "1", False),
    ("value_1", "3-30", False),
]
RON_PREVIEWS = sum(1 for _name, _value, asks in RON_TAPS if asks)


def asks_server(name: str, value: str) -> bool:
    """Whether the table screen asks the server for the preview of a tap on a fresh hand: an
    outcome other than a ron or a tsumo (a draw's "More: rare cases"); who dealt in, a ron's
    or tsumo's outcome, one winner, a riichi, a value and a draw's tenpai are drawn on the
    phone (:data:`RON_TAPS`)."""
    return name == "result" and value not in ("ron", "tsumo")


class PageRequest(NamedTuple):
    """One POST of the table screen: ``path`` under ``/games/<id>/hands/`` and its form
    ``fields`` ((name, value) pairs, in the order the page sends them)."""

    path: str
    fields: list[tuple[str, str]]

    @property
    def confirm(self) -> bool:
        """Whether this is the hand's confirm (the last request), not a preview."""
        return self.path == ""


def ron_requests(request_id: str, version: int) -> list[PageRequest]:
    """The requests of a ron with riichi and its value on the hand the game's ``version``
    (its hands so far) names, under the form's ``request_id``: a preview for each tap of
    :data:`RON_TAPS` that asks for one, with the taps so far (none now), then the confirm, which
    names the outcome (``result=ron``) and carries every tap.

    Makura 1.5, seat 0 dealing: seat 1 (a non-dealer, in riichi) rons seat 2 for 3 han 30 fu,
    3,900 points and the riichi stick back."""
    base = [("request_id", request_id), ("version", str(version))]
    tapped: list[tuple[str, str]] = []
    requests = []
    for name, value, asks in RON_TAPS:
        tapped.append((name, value))
        if asks:
            requests.append(PageRequest("preview/", base + tapped))
    requests.append(PageRequest("", [*base, ("result", "ron"), *tapped]))
    return requests
