"""The club's rules as members read them (issue 20 item 6): per ruleset, the yaku table with
han closed and open and the yakuman as the seed says them, a worked settlement, the manners of
the clubs whose seeds state them, and no developers' references on the page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def page(client_for, member, ruleset_id: str, language: str) -> str:
    client = client_for(member)
    client.cookies["django_language"] = language
    response = client.get(reverse("ruleset_detail", args=[ruleset_id]))
    assert response.status_code == 200
    return response.text


def section(html: str, element_id: str) -> str:
    start = html.index(f'id="{element_id}"')
    return html[start : html.index("</section>", start)]


def rows(html: str) -> list[list[str]]:
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", html, re.S)
        if "<td" in row
    ]


def test_makura_1_5_yaku_by_its_seed(client_for, member):
    """Makura 1.5: ari-ari (L55: open tanyao 1 han), open riichi 2 han (§18), open double riichi
    3 han (§23), renhou and paarenchan yakuman (§43-44), the four double yakuman (L285-289),
    tenhou/chiihou/renhou never combined (L291-295)."""
    yaku = section(page(client_for, member, "makura-1.5", "en"), "yaku")
    table = {row[0]: row[1:] for row in rows(yaku)}
    assert table["Tanyao"] == ["1", "1"]
    assert table["Pinfu"] == ["1", "—"]
    assert table["Open riichi"] == ["2", "—"]
    assert table["Double open riichi"] == ["3", "—"]
    assert table["Chinitsu"] == ["6", "5"]
    assert table["Paarenchan"] == ["yakuman", "yakuman"]
    assert table["Kokushi musou, 13-sided wait"] == ["double yakuman", "—"]
    assert table["Daisuushii"] == ["double yakuman", "double yakuman"]
    assert table["Daisangen"] == ["yakuman", "yakuman"]
    assert table["Tenhou (never combined with another yakuman)"] == ["yakuman", "—"]


def test_makura_1_3_riichi_kinds_do_not_combine(client_for, member):
    """Makura 1.3 §44d: riichi, double riichi and open riichi never combine (2 han)."""
    table = {
        row[0]: row[1:]
        for row in rows(section(page(client_for, member, "makura-1.3", "en"), "yaku"))
    }
    assert table["Double open riichi"] == ["2", "—"]


def test_the_home_game_has_no_kuitan_and_no_paarenchan(client_for, member):
    """Seed 003 L77-79 nashi-nashi (no open tanyao); L81/L521 paarenchan not adopted."""
    yaku = section(page(client_for, member, "home-nashinashi", "en"), "yaku")
    table = {row[0]: row[1:] for row in rows(yaku)}
    assert table["Tanyao"] == ["1", "—"]
    assert "Paarenchan" not in table
    assert "Nagashi mangan" in table


def test_fuji_sanma_lists_its_local_yaku_in_japanese(client_for, member):
    """Seed 004: manzu honitsu yakuman (L54), suurenkou yakuman (L57), sanrenkou 2 han (L61)."""
    yaku = section(page(client_for, member, "fuji-sanma", "ja"), "yaku")
    table = {row[0]: row[1:] for row in rows(yaku)}
    assert table["三連刻"] == ["2", "2"]
    assert table["四連刻"] == ["役満", "役満"]
    assert table["萬子の混一色"] == ["役満", "役満"]
    assert table["天和"] == ["役満", "—"]


def test_the_settlement_is_worked_by_the_engine(client_for, member):
    """Makura 1.5 §1: 25,000/30,000, uma +20/+10/-10/-20, oka 20,000 to the top."""
    example = rows(section(page(client_for, member, "makura-1.5", "en"), "settlement-example"))
    assert example == [
        ["1", "41,200", "+52.0"],
        ["2", "28,800", "+8.0"],
        ["3", "19,000", "−21.0"],
        ["4", "11,000", "−39.0"],
    ]


def test_the_3_player_club_example_shows_ep(client_for, member):
    """Seed 002: the floating uma in ep beside the points (S-01)."""
    example = rows(section(page(client_for, member, "sanma-float", "en"), "settlement-example"))
    assert [line[3] for line in example] == ["+600", "−200", "−400"]


@pytest.mark.parametrize(
    ("ruleset_id", "language", "title", "item"),
    [
        ("makura-1.5", "ja", "枕倶楽部マナーガイド", "先ヅモは厳禁です。"),
        ("makura-1.5", "en", "The Makura Club's manners guide",
         "Never draw before your turn (saki-zumo)."),
        ("fuji-sanma", "ja", "マナーに関するお願い②", "裏ドラは全員に開示して下さい。"),
        ("fuji-sanma", "en", "Manners, please (1)", "No advice from beside the table."),
    ],
)  # fmt: skip
def test_the_manners_from_the_seeds(client_for, member, ruleset_id, language, title, item):
    """Seed 001 L1-35 (the Makura Club's guide), seed 004 L140-163 (FUJI Club)."""
    manners = section(page(client_for, member, ruleset_id, language), "manners")
    assert title.replace("'", "&#x27;") in manners
    assert f"<li>{item.replace(chr(39), '&#x27;')}</li>" in manners


def test_no_manners_section_where_the_seed_has_none(client_for, member):
    assert 'id="manners"' not in page(client_for, member, "sanma-float", "en")


@pytest.mark.parametrize("ruleset_id", ["makura-1.5", "home-nashinashi", "tenhou-4p"])
@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_developers_references_on_the_page(client_for, member, ruleset_id, language):
    html = page(client_for, member, ruleset_id, language)
    body = html[html.index("<main") :]
    for code in ("rules-spec", "seed 00", "tenhou-rules.md", "(T-0", "(H-", "(M-", " L37"):
        assert code not in body, code


def test_the_sources_name_the_clubs_documents(client_for, member):
    html = page(client_for, member, "makura-1.5", "ja")
    assert "<li>枕倶楽部標準ルール1.5版 (2010-12-18)</li>" in html
    html = page(client_for, member, "tenhou-4p", "en")
    assert "<li>Tenhou&#x27;s published rules</li>" in html
