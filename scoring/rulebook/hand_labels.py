"""Labels of the hand-entry screen: outcomes, limits, abortive draws, penalties, seat winds,
han and fu, and what a value pays, in the reader's language (no HTML here)."""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubsite.formatting import format_points
from scoring.engine import Ruleset, basic_points, hand_payment
from scoring.engine.limits import LIMIT_BASIC_POINTS

MAX_PLAYERS = 4
# The value pad: a han x fu grid for 1-4 han (where hands carry fu), one button per counted
# han from 5 (or from 1 without fu) up to 13 (14 where 14 han is the first counted yakuman),
# and the limits. A hand is one tap on one of them: the radio's value is "3-30" (han-fu),
# "6" (han) or "mangan" (a limit).
GRID_HAN = 4
HAN_MAX = 13
FU_VALUES = (20, 25, *range(30, 111, 10))
# Values a stored hand may have that no button offers (say 15 counted han, or 6 han with its
# fu from an imported record): kept as they are when the hand is corrected.
STORED_VALUE = re.compile(r"([1-9]\d?)(?:-(\d{2,3}))?")

RESULT_LABELS: dict[str, Promise] = {
    "ron": _("Ron"),
    "tsumo": _("Tsumo"),
    "draw": _("Draw"),
    "abort": _("Abortive draw"),
    "chombo": _("Chombo"),
}
# Why points move, as the preview's list of payments says it (engine payment reasons).
PAYMENT_REASONS: dict[str, Promise] = {
    "ron": _("Ron"),
    "tsumo": _("Tsumo"),
    "pao": _("Pao"),
    "rinshan": _("Kan feeder pays"),
    "honba": _("Honba"),
    "noten": _("Noten payment"),
    "nagashi": _("Nagashi"),
    "chombo": _("Chombo"),
    "riichi": _("Riichi stick"),
    "riichi_return": _("Riichi stick back"),
    "penalty": _("Penalty"),
    "deposits": _("Deposits"),
    "tobi": _("Bust payment"),
}
LIMIT_LABELS: dict[str, Promise] = {
    "mangan": _("Mangan"),
    "haneman": _("Haneman"),
    "baiman": _("Baiman"),
    "sanbaiman": _("Sanbaiman"),
    "yakuman": _("Yakuman"),
}
ABORT_LABELS: dict[str, Promise] = {
    "kyuushu_kyuuhai": _("Nine terminals"),
    "suufon_renda": _("Four winds discarded"),
    "suucha_riichi": _("Four riichi"),
    "suukaikan": _("Four kans"),
    "sancha_ron": _("Triple ron"),
}
PENALTY_LABELS: dict[str, Promise] = {
    "kara": _("Kara call penalty"),
    "withdrawn_win": _("Withdrawn false win"),
}
SEAT_WINDS: tuple[Promise, ...] = (
    pgettext_lazy("seat wind", "E"),
    pgettext_lazy("seat wind", "S"),
    pgettext_lazy("seat wind", "W"),
    pgettext_lazy("seat wind", "N"),
)
# What to ask for when a tap is still missing: the hint under a live preview, and the error
# next to the field when "Confirm" is pressed too early.
MISSING = {
    "result": _("Choose how the hand ended."),
    "loser": _("Choose who dealt in."),
    "winners": _("Choose who won."),
    "winner": _("Choose who won."),
    "value": _("Choose the hand's han or limit."),
    "kind": _("Choose which abortive draw."),
    "offender": _("Choose who made the chombo."),
    "open_riichi_stuck": _("Say whether the discarder was stuck."),
}


def han_label(han: int) -> str:
    """The label of ``han`` han, e.g. "3 han", in the reader's language."""
    return str(_("%(han)d han") % {"han": han})


def fu_label(fu: int) -> str:
    """The label of ``fu`` fu, e.g. "30 fu", in the reader's language."""
    return str(_("%(fu)d fu") % {"fu": fu})


def han_fu_label(han: int, fu: int) -> str:
    """The label of a value, e.g. "3 han 30 fu", in the reader's language."""
    return str(_("%(han)s %(fu)s") % {"han": han_label(han), "fu": fu_label(fu)})


# A dealer's tsumo: "2,000" over "all" on a pad button.
EACH_PAYS = pgettext_lazy("dealer tsumo: what each player pays", "all")


def payment_lines(
    ruleset: Ruleset, han: int, fu: int, *, dealer: bool, tsumo: bool
) -> tuple[str, ...]:
    """What a counted hand brings its winner (honba and deposits aside), from the engine's
    payment grid, as a pad button shows it: ``("3,900",)`` for a ron, ``("1,000/", "2,000")``
    for a non-dealer's tsumo (each non-dealer / the dealer), ``("2,000", "all")`` for the
    dealer's tsumo."""
    main, additional = hand_payment(ruleset, han=han, fu=fu, dealer=dealer, tsumo=tsumo)
    if not tsumo:
        return (format_points(main),)
    if dealer:
        return (format_points(main), str(EACH_PAYS))
    return (f"{format_points(additional)}/", format_points(main))


def counted_limit(ruleset: Ruleset, han: int) -> str:
    """The limit a counted hand of 5 han or more reaches under ``ruleset`` ("mangan", ...)."""
    points = basic_points(ruleset, han, ruleset.fixed_fu)
    return next(limit for limit, basic in LIMIT_BASIC_POINTS.items() if basic == points)


def top_counted_han(ruleset: Ruleset) -> int:
    """The highest han button: 13, or 14 where a counted yakuman takes 14 han (seed 004)."""
    return max(HAN_MAX, min(ruleset.counted_yakuman_han, HAN_MAX + 1))


def yakuman_label(multiple: int) -> str:
    """The name of a yakuman ``multiple`` (1-6): "Yakuman", "Double yakuman", ..."""
    if multiple == 1:
        return str(LIMIT_LABELS["yakuman"])
    return str(_("%(n)d× yakuman") % {"n": multiple})
