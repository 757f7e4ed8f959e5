"""Forms of the hanchan ledger pages: starting a game, and one hand as entered at the table.

The hand form turns taps (radio buttons and check boxes styled as big buttons) into the hand
object of docs/game-record-format.md. It checks what it can explain best itself (a seat
that is missing, a discarder who also wins, a fu the ruleset does not allow); everything else
is the engine's check, whose errors name a record key that :meth:`HandForm.add_record_error`
puts next to the matching field. No points are worked out here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.forms.boundfield import BoundField, BoundWidget
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clubsite.fields import KeyModelChoiceField, is_key
from clubsite.formatting import format_points
from clubsite.models import Member
from clubsite.permissions import is_steward
from scoring.engine import Ruleset, basic_points, hand_payment, legal_fu, load_ruleset
from scoring.engine.hand_value import LIMIT_BASIC_POINTS

MAX_PLAYERS = 4
# The value pad: a han x fu grid for 1-4 han (where hands carry fu), one button per counted
# han from 5 (or from 1 without fu) up to 13 (14 where 14 han is the first counted yakuman),
# and the limits. A hand is one tap on one of them: the radio's value is "3-30" (han-fu),
# "6" (han) or "mangan" (a limit).
GRID_HAN = 4
HAN_MAX = 13
_FU = (20, 25, *range(30, 111, 10))
# Values a stored hand may have that no button offers (say 15 counted han, or 6 han with its
# fu from an imported record): kept as they are when the hand is corrected.
_STORED_VALUE = re.compile(r"([1-9]\d?)(?:-(\d{2,3}))?")

RESULT_LABELS: dict[str, Promise] = {
    "ron": _("Ron"),
    "tsumo": _("Tsumo"),
    "draw": _("Draw"),
    "abort": _("Abortive draw"),
    "chombo": _("Chombo"),
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
}


def han_label(han: int) -> str:
    return str(_("%(han)d han") % {"han": han})


def fu_label(fu: int) -> str:
    return str(_("%(fu)d fu") % {"fu": fu})


def han_fu_label(han: int, fu: int) -> str:
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
    if multiple == 1:
        return str(LIMIT_LABELS["yakuman"])
    return str(_("%(n)d× yakuman") % {"n": multiple})


# -- starting a game ----------------------------------------------------------------------------


class MemberChoiceField(KeyModelChoiceField):
    """A member as the seat selects list them: display name, with the reading when given."""

    def label_from_instance(self, obj: Member) -> str:
        if obj.furigana and obj.furigana != obj.display_name:
            return f"{obj.display_name}（{obj.furigana}）"
        return obj.display_name


class GameStartForm(forms.Form):
    """New game: the ruleset, up to four seats in order, seat draw, date, venue and table.

    ``ruleset_choices`` puts the club's default first. The seats are all optional fields; the
    number of players filled in must be what the chosen ruleset plays with, which is checked
    in ``clean`` so that the page works without JavaScript (which would otherwise redraw the
    seats for a 3-player ruleset).
    """

    ruleset = forms.ChoiceField(label=_("Rules"))
    draw_seats = forms.BooleanField(
        label=_("Draw seats"),
        required=False,
        help_text=_("Seat the players at random instead of in the order above."),
    )
    played_on = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    table_name = forms.CharField(label=_("Table"), max_length=40, required=False)

    def __init__(
        self,
        *args: Any,
        ruleset_choices: Sequence[tuple[str, str]],
        members: QuerySet[Member],
        user: AbstractBaseUser | AnonymousUser,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["ruleset"].choices = list(ruleset_choices)  # type: ignore[attr-defined]
        for seat in range(MAX_PLAYERS):
            self.fields[f"player_{seat}"] = MemberChoiceField(
                queryset=members,
                required=False,
                label=_("Seat %(n)d") % {"n": seat + 1},
                empty_label="—",
            )

    def players_needed(self) -> int:
        """How many seats to show: the chosen (or initial) ruleset's number of players."""
        ruleset_id = self.data.get("ruleset") if self.is_bound else self.initial.get("ruleset")
        try:
            return load_ruleset(str(ruleset_id)).players
        except KeyError:
            return MAX_PLAYERS

    def seat_fields(self) -> list[BoundField]:
        return [self[f"player_{seat}"] for seat in range(self.players_needed())]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        ruleset_id = data.get("ruleset")
        if not ruleset_id:
            return data
        players = [data[name] for name in self._seat_names() if data.get(name) is not None]
        needed = load_ruleset(ruleset_id).players
        if len(players) != needed:
            self.add_error(None, _("This ruleset needs %(n)d players.") % {"n": needed})
        elif len({member.pk for member in players}) != len(players):
            self.add_error(None, _("A player cannot sit at two seats."))
        elif not is_steward(self.user) and not any(
            m.user_id == self.user.pk for m in players
        ):
            self.add_error(None, _("You can start a game only at a table where you play."))
        data["players"] = players
        return data

    def _seat_names(self) -> list[str]:
        return [f"player_{seat}" for seat in range(MAX_PLAYERS)]


def member_options(query: str, keep: Sequence[str]) -> QuerySet[Member]:
    """Members for the seat selects, by reading: those matching ``query`` (name or furigana)
    and always the ones already chosen (``keep``: their primary keys)."""
    members = Member.objects.order_by("furigana", "display_name")
    query = query.strip()
    if not query:
        return members
    chosen = [pk for pk in keep if is_key(pk)]
    return members.filter(
        Q(display_name__icontains=query) | Q(furigana__icontains=query) | Q(pk__in=chosen)
    )


# -- one hand -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValueTap:
    """One button of the value pad: its radio, the lines it shows (e.g. "3,900", or "6 han"
    over "Haneman"), and what a screen reader says first (e.g. "3 han 30 fu"; "" when the
    lines say it all)."""

    widget: BoundWidget
    lines: tuple[str, ...]
    spoken: str = ""
    # A grid cell worth a mangan already (e.g. 4 han 40 fu): shown quieter than the others.
    capped: bool = False


@dataclass(frozen=True)
class GridRow:
    """A row of the han x fu grid: the fu, and a button per han column (None: not possible)."""

    fu: str
    cells: list[ValueTap | None]


@dataclass(frozen=True)
class WinPad:
    """The value pad of one winner, all one radio group (``value``): the limits, the han x fu
    grid (only the combinations the ruleset allows for a ron or a tsumo, each showing what it
    is worth to this winner), the counted han; then the yakuman multiple and the winner's
    extras (pao, chips)."""

    seat: int
    name: str
    value: BoundField
    limit_options: list[BoundWidget]
    grid_columns: list[str]
    grid: list[GridRow]
    han_taps: list[ValueTap]
    yakuman_options: list[BoundWidget]
    yakuman: BoundField | None
    pao: BoundField | None
    chips: BoundField | None


@dataclass(frozen=True)
class PenaltyRow:
    kind: str
    label: str
    field: BoundField


@functools.lru_cache(maxsize=64)
def _value_choices(rs: Ruleset, language: str) -> list[tuple[str, str | Promise]]:
    """The value choices of a pad under ``rs``, labelled in ``language`` (the active one).

    Built once per ruleset and language: every hand-form POST builds a pad per seat. Callers
    must not change the list."""
    values: list[tuple[str, str | Promise]] = []
    first_counted = 1
    if rs.fu_scoring:
        first_counted = GRID_HAN + 1
        values += [
            (f"{han}-{fu}", han_fu_label(han, fu)) for han in range(1, GRID_HAN + 1) for fu in _FU
        ]
    values += [(str(h), han_label(h)) for h in range(first_counted, top_counted_han(rs) + 1)]
    values += LIMIT_LABELS.items()
    return values


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
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        self.ruleset = rs = ruleset
        self.names = list(names)
        self.dealer = dealer
        self.all_last = all_last
        self.strict = strict
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
        if rs.nagashi != "none":
            fields["nagashi"] = seat_field(multiple=True)
        for kind in rs.penalty_kinds:
            fields[f"penalty_{kind}"] = seat_field(multiple=True)
        if rs.rinshan_liability != "none":
            fields["rinshan_from"] = seat_field()
        if self.may_stop:
            fields["dealer_stops"] = forms.BooleanField(required=False)
        values = self._value_choices()
        for seat in range(rs.players):
            fields[f"value_{seat}"] = forms.ChoiceField(
                choices=values + self._stored_value(f"value_{seat}", values),
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
            if rs.chips:
                fields[f"chips_{seat}"] = forms.IntegerField(
                    min_value=0,
                    max_value=99,
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
    def seat_count(self) -> int:
        return self.ruleset.players

    @property
    def tenpai_matters(self) -> bool:
        """An abortive draw asks who is tenpai only where the dealer's renchan depends on it."""
        return self.ruleset.abortive_renchan == "dealer_tenpai"

    def win_pads(self) -> list[WinPad]:
        """A value pad for each winner tapped so far (ron: each winner; tsumo: the winner)."""
        if self.outcome == "ron":
            seats = sorted(set(self._raw_seats("winners")) - {self._raw_seat("loser")})
        elif self.outcome == "tsumo":
            winner = self._raw_seat("winner")
            seats = [] if winner is None else [winner]
        else:
            seats = []
        tsumo = self.outcome == "tsumo"
        pads = []
        for seat in seats:
            value = self[f"value_{seat}"]
            taps = {w.data["value"]: w for w in value}
            dealer = seat == self.dealer
            grid = self._value_grid(taps, dealer=dealer, tsumo=tsumo)
            shown = {cell.widget.data["value"] for row in grid for cell in row.cells if cell}
            han_taps = self._han_taps(taps, dealer=dealer, tsumo=tsumo)
            shown |= {tap.widget.data["value"] for tap in han_taps}
            # A stored value no button offers, selected when correcting an imported hand.
            han_taps += [
                ValueTap(w, (w.choice_label,))
                for key, w in taps.items()
                if w.data["selected"] and key not in shown and key not in LIMIT_LABELS
            ]
            yakuman = self[f"yakuman_{seat}"] if f"yakuman_{seat}" in self.fields else None
            is_yakuman = self._raw(f"value_{seat}") == "yakuman"
            pao = self[f"pao_{seat}"] if f"pao_{seat}" in self.fields and is_yakuman else None
            chips = self[f"chips_{seat}"] if f"chips_{seat}" in self.fields else None
            pads.append(
                WinPad(
                    seat=seat,
                    name=self.names[seat],
                    value=value,
                    limit_options=[taps[limit] for limit in LIMIT_LABELS],
                    grid_columns=[han_label(h) for h in range(1, GRID_HAN + 1)] if grid else [],
                    grid=grid,
                    han_taps=han_taps,
                    yakuman_options=list(yakuman) if yakuman is not None and is_yakuman else [],
                    yakuman=yakuman if is_yakuman else None,
                    pao=pao,
                    chips=chips,
                )
            )
        return pads

    def _value_choices(self) -> list[tuple[str, str | Promise]]:
        """Every value a pad button may send. The grid's are every han and fu: which of them
        this ron or tsumo may have is checked in ``clean``, with a message saying why."""
        return _value_choices(self.ruleset, get_language())

    def _stored_value(
        self, name: str, values: list[tuple[str, str | Promise]]
    ) -> list[tuple[str, str | Promise]]:
        """The value of a stored hand that no button offers, as one more choice (a hand of 15
        counted han, or 6 han with the fu an imported record gave): a correction keeps it.
        A hand below 5 han with fu rules still needs its fu: that one is not kept."""
        value = self._raw(name)
        match = _STORED_VALUE.fullmatch(value)
        if match is None or value in dict(values):
            return []
        han, fu = int(match[1]), match[2]
        if self.ruleset.fu_scoring and han <= GRID_HAN:
            return []
        return [(value, han_label(han) if fu is None else han_fu_label(han, int(fu)))]

    def _value_grid(
        self, taps: dict[str, BoundWidget], *, dealer: bool, tsumo: bool
    ) -> list[GridRow]:
        """The han x fu grid (rows: fu; columns: 1-4 han) of the combinations the ruleset
        allows for this ron or tsumo; empty where hands carry no fu."""
        rs = self.ruleset
        allowed = {han: set(legal_fu(rs, han, tsumo)) for han in range(1, GRID_HAN + 1)}
        rows = []
        for fu in sorted(set().union(*allowed.values())):
            cells: list[ValueTap | None] = [
                ValueTap(
                    taps[f"{han}-{fu}"],
                    payment_lines(rs, han, fu, dealer=dealer, tsumo=tsumo),
                    spoken=han_fu_label(han, fu),
                    capped=basic_points(rs, han, fu) >= LIMIT_BASIC_POINTS["mangan"],
                )
                if fu in allowed[han]
                else None
                for han in range(1, GRID_HAN + 1)
            ]
            rows.append(GridRow(fu_label(fu), cells))
        return rows

    def _han_taps(
        self, taps: dict[str, BoundWidget], *, dealer: bool, tsumo: bool
    ) -> list[ValueTap]:
        """One button per han that is entered without fu: counted hands of 5 han and more
        (with the limit they reach under these rules, e.g. 13 han: sanbaiman in seed 004),
        and, where hands carry no fu, 1-4 han with what they are worth."""
        rs = self.ruleset
        buttons = []
        for han in range(1, top_counted_han(rs) + 1):
            tap = taps.get(str(han))
            if tap is None:
                continue
            if han > GRID_HAN:
                detail: tuple[str, ...] = (str(LIMIT_LABELS[counted_limit(rs, han)]),)
            else:
                detail = payment_lines(rs, han, rs.fixed_fu, dealer=dealer, tsumo=tsumo)
            buttons.append(ValueTap(tap, (han_label(han), *detail)))
        return buttons

    def penalty_rows(self) -> list[PenaltyRow]:
        return [
            PenaltyRow(kind, str(PENALTY_LABELS.get(kind, kind)), self[f"penalty_{kind}"])
            for kind in self.ruleset.penalty_kinds
        ]

    def extras_open(self) -> bool:
        """Whether the "more" section starts open: something in it is set or wrong."""
        names = ["open_riichi", "nagashi", "rinshan_from", "dealer_stops"]
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
        hand["wins"] = [self._clean_win(data, seat, tsumo=False) for seat in winners]

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
        if not value:
            self._need(f"value_{seat}", "value")
        elif value in LIMIT_LABELS:
            win["limit"] = value
            if value == "yakuman":
                win["yakuman"] = data.get(f"yakuman_{seat}") or 1
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

    def _raw_int(self, name: str) -> int | None:
        value = self._raw(name)
        return int(value) if value.isdigit() else None

    def _raw_seat(self, name: str) -> int | None:
        seat = self._raw_int(name)
        return seat if seat is not None and seat < self.ruleset.players else None

    def _raw_seats(self, name: str) -> list[int]:
        return [
            int(v) for v in self._raw_list(name) if v.isdigit() and int(v) < self.ruleset.players
        ]

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
    return data


class UndoLastHandForm(forms.Form):
    """Take back the last hand, as of the game version the page showed."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class VoidGameForm(forms.Form):
    """Void the game, as of the game version the page showed."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


PERIOD_CHOICES = (
    ("month", _("Month")),
    ("half", _("Half year")),
    ("year", _("Year")),
    ("range", _("Date range")),
    ("all", _("All time")),
)
HALF_CHOICES = (("1", _("First half (January–June)")), ("2", _("Second half (July–December)")))
SORT_DIRECTIONS = (("asc", _("Ascending")), ("desc", _("Descending")))


class MonthInput(forms.DateInput):
    input_type = "month"


class StandingsFilterForm(forms.Form):
    """The standings' and player page's filters, read from the query string (GET).

    ``period`` says which of the other fields name the period: ``month`` ("2026-01"),
    ``year`` and ``half``, ``year``, ``start`` and ``end``, or nothing for all time. Every
    field is optional; :meth:`chosen_period` falls back to the view's default. ``ruleset``
    left empty means the club's standard rulesets.
    """

    period = forms.ChoiceField(label=_("Period"), choices=PERIOD_CHOICES, required=False)
    month = forms.DateField(
        label=_("Month"), required=False, input_formats=["%Y-%m"], widget=MonthInput(format="%Y-%m")
    )
    year = forms.IntegerField(label=_("Year"), required=False, min_value=1900, max_value=9999)
    half = forms.ChoiceField(label=_("Half year"), choices=HALF_CHOICES, required=False)
    start = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    ruleset = forms.MultipleChoiceField(
        label=_("Rulesets"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None ticked: the club's standard rules."),
    )
    min_games = forms.IntegerField(
        label=_("Minimum games"), required=False, min_value=0, max_value=10000
    )
    sort = forms.ChoiceField(required=False, widget=forms.HiddenInput)
    dir = forms.ChoiceField(required=False, choices=SORT_DIRECTIONS, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        ruleset_choices: Sequence[tuple[str, str]],
        sort_columns: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        ruleset_field = self.fields["ruleset"]
        assert isinstance(ruleset_field, forms.MultipleChoiceField)
        ruleset_field.choices = list(ruleset_choices)
        sort_field = self.fields["sort"]
        assert isinstance(sort_field, forms.ChoiceField)
        sort_field.choices = [(c, c) for c in sort_columns]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("period")
        if kind == "range":
            start, end = data.get("start"), data.get("end")
            if start is None or end is None:
                self.add_error("start" if start is None else "end", _("Give both dates."))
            elif end < start:
                self.add_error("end", _("The end cannot be before the start."))
        elif kind == "half" and (data.get("year") is None or not data.get("half")):
            self.add_error("year", _("Give the year and the half."))
        elif kind == "year" and data.get("year") is None:
            self.add_error("year", _("Give the year."))
        return data
