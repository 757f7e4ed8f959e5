"""Games: the list on the home page, starting a game, the table screen, the end screen,
export, undo and void; for every action the page and the htmx fragment."""

from __future__ import annotations

import datetime
import json
import re
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains, assertRedirects

from clubsite.dates import club_today
from clubsite.models import Member
from scoring.ledger import hanchan_import, hanchan_record, hanchan_start, hand_record
from scoring.models import Hanchan, LedgerChange

ClientFor = Callable[[Member], Client]
DAY = datetime.date(2026, 11, 20)
HTMX = {"HTTP_HX_REQUEST": "true"}
RECORDS = Path(__file__).parent / "data" / "records"


@pytest.fixture
def players(member: Member, other_member: Member, coordinator: Member, staff_member: Member):
    """Aoki (seat 0, the first dealer), Baba, Chiba, Doi."""
    return [member, other_member, coordinator, staff_member]


@pytest.fixture
def game(players: list[Member]) -> Hanchan:
    return hanchan_start(ruleset_id="makura-1.5", members=players, played_on=DAY, by=players[0])


@pytest.fixture
def aoki(client_for: ClientFor, member: Member) -> Client:
    return client_for(member)


@pytest.fixture
def finished(players: list[Member]) -> Hanchan:
    """Seed 001's worked example S1 (no tobi): Aoki tops with 52,400, +64.0."""
    record = json.loads((RECORDS / "makura-1.5" / "001-S1.json").read_text())
    names = dict(zip(record["players"], players, strict=True))
    return hanchan_import(record=record, members_by_name=names, played_on=DAY)


def record(game: Hanchan, hand: dict) -> None:
    game.refresh_from_db()
    hand_record(
        hanchan_id=game.pk, hand=hand, expected_version=game.version, request_id=uuid.uuid4()
    )
    game.refresh_from_db()


def token(client: Client, path: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', client.get(path).text)
    assert match
    return match.group(1)


def table_url(game: Hanchan) -> str:
    return reverse("game_detail", args=[game.pk])


def element(html: str, element_id: str) -> str:
    match = re.search(rf'<(\w+)[^>]* id="{re.escape(element_id)}"[^>]*>(.*?)</\1>', html, re.DOTALL)
    assert match, f"no element {element_id}"
    return match.group(2)


def state(game: Hanchan) -> tuple[int, int, str]:
    game.refresh_from_db()
    return game.hands.count(), game.version, game.status


# The games list


def test_it_makes_the_games_list_the_home_page(aoki, game, finished):
    record(game, {"result": "draw", "tenpai": [0], "riichi": [0]})

    response = aoki.get("/")

    assert response.status_code == 200
    assertContains(response, f'href="{reverse("game_new")}"')
    in_play = element(response.text, f"game-{game.pk}")
    assert "東1局" in in_play
    assert "1本場" in in_play
    assert "供託 1,000" in in_play
    assert '<span class="mini-points">27,000</span>' in in_play
    assert '<span class="mini-points">24,000</span>' in in_play
    assert table_url(game) in response.text
    done = element(response.text, f"game-{finished.pk}")
    assert "枕倶楽部 標準ルール v1.5" in done
    assert re.search(r"1</span> <span class=\"ranking-name\">Aoki</span> <span[^>]*>\+64\.0", done)
    assert re.search(r"Doi</span> <span[^>]*>−59\.0", done)
    # Games in play come first.
    assert response.text.index(f"game-{game.pk}") < response.text.index(f"game-{finished.pk}")
    # The ruleset pages are still there, one link away.
    assertContains(response, f'href="{reverse("ruleset_list")}"')
    assert aoki.get(reverse("ruleset_list")).status_code == 200


def test_it_leaves_voided_games_off_the_list(aoki, game):
    Hanchan.objects.filter(pk=game.pk).update(status=Hanchan.Status.VOIDED)

    response = aoki.get("/")

    assertNotContains(response, f'id="game-{game.pk}"')
    assertContains(response, "いま対局中の卓はありません。")


def test_it_sends_anonymous_visitors_from_every_game_page_to_login(client, game):
    # "/" is the games list for members and the club's public page for a visitor.
    assert 'id="public-page"' in client.get("/").text
    for path in (
        reverse("game_new"),
        table_url(game),
        reverse("game_record", args=[game.pk]),
        reverse("hand_edit", args=[game.pk, 1]),
    ):
        assertRedirects(client.get(path), f"{reverse('login')}?next={path}")


# New game


def test_it_offers_the_club_default_ruleset_first_and_today(aoki, players, club_choices):
    club_choices(default_ruleset="makura-1.5")

    response = aoki.get(reverse("game_new"))

    assert response.status_code == 200
    options = re.findall(r'<option value="([\w.-]+)"( selected)?>', response.text)
    rulesets = [value for value, _ in options if not value.isdigit()]
    assert rulesets[0] == "makura-1.5"
    assert set(rulesets) >= {"makura-1.3", "sanma-float", "fuji-sanma", "home-nashinashi"}
    assert ("makura-1.5", " selected") in options
    assertContains(response, f'value="{club_today().isoformat()}"')
    assert len(re.findall(r'<select name="player_\d"', response.text)) == 4
    # Seat 1 starts as the member who opens the page; members are listed by reading.
    seat_1 = re.search(r'<select name="player_0".*?</select>', response.text, re.DOTALL)[0]
    assert f'<option value="{players[0].pk}" selected>Aoki（あおき）</option>' in seat_1
    names = re.findall(r"<option value=\"\d+\"[^>]*>(\w+)（", seat_1)
    assert names == ["Aoki", "Chiba", "Doi", "Baba"]  # あおき ちば どい ばば


def test_it_redraws_the_seats_for_a_three_player_ruleset(aoki, players):
    response = aoki.get(
        reverse("game_new"), {"ruleset": "fuji-sanma", "player_0": players[0].pk}, **HTMX
    )

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assert response.text.strip().startswith('<div id="seat-fields"')
    assert len(re.findall(r'<select name="player_\d"', response.text)) == 3
    assertContains(response, f'<option value="{players[0].pk}" selected>')


def test_it_filters_the_members_by_name_or_reading(aoki, players, outsider):
    response = aoki.get(
        reverse("game_new"),
        {"q": "ばば", "player_0": players[0].pk, "ruleset": "makura-1.5"},
        **HTMX,
    )

    seat_2 = re.search(r'<select name="player_1".*?</select>', response.text, re.DOTALL)[0]
    assert "Baba" in seat_2
    assert "Aoki" in seat_2  # chosen for seat 1, so kept
    assert "Chiba" not in seat_2
    assert "Endo" not in seat_2


def test_it_redraws_the_seats_without_javascript(aoki, players):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "fuji-sanma",
        "player_0": players[0].pk,
        "played_on": "2026-11-20",
        "refresh": "1",
    }

    response = aoki.post(reverse("game_new"), data)

    assert response.status_code == 200
    assert len(re.findall(r'<select name="player_\d"', response.text)) == 3
    assert Hanchan.objects.count() == 0


def test_it_starts_a_game_and_opens_its_table(aoki, players):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "makura-1.5",
        "played_on": "2026-11-20",
        "venue": "ビック",
        "table_name": "A",
        **{f"player_{i}": m.pk for i, m in enumerate(players)},
    }

    response = aoki.post(reverse("game_new"), data)

    game = Hanchan.objects.get()
    assertRedirects(response, table_url(game))
    assert [s.member for s in game.seats.order_by("index")] == players
    assert (game.venue, game.table_name, game.played_on) == ("ビック", "A", DAY)
    assert game.created_by == players[0]


def test_it_draws_the_seats_when_asked(aoki, players):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "makura-1.5",
        "played_on": "2026-11-20",
        "draw_seats": "on",
        **{f"player_{i}": m.pk for i, m in enumerate(players)},
    }

    for _ in range(8):
        aoki.post(reverse("game_new"), data)

    given = [m.pk for m in players]
    orders = [[s.member_id for s in game.seats.order_by("index")] for game in Hanchan.objects.all()]
    assert len(orders) == 8
    assert all(sorted(order) == sorted(given) for order in orders)
    # A real draw: eight games all seated as given would happen once in 24**8 (1.1e11).
    assert any(order != given for order in orders)


def test_it_starts_a_game_from_htmx_with_a_client_redirect(aoki, players):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "fuji-sanma",
        "played_on": "2026-11-20",
        **{f"player_{i}": m.pk for i, m in enumerate(players[:3])},
    }

    response = aoki.post(reverse("game_new"), data, **HTMX)

    game = Hanchan.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == table_url(game)
    assert game.seats.count() == 3


@pytest.mark.parametrize("htmx", [{}, HTMX])
def test_it_refuses_the_wrong_number_of_players(aoki, players, htmx):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "fuji-sanma",
        "played_on": "2026-11-20",
        **{f"player_{i}": m.pk for i, m in enumerate(players)},
    }

    response = aoki.post(reverse("game_new"), data, **htmx)

    assert response.status_code == 200
    assert ("<html" in response.text) is not bool(htmx)
    assertContains(response, "このルールは3人で打ちます。")
    assert Hanchan.objects.count() == 0


def test_it_refuses_the_same_member_twice(aoki, players):
    data = {
        "csrfmiddlewaretoken": token(aoki, reverse("game_new")),
        "ruleset": "makura-1.5",
        "played_on": "2026-11-20",
        **{f"player_{i}": m.pk for i, m in enumerate([*players[:3], players[0]])},
    }

    response = aoki.post(reverse("game_new"), data)

    assertContains(response, "同じ人が2つの席に座ることはできません。")
    assert Hanchan.objects.count() == 0


def test_it_lets_only_a_player_or_staff_start_a_game(client_for, players, outsider, staff):
    others = players[1:] + [players[0]]
    data = {
        "ruleset": "makura-1.5",
        "played_on": "2026-11-20",
        **{f"player_{i}": m.pk for i, m in enumerate(others)},
    }
    endo = client_for(outsider)

    refused = endo.post(
        reverse("game_new"), {**data, "csrfmiddlewaretoken": token(endo, reverse("game_new"))}
    )

    assertContains(refused, "対局を始められるのは、その卓で打つ人（または世話役）だけです。")
    assert Hanchan.objects.count() == 0
    steward = Client(enforce_csrf_checks=True)
    steward.force_login(staff)
    started = steward.post(
        reverse("game_new"), {**data, "csrfmiddlewaretoken": token(steward, reverse("game_new"))}
    )
    assertRedirects(started, table_url(Hanchan.objects.get()))


def test_it_enforces_csrf_when_starting_a_game(aoki, players):
    data = {
        "ruleset": "makura-1.5",
        "played_on": "2026-11-20",
        **{f"player_{i}": m.pk for i, m in enumerate(players)},
    }

    assert aoki.post(reverse("game_new"), data).status_code == 403
    assert Hanchan.objects.count() == 0


# The table screen


def test_it_shows_the_table_at_the_start(aoki, game):
    response = aoki.get(table_url(game))

    assert response.status_code == 200
    status = element(response.text, "table-status")
    assert '<span class="round">東1局</span>' in status
    assert '<span class="honba">0本場</span>' in status
    assert "供託 <b>0</b>" in status
    dealer = element(response.text, "seat-0")
    assert '<span class="seat-wind">東</span>' in dealer
    assert '<span class="dealer-badge">親</span>' in dealer
    assert '<span class="seat-name">Aoki</span>' in dealer
    assert '<span class="seat-score">25,000</span>' in dealer
    assert '<span class="seat-wind">北</span>' in element(response.text, "seat-3")
    assert "親" not in element(response.text, "seat-1")
    assertContains(response, "まだ局がありません。")


def test_it_shows_scores_and_the_hand_list_after_some_hands(aoki, game):
    record(game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]})
    record(game, {"result": "draw", "tenpai": [1], "riichi": [1]})

    response = aoki.get(table_url(game))

    status = element(response.text, "table-status")
    assert '<span class="round">東2局</span>' in status
    assert '<span class="honba">1本場</span>' in status
    assert "供託 <b>1,000</b>" in status
    assert '<span class="dealer-badge">親</span>' in element(response.text, "seat-1")
    assert '<span class="seat-score">30,900</span>' in element(response.text, "seat-1")
    assert '<span class="seat-score">20,100</span>' in element(response.text, "seat-2")
    first = element(response.text, "hand-1")
    assert "東1局" in first
    assert "ロン Baba←Chiba 3飜30符 3,900" in first
    assert '<span class="delta plus">+3,900</span>' in first
    assert '<span class="delta minus">−3,900</span>' in first
    second = element(response.text, "hand-2")
    assert "流局 聴牌 Baba" in second
    assert "立直 Baba" in second
    assert reverse("hand_edit", args=[game.pk, 2]) in second
    # The latest hand first.
    assert response.text.index('id="hand-2"') < response.text.index('id="hand-1"')


def test_it_shows_the_table_in_english(aoki, game):
    record(game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]})

    response = aoki.get(table_url(game), HTTP_ACCEPT_LANGUAGE="en")

    assertContains(response, '<span class="round">East 2</span>')
    assertContains(response, "Ron Baba←Chiba 3 han 30 fu 3,900")
    assertContains(response, '<span class="dealer-badge">Dealer</span>')
    assertContains(response, "Makura Club standard rules v1.5")


def test_it_shows_any_member_the_table_but_not_the_controls(client_for, outsider, game):
    record(game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]})

    response = client_for(outsider).get(table_url(game))

    assert response.status_code == 200
    assertContains(response, '<span class="seat-score">28,900</span>')
    assertNotContains(response, 'id="hand-form"')
    assertNotContains(response, reverse("hand_undo", args=[game.pk]))
    assertNotContains(response, reverse("game_void", args=[game.pk]))
    assertNotContains(response, reverse("hand_edit", args=[game.pk, 1]))
    assertContains(response, reverse("game_record", args=[game.pk]))


def test_it_sends_every_region_to_an_htmx_request_for_the_table(aoki, game):
    response = aoki.get(table_url(game), **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assert response.text.lstrip().startswith('<section id="hand-entry"')
    for region in ("table-status", "hand-list", "game-actions"):
        assertContains(response, f'id="{region}" class="{region}" hx-swap-oob="true"')


def test_it_gives_404_for_a_game_that_does_not_exist(aoki, db):
    assert aoki.get(reverse("game_detail", args=[999])).status_code == 404


# The end screen


def test_it_shows_the_end_screen_of_a_finished_game(aoki, finished):
    response = aoki.get(table_url(finished))

    assert response.status_code == 200
    status = element(response.text, "table-status")
    assert "最終結果" in status
    assert "南4局終了" in status
    rows = re.findall(r'<li class="final-row rank-(\d)">(.*?)</li>', status, re.DOTALL)
    assert [rank for rank, _ in rows] == ["1", "2", "3", "4"]
    top = rows[0][1]
    assert "1位" in top
    assert "Aoki" in top
    assert '<span class="final-points settlement plus">+64.0</span>' in top
    assert "52,400" in top
    last = rows[3][1]
    assert '<span class="final-points settlement minus">−59.0</span>' in last
    assert "−8,300" in last
    assertNotContains(response, 'id="hand-form"')


def test_it_shows_chips_on_the_end_screen_where_the_ruleset_has_them(aoki, players):
    record_json = json.loads((RECORDS / "home-nashinashi" / "003-S1.json").read_text())
    names = dict(zip(record_json["players"], players, strict=True))
    game = hanchan_import(record=record_json, members_by_name=names, played_on=DAY)
    assert game.status == Hanchan.Status.FINISHED

    response = aoki.get(table_url(game))

    assert "チップ" in element(response.text, "table-status")


def test_it_shows_the_end_screen_in_english(aoki, finished):
    response = aoki.get(table_url(finished), HTTP_ACCEPT_LANGUAGE="en")

    assertContains(response, "Ended after South 4")
    assertContains(response, "1st")


# Export


def test_it_downloads_the_game_record(client_for, outsider, finished):
    response = client_for(outsider).get(reverse("game_record", args=[finished.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        f'attachment; filename="game-{finished.pk}-2026-11-20.json"'
    )
    assert json.loads(response.content) == hanchan_record(finished)


# Undo


@pytest.fixture
def two_hands(game: Hanchan) -> Hanchan:
    record(game, {"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 3, "fu": 30}]})
    record(game, {"result": "tsumo", "wins": [{"winner": 0, "limit": "mangan"}]})
    return game


def test_it_asks_before_undoing_the_last_hand(aoki, two_hands):
    actions = element(aoki.get(table_url(two_hands)).text, "game-actions")

    assert '<details class="confirm-step">' in actions
    assert f'action="{reverse("hand_undo", args=[two_hands.pk])}"' in actions
    assert "2局目（東2局: ツモ Aoki 満貫 2,000/4,000）を取り消しますか？" in actions


def test_it_undoes_the_last_hand(aoki, two_hands):
    version = two_hands.version
    data = {"csrfmiddlewaretoken": token(aoki, table_url(two_hands)), "version": version}

    response = aoki.post(reverse("hand_undo", args=[two_hands.pk]), data)

    assertRedirects(response, table_url(two_hands), fetch_redirect_response=False)
    assert state(two_hands)[:1] == (1,)
    assert two_hands.changes.filter(action=LedgerChange.Action.UNDONE).count() == 1
    page = aoki.get(table_url(two_hands)).text
    assert "最後の局を取り消しました。" in page
    assert '<span class="seat-score">28,900</span>' in page


def test_it_undoes_the_last_hand_from_htmx(aoki, two_hands):
    data = {"csrfmiddlewaretoken": token(aoki, table_url(two_hands)), "version": two_hands.version}

    response = aoki.post(reverse("hand_undo", args=[two_hands.pk]), data, **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, "最後の局を取り消しました。")
    assertContains(response, 'id="table-status" class="table-status" hx-swap-oob="true"')
    assertContains(response, '<span class="seat-score">28,900</span>')
    assert two_hands.hands.count() == 1


def test_it_refuses_an_undo_from_a_stale_page(aoki, two_hands):
    data = {"csrfmiddlewaretoken": token(aoki, table_url(two_hands)), "version": two_hands.version}
    record(two_hands, {"result": "draw", "tenpai": []})
    before = state(two_hands)

    response = aoki.post(reverse("hand_undo", args=[two_hands.pk]), data)

    assert response.status_code == 200
    assertContains(response, "この局はすでに別の端末から入力されています。")
    assert state(two_hands) == before


@pytest.mark.parametrize("name", ["hand_undo", "game_void"])
def test_it_refuses_undo_and_void_to_a_member_not_at_the_table(
    client_for, outsider, two_hands, name
):
    client = client_for(outsider)
    before = state(two_hands)
    data = {"csrfmiddlewaretoken": token(client, table_url(two_hands)), "version": before[1]}

    assert client.post(reverse(name, args=[two_hands.pk]), data).status_code == 403
    assert client.post(reverse(name, args=[two_hands.pk]), data, **HTMX).status_code == 403
    assert state(two_hands) == before


@pytest.mark.parametrize("name", ["hand_undo", "game_void"])
def test_it_refuses_undo_and_void_to_anonymous_visitors(client, two_hands, name):
    before = state(two_hands)
    url = reverse(name, args=[two_hands.pk])

    assertRedirects(client.post(url, {"version": before[1]}), f"{reverse('login')}?next={url}")
    assert state(two_hands) == before


@pytest.mark.parametrize("name", ["hand_undo", "game_void"])
def test_it_enforces_csrf_on_undo_and_void(aoki, two_hands, name):
    before = state(two_hands)

    response = aoki.post(reverse(name, args=[two_hands.pk]), {"version": before[1]})

    assert response.status_code == 403
    assert state(two_hands) == before


def test_it_refuses_undo_and_void_by_get(aoki, two_hands):
    assert aoki.get(reverse("hand_undo", args=[two_hands.pk])).status_code == 405
    assert aoki.get(reverse("game_void", args=[two_hands.pk])).status_code == 405


# Void


def test_it_voids_the_game_after_a_confirm_step(aoki, two_hands):
    actions = element(aoki.get(table_url(two_hands)).text, "game-actions")
    assert f'action="{reverse("game_void", args=[two_hands.pk])}"' in actions
    data = {"csrfmiddlewaretoken": token(aoki, table_url(two_hands)), "version": two_hands.version}

    response = aoki.post(reverse("game_void", args=[two_hands.pk]), data)

    assertRedirects(response, table_url(two_hands), fetch_redirect_response=False)
    assert state(two_hands)[::2] == (2, Hanchan.Status.VOIDED)
    page = aoki.get(table_url(two_hands)).text
    assert "この対局は無効です。成績には数えません。" in page
    assert 'id="hand-form"' not in page
    assert reverse("hand_edit", args=[two_hands.pk, 1]) not in page


def test_it_voids_the_game_from_htmx(client_for, staff_member, two_hands):
    client = client_for(staff_member)
    data = {
        "csrfmiddlewaretoken": token(client, table_url(two_hands)),
        "version": two_hands.version,
    }

    response = client.post(reverse("game_void", args=[two_hands.pk]), data, **HTMX)

    assert response.status_code == 200
    assertNotContains(response, "<html")
    assertContains(response, "対局を無効にしました。")
    assertContains(response, "この対局は無効です。")
    assert state(two_hands)[2] == Hanchan.Status.VOIDED


def test_it_lets_staff_not_at_the_table_void_a_game(client, staff, two_hands):
    steward = Client(enforce_csrf_checks=True)
    steward.force_login(staff)
    data = {"csrfmiddlewaretoken": token(steward, table_url(two_hands)), "version": 2}

    response = steward.post(reverse("game_void", args=[two_hands.pk]), data)

    assertRedirects(response, table_url(two_hands), fetch_redirect_response=False)
    assert state(two_hands)[2] == Hanchan.Status.VOIDED
