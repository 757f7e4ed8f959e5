"""Entering a game as final scores only: one score per seat, the deposits
left on the table and, where the ruleset ends on tobi, who busted whom. The engine settles
them under the game's ruleset (:mod:`scoring.engine.final_scores`) through the ledger's
pipeline (:func:`scoring.ledger.hanchan_final_scores`)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubsite.formatting import format_points
from scoring.engine import Ruleset
from scoring.engine.ruleset_files import INT_LIMIT
from scoring.ledger import LedgerError, StaleHanchan, hanchan_final_scores
from scoring.models import Hanchan
from scoring.views.access import (
    actor,
    hanchan_for_keeper,
    hanchan_for_member,
    names_of,
)
from scoring.views.table import (
    HtmxHttpRequest,
    render_table,
    table_changed,
)

# Raw scores beyond the bound of every ruleset number are no game of mahjong.
SCORE_LIMIT = INT_LIMIT

# How a minus is typed: on a phone's Japanese keyboard (fullwidth, the long-vowel mark), as
# the minus sign, or as a bookkeeper's triangle (▲1200).
MINUS_CHARACTERS = "−－ー▲△"
MINUS_SIGNS = str.maketrans(dict.fromkeys(MINUS_CHARACTERS, "-"))


class SignedPointsField(forms.IntegerField):
    """A raw score that may be below zero, typed on any phone: a text box (``inputmode=
    "numeric"`` opens a keypad without a minus on an iPhone, so a busted score could not be
    typed), read with fullwidth digits, a Japanese minus and thousands separators."""

    widget = forms.TextInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {
                "inputmode": "text",
                # What to_python reads: the browser refuses the rest before it is posted.
                "pattern": rf"\s*[\-{MINUS_CHARACTERS}]?\s*[0-9０-９,，]+\s*",
                "autocomplete": "off",
                "title": gettext_lazy("Points, below zero with a minus: -1200"),
            }
        )

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            text = unicodedata.normalize("NFKC", value).translate(MINUS_SIGNS)
            value = "".join(text.split()).replace(",", "")
        return super().to_python(value)


class FinalScoresForm(forms.Form):
    """One raw final score per seat (points, steps of 100), the deposits left on the table,
    and for each bust seat who busted them (only asked where the ruleset pays for tobi)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    deposits = forms.IntegerField(
        label=gettext_lazy("Deposits left on the table"),
        min_value=0,
        max_value=SCORE_LIMIT,
        initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 100}),
    )

    def __init__(self, *args: Any, ruleset: Ruleset, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"score_{seat}"] = SignedPointsField(
                label=name, min_value=-SCORE_LIMIT, max_value=SCORE_LIMIT
            )
        if ruleset.tobi and ruleset.tobi_payment:
            choices = [("", "—"), *((str(s), n) for s, n in enumerate(names))]
            for seat, name in enumerate(names):
                self.fields[f"busted_by_{seat}"] = forms.TypedChoiceField(
                    label=_("If %(name)s was busted: by whom?") % {"name": name},
                    choices=choices,
                    coerce=int,
                    required=False,
                    empty_value=None,
                )

    def score_fields(self) -> list[forms.BoundField]:
        return [self[f"score_{seat}"] for seat in range(len(self.names))]

    def tobi_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("busted_by_")]

    def final_scores(self) -> dict[str, Any]:
        """The record's ``final_scores`` object (valid form only)."""
        data = self.cleaned_data
        raw: dict[str, Any] = {
            "scores": [data[f"score_{seat}"] for seat in range(len(self.names))],
            "deposits": data["deposits"] or 0,
        }
        tobi = [
            {"busted": seat, "by": data[f"busted_by_{seat}"]}
            for seat in range(len(self.names))
            if data.get(f"busted_by_{seat}") is not None
        ]
        if tobi:
            raw["tobi"] = tobi
        return raw


def _initial(hanchan: Hanchan) -> dict[str, Any]:
    initial: dict[str, Any] = {"version": hanchan.version, "deposits": 0}
    stored = (hanchan.state or {}).get("final_scores") if hanchan.final_scores_only else None
    if stored:
        for seat, score in enumerate(stored["scores"]):
            initial[f"score_{seat}"] = score
        initial["deposits"] = stored.get("deposits", 0)
        for entry in stored.get("tobi", []):
            initial[f"busted_by_{entry['busted']}"] = entry["by"]
    return initial


@require_http_methods(["GET", "POST"])
def game_final_scores(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The final-scores form of a game without hands; on a valid post, the engine's
    settlement is stored (or the refusal shown next to the field, nothing written)."""
    hanchan = hanchan_for_keeper(request, pk)
    if hanchan.status == Hanchan.Status.VOIDED or hanchan.hands.exists():
        return render_table(
            request,
            hanchan,
            update_all=True,
            notice=_("Only a game without hands can be entered as final scores."),
        )
    ruleset = hanchan.ruleset()
    names = names_of(hanchan)
    if request.method == "GET":
        form = FinalScoresForm(initial=_initial(hanchan), ruleset=ruleset, names=names)
    else:
        form = FinalScoresForm(request.POST, ruleset=ruleset, names=names)
        if form.is_valid():
            try:
                hanchan_final_scores(
                    hanchan_id=pk,
                    final_scores=form.final_scores(),
                    expected_version=form.cleaned_data["version"],
                    **actor(request, hanchan),
                )
            except StaleHanchan as stale:
                return render_table(
                    request, hanchan_for_member(request, pk), update_all=True, notice=str(stale)
                )
            except LedgerError as error:
                form.add_error(_field(error.field), str(error))
            else:
                return table_changed(request, pk, _("The final scores were recorded."))
    total = format_points(ruleset.players * ruleset.start_points)
    return render(
        request,
        "scoring/final_scores.html",
        {"hanchan": hanchan, "form": form, "total": total, "ruleset": ruleset},
    )


def _field(key: str) -> str | None:
    """The form field for a refusal's record key (the scores' total goes to the form)."""
    if key == "final_scores.deposits":
        return "deposits"
    return None
