"""The Grand Champion and the Meijin run in the browser at a phone's size
(docs/rules-spec.md §4.2, §4.3, T-01, T-03): a steward creates each for 8 members, draws,
starts every round and seats the next ones from the event page; the tables' games are entered
as final scores (here by the ledger's services). The Meijin re-seats by standing before games
3, 5 and 7 (ranks 1-4 at the upper table); the Grand Champion seats its top 4 at one final
table and ranks by the finals only. Screenshots in tests/screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from clubsite.models import Member
from tests.browser import screenshot
from tests.conftest import make_member
from tests.test_browser_confirmation import log_in, no_sideways_scroll
from tests.test_browser_tournament import click
from tests.test_tournaments import play_round
from tournaments.live_ranking import event_ranking
from tournaments.models import Event, Round

pytestmark = pytest.mark.browser


def create(phone: Any, name: str, format_key: str, players: list[Member]) -> Event:
    phone.goto(phone.base_url + "/tournaments/new/")
    phone.fill("input[name=name]", name)
    phone.select_option("select[name=format]", format_key)
    click(phone, "#create-event")
    event = Event.objects.get(name=name)
    click(phone, "#choose-players")
    for member in players:
        phone.locator(f"input[name=members][value='{member.pk}']").check()
    click(phone, "#save-players")
    click(phone, "#draw")
    return event


def play_next(phone: Any, event: Event, number: int, better: Any) -> None:
    """Start round ``number`` from the event page and enter its tables."""
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    click(phone, "#start-round")
    play_round(Round.objects.get(event=event, number=number), better=better)


def seat_next(phone: Any, event: Event) -> None:
    phone.goto(phone.base_url + f"/tournaments/{event.pk}/")
    click(phone, "#advance")


def test_a_meijin_reseats_by_standing_every_two_games(phone: Any, staff_member: Member) -> None:
    players = [make_member(f"mj{i}", f"名人{i}", f"めいじん{i}") for i in range(8)]
    log_in(phone, "doi")
    event = create(phone, "名人戦 2026", "meijin", players)
    assert Round.objects.filter(event=event).count() == 2  # games 1-2 by lot (T-03)
    for number in range(1, 9):
        play_next(phone, event, number, better=lambda n: n)
        if number in (2, 4, 6):
            seat_next(phone, event)
            order = [row.number for row in event_ranking(event).rows]
            for later in (number + 1, number + 2):
                upper = Round.objects.get(event=event, number=later).seating[0]
                assert sorted(upper) == sorted(order[:4])  # ranks 1-4 at the upper table
    screenshot(phone, "meijin-before-finish")
    seat_next(phone, event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    rows = event_ranking(event).rows
    assert all(row.games == 8 for row in rows)
    first = phone.locator("#ranking tbody tr").first.inner_text()
    assert players[rows[0].number].display_name in first
    no_sideways_scroll(phone)
    screenshot(phone, "meijin-final-ranking")


def test_a_grand_champion_is_decided_by_its_finals(phone: Any, staff_member: Member) -> None:
    players = [make_member(f"gc{i}", f"王者{i}", f"おうじゃ{i}") for i in range(8)]
    log_in(phone, "doi")
    event = create(phone, "グランドチャンピオン戦 2026", "grand_champion", players)
    assert Round.objects.filter(event=event).count() == 6  # every pairing by lot
    for number in range(1, 7):
        play_next(phone, event, number, better=lambda n: n)
    seat_next(phone, event)
    finals = Round.objects.get(event=event, number=7)
    top4 = [row.number for row in event_ranking(event).rows][:4]
    assert [sorted(t) for t in finals.seating] == [sorted(top4)]
    screenshot(phone, "grand-champion-finals-seated")
    for number in (7, 8):
        play_next(phone, event, number, better=lambda n: -n)  # now the 4th of the top 4 wins
    seat_next(phone, event)
    rows = event_ranking(event).rows
    assert rows[0].number == max(top4)  # the finals alone decide (T-01)
    assert "最終順位" in phone.locator("#ranking").inner_text()
    assert phone.locator("#next-step").count() == 0  # nothing left for the steward to do
    screenshot(phone, "grand-champion-final-ranking")
