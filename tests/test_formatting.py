"""Numbers as the club writes them (clubsite.formatting), and the meetup results that used to
show a settlement of +11.0 as "+11,000"."""

from __future__ import annotations

import datetime

import pytest

from clubsite.formatting import (
    format_points,
    format_thousands,
    format_uma,
    settlement_points,
    signed_points,
)
from meetings.models import GameResult
from scoring.ledger import hanchan_final_scores, hanchan_start


@pytest.mark.parametrize(
    ("function", "points", "text"),
    [
        (format_points, 25000, "25,000"),
        (format_points, -8000, "\u22128,000"),
        (signed_points, 3900, "+3,900"),
        (signed_points, -3900, "\u22123,900"),
        (signed_points, 0, "0"),
        (settlement_points, 11000, "+11.0"),
        (settlement_points, -12300, "\u221212.3"),
        (settlement_points, 0, "0.0"),
        (settlement_points, 150, "+0.15"),
        (format_thousands, 20000, "+20"),
        (format_thousands, 2500, "+2.5"),
    ],
)
def test_points_are_written_as_the_club_writes_them(function, points, text):
    assert function(points) == text


def test_uma_is_quoted_in_thousands():
    assert format_uma((20000, 10000, -10000, -20000)) == "+20 / +10 / \u221210 / \u221220"


def test_meetup_results_show_settlements_in_thousands(member, other_member, coordinator, outsider):
    game = hanchan_start(
        ruleset_id="makura-1.5",
        members=[member, other_member, coordinator, outsider],
        played_on=datetime.date(2026, 11, 20),
    )
    hanchan_final_scores(
        hanchan_id=game.pk,
        final_scores={"scores": [45300, 30000, 19700, 5000]},
        expected_version=game.version,
    )
    game.refresh_from_db()
    rows = GameResult.of(game).players
    assert [(r.name, r.points) for r in rows] == [
        ("Aoki", "+56.0"), ("Baba", "+10.0"), ("Chiba", "\u221221.0"), ("Endo", "\u221245.0"),
    ]  # fmt: skip
