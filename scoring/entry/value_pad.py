"""The value pad of the entry region as a view-model: for each winner
tapped, the limits, the han x fu grid of the values the ruleset allows (each button saying
what it pays), the counted han and what the winner's tiles make; the template renders these
plain objects (no HTML here). Read from the hand form's taps (:class:`HandForm`) and the
tile entry (:class:`scoring.entry.tile_entry.TileEntry`); nothing here parses or values a hand."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.forms.boundfield import BoundField, BoundWidget
from django.utils.translation import get_language

from scoring.engine import Ruleset, basic_points, legal_fu
from scoring.engine.limits import LIMIT_BASIC_POINTS
from scoring.entry.hand_form import HandForm
from scoring.entry.pad_values import pad_value, value_label
from scoring.rulebook.hand_labels import (
    GRID_HAN,
    LIMIT_LABELS,
    PENALTY_LABELS,
    counted_limit,
    fu_label,
    han_fu_label,
    han_label,
    payment_lines,
    top_counted_han,
)

if TYPE_CHECKING:
    from scoring.tiles.evaluate import HandValue


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


# The grid rows shown at once: the common fu; the rest, and the counted han, one tap away
# (so that the pad fits a phone's screen with the steps around it).
COMMON_FU_MAX = 40


@dataclass(frozen=True)
class GridRow:
    """A row of the han x fu grid: the fu (label and number), and a button per han column
    (None: not possible)."""

    fu: str
    cells: list[ValueTap | None]
    fu_value: int = 0

    @property
    def selected(self) -> bool:
        return any(cell is not None and cell.widget.data["selected"] for cell in self.cells)


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
    yakuman: BoundField | None
    pao: BoundField | None
    chips: BoundField | None
    # Entry by tiles: the hidden field the keyboard writes, and the
    # evaluation of what it holds.
    tiles: BoundField | None = None
    tile_value: HandValue | None = None
    tile_yaku: tuple[tuple[str, int], ...] = ()
    tile_fu: tuple[tuple[str, int], ...] = ()
    tile_label: str = ""
    tile_warning: str = ""
    # The dealer's win in this hand would be paarenchan (Makura §44f): the pad says so.
    paarenchan: bool = False
    # The pad of an earlier winner (at a double ron) still waits for its value.
    behind: bool = False

    @property
    def common_grid(self) -> list[GridRow]:
        """The grid rows up to :data:`COMMON_FU_MAX` fu, always shown."""
        return [row for row in self.grid if row.fu_value <= COMMON_FU_MAX]

    @property
    def more_grid(self) -> list[GridRow]:
        """The grid rows above :data:`COMMON_FU_MAX` fu, folded."""
        return [row for row in self.grid if row.fu_value > COMMON_FU_MAX]

    @property
    def chosen(self) -> str:
        """The value tapped, as its button says it: "3 han 30 fu 3,900", "Mangan", "6 han
        Haneman"; "" while none is."""
        for widget in self.limit_options:
            if widget.data["selected"]:
                return str(widget.choice_label)
        for row in self.grid:
            for cell in row.cells:
                if cell is not None and cell.widget.data["selected"]:
                    return " ".join([cell.spoken, *cell.lines] if cell.spoken else cell.lines)
        for tap in self.han_taps:
            if tap.widget.data["selected"]:
                return " ".join(tap.lines)
        return ""

    @property
    def valued(self) -> bool:
        """A value is tapped, or the tiles entered make one."""
        return bool(self.chosen) or self.tile_value is not None

    @property
    def folded(self) -> bool:
        """The pad is one line, its buttons a tap away (one pad open at a
        time, so that at a double ron the second winner's pad comes up where the first one's
        was, and below a valued pad "More: rare cases" is above the confirm bar): a value is
        tapped, with no tiles entered (their result stays in view) and nothing wrong."""
        if self.value.errors or self.tile_warning or self.tile_value is not None:
            return False
        if self.tiles is not None and self.tiles.value():
            return False
        return bool(self.chosen)

    @property
    def waiting(self) -> bool:
        """An earlier winner's pad still waits for its value: this one is a line saying it
        comes next, its buttons drawn once that value is in (nothing of it under the confirm
        bar meanwhile)."""
        if not self.behind or self.valued or self.value.errors or self.tile_warning:
            return False
        return not (self.tiles is not None and self.tiles.value())

    @property
    def more_open(self) -> bool:
        """The folded values hold the one selected: show them unfolded."""
        return any(row.selected for row in self.more_grid) or any(
            tap.widget.data["selected"] for tap in self.han_taps
        )


@dataclass(frozen=True)
class PenaltyRow:
    """A penalty toggle of the ruleset (Makura 1.5 §33a kara, withdrawn win): its kind,
    label and check box."""

    kind: str
    label: str
    field: BoundField


def win_pads(form: HandForm) -> list[WinPad]:
    """A value pad for each winner tapped so far (ron: each winner; tsumo: the winner)."""
    if form.outcome == "ron":
        seats = sorted(set(form.raw_seats("winners")) - {form.raw_seat("loser")})
    elif form.outcome == "tsumo":
        winner = form.raw_seat("winner")
        seats = [] if winner is None else [winner]
    else:
        seats = []
    tsumo = form.outcome == "tsumo"
    pads: list[WinPad] = []
    for seat in seats:
        value = form[f"value_{seat}"]
        taps = {w.data["value"]: w for w in value}
        dealer = seat == form.dealer
        grid = _value_grid(form, taps, dealer=dealer, tsumo=tsumo)
        shown = {cell.widget.data["value"] for row in grid for cell in row.cells if cell}
        han_taps = _han_taps(form, taps, dealer=dealer, tsumo=tsumo)
        shown |= {tap.widget.data["value"] for tap in han_taps}
        # A stored value no button offers, selected when correcting an imported hand.
        han_taps += [
            ValueTap(w, (w.choice_label,))
            for key, w in taps.items()
            if w.data["selected"] and key not in shown and key not in LIMIT_LABELS
        ]
        yakuman = form[f"yakuman_{seat}"] if f"yakuman_{seat}" in form.fields else None
        is_yakuman = form.raw(f"value_{seat}") == "yakuman"
        pao = form[f"pao_{seat}"] if f"pao_{seat}" in form.fields and is_yakuman else None
        chips = form[f"chips_{seat}"] if f"chips_{seat}" in form.fields else None
        pads.append(
            WinPad(
                seat=seat,
                name=form.names[seat],
                value=value,
                limit_options=[taps[limit] for limit in LIMIT_LABELS],
                grid_columns=[han_label(h) for h in range(1, GRID_HAN + 1)] if grid else [],
                grid=grid,
                han_taps=han_taps,
                yakuman=yakuman if is_yakuman else None,
                pao=pao,
                chips=chips,
                tiles=form[f"tiles_{seat}"],
                **_tile_parts(form, seat),
                paarenchan=dealer and form.paarenchan,
                behind=any(not pad.valued for pad in pads),
            )
        )
    return pads


def _tile_parts(form: HandForm, seat: int) -> dict[str, Any]:
    from scoring.rulebook.yaku_labels import fu_label_of, yaku_label

    value = form.tiles.values.get(seat)
    if value is None:
        return {"tile_warning": form.tiles.warnings.get(seat, "")}
    return {
        "tile_value": value,
        "tile_yaku": tuple((yaku_label(y.name), y.han) for y in value.yaku if y.han),
        "tile_fu": tuple((fu_label_of(reason), fu) for reason, fu in value.fu_details),
        "tile_label": value_label(pad_value(value, form.ruleset), form.ruleset),
        "tile_warning": form.tiles.warnings.get(seat, ""),
    }


def _value_grid(
    form: HandForm, taps: dict[str, BoundWidget], *, dealer: bool, tsumo: bool
) -> list[GridRow]:
    """The han x fu grid (rows: fu; columns: 1-4 han) of the combinations the ruleset
    allows for this ron or tsumo; empty where hands carry no fu."""
    layout = _grid_layout(form.ruleset, get_language() or "", dealer=dealer, tsumo=tsumo)
    return [
        GridRow(
            fu_text,
            [
                None if cell is None else ValueTap(taps[cell[0]], cell[1], cell[2], cell[3])
                for cell in cells
            ],
            fu,
        )
        for fu, fu_text, cells in layout
    ]


# A grid cell's value, lines, spoken label and whether it is capped; None: not possible.
_Cell = tuple[str, tuple[str, ...], str, bool] | None


@functools.lru_cache(maxsize=256)
def _grid_layout(
    rs: Ruleset, language: str, *, dealer: bool, tsumo: bool
) -> tuple[tuple[int, str, tuple[_Cell, ...]], ...]:
    """What the grid shows under ``rs`` in ``language`` (the active one) for a dealer's or
    a non-dealer's ron or tsumo, worked out once per process: every tap of a win draws the
    pad again, the same but for its checked cell. Rows: (fu, its label, cells)."""
    allowed = {han: set(legal_fu(rs, han, tsumo)) for han in range(1, GRID_HAN + 1)}
    return tuple(
        (
            fu,
            str(fu_label(fu)),
            tuple(
                (
                    f"{han}-{fu}",
                    tuple(
                        str(line) for line in payment_lines(rs, han, fu, dealer=dealer, tsumo=tsumo)
                    ),
                    str(han_fu_label(han, fu)),
                    basic_points(rs, han, fu) >= LIMIT_BASIC_POINTS["mangan"],
                )
                if fu in allowed[han]
                else None
                for han in range(1, GRID_HAN + 1)
            ),
        )
        for fu in sorted(set().union(*allowed.values()))
    )


def _han_taps(
    form: HandForm, taps: dict[str, BoundWidget], *, dealer: bool, tsumo: bool
) -> list[ValueTap]:
    """One button per han that is entered without fu: counted hands of 5 han and more
    (with the limit they reach under these rules, e.g. 13 han: sanbaiman in seed 004),
    and, where hands carry no fu, 1-4 han with what they are worth."""
    rs = form.ruleset
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


def penalty_rows(form: HandForm) -> list[PenaltyRow]:
    """The ruleset's penalty toggles for the hand ``form``."""
    return [
        PenaltyRow(kind, str(PENALTY_LABELS.get(kind, kind)), form[f"penalty_{kind}"])
        for kind in form.ruleset.penalty_kinds
    ]
