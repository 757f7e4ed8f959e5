"""A whole hanchan played on a phone through the UI: log in, start a game, enter a
ron, a tsumo, a double ron, a draw whose riichi stick is carried over, a chombo, correct an
earlier hand, play on to the end of South 4, and check the end screen against the engine's
replay of the exported record. Every screen is saved under tests/screenshots/, and the table
and end screens once more in English. A second test opens the value pad of a dealer's ron and
tsumo, a non-dealer's tsumo and a fixed-fu 3-player game in both languages on a 360 px phone.

Taps go through roles and labels (what a player reads), not CSS classes. With htmx every tap
posts the form for a live preview and swaps the entry region: each tap waits for that answer.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.test import Client

from clubsite.models import Member
from scoring.engine import replay_record
from scoring.ledger import hanchan_start
from tests.browser import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MINUS = "\N{MINUS SIGN}"
PLAYERS = ("Aoki", "Baba", "Chiba", "Doi")
# Legends of the hand form's steps that carry a hint after them ("和了 3人まで").
WON = re.compile("^和了")
RIICHI = re.compile("^立直")
TENPAI = re.compile("^聴牌")
# What the phone enters, hand by hand, as the record will hold it (hand 1 after its correction).
EXPECTED_HANDS = [
    {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 4, "fu": 30}]},
    {"result": "tsumo", "wins": [{"winner": 3, "limit": "mangan"}]},
    {"result": "draw", "tenpai": [0, 2], "riichi": [0]},
    {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 0, "han": 2, "fu": 40}, {"winner": 1, "han": 1, "fu": 30}],
    },
    {"result": "chombo", "offender": 1},
    *[{"result": "draw"}] * 4,
    {"result": "tsumo", "wins": [{"winner": 2, "han": 2, "fu": 30}]},
]


# -- driving the table screen -------------------------------------------------------------------


# A full-page capture draws sticky things (the confirm button at the bottom of the screen,
# the names over the hand list) where the screen's edge happened to be: in the saved pages
# they stay in place.
UNSTICK = ".form-buttons, .delta-head { position: static !important; }"


def screenshot(page: Any, name: str) -> None:
    """Save the whole page as tests/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, style=UNSTICK)


def settle(page: Any) -> None:
    """Wait until htmx has no request in flight and has swapped in its answer."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )


def tap(page: Any, control: Any) -> None:
    """Tap a button of the hand form and wait for its preview: the server's answer, or the
    phone's own drawing (tests.browser.tap_and_settle)."""
    control.check()
    settle(page)


def step(page: Any, legend: str | re.Pattern[str]) -> Any:
    """A step of the hand form, by its legend ("放銃", "和了", "立直", "Babaの点数", ...)."""
    return page.get_by_role("group", name=legend)


def seat(page: Any, legend: str | re.Pattern[str], name: str) -> Any:
    return step(page, legend).get_by_role("radio", name=name, exact=True)


def toggle(page: Any, legend: str | re.Pattern[str], name: str) -> Any:
    return step(page, legend).get_by_role("checkbox", name=name, exact=True)


def outcome(page: Any, label: str) -> Any:
    return seat(page, "結果", label)


def value(page: Any, winner: str, label: str) -> Any:
    """A button of ``winner``'s value pad: a grid cell ("3飜30符", read out before its
    points), a limit ("満貫") or a counted han ("6飜")."""
    pad = step(page, f"{winner}の点数")
    if "符" in label:
        return pad.get_by_role("radio", name=re.compile(f"^{label} "))
    return pad.get_by_role("radio", name=label, exact=True)


def confirm(page: Any, notice: str) -> None:
    """Tap the confirm (or save) button and wait for the table to show ``notice``."""
    button = page.get_by_role("button", name=re.compile("^(確定|訂正を確定)$"))
    with page.expect_response(
        lambda r: r.request.method == "POST" and re.search(r"/hands/(\d+/edit/)?$", r.url)
    ):
        button.click()
    settle(page)
    page.get_by_role("status").filter(has_text=notice).wait_for()
    # A tap within a second of a recorded hand is ignored (a double tap's second half).
    page.wait_for_timeout(1000)


def table_region(page: Any) -> Any:
    return page.get_by_role("region", name="卓")


def expect_table(page: Any, text: str) -> None:
    table_region(page).filter(has_text=text).wait_for()


def english_left(page: Any) -> list[str]:
    """Latin words on a Japanese screen other than the players' names and "JSON"."""
    words = re.findall(r"[A-Za-z]{2,}", page.locator("main").inner_text())
    return [word for word in words if word not in (*PLAYERS, "JSON")]


# -- the game -----------------------------------------------------------------------------------


def log_in(page: Any) -> None:
    # A visitor at / meets the club's public page, and its members' way in.
    page.goto(page.base_url + "/")
    page.locator("#public-login").click()
    page.get_by_label("ユーザー名").fill("aoki")
    page.get_by_label("パスワード").fill("aoki-password")
    screenshot(page, "01-login")
    page.get_by_role("button", name="ログイン").click()
    page.get_by_role("heading", name="対局", exact=True).wait_for()


def start_game(page: Any) -> int:
    page.get_by_role("link", name="新しい対局").click()
    assert page.get_by_label("ルール").input_value() == "makura-1.5"  # the club's default
    first_seat = page.get_by_label("1番目の席", exact=True)
    assert first_seat.evaluate("select => select.selectedOptions[0].text") == "Aoki（あおき）"
    for number, player in ((2, "Baba（ばば）"), (3, "Chiba（ちば）"), (4, "Doi（どい）")):
        page.get_by_label(f"{number}番目の席", exact=True).select_option(label=player)
    page.get_by_label("卓", exact=True).fill("A")
    screenshot(page, "02-new-game")
    page.get_by_role("button", name="対局を始める").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    expect_table(page, "東1局")
    screenshot(page, "03-table")
    match = re.search(r"/games/(\d+)/$", page.url)
    assert match
    return int(match[1])


def play_first_ron(page: Any) -> None:
    """East 1: Baba rons Chiba, 3 han 30 fu, in five taps (the grid is one of them)."""
    tap(page, outcome(page, "ロン"))
    tap(page, seat(page, "放銃", "Chiba"))
    tap(page, toggle(page, WON, "Baba"))
    cell = value(page, "Baba", "3飜30符")
    assert cell.evaluate("e => e.closest('label').textContent.trim()").endswith("3,900")
    screenshot(page, "04-ron-value")
    assert english_left(page) == []
    assert layout_problems(page) == []
    tap(page, cell)
    page.locator("#hand-preview").get_by_text("Chiba → Baba").wait_for()
    screenshot(page, "05-ron-preview")
    assert english_left(page) == []
    confirm(page, "記録しました: ロン Baba←Chiba 3飜30符 3,900")
    expect_table(page, "東2局")


def play_mangan_tsumo(page: Any) -> None:
    """East 2: Doi's mangan tsumo in four taps (Baba deals and pays 4,000)."""
    tap(page, outcome(page, "ツモ"))
    tap(page, seat(page, WON, "Doi"))
    tap(page, value(page, "Doi", "満貫"))
    screenshot(page, "06-tsumo-preview")
    confirm(page, "記録しました: ツモ Doi 満貫 2,000/4,000")
    expect_table(page, "東3局")


def play_draw_with_riichi(page: Any) -> None:
    """East 3: a draw, Aoki (in riichi) and Chiba (the dealer) tenpai: the stick stays."""
    tap(page, outcome(page, "流局"))
    tap(page, toggle(page, TENPAI, "Aoki"))
    tap(page, toggle(page, TENPAI, "Chiba"))
    tap(page, toggle(page, RIICHI, "Aoki"))
    screenshot(page, "07-draw-preview")
    confirm(page, "記録しました: 流局 聴牌 Aoki・Chiba")
    # The dealer was tenpai: East 3 again, one honba, Aoki's stick on the table.
    expect_table(page, "1本場")
    assert "東3局" in table_region(page).inner_text()
    assert re.search(r"供託\s*1,000", table_region(page).inner_text())
    screenshot(page, "08-deposits-carried")
    assert english_left(page) == []


def play_double_ron(page: Any) -> None:
    """East 3, 1 honba: Doi deals into Aoki (2 han 40 fu) and Baba (1 han 30 fu). Aoki, first
    from Doi in turn order, takes the carried stick."""
    tap(page, outcome(page, "ロン"))
    tap(page, seat(page, "放銃", "Doi"))
    tap(page, toggle(page, WON, "Aoki"))
    tap(page, toggle(page, WON, "Baba"))
    tap(page, value(page, "Aoki", "2飜40符"))
    tap(page, value(page, "Baba", "1飜30符"))
    page.get_by_text("Doi → Aoki").first.wait_for()
    screenshot(page, "09-double-ron-preview")
    confirm(page, "記録しました: ロン Aoki←Doi 2飜40符 2,600 / Baba←Doi 1飜30符 1,000")
    expect_table(page, "東4局")
    assert re.search(r"供託\s*0", table_region(page).inner_text())


def play_chombo(page: Any) -> None:
    tap(page, outcome(page, "チョンボ"))
    tap(page, seat(page, "チョンボした人", "Baba"))
    screenshot(page, "10-chombo-preview")
    confirm(page, "記録しました: チョンボ Baba")
    expect_table(page, "東4局")


def correct_first_hand(page: Any) -> None:
    """Hand 1 was 4 han, not 3: open it from the hand list, tap 4 han 30 fu, save."""
    page.get_by_role("link", name="1局目を訂正").click()
    page.get_by_role("heading", name="1局目を訂正").wait_for()
    settle(page)
    assert value(page, "Baba", "3飜30符").is_checked()
    screenshot(page, "11-correction")
    tap(page, value(page, "Baba", "4飜30符"))
    page.locator("#hand-preview").get_by_text("Chiba → Baba").wait_for()
    screenshot(page, "12-correction-preview")
    assert english_left(page) == []
    confirm(page, "1局目を訂正しました。")
    page.get_by_role("listitem").filter(has_text="ロン Baba←Chiba 4飜30符 8,000").wait_for()


def play_to_the_end(page: Any) -> None:
    """Four draws with the dealer noten (East 4 to South 3), then Chiba's tsumo ends South 4."""
    for round_after in ("南1局", "南2局", "南3局", "南4局"):
        tap(page, outcome(page, "流局"))
        confirm(page, "記録しました: 流局 全員ノーテン")
        expect_table(page, round_after)
    tap(page, outcome(page, "ツモ"))
    tap(page, seat(page, WON, "Chiba"))
    tap(page, value(page, "Chiba", "2飜30符"))
    page.get_by_text("対局終了").wait_for()
    screenshot(page, "13-last-hand-preview")
    confirm(page, "記録しました: ツモ Chiba 2飜30符 500/1,000")
    expect_table(page, "最終結果")


# -- what the end screen must show --------------------------------------------------------------


def shown_points(points: int) -> str:
    """Settlement as clubs write it: thousands, one decimal, a sign (43000 -> "+43.0")."""
    sign = "+" if points > 0 else MINUS if points < 0 else ""
    return f"{sign}{abs(points) // 1000}.{abs(points) % 1000 // 100}"


def check_end_screen(page: Any, game_id: int, names: list[str]) -> None:
    response = page.request.get(f"{page.base_url}/games/{game_id}/record.json")
    assert response.ok
    record = response.json()
    assert record["hands"] == EXPECTED_HANDS
    final = replay_record(record).to_json()["final"]
    assert final["ended_by"] == "last_hand"

    status = table_region(page)
    assert "南4局終了" in status.inner_text()
    rows = status.get_by_role("listitem")
    assert rows.count() == len(names)
    by_rank = sorted(range(len(names)), key=lambda s: final["ranks"][s])
    for row, s in zip(rows.all(), by_rank, strict=True):
        text = row.inner_text()
        assert names[s] in text
        assert f"{final['ranks'][s]}位" in text
        assert f"{final['scores'][s]:,}".replace("-", MINUS) in text
        assert shown_points(final["points"][s]) in text
    assert sum(final["points"]) == 0


# -- the test ---------------------------------------------------------------------------------


def test_it_plays_a_whole_hanchan_on_a_phone(
    phone: Any,
    chromium: Any,
    member: Member,
    other_member: Member,
    coordinator: Member,
    staff_member: Member,
) -> None:
    page = phone
    names = [m.display_name for m in (member, other_member, coordinator, staff_member)]

    log_in(page)
    game_id = start_game(page)
    play_first_ron(page)
    play_mangan_tsumo(page)
    play_draw_with_riichi(page)
    in_english(chromium, page, game_id, "en-08-table")
    play_double_ron(page)
    play_chombo(page)
    correct_first_hand(page)
    play_to_the_end(page)
    screenshot(page, "14-end")
    assert english_left(page) == []
    assert page.get_by_role("group", name="結果").count() == 0  # no more hand form
    check_end_screen(page, game_id, names)
    in_english(chromium, page, game_id, "en-14-end")

    assert layout_problems(page) == []


def in_english(chromium: Any, page: Any, game_id: int, name: str) -> None:
    """The same screen for an English-speaking browser (same login): screenshots only, and
    for a game in play, the value pad of a ron as tapped so far (nothing is entered)."""
    context = chromium.new_context(
        viewport=PHONE,
        locale="en-US",
        device_scale_factor=2,
        storage_state=page.context.storage_state(),
    )
    try:
        english = context.new_page()
        english.goto(f"{page.base_url}/games/{game_id}/")
        english.get_by_role("region", name="Table").wait_for()
        body = english.locator("main").inner_text()
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", body), body
        screenshot(english, name)
        if english.get_by_role("group", name="How did the hand end?").count():
            tap(english, english.get_by_role("radio", name="Ron", exact=True))
            tap(english, english.get_by_role("group", name="Dealt in").get_by_role(
                "radio", name="Doi", exact=True))  # fmt: skip
            tap(english, english.get_by_role("group", name=re.compile("^Winner")).get_by_role(
                "checkbox", name="Aoki", exact=True))  # fmt: skip
            english.get_by_role("group", name="Value of Aoki's win").wait_for()
            assert layout_problems(english) == []
            screenshot(english, name.replace("table", "ron-value"))
    finally:
        context.close()


def layout_problems(page: Any) -> list[str]:
    """What does not fit a 360 px phone, the narrowest the pages are made for: sideways scrolling,
    text wider than its button or heading, buttons smaller than 44 x 44 px."""
    page.set_viewport_size({"width": 360, "height": PHONE["height"]})
    try:
        return page.evaluate(
            """() => {
                const problems = [];
                if (document.documentElement.scrollWidth > window.innerWidth) {
                    problems.push("the page scrolls sideways");
                }
                const main = document.querySelector("main");
                // Text wider than its box's content area (inside the padding).
                for (const box of main.querySelectorAll("label > span, th, legend, h1, h2")) {
                    if (!box.checkVisibility() || box.closest(".visually-hidden")) {
                        continue;  // inside the closed "more" section, or read out only
                    }
                    const style = getComputedStyle(box);
                    const room = box.clientWidth - parseFloat(style.paddingLeft)
                        - parseFloat(style.paddingRight);
                    let left = Infinity, right = -Infinity;
                    for (const node of box.childNodes) {
                        if (node.nodeType === Node.ELEMENT_NODE
                                && getComputedStyle(node).position === "absolute") {
                            continue;  // read out only, not shown
                        }
                        const range = document.createRange();
                        range.selectNodeContents(node);
                        const rect = range.getBoundingClientRect();
                        if (rect.width) {
                            left = Math.min(left, rect.left);
                            right = Math.max(right, rect.right);
                        }
                    }
                    if (box.scrollWidth > box.clientWidth + 1 || right - left > room + 0.5) {
                        problems.push(`too wide: ${box.textContent.trim()} `
                                      + `(${Math.round(right - left)} > ${Math.round(room)})`);
                    }
                }
                for (const tap of main.querySelectorAll("label:has(> input[type=radio]), "
                                                         + "label:has(> input[type=checkbox])")) {
                    if (!tap.checkVisibility()) {
                        continue;
                    }
                    const {width, height} = tap.getBoundingClientRect();
                    if (width < 44 || height < 44) {
                        problems.push(`too small: ${tap.textContent.trim()}`);
                    }
                }
                return problems;
            }"""
        )
    finally:
        page.set_viewport_size(PHONE)


def test_it_fits_every_value_pad_into_a_360px_phone(
    chromium: Any,
    live_server: Any,
    member: Member,
    other_member: Member,
    coordinator: Member,
    staff_member: Member,
) -> None:
    """A dealer's ron and tsumo, a non-dealer's tsumo, and a fixed-fu 3-player pad, in both
    languages: every button fits its text and a thumb."""
    players = [member, other_member, coordinator, staff_member]
    four = hanchan_start(ruleset_id="makura-1.5", members=players, played_on=date.today())
    three = hanchan_start(ruleset_id="fuji-sanma", members=players[:3], played_on=date.today())
    client = Client()
    client.force_login(member.user)
    session = {"name": "sessionid", "value": client.cookies["sessionid"].value}
    cases = [
        (four, ["ron", "Chiba", "Aoki"]),  # Aoki deals East 1
        (four, ["tsumo", "Aoki"]),
        (four, ["tsumo", "Baba"]),
        (three, ["tsumo", "Baba"]),
    ]
    for locale, labels in (("ja-JP", JA), ("en-US", EN)):
        context = chromium.new_context(viewport=PHONE, locale=locale)
        context.add_cookies([{**session, "url": live_server.url}])
        # Each case starts from an empty form: the taps kept for a reload would bring back
        # the last case's (static/js/table.js).
        context.add_init_script("try { sessionStorage.clear(); } catch (e) {}")
        page = context.new_page()
        try:
            for number, (game, (result, *who)) in enumerate(cases, start=1):
                page.goto(f"{live_server.url}/games/{game.pk}/")
                page.get_by_role("group", name=labels["result"]).wait_for()
                tap(page, page.get_by_role("radio", name=labels[result], exact=True))
                if result == "ron":
                    discarder = page.get_by_role("group", name=labels["loser"])
                    tap(page, discarder.get_by_role("radio", name=who[0], exact=True))
                    winners = page.get_by_role("group", name=re.compile(f"^{labels['winners']}"))
                    tap(page, winners.get_by_role("checkbox", name=who[1], exact=True))
                else:
                    winner = page.get_by_role("group", name=re.compile(f"^{labels['winners']}"))
                    tap(page, winner.get_by_role("radio", name=who[0], exact=True))
                pad = page.get_by_role("group", name=labels["pad"] % who[-1])
                pad.wait_for()
                page.set_viewport_size({"width": 360, "height": PHONE["height"]})
                pad.screenshot(path=str(SCREENSHOTS / f"pad-{locale[:2]}-{number}-{result}.png"))
                problems = layout_problems(page)
                assert problems == [], (locale, game.ruleset_version.ruleset_id, who, problems)
        finally:
            context.close()


JA = {
    "result": "結果",
    "ron": "ロン",
    "tsumo": "ツモ",
    "loser": "放銃",
    "winners": "和了",
    "pad": "%sの点数",
}
EN = {
    "result": "How did the hand end?",
    "ron": "Ron",
    "tsumo": "Tsumo",
    "loser": "Dealt in",
    "winners": "Winner",
    "pad": "Value of %s's win",
}
