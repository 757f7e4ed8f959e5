"""The club's rules as members read them: per ruleset, the yaku table with
han closed and open and the yakuman as the seed says them, a worked settlement, the manners of
the clubs whose seeds state them, and no developers' references on the page."""

from __future__ import annotations

import re
from pathlib import Path

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
    # M-21 as corrected (2026-11-29): never added, the higher value counts.
    assert table["Tenhou (never added to another yakuman: the higher value counts)"] == [
        "yakuman",
        "—",
    ]


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


def index_targets(html: str) -> list[str]:
    start = html.index('class="rules-index"')
    nav = html[start : html.index("</nav>", start)]
    return re.findall(r'href="#([^"]+)"', nav)


@pytest.mark.parametrize(
    "ruleset_id", ["makura-1.5", "fuji-sanma", "home-nashinashi", "sanma-float", "tenhou-4p"]
)
def test_the_index_links_every_section_on_the_page(client_for, member, ruleset_id):
    """An 8-10k px page opens with an index of its sections; every link
    lands on an element of the page, and every section of the page is in the index."""
    html = page(client_for, member, ruleset_id, "en")
    targets = index_targets(html)
    for target in targets:
        assert f'id="{target}"' in html, target
    sections = re.findall(r'<section class="rules-section" id="([^"]+)"', html)
    numbered = re.findall(r'<h2 id="(rules-\d+)">', html)
    assert set(sections) | set(numbered) | {"sources"} == set(targets)
    assert ("procedure" in targets) == (ruleset_id not in {"sanma-float", "tenhou-4p"})


@pytest.mark.parametrize(
    ("ruleset_id", "language", "part", "item"),
    [
        # Makura 1.5 §13 (seed 001 L95-97): call priority; ron beats every call.
        ("makura-1.5", "ja", "ポン・チー・カン",
         "ポン、カン、チーは発声が優先される。（発声が同時の場合は「ポン」「カン」優先：同時かどうかは"
         "当事者以外の判断による）ロンは発声順位に関わらず全てに優先する。"),
        ("makura-1.5", "en", "Calls: pon, chii, kan", "Ron beats every call, whatever the order"),
        # Makura 1.3 §13 (seed 000 L97-101): a markedly late call loses its priority.
        ("makura-1.3", "ja", "ポン・チー・カン",
         "ポン、カンはチーに、ロンは全てに優先するが、発声が著しく遅れた場合は優先されない。"),
        # §17 kuikae; §18 open riichi's partial exposure (1.5: a careless deal-in goes back).
        ("makura-1.5", "en", "Calls: pon, chii, kan", "No kuikae after a chii"),
        ("makura-1.5", "ja", "リーチ", "部分さらし（アガリ手を示す部分だけ）"),
        ("makura-1.5", "en", "Riichi", "by carelessness does not count: it goes back"),
        ("makura-1.3", "en", "Riichi", "A player not in riichi who deals into it pays a yakuman."),
        # §26 a win passed up after riichi; §33 chombo causes; §36 agari-houki; §39-§42.
        ("makura-1.5", "en", "Riichi", "After riichi a win may be passed up"),
        ("makura-1.5", "ja", "チョンボ", "ノーテンリーチをかけた場合（流局時にチョンボ）"),
        ("makura-1.3", "ja", "チョンボ", "ノーテンリーチをかけた場合(流局時にチョンボ)"),
        ("makura-1.5", "en", "Agari-houki", "Too many or too few tiles in the hand."),
        ("makura-1.5", "ja", "空（カラ）行為・フリテン",
         "チーポンカンを取り消した場合、次の自分のツモまでは、ロンの発声ができない。"),
        ("makura-1.3", "ja", "空（カラ）行為・フリテン",
         "同巡フリテンはツモ順が回ってきた時点で解消される。"),
        ("makura-1.5", "en", "False calls and furiten",
         "No penalty for showing a tile (mise-hai)."),
        # Seed 004: L85 an impossible pon still takes the mistaken pon's penalty; L137 a drawn
        # tile that cannot be told deals in at the higher value; L43 open riichi shows it all.
        ("fuji-sanma", "ja", "特殊ケース(ゲームの性質上できない行為等)",
         "場に3枚出ている牌に対して、ポンなどはゲームの性質上できない行為であっても、"
         "誤ポンの罰則が適用になります。"),
        ("fuji-sanma", "en", "Chombo and agari-houki",
         "deals in at the higher value (two players on different tiles: a double ron)."),
        ("fuji-sanma", "ja", "オープンリーチ", "打牌前に手牌を全て公開して下さい"),
        ("fuji-sanma", "en", "Open riichi: a wait declared wrongly", "noticed at the win"),
        # Seed 003 L84 (kuikae), L306-307 (a mistaken ron is chombo by its call), L377 (an
        # open riichi that does not show its whole wait is chombo).
        ("home-nashinashi", "ja", "喰い替え", "喰い替え は禁止、やったらあがり放棄"),
        ("home-nashinashi", "en", "Chombo and agari-houki",
         "A mistaken ron or tsumo is made by the call"),
        ("home-nashinashi", "en", "Open riichi",
         "An open riichi that does not show every tile of its wait is chombo"),
    ],
)  # fmt: skip
def test_the_play_procedure_in_the_seeds_words(
    client_for, member, ruleset_id, language, part, item
):
    """Call priority, kuikae, chombo and agari-houki causes and open riichi
    exposure, as the seeds give them (Makura 1.5/1.3 §10-§42, seed 004 L40-46 and L62-138):
    the seed's own words on a Japanese page, English on an English one."""
    procedure = section(page(client_for, member, ruleset_id, language), "procedure")
    titles = re.findall(r"<h3[^>]*>(.*?)</h3>", procedure)
    assert part.replace("'", "&#x27;") in titles
    start = procedure.index(f">{part}</h3>")
    end = procedure.find("<h3", start)
    text = re.sub(r"<[^>]+>", "", procedure[start : end if end != -1 else None])
    assert item.replace("'", "&#x27;") in text


def test_the_makura_versions_number_their_items(client_for, member):
    """The seed's item numbers stay beside each rule, so a member can cite "§36"."""
    procedure = section(page(client_for, member, "makura-1.5", "en"), "procedure")
    assert '<span class="procedure-number">36)</span> In these cases the player may no' in (
        procedure
    )


@pytest.mark.parametrize("ruleset_id", ["sanma-float", "tenhou-4p"])
def test_no_procedure_section_where_the_seed_gives_none(client_for, member, ruleset_id):
    assert 'id="procedure"' not in page(client_for, member, ruleset_id, "ja")


def test_the_japanese_procedure_is_the_seeds_text():
    """Every Japanese rule of the procedure is the seed's text as written (whitespace and the
    seed's private-use bullet aside): nothing paraphrased in the club's own words."""
    from scoring.rulebook import procedure as ruleset_procedure

    seeds = {
        "makura-1.5": "001",
        "makura-1.3": "000",
        "home-nashinashi": "003",
        "fuji-sanma": "004",
    }
    root = Path(__file__).resolve().parent.parent / "docs" / "seeds"
    for ruleset_id, parts in ruleset_procedure._BY_RULESET.items():
        (path,) = root.glob(f"{seeds[ruleset_id]}_*.txt")
        seed = re.sub(r"\s", "", path.read_text()).replace("\uf06c", "・")
        for _title, items in parts:
            for _number, japanese, _english in items:
                assert re.sub(r"\s", "", japanese) in seed, (ruleset_id, japanese)
