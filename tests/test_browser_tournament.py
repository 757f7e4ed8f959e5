"""A GP for 16 members run in the browser at a phone's size (docs/rules-spec.md
§4.1): a steward creates it, ticks the players and draws the pairing table, prints the
seating chart, starts the rounds; a player finds their table on the event page and enters
their game's final scores, which wait for confirmation until the steward confirms them;
the finals are seated from the preliminaries (1st-4th at table 1, ...) and the
final ranking shows. In Japanese, then the finished event in English. Screenshots of each
page go to tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from scoring.models import Hanchan
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_tournaments import play_round
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Round

pytestmark = pytest.mark.browser


def log_out(page: Any) -> None:
    page.locator(".logout-form button").click()
    page.wait_for_load_state()


def click(page: Any, selector: str) -> None:
    page.locator(selector).click()
    page.wait_for_load_state()


def test_a_steward_runs_a_gp_for_16_members(phone: Any, staff_member: Member) -> None:
    players = [make_member(f"gp{i:02d}", f"選手{i:02d}", f"せんしゅ{i:02d}") for i in range(16)]
    log_in(phone, "doi")
    phone.goto(phone.base_url + "/tournaments/")
    click(phone, "#new-event")
    phone.fill("input[name=name]", "秋のGP")
    phone.select_option("select[name=format]", "gp")
    phone.fill("input[name=venue]", "吉祥寺")
    no_sideways_scroll(phone)
    screenshot(phone, "tournament-new")
    click(phone, "#create-event")
    event = Event.objects.get(name="秋のGP")
    assert phone.url.endswith(f"/tournaments/{event.pk}/")
    assert "飛びなし" in phone.locator("#no-tobi").inner_text()

    click(phone, "#choose-players")
    for member in players:
        phone.locator(f"input[name=members][value='{member.pk}']").check()
    assert phone.locator("#ticked-count").inner_text() == "16"
    click(phone, "#save-players")
    assert "16人、席は抽選" in phone.locator("#draw").inner_text()
    click(phone, "#draw")
    assert "再対戦：0" in phone.locator("#quality-1").inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, "tournament-drawn")

    click(phone, "#chart-link")
    assert phone.locator("#chart-by-round h2").count() == 4
    assert phone.locator("#chart-by-player tbody tr").count() == 16
    screenshot(phone, "tournament-chart")
    phone.go_back()
    phone.wait_for_load_state()

    click(phone, "#start-round")
    first = Round.objects.get(event=event, number=1)
    assert first.tables.count() == 4
    assert "1回戦を対局中です。" in phone.locator("#waiting").inner_text()
    log_out(phone)

    # A player at table 1 finds their table and enters the final scores.
    east = players[first.seating[0][0]]
    log_in(phone, east.user.username)
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    mine = phone.locator("#next-table")
    assert "1回戦・1番卓" in mine.inner_text() and "東家" in mine.inner_text()
    no_sideways_scroll(phone)
    screenshot(phone, "tournament-my-next-table")
    click(phone, "#enter-hands")
    game = first.tables.get(number=1).hanchan
    assert phone.url.endswith(f"/games/{game.pk}/")
    phone.goto(phone.base_url + f"/games/{game.pk}/final-scores/")
    for seat, score in enumerate([45300, 30000, 19700, 5000]):
        phone.fill(f"input[name=score_{seat}]", str(score))
    click(phone, "#final-scores-form button[type=submit]")
    game.refresh_from_db()
    assert game.status == Hanchan.Status.FINISHED
    log_out(phone)

    # The other tables of round 1 and the next rounds are entered at their tables (here by
    # the ledger's services); lower seating numbers do better everywhere.
    rest = Round.objects.get(pk=first.pk)
    for table in rest.tables.exclude(number=1):
        seats = rest.seating[table.number - 1]
        _enter(table.hanchan, seats)
    log_in(phone, "doi")
    # Table 1 was entered by one of its players: it waits for the others or a steward, and
    # the next round starts only once it counts. The steward confirms it.
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    assert "承認待ち" in phone.locator("#round-1").inner_text()
    assert phone.locator("#start-round").count() == 0
    phone.goto(phone.base_url + f"/games/{game.pk}/")
    phone.locator("#confirmation button.confirm-result").click()
    phone.wait_for_selector("#confirmation button.confirm-result", state="detached")
    for number in (2, 3, 4):
        phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
        click(phone, "#start-round")
        play_round(Round.objects.get(event=event, number=number), better=lambda n: n)
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    assert "次の回戦の卓を決める" in phone.locator("#advance").inner_text()
    click(phone, "#advance")

    # Finals seated by the preliminaries' standing: 1st-4th at table 1, 5th-8th at table 2.
    order = [row.number for row in event_ranking(event).rows]
    finals = Round.objects.get(event=event, number=5)
    assert [sorted(t) for t in finals.seating] == [
        sorted(order[i : i + 4]) for i in range(0, 16, 4)
    ]
    table_one = phone.locator("#round-5 .ev-table").first.inner_text()
    assert all(players[n].display_name in table_one for n in order[:4])
    screenshot(phone, "tournament-finals-seated")

    for number in (5, 6):
        phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
        click(phone, "#start-round")
        play_round(Round.objects.get(event=event, number=number), better=lambda n: -n)
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    click(phone, "#advance")
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    ranking = phone.locator("#ranking")
    assert "最終順位" in ranking.inner_text()
    rows = event_ranking(event).rows
    first_row = phone.locator("#ranking tbody tr").first.inner_text()
    assert players[rows[0].number].display_name in first_row
    no_sideways_scroll(phone)
    screenshot(phone, "tournament-final-ranking")

    # The same page in English.
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": phone.base_url}])
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    assert "Final ranking" in phone.locator("#ranking").inner_text()
    assert "finished" in phone.locator("#event-status").inner_text()
    screenshot(phone, "tournament-final-ranking-en")


def _enter(hanchan: Hanchan, seats: list[int]) -> None:
    from scoring.ledger import hanchan_final_scores

    order = sorted(seats)
    scores = [[45300, 30000, 19700, 5000][order.index(n)] for n in seats]
    hanchan.refresh_from_db()
    hanchan_final_scores(
        hanchan_id=hanchan.pk, final_scores={"scores": scores}, expected_version=hanchan.version
    )
