"""The hand form: the taps of one hand (radio buttons and check boxes styled as big
buttons) turned into the hand object of docs/game-record-format.md. It checks what it can
explain best itself (a seat that is missing, a discarder who also wins, a fu the ruleset
does not allow); everything else is the engine's check, whose errors name a record key that
:meth:`HandForm.add_record_error` puts next to the matching field. No points are worked out
here; the value pad is :mod:`scoring.value_pad`."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from clubsite.fields import posted_number
from scoring.engine import Ruleset, legal_fu
from scoring.engine.ruleset import MAX_CHIPS_PER_PAYER
from scoring.hand_labels import (
    ABORT_LABELS,
    GRID_HAN,
    LIMIT_LABELS,
    MISSING,
    RESULT_LABELS,
    SEAT_WINDS,
    yakuman_label,
)
from scoring.tiles.contract import FLAGS, TILE_KEYS, ContractError, read_hand
from scoring.tiles.evaluate import HandRefused, HandValue, evaluate
from scoring.value_pad import (
    PenaltyRow,
    WinPad,
    choices_for,
    pad_value,
    penalty_rows,
    stored_value,
    value_label,
    win_pads,
)

# What a winner's tiles may say (the hand-value contract's keys but those the form knows:
# ruleset, tsumo, riichi, winds, honba).
TILE_SPEC_KEYS = TILE_KEYS + tuple(flag for flag in FLAGS if flag not in ("tsumo", "riichi"))

# The built-in rulesets under which a riichi player found noten at an exhaustive draw has
# committed a chombo (none if someone wins), with the clause (docs/rules-spec.md §1F). The
# FUJI club's rules do not list it (F-20) and Tenhou has no chombo; the hand then stands as a
# draw with the riichi player noten. The engine records what the players enter: the form
# warns and offers the chombo, it does not decide. The clause is cited in the reader's
# language.
NOTEN_RIICHI_CHOMBO: dict[str, str | Promise] = {
    "makura-1.3": _("Makura 1.3 §27, §33e"),
    "makura-1.5": _("Makura 1.5 §27, §33e"),
    "sanma-float": _("002 C L88–94"),
    "home-nashinashi": _("003 L320–324"),
}


def _implied_ron(data: Any) -> Any:
    """The taps with ``result=ron`` added when who dealt in was tapped before any outcome
    (the table screen's shortcut: a ron in one tap less, issue 10 item 1)."""
    if data is None or not hasattr(data, "getlist") or data.get("result") or not data.get("loser"):
        return data
    implied = data.copy()
    implied["result"] = "ron"
    return implied


def _carried_value(data: Any, players: int) -> Any:
    """The taps with a value moved to the winner when only the winner changed: one winner
    (a tsumo's, or a ron's only winner) without a value, and exactly one value tapped for a
    seat that is no longer a winner (a correction of who won keeps what the hand was worth;
    issue 10 item 6). Anything else is left as it is."""
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
        **kwargs: Any,
    ) -> None:
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
        # Hands entered by their tiles (issue 13): the evaluation per seat, and a warning
        # where the pad's value differs from it.
        self.tile_results: dict[int, HandValue] = {}
        self.tile_warnings: dict[int, str] = {}
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
        values = choices_for(self)
        for seat in range(rs.players):
            fields[f"value_{seat}"] = forms.ChoiceField(
                choices=values + stored_value(self, f"value_{seat}", values),
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

    # -- what to show --------------------------------------------------------------------------

    @property
    def may_stop(self) -> bool:
        """The all-last dealer may end the game after this hand (agari- or tenpai-yame)."""
        return self.all_last and (self.ruleset.agari_yame or self.ruleset.tenpai_yame)

    @property
    def outcome(self) -> str:
        """The outcome tapped so far ("" when none). (``form.result`` is the field.)"""
        value = self._raw("result")
        return value if value in dict(self.fields["result"].choices) else ""  # type: ignore[attr-defined]

    @property
    def open_riichi_deal_in(self) -> list[int]:
        """For the page: the ron winners in open riichi (as tapped so far) whose discarder is
        not in riichi, where the ruleset values such a deal-in (``open_riichi_deal_in``)."""
        if self.outcome != "ron" or self.ruleset.open_riichi_deal_in == "none":
            return []
        riichi = set(self._raw_seats("riichi")) | set(self._raw_seats("open_riichi"))
        loser = self._raw_seat("loser")
        if loser is None or loser in riichi:
            return []
        open_riichi = set(self._raw_seats("open_riichi"))
        return [seat for seat in self._raw_seats("winners") if seat in open_riichi]

    @property
    def open_riichi_loser_name(self) -> str:
        loser = self._raw_seat("loser")
        return self.names[loser] if loser is not None else ""

    @property
    def seat_count(self) -> int:
        return self.ruleset.players

    @property
    def tenpai_matters(self) -> bool:
        """An abortive draw asks who is tenpai only where the dealer's renchan depends on it."""
        return self.ruleset.abortive_renchan == "dealer_tenpai"

    @property
    def noten_riichi(self) -> list[int]:
        """At an exhaustive draw, the seats in riichi that were not marked tenpai (empty for
        any other outcome): a noten riichi, which the club's rules may make a chombo."""
        if self.hand is None or self.hand["result"] != "draw":
            return []
        tenpai = set(self.hand.get("tenpai", []))
        return [seat for seat in self.hand.get("riichi", []) if seat not in tenpai]

    @property
    def noten_riichi_rule(self) -> str:
        """Where this ruleset makes a noten riichi at a draw a chombo ("" where it does not):
        :data:`NOTEN_RIICHI_CHOMBO`."""
        return str(NOTEN_RIICHI_CHOMBO.get(self.ruleset.id, ""))

    def noten_riichi_offers(self) -> list[tuple[int, str]]:
        """``(seat, name)`` of each noten riichi seat, offered as the chombo's offender."""
        return [(seat, self.names[seat]) for seat in self.noten_riichi]

    @functools.cached_property
    def win_pads(self) -> list[WinPad]:
        """A value pad for each winner tapped so far (:func:`scoring.value_pad.win_pads`);
        built once per form, as the page shows the pads in two places."""
        return win_pads(self)

    def penalty_rows(self) -> list[PenaltyRow]:
        """The penalty toggles of the ruleset (:func:`scoring.value_pad.penalty_rows`)."""
        return penalty_rows(self)

    def extras_open(self) -> bool:
        """Whether the "more" section starts open: something in it is set or wrong."""
        names = ["open_riichi", "nagashi", "rinshan_from", "dealer_stops", "chombo_after"]
        names += [f"penalty_{kind}" for kind in self.ruleset.penalty_kinds]
        names += [f"pao_{s}" for s in range(self.seat_count)]
        names += [f"chips_{s}" for s in range(self.seat_count)]
        for name in names:
            if name not in self.fields:
                continue
            if self._raw_list(name) != [] and self._raw_list(name) != [""]:
                if name == "dealer_stops" and self._raw(name) in ("", "false", "off"):
                    continue
                return True
            if self.is_bound and name in self.errors:
                return True
        return False

    def has_extras(self) -> bool:
        """The "more" section has anything to offer for this outcome under this ruleset."""
        result = self.outcome
        rs = self.ruleset
        return bool(
            rs.open_riichi
            or rs.penalty_kinds
            or (result == "draw" and rs.nagashi != "none")
            or (result == "tsumo" and rs.rinshan_liability != "none")
            or (result in ("ron", "tsumo") and (rs.chips or rs.pao))
            or (result in ("ron", "tsumo", "draw") and self.may_stop)
            or (result in ("ron", "tsumo", "draw") and rs.chombo_after_result)
        )

    def next_step(self) -> str:
        """What is still missing, for the hint under the live preview ("" when nothing)."""
        if not self.is_bound:
            return str(MISSING["result"])
        return str(MISSING[self.missing[0]]) if self.missing else ""

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
        tiles = self._clean_tiles(data, seat, tsumo=tsumo, win=win)
        if tiles is not None:
            from_tiles = pad_value(tiles, self.ruleset)
            if not value:
                # The evaluation fills the value (issue 13, item 3).
                value = from_tiles
            elif value != from_tiles:
                self.tile_warnings[seat] = str(
                    _("The tiles make %(tiles)s; the value tapped is %(tapped)s.")
                    % {
                        "tiles": value_label(from_tiles, self.ruleset),
                        "tapped": value_label(value, self.ruleset),
                    }
                )
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

    def _clean_tiles(
        self, data: dict[str, Any], seat: int, *, tsumo: bool, win: dict[str, Any]
    ) -> HandValue | None:
        """The value of the winner's tiles where they were entered (``tiles_<seat>``: the
        hand-value contract's hand keys and situational flags, as JSON), with the win's
        ``yaku`` and ``tiles`` set on ``win``; a hand the tiles do not make is refused next
        to the value."""
        raw = data.get(f"tiles_{seat}") or ""
        if not raw:
            return None
        try:
            spec = json.loads(raw)
        except ValueError:
            spec = None
        if not isinstance(spec, dict):
            self.add_error(f"value_{seat}", _("The tiles could not be read."))
            return None
        contract = {key: spec[key] for key in TILE_SPEC_KEYS if key in spec}
        contract |= {
            "ruleset": self.ruleset.id,
            "tsumo": tsumo,
            "riichi": seat in self._riichi and not spec.get("double_riichi"),
            "seat_wind": "ESWN"[(seat - self.dealer) % self.ruleset.players],
            "round_wind": self.round_wind,
            "honba": self.honba,
        }
        try:
            _id, tiles, situation, honba = read_hand(contract)
            value = evaluate(self.ruleset, tiles, situation, honba=honba)
        except (ContractError, HandRefused) as error:
            self.add_error(f"value_{seat}", _("The tiles: %(why)s") % {"why": error})
            return None
        self.tile_results[seat] = value
        win["yaku"] = [{"name": y.name, "han": y.han} for y in value.yaku if y.han]
        win["tiles"] = {key: contract[key] for key in TILE_SPEC_KEYS if contract.get(key)}
        return value

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

    def _raw_list(self, name: str) -> list[str]:
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

    def _raw(self, name: str) -> str:
        values = self._raw_list(name)
        return values[-1] if values else ""

    def _seat_of(self, value: str) -> int | None:
        """The seat a tapped value names (a seat number, in ASCII digits), else None."""
        seat = posted_number(value, max_digits=1)
        return seat if seat is not None and seat < self.ruleset.players else None

    def _raw_seat(self, name: str) -> int | None:
        return self._seat_of(self._raw(name))

    def _raw_seats(self, name: str) -> list[int]:
        seats = (self._seat_of(v) for v in self._raw_list(name))
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
