"""A lobby's rules as its log shows them: private lobbies, tournament rooms.

The Tenhou presets (docs/tenhou-rules.md) are the ranked lobbies' rules. A private lobby
(Tenhou's ``L####`` and ``C########`` rooms, a Mahjong Soul friendly or tournament room) may
start at other points and settle with its own return, oka, uma and rounding; the log shows
them:

- **start points**: the first hand's start scores (mjlog ``INIT ten``, the JSON's first
  round), when every seat has the same;
- **return, oka, uma, rounding**: from the log's own settlement (mjlog ``owari``, the JSON
  ``sc``) and final scores. For each return (the preset's, the start, the start + 5,000,
  30,000, 25,000, 35,000, 40,000) and rounding (the preset's, none, Tenhou's round half
  away) the uma of each rank is what the stated points leave after the score's difference
  to the return (the top's after the oka: the return less the start, per seat), in whole
  thousands; the first candidate under which the engine's own settlement
  (:func:`scoring.engine.final_settlement`) gives every stated point is kept. A log that
  states no settlement keeps the preset's uma, with the return at least the start (and the
  oka (return - start) per seat). A JSON ``sc`` is Tenhou's own settlement, as its
  ``owari`` (the 2022 logs' ``sc`` in tenths is Tenhou's settlement of that
  year, not a converter's);
- **the length**: the presets of both lengths are tried already; a private
  lobby may also have no extension (``extension: "none"``, :data:`PRIVATE_VARIANTS`);
- **renchan**: a private lobby may pass the deal even when the dealer wins or is tenpai
  (``renchan: "none"``, :data:`PRIVATE_VARIANTS`; Tenhou's 0x641 tournament lobby: its log's
  next hand after a dealer win is the next dealer's at 0 honba, after a draw at honba + 1);
- **a ranked lobby's settlement by date**: Tenhou settled otherwise in earlier years (its
  2009 East-only uma, results rounded to 1,000 until 2021 for four players and 2018-2023 for
  three), as the logs' own settlements show (:data:`.tenhou_rules.SETTLEMENT_CHANGES`):
  a ranked game is settled as Tenhou settled it on its day;
- **open tanyao**: the GO type's bit 0x04 (no 喰), the JSON ``rule.disp`` without 喰;
  **red fives**: bit 0x02 (no 赤), a ``disp`` without 赤 (they change no payment: the han
  count them; the game page names them from the stored ``rule_label``).

Only what differs from the preset becomes the game's overrides (a ranked game keeps none).
The extension's target and the all-last dealer's stop follow the return, as Tenhou's 30,000
does for its ranked lobbies. Pure Python: no Django import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from scoring.engine import RecordError, Ruleset, apply_overrides, final_settlement, load_ruleset

from .log import TENHOU_LOG_ID, OnlineLog
from .tenhou_rules import settlement_eras

NO_RED = 0x02
NO_KUITAN = 0x04
CHIPS = 0x200  # Tenhou's 祝儀 lobbies (GO type 0x641: chips, East-only)

# Returns tried for a private lobby's settlement, after the preset's, the start and the
# start + 5,000 (the first that settles in whole-thousand uma is kept).
RETURNS = (30000, 25000, 35000, 40000)
ROUNDINGS = ("none", "round_half_away")
# A private lobby may play its base rounds only (no 西入 / 南入), and may pass the deal after
# every win and draw (no renchan: Tenhou's 30,000 tournament lobby, GO type 0x641): tried after
# the presets' own length and Tenhou's older ends (scoring.online.verify.TENHOU_VARIANTS), so
# only a log whose hands agree under no other rules is read so.
PRIVATE_VARIANTS: tuple[dict[str, Any], ...] = (
    {"extension": "none"},
    {"renchan": "none"},
    {"renchan": "none", "extension": "none"},
)
_GO_TYPE = re.compile(r"^GO type (\d+)$")
# A ranked Mahjong Soul game's settlement parameters (scoring/rulesets/majsoul*.toml); its
# extension and all-last stop keep the Tenhou preset's 30,000 / 40,000, as Mahjong Soul's.
_SETTLEMENT = ("return_points", "oka", "uma", "final_rounding", "top_takes_remainder")


@dataclass(frozen=True, slots=True)
class LobbyFlags:
    """What a log's lobby type says beyond the preset: ``red_fives``, ``open_tanyao`` and
    ``chips``, each ``None`` where the log does not say."""

    red_fives: bool | None = None
    open_tanyao: bool | None = None
    chips: bool | None = None


def lobby_flags(rule_label: str) -> LobbyFlags:
    """The flags of an :attr:`OnlineLog.rule_label`: ``"GO type 1601"`` (an mjlog's lobby
    type, bits 0x02 no red fives, 0x04 no open tanyao, 0x200 chips) or a ``rule.disp``
    (``四般南喰赤``, ``大会戦南喰``: 喰 open tanyao, 赤 red fives, 祝 chips)."""
    match = _GO_TYPE.match(rule_label)
    if match:
        bits = int(match[1])
        return LobbyFlags(
            red_fives=not bits & NO_RED,
            open_tanyao=not bits & NO_KUITAN,
            chips=bool(bits & CHIPS),
        )
    if not rule_label:
        return LobbyFlags()
    # Tenhou's lobby type writes a place for each rule (四般南喰－－); a converter's room name
    # (Mahjong Soul's 大会戦南喰) may leave red fives out and still play them.
    tenhou = rule_label.startswith(("四", "三"))
    return LobbyFlags(
        red_fives=True if "赤" in rule_label else (False if tenhou else None),
        open_tanyao="喰" in rule_label,
        chips="祝" in rule_label,
    )


def lobby_of(log: OnlineLog) -> str:
    """The log's lobby: as the log names it (``GO lobby``, the JSON ``lobby``), else the
    lobby part of its Tenhou log id (``2014021417gm-0009-7447-…``: ``7447``; a Tenhou JSON
    names it nowhere else); ``""`` where neither has one other than 0."""
    if log.lobby.strip().lstrip("0"):
        return log.lobby.strip()
    match = TENHOU_LOG_ID.fullmatch(log.log_id)
    number = match[0].split("-")[2] if match else ""
    return number if number.lstrip("0") else ""


def is_private(log: OnlineLog) -> bool:
    """A log from a lobby of its own: a Tenhou lobby other than 0 (:func:`lobby_of`) or a
    Mahjong Soul game outside its ranked rooms (no ``…の間`` in ``rule.disp``)."""
    if log.service == "majsoul":
        return "の間" not in log.rule_label
    return bool(lobby_of(log))


def lobby_overrides(log: OnlineLog, preset: Ruleset) -> dict[str, Any]:
    """The parameters of ``preset`` that ``log``'s lobby played otherwise (empty for a
    ranked lobby's game): ``start_points``, ``return_points``, ``oka``, ``uma``,
    ``final_rounding``, ``extension_target``, ``dealer_top_min_score``, ``open_tanyao``.

    Raises nothing: a settlement that no candidate reproduces keeps the preset's (the
    verifier then notes the difference, docs/online-logs.md).
    """
    out: dict[str, Any] = {}
    flags = lobby_flags(log.rule_label)
    # A Mahjong Soul ranked room in Tenhou's JSON (tensoul), re-scored under a Tenhou preset.
    # Its rooms always play open tanyao: a converter's room name (mjai-reviewer3p's
    # ``三銀の間赤``) that leaves 喰 out says nothing of it. (Its own records are read under
    # the Mahjong Soul presets, which are its rooms' rules already.)
    ranked_majsoul = (
        log.service == "majsoul" and log.log_format == "tenhou-json" and "の間" in log.rule_label
    )
    if (
        flags.open_tanyao is not None
        and flags.open_tanyao != preset.open_tanyao
        and not (ranked_majsoul and not flags.open_tanyao)
    ):
        out["open_tanyao"] = flags.open_tanyao
    start = _start_points(log)
    private = is_private(log)
    if log.service == "tenhou" and not private:
        out |= _tenhou_era(log, preset, out)
    if ranked_majsoul:
        # A Mahjong Soul ranked game re-scored under a Tenhou preset settles as Mahjong Soul
        # does, not as Tenhou (three players back to 35,000, uma +15/0/-15, no oka, not
        # rounded: the ``sc`` of mjai-reviewer3p's 三銀の間 and 三金の間 games): its own
        # presets' settlement, not one read from the log, so an edited ``sc`` is only noted.
        client = load_ruleset("majsoul-3p" if preset.players == 3 else "majsoul")
        for name in _SETTLEMENT:
            if _value(preset, name) != _value(client, name):
                out[name] = _value(client, name)
        return out
    if start is None or (start == preset.start_points and not private):
        return out
    if start != preset.start_points:
        out["start_points"] = start
    stated = log.final_points if log.final_points is not None else log.stated_points
    settlement = None
    if stated is not None and log.final_scores is not None:
        settlement = _settlement(preset, {**out}, start, log.final_scores, stated)
    if settlement is None and "start_points" in out:
        back = max(preset.return_points, start)
        settlement = {"return_points": back, "oka": (back - start) * preset.players}
    for name, value in (settlement or {}).items():
        if _value(preset, name) != value:
            out[name] = value
    back = out.get("return_points", preset.return_points)
    if back != preset.return_points and log.service != "majsoul":
        # Tenhou's extension and all-last stop ask for the return points (30,000 ranked);
        # Mahjong Soul's ask for 30,000 (40,000 three players) whatever it settles back to
        # (scoring/rulesets/majsoul*.toml), as the Tenhou presets do.
        for name in ("extension_target", "dealer_top_min_score"):
            if getattr(preset, name) == preset.return_points:
                out[name] = back
    return out


def _tenhou_era(log: OnlineLog, preset: Ruleset, base: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``preset`` that Tenhou's ranked lobbies settled otherwise on the
    log's day (:func:`.tenhou_rules.settlement_eras`): the era's where the
    day tells it; where it does not (a day between the last log seen settled the old way
    and the first seen settled the new way, or a log with no day), the era under which the
    engine settles the log's final scores to the settlement the log states (mjlog
    ``owari``, the JSON ``sc``), else the preset's own. Only what differs from the preset.
    """
    eras = settlement_eras(preset.players, preset.rounds >= 2, log.played_on)
    chosen: dict[str, Any] = eras[0] if len(eras) == 1 else {}
    stated = log.final_points if log.final_points is not None else log.stated_points
    if len(eras) > 1 and stated is not None and log.final_scores is not None:
        for era in eras:
            try:
                ruleset = apply_overrides(preset, {**base, **era})
            except RecordError:
                continue
            if final_settlement(ruleset, log.final_scores).points == tuple(stated):
                chosen = era
                break
    return {name: value for name, value in chosen.items() if _value(preset, name) != value}


def _start_points(log: OnlineLog) -> int | None:
    if not log.hands:
        return None
    first = log.hands[0].start_scores
    return first[0] if len(set(first)) == 1 and not log.hands[0].deposits else None


def _value(preset: Ruleset, name: str) -> Any:
    value = getattr(preset, name)
    return list(value) if isinstance(value, tuple) else value


def _settlement(
    preset: Ruleset,
    base: dict[str, Any],
    start: int,
    scores: tuple[int, ...],
    stated: tuple[int, ...],
) -> dict[str, Any] | None:
    """The first return, rounding and uma under which the engine settles ``scores`` (the
    final scores, leftover deposits included) to ``stated`` (points), or ``None``."""
    n = preset.players
    returns = dict.fromkeys((preset.return_points, start, start + 5000, *RETURNS))
    roundings = dict.fromkeys((preset.final_rounding, *ROUNDINGS))
    for back in returns:
        for rounding in roundings:
            candidate = {
                **base,
                "return_points": back,
                "oka": (back - start) * n,
                "final_rounding": rounding,
            }
            try:
                trial = apply_overrides(preset, candidate)
            except RecordError:
                continue
            first = final_settlement(trial, scores)
            # Each rank's uma is what its stated points leave; the top's is the rest.
            uma = [0] * n
            for seat in range(n):
                rank = first.ranks[seat]
                uma[rank - 1] = stated[seat] - _without_uma(trial, first, seat)
            uma[0] = -sum(uma[1:])
            if any(u % 1000 for u in uma) or any(
                uma[rank] < uma[rank + 1] for rank in range(n - 1)
            ):
                # Every lobby's uma is whole thousands, and never more for a lower rank
                # (+0/+10/0/-10 with Tenhou's oka is +15/+5/-5/-15 back to the start);
                # another return or rounding fits.
                continue
            try:
                trial = apply_overrides(preset, {**candidate, "uma": uma})
            except RecordError:
                continue
            if final_settlement(trial, scores).points == tuple(stated):
                return {key: candidate[key] for key in candidate if key not in base} | {"uma": uma}
    return None


def _without_uma(ruleset: Ruleset, settled: Any, seat: int) -> int:
    """The seat's points under ``ruleset`` less its uma (the rounded difference to the
    return, and the oka for the top)."""
    rank = settled.ranks[seat]
    uma = ruleset.uma[rank - 1] if ruleset.uma else 0
    return int(settled.points[seat]) - uma
