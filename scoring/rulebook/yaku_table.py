"""A ruleset's yaku table as members read it: each yaku with its han closed
and open, the yakuman and the double yakuman as that club's seed says them.

The han are the standard ones (rules-spec §2, "the common yaku"), changed where the ruleset's
parameters change them: open tanyao (kuitan, ``open_tanyao``), open riichi and its kinds
(``open_riichi``, ``riichi_kinds_combine``: Makura 1.5 §23 3 han, 1.3 §44d 2 han), renhou
(``renhou``), nagashi mangan (``nagashi``), the local yaku (``local_yaku``, with their han
from the engine's local yaku table :data:`scoring.engine.local_yaku.LOCAL_YAKU`: seed 004
L26, L54-L61, Makura §43 L350), paarenchan (``paarenchan``: Makura §44f), the double yakuman
(``double_yakuman``: Makura §43 L352-356, seed 003 L559-560) and the yakuman that never
combine (``lone_yakuman``: Makura 1.3 §43 L360, 1.5 L291-295). The same parameters and the
same local yaku table drive the tile keyboard's evaluation (``scoring.tiles``), so the table
and the keyboard cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.engine import Ruleset
from scoring.engine.local_yaku import LOCAL_YAKU
from scoring.rulebook.yaku_labels import yaku_label

# (id, han closed, han open; None: closed only). The standard table.
_COMMON: tuple[tuple[str, int, int | None], ...] = (
    ("riichi", 1, None),
    ("ippatsu", 1, None),
    ("tsumo", 1, None),
    ("pinfu", 1, None),
    ("tanyao", 1, 1),
    ("iipeiko", 1, None),
    ("haku", 1, 1),
    ("hatsu", 1, 1),
    ("chun", 1, 1),
    ("seat_wind_east", 1, 1),
    ("round_wind_east", 1, 1),
    ("haitei", 1, 1),
    ("houtei", 1, 1),
    ("rinshan", 1, 1),
    ("chankan", 1, 1),
    ("daburu_riichi", 2, None),
    ("sanshoku", 2, 1),
    ("ittsu", 2, 1),
    ("chantai", 2, 1),
    ("toitoi", 2, 2),
    ("sanankou", 2, 2),
    ("sankantsu", 2, 2),
    ("sanshoku_douko", 2, 2),
    ("chiitoitsu", 2, None),
    ("shosangen", 2, 2),
    ("honroto", 2, 2),
    ("honitsu", 3, 2),
    ("junchan", 3, 2),
    ("ryanpeiko", 3, None),
    ("chinitsu", 6, 5),
)

# (id, closed only). Each is one yakuman unless the ruleset counts it double.
_YAKUMAN: tuple[tuple[str, bool], ...] = (
    ("kokushi", True),
    ("suuankou", True),
    ("chuuren_poutou", True),
    ("daisangen", False),
    ("shosuushi", False),
    ("daisuushi", False),
    ("tsuisou", False),
    ("chinroto", False),
    ("ryuisou", False),
    ("suukantsu", False),
    ("tenhou", True),
    ("chiihou", True),
)

# The double forms a ruleset may count (its ``double_yakuman``), and the yaku named so; all
# but daisuushii are hands of their own beside the single form (a 13-sided kokushi, ...).
_DOUBLE_FORMS = {
    "kokushi_13_sided": "daburu_kokushi",
    "suuankou_tanki": "suuankou_tanki",
    "junsei_chuuren": "daburu_chuuren_poutou",
    "daisuushii": "daisuushi",
}

# Rows of the table that are not one yaku id of the shared labels (scoring.rulebook.yaku_labels).
_NAMES = {
    "nagashi_mangan": "Nagashi mangan",
    "yakuhai_winds": "Yakuhai: seat wind, round wind",
}


@dataclass(frozen=True, slots=True)
class YakuRow:
    """One line of the table: ``name`` in the reader's language, ``closed`` and ``open`` as
    text ("1", "2", "—" where the yaku needs a closed hand, "yakuman", "double yakuman",
    "mangan"), and ``note`` (e.g. "never added to another yakuman: the higher value counts")
    or ``""``."""

    name: str
    closed: str
    open: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class YakuTable:
    """A ruleset's yaku: the ``common`` ones by han, then the ``yakuman``."""

    common: list[YakuRow]
    yakuman: list[YakuRow]


def _name(yaku: str) -> str:
    if yaku in _NAMES:
        return _(_NAMES[yaku])
    return yaku_label(yaku)


def _han(han: int | None) -> str:
    return "—" if han is None else str(han)


def yaku_table(rs: Ruleset) -> YakuTable:
    """The yaku of ``rs`` in the active language (see the module's docstring for the
    parameters read). Han are integers shown as text; a yaku the ruleset does not have is
    left out (renhou ``"none"``, nagashi ``"none"``, local yaku not listed)."""
    common: list[YakuRow] = []
    for yaku, closed, opened in _COMMON:
        if yaku == "tanyao" and not rs.open_tanyao:
            opened = None
        if yaku in {"seat_wind_east", "round_wind_east"}:
            if yaku == "round_wind_east":
                continue
            common.append(YakuRow(_name("yakuhai_winds"), "1", "1", _("each")))
            continue
        common.append(YakuRow(_name(yaku), _han(closed), _han(opened)))
        if yaku == "riichi" and rs.open_riichi:
            common.append(YakuRow(yaku_label("open_riichi"), "2", "—"))
        if yaku == "daburu_riichi" and rs.open_riichi:
            both = 3 if rs.riichi_kinds_combine else 2
            common.append(YakuRow(yaku_label("daburu_open_riichi"), str(both), "—"))
    for local in LOCAL_YAKU.values():
        if local.id in rs.local_yaku and not local.yakuman:
            common.append(YakuRow(_name(local.id), _han(local.han_closed), _han(local.han_open)))
    if rs.renhou == "6han":
        common.append(YakuRow(yaku_label("renhou"), "6", "—"))
    if rs.nagashi == "mangan":
        common.append(YakuRow(_name("nagashi_mangan"), _("mangan"), _("mangan")))
    common.sort(key=lambda row: _order(row))

    yakuman_word, double_word = _("yakuman"), _("double yakuman")
    # M-21 (corrected): "複合はなし" never adds the values; the hand keeps the higher one.
    lone_note = _("never added to another yakuman: the higher value counts")
    yakuman: list[YakuRow] = []
    for yaku, closed_only in _YAKUMAN:
        note = lone_note if yaku in rs.lone_yakuman else ""
        # Daisuushii has no single form beside the double one: the ruleset counts it double.
        word = double_word if yaku == "daisuushi" and "daisuushii" in rs.double_yakuman else ""
        word = word or yakuman_word
        yakuman.append(YakuRow(_name(yaku), word, "—" if closed_only else word, note))
    if rs.renhou == "yakuman":
        note = lone_note if "renhou" in rs.lone_yakuman else ""
        yakuman.append(YakuRow(yaku_label("renhou_yakuman"), yakuman_word, "—", note))
    if rs.paarenchan:
        yakuman.append(YakuRow(yaku_label("paarenchan"), yakuman_word, yakuman_word))
    for local in LOCAL_YAKU.values():
        if local.id in rs.local_yaku and local.yakuman:
            note = lone_note if local.id in rs.lone_yakuman else ""
            open_word = "—" if local.han_open is None else yakuman_word
            yakuman.append(YakuRow(_name(local.id), yakuman_word, open_word, note))
    for form, yaku in _DOUBLE_FORMS.items():
        if form in rs.double_yakuman and form != "daisuushii":
            yakuman.append(YakuRow(_name(yaku), double_word, "—"))
    return YakuTable(common, yakuman)


def _order(row: YakuRow) -> int:
    """Common yaku by closed han, mangan last (the table reads from 1 han up)."""
    return int(row.closed) if row.closed.isdigit() else 99
