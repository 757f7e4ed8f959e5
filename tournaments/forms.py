"""The forms of the tournament pages: a new tournament, its players, withdrawals."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubsite.models import Member
from tournaments import formats
from tournaments.models import Event, Participant, Phase

TOBI_CHOICES = [
    ("", _("as the format says (the GP has none)")),
    ("on", _("a bust ends the game")),
    ("off", _("no tobi: play on below zero")),
]


class EventForm(forms.Form):
    """A new tournament: a preset format of seed 001 or a custom one, its ruleset, days,
    venue, and the few choices the rules leave to the club (T-01 carry-over, tobi)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices)
    ruleset = forms.ChoiceField(label=_("Rules"))
    starts_on = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        label=_("Last day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave empty for a one-day tournament."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    tobi = forms.ChoiceField(label=_("Tobi"), choices=TOBI_CHOICES, required=False)
    carry_over = forms.BooleanField(
        label=_("Preliminary points carry over to the finals"),
        required=False,
        help_text=_(
            "Grand Champion: the rules rank the champion by the 2 finals only (T-01); tick "
            "this to add the preliminaries, as in the GP. Custom: the preliminaries count in "
            "the final ranking."
        ),
    )
    preliminary_rounds = forms.IntegerField(
        label=_("Preliminary games (custom)"), min_value=1, max_value=20, required=False
    )
    preliminary_seating = forms.ChoiceField(
        label=_("Preliminary seating (custom)"),
        choices=[("lot", _("by lot")), ("standing", _("by standing"))],
        required=False,
    )
    reseat_every = forms.IntegerField(
        label=_("Re-seat by standing every … games (custom, by standing)"),
        min_value=0,
        max_value=20,
        required=False,
    )
    final_rounds = forms.IntegerField(
        label=_("Final games (custom)"), min_value=0, max_value=10, required=False
    )
    finalists = forms.IntegerField(
        label=_("Finalists (custom; empty: everyone plays the finals)"),
        min_value=3,
        max_value=400,
        required=False,
    )

    def __init__(
        self, *args: Any, ruleset_choices: Sequence[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = list(ruleset_choices)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("The last day cannot be before the first."))
        if data.get("format") == Event.Format.CUSTOM:
            if not data.get("preliminary_rounds"):
                self.add_error("preliminary_rounds", _("A custom tournament needs its games."))
            else:
                try:
                    data["plan"] = formats.custom(
                        preliminary_rounds=data["preliminary_rounds"],
                        preliminary_seating=data.get("preliminary_seating") or "lot",
                        final_rounds=data.get("final_rounds") or 0,
                        finalists=data.get("finalists"),
                        carry_over=bool(data.get("carry_over")),
                        reseat_every=data.get("reseat_every") or 0,
                    )
                except ValueError:
                    self.add_error("finalists", _("Finalists need final games."))
        return data

    @property
    def tobi_choice(self) -> bool | None:
        """The steward's tobi override: ``None`` keeps the format's."""
        return {"on": True, "off": False}.get(self.cleaned_data.get("tobi") or "")


FORMAT_FIELDS = (
    "format",
    "ruleset",
    "tobi",
    "carry_over",
    "preliminary_rounds",
    "preliminary_seating",
    "reseat_every",
    "final_rounds",
    "finalists",
)


class EventEditForm(EventForm):
    """An event's desk: name, days and venue always; the format and its rules only while no
    round has started (``format_locked``: those fields are shown, disabled, and their posted
    values ignored)."""

    public = forms.BooleanField(
        label=_("Show the live board without a login"),
        required=False,
        help_text=_(
            "For a screen at the venue: the board shows the tables and the ranking, nothing "
            "else. Unticked: members only."
        ),
    )

    def __init__(self, *args: Any, format_locked: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.format_locked = format_locked
        if format_locked:
            for name in FORMAT_FIELDS:
                self.fields[name].disabled = True


def event_initial(event: Event) -> dict[str, Any]:
    """The edit form's values for ``event`` as it stands (a custom format's phases read
    back into the custom fields)."""
    phases = list(event.phases.order_by("number"))
    first = phases[0] if phases else None
    finals = next((p for p in phases if p.kind == Phase.Kind.FINAL), None)
    tobi = (event.overrides or {}).get("tobi")
    preset = formats.PRESETS.get(event.format)
    if preset is not None and tobi == preset().overrides.get("tobi"):
        tobi = None  # as the format says (the GP's "no tobi"), so that another format
        # chosen here does not inherit it
    initial: dict[str, Any] = {
        "name": event.name,
        "format": event.format,
        "ruleset": event.ruleset_id,
        "starts_on": event.starts_on,
        "ends_on": event.ends_on if event.ends_on != event.starts_on else None,
        "venue": event.venue,
        "public": event.public,
        "tobi": "" if tobi is None else ("on" if tobi else "off"),
        "carry_over": bool(
            event.format in (Event.Format.GRAND_CHAMPION, Event.Format.CUSTOM)
            and first
            and finals
            and first.counts
        ),
    }
    if event.format == Event.Format.CUSTOM and first is not None:
        initial |= {
            "preliminary_rounds": first.rounds,
            "preliminary_seating": first.seating,
            "reseat_every": first.reseat_every or None,
            "final_rounds": finals.rounds if finals else 0,
            "finalists": finals.qualifiers if finals else None,
        }
    return initial


class ParticipantsForm(forms.Form):
    """The players of a tournament that has not been drawn: ticked from the member list."""

    members: forms.ModelMultipleChoiceField[Member] = forms.ModelMultipleChoiceField(
        label=pgettext_lazy("tournament", "Players"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, members: QuerySet[Member], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = members  # type: ignore[attr-defined]


# Longer than any display name or reading a search box needs to match.
MAX_QUERY = 120


def search_key(text: str) -> str:
    """``text`` as the picker's search compares it: width and case folded (NFKC), katakana
    read as hiragana, so that "サトウ", "さとう" and "ｻﾄｳ" find the same reading."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in folded)


def members_matching(members: Sequence[Member], query: str) -> list[Member]:
    """The members whose name or reading contains ``query`` (all of them for an empty one)."""
    key = search_key("".join(c for c in query if c.isprintable()).strip()[:MAX_QUERY])
    if not key:
        return list(members)
    return [
        m for m in members if key in search_key(m.display_name) or key in search_key(m.furigana)
    ]


class WithdrawForm(forms.Form):
    """Players who leave a running tournament."""

    numbers = forms.TypedMultipleChoiceField(
        label=pgettext_lazy("tournament", "Withdraw"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, participants: Sequence[Participant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["numbers"].choices = [  # type: ignore[attr-defined]
            (p.number, p.member.display_name) for p in participants if not p.withdrawn
        ]
