"""The home page during a tournament: every game in play was a card with its
scores, 5,558 px of them; the viewer's own games come first, as cards, and every other game
in play after them, one line each (its table, round and players)."""

from __future__ import annotations

import re

import pytest

from scoring.ledger import hanchan_start
from scoring.models import Hanchan
from scoring.standings import club_today
from tests.conftest import make_member


def start(members, table: str) -> Hanchan:
    return hanchan_start(
        ruleset_id="makura-1.5", members=members, played_on=club_today(), table_name=table
    )


@pytest.fixture
def tables(member):
    """Twenty tables in play; Aoki plays at table 7."""
    others = [make_member(f"p{i:02d}", f"P{i:02d}", "") for i in range(79)]
    games = {}
    for table in range(1, 21):
        seated = [others.pop() for _ in range(3 if table == 7 else 4)]
        if table == 7:
            seated.insert(1, member)
        games[table] = start(seated, str(table))
    return games


def test_the_viewers_game_comes_first_and_the_others_one_line_each(client_for, member, tables):
    html = client_for(member).get("/").content.decode()
    mine = tables[7]
    # Aoki's own game: a card with the scores, before every other.
    mine_section = html[html.index('id="mine-in-play"') : html.index('id="others-in-play"')]
    assert f'id="game-{mine.pk}"' in mine_section
    assert mine_section.count('class="mini-points"') == 4
    assert 'class="card game-card"' in mine_section
    # The nineteen others: one line each, no scores, table and round first.
    others = html[html.index('id="others-in-play"') :]
    assert others.count('class="game-line"') == 19
    assert 'class="mini-points"' not in others.split("</ul>")[0]
    line = re.search(
        rf'id="game-{tables[3].pk}"[^>]*>\s*<span class="game-line-where">([^<]*)</span>\s*'
        r'<span class="game-line-names">([^<]*)</span>',
        others,
    )
    assert line is not None
    names = "、".join(s.member.display_name for s in tables[3].seats.order_by("index"))
    assert line.groups() == ("3卓 · 東1局", names)
    assert html.index(f'id="game-{mine.pk}"') < html.index(f'id="game-{tables[1].pk}"')


def test_a_viewer_who_plays_nowhere_sees_every_game_one_line_each(client_for, tables):
    outsider = make_member("zz", "Zed", "")
    html = client_for(outsider).get("/").content.decode()
    assert 'id="mine-in-play"' not in html
    assert html.count('class="game-line"') == 20
    assert ">対局中</h2>" in html


def test_in_japanese_the_sections_are_named(client_for, member, tables):
    html = client_for(member).get("/").content.decode()
    assert ">あなたの対局中の卓</h2>" in html and ">ほかの対局中の卓</h2>" in html
    assert "7卓" in html
