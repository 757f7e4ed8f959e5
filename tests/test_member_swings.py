"""A member's placement swings on their page (scoring/views/placement_story.py): the biggest
comeback and the hand that decided over their latest games, linked to the hands, from the
placement model's chances; loaded when scrolled to, at a bounded cost."""

from __future__ import annotations

import datetime
import random
import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubsite.models import Member
from scoring.ledger import hanchan_import
from scoring.models import Hanchan, Seat
from scoring.placement_chances import game_chances
from scoring.stats.placement_swings import game_swing, member_swings
from scoring.upkeep.sample_games import sample_hands
from scoring.views import placement_story

ClientFor = Callable[[Member], Client]
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    return [member, other_member, coordinator, staff_member]


@pytest.fixture(autouse=True)
def fresh_cache():
    """The chances are cached by game id: a game of an earlier test may have had this id."""
    cache.clear()
    yield
    cache.clear()


def play(players: list[Member], seed: int) -> Hanchan:
    """A whole makura-1.5 game from sample hands, Aoki at seat ``seed % 4``."""
    seated = players[seed % 4 :] + players[: seed % 4]
    record = {
        "format": "club-game/1",
        "ruleset": "makura-1.5",
        "players": [m.display_name for m in seated],
        "hands": sample_hands(random.Random(seed), "makura-1.5"),
    }
    return hanchan_import(
        record=record,
        members_by_name={m.display_name: m for m in seated},
        played_on=datetime.date(2026, 11, 1 + seed),
    )


def test_it_shows_the_comeback_and_the_deciding_hand_linked_to_their_hands(
    client_for: ClientFor, players
):
    aoki = players[0]
    games = [play(players, seed) for seed in range(4)]
    expected = []
    for game in reversed(games):  # newest first
        seat = Seat.objects.get(hanchan=game, member=aoki)
        assert game.status == Hanchan.Status.FINISHED
        expected.append(
            game_swing(
                game_chances(game),
                seat=seat.index,
                place=seat.rank,
                hanchan_id=game.pk,
                played_on=game.played_on,
            )
        )
    swings = member_swings(expected)
    html = client_for(aoki).get(reverse("member_swings", args=[aoki.pk]), **HTMX).text
    assert "<html" not in html and html.lstrip().startswith(
        '<section aria-labelledby="swings-head"'
    )
    rows = re.findall(r'<tr id="swing-(\d+)">', html)
    assert rows == [str(game.pk) for game in reversed(games)]
    comeback = swings.comeback
    assert comeback is not None
    block = html[html.index('id="swing-comeback"') : html.index('id="swing-decider"')]
    ranks = {1: "1st", 2: "2nd", 3: "3rd"}
    target = "1st" if comeback.place == 1 else f"{ranks[comeback.place]} or better"
    assert f"Finished {ranks[comeback.place]}; the chance of {target} was" in block
    assert f"was {int(comeback.low * 100 + 0.5)}%" in block
    game_url = reverse("game_detail", args=[comeback.hanchan_id])
    low_link = f"{game_url}#hand-{comeback.low_after}" if comeback.low_after else f'{game_url}"'
    assert f'href="{low_link}' in block
    decider = swings.decider
    assert decider is not None
    block = html[html.index('id="swing-decider"') : html.index("</dl>")]
    assert (
        f'href="{reverse("game_detail", args=[decider.hanchan_id])}#hand-{decider.decided_hand}"'
        in block
    )
    before, after = (int(p * 100 + 0.5) for p in (decider.decided_before, decider.decided_after))
    assert f"went from {before}% to {after}%" in block
    # The comeback's chart: Aoki's chance of the place reached, a point for the start and each hand.
    chart = html[html.index('<figure class="chart" id="comeback-chart">') :]
    points = re.search(r'<polyline points="([^"]+)"', chart)
    hands = Hanchan.objects.get(pk=comeback.hanchan_id).hands.count()
    assert points is not None and len(points.group(1).split()) == hands + 1


def test_the_member_page_loads_the_swings_when_scrolled_to(client_for: ClientFor, players):
    aoki = players[0]
    play(players, 0)
    html = client_for(aoki).get(reverse("member_detail", args=[aoki.pk])).text
    section = html[html.index('<section aria-labelledby="swings-head"') :]
    section = section[: section.index("</section>")]
    url = reverse("member_swings", args=[aoki.pk])
    assert f'hx-get="{url}?' in section and 'hx-trigger="revealed"' in section
    assert f'<a href="{url}?' in section  # and a link without JavaScript
    page = client_for(aoki).get(url).text
    assert "<html" in page and 'id="swing-decider"' in page


def test_its_cost_is_bounded_by_the_latest_games_and_cached(
    client_for: ClientFor, players, monkeypatch
):
    aoki = players[0]
    client = client_for(aoki)
    url = reverse("member_swings", args=[aoki.pk])
    monkeypatch.setattr(placement_story, "SWING_GAMES", 3)
    counts = []
    for seeds in (range(3), range(3, 6)):
        for seed in seeds:
            play(players, seed)
        cache.clear()
        with CaptureQueriesContext(connection) as cold:
            client.get(url, **HTMX)  # every game's chances computed and kept
        with CaptureQueriesContext(connection) as queries:
            html = client.get(url, **HTMX).text
        assert len(re.findall(r'<tr id="swing-', html)) == 3
        # Once cached, no game costs a query; before, each costs a few (its hands, the fit).
        assert len(queries) < len(cold) <= len(queries) + 3 * 3
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_no_games_no_swings(client_for: ClientFor, players):
    html = client_for(players[0]).get(reverse("member_swings", args=[players[0].pk]), **HTMX).text
    assert "No games with hands yet." in html and "<table" not in html


def test_the_pages_read_the_stored_states_and_agree_with_the_replay(players, monkeypatch):
    from scoring.engine import Game
    from scoring.views.game_chances import stored_chances

    finished = play(players, 5)
    in_play = hanchan_import(
        record={
            "format": "club-game/1",
            "ruleset": "makura-1.5",
            "players": [m.display_name for m in players],
            "hands": sample_hands(random.Random(7), "makura-1.5", in_play_after=6),
        },
        members_by_name={m.display_name: m for m in players},
        played_on=datetime.date(2026, 11, 28),
    )
    assert in_play.status == Hanchan.Status.IN_PLAY
    replayed = {game.pk: game_chances(game) for game in (finished, in_play)}
    played: list[object] = []
    monkeypatch.setattr(Game, "play", lambda self, hand: played.append(hand))
    read = stored_chances(
        list(Hanchan.objects.select_related("ruleset_version").filter(pk__in=list(replayed)))
    )
    assert played == []  # no hand played again
    for pk, chances in replayed.items():
        assert len(read[pk]) == len(chances) == Hanchan.objects.get(pk=pk).hands.count() + 1
        for by_seat, expected in zip(read[pk], chances, strict=True):
            assert by_seat == [pytest.approx(row, abs=1e-12) for row in expected]
    assert read[finished.pk][-1] == replayed[finished.pk][-1]  # the settled places, exactly
