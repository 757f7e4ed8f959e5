"""A ruleset as a rules sheet a player reads: the engine's parameters in
sections (points and settlement, length of the game, dealer and honba, riichi and deposits,
hand values, chombo and penalties, special cases), each with a label and a value in the
reader's language. The engine's notes for developers (spec references such as "M-01") stay
in the code; the seed and its clauses are listed under the sheet (``Ruleset.sources``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext_lazy as _

from clubsite.formatting import format_points
from scoring.engine import Ruleset
from scoring.engine.local_yaku import LOCAL_YAKU
from scoring.rulebook.hand_labels import ABORT_LABELS, LIMIT_LABELS, PENALTY_LABELS
from scoring.rulebook.yaku_labels import yaku_label


@dataclass(frozen=True)
class SheetRow:
    """One rule: the parameter's ``name`` (an anchor), its ``label`` and ``value`` as text."""

    name: str
    label: str
    value: str


@dataclass(frozen=True)
class SheetSection:
    title: str
    rows: list[SheetRow]


def _yes_no(value: object) -> str:
    return gettext("yes") if value else gettext("no")


def _points(value: object) -> str:
    assert isinstance(value, int)
    return gettext("%(points)s points") % {"points": format_points(value)}


def _points_or_none(value: object) -> str:
    assert isinstance(value, int)
    return gettext("none") if value == 0 else _points(value)


def _number(value: object) -> str:
    return str(value)


def _uma(value: object) -> str:
    assert isinstance(value, tuple)
    if not value:
        return gettext("none")
    return " / ".join(f"{'+' if v > 0 else ''}{format_points(v)}" for v in value)


def _floating_uma(value: object) -> str:
    assert isinstance(value, tuple)
    if not value:
        return gettext("none")
    return "; ".join(
        gettext("%(n)d floating: %(uma)s") % {"n": floating, "uma": _uma(tuple(row))}
        for floating, row in enumerate(value, start=1)
    )


def _choice(labels: Mapping[str, Promise]) -> Callable[[object], str]:
    def label(value: object) -> str:
        return str(labels.get(str(value), value))

    return label


def _list_of(labels: Mapping[str, Promise]) -> Callable[[object], str]:
    def label(value: object) -> str:
        assert isinstance(value, tuple)
        if not value:
            return gettext("none")
        return gettext(", ").join(str(labels.get(str(item), item)) for item in value)

    return label


def _local_yaku(value: object) -> str:
    """The local yaku, each named with its han in the engine's table (a yakuman as such)."""
    assert isinstance(value, tuple)
    if not value:
        return gettext("none")
    return gettext(", ").join(_local_yaku_and_han(str(item)) for item in value)


def _local_yaku_and_han(yaku: str) -> str:
    if yaku in LOCAL_YAKU_PHRASES:
        return str(LOCAL_YAKU_PHRASES[yaku])
    local = LOCAL_YAKU.get(yaku)
    if local is None:
        return yaku
    if local.yakuman:
        han = gettext("yakuman")
    else:
        han = pgettext("the han of one yaku", "%(n)s han") % {"n": local.han_closed}
    return gettext("%(yaku)s (%(han)s)") % {"yaku": yaku_label(yaku), "han": han}


def _winds(value: object) -> str:
    assert isinstance(value, tuple)
    names = {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}
    return gettext("none") if not value else ", ".join(str(names.get(w, w)) for w in value)


def _length(value: object) -> str:
    return {1: gettext("tonpuusen (East round)"), 2: gettext("hanchan (East and South)")}.get(
        value if isinstance(value, int) else 0, str(value)
    )


def _round_index(value: object) -> str:
    winds = [_("East"), _("South"), _("West"), _("North")]
    if not isinstance(value, int) or value < 0:
        return gettext("never")
    return gettext("from the %(wind)s round") % {"wind": winds[value % 4]}


def _nagashi(value: object) -> str:
    return gettext("none") if value == "none" else str(LIMIT_LABELS.get(str(value), value))


def _penalties(rs: Ruleset) -> str:
    if not rs.penalty_kinds:
        return gettext("none")
    return gettext(", ").join(
        f"{PENALTY_LABELS.get(kind, kind)} {format_points(amount)}"
        for kind, amount in zip(rs.penalty_kinds, rs.penalty_amounts, strict=True)
    )


FINAL_ROUNDING = {
    "floor": _("to thousands, rounded down"),
    "round_half_away": _("to thousands, halves away from zero"),
    "none": _("not rounded"),
}
TIE_BREAK = {"seat_order": _("the seat nearer the first dealer ranks higher")}
BOX_UNDER = {"count": _("counted in full"), "zero": _("settled at 0")}
EXTENSION = {
    "none": _("none"),
    "sudden_death": _("sudden death: ends when someone reaches the target"),
    "round_end": _("to the end of the extension round"),
}
DEALER_TOP_ENDS = {
    "never": _("no"),
    "after_win_or_tenpai": _("yes, after a dealer win or tenpai"),
    "after_any_hand": _("yes, after any hand the dealer keeps"),
    "after_win": _("yes, after a dealer win"),
}
RENCHAN = {
    "normal": _("after a dealer win or as the rules below say"),
    "none": _("never: the deal passes after every win and draw"),
}
MULTI_RON_RENCHAN = {
    "any_winner": _("if the dealer is any of the winners"),
    "first_winner": _("only if the dealer is the first winner"),
}
ABORTIVE_RENCHAN = {
    "dealer_tenpai": _("the dealer stays if tenpai"),
    "always": _("the dealer stays"),
    "never": _("the deal passes"),
}
TO_WHOM = {"each": _("to each winner"), "first": _("to the first winner"), "split": _("split")}
OPEN_RIICHI_DEAL_IN = {
    "none": _("an ordinary ron"),
    "any": _("a yakuman whenever the discarder is not in riichi"),
    "stuck": _("a yakuman only when the discarder was stuck; otherwise the tile goes back"),
}
CHOMBO_PAYMENT = {"fixed": _("a fixed amount to each player"), "mangan": _("as a mangan")}
CHOMBO_EFFECT = {
    "replay": _("the hand is played again, same dealer and honba"),
    "replay_honba_plus": _("the hand is played again, one more honba"),
    "rotate_if_dealer": _("a dealer's chombo passes the deal"),
}
CHOMBO_RIICHI = {
    "return_except_offender": _("back to their owners, except the offender's"),
    "return_all": _("back to their owners"),
    "keep": _("stay on the table"),
}
KIRIAGE = {
    "none": _("no"),
    "4han30fu": _("4 han 30 fu"),
    "both": _("4 han 30 fu and 3 han 60 fu"),
}
SANMA_TSUMO = {"tsumo_loss": _("tsumo loss (the absent seat's share is not paid)")}
RENHOU = {"none": _("not a yaku"), "yakuman": _("yakuman"), "6han": _("6 han")}
# A local rule the sheet says in words rather than as a yaku and its han: a north that is a
# yakuhai is worth what any yakuhai is (FUJI, seed 004 L26), and the point is that it is one
# for every seat, not only the north seat.
LOCAL_YAKU_PHRASES = {"north_yakuhai": _("north a yakuhai for everyone")}
DOUBLE_YAKUMAN = {
    "kokushi_13_sided": _("kokushi with a 13-sided wait"),
    "suuankou_tanki": _("suuankou tanki"),
    "junsei_chuuren": _("junsei chuuren (9-sided wait)"),
    "daisuushii": _("daisuushii"),
}
LONE_YAKUMAN = {
    "tenhou": _("tenhou"),
    "chiihou": _("chiihou"),
    "renhou": _("renhou"),
    "shiisanputa": _("13-futou"),
}
RINSHAN_HAITEI = {
    "refused": _("not possible"),
    "rinshan_only": _("rinshan only (1 han)"),
}
FIVE_SUITS = {"m": _("5m"), "p": _("5p"), "s": _("5s")}
WHITE_POCCHI = {
    "none": _("not in the set"),
    "wild_after_riichi": _("any tile, drawn after riichi"),
}
PAO_RON_HONBA = {
    "discarder": _("the discarder pays"),
    "liable": _("the liable player pays"),
    "split": _("split between them"),
    "each": _("each pays"),
}
RINSHAN = {
    "none": _("an ordinary tsumo"),
    "ron_value": _("the feeder pays it as a ron"),
    "tsumo_total": _("the feeder pays the whole tsumo"),
}
NAGASHI_ROTATION = {
    "as_win": _("as a win: the dealer stays only if they made it"),
    "as_draw": _("as a draw: the dealer stays if tenpai, one more honba"),
    "dealer_stays": _("the dealer stays"),
}

Row = tuple[str, Promise, Callable[[object], str]]

SECTIONS: list[tuple[Promise, list[Row]]] = [
    (
        _("Points and settlement"),
        [
            ("players", _("Players"), _number),
            ("start_points", _("Starting points"), _points),
            ("return_points", _("Return points"), _points),
            ("oka", _("Oka (to the top)"), _points_or_none),
            ("uma", _("Uma, 1st to last"), _uma),
            ("uma_floating", _("Floating uma"), _floating_uma),
            ("float_threshold", _("Floating from a final score of"), _points),
            ("uma_ep_points", _("Points per ep of floating uma"), _points_or_none),
            ("final_rounding", _("Final scores"), _choice(FINAL_ROUNDING)),
            ("tie_break", _("Equal scores"), _choice(TIE_BREAK)),
            ("top_takes_remainder", _("The top takes the remainder"), _yes_no),
            ("box_under", _("Scores below zero"), _choice(BOX_UNDER)),
            ("tobi", _("Tobi: a bust ends the game"), _yes_no),
            ("tobi_at_zero", _("Exactly 0 points is a bust"), _yes_no),
            ("tobi_payment", _("Payment by each busted player"), _points_or_none),
            ("chips", _("Chips"), _yes_no),
            ("yakitori_chips", _("Yakitori (no win): chips to each winner"), _number),
        ],
    ),
    (
        _("Length of the game"),
        [
            ("rounds", _("Game"), _length),
            ("extension", _("Extension"), _choice(EXTENSION)),
            ("extension_winds", _("Extension rounds"), _winds),
            ("extension_target", _("Score that ends the game"), _points),
            ("agari_yame", _("Agari-yame (all-last dealer may stop after a win)"), _yes_no),
            ("tenpai_yame", _("Tenpai-yame (all-last dealer may stop when tenpai)"), _yes_no),
            ("yame_needs_target", _("Stopping needs the target score"), _yes_no),
            (
                "dealer_top_ends",
                _("All-last dealer on top ends the game"),
                _choice(DEALER_TOP_ENDS),
            ),
            ("dealer_top_min_score", _("... with at least"), _points_or_none),
            (
                "dealer_top_in_extension",
                _("... also in every hand of the extension"),
                _yes_no,
            ),
        ],
    ),
    (
        _("Dealer, honba and draws"),
        [
            ("renchan", _("Renchan (the dealer keeps the deal)"), _choice(RENCHAN)),
            ("draws_keep_dealer_from_round", _("Every draw keeps the dealer"), _round_index),
            ("multi_ron_renchan", _("Renchan in a multi-ron"), _choice(MULTI_RON_RENCHAN)),
            ("abortive_draws", _("Abortive draws"), _list_of(dict(ABORT_LABELS))),
            ("abortive_renchan", _("After an abortive draw"), _choice(ABORTIVE_RENCHAN)),
            ("honba_ron", _("Honba on a ron"), _points),
            ("honba_tsumo_each", _("Honba on a tsumo, from each"), _points),
            ("noten_total", _("Noten payments in all"), _points),
            ("multi_ron_max", _("Most winners on one discard"), _number),
            ("multi_ron_honba", _("Honba in a multi-ron"), _choice(TO_WHOM)),
            ("multi_ron_deposits", _("Deposits in a multi-ron"), _choice(TO_WHOM)),
        ],
    ),
    (
        _("Riichi and deposits"),
        [
            ("riichi_stick", _("Riichi deposit"), _points),
            ("riichi_min_score", _("Lowest score to declare riichi"), _points_or_none),
            ("open_riichi", _("Open riichi"), _yes_no),
            ("open_riichi_stick", _("Open riichi deposit"), _points),
            (
                "open_riichi_deal_in",
                _("Dealing into an open riichi"),
                _choice(OPEN_RIICHI_DEAL_IN),
            ),
        ],
    ),
    (
        _("Hand values"),
        [
            ("fu_scoring", _("Fu counted"), _yes_no),
            ("fixed_fu", _("Fu of every hand (when fu are not counted)"), _number),
            ("pinfu_tsumo_20fu", _("Pinfu tsumo at 20 fu"), _yes_no),
            ("kiriage", _("Kiriage mangan"), _choice(KIRIAGE)),
            ("payment_rounding", _("Payments rounded up to"), _points),
            ("sanbaiman_han", _("Sanbaiman from"), lambda v: gettext("%(n)s han") % {"n": v}),
            (
                "counted_yakuman_han",
                _("Counted yakuman from"),
                lambda v: gettext("%(n)s han") % {"n": v},
            ),
            ("yakuman_max", _("Most yakuman multiples"), _number),
            (
                "two_han_minimum_from_honba",
                _("2 han needed from this honba"),
                lambda v: gettext("never") if v == 0 else str(v),
            ),
            ("sanma_tsumo", _("3-player tsumo"), _choice(SANMA_TSUMO)),
        ],
    ),
    (
        _("Chombo and penalties"),
        [
            ("chombo_payment", _("Chombo payment"), _choice(CHOMBO_PAYMENT)),
            ("chombo_each", _("Chombo: to each player"), _points),
            ("chombo_effect", _("After a chombo"), _choice(CHOMBO_EFFECT)),
            ("chombo_riichi", _("Riichi sticks of a chombo hand"), _choice(CHOMBO_RIICHI)),
            ("tobi_after_chombo", _("A chombo payment can bust"), _yes_no),
            (
                "chombo_after_result",
                _("A chombo in a hand won or drawn is still paid"),
                _yes_no,
            ),
        ],
    ),
    (
        _("Yaku and fu (hands from tiles)"),
        [
            ("open_tanyao", _("Open tanyao (kuitan)"), _yes_no),
            ("atozuke", _("Atozuke"), _yes_no),
            (
                "double_wind_pair_fu",
                _("Double-wind pair"),
                lambda v: gettext("%(n)s fu") % {"n": v},
            ),
            ("chiitoitsu_four_of_a_kind", _("Chiitoitsu with four of a kind"), _yes_no),
            ("renhou", _("Renhou"), _choice(RENHOU)),
            ("paarenchan", _("Paarenchan (8th consecutive dealer win)"), _yes_no),
            ("local_yaku", _("Local yaku"), _local_yaku),
            ("double_yakuman", _("Double yakuman"), _list_of(DOUBLE_YAKUMAN)),
            (
                "lone_yakuman",
                _("Never added to another yakuman (the higher value counts)"),
                _list_of(LONE_YAKUMAN),
            ),
            ("rinshan_haitei", _("Rinshan on the last tile"), _choice(RINSHAN_HAITEI)),
            ("pinfu_tsumo", _("Pinfu on a tsumo"), _yes_no),
            ("rinshan_tsumo_fu", _("Tsumo fu on a rinshan win"), _yes_no),
            ("ryuuiisou_needs_hatsu", _("Ryuuiisou needs hatsu"), _yes_no),
            ("riichi_kinds_combine", _("Open double riichi is 3 han"), _yes_no),
            ("red_fives", _("Red fives"), _list_of(FIVE_SUITS)),
            ("five_dora", _("Every five a dora"), _list_of(FIVE_SUITS)),
            ("gold_fives", _("Gold fives"), _list_of(FIVE_SUITS)),
            ("gold_five_dora", _("Dora of a gold five"), _number),
            ("white_pocchi", _("White dragon with a dot (白ポッチ)"), _choice(WHITE_POCCHI)),
            ("flowers", _("Flower tiles (nuki dora)"), _number),
            ("nuki_north", _("North set aside (nuki dora)"), _yes_no),
        ],
    ),
    (
        _("Pao, rinshan and nagashi"),
        [
            ("pao", _("Pao"), _yes_no),
            ("pao_ron_honba", _("Honba on a pao ron"), _choice(PAO_RON_HONBA)),
            ("rinshan_liability", _("Rinshan after an open kan"), _choice(RINSHAN)),
            ("nagashi", _("Nagashi mangan"), _nagashi),
            ("nagashi_rotation", _("Dealer after nagashi"), _choice(NAGASHI_ROTATION)),
            ("nagashi_honba", _("Honba added to nagashi"), _yes_no),
            ("nagashi_takes_deposits", _("Nagashi takes the deposits"), _yes_no),
        ],
    ),
]


def rules_sheet(rs: Ruleset) -> list[SheetSection]:
    """The sheet of ``rs`` in the active language. Rules that do not apply are left out
    (the 3-player tsumo in a 4-player ruleset, a fixed fu when fu are counted, the
    extension's details without an extension, open riichi's deposit without open riichi)."""
    hidden = set()
    if rs.players == 4:
        hidden.add("sanma_tsumo")
    if rs.fu_scoring:
        hidden.add("fixed_fu")
    if rs.extension == "none":
        hidden.update({"extension_winds", "extension_target"})
    if not rs.open_riichi:
        hidden.update({"open_riichi_stick", "open_riichi_deal_in"})
    if not rs.chips:
        hidden.add("yakitori_chips")
    if not rs.uma_floating:
        hidden.update({"uma_floating", "float_threshold", "uma_ep_points"})
    if rs.chombo_payment != "fixed":
        hidden.add("chombo_each")
    if rs.dealer_top_ends == "never":
        hidden.update({"dealer_top_min_score", "dealer_top_in_extension"})
    if rs.extension == "none":
        hidden.add("dealer_top_in_extension")
    if not rs.pao:
        hidden.add("pao_ron_honba")
    if not rs.open_riichi:
        hidden.add("riichi_kinds_combine")
    if rs.players == 4:
        hidden.update({"nuki_north", "flowers"})
    if not rs.gold_fives:
        hidden.add("gold_five_dora")
    if rs.nagashi == "none":
        hidden.update({"nagashi_rotation", "nagashi_honba", "nagashi_takes_deposits"})
    sections = []
    for title, rows in SECTIONS:
        sheet_rows = [
            SheetRow(name, str(label), format_value(getattr(rs, name)))
            for name, label, format_value in rows
            if name not in hidden
        ]
        if title == SECTIONS[5][0]:
            sheet_rows.append(SheetRow("penalty_kinds", gettext("Penalties"), _penalties(rs)))
        sections.append(SheetSection(str(title), sheet_rows))
    return sections


def shown_parameters() -> Sequence[str]:
    """Every parameter the sheet can show (a test checks that no rule of the engine is
    missing from it)."""
    names: list[Any] = [name for _title, rows in SECTIONS for name, _label, _f in rows]
    return [*names, "penalty_kinds", "penalty_amounts"]
