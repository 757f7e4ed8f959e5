"""Pages about the club's built-in rulesets, and the language switch.

The rulesets come from the scoring engine (plain Python); these views only format them for
people: points with thousands separators, uma in thousands with signs.

Every page is for members only (`LoginRequiredMiddleware`); the few that anyone may see are
marked `@login_not_required`.
"""

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views import i18n
from django.views.decorators.http import require_safe

from clubsite.formatting import format_points, format_uma
from scoring.engine import available_rulesets, load_ruleset


class RulesetFields(Protocol):
    """What these pages read of a ruleset returned by `scoring.engine.load_ruleset`."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def start_points(self) -> int: ...
    @property
    def return_points(self) -> int: ...
    @property
    def uma(self) -> tuple[int, ...]: ...
    @property
    def sources(self) -> tuple[str, ...]: ...


def format_parameter(value: object) -> str:
    """Any ruleset parameter value as one line of text; "—" for nothing at all."""
    if isinstance(value, bool):
        text = gettext("yes") if value else gettext("no")
    elif isinstance(value, enum.Enum):
        text = format_parameter(value.value)
    elif isinstance(value, int):
        text = format_points(value)
    elif value is None or isinstance(value, str):
        text = value or ""
    elif isinstance(value, Mapping):
        text = ", ".join(f"{key}: {format_parameter(item)}" for key, item in value.items())
    elif isinstance(value, set | frozenset):
        text = ", ".join(sorted(format_parameter(item) for item in value))
    elif isinstance(value, tuple | list):
        text = ", ".join(
            f"({format_parameter(item)})"
            if isinstance(item, tuple | list)
            else format_parameter(item)
            for item in value
        )
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        text = ", ".join(
            f"{field.name}: {format_parameter(getattr(value, field.name))}"
            for field in dataclasses.fields(value)
        )
    else:
        text = str(value)
    return text or "\N{EM DASH}"


@dataclass(frozen=True)
class RulesetHeader:
    """A ruleset's headline figures, formatted for display."""

    id: str
    name: str
    players: int
    start_points: str
    return_points: str
    uma: str

    @classmethod
    def of(cls, ruleset: RulesetFields) -> Self:
        return cls(
            id=ruleset.id,
            name=ruleset.name,
            players=ruleset.players,
            start_points=format_points(ruleset.start_points),
            return_points=format_points(ruleset.return_points),
            uma=format_uma(ruleset.uma),
        )


@dataclass(frozen=True)
class ParameterRow:
    """One parameter of a ruleset: its name as game records' overrides spell it, and its value."""

    name: str
    doc: str
    value: str


@require_safe
def ruleset_list(request: HttpRequest) -> HttpResponse:
    rulesets = [RulesetHeader.of(load_ruleset(ruleset_id)) for ruleset_id in available_rulesets()]
    return render(request, "rulesets/list.html", {"rulesets": rulesets})


@require_safe
def ruleset_detail(request: HttpRequest, ruleset_id: str) -> HttpResponse:
    try:
        ruleset = load_ruleset(ruleset_id)
    except KeyError:
        raise Http404(gettext("There is no built-in ruleset with this id.")) from None
    # Sources get their own list below the table rather than one long cell.
    parameters = [
        ParameterRow(
            name=field.name,
            doc=field.metadata.get("doc", ""),
            value=format_parameter(getattr(ruleset, field.name)),
        )
        for field in dataclasses.fields(ruleset)
        if field.name != "sources"
    ]
    context = {
        "ruleset": RulesetHeader.of(ruleset),
        "parameters": parameters,
        "sources": ruleset.sources,
    }
    return render(request, "rulesets/detail.html", context)


@login_not_required
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, open to visitors too: the login page has it in its footer.

    A wrapper rather than ``login_not_required(i18n.set_language)``, which would mark Django's
    own function in place.
    """
    return i18n.set_language(request)
