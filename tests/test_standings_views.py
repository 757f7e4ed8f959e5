"""The standings, champions and player pages, their CSV exports and the game page's chart.

A small fixed history in January 2026, all makura-1.5 unless said (points worked out in
tests/test_standings.py's docstring):

- g1 ABCD, all noten draws: A +35.0, B +5.0, C -15.0, D -25.0;
- g2 BACD, seat 1 (A) rons a yakuman from seat 3 (D), bust: B +5.0, A +67.0, C -15.0,
  D -57.0;
- g3 EFGD, all noten draws: E +35.0, F +5.0, G -15.0, D -25.0;
- g4 ABCD under makura-1.3 (another ruleset), all noten draws.

Totals over the standard rules: A +102.0 (2 games), E +35.0 (1), B +10.0 (2), F +5.0 (1),
G -15.0 (1), C -30.0 (2), D -107.0 (3).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from clubsite.models import Member
from scoring.models import Hanchan
from tests.conftest import make_member
from tests.test_standings import QUIET_HANDS, store, tobi_hands

JANUARY = "?period=month&month=2026-01"


class History:
    def __init__(self) -> None:
        names = {"A": "Aoki", "B": "Baba", "C": "Chiba", "D": "Doi", "E": "Endo"}
        names |= {"F": "Fujii", "G": "Goto"}
        self.m = {key: make_member(name.lower(), name, "") for key, name in names.items()}
        self.games: dict[str, Hanchan] = {}

    def play(self, label: str, seats: str, day: int, hands: list, **kwargs: object) -> None:
        members = [self.m[key] for key in seats]
        self.games[label] = store(members, datetime.date(2026, 1, day), hands, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def history(db: None) -> History:
    history = History()
    history.play("g1", "ABCD", 5, QUIET_HANDS)
    history.play("g2", "BACD", 12, tobi_hands(1, 3))
    history.play("g3", "EFGD", 20, QUIET_HANDS)
    history.play("g4", "ABCD", 22, QUIET_HANDS, ruleset="makura-1.3")
    return history


@pytest.fixture
def aoki(history: History) -> Member:
    return history.m["A"]


@pytest.fixture
def client(history: History, client_for: Callable[[Member], Client]) -> Client:
    """Aoki's client, reading English (the club's default language is Japanese)."""
    client = client_for(history.m["A"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def order(html: str, history: History) -> list[str]:
    """The member keys in the order their standings rows appear."""
    by_pk = {member.pk: key for key, member in history.m.items()}
    return [by_pk[int(pk)] for pk in re.findall(r'id="standing-(\d+)"', html)]


def test_it_shows_the_hand_computed_totals(client: Client, history: History) -> None:
    response = client.get(reverse("standings") + JANUARY)
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert order(html, history) == ["A", "E", "B", "F", "G", "C", "D"]
    row = html[html.index(f'id="standing-{history.m["A"].pk}"') :]
    row = row[: row.index("</tr>")]
    assert "+102.0" in row  # total
    assert "+51.0" in row  # average
    assert "1.00" in row  # average rank: top twice
    assert "100.0%" in row  # 1st rate, top rate, last avoided
    assert reverse("game_detail", args=[history.games["g2"].pk]) in row  # best game, +67.0
    assert reverse("member_detail", args=[history.m["A"].pk]) in row
    doi = html[html.index(f'id="standing-{history.m["D"].pk}"') :]
    assert "\N{MINUS SIGN}107.0" in doi[: doi.index("</tr>")]
    assert "33.3%" in doi[: doi.index("</tr>")]  # bust rate: 1 of 3 games
    assert "the club orders them by average rank, then best game." in html


def test_it_speaks_japanese(history: History, client_for: Callable[[Member], Client]) -> None:
    response = client_for(history.m["A"]).get(
        reverse("standings") + JANUARY, headers={"Accept-Language": "ja"}
    )
    html = response.content.decode()
    assert "順位表" in html
    assert "2026年1月" in html
    assert "+102.0" in html


def test_it_sorts_by_a_column(client: Client, history: History) -> None:
    url = reverse("standings") + JANUARY
    by_games = client.get(url + "&sort=games&dir=desc").content.decode()
    assert order(by_games, history)[0] == "D"
    by_name = client.get(url + "&sort=name&dir=asc").content.decode()
    assert order(by_name, history) == ["A", "B", "C", "D", "E", "F", "G"]
    by_total_up = client.get(url + "&sort=total_points&dir=asc").content.decode()
    assert order(by_total_up, history) == ["D", "C", "G", "F", "B", "E", "A"]
    # The header links keep the period and flip the direction of the current column.
    assert "sort=name&amp;dir=desc" in by_name
    assert "month=2026-01" in by_name


def test_it_sends_the_table_alone_to_htmx(client: Client, history: History) -> None:
    url = reverse("standings") + JANUARY + "&sort=games&dir=desc"
    response = client.get(url, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="standings-table"' in html
    assert order(html, history)[0] == "D"


def test_it_filters_by_ruleset(client: Client, history: History) -> None:
    html = client.get(reverse("standings") + JANUARY + "&ruleset=makura-1.3").content.decode()
    assert order(html, history) == ["A", "B", "C", "D"]
    assert "+102.0" not in html
    both = JANUARY + "&ruleset=makura-1.3&ruleset=makura-1.5&sort=games&dir=desc"
    html = client.get(reverse("standings") + both).content.decode()
    assert order(html, history)[0] == "D"  # 4 games


def test_it_lists_members_below_the_minimum_separately(client: Client, history: History) -> None:
    html = client.get(reverse("standings") + JANUARY + "&min_games=2").content.decode()
    ranked, below = html.split('class="below-minimum"')
    assert order(ranked, history) == ["A", "B", "C", "D"]
    assert order(below, history) == ["E", "F", "G"]


def test_it_defaults_to_the_current_month(client: Client, history: History) -> None:
    html = client.get(reverse("standings")).content.decode()
    assert "No finished games in this period." in html
    html = client.get(reverse("standings") + "?period=year&year=2026").content.decode()
    assert order(html, history)[0] == "A"
    html = client.get(reverse("standings") + "?period=all").content.decode()
    assert order(html, history)[0] == "A"


def test_it_takes_a_custom_range(client: Client, history: History) -> None:
    url = reverse("standings") + "?period=range&start=2026-01-01&end=2026-01-15"
    html = client.get(url).content.decode()
    assert order(html, history) == ["A", "B", "C", "D"]
    bad = client.get(reverse("standings") + "?period=range&start=2026-01-15&end=2026-01-01")
    assert bad.status_code == 200
    assert "The end cannot be before the start." in bad.content.decode()


def test_it_keeps_the_monthly_standings_queries_bounded(
    client: Client, django_assert_max_num_queries: Callable
) -> None:
    with django_assert_max_num_queries(10):
        response = client.get(reverse("standings") + JANUARY)
    assert response.status_code == 200


def test_it_exports_the_standings_as_csv(client: Client, history: History) -> None:
    response = client.get(reverse("standings_export") + JANUARY + "&min_games=2")
    assert response["Content-Type"].startswith("text/csv")
    assert response.content.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Place", "Player", "Games", "Total"]
    assert rows[1][:6] == ["1", "Aoki", "2", "102.0", "51.0", "1.00"]
    assert rows[4][:4] == ["4", "Doi", "3", "-107.0"]
    assert [row[1] for row in rows[5:]] == ["Endo", "Fujii", "Goto"]
    assert rows[5][0] == "" and rows[5][-1] == "yes"


@override_settings(CHAMPION_MIN_GAMES=2, HALF_YEAR_CHAMPION_MIN_GAMES=3)
def test_it_names_the_champions(client: Client, history: History) -> None:
    html = client.get(reverse("champions")).content.decode()
    months = html[html.index('id="months-head"') :]
    january = months[months.index("January 2026") :]
    january = january[: january.index("</tr>")]
    assert "Aoki" in january and "+102.0" in january
    halves = html[html.index('id="halves-head"') : html.index('id="months-head"')]
    assert "Doi" in halves  # the only member with 3 games: the minimum is a club setting


def test_it_shows_the_player_page(client: Client, history: History) -> None:
    url = reverse("member_detail", args=[history.m["A"].pk]) + JANUARY
    html = client.get(url).content.decode()
    for label in ("g1", "g2"):
        assert reverse("game_detail", args=[history.games[label].pk]) in html
    assert reverse("game_detail", args=[history.games["g4"].pk]) not in html  # other rules
    assert "+102.0" in html and "+67.0" in html and "+35.0" in html
    assert html.count("<svg") == 2
    assert '<title id="cumulative-chart-title">' in html
    assert '<title id="ranks-chart-title">' in html
    assert "Win rate" in html and "11.1%" in html  # 1 win in 9 hands
    assert "Chombo" in html


def test_it_exports_a_members_games(client: Client, history: History) -> None:
    url = reverse("member_games_csv", args=[history.m["D"].pk]) + JANUARY
    response = client.get(url)
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Date", "Game id", "Ruleset", "Seat", "Score", "Rank", "Points"]
    assert [(r[0], r[5], r[6]) for r in rows[1:]] == [
        ("2026-01-05", "4", "-25.0"),
        ("2026-01-12", "4", "-57.0"),
        ("2026-01-20", "4", "-25.0"),
    ]


def test_it_draws_the_scores_on_the_game_page(client: Client, history: History) -> None:
    long_game, short_game = history.games["g1"], history.games["g2"]
    with CaptureQueriesContext(connection) as long_queries:
        html = client.get(reverse("game_detail", args=[long_game.pk])).content.decode()
    assert '<title id="scores-chart-title">' in html
    assert 'class="chart-legend"' in html
    assert reverse("member_detail", args=[history.m["A"].pk]) in html
    with CaptureQueriesContext(connection) as short_queries:
        client.get(reverse("game_detail", args=[short_game.pk]))
    assert len(long_queries) == len(short_queries)


@pytest.mark.parametrize(
    "name", ["standings", "standings_export", "champions", "member_detail", "member_games_csv"]
)
def test_it_sends_anonymous_visitors_to_log_in(history: History, name: str) -> None:
    args = [history.m["A"].pk] if name.startswith("member") else []
    response = Client().get(reverse(name, args=args))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_csv_exports_neutralise_formulas_as_a_spreadsheet_reads_them(client_for, db):
    """A display name that starts a formula is text in every CSV; numbers,
    signs included, stay numbers. Read back with the csv module, as a spreadsheet would."""
    from clubsite.spreadsheet import safe_cell
    from tests.conftest import make_member

    assert safe_cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert safe_cell("+cmd|' /C calc'!A0") == "'+cmd|' /C calc'!A0"
    assert safe_cell("@SUM(1)") == "'@SUM(1)"
    assert safe_cell("-12.3") == "-12.3" and safe_cell("+55.0") == "+55.0"
    assert safe_cell(-3) == -3 and safe_cell("Aoki") == "Aoki"

    from scoring.ledger import hanchan_import

    names = ['=HYPERLINK("http://evil","x")', "+cmd|' /C calc'!A0", "@SUM(A1)", "Doi"]
    players = [make_member(f"u{i}", name, "") for i, name in enumerate(names)]
    hanchan_import(
        record={
            "ruleset": "makura-1.5",
            "players": names,
            "final_scores": {"scores": [45300, 30000, 19700, 5000]},
        },
        members_by_name={m.display_name: m for m in players},
        played_on=datetime.date(2026, 11, 20),
    )
    client = client_for(players[3])
    body = client.get(reverse("standings_export"), {"period": "all"}).content.decode("utf-8-sig")
    cells = [cell for row in csv.reader(io.StringIO(body)) for cell in row]
    for name in names[:3]:
        assert "'" + name in cells and name not in cells
    assert "+56.0" in cells or "56.0" in cells
