"""``manage.py placement_eval`` on a small seeded club, and the refit task in its club's
scope."""

from __future__ import annotations

import datetime
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django_scopes import scopes_disabled

from clubsite.club_model import Club
from clubsite.club_scope import club_scope
from scoring import placement_fits
from scoring.engine import load_ruleset
from scoring.ledger import GameToImport, hanchans_import_bulk
from scoring.models import PlacementFit
from scoring.placement.simulate import club_game
from scoring.placement_tasks import placement_refit

pytestmark = pytest.mark.django_db


def _seed(members, games: int, seed: int = 4) -> None:
    """``games`` simulated makura-1.5 games of ``members`` (four), a day apart."""
    rs = load_ruleset("makura-1.5")
    rng = random.Random(seed)
    start = datetime.date(2026, 1, 1)
    hanchans_import_bulk(
        [
            GameToImport(
                record={
                    "format": "club-game/1",
                    "ruleset": "makura-1.5",
                    "players": [m.display_name for m in members],
                    "hands": club_game(rng, rs),
                },
                members_by_name={m.display_name: m for m in members},
                played_on=start + datetime.timedelta(days=i),
            )
            for i in range(games)
        ]
    )


@pytest.fixture
def four(member, other_member, coordinator, outsider):
    return [member, other_member, coordinator, outsider]


def test_the_eval_command_prints_the_figures(four) -> None:
    _seed(four, 30)
    out = StringIO()
    call_command("placement_eval", "--simulated", "60", stdout=out)
    text = out.getvalue()
    assert "club, 4p-hanchan: 21 games fitted, 9 held out (the latest)" in text
    assert "simulated club, makura-1.5: 42 games fitted, 18 held out" in text
    assert "simulated club, sanma-float" in text
    for line in ("model", "current order (e=", "uniform", "0.9-1.0"):
        assert line in text
    # The model beats the current order on the simulated club (hundreds of predictions).
    assert text.count("better than current order: ok") >= 2


def test_the_refit_task_fits_in_its_clubs_scope(four, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _seed(four, placement_fits.REFIT_EVERY)
    other = Club.objects.create(slug="other", name="Other")
    with scopes_disabled():
        # The ledger's count already queued it (immediate backend): the fit is there.
        fit = PlacementFit.objects.with_scopes_disabled().get()
        assert fit.family == "4p-hanchan"
        assert fit.games == placement_fits.REFIT_EVERY
        assert fit.params["source"] == "blend"
        fit.delete()
    assert placement_refit.call(club_id=other.pk) == []
    with scopes_disabled():
        assert not PlacementFit.objects.with_scopes_disabled().exists()
    club_id = four[0].club_id
    assert placement_refit.call(club_id=club_id) == ["4p-hanchan"]
    with scopes_disabled():
        row = PlacementFit.objects.with_scopes_disabled().get()
    assert row.club_id == club_id
    # Nothing new counted: a repeat fits nothing.
    assert placement_refit.call(club_id=club_id) == []
    with club_scope(Club.objects.get(pk=club_id)):
        assert placement_fits.due_families() == []
