"""The hand form: the taps of one hand (radio buttons and check boxes styled as big
buttons) turned into the hand object of docs/game-record-format.md, and nothing else. It
checks what it can explain best itself (a seat that is missing, a discarder who also wins, a
fu the ruleset does not allow); everything else is the engine's check, whose errors name a
record key that :meth:`HandForm.add_record_error` puts next to the matching field.

No points are worked out here, no tiles valued (:mod:`scoring.entry.tile_entry` does that before
the form reads the taps) and nothing is drawn: what the entry region shows is
:mod:`scoring.views.entry_region`'s view-model."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.forms.utils import ErrorList
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from clubsite.fields import posted_number
from scoring.engine import Ruleset, legal_fu
from scoring.engine.ruleset import MAX_CHIPS_PER_PAYER
from scoring.entry.pad_values import active_value_choices, stored_value_choice
from scoring.entry.tile_entry import TileEntry
from scoring.rulebook.hand_labels import (
    ABORT_LABELS,
    GRID_HAN,
    LIMIT_LABELS,
    MISSING,
    RESULT_LABELS,
    SEAT_WINDS,
    yakuman_label,
)


def _implied_ron(data: Any) -> Any:
    """The taps with ``result=ron`` added when who dealt in was tapped before any outcome
    (the table screen's shortcut: a ron in one tap less)."""
    if data is None or not hasattr(data, "getlist") or data.get("result") or not data.get("loser"):
        return data
    implied = data.copy()
    implied["result"] = "ron"
    return implied


def _carried_value(data: Any, players: int) -> Any:
    """The taps with a value moved to the winner when only the winner changed: one winner (a
    tsumo's, or a ron's only winner) without a value, and exactly one value tapped for a seat
    that is no longer a winner (a correction of who won keeps what the hand was worth). Anything
    else is left as it is."""
    if data is None or not hasattr(data, "getlist"):
        return data
    result = data.get("result")
    if result == "tsumo":
        winners = [data.get("winner")]
    elif result == "ron":
        winners = data.getlist("winners")
        loser = data.get("loser")
        winners = [w for w in winners if w != loser]
    else:
        return data
    if len(winners) != 1 or posted_number(winners[0] or "", max_digits=1) is None:
        return data
    winner = winners[0]
    if data.get(f"value_{winner}"):
        return data
    orphans = [
        str(seat) for seat in range(players) if str(seat) != winner and data.get(f"value_{seat}")
    ]
    if len(orphans) != 1:
        return data
    moved = data.copy()
    for key in ("value", "yakuman"):
        if data.get(f"{key}_{orphans[0]}"):
            moved[f"{key}_{winner}"] = data.get(f"{key}_{orphans[0]}")
            del moved[f"{key}_{orphans[0]}"]
    return moved


class TapErrors(ErrorList):
    """A field's errors as Django renders them, and nothing (no template render) when there
    are none: the table screen prints some thirty of them on every tap."""

    def __str__(self) -> SafeString:
        return super().__str__() if self.data else SafeString("")

    __html__ = __str__


class HandForm(forms.Form):
    """One hand, as tapped in at the table (or corrected later).

    Built for one game at one point: ``ruleset``, the players' ``names`` in seat order, the
    hand's ``dealer`` and whether it is ``all_last`` (for the dealer's stop). Only the fields
    this ruleset can use exist. With ``strict`` (the confirm button) every missing tap is an
    error next to its field; without (the live preview) it is only listed in ``missing``.

    After ``is_valid()``, ``hand`` is the record hand object, or None while taps are missing.
    """

    request_id = forms.UUIDField(required=False, widget=forms.HiddenInput)
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)

    def __init__(
        self,
        data: Any = None,
        *,
        ruleset: Ruleset,
        names: Sequence[str],
        dealer: int,
        all_last: bool,
        strict: bool = False,
        round_wind: str = "E",
        honba: int = 0,
        paarenchan: bool = False,
        tiles: TileEntry | None = None,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("error_class", TapErrors)
        super().__init__(_carried_value(_implied_ron(data), ruleset.players), **kwargs)
        self.ruleset = rs = ruleset
        self.names = list(names)
        self.dealer = dealer
        self.all_last = all_last
        self.strict = strict
        self.round_wind = round_wind
        self.honba = honba
        # The dealer's win in this hand is paarenchan (Makura §44f; the view counts the wins).
        self.paarenchan = paarenchan
        # The winners' tiles, valued before the taps were read (scoring.entry.tile_entry).
        self.tiles = tiles if tiles is not None else TileEntry()
        self._riichi: set[int] = set()
        self._open_riichi: set[int] = set()
        self.hand: dict[str, Any] | None = None
        self.missing: list[str] = []
        # wins[i] of the hand object is the win of seat win_seats[i] (for engine errors).
        self.win_seats: list[int] = []
        self.penalty_order: list[str] = []
        seats = [(s, self._seat_label(s)) for s in range(rs.players)]

        def seat_field(multiple: bool = False) -> forms.Field:
            if multiple:
                return forms.TypedMultipleChoiceField(
                    choices=seats, coerce=int, required=False, widget=forms.CheckboxSelectMultiple
                )
            return forms.TypedChoiceField(
                choices=seats,
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
            )

        fields = self.fields
        # A ruleset without abortive draws (seed 004) has no such button.
        outcomes = [
            (r, label) for r, label in RESULT_LABELS.items() if r != "abort" or rs.abortive_draws
        ]
        fields["result"] = forms.ChoiceField(
            choices=outcomes, required=False, widget=forms.RadioSelect
        )
        fields["loser"] = seat_field()
        fields["winners"] = seat_field(multiple=True)
        fields["winner"] = seat_field()
        fields["tenpai"] = seat_field(multiple=True)
        fields["offender"] = seat_field()
        fields["riichi"] = seat_field(multiple=True)
        if rs.abortive_draws:
            fields["kind"] = forms.ChoiceField(
                choices=[(k, ABORT_LABELS.get(k, k)) for k in rs.abortive_draws],
                required=False,
                widget=forms.RadioSelect,
            )
        if rs.open_riichi:
            fields["open_riichi"] = seat_field(multiple=True)
        if rs.open_riichi and rs.open_riichi_deal_in == "stuck":
            # Makura 1.5 §18, 003 L361-371, 004 L40-46: asked when a player not in riichi
            # deals into an open riichi.
            fields["open_riichi_stuck"] = forms.ChoiceField(
                choices=[("yes", _("Yes: every tile was a winning tile")), ("no", _("No"))],
                required=False,
                widget=forms.RadioSelect,
            )
        if rs.nagashi != "none":
            fields["nagashi"] = seat_field(multiple=True)
        for kind in rs.penalty_kinds:
            fields[f"penalty_{kind}"] = seat_field(multiple=True)
        if rs.rinshan_liability != "none":
            fields["rinshan_from"] = seat_field()
        if self.may_stop:
            fields["dealer_stops"] = forms.BooleanField(required=False)
        if rs.chombo_after_result:
            # A chombo paid after the win or the draw (seed 003 L402-410, L426-428, H-18).
            fields["chombo_after"] = seat_field()
            fields["chombo_noten_payments"] = forms.BooleanField(required=False)
        values = active_value_choices(rs)
        # A winner's fields exist for the seats tapped as winners: a value pad has 70-odd
        # choices, and every tap of a hand builds the form again.
        winners = sorted(set(self.raw_seats("winners")) | set(self.raw_seats("winner")))
        for seat in winners:
            fields[f"value_{seat}"] = forms.ChoiceField(
                choices=values + stored_value_choice(rs, self.raw(f"value_{seat}"), values),
                required=False,
                widget=forms.RadioSelect,
            )
            if rs.yakuman_max > 1:
                fields[f"yakuman_{seat}"] = forms.TypedChoiceField(
                    choices=[(n, yakuman_label(n)) for n in range(1, rs.yakuman_max + 1)],
                    coerce=int,
                    empty_value=None,
                    required=False,
                    widget=forms.RadioSelect,
                )
            if rs.pao:
                fields[f"pao_{seat}"] = seat_field()
            fields[f"tiles_{seat}"] = forms.CharField(
                required=False, max_length=2000, widget=forms.HiddenInput
            )
            if rs.chips:
                fields[f"chips_{seat}"] = forms.IntegerField(
                    min_value=0,
                    max_value=MAX_CHIPS_PER_PAYER,
                    required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )

    # -- what the ruleset and the taps so far allow ---------------------------------------------

    @property
    def may_stop(self) -> bool:
        """The all-last dealer may end the game after this hand (agari- or tenpai-yame)."""
        return self.all_last and (self.ruleset.agari_yame or self.ruleset.tenpai_yame)

    @property
    def outcome(self) -> str:
        """The outcome tapped so far ("" when none). (``form.result`` is the field.)"""
        value = self.raw("result")
        return value if value in dict(self.fields["result"].choices) else ""  # type: ignore[attr-defined]

    @property
    def tenpai_matters(self) -> bool:
        """An abortive draw asks who is tenpai only where the dealer's renchan depends on it."""
        return self.ruleset.abortive_renchan == "dealer_tenpai"

    # -- reading the taps -------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        result = data.get("result") or ""
        if not result:
            self._need("result", "result")
            return data
        hand: dict[str, Any] = {"result": result}
        riichi = set(data.get("riichi") or [])
        open_riichi = set(data.get("open_riichi") or [])
        # An open riichi is a riichi too: one tap, not two.
        riichi |= open_riichi
        self._riichi = riichi
        self._open_riichi = open_riichi
        if result == "ron":
            self._clean_ron(data, hand)
        elif result == "tsumo":
            self._clean_tsumo(data, hand)
        elif result == "draw":
            hand["tenpai"] = sorted(data.get("tenpai") or [])
            if data.get("nagashi"):
                hand["nagashi"] = sorted(data["nagashi"])
        elif result == "abort":
            kind = data.get("kind")
            if not kind:
                self._need("kind", "kind")
            hand["kind"] = kind
            if self.tenpai_matters and data.get("tenpai"):
                hand["tenpai"] = sorted(data["tenpai"])
        else:
            offender = data.get("offender")
            if offender is None:
                self._need("offender", "offender")
            hand["offender"] = offender
        if riichi:
            hand["riichi"] = sorted(riichi)
        if open_riichi:
            hand["open_riichi"] = sorted(open_riichi)
        penalties = []
        for kind in self.ruleset.penalty_kinds:
            for seat in sorted(data.get(f"penalty_{kind}") or []):
                penalties.append({"seat": seat, "kind": kind})
                self.penalty_order.append(kind)
        if penalties:
            hand["penalties"] = penalties
        if data.get("dealer_stops") and result in ("ron", "tsumo", "draw"):
            hand["dealer_stops"] = True
        offender = data.get("chombo_after")
        if offender is not None and result in ("ron", "tsumo", "draw"):
            chombo: dict[str, Any] = {"offender": offender}
            if result == "draw" and data.get("chombo_noten_payments"):
                chombo["noten_payments"] = True
            hand["chombo"] = chombo
        if not self.missing and not self.errors:
            self.hand = hand
        return data

    def _clean_ron(self, data: dict[str, Any], hand: dict[str, Any]) -> None:
        loser = data.get("loser")
        winners = sorted(data.get("winners") or [])
        if loser is None:
            self._need("loser", "loser")
        elif loser in winners:
            self.add_error("loser", _("The player who dealt in cannot also win."))
            return
        if not winners:
            self._need("winners", "winners")
        elif len(winners) > self.ruleset.multi_ron_max:
            self.add_error(
                "winners",
                _("At most %(n)d players can win on one discard under these rules.")
                % {"n": self.ruleset.multi_ron_max},
            )
            return
        hand["loser"] = loser
        if not self._open_riichi_deal_in(data, loser, winners):
            return
        hand["wins"] = [self._clean_win(data, seat, tsumo=False) for seat in winners]

    def _open_riichi_deal_in(
        self, data: dict[str, Any], loser: int | None, winners: list[int]
    ) -> bool:
        """A player not in riichi dealt into an open riichi (``open_riichi_deal_in``): under
        'any' (Makura 1.3 §18) the open riichi's value is a yakuman; under 'stuck' (Makura 1.5
        §18, 003 L361-371, 004 L40-46) the form asks whether the discarder was stuck: yes, a
        yakuman; no, the tile goes back and there is no ron. A yakuman is a single one unless
        the value tapped is already a yakuman (M-13). False: the ron cannot be recorded."""
        rule = self.ruleset.open_riichi_deal_in
        seats = self.open_riichi_winners(loser, winners)
        if not seats or rule == "none":
            return True
        if rule == "stuck":
            answer = data.get("open_riichi_stuck")
            if not answer:
                self._need("open_riichi_stuck", "open_riichi_stuck")
                return False
            if answer == "no":
                self.add_error(
                    "open_riichi_stuck",
                    _(
                        "A careless discard into an open riichi goes back: there is no ron."
                        " Play on and enter the hand as it ends."
                    ),
                )
                return False
        for seat in seats:
            if (data.get(f"value_{seat}") or "") != "yakuman":
                data[f"value_{seat}"] = "yakuman"
        return True

    def open_riichi_winners(self, loser: int | None, winners: list[int]) -> list[int]:
        """The winners in open riichi this hand whose discarder was not in riichi."""
        if loser is None or loser in self._riichi or not self.ruleset.open_riichi:
            return []
        return [seat for seat in winners if seat in self._open_riichi]

    def _clean_tsumo(self, data: dict[str, Any], hand: dict[str, Any]) -> None:
        winner = data.get("winner")
        if winner is None:
            self._need("winner", "winner")
            return
        win = self._clean_win(data, winner, tsumo=True)
        rinshan_from = data.get("rinshan_from")
        if rinshan_from is not None:
            if rinshan_from == winner:
                self.add_error("rinshan_from", _("The winner cannot have fed the kan."))
            win["rinshan_from"] = rinshan_from
        hand["wins"] = [win]

    def _clean_win(self, data: dict[str, Any], seat: int, *, tsumo: bool) -> dict[str, Any]:
        self.win_seats.append(seat)
        win: dict[str, Any] = {"winner": seat}
        value = data.get(f"value_{seat}") or ""
        if seat in self.tiles.errors:
            self.add_error(f"value_{seat}", self.tiles.errors[seat])
        win |= self.tiles.record.get(seat, {})
        if not value:
            self._need(f"value_{seat}", "value")
        elif value in LIMIT_LABELS:
            win["limit"] = value
            if value == "yakuman":
                win["yakuman"] = data.get(f"yakuman_{seat}") or 1
                if self.paarenchan and seat == self.dealer and "yaku" not in win:
                    # So that the yaku records name it (Makura §44f).
                    win["yaku"] = [{"name": "paarenchan", "han": 13}]
                pao = data.get(f"pao_{seat}")
                if pao is not None:
                    if pao == seat:
                        self.add_error(f"pao_{seat}", _("The winner cannot be liable."))
                    win["pao"] = pao
        else:
            han_text, _dash, fu_text = value.partition("-")
            han = int(han_text)
            win["han"] = han
            fu = int(fu_text) if fu_text else None
            if (
                fu is not None
                and self.ruleset.fu_scoring
                and han <= GRID_HAN
                and fu not in legal_fu(self.ruleset, han, tsumo)
            ):
                # E.g. a tsumo's 20 fu, and the outcome was then changed to ron.
                message = (
                    _("%(fu)d fu is not possible for a %(han)d-han tsumo under these rules.")
                    if tsumo
                    else _("%(fu)d fu is not possible for a %(han)d-han ron under these rules.")
                )
                self.add_error(f"value_{seat}", message % {"fu": fu, "han": han})
            elif fu is not None:
                win["fu"] = fu
        chips = data.get(f"chips_{seat}")
        if chips:
            win["chips"] = chips
        return win

    def _need(self, field: str, what: str) -> None:
        if self.strict:
            self.add_error(field, forms.ValidationError(MISSING[what], code="required"))
        else:
            self.missing.append(what)

    # -- engine refusals --------------------------------------------------------------------------

    def field_for_key(self, key: str) -> str | None:
        """The form field for a record key the engine or the ledger named (None: the hand as
        a whole). ``wins[i].x`` is the i-th win of :attr:`hand`, i.e. seat ``win_seats[i]``."""
        match = re.fullmatch(r"wins\[(\d+)\](?:\.(\w+))?", key)
        if match:
            index, attr = int(match[1]), match[2] or "winner"
            if index >= len(self.win_seats):
                return None
            seat = self.win_seats[index]
            name = {
                "han": f"value_{seat}",
                "limit": f"value_{seat}",
                "fu": f"value_{seat}",
                "yakuman": f"yakuman_{seat}",
                "pao": f"pao_{seat}",
                "chips": f"chips_{seat}",
                "rinshan_from": "rinshan_from",
            }.get(attr, "winners" if self.outcome == "ron" else "winner")
            if name not in self.fields:
                name = f"value_{seat}"
            return name
        if key == "wins":
            return "winners" if self.outcome == "ron" else "winner"
        match = re.fullmatch(r"penalties\[(\d+)\].*", key)
        if match:
            index = int(match[1])
            if index < len(self.penalty_order):
                return f"penalty_{self.penalty_order[index]}"
            return None
        if key == "open_riichi" and key not in self.fields:
            return "riichi"
        return key if key in self.fields and key not in ("request_id", "version") else None

    def add_record_error(self, key: str, message: str) -> None:
        """Show a refusal (engine ``RecordError`` or ``LedgerError``) next to its field."""
        field = self.field_for_key(key) if key else None
        self.hand = None
        self.add_error(field, message)

    # -- raw values (what is tapped, before cleaning; also for unbound forms) ----------------------

    def raw_list(self, name: str) -> list[str]:
        """Every value tapped for field ``name``, as posted (the initial one when unbound)."""
        if self.is_bound:
            getlist = getattr(self.data, "getlist", None)
            if getlist is not None:
                return [str(v) for v in getlist(self.add_prefix(name))]
            value = self.data.get(self.add_prefix(name))
        else:
            value = self.initial.get(name)
        if value is None:
            return []
        if isinstance(value, list | tuple):
            return [str(v) for v in value]
        return [str(value)]

    def raw(self, name: str) -> str:
        """The last value tapped for ``name`` ("" when none)."""
        values = self.raw_list(name)
        return values[-1] if values else ""

    def _seat_of(self, value: str) -> int | None:
        """The seat a tapped value names (a seat number, in ASCII digits), else None."""
        seat = posted_number(value, max_digits=1)
        return seat if seat is not None and seat < self.ruleset.players else None

    def raw_seat(self, name: str) -> int | None:
        """The seat tapped for ``name`` (None: none, or not a seat of this game)."""
        return self._seat_of(self.raw(name))

    def raw_seats(self, name: str) -> list[int]:
        """The seats tapped for ``name``, those that are seats of this game."""
        seats = (self._seat_of(v) for v in self.raw_list(name))
        return [seat for seat in seats if seat is not None]

    def _seat_label(self, seat: int) -> str:
        wind = SEAT_WINDS[(seat - self.dealer) % self.ruleset.players]
        return format_html(
            '<span class="seat-wind" aria-hidden="true">{}</span> {}', wind, self.names[seat]
        )


def hand_form_data(hand: dict[str, Any]) -> dict[str, Any]:
    """The form data that re-enters a stored record hand (to correct it)."""
    data: dict[str, Any] = {"result": hand["result"]}
    for key in ("riichi", "open_riichi", "tenpai", "nagashi"):
        if hand.get(key):
            data[key] = [str(s) for s in hand[key]]
    for key in ("loser", "offender", "kind"):
        if hand.get(key) is not None:
            data[key] = str(hand[key])
    if hand.get("dealer_stops"):
        data["dealer_stops"] = "on"
    if isinstance(hand.get("chombo"), dict):
        data["chombo_after"] = str(hand["chombo"]["offender"])
        if hand["chombo"].get("noten_payments"):
            data["chombo_noten_payments"] = "on"
    by_kind: dict[str, list[str]] = {}
    for penalty in hand.get("penalties", []):
        by_kind.setdefault(f"penalty_{penalty['kind']}", []).append(str(penalty["seat"]))
    data.update(by_kind)
    wins = hand.get("wins", [])
    if hand["result"] == "ron":
        data["winners"] = [str(w["winner"]) for w in wins]
    elif wins:
        data["winner"] = str(wins[0]["winner"])
    for win in wins:
        seat = win["winner"]
        if "limit" in win:
            data[f"value_{seat}"] = win["limit"]
            if win["limit"] == "yakuman" and win.get("yakuman", 1) > 1:
                data[f"yakuman_{seat}"] = str(win["yakuman"])
        elif "fu" in win:
            data[f"value_{seat}"] = f"{win['han']}-{win['fu']}"
        else:
            data[f"value_{seat}"] = str(win["han"])
        if win.get("pao") is not None:
            data[f"pao_{seat}"] = str(win["pao"])
        if win.get("rinshan_from") is not None:
            data["rinshan_from"] = str(win["rinshan_from"])
        if win.get("chips"):
            data[f"chips_{seat}"] = str(win["chips"])
        if win.get("tiles"):
            data[f"tiles_{seat}"] = json.dumps(win["tiles"], ensure_ascii=False)
    return data
