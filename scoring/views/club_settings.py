"""The club's settings at the steward's desk (``/desk/club/``): the club's name and its
choices (:class:`clubsite.club_model.Club`), which a new club starts as the site's
``CLUB_*`` settings.

Every value is checked by :mod:`scoring.club_choices`, the rules the start-up checks of the
settings follow too; all of them are written in one transaction, or none: a refused value
shows the page again with its error (status 200) and the club as it was. Stewards only
(:func:`clubsite.permissions.desk_steward`, 403 for anyone else). The page lives in scoring,
which knows the rulesets, tie-breakers and confirmation rules; the desk's URLs include it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubsite.club_model import Club
from clubsite.club_scope import current_club
from clubsite.permissions import desk_steward
from scoring import club_choices
from scoring.rulebook.choices import ruleset_choices
from scoring.standings.table import TIE_BREAKERS
from scoring.views.standings import TIE_WORDS

TEMPLATE = "members/desk/club_settings.html"
# The club's public page's sections, each shown or not (clubsite.public).
PUBLIC_SWITCHES = (
    "public_rules",
    "public_meetups",
    "public_venues",
    "public_boards",
    "public_join",
)


def confirmation_choices() -> list[tuple[str, str]]:
    """``(policy, words)`` for each of :data:`scoring.ledger.POLICIES`, in the reader's
    language."""
    return [
        ("every_other", _("Every other player at the table")),
        ("one_other", _("One other player at the table")),
        ("steward", _("A steward, for every game")),
        ("none", _("No one: a finished game counts at once")),
    ]


class ClubSettingsForm(forms.Form):
    """The club's name and choices, each field cleaned by its validator of
    :mod:`scoring.club_choices` (so that the page refuses what the rules refuse, in their
    words). The tie-breakers are one select per place (``tie_1`` first ... ``tie_4``), read
    in order as ``standings_ties``; an empty place is skipped.

    :meth:`choices` gives the cleaned values by the club's field names."""

    name = forms.CharField(label=gettext_lazy("Club name"), required=False)
    time_zone = forms.CharField(
        label=gettext_lazy("Time zone"),
        required=False,
        help_text=gettext_lazy(
            "Today, “this month” and the date of a new game are taken in this time zone."
        ),
    )
    default_ruleset = forms.CharField(
        label=gettext_lazy("Default ruleset"),
        required=False,
        help_text=gettext_lazy("A new game starts with it unless the players pick another."),
    )
    standard_rulesets = forms.Field(
        label=gettext_lazy("Standard rulesets"),
        required=False,
        help_text=gettext_lazy(
            "Their games make the standings when no ruleset is picked (standard-rule games)."
        ),
    )
    online_in_standings = forms.CharField(
        label=gettext_lazy("Online games in the standard table"),
        required=False,
        help_text=gettext_lazy(
            "Keys such as tenhou-4p@tenhou (<ruleset>@<service>), separated by commas: those "
            "online games count in the standings with the standard rulesets. Otherwise online "
            "games count only under their own filter."
        ),
    )
    tournaments_in_standings = forms.BooleanField(
        label=gettext_lazy("Tournament games count in the standings"),
        required=False,
        help_text=gettext_lazy(
            "The standings page's filter can still show them or leave them out."
        ),
    )
    guest_events_in_standings = forms.BooleanField(
        label=gettext_lazy("Our members' games at other clubs' events count in the standings"),
        required=False,
        help_text=gettext_lazy(
            "Games our members play as guests at another club's tournament: they always "
            "count in that tournament's ranking; ticked, in our standings too."
        ),
    )
    confirmation = forms.CharField(
        label=gettext_lazy("Who confirms a finished game"), required=False
    )
    list_address = forms.CharField(
        label=gettext_lazy("Mailing list address"),
        required=False,
        widget=forms.EmailInput,
        help_text=gettext_lazy("Every meetup notice goes here too. Empty: no list."),
    )

    public_text = forms.CharField(
        label=gettext_lazy("Text of the public page"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=gettext_lazy(
            "Plain text for visitors: who you are, when and where you play. A blank line "
            "starts a new paragraph."
        ),
    )
    public_rules = forms.BooleanField(
        label=gettext_lazy("Our rules pages (the default and standard rulesets)"), required=False
    )
    public_venues = forms.BooleanField(
        label=gettext_lazy("Venues: name, address, directions, phone"), required=False
    )
    public_meetups = forms.BooleanField(
        label=gettext_lazy("Next meetups: days, time and venue, without names"), required=False
    )
    public_boards = forms.BooleanField(
        label=gettext_lazy("Live boards of tournaments marked public"), required=False
    )
    public_join = forms.BooleanField(label=gettext_lazy("A form to apply to join"), required=False)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        kwargs.setdefault("initial", self._initial(club))
        super().__init__(*args, **kwargs)
        zones = list(club_choices.time_zone_keys())
        if club.time_zone not in zones:
            zones.insert(0, club.time_zone)
        self.fields["time_zone"].widget = forms.Select(choices=[(z, z) for z in zones])
        rulesets = ruleset_choices()
        self.fields["default_ruleset"].widget = forms.Select(choices=rulesets)
        self.fields["standard_rulesets"].widget = forms.CheckboxSelectMultiple(choices=rulesets)
        self.fields["confirmation"].widget = forms.RadioSelect(choices=confirmation_choices())
        words = [("", "—")] + [(key, capfirst(str(TIE_WORDS[key]))) for key in TIE_BREAKERS]
        for place in range(1, len(TIE_BREAKERS) + 1):
            self.fields[f"tie_{place}"] = forms.CharField(
                label=_("Tie-breaker %(place)d") % {"place": place},
                required=False,
                widget=forms.Select(choices=words),
            )

    @staticmethod
    def _initial(club: Club) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": club.name,
            "time_zone": club.time_zone,
            "default_ruleset": club.default_ruleset,
            "standard_rulesets": list(club.standard_rulesets),
            "online_in_standings": ", ".join(club.online_in_standings),
            "tournaments_in_standings": club.tournaments_in_standings,
            "guest_events_in_standings": club.guest_events_in_standings,
            "confirmation": club.confirmation,
            "list_address": club.list_address,
            "public_text": club.public_text,
            "public_rules": club.public_rules,
            "public_venues": club.public_venues,
            "public_meetups": club.public_meetups,
            "public_boards": club.public_boards,
            "public_join": club.public_join,
        }
        for place, name in enumerate(club.standings_ties, start=1):
            initial[f"tie_{place}"] = name
        return initial

    def tie_fields(self) -> list[forms.BoundField]:
        """The tie-breakers' selects, first place first."""
        return [self[f"tie_{place}"] for place in range(1, len(TIE_BREAKERS) + 1)]

    def clean_name(self) -> str:
        return club_choices.validate_name(self.cleaned_data["name"])

    def clean_time_zone(self) -> str:
        return club_choices.validate_time_zone(self.cleaned_data["time_zone"])

    def clean_default_ruleset(self) -> str:
        return club_choices.validate_ruleset(self.cleaned_data["default_ruleset"])

    def clean_standard_rulesets(self) -> list[str]:
        return club_choices.validate_standard_rulesets(self.cleaned_data["standard_rulesets"] or [])

    def clean_online_in_standings(self) -> list[str]:
        return club_choices.validate_online_in_standings(self.cleaned_data["online_in_standings"])

    def clean_confirmation(self) -> str:
        return club_choices.validate_confirmation(self.cleaned_data["confirmation"])

    def clean_list_address(self) -> str:
        return club_choices.validate_list_address(self.cleaned_data["list_address"])

    def clean_public_text(self) -> str:
        return club_choices.validate_public_text(self.cleaned_data["public_text"])

    def public_switches(self) -> list[forms.BoundField]:
        """The public page's sections' checkboxes, in the page's order."""
        return [self[name] for name in PUBLIC_SWITCHES]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        places = [f"tie_{place}" for place in range(1, len(TIE_BREAKERS) + 1)]
        names = [cleaned.get(place, "") for place in places]
        try:
            cleaned["standings_ties"] = club_choices.validate_standings_ties(names)
        except ValidationError as error:
            # The refusal goes beside the select that repeats a name (or names none known).
            seen: list[str] = []
            at = places[0]
            for place, name in zip(places, names, strict=True):
                if name and (name in seen or name not in TIE_BREAKERS):
                    at = place
                    break
                seen.append(name)
            self.add_error(at, error)
        return cleaned

    def choices(self) -> dict[str, Any]:
        """The cleaned values by the club's field names (:data:`scoring.club_choices.VALIDATORS`).
        Only after :meth:`is_valid`."""
        return {name: self.cleaned_data[name] for name in club_choices.VALIDATORS}


@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest) -> HttpResponse:
    """``/desk/club/``: the current club's name and choices; a valid POST writes them all
    and shows the page again with a message, an invalid one names each refused value and
    changes nothing."""
    desk_steward(request)
    club = current_club()
    data = request.POST if request.method == "POST" else None
    form = ClubSettingsForm(data, club=club)
    if form.is_valid():
        # Cleaned again by the same validators inside: it cannot refuse what the form took.
        club_choices.club_choices_save(club, form.choices())
        messages.success(request, _("The club’s settings were saved."))
        return redirect("desk:club_settings")
    context = {
        "form": form,
        "club": club,
        # The public page's address as visitors reach it, under the club's prefix.
        "public_address": request.build_absolute_uri(reverse("game_list")),
    }
    return render(request, TEMPLATE, context)
