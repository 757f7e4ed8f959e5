"""Pages about the club's built-in rulesets: the list, and each one's rules sheet.

The rulesets come from the scoring engine (plain Python); these views only format them for
people: points with thousands separators, uma in thousands with signs.
"""

import dataclasses
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_safe

from clubsite.formatting import format_points, format_uma, settlement_points
from clubsite.public import club_public_page, is_member_here
from scoring.engine import (
    Ruleset,
    available_rulesets,
    final_settlement,
    load_ruleset,
    ruleset_variants,
)
from scoring.rulebook.manners import ruleset_manners
from scoring.rulebook.names import ruleset_title
from scoring.rulebook.procedure import ruleset_procedure
from scoring.rulebook.sheet import SheetRow, rules_sheet
from scoring.rulebook.yaku_table import yaku_table
from scoring.views.display import signed_count
from scoring.views.public_pages import rules_page_allowed, visitor_refused

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


@club_public_page
@require_safe
def ruleset_detail(request: HttpRequest, ruleset_id: str) -> HttpResponse:
    """One built-in ruleset's rules sheet (:func:`scoring.rulebook.sheet.rules_sheet`), yaku,
    play procedure (:func:`scoring.rulebook.procedure.ruleset_procedure`), manners and sources in
    the reader's language, under an index of its sections; 404 for an id the engine does not
    know. The club's members read every ruleset's; a visitor only those the club publishes
    on its public page (:func:`scoring.views.public_pages.rules_page_allowed`), else is sent
    to log in (a logged-in person of another club: 404)."""
    if not rules_page_allowed(request, ruleset_id):
        return visitor_refused(request)
    try:
        ruleset = load_ruleset(ruleset_id)
    except KeyError:
        raise Http404(gettext("There is no built-in ruleset with this id.")) from None
    context = {
        "ruleset": RulesetHeader.of(ruleset),
        "sheet": rules_sheet(ruleset),
        "sources": member_sources(ruleset),
        "variants": ruleset_variant_sheets(ruleset),
        "yaku": yaku_table(ruleset),
        "example": settlement_example(ruleset),
        "procedure": ruleset_procedure(ruleset.id),
        "manners": ruleset_manners(ruleset.id),
    }
    context["is_member"] = is_member_here(request)
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


# The club's documents among a ruleset's sources ("seed 001: <title>, L37-367"): members see
# the title; the seed number and the lines are the developers'.
_SEED = re.compile(r"^seed \d{3}: ")
_LINE_RANGE = re.compile(r",? L\d+(-\d+)?$")
# The online presets' sources, named for members (the files cite the documents and code).
_ONLINE_SOURCES = (
    ("tenhou-rules.md", gettext_noop("Tenhou's published rules")),
    ("Mahjong Soul client", gettext_noop("Mahjong Soul's friendly-room rules")),
)


def member_sources(ruleset: Ruleset) -> list[str]:
    """The ruleset's sources as members read them, in their language: the club's documents by
    their titles, without the developers' references (``rules-spec.md §…``, seed numbers and
    line ranges, repository paths), which stay in the ruleset's file and the docs."""
    sources = []
    for source in ruleset.sources:
        if _SEED.match(source):
            sources.append(_LINE_RANGE.sub("", _SEED.sub("", gettext(source))))
            continue
        for start, name in _ONLINE_SOURCES:
            if source.startswith(start) and gettext(name) not in sources:
                sources.append(gettext(name))
    return sources


@dataclass(frozen=True)
class ExampleLine:
    """One player of the worked example: ``place`` (1 = top), final ``score`` and
    ``points`` (the settlement) as text, and ``ep`` (floating uma, seed 002) or ``""``."""

    place: int
    score: str
    points: str
    ep: str


# The worked example's final scores, as offsets from the start (they add up to zero).
_EXAMPLE_OFFSETS = {4: (16200, 3800, -6000, -14000), 3: (15200, -2800, -12400)}


def settlement_example(ruleset: Ruleset) -> list[ExampleLine]:
    """A game's settlement under ``ruleset``, worked by the engine
    (:func:`scoring.engine.final_settlement`) from example final scores, top first."""
    scores = [ruleset.start_points + offset for offset in _EXAMPLE_OFFSETS[ruleset.players]]
    settlement = final_settlement(ruleset, scores)
    lines = []
    for seat in sorted(range(ruleset.players), key=lambda s: settlement.ranks[s]):
        ep = settlement.uma_ep[seat] if settlement.uma_ep is not None else None
        lines.append(
            ExampleLine(
                place=settlement.ranks[seat],
                score=format_points(settlement.scores[seat]),
                points=settlement_points(settlement.points[seat]),
                ep="" if ep is None else signed_count(ep),
            )
        )
    return lines
