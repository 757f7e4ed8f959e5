"""Reading and validating rulesets: the built-in TOML files and per-game overrides."""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
import types
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import RecordError
from .local_yaku import LOCAL_YAKU
from .ruleset import (
    ABORTIVE_KINDS,
    DOUBLE_YAKUMAN,
    FIVE_SUITS,
    LONE_YAKUMAN,
    WINDS,
    Ruleset,
)

RULESET_DIR = Path(__file__).resolve().parent.parent / "rulesets"
# A ruleset's variants live in a file of their own, so that the ruleset's file stays a flat
# table of parameters (ruleset_from_mapping) whatever is appended to it.
VARIANT_DIR = RULESET_DIR / "variants"

_FIELDS = {f.name: f for f in dataclasses.fields(Ruleset)}
_NOT_OVERRIDABLE = ("id", "players")


def available_rulesets() -> list[str]:
    """Ids of the built-in rulesets, sorted (one per ``scoring/rulesets/<id>.toml``)."""
    return sorted(p.stem for p in RULESET_DIR.glob("*.toml"))


def load_ruleset(ruleset_id: str, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The built-in ruleset ``ruleset_id``, with ``overrides`` applied for one game.

    Args:
        ruleset_id: e.g. ``"makura-1.5"``; see :func:`available_rulesets`.
        overrides: parameter name -> value (names as in :class:`Ruleset`), e.g.
            ``{"tobi": False}`` for the GP tournament (rules-spec §4.1).

    Raises:
        KeyError: no built-in ruleset has that id.
        RecordError: an override names an unknown or fixed parameter, or has a bad value
            (``key`` is ``"overrides.<name>"``).
    """
    if not isinstance(ruleset_id, str) or not _RULESET_ID.fullmatch(ruleset_id):
        # Never let a request's text reach the file system (NUL bytes, long or odd names).
        raise KeyError(ruleset_id)
    base = _builtin(ruleset_id)
    return apply_overrides(base, overrides) if overrides else base


def apply_overrides(base: Ruleset, overrides: Mapping[str, Any]) -> Ruleset:
    """``base`` with some parameters changed for one game (e.g. ``{"tobi": False}``).

    Raises:
        RecordError: an unknown or fixed parameter, or a bad value (``key`` is
            ``"overrides.<name>"``).
    """
    if not isinstance(overrides, Mapping):
        raise RecordError(
            None,
            "overrides",
            "must be an object of parameter: value",
            code="overrides_not_an_object",
        )
    for name in overrides:
        if name not in _FIELDS:
            raise RecordError(
                None, f"overrides.{name}", "unknown ruleset parameter", code="unknown_parameter"
            )
        if name in _NOT_OVERRIDABLE:
            raise RecordError(
                None,
                f"overrides.{name}",
                "cannot be changed for one game",
                code="parameter_not_overridable",
            )
    data = base.parameters()
    data.update(overrides)
    return ruleset_from_mapping(data, key_prefix="overrides.")


@dataclasses.dataclass(frozen=True, slots=True)
class Variant:
    """A variant a built-in ruleset offers when a game starts: ``overrides`` of some of its
    parameters for that game only (e.g. the home game's East round only, seed 003 L53-57).

    ``key`` is the variant's id within its ruleset, ``name`` its stable English name (the pages
    translate it), ``sources`` the seed lines and rules-spec items it follows.
    """

    ruleset_id: str
    key: str
    name: str
    overrides: Mapping[str, Any]
    sources: tuple[str, ...]

    @property
    def choice(self) -> str:
        """The variant as one form value: ``"<ruleset id>:<key>"``."""
        return f"{self.ruleset_id}:{self.key}"


def ruleset_variants(ruleset_id: str) -> tuple[Variant, ...]:
    """The variants the built-in ruleset ``ruleset_id`` offers, in file order (``()`` for most).

    Raises:
        KeyError: no built-in ruleset has that id.
        RecordError: a variant file with a bad entry or overrides the ruleset refuses (a
            packaging error, found by the tests of every built-in).
    """
    load_ruleset(ruleset_id)
    return _variants(ruleset_id)


def variant_of(ruleset_id: str, overrides: Mapping[str, Any] | None) -> Variant | None:
    """The variant of ``ruleset_id`` whose overrides are exactly ``overrides`` (a game's), or
    ``None``; an unknown ruleset has none."""
    if not overrides:
        return None
    try:
        variants = ruleset_variants(ruleset_id)
    except KeyError:
        return None
    wanted = {name: _plain(value) for name, value in overrides.items()}
    return next((v for v in variants if dict(v.overrides) == wanted), None)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@functools.cache
def _variants(ruleset_id: str) -> tuple[Variant, ...]:
    path = VARIANT_DIR / f"{ruleset_id}.toml"
    if not path.is_file():
        return ()
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    base = _builtin(ruleset_id)
    variants = []
    for key, entry in data.items():
        prefix = f"variants/{path.name}: {key}."
        if not isinstance(entry, dict) or set(entry) != {"name", "sources", "overrides"}:
            raise RecordError(
                None,
                prefix.rstrip("."),
                "a variant has exactly name, sources and overrides",
                code="parameter_wrong_type",
                params={"type": "variant"},
            )
        if not _RULESET_ID.fullmatch(key):
            raise RecordError(
                None,
                prefix.rstrip("."),
                "a variant key is lower-case letters, digits and -",
                code="parameter_wrong_type",
                params={"type": "variant"},
            )
        apply_overrides(base, entry["overrides"])
        variants.append(
            Variant(
                ruleset_id,
                key,
                str(entry["name"]),
                types.MappingProxyType(
                    {name: _plain(value) for name, value in entry["overrides"].items()}
                ),
                tuple(str(source) for source in entry["sources"]),
            )
        )
    return tuple(variants)


# What a ruleset id looks like (the file name in scoring/rulesets/, a RulesetVersion slug).
_RULESET_ID = re.compile(r"[a-z0-9][a-z0-9.-]{0,39}")


@functools.cache
def _builtin(ruleset_id: str) -> Ruleset:
    path = RULESET_DIR / f"{ruleset_id}.toml"
    if "/" in ruleset_id or not path.is_file():
        raise KeyError(ruleset_id)
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    ruleset = ruleset_from_mapping(data, key_prefix=f"{path.name}: ")
    if ruleset.id != ruleset_id:
        raise RecordError(
            None,
            f"{path.name}: id",
            f"must be {ruleset_id!r} like the file name",
            code="ruleset_id_mismatch",
            params={"ruleset": ruleset_id},
        )
    return ruleset


# Parameters added after rulesets were stored (hands from tiles; the payments do not
# read them): a mapping without one (a RulesetVersion stored before, a ruleset file written
# before) reads it as Tenhou's presets have it, so such a game's tiles value as they did.
ADDED_DEFAULTS: dict[str, Any] = {
    "double_yakuman": lambda data: (),
    "lone_yakuman": lambda data: (),
    "rinshan_haitei": lambda data: "refused",
    "pinfu_tsumo": lambda data: True,
    "rinshan_tsumo_fu": lambda data: True,
    "ryuuiisou_needs_hatsu": lambda data: False,
    "riichi_kinds_combine": lambda data: True,
    "red_fives": lambda data: ("m", "p", "s"),
    "five_dora": lambda data: (),
    "flowers": lambda data: 0,
    "nuki_north": lambda data: data.get("players") == 3,
    # 004 L22-23, L39: no gold five nor 白ポッチ in a set stored before these parameters.
    "gold_fives": lambda data: (),
    "gold_five_dora": lambda data: 1,
    "white_pocchi": lambda data: "none",
    # Added beside them, read as before they existed.
    "paarenchan": lambda data: False,
    "chombo_after_result": lambda data: False,
    "open_riichi_deal_in": lambda data: "none",
    # A lobby without renchan; stored rulesets keep the renchan they had.
    "renchan": lambda data: "normal",
}


def ruleset_from_mapping(data: Mapping[str, Any], *, key_prefix: str = "") -> Ruleset:
    """Build and validate a :class:`Ruleset` from plain data (a parsed TOML file).

    Every parameter must be present with the right type (but those of
    :data:`ADDED_DEFAULTS`); lists become tuples.

    Raises:
        RecordError: a missing, unknown or badly typed parameter, a value outside its
            choices, or parameters that contradict each other. ``key`` is
            ``key_prefix + name``.
    """
    values: dict[str, Any] = {}
    for name in data:
        if name not in _FIELDS:
            raise RecordError(
                None, key_prefix + name, "unknown ruleset parameter", code="unknown_parameter"
            )
    for name, f in _FIELDS.items():
        if name not in data and name in ADDED_DEFAULTS:
            values[name] = ADDED_DEFAULTS[name](data)
            continue
        if name not in data:
            raise RecordError(
                None, key_prefix + name, "missing ruleset parameter", code="parameter_missing"
            )
        values[name] = _typed(data[name], str(f.type), key_prefix + name)
        choices = f.metadata.get("choices")
        if choices and values[name] not in choices:
            raise RecordError(
                None,
                key_prefix + name,
                f"must be one of {', '.join(choices)}",
                code="parameter_not_a_choice",
            )
    ruleset = Ruleset(**values)
    _check_consistency(ruleset, key_prefix)
    return ruleset


def _typed(value: Any, type_name: str, key: str) -> Any:
    def fail(what: str) -> RecordError:
        return RecordError(
            None, key, f"must be {what}", code="parameter_wrong_type", params={"type": type_name}
        )

    if type_name == "bool":
        if not isinstance(value, bool):
            raise fail("true or false")
        return value
    if type_name == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail("an integer")
        return _bounded(value, key)
    if type_name == "str":
        if not isinstance(value, str):
            raise fail("a string")
        if len(value) > STRING_LIMIT:
            raise RecordError(
                None,
                key,
                f"must be at most {STRING_LIMIT} characters",
                code="parameter_out_of_range",
                params={"limit": STRING_LIMIT},
            )
        return value
    if not isinstance(value, list | tuple):
        raise fail("a list")
    if type_name == "tuple[str, ...]":
        if not all(isinstance(v, str) for v in value):
            raise fail("a list of strings")
        return tuple(value)
    if type_name == "tuple[int, ...]":
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise fail("a list of integers")
        return tuple(_bounded(v, key) for v in value)
    if type_name == "tuple[tuple[int, ...], ...]":
        return tuple(_typed(row, "tuple[int, ...]", key) for row in value)
    raise AssertionError(f"unhandled parameter type {type_name}")  # pragma: no cover


# No ruleset needs a number beyond ten million (points, uma, chips, thresholds) or a text
# beyond a few lines; the bounds keep a game's scores far inside the ledger's integer columns
# whatever a record's overrides say (start points of 10**12 once failed at the last hand).
INT_LIMIT = 10_000_000
STRING_LIMIT = 2_000


def _bounded(value: int, key: str) -> int:
    if -INT_LIMIT <= value <= INT_LIMIT:
        return value
    raise RecordError(
        None,
        key,
        f"must be between {-INT_LIMIT} and {INT_LIMIT}",
        code="parameter_out_of_range",
        params={"limit": INT_LIMIT},
    )


def _check_consistency(rs: Ruleset, prefix: str) -> None:
    def fail(name: str, message: str, *, code: str, **params: int | str) -> RecordError:
        return RecordError(None, prefix + name, message, code=code, params=params)

    n = rs.players
    if n not in (3, 4):
        raise fail("players", "must be 3 or 4", code="players_not_3_or_4")
    if rs.uma and len(rs.uma) != n:
        raise fail("uma", f"needs one value per rank ({n})", code="uma_wrong_length", players=n)
    if rs.uma_floating:
        if rs.uma:
            raise fail(
                "uma_floating", "cannot be combined with rank uma", code="uma_floating_with_uma"
            )
        if len(rs.uma_floating) != n or any(len(row) != n for row in rs.uma_floating):
            raise fail(
                "uma_floating",
                f"needs {n} rows of {n} values",
                code="uma_floating_wrong_shape",
                players=n,
            )
    for name in ("start_points", "return_points", "riichi_stick", "noten_total", "honba_ron"):
        value = getattr(rs, name)
        if value < 0 or value % 100:
            raise fail(name, "must be a non-negative multiple of 100", code="not_a_multiple_of_100")
    # Every noten/tenpai split must come out in whole points.
    if rs.noten_total % (12 if n == 4 else 2):
        raise fail(
            "noten_total",
            "must split evenly among any number of tenpai players",
            code="noten_total_uneven",
        )
    if rs.payment_rounding not in (100, 1000):
        raise fail("payment_rounding", "must be 100 or 1000", code="payment_rounding_unknown")
    if rs.rounds not in (1, 2):
        raise fail("rounds", "must be 1 (tonpuusen) or 2 (hanchan)", code="rounds_not_1_or_2")
    for wind in rs.extension_winds:
        if wind not in WINDS:
            raise fail("extension_winds", f"unknown wind {wind!r}", code="unknown_wind", wind=wind)
    if rs.extension != "none" and not rs.extension_winds:
        raise fail(
            "extension_winds",
            "an extension needs at least one wind",
            code="extension_without_winds",
        )
    for yaku in rs.local_yaku:
        if yaku not in LOCAL_YAKU:
            raise fail(
                "local_yaku", f"unknown local yaku {yaku!r}", code="local_yaku_unknown", yaku=yaku
            )
    for name, allowed in (
        ("double_yakuman", DOUBLE_YAKUMAN),
        ("lone_yakuman", LONE_YAKUMAN),
        ("red_fives", FIVE_SUITS),
        ("five_dora", FIVE_SUITS),
        ("gold_fives", FIVE_SUITS),
    ):
        for item in getattr(rs, name):
            if item not in allowed:
                raise fail(
                    name, f"each must be one of {', '.join(allowed)}", code="parameter_not_a_choice"
                )
    for suit in FIVE_SUITS:
        if rs.red_fives.count(suit) + rs.gold_fives.count(suit) > 4:
            raise fail(
                "gold_fives",
                f"a set has four fives of a suit, red and gold together ({suit})",
                code="parameter_not_a_choice",
            )
    if not 1 <= rs.gold_five_dora <= 4:
        raise fail("gold_five_dora", "must be 1 to 4", code="parameter_not_a_choice")
    if not 0 <= rs.flowers <= 8:
        raise fail("flowers", "must be 0 to 8", code="parameter_not_a_choice")
    if rs.double_wind_pair_fu not in (2, 4):
        raise fail("double_wind_pair_fu", "must be 2 or 4", code="double_wind_pair_fu_out_of_range")
    for kind in rs.abortive_draws:
        if kind not in ABORTIVE_KINDS:
            raise fail(
                "abortive_draws",
                f"unknown abortive draw {kind!r}",
                code="abortive_draws_unknown",
                kind=kind,
            )
    if len(rs.penalty_kinds) != len(rs.penalty_amounts):
        raise fail(
            "penalty_amounts",
            "needs one amount per penalty kind",
            code="penalty_amounts_wrong_length",
        )
    if not 1 <= rs.multi_ron_max <= n - 1:
        raise fail(
            "multi_ron_max",
            f"must be between 1 and {n - 1}",
            code="multi_ron_max_out_of_range",
            max=n - 1,
        )
    if not 1 <= rs.yakuman_max <= 6:
        raise fail("yakuman_max", "must be between 1 and 6", code="yakuman_max_out_of_range")
    if not 5 < rs.sanbaiman_han <= rs.counted_yakuman_han:
        raise fail(
            "counted_yakuman_han",
            "must be at least sanbaiman_han",
            code="counted_yakuman_below_sanbaiman",
        )
    if not rs.fu_scoring and rs.fixed_fu not in range(20, 111, 10):
        raise fail("fixed_fu", "must be 20-110 in steps of 10", code="fixed_fu_out_of_range")
    if rs.chombo_payment == "mangan" and n != 4:
        raise fail(
            "chombo_payment",
            "'mangan' chombo is defined for 4 players only",
            code="mangan_chombo_needs_4_players",
        )
