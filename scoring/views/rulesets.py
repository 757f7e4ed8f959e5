"""Pages about the club's built-in rulesets: the list, and each one's rules sheet.

The rulesets come from the scoring engine (plain Python); these views only format them for
people: points with thousands separators, uma in thousands with signs.
"""

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_safe

from clubsite.formatting import format_points, format_uma
from scoring.engine import Ruleset, available_rulesets, load_ruleset, ruleset_variants
from scoring.ruleset_names import ruleset_title
from scoring.ruleset_sheet import SheetRow, rules_sheet

# The built-in rulesets' source citations that carry English words (scoring/rulesets/*.toml),
# here for makemessages: the rules sheet cites them in the reader's language. The files keep
# the English, which stays part of each stored ruleset version.
RULESET_SOURCES = (
    gettext_noop("seed 003: わが家のルール (as of January 2015)"),
    gettext_noop("seed 002: 3-player club rules (excerpt)"),
    gettext_noop(
        "tenhou-rules.md (D1 riichi.wiki Tenhou.net rules; D4 arcturus.su; published game logs)"
    ),
)


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
            name=ruleset_title(ruleset.name),
            players=ruleset.players,
            start_points=format_points(ruleset.start_points),
            return_points=format_points(ruleset.return_points),
            uma=format_uma(ruleset.uma),
        )


@require_safe
def ruleset_list(request: HttpRequest) -> HttpResponse:
    """Every built-in ruleset's headline figures (:class:`RulesetHeader`), in the engine's
    order (:func:`scoring.engine.available_rulesets`)."""
    rulesets = [RulesetHeader.of(load_ruleset(ruleset_id)) for ruleset_id in available_rulesets()]
    return render(request, "rulesets/list.html", {"rulesets": rulesets})


@require_safe
def ruleset_detail(request: HttpRequest, ruleset_id: str) -> HttpResponse:
    """One built-in ruleset's rules sheet (:func:`scoring.ruleset_sheet.rules_sheet`) and its
    sources in the reader's language; 404 for an id the engine does not know."""
    try:
        ruleset = load_ruleset(ruleset_id)
    except KeyError:
        raise Http404(gettext("There is no built-in ruleset with this id.")) from None
    context = {
        "ruleset": RulesetHeader.of(ruleset),
        "sheet": rules_sheet(ruleset),
        "sources": [gettext(source) for source in ruleset.sources],
        "variants": ruleset_variant_sheets(ruleset),
    }
    return render(request, "rulesets/detail.html", context)


@dataclass(frozen=True)
class VariantSheet:
    """A variant the ruleset offers when a game starts: its ``name`` in the reader's language
    and the ``rows`` of the rules sheet it changes, as the variant has them."""

    name: str
    rows: list[SheetRow]


def ruleset_variant_sheets(ruleset: Ruleset) -> list[VariantSheet]:
    """Per variant of ``ruleset`` (:func:`scoring.engine.ruleset_variants`), the sheet's rows
    that read otherwise under it, in the sheet's order."""
    base = {row.name: row for section in rules_sheet(ruleset) for row in section.rows}
    sheets = []
    for variant in ruleset_variants(ruleset.id):
        varied = load_ruleset(ruleset.id, variant.overrides)
        rows = [
            row
            for section in rules_sheet(varied)
            for row in section.rows
            if base.get(row.name) != row
        ]
        sheets.append(VariantSheet(gettext(variant.name), rows))
    return sheets
