"""One small form per meetup action that takes input; the actions without any (confirm,
withdraw, final notice...) are a bare POST with its CSRF token."""

from __future__ import annotations

import datetime
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.fields import KeyModelChoiceField, KeyModelMultipleChoiceField
from clubsite.models import Member
from meetings.models import ChangeRequest, Meetup, Venue, format_day, join_list
from scoring.engine import available_rulesets
from scoring.models import Hanchan
from scoring.rulebook.choices import ruleset_choices
from scoring.rulebook.names import ruleset_title

CANDIDATE_DATE_FIELDS = 3
DEFAULT_RULESET = "makura-1.5"


class Form(forms.Form):
    """Labels without a colon: they stand above their fields, in bold."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%H:%M")


class CandidateDatesWidget(forms.MultiWidget):
    """A few date pickers in a row: ``dates_0``, ``dates_1``, ..."""

    def __init__(self) -> None:
        super().__init__([DateInput() for _ in range(CANDIDATE_DATE_FIELDS)])

    def decompress(self, value: Any) -> list[Any]:
        days = list(value or [])
        return days + [None] * (CANDIDATE_DATE_FIELDS - len(days))


class CandidateDatesField(forms.MultiValueField):
    """One or more dates: the empty pickers are left out, the rest sorted, duplicates once."""

    widget = CandidateDatesWidget

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.DateField(required=False) for _ in range(CANDIDATE_DATE_FIELDS)]
        super().__init__(fields, require_all_fields=False, **kwargs)

    def compress(self, data_list: list[datetime.date | None]) -> list[datetime.date]:
        return sorted({day for day in data_list or [] if day is not None})


class MeetupForm(Form):
    """T1: a call for players."""

    dates = CandidateDatesField(
        label=_("Candidate dates"),
        help_text=_("One or more days; members say which of them they can make."),
    )
    start_time = forms.TimeField(
        label=_("Start time"), initial=datetime.time(19, 0), widget=TimeInput()
    )
    # The club's venues, read when the form is made (in the request's club scope).
    venue = KeyModelChoiceField(queryset=None, label=_("Venue"), empty_label=None)
    ruleset = forms.ChoiceField(label=_("Rules"), choices=ruleset_choices)
    tables = forms.IntegerField(
        label=_("Tables wanted"),
        min_value=1,
        max_value=4,
        initial=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    note = forms.CharField(
        label=_("Message"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    coordinator_plays = forms.BooleanField(
        label=_("I am playing too"), required=False, initial=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(KeyModelChoiceField, self.fields["venue"]).queryset = Venue.objects.all()
        self.fields["venue"].initial = Venue.default()
        rulesets = available_rulesets()
        self.fields["ruleset"].initial = (
            DEFAULT_RULESET if DEFAULT_RULESET in rulesets else next(iter(rulesets), None)
        )


class CandidateDateChoiceField(KeyModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return format_day(obj.date)


class GameChoiceField(KeyModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return game_label(obj)


class ApplyForm(Form):
    """T2: the candidate dates the member can make (none to choose once a date is declared)."""

    dates = CandidateDateChoiceField(
        queryset=None,
        label=_("Dates you can make"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def __init__(self, *args: Any, meetup: Meetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meetup = meetup
        field = self.fields["dates"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = meetup.candidate_dates.all()
        field.initial = [candidate.pk for candidate in meetup.open_dates()]
        field.required = meetup.date is None

    def chosen_dates(self) -> list[datetime.date] | None:
        if self.meetup.date is not None:
            return None
        return [candidate.date for candidate in self.cleaned_data["dates"]]


class DeclareForm(Form):
    """T4: the date and the members of the line-up (the page ticks the first applicants)."""

    date = forms.DateField(widget=forms.HiddenInput)
    members = KeyModelMultipleChoiceField(
        queryset=None,
        label=_("Line-up"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, meetup: Meetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["members"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Member.objects.filter(
            meetup_applications__meetup=meetup, meetup_applications__withdrawn_at__isnull=True
        )


class ChangeRequestForm(Form):
    """T9: cancel, or ask for another date or time."""

    kind = forms.ChoiceField(
        label=_("What do you need?"),
        choices=ChangeRequest.Kind.choices,
        initial=ChangeRequest.Kind.CANCEL,
        widget=forms.RadioSelect,
    )
    message = forms.CharField(
        label=_("Message for the coordinator"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class MoveForm(Form):
    """T10b: the new date and time."""

    date = forms.DateField(label=_("New date"), widget=DateInput())
    start_time = forms.TimeField(label=_("Start time"), widget=TimeInput())


class ReportForm(Form):
    """T12: the games played at the meetup, and a few words."""

    hanchans = GameChoiceField(
        queryset=None,
        label=_("Games played"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    note = forms.CharField(
        label=_("Report"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def __init__(self, *args: Any, meetup: Meetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["hanchans"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        candidates = meetup.report_candidates()
        field.queryset = candidates
        field.initial = [game.pk for game in candidates]


def game_label(game: Hanchan) -> str:
    players = join_list(seat.member.display_name for seat in game.seats.all())
    table = f"{game.table_name}: " if game.table_name else ""
    return f"{table}{players} ({ruleset_title(game.ruleset_version.name)})"
