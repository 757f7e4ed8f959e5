"""Importing online games in the browser at a phone's size: a member saves
their Tenhou name, uploads two logs of their games and a file that is no log, reads the
summary (Japanese), opens the stored game and finds its log and replay link; the same in
English. Screenshots of each screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clubsite.models import Member, OnlineName
from scoring.models import Hanchan
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll

pytestmark = pytest.mark.browser

DATA = Path(__file__).parent / "data" / "online" / "tenhou-json"
GAMES = [
    DATA / "2024010120gm-00b9-0000-e324b88a.json",
    DATA / "2024010120gm-00b9-0000-ef5da89f.json",
]


@pytest.fixture
def sanma_players(db: None) -> list[Member]:
    """The players of two 3-player Phoenix games; れすこ sits in both and is the one who
    saves her Tenhou name in the browser, the other four have theirs already."""
    others = ["代々木寿人", "傍若無人51", "龍、巣食う", "つるっぱげ"]
    me = make_member("p0", "Player 0", "ぷれいやー0")
    me.tenhou_name = "れすこ"  # type: ignore[attr-defined]
    members = [me]
    for number, name in enumerate(others, start=1):
        member = make_member(f"p{number}", f"Player {number}", f"ぷれいやー{number}")
        OnlineName.objects.create(member=member, service="tenhou", name=name)
        members.append(member)
    return members


def test_a_member_saves_their_tenhou_name_and_imports_their_games(
    phone: Any, sanma_players: list[Member], tmp_path: Path
) -> None:
    me = sanma_players[0]
    log_in(phone, "p0")
    phone.goto(phone.base_url + f"/members/{me.pk}/")
    phone.get_by_role("link", name="あなたのオンライン名").click()
    phone.wait_for_load_state()
    phone.select_option("select[name=service]", "tenhou")
    phone.fill("input[name=name]", me.tenhou_name)  # type: ignore[attr-defined]
    phone.get_by_role("button", name="追加").click()
    phone.wait_for_load_state()
    assert "オンライン名を追加しました。" in phone.inner_text("main")
    assert me.tenhou_name in phone.inner_text("#online-names")  # type: ignore[attr-defined]
    no_sideways_scroll(phone)
    screenshot(phone, "online-names-ja")

    junk = tmp_path / "memo.txt"
    junk.write_text("東1局 ロン 3900", encoding="utf-8")
    phone.goto(phone.base_url + "/")
    phone.get_by_role("link", name="オンライン対局の取り込み").click()
    phone.wait_for_load_state()
    phone.set_input_files("input[name=logs]", [str(p) for p in GAMES] + [str(junk)])
    phone.get_by_role("button", name="取り込む").click()
    phone.wait_for_load_state()
    summary = phone.inner_text("#import-summary")
    assert "3ファイル" in summary
    assert "保存 2件、拒否 1件。" in summary
    assert "対局ログではありません：このページで取り込めるのは" in summary
    assert Hanchan.objects.count() == 2
    no_sideways_scroll(phone)
    screenshot(phone, "online-import-summary-ja")

    phone.locator(".import-outcome.stored a").first.click()
    phone.wait_for_load_state()
    origin = phone.inner_text("#online-game")
    assert "オンライン対局（天鳳）、ログ 2024010120gm-00b9-0000-e324b88a" in origin
    assert phone.get_by_role("link", name="牌譜を見る").get_attribute("href") == (
        "https://tenhou.net/0/?log=2024010120gm-00b9-0000-e324b88a"
    )
    screenshot(phone, "online-game-ja")


def test_the_same_upload_in_english_says_already_imported(
    phone: Any, sanma_players: list[Member]
) -> None:
    me = sanma_players[0]
    OnlineName.objects.create(member=me, service="tenhou", name=me.tenhou_name)  # type: ignore[attr-defined]
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": phone.base_url}])
    log_in(phone, "p0")
    for _attempt in range(2):
        phone.goto(phone.base_url + "/games/import/")
        phone.set_input_files("input[name=logs]", [str(GAMES[0])])
        phone.get_by_role("button", name="Import").click()
        phone.wait_for_load_state()
    summary = phone.inner_text("#import-summary")
    assert "Already imported: nothing stored." in summary
    assert Hanchan.objects.count() == 1
    no_sideways_scroll(phone)
    screenshot(phone, "online-import-summary-en")


def test_the_yaku_records_on_a_phone(phone: Any, sanma_players: list[Member]) -> None:
    """The hall of fame with a yakuman's tiles drawn, and the club's yaku."""
    import io

    from django.core.management import call_command
    from django.utils.translation import override

    mjlogs = Path(__file__).parent / "data" / "online" / "mjlog"
    with override("en"):
        for name in ("pao-tsumo.mjlog", "2019082700gm-00a9-0000-63d1f136.mjlog"):
            call_command(
                "import_games", str(mjlogs / name), "--create-members", stdout=io.StringIO()
            )
    log_in(phone, "p0")
    phone.goto(phone.base_url + "/standings/yaku/")
    record = phone.locator(".yakuman-record").first
    assert "大三元" in record.inner_text()
    assert record.locator(".tile").count() == 14
    assert phone.locator(".yaku-table tbody tr").count() >= 5
    no_sideways_scroll(phone)
    screenshot(phone, "yaku-records-ja")
    # A winner's page loads their yaku when scrolled to.
    from scoring.models import WinYaku

    winner = WinYaku.objects.exclude(name__in=("dora", "aka_dora", "ura_dora")).first()
    assert winner is not None
    phone.goto(phone.base_url + f"/members/{winner.member_id}/?period=all")
    phone.locator("#member-yaku").scroll_into_view_if_needed()
    phone.locator("#yaku-counts .yaku-table").wait_for()
    assert "和了の役" in phone.inner_text("#yaku-counts")


def test_a_steward_seats_the_players_of_a_log_with_no_names_on_a_phone(
    phone: Any, tmp_path: Path
) -> None:
    """An mjai log whose start_game names no players (the original mjai
    server's game of tests/data/online/mjai/, its names emptied as Mortal's arena writes them);
    the steward chooses the member at each seat under the folded "A log with no player
    names" and the game is stored with them."""
    make_member("steward", "Steward", "すちゅわーど", steward=True)
    seated = [make_member(f"s{n}", f"Seat {n}", f"せき{n}") for n in range(1, 5)]
    source = Path(__file__).parent / "data" / "online" / "mjai" / "2026-07-01-130909.mjson"
    lines = source.read_text().splitlines()
    lines[0] = '{"type":"start_game","names":["","","",""]}'
    arena = tmp_path / "arena.mjson"
    arena.write_text("\n".join(lines))
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": phone.base_url}])
    log_in(phone, "steward")
    phone.goto(phone.base_url + "/games/import/")
    fold = phone.locator("details.seat-choice")
    assert fold.get_attribute("open") is None
    summary = fold.locator("summary")
    assert summary.bounding_box()["height"] >= 44
    summary.click()
    for number, member in enumerate(seated, start=1):
        phone.select_option(f"select[name=seat_{number}]", str(member.pk))
    no_sideways_scroll(phone)
    screenshot(phone, "online-import-seats-en")
    phone.set_input_files("input[name=logs]", [str(arena)])
    phone.get_by_role("button", name="Import").click()
    phone.wait_for_load_state()
    assert "Stored: 1. Refused: 0." in phone.inner_text("#import-summary")
    game = Hanchan.objects.get()
    assert [s.member for s in game.seats.order_by("index")] == seated
    no_sideways_scroll(phone)
