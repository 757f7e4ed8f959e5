"""The filters of the standings and player pages: period, year, half, month, range,
rulesets, minimum games and sorting."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

PERIOD_CHOICES = (
    ("month", _("Month")),
    ("half", _("Half year")),
    ("year", _("Year")),
    ("range", _("Date range")),
    ("all", _("All time")),
)
HALF_CHOICES = (("1", _("First half (January–June)")), ("2", _("Second half (July–December)")))
SORT_DIRECTIONS = (("asc", _("Ascending")), ("desc", _("Descending")))
TOURNAMENT_CHOICES = (
    ("in", pgettext_lazy("tournament games", "Counted")),
    ("out", pgettext_lazy("tournament games", "Left out")),
)


class MonthInput(forms.DateInput):
    input_type = "month"


class StandingsFilterForm(forms.Form):
    """The standings' and player page's filters, read from the query string (GET).

    ``period`` says which of the other fields name the period: ``month`` ("2026-01"),
    ``year`` and ``half``, ``year``, ``start`` and ``end``, or nothing for all time. Every
    field is optional; :meth:`chosen_period` falls back to the view's default. ``ruleset``
    left empty means the club's standard rulesets; ``tournaments`` (``"in"``, ``"out"``)
    left empty, the club's default.
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
    # The standings page only; empty means the club's default.
    tournaments = forms.ChoiceField(
        label=_("Tournament games"), choices=TOURNAMENT_CHOICES, required=False
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
