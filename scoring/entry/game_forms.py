"""Forms of the games list and the table screen other than the hand: starting a game (the
ruleset, the seats in order, a seat draw, date, venue, table), undo and void."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.forms.boundfield import BoundField
from django.utils.translation import gettext_lazy as _

from clubsite.fields import KeyModelChoiceField, is_key
from clubsite.models import Member
from clubsite.permissions import may_keep_every_game
from scoring.engine import load_ruleset
from scoring.rulebook.choices import split_choice
from scoring.rulebook.hand_labels import (
    MAX_PLAYERS,
)


class MemberChoiceField(KeyModelChoiceField):
    """A member as the seat selects list them: display name, with the reading when given."""

    def label_from_instance(self, obj: Member) -> str:
        if obj.furigana and obj.furigana != obj.display_name:
            return f"{obj.display_name}（{obj.furigana}）"
        return obj.display_name


class GameStartForm(forms.Form):
    """New game: the ruleset, up to four seats in order, seat draw, date, venue and table.

    A ruleset's variant (e.g. the home game's East round only) is a choice of its own; the
    cleaned ``ruleset`` is then the ruleset's id and ``overrides`` the variant's parameters
    (``{}`` without a variant).

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
        choice = self.data.get("ruleset") if self.is_bound else self.initial.get("ruleset")
        try:
            ruleset_id, _overrides = split_choice(str(choice))
            return load_ruleset(ruleset_id).players
        except KeyError:
            return MAX_PLAYERS

    def seat_fields(self) -> list[BoundField]:
        return [self[f"player_{seat}"] for seat in range(self.players_needed())]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        choice = data.get("ruleset")
        if not choice:
            return data
        # The choice is one the field offered (a ruleset, or "<ruleset>:<variant>").
        ruleset_id, data["overrides"] = split_choice(choice)
        data["ruleset"] = ruleset_id
        players = [data[name] for name in self._seat_names() if data.get(name) is not None]
        needed = load_ruleset(ruleset_id).players
        if len(players) != needed:
            self.add_error(None, _("This ruleset needs %(n)d players.") % {"n": needed})
        elif len({member.pk for member in players}) != len(players):
            self.add_error(None, _("A player cannot sit at two seats."))
        elif not may_keep_every_game(self.user) and not any(
            m.user_id == self.user.pk for m in players
        ):
            self.add_error(None, _("You can start a game only at a table where you play."))
        data["players"] = players
        return data

    def _seat_names(self) -> list[str]:
        return [f"player_{seat}" for seat in range(MAX_PLAYERS)]


# Longer than any display name or reading a search box needs to match.
MAX_QUERY = 120


def member_options(query: str, keep: Sequence[str]) -> QuerySet[Member]:
    """Members for the seat selects, by reading: those matching ``query`` (name or furigana)
    and always the ones already chosen (``keep``: their primary keys); never a deactivated
    member."""
    members = Member.objects.seatable().order_by("furigana", "display_name")
    # A name never holds a control character; PostgreSQL refuses a NUL byte in a query.
    query = "".join(c for c in query if c.isprintable()).strip()[:MAX_QUERY]
    if not query:
        return members
    chosen = [pk for pk in keep if is_key(pk)]
    return members.filter(
        Q(display_name__icontains=query) | Q(furigana__icontains=query) | Q(pk__in=chosen)
    )


class GameVersionForm(forms.Form):
    """A button that acts on the game as the page showed it: only its version, so that a page
    drawn before another phone's change is refused with the current table."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class UndoLastHandForm(GameVersionForm):
    """Take back the last hand, as of the game version the page showed."""


class VoidGameForm(GameVersionForm):
    """Void the game, as of the game version the page showed."""
