"""Tenhou's lobby rules and result strings, as the club record needs them.

- The lobby type (mjlog ``<GO type>``, bits as Tenhou's viewer reads them: 0x10 three
  players, 0x08 East-South, 0x02 no red fives, 0x04 no open tanyao) and the JSON ``rule.disp``
  (``四鳳南喰赤``, ``三鳳東喰赤速``, Mahjong Soul's ``玉の間南喰赤``) → the built-in ruleset:
  ``tenhou-4p``/``tenhou-3p`` (East-South) or ``tenhou-4p-east``/``tenhou-3p-east``
  (docs/tenhou-rules.md). Red fives and open tanyao change no payment: the han already count
  them.
- A win's result string (``30符4飜7700点``, ``満貫2000-4000点``, ``役満16000点∀``) and yaku
  strings (``立直(1飜)``, ``大三元(役満)``) → the record's ``han``/``fu`` or ``limit``.
- How the ranked lobbies settled a game on a given day (:data:`SETTLEMENT_CHANGES`): the
  presets settle as docs/tenhou-rules.md §1 says (four players rounded to 1,000,
  three in tenths); Tenhou's logs show it settled otherwise in some years.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .log import TENHOU_LOG_ID, LogError
from .mjlog_hands import TENHOU_YAKU, TENHOU_YAKU_NAMES

THREE_PLAYERS = 0x10
EAST_SOUTH = 0x08

_COUNTED = re.compile(r"^(\d+)符(\d+)飜")
# A yaku string of a Tenhou JSON win: ``立直(1飜)``, ``ドラ(2飜)``, ``大三元(役満)``.
_YAKU = re.compile(r"^(?P<name>.+)\((?:(?P<han>\d+)飜|(?P<yakuman>役満))\)$")
# Tenhou's JSON yaku names (and the full-width/half-width forms of 13-sided kokushi) to the
# ``mahjong`` package's names, by Tenhou's yaku ids (:data:`.mjlog_hands.TENHOU_YAKU`).
_YAKU_OF_NAME = {name: TENHOU_YAKU[i] for i, name in enumerate(TENHOU_YAKU_NAMES)} | {
    "国士無双13面": "daburu_kokushi",
}
_LIMITS = (
    ("数え役満", "yakuman"),
    ("三倍満", "sanbaiman"),
    ("倍満", "baiman"),
    ("跳満", "haneman"),
    ("満貫", "mangan"),
    ("役満", "yakuman"),
)


def ruleset_ids(*, players: int, east_south: bool | None) -> tuple[str, ...]:
    """The Tenhou presets for ``players`` seats; both lengths when the log does not say."""
    base = "tenhou-3p" if players == 3 else "tenhou-4p"
    if east_south is None:
        return (base, f"{base}-east")
    return (base,) if east_south else (f"{base}-east",)


def rulesets_of_go_type(go_type: int) -> tuple[int, tuple[str, ...]]:
    """Seats and presets of an mjlog ``<GO type>``."""
    players = 3 if go_type & THREE_PLAYERS else 4
    return players, ruleset_ids(players=players, east_south=bool(go_type & EAST_SOUTH))


def rulesets_to_try(rulesets: tuple[str, ...], players: int, log_id: str) -> tuple[str, ...]:
    """The presets a Tenhou log's hands are tried under, likeliest first:
    the length its log id's lobby type gives (``2022…gm-00e1-…``: bit 0x08 East-South) where
    the log has a Tenhou id, then the lobby rules' own (``rulesets``: the mjlog's GO type or
    the JSON's ``rule.disp``), then the other length. Where the log id, the lobby rules and
    the hands played disagree (a GO type that says East-only in a game played into South and
    West), the length under which every hand agrees is kept, as the variants are."""
    match = TENHOU_LOG_ID.fullmatch(log_id)
    by_id: tuple[str, ...] = ()
    if match:
        east_south = bool(int(match["type"], 16) & EAST_SOUTH)
        by_id = ruleset_ids(players=players, east_south=east_south)
    both = ruleset_ids(players=players, east_south=None)
    return tuple(dict.fromkeys((*by_id, *rulesets, *both)))


def rulesets_of_disp(disp: str, players: int) -> tuple[str, ...]:
    """Presets of a JSON ``rule.disp``: ``南`` East-South, ``東`` East only."""
    if "南" in disp:
        return ruleset_ids(players=players, east_south=True)
    if "東" in disp:
        return ruleset_ids(players=players, east_south=False)
    return ruleset_ids(players=players, east_south=None)


ROUNDED = {"final_rounding": "round_half_away", "top_takes_remainder": True}
TENTHS = {"final_rounding": "none", "top_takes_remainder": False}


@dataclass(frozen=True, slots=True)
class SettlementChange:
    """A change in how Tenhou's ranked lobbies settled a game, as the logs' own settlement
    shows it (mjlog ``owari``, the JSON ``sc``): ``before`` the ruleset parameters of the
    last log seen settled the old way (on ``last_before``), ``after`` those of the first log
    seen settled the new way (on ``first_after``). Between the two days the change's day is
    not known: each log there is settled as its own settlement says
    (:func:`settlement_eras`). ``players`` and ``east_south`` (``None``: both lengths) say
    which presets it concerns; ``evidence`` names the logs (docs/online-logs.md)."""

    players: int
    east_south: bool | None
    before: Mapping[str, Any]
    last_before: datetime.date
    after: Mapping[str, Any]
    first_after: datetime.date
    evidence: str


SETTLEMENT_CHANGES: tuple[SettlementChange, ...] = (
    SettlementChange(
        players=4,
        east_south=False,
        before={"uma": [10000, 5000, -5000, -10000]},
        last_before=datetime.date(2009, 7, 31),
        after={"uma": [20000, 10000, -10000, -20000]},
        first_after=datetime.date(2009, 8, 27),
        evidence=(
            "owari of 2009071823gm-0041, 2009072917gm-0061, 2009072918gm-0061, "
            "2009073112gm-0061 (uma 10/5); 2009082713gm-00e1 and later (uma 20/10)"
        ),
    ),
    SettlementChange(
        players=4,
        east_south=None,
        before=ROUNDED,
        last_before=datetime.date(2021, 1, 9),
        after=TENTHS,
        first_after=datetime.date(2022, 1, 31),
        evidence=(
            "owari of 2021010917gm-0089 (-36.0 for 13,700: rounded); sc of "
            "2022013100gm-00a9 (+44.5 for 34,500) and owari of 2022060222gm-0001 (-15.7 for "
            "24,300): in tenths"
        ),
    ),
    SettlementChange(
        players=3,
        east_south=None,
        before=ROUNDED,
        last_before=datetime.date(2021, 1, 2),
        after=TENTHS,
        first_after=datetime.date(2024, 1, 1),
        evidence=(
            "owari of 2018110809gm-00b9 (+8.0 for 48,100: rounded) and sc of "
            "2021010217gm-00b9 (+42 for 47,200, -8 for 31,900: rounded); sc of "
            "2024010120gm-00b9 (+70.7 for 75,700): in tenths"
        ),
    ),
)


def settlement_eras(
    players: int, east_south: bool, played_on: datetime.date | None
) -> tuple[dict[str, Any], ...]:
    """The settlements a ranked Tenhou game of ``players`` seats and that length played on
    ``played_on`` may have had, as ruleset parameters, likeliest first.

    One for a day every change concerning the game is known for (before its
    ``last_before`` or from its ``first_after``); else one per choice left open (a day
    between the two, or no day at all: every era), the earlier settlement first. ``({},)``
    where no change concerns the game (the preset's own settlement).
    """
    choices: list[tuple[Mapping[str, Any], ...]] = []
    for change in SETTLEMENT_CHANGES:
        if change.players != players or change.east_south not in (None, east_south):
            continue
        if played_on is not None and played_on <= change.last_before:
            choices.append((change.before,))
        elif played_on is not None and played_on >= change.first_after:
            choices.append((change.after,))
        else:
            choices.append((change.before, change.after))
    return tuple(
        {key: value for part in combination for key, value in part.items()}
        for combination in itertools.product(*choices)
    )


def win_value(result: str, yaku: list[Any], where: str) -> dict[str, Any]:
    """The record's value keys of a Tenhou JSON win.

    Args:
        result: the result string, e.g. ``"30符4飜7700点"`` or ``"倍満8000点∀"``.
        yaku: the yaku strings after it, e.g. ``["立直(1飜)", "大三元(役満)"]``.

    Returns:
        ``{"han": h, "fu": f}`` for a counted hand below yakuman, ``{"limit": name}`` for a
        limit hand written without fu, ``{"limit": "yakuman", "yakuman": n}`` for a yakuman
        (``n`` yakuman named; a counted yakuman is 1).

    Raises:
        LogError: a result string in none of these forms.
    """
    if not isinstance(result, str):
        raise LogError(f"{where}: {result!r} is not a result string")
    yakuman = sum(1 for y in yaku if isinstance(y, str) and y.endswith("(役満)"))
    if yakuman:
        return {"limit": "yakuman", "yakuman": yakuman}
    counted = _COUNTED.match(result)
    if counted:
        return {"han": int(counted[2]), "fu": int(counted[1])}
    for word, limit in _LIMITS:
        if result.startswith(word):
            if limit == "yakuman":
                return {"limit": "yakuman", "yakuman": 1}
            return {"limit": limit}
    raise LogError(f"{where}: {result!r} is not a result Tenhou writes")


def json_yaku(yaku: list[Any]) -> list[dict[str, Any]]:
    """The record's ``yaku`` of a Tenhou JSON win, as an mjlog's ``<AGARI>`` gives them
    (:func:`.mjlog_hands.win_description`): ``[{"name": "riichi", "han": 1}, ...]``, a
    yakuman 13, a yaku of no han (``ドラ(0飜)``) left out, and so is a string of no known
    yaku (the win's value is read from its result string alone)."""
    out = []
    for text in yaku:
        match = _YAKU.match(text) if isinstance(text, str) else None
        name = _YAKU_OF_NAME.get(match["name"].strip()) if match else None
        if match is None or name is None:
            continue
        han = 13 if match["yakuman"] else int(match["han"])
        if han:
            out.append({"name": name, "han": han})
    return out


def mjlog_win_value(ten: str, yaku: str, yakuman: str, where: str) -> dict[str, Any]:
    """The record's value keys of an mjlog ``<AGARI>``.

    ``ten`` is ``"fu,points,limit"`` (limit 5 = yakuman), ``yaku`` pairs of yaku id and han,
    ``yakuman`` the yakuman ids. A yakuman gives its count (a counted yakuman, with no
    yakuman id, is 1); every other win its han (the pairs' sum) and fu.

    Raises:
        LogError: attributes that are not lists of integers.
    """
    try:
        fu, _points, limit = (int(x) for x in ten.split(","))
        pairs = [int(x) for x in yaku.split(",")] if yaku else []
        yakuman_ids = [int(x) for x in yakuman.split(",")] if yakuman else []
    except ValueError:
        raise LogError(f"{where}: ten/yaku/yakuman are not lists of integers") from None
    if yakuman_ids:
        return {"limit": "yakuman", "yakuman": len(yakuman_ids)}
    if limit == 5:
        return {"limit": "yakuman", "yakuman": 1}
    han = sum(pairs[1::2])
    return {"han": han, "fu": fu}
