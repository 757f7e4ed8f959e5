"""The entry region of the table screen as a view-model: what the hand
form's steps show for the taps so far (the steps, the value pads, the "more" section, the
noten-riichi offer, the hint under the preview), read from the parsed taps (:class:`HandForm`)
and never parsing or valuing anything itself. ``templates/scoring/game_detail.html#entry``
renders it as ``entry``; the form's fields (``form``) are the inputs, and the template reads
what the form parsed (``form.outcome``, ``form.tenpai_matters``, ``form.may_stop``) and the
seat count (``ruleset.players``) where they are, not through this view-model.

The clauses under which a noten riichi at a draw is a chombo are cited here, in the reader's
language (docs/rules-spec.md §1F)."""

from __future__ import annotations

import functools

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.entry.hand_form import HandForm
from scoring.entry.value_pad import PenaltyRow, WinPad, penalty_rows, win_pads
from scoring.rulebook.hand_labels import MISSING

# The built-in rulesets under which a riichi player found noten at an exhaustive draw has
# committed a chombo (none if someone wins), with the clause (docs/rules-spec.md §1F). The
# FUJI club's rules do not list it (F-20) and Tenhou has no chombo; the hand then stands as a
# draw with the riichi player noten. The engine records what the players enter: the page
# warns and offers the chombo, it does not decide.
NOTEN_RIICHI_CHOMBO: dict[str, str | Promise] = {
    "makura-1.3": _("Makura 1.3 §27, §33e"),
    "makura-1.5": _("Makura 1.5 §27, §33e"),
    "sanma-float": _("002 C L88–94"),
    "home-nashinashi": _("003 L320–324"),
}

# The fields of the "more: rare cases" section, but the per-seat and per-penalty ones.
EXTRA_FIELDS = ("open_riichi", "nagashi", "rinshan_from", "dealer_stops", "chombo_after")


class EntryView:
    """What the entry region shows for ``form``'s taps. Each part is worked out when the
    template first reads it (a preview reads only those of its step)."""

    def __init__(self, form: HandForm) -> None:
        self.form = form
        self.ruleset = form.ruleset

    @property
    def chombo_after(self) -> bool:
        """The ruleset takes a chombo paid after a win or a draw (seed 003 L402-410, H-18)."""
        return "chombo_after" in self.form.fields

    @functools.cached_property
    def open_riichi_deal_in(self) -> list[int]:
        """The ron winners in open riichi (as tapped so far) whose discarder is not in
        riichi, where the ruleset values such a deal-in (``open_riichi_deal_in``: Makura
        1.3/1.5 §18)."""
        form = self.form
        if form.outcome != "ron" or self.ruleset.open_riichi_deal_in == "none":
            return []
        riichi = set(form.raw_seats("riichi")) | set(form.raw_seats("open_riichi"))
        loser = form.raw_seat("loser")
        if loser is None or loser in riichi:
            return []
        open_riichi = set(form.raw_seats("open_riichi"))
        return [seat for seat in form.raw_seats("winners") if seat in open_riichi]

    @property
    def open_riichi_loser_name(self) -> str:
        loser = self.form.raw_seat("loser")
        return self.form.names[loser] if loser is not None else ""

    @functools.cached_property
    def noten_riichi(self) -> list[int]:
        """At an exhaustive draw, the seats in riichi that were not marked tenpai (empty for
        any other outcome or an incomplete hand): a noten riichi, which the club's rules may
        make a chombo."""
        hand = self.form.hand
        if hand is None or hand["result"] != "draw":
            return []
        tenpai = set(hand.get("tenpai", []))
        return [seat for seat in hand.get("riichi", []) if seat not in tenpai]

    @property
    def noten_riichi_rule(self) -> str:
        """Where this ruleset makes a noten riichi at a draw a chombo ("" where it does not):
        :data:`NOTEN_RIICHI_CHOMBO`."""
        return str(NOTEN_RIICHI_CHOMBO.get(self.ruleset.id, ""))

    def noten_riichi_offers(self) -> list[tuple[int, str]]:
        """``(seat, name)`` of each noten riichi seat, offered as the chombo's offender."""
        return [(seat, self.form.names[seat]) for seat in self.noten_riichi]

    @functools.cached_property
    def win_pads(self) -> list[WinPad]:
        """A value pad for each winner tapped so far (:func:`scoring.entry.value_pad.win_pads`);
        built once, as the page shows the pads in two places."""
        return win_pads(self.form)

    def penalty_rows(self) -> list[PenaltyRow]:
        """The penalty toggles of the ruleset (:func:`scoring.entry.value_pad.penalty_rows`)."""
        return penalty_rows(self.form)

    def extras_open(self) -> bool:
        """Whether the "more" section starts open: something in it is set or wrong, or it was
        opened on the phone (``more``: static/js/table_steps.js asks for it open)."""
        form = self.form
        if form.data.get("more") == "1":
            return True
        names = list(EXTRA_FIELDS)
        names += [f"penalty_{kind}" for kind in self.ruleset.penalty_kinds]
        names += [f"pao_{s}" for s in range(self.ruleset.players)]
        names += [f"chips_{s}" for s in range(self.ruleset.players)]
        for name in names:
            if name not in form.fields:
                continue
            if form.raw_list(name) not in ([], [""]):
                if name == "dealer_stops" and form.raw(name) in ("", "false", "off"):
                    continue
                return True
            if form.is_bound and name in form.errors:
                return True
        return False

    def has_extras(self) -> bool:
        """The "more" section has anything to offer for this outcome under this ruleset."""
        return self._extras(self.form.outcome)

    @property
    def extras_of(self) -> dict[str, bool]:
        """:meth:`has_extras` for a ron and a tsumo, whichever is tapped: the steps the phone
        shows itself (static/js/table_steps.js) say whether "More: rare cases" follows."""
        return {"ron": self._extras("ron"), "tsumo": self._extras("tsumo")}

    def _extras(self, result: str | None) -> bool:
        rs = self.ruleset
        return bool(
            rs.open_riichi
            or rs.penalty_kinds
            or (result == "draw" and rs.nagashi != "none")
            or (result == "tsumo" and rs.rinshan_liability != "none")
            or (result in ("ron", "tsumo") and (rs.chips or rs.pao))
            or (result in ("ron", "tsumo", "draw") and self.form.may_stop)
            or (result in ("ron", "tsumo", "draw") and rs.chombo_after_result)
        )

    def extras_shown(self) -> bool:
        """The "more" section is on the page: it has anything to offer, and every winner's
        value is in (it comes after the value, not under the confirm bar while a value pad
        is open), or something in it is already set or wrong."""
        if not self.has_extras():
            return False
        return self.extras_open() or all(pad.valued for pad in self.win_pads)

    @property
    def hints(self) -> dict[str, str]:
        """The hints under the preview by what is missing (:data:`MISSING`), for the steps
        the phone shows itself (static/js/table_steps.js)."""
        return {key: str(text) for key, text in MISSING.items()}

    def next_step(self) -> str:
        """What is still missing, for the hint under the live preview ("" when nothing)."""
        if not self.form.is_bound:
            return str(MISSING["result"])
        return str(MISSING[self.form.missing[0]]) if self.form.missing else ""
