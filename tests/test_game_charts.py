"""The charts of one game (scoring/views/game_charts.py): the scores hand by hand with each
seat's riichi, wins and deal-ins marked, and each seat's chance of first place hand by hand;
drawn from literal data, then on the game page from an imported game."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from scoring.ledger import hanchan_import
from scoring.placement_chances import game_chances
from scoring.views.charts import mark_path
from scoring.views.game_charts import chances_chart, hand_marks, hand_scores_chart

ClientFor = Callable[[Member], Client]
DAY = datetime.date(2026, 11, 20)
NAMES = ["Aoki", "Baba", "Chiba", "Doi"]
# East 1: Baba, in riichi, rons Chiba. East 2: a draw, Doi in riichi and tenpai alone.
# East 3: Aoki, in riichi, tsumo mangan. East 4: Doi deals in to Aoki and Chiba at once.
HANDS = [
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}], "riichi": [1]},
    {"result": "draw", "tenpai": [3], "riichi": [3]},
    {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}], "riichi": [0]},
    {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 0, "han": 1, "fu": 30}, {"winner": 2, "han": 2, "fu": 30}],
    },
]


@pytest.fixture
def english():
    with translation.override("en"):
        yield


def series_groups(html: str) -> list[str]:
    """The body of each seat's ``<g class="chart-series series-N">`` in seat order."""
    return re.findall(r'<g class="chart-series series-\d">(.*?)</g>', html, re.S)


def figure(html: str, chart_id: str) -> str:
    chart = html[html.index(f'<figure class="chart" id="{chart_id}">') :]
    return chart[: chart.index("</figure>")]


def marks_in(group: str) -> list[tuple[str, int]]:
    return [
        (kind, int(hand))
        for kind, hand in re.findall(r'class="mark mark-([a-z-]+)" data-hand="(\d+)"', group)
    ]


def test_it_reads_each_seats_riichi_wins_and_deal_ins_from_a_hand():
    assert hand_marks(HANDS[0]) == [(1, "riichi"), (1, "win"), (2, "deal-in")]
    assert hand_marks(HANDS[1]) == [(3, "riichi")]
    assert hand_marks(HANDS[2]) == [(0, "riichi"), (0, "win")]
    assert hand_marks(HANDS[3]) == [(0, "win"), (2, "win"), (3, "deal-in")]
    assert hand_marks({"result": "chombo", "offender": 1}) == []
    assert hand_marks({"result": "abort", "kind": "suucha_riichi", "riichi": [0, 1, 2, 3]}) == [
        (0, "riichi"),
        (1, "riichi"),
        (2, "riichi"),
        (3, "riichi"),
    ]


SCORES = [
    ("East 1", [25000, 28900, 21100, 25000]),
    ("East 2", [24000, 27900, 20100, 28000]),
    ("East 3", [33000, 23900, 16100, 27000]),
    ("East 3", [34000, 23900, 18000, 24100]),
]


def test_it_marks_each_seat_at_the_hand_on_its_own_line(english):
    chart = hand_scores_chart(
        scores_by_hand=SCORES,
        names=NAMES,
        start=25000,
        marks_by_hand=[hand_marks(hand) for hand in HANDS],
    )
    assert chart is not None
    html = render_to_string("scoring/_chart.html", {"chart": chart})
    aoki, baba, chiba, doi = (marks_in(g) for g in series_groups(html))
    assert aoki == [("riichi", 3), ("win", 3), ("win", 4)]
    assert baba == [("riichi", 1), ("win", 1)]
    assert chiba == [("deal-in", 1), ("win", 4)]
    assert doi == [("riichi", 2), ("deal-in", 4)]
    # Each mark sits on its line's point: Baba's win at hand 1 is on Baba's second vertex.
    baba_line = chart.series[1]
    x, y = (int(v) for v in baba_line.points.split()[1].split(","))
    assert f'data-hand="1" d="{mark_path("win", x, y)}"' in html
    assert mark_path("win", x, y) == f"M{x - 4},{y}a4,4 0 1 0 8,0a4,4 0 1 0 -8,0z"
    # Marks replace the plain dots; the legend explains the three kinds.
    assert "<circle" not in html
    legend = html[html.index('<figcaption class="chart-legend"') : html.index("</figcaption>")]
    assert re.findall(r'class="mark mark-([a-z-]+)"', legend) == ["riichi", "win", "deal-in"]
    assert legend.count('class="legend-line chart-series series-') == 4
    assert ">riichi</span>" in legend and ">deal-in</span>" in legend
    # The text alternative lists every mark where it happened.
    assert "<td>28,900 (riichi, win)</td><td>21,100 (deal-in)</td>" in html
    assert '<th scope="row">East 2</th><td>24,000</td><td>27,900</td><td>20,100</td>' in html
    assert (
        "<td>34,000 (win)</td><td>23,900</td><td>18,000 (win)</td><td>24,100 (deal-in)</td>" in html
    )
    assert "Marked on the lines: 3 riichi, 4 wins, 2 deal-ins." in chart.description


def test_without_marks_the_scores_chart_keeps_its_dots(english):
    chart = hand_scores_chart(scores_by_hand=SCORES[:2], names=NAMES, start=25000)
    assert chart is not None
    html = render_to_string("scoring/_chart.html", {"chart": chart})
    assert html.count("<circle") == 12 and 'class="mark' not in html


CHANCES = [
    [[0.25, 0.25, 0.25, 0.25]] * 4,
    [
        [0.2, 0.3, 0.3, 0.2],
        [0.5, 0.3, 0.15, 0.05],
        [0.05, 0.15, 0.3, 0.5],
        [0.25, 0.25, 0.25, 0.25],
    ],
    [[0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]],
]


def test_it_draws_each_seats_chance_of_first_in_percent(english):
    chart = chances_chart(chances=CHANCES, names=NAMES, hand_labels=["East 1", "East 2"])
    assert chart is not None
    html = render_to_string("scoring/_chart.html", {"chart": chart})
    assert [t.label for t in chart.ticks] == ["0%", "25%", "50%", "75%", "100%"]
    top, bottom = chart.ticks[-1].y, chart.ticks[0].y
    # Baba: 25% -> 50% -> 100%; the y of each point is the tick's at the same value.
    baba = [tuple(map(int, p.split(","))) for p in chart.series[1].points.split()]
    assert [y for _x, y in baba] == [chart.ticks[1].y, chart.ticks[2].y, top]
    assert [y for _x, y in (tuple(map(int, p.split(","))) for p in chart.series[0].points.split())][
        -1
    ] == bottom
    assert [label.label for label in chart.x_labels] == ["Start", "East 2"]
    assert "<td>1st 50%, 2nd 30%, 3rd 15%, 4th 5%</td>" in html
    assert "now Aoki 0%, Baba 100%, Chiba 0%, Doi 0%." in chart.description
    assert len(series_groups(html)) == 4 and 'class="mark' not in html


def test_no_chances_chart_before_the_first_hand():
    assert chances_chart(chances=CHANCES[:1], names=NAMES, hand_labels=[]) is None


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    return [member, other_member, coordinator, staff_member]


def test_the_game_page_marks_the_hands_in_japanese_and_english(client_for: ClientFor, players):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": HANDS,
    }
    game = hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )
    client = client_for(players[0])
    # The game is in play: its page draws the charts when they are seen (a link to their own
    # page without JavaScript), not with the page.
    page = client.get(reverse("game_detail", args=[game.pk])).text
    assert 'id="scores-chart"' not in page and "<svg" not in page
    marker = page[page.index('<a id="chart-refresh"') :]
    marker = marker[: marker.index("</a>")]
    assert f'href="/games/{game.pk}/chart/"' in marker and 'hx-trigger="intersect once"' in marker
    chart = figure(client.get(reverse("game_chart", args=[game.pk])).text, "scores-chart")
    groups = [marks_in(g) for g in series_groups(chart)]
    assert groups == [
        [("riichi", 3), ("win", 3), ("win", 4)],
        [("riichi", 1), ("win", 1)],
        [("deal-in", 1), ("win", 4)],
        [("riichi", 2), ("deal-in", 4)],
    ]
    assert ">リーチ</span>" in chart and ">和了</span>" in chart and ">放銃</span>" in chart
    english = client.get(reverse("game_chart", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en").text
    assert "<title>Score chart and placement chances · " in english
    assert ">deal-in</span>" in english
    assert "Marked on the lines: 3 riichi, 4 wins, 2 deal-ins." in english
    assert '<text x="330" y="184" text-anchor="end">East 4</text>' in english
    # The chart drawn when scrolled to (the region alone, to htmx) carries the same marks.
    again = client.get(reverse("game_chart", args=[game.pk]), headers={"hx-request": "true"}).text
    assert again.lstrip().startswith('<div id="score-chart">')
    assert [marks_in(g) for g in series_groups(figure(again, "scores-chart"))] == groups
    assert 'id="chances-chart"' in again
    translation.deactivate()


@pytest.fixture
def fresh_cache():
    """The chances are cached by game id: a game of an earlier test may have had this id."""
    cache.clear()
    yield
    cache.clear()


def test_the_game_page_draws_the_models_chance_of_first(
    client_for: ClientFor, players, fresh_cache
):
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in players],
        "hands": HANDS,
    }
    game = hanchan_import(
        record=record, members_by_name={m.display_name: m for m in players}, played_on=DAY
    )
    chances = game_chances(game)
    assert len(chances) == 5
    with translation.override("en"):
        expected = chances_chart(
            chances=chances, names=NAMES, hand_labels=["East 1", "East 2", "East 3", "East 3"]
        )
    assert expected is not None
    html = (
        client_for(players[0])
        .get(reverse("game_chart", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
        .text
    )
    chart = figure(html, "chances-chart")
    assert "<h3>Chance of first place hand by hand</h3>" in html
    drawn = re.findall(r'<g class="chart-series (series-\d)">\s*<polyline points="([^"]+)"', chart)
    assert drawn == [(s.css_class, s.points) for s in expected.series]
    assert all(len(points.split()) == 5 for _css, points in drawn)
    # Baba's row after East 1 lists the model's figure for each place.
    after_east_1 = ", ".join(
        f"{label} {int(p * 100 + 0.5)}%"
        for label, p in zip(["1st", "2nd", "3rd", "4th"], chances[1][1], strict=True)
    )
    row = re.search(r'<tr><th scope="row">East 1</th>(.*?)</tr>', chart)
    assert row is not None
    assert re.findall(r"<td>(.*?)</td>", row.group(1))[1] == after_east_1
    # Leading after the riichi ron of East 1, Baba's chance of first went up from 25%.
    assert chances[1][1][0] > chances[0][1][0]


def test_a_riichi_stick_at_the_top_of_the_chart_lies_below_its_point():
    assert mark_path("riichi", 100, 50) == "M94,39h12v4h-12z"
    assert mark_path("riichi", 100, 10) == "M94,17h12v4h-12z"
    with pytest.raises(ValueError):
        mark_path("tsumo", 0, 0)
