"""What the table screen needs to take hands without a connection, all of
it computed by the engine.

The page carries, as JSON (``json_script``, no inline code), the table as it stands
(:func:`offline_data`): seats, position (round and dealer), honba, deposits, scores, the game
version the next hand is entered on. The engine's figures for the game's ruleset
(:func:`offline_values`: :func:`offline_rules` and the value grid of the pads) are a file of
their own (:func:`offline_values_file`, ``scoring.views.offline_values``), addressed by the
ruleset, the language and its fingerprint: the phone fetches it once and keeps it (HTTP cache,
service worker) for every game of that ruleset, instead of 8 KB more on every load.

:func:`offline_rules` restates no rule: every number in it is read off
:class:`scoring.engine.Game` by playing probe hands. For each kind of hand offline offers (a
ron with one winner, a tsumo, an exhaustive draw), keyed by the seats relative to the dealer,
it holds each seat's change for every value at 0 honba, the change per honba, each seat's
share of the deposits on the table; and, for every position of the game (wind and dealer), the
position and honba after such a hand, or the way the game ends, where these are the same
whatever the scores; where they are not (dealer-top ends, extensions), ``null``: the panel
then shows no figure after that hand. ``static/js/offline_table.js`` only adds these up;
``tests/test_offline_agreement.py`` plays 1,000 hand sequences per ruleset through both and
finds no difference. The server, once a hand is sent, plays it as any other hand, and that
result stands.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from scoring.engine import Game, RecordError, Ruleset, basic_points, legal_fu, parse_hand
from scoring.engine.limits import LIMIT_BASIC_POINTS
from scoring.engine.settlement import rank_order
from scoring.entry.all_last_words import all_last_words
from scoring.entry.pad_values import value_choices
from scoring.entry.value_pad import COMMON_FU_MAX
from scoring.rulebook.hand_labels import (
    FU_VALUES,
    GRID_HAN,
    LIMIT_LABELS,
    PAYMENT_REASONS,
    counted_limit,
    fu_label,
    han_fu_label,
    han_label,
    payment_lines,
    top_counted_han,
)

# Probe scores: high enough that no probe payment busts anyone or trips a riichi minimum.
_PROBE_SCORE = 1_000_000
_PROBE_DEPOSITS = 1_000
# The widest range of scores searched for the riichi minimum and the bust line.
_SCORE_BOUND = 10_000_000
# The highest honba searched for a value the ruleset refuses from some honba on.
_HONBA_BOUND = 64
# The round and honba as the page says them (scoring.views.display's msgids, one catalogue
# entry each; scoring.views imports this module, so it cannot import them back).
_ROUND_WINDS = {
    "E": pgettext_lazy("round wind", "East"),
    "S": pgettext_lazy("round wind", "South"),
    "W": pgettext_lazy("round wind", "West"),
    "N": pgettext_lazy("round wind", "North"),
}
# A sentinel the page's honba words are built with, replaced by the count in the browser.
_HONBA_SENTINEL = 987_654


def win_of(value: str) -> dict[str, Any]:
    """A pad value as a record win's value keys (docs/game-record-format.md): ``"3-30"`` ->
    ``{"han": 3, "fu": 30}``, ``"6"`` -> ``{"han": 6}``, ``"mangan"`` -> ``{"limit":
    "mangan"}`` (a yakuman of one multiple); as the hand form turns a tap into a win."""
    if value in LIMIT_LABELS:
        return {"limit": value}
    han, _dash, fu = value.partition("-")
    return {"han": int(han), "fu": int(fu)} if fu else {"han": int(han)}


def hand_json(kind: str, dealer: int, players: int, value: str = "") -> dict[str, Any]:
    """The record hand of an offline kind of hand (see :func:`kinds`), the seats in ``kind``
    counted from ``dealer``: ``"r12"`` a ron by the dealer's right... ``"t0"`` the dealer's
    tsumo, ``"d5"`` a draw with the tenpai seats as bits (0 and 2 here)."""

    def seat(relative: int) -> int:
        return (relative + dealer) % players

    if kind[0] == "r":
        return {
            "result": "ron",
            "loser": seat(int(kind[2])),
            "wins": [{"winner": seat(int(kind[1])), **win_of(value)}],
        }
    if kind[0] == "t":
        return {"result": "tsumo", "wins": [{"winner": seat(int(kind[1])), **win_of(value)}]}
    mask = int(kind[1:])
    return {"result": "draw", "tenpai": [seat(r) for r in range(players) if mask >> r & 1]}


def kinds(players: int) -> Iterator[str]:
    """Every kind of hand offline offers, by the seats relative to the dealer: ``r<w><l>``
    (ron, winner ``w``, loser ``l``), ``t<w>`` (tsumo), ``d<mask>`` (exhaustive draw)."""
    for w in range(players):
        for loser in range(players):
            if w != loser:
                yield f"r{w}{loser}"
    for w in range(players):
        yield f"t{w}"
    for mask in range(1 << players):
        yield f"d{mask}"


def _probe(
    rs: Ruleset,
    hand: Mapping[str, Any],
    *,
    position: int = 0,
    honba: int = 0,
    deposits: int = 0,
    scores: list[int] | None = None,
) -> Game | None:
    """A game at ``position`` (wind x players + dealer) after ``hand``; None if refused."""
    n = rs.players
    game = Game.restore(
        rs,
        {
            "hands_played": 0,
            "scores": scores or [_PROBE_SCORE] * n,
            "deposits": deposits,
            "honba": honba,
            "wind_index": position // n,
            "hand_number": position % n,
            "chips": [0] * n,
            "win_counts": [0] * n,
        },
    )
    try:
        game.play(parse_hand(dict(hand), n, 0))
    except RecordError:
        return None
    return game


def _deltas(game: Game) -> list[int]:
    return list(game.results[-1].deltas)


def _first(low: int, high: int, holds: Any) -> int:
    """The least x in (low, high] with ``holds(x)``, given ``holds(high)`` and not
    ``holds(low)`` and one change between them."""
    while high - low > 1:
        middle = (low + high) // 2
        if holds(middle):
            high = middle
        else:
            low = middle
    return high


@functools.lru_cache(maxsize=64)
def offline_rules(rs: Ruleset) -> dict[str, Any]:
    """The engine's figures for offline hands under ``rs`` (see the module docstring).

    Shape: ``players``; ``stick`` (a riichi deposit); ``riichiFrom`` (the least score that
    may declare riichi, None: any); ``bustAt`` (the highest score that ends the game by tobi,
    None: no tobi); ``rounds`` (the round code of each position); ``hands``: per kind (see
    :func:`kinds`) ``{"values": {value: each seat's change at 0 honba}, "honba": change per
    honba, "pot": each seat's share of the deposits}``, seats counted from the dealer;
    ``refusedFrom``: per ``ron``/``tsumo``, the honba from which the engine refuses a value;
    ``next``: per position, per kind, ``[position, a, b]`` (honba after = a x honba + b),
    the way the game ends (``"last_hand"``...), ``{"gate", "below", "above"}`` where the top
    score after the hand decides between two of these, or None where what follows depends on
    the scores otherwise (a dealer-top end); ``allLast``: the positions that are an all-last
    hand (``Game.is_all_last``); ``tieOrder``: the seats in the order the engine places equal
    scores (``rank_order``), for the all-last conditions (``static/js/offline_all_last.js``).
    """
    n = rs.players
    all_kinds = list(kinds(n))
    # Only the values: asked in the active language, so that the cache of labels per language
    # never holds one language's labels under another's name.
    values = [value for value, _label in value_choices(rs, get_language() or "")]
    hands: dict[str, dict[str, Any]] = {}
    refused_from: dict[str, dict[str, int]] = {"ron": {}, "tsumo": {}}
    for outcome, kind in (("ron", "r10"), ("tsumo", "t1")):
        for value in values:
            if _probe(rs, hand_json(kind, 0, n, value)) is None:
                continue
            if _probe(rs, hand_json(kind, 0, n, value), honba=_HONBA_BOUND) is None:
                refused_from[outcome][value] = _first(
                    0,
                    _HONBA_BOUND,
                    lambda h, v=value, k=kind: _probe(rs, hand_json(k, 0, n, v), honba=h) is None,
                )
    for kind in all_kinds:
        by_value: dict[str, list[int]] = {}
        for value in values if kind[0] != "d" else [""]:
            game = _probe(rs, hand_json(kind, 0, n, value))
            if game is not None:
                by_value[value] = _deltas(game)
        sample = next(iter(by_value))
        base = by_value[sample]
        one = _probe(rs, hand_json(kind, 0, n, sample), honba=1)
        pot = _probe(rs, hand_json(kind, 0, n, sample), deposits=_PROBE_DEPOSITS)
        assert one is not None and pot is not None
        hands[kind] = {
            "values": by_value,
            "honba": [a - b for a, b in zip(_deltas(one), base, strict=True)],
            "pot": [(a - b) // _PROBE_DEPOSITS for a, b in zip(_deltas(pot), base, strict=True)],
        }
    quiet = hand_json("d0", 0, n)
    with_riichi = _probe(rs, quiet | {"riichi": [1]})
    assert with_riichi is not None
    stick = -_deltas(with_riichi)[1]
    return {
        "players": n,
        "stick": stick,
        "riichiFrom": _riichi_from(rs, quiet),
        "bustAt": _bust_at(rs, quiet),
        "rounds": [f"{wind}{p % n + 1}" for wind in rs.round_winds() for p in range(n)],
        "hands": hands,
        "refusedFrom": refused_from,
        "next": [_transitions(rs, p, hands) for p in range(len(rs.round_winds()) * n)],
        "allLast": [p for p in range(len(rs.round_winds()) * n) if _at(rs, p).is_all_last()],
        "tieOrder": rank_order(rs, [rs.start_points] * n),
    }


def _at(rs: Ruleset, position: int) -> Game:
    """A game at ``position`` (wind x players + dealer), no hand played."""
    n = rs.players
    return Game.restore(
        rs,
        {
            "hands_played": 0,
            "scores": [rs.start_points] * n,
            "deposits": 0,
            "honba": 0,
            "wind_index": position // n,
            "hand_number": position % n,
            "chips": [0] * n,
            "win_counts": [0] * n,
        },
    )


def _riichi_from(rs: Ruleset, quiet: dict[str, Any]) -> int | None:
    n = rs.players

    def allowed(score: int) -> bool:
        scores = [_PROBE_SCORE] * n
        scores[1] = score
        return _probe(rs, quiet | {"riichi": [1]}, scores=scores) is not None

    if allowed(-_SCORE_BOUND):
        return None
    return _first(-_SCORE_BOUND, _SCORE_BOUND, allowed)


def _bust_at(rs: Ruleset, quiet: dict[str, Any]) -> int | None:
    n = rs.players

    def not_bust(score: int) -> bool:
        scores = [_PROBE_SCORE] * n
        scores[1] = score
        game = _probe(rs, quiet, scores=scores)
        return game is not None and game.ended_by != "tobi"

    if not_bust(-_SCORE_BOUND):
        return None
    return _first(-_SCORE_BOUND, _SCORE_BOUND, not_bust) - 1


def _after(rs: Ruleset, hand: Mapping[str, Any], position: int, scores: list[int]) -> Any:
    """What the engine does after ``hand`` at ``position`` from ``scores``, 1 honba: the way
    the game ends, ``[position after, a, b]`` (honba after = a x honba + b), or None (refused,
    or a bust)."""
    n = rs.players
    game = _probe(rs, hand, position=position, honba=1, scores=scores)
    if game is None or game.ended_by == "tobi":
        return None
    if game.ended_by is not None:
        return game.ended_by
    again = _probe(rs, hand, position=position, honba=3, scores=scores)
    assert again is not None
    a = (again.honba - game.honba) // 2
    return [game.wind_index * n + game.hand_number, a, game.honba - a]


def _transitions(
    rs: Ruleset, position: int, hands: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """Per kind of hand at ``position``: what follows it (see :func:`_after`) where it is the
    same whatever the scores (all at the start score, or one seat far ahead, past any
    extension target); else, where the engine's answer turns on the top score after the
    hand alone (an extension's target, checked by probes on every seat at both sides of the
    line), ``{"gate": line, "below": ..., "above": ...}``; else None."""
    n = rs.players
    start = rs.start_points
    lead = start * 2 // 5
    profiles = [[start] * n] + [
        [start + (n - 1) * lead if s == top else start - lead for s in range(n)] for top in range(n)
    ]
    out: dict[str, Any] = {}
    for kind, figures in hands.items():
        # The smallest value: a probe hand busts nobody.
        value = min(figures["values"], key=lambda v: max(figures["values"][v]))
        hand = hand_json(kind, position % n, n, value)
        seen = [_after(rs, hand, position, scores) for scores in profiles]
        if None not in seen and all(after == seen[0] for after in seen):
            out[kind] = seen[0]
        else:
            out[kind] = _gate(rs, hand, position)
    return out


def _gate(rs: Ruleset, hand: Mapping[str, Any], position: int) -> dict[str, Any] | None:
    """The line on the top score after the hand that alone decides what follows it, as the
    engine shows it: found on one seat, checked on every seat just below and at the line
    with the others well under it; None where that does not hold."""
    n = rs.players
    played = _probe(rs, hand, position=position, honba=1)
    if played is None:
        return None
    deltas = _deltas(played)  # as _after plays it: at 1 honba
    low = rs.start_points * 3 // 5

    def profile(top: int, after: int) -> list[int]:
        # ``after``: the top seat's score after the hand.
        return [after - deltas[top] if s == top else low for s in range(n)]

    floor, ceiling = low + 10 * max(map(abs, deltas)), 10 * rs.start_points
    below = _after(rs, hand, position, profile(0, floor))
    above = _after(rs, hand, position, profile(0, ceiling))
    if below is None or above is None or below == above:
        return None
    line = _first(floor, ceiling, lambda x: _after(rs, hand, position, profile(0, x)) == above)
    for top in range(n):
        for after, expected in ((line - 1, below), (line, above), (ceiling, above)):
            if _after(rs, hand, position, profile(top, after)) != expected:
                return None
    return {"gate": line, "below": below, "above": above}


def offline_pads(rs: Ruleset) -> dict[str, Any]:
    """The value pad of the offline panel, as the online pad draws it (scoring.entry.value_pad):
    the limits; the han x fu grid, rows of fu up to 40 shown, the rest folded; the counted han.
    Per pad ``"ron"``, ``"tsumo"``, ``"dealerRon"``, ``"dealerTsumo"``: each cell
    ``{"value", "lines", "spoken", "capped"}`` or None where the value is not possible; each
    counted han ``{"value", "lines"}``, with ``"capped": true`` where below 5 han it is a
    mangan (a han-only pad under kiriage)."""
    mangan = LIMIT_BASIC_POINTS["mangan"]
    pads = {}
    for name, dealer, tsumo in (
        ("ron", False, False),
        ("tsumo", False, True),
        ("dealerRon", True, False),
        ("dealerTsumo", True, True),
    ):
        rows = []
        if rs.fu_scoring:
            allowed = {han: set(legal_fu(rs, han, tsumo)) for han in range(1, GRID_HAN + 1)}
            for fu in sorted(set().union(*allowed.values()) & set(FU_VALUES)):
                cells = [
                    {
                        "value": f"{han}-{fu}",
                        "lines": list(payment_lines(rs, han, fu, dealer=dealer, tsumo=tsumo)),
                        "spoken": han_fu_label(han, fu),
                        "capped": basic_points(rs, han, fu) >= LIMIT_BASIC_POINTS["mangan"],
                    }
                    if fu in allowed[han]
                    else None
                    for han in range(1, GRID_HAN + 1)
                ]
                rows.append({"fu": fu_label(fu), "more": fu > COMMON_FU_MAX, "cells": cells})
        han_taps = []
        for han in range(GRID_HAN + 1 if rs.fu_scoring else 1, top_counted_han(rs) + 1):
            if han > GRID_HAN:
                detail = [str(LIMIT_LABELS[counted_limit(rs, han)])]
            else:
                detail = list(payment_lines(rs, han, rs.fixed_fu, dealer=dealer, tsumo=tsumo))
            tap: dict[str, Any] = {"value": str(han), "lines": [han_label(han), *detail]}
            if han <= GRID_HAN and basic_points(rs, han, rs.fixed_fu) >= mangan:
                # Worded as the limit it pays (the all-last conditions), not as its payment.
                tap["capped"] = True
            han_taps.append(tap)
        pads[name] = {"rows": rows, "han": han_taps}
    return {
        "columns": [han_label(h) for h in range(1, GRID_HAN + 1)] if rs.fu_scoring else [],
        "limits": [{"value": v, "label": str(label)} for v, label in LIMIT_LABELS.items()],
        "pads": pads,
        "moreLabel": _("50+ fu, 5+ han"),
        "hanCaption": _("Counted hands: 5 han and more"),
    }


@functools.lru_cache(maxsize=64)
def _pads(rs: Ruleset, language: str) -> dict[str, Any]:
    return offline_pads(rs)


def offline_values(rs: Ruleset) -> dict[str, Any]:
    """The engine's figures for offline hands under ``rs`` and the pad to enter them, in the
    reader's language (the same all game long: the full page carries it once, the table's
    updates do not): ``rules`` (:func:`offline_rules`), ``pad`` (:func:`offline_pads`),
    ``roundLabels`` (per position), ``honbaLabel`` (``{n}`` for the count), the words for the
    deposits, the end of the game and a table offline cannot know; ``allLast``: the words of
    the all-last conditions (:func:`~scoring.entry.all_last_words.all_last_words`)."""
    rules = offline_rules(rs)
    return {
        "rules": rules,
        "pad": _pads(rs, get_language() or ""),
        "roundLabels": [
            _("%(wind)s %(number)s") % {"wind": _ROUND_WINDS[code[0]], "number": code[1:]}
            for code in rules["rounds"]
        ],
        "honbaLabel": (_("%(n)d honba") % {"n": _HONBA_SENTINEL}).replace(
            str(_HONBA_SENTINEL), "{n}"
        ),
        "depositsLabel": _("Deposits"),
        "allLast": all_last_words(rs.players),
        "endedLabel": _("The game ends with this hand."),
        "unknownLabel": _(
            "Estimate unavailable: what follows this hand depends on a rule this phone cannot "
            "check offline. The server works it out when the hands are sent."
        ),
        "overLabel": _("Estimate unavailable: the game has already ended."),
        "refusedLabel": _(
            "This game's rules do not allow this hand here: check the value and the riichi."
        ),
        "previewWords": preview_words(),
    }


def preview_words() -> dict[str, Any]:
    """The words of a hand's preview drawn on the phone (static/js/hand_preview.js,
    table_preview.js), as the server's preview says them (``scoring/game_detail.html#entry``,
    scoring.views.display): the payment reasons, "the table", the headings, and the next
    hand's line with ``{name}`` for the dealer."""
    return {
        "table": _("Table"),
        "reasons": {reason: str(label) for reason, label in PAYMENT_REASONS.items()},
        "payments": _("Payments"),
        "nobody": _("Nobody pays anybody."),
        "player": _("Player"),
        "change": _("Change"),
        "score": _("Score"),
        "depositsAfter": _("Deposits on the table after the hand"),
        "next": _("Next"),
        "keeps": _("%(name)s keeps the deal") % {"name": "{name}"},
        "deals": _("%(name)s deals") % {"name": "{name}"},
    }


def offline_data(
    rs: Ruleset,
    table: Mapping[str, Any],
    *,
    names: list[str],
    version: int,
    action: str,
    labels: Mapping[str, str | list[str]],
    where: str = "",
    user: int | None = None,
) -> dict[str, Any]:
    """The table as it stands, for offline entry (see the module docstring): ``table`` is the
    game's stored table (``round``, ``dealer``, ``honba``, ``deposits``, ``scores``);
    ``labels`` the few words the offline panel shows, in the reader's language (a counted
    message as its forms for one and for more, "{n}" the count); ``where``
    the round, honba and deposits as the page says them; ``user`` the login the page is for
    (hands kept offline are sent by the login that kept them). ``position`` is the round's
    index in :func:`offline_rules`'s ``rounds``. Sent with every update of the table's status;
    :func:`offline_values` goes with it on the page."""
    rounds = [f"{wind}{p + 1}" for wind in rs.round_winds() for p in range(rs.players)]
    return {
        "action": action,
        "version": version,
        "seats": names,
        "position": rounds.index(table["round"]) if table["round"] in rounds else None,
        "dealer": table["dealer"],
        "round": table["round"],
        "honba": table["honba"],
        "deposits": table["deposits"],
        "scores": list(table["scores"]),
        "where": where,
        "user": user,
        "labels": labels,
    }


@dataclass(frozen=True, slots=True)
class ValuesFile:
    """:func:`offline_values` of one ruleset in one language as the file the phone fetches:
    ``body`` (compact UTF-8 JSON, some 55 KB) and ``digest`` (16 hex digits of its SHA-256,
    the file's fingerprint in its address)."""

    body: bytes
    digest: str


@functools.lru_cache(maxsize=64)
def offline_values_file(rs: Ruleset, language: str) -> ValuesFile:
    """:func:`offline_values` for ``rs`` in ``language`` (a code of ``LANGUAGES``), made once
    per process: the same ruleset and language give the same bytes and digest in every
    process, so a phone's cached copy serves every game of that ruleset."""
    with translation.override(language):
        values = offline_values(rs)
    body = json.dumps(values, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    encoded = body.encode()
    return ValuesFile(encoded, hashlib.sha256(encoded).hexdigest()[:16])
