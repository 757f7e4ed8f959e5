"""Yaku records: a win's yaku and tiles in the record (a compatible
extension), the ledger's ``WinYaku`` facts, the yakuman hall of fame and the yaku counts of
the club and of a member."""

from __future__ import annotations

import io
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member
from scoring.engine import RecordError, parse_hand, replay_record
from scoring.ledger import hanchan_confirm, hanchan_void, hand_correct, hand_record
from scoring.models import Hanchan, WinYaku
from scoring.standings.yaku import yaku_counts, yakuman_records

DATA = Path(__file__).parent / "data" / "online"
TILED_WIN = {
    "winner": 1,
    "han": 3,
    "fu": 30,
    "yaku": [{"name": "riichi", "han": 1}, {"name": "pinfu", "han": 1}, {"name": "dora", "han": 1}],
    "tiles": {"hand": "234567m234p67s88p5s", "win_tile": "5s"},
}


def test_a_win_carries_its_yaku_and_tiles_without_changing_a_payment():
    hand = {"result": "ron", "loser": 2, "wins": [TILED_WIN], "riichi": [1]}
    assert parse_hand(hand, 4, 0).to_json() == hand
    plain = {
        "result": "ron",
        "loser": 2,
        "wins": [{"winner": 1, "han": 3, "fu": 30}],
        "riichi": [1],
    }
    record = {"ruleset": "makura-1.5", "players": ["A", "B", "C", "D"]}
    assert (
        replay_record({**record, "hands": [hand]}).to_json()
        == replay_record({**record, "hands": [plain]}).to_json()
    )
    with pytest.raises(RecordError) as bad:
        parse_hand({**hand, "wins": [{**TILED_WIN, "yaku": [{"name": "riichi"}]}]}, 4, 0)
    assert (bad.value.code, bad.value.key) == ("yaku_malformed", "wins[0].yaku")
    with pytest.raises(RecordError) as bad:
        parse_hand({**hand, "wins": [{**TILED_WIN, "tiles": {"hand": 5}}]}, 4, 0)
    assert bad.value.code == "tiles_malformed"


def import_log(name: str) -> Hanchan:
    with override("en"):
        call_command(
            "import_games", str(DATA / "mjlog" / name), "--create-members", stdout=io.StringIO()
        )
    return Hanchan.objects.latest("pk")


def test_an_imported_online_game_fills_the_hall_of_fame(db, client: Client):
    game = import_log("pao-tsumo.mjlog")
    [yakuman] = WinYaku.objects.filter(yakuman=True)
    assert (yakuman.name, yakuman.han, yakuman.hanchan_id) == ("daisangen", 13, game.pk)
    winner = game.seats.get(index=2).member
    assert yakuman.member == winner
    member = Member.objects.first()
    assert member is not None
    client.force_login(member.user)
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Daisangen" in html and winner.display_name in html
    # The hand's tiles are drawn: 0m (red), 6m, 7m, 1p 1p, then the dragon pons.
    assert '<span class="tile suit-m red">5<small>萬</small></span>' in html
    assert html.count('<span class="tile honour">白<small></small></span>') == 3
    assert "Riichi" in html or "Yakuhai" in html  # the club's yaku counts
    ja = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "役満記録" in ja and "大三元" in ja


def test_yakuman_entered_without_tiles_counts_and_follows_corrections_and_voids(
    table_game: Hanchan, member: Member, client: Client
):
    hand_record(
        hanchan_id=table_game.pk,
        hand={"result": "tsumo", "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=member,
    )
    [fact] = WinYaku.objects.all()
    assert (fact.name, fact.han, fact.yakuman, fact.seat) == ("yakuman", 13, True, 1)
    client.force_login(member.user)
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # A game in play counts nowhere yet, its yakuman neither.
    assert "<b>Yakuman</b>" not in html and "No yakuman yet." in html
    # Corrected to a mangan: the yakuman is gone from the records.
    hand_correct(
        hanchan_id=table_game.pk,
        sequence=0,
        hand={"result": "tsumo", "wins": [{"winner": 1, "limit": "mangan"}]},
        expected_version=1,
        by=member,
    )
    assert not WinYaku.objects.exists()
    hand_correct(
        hanchan_id=table_game.pk,
        sequence=0,
        hand={"result": "tsumo", "wins": [{"winner": 1, "limit": "yakuman", "yakuman": 2}]},
        expected_version=2,
        by=member,
    )
    assert WinYaku.objects.get().han == 26
    hanchan_void(hanchan_id=table_game.pk, expected_version=3, steward=True)
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No yakuman yet." in html


def test_the_hall_of_fame_lists_a_yakuman_only_once_its_game_counts(
    table_game: Hanchan, member: Member, staff_member: Member, client: Client
):
    """The yaku records read the ledger's one read of what counts; a game
    entered by one player waits for the table's confirmation, and so does its
    yakuman."""
    hand_record(
        hanchan_id=table_game.pk,
        # The dealer deals a yakuman into seat 1: 32,000 busts them, the game ends by tobi.
        hand={"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=member,
    )
    table_game.refresh_from_db()
    assert table_game.status == Hanchan.Status.FINISHED and table_game.counted_version is None
    client.force_login(member.user)
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No yakuman yet." in html
    hanchan_confirm(
        hanchan_id=table_game.pk,
        expected_version=1,
        user_id=staff_member.user_id,
        by=staff_member,
        steward=True,
    )
    html = client.get(reverse("yaku_records"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<b>Yakuman</b>" in html and "No yakuman yet." not in html


def test_a_member_page_lists_their_yaku_without_a_query_more(db, client: Client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = import_log("2019082700gm-00a9-0000-63d1f136.mjlog")
    counts = WinYaku.objects.exclude(name__in=("dora", "aka_dora", "ura_dora"))
    top = counts.values_list("member_id", flat=True).first()
    member = Member.objects.get(pk=top)
    client.force_login(member.user)
    page = reverse("member_detail", args=[member.pk]) + "?period=all"
    client.get(page)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # The standings' budget for the player page (the 3 of the login included).
    assert len(queries) <= 10
    # The yaku section loads itself from the yaku page when scrolled to.
    assert f'hx-get="/standings/yaku/?member={member.pk}"' in html
    mine = client.get(
        reverse("yaku_records") + f"?member={member.pk}", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    wins = counts.filter(member=member).values("hand_id").distinct().count()
    assert f"From {wins} win" in mine
    assert f"Yaku of {member.display_name}'s wins" in mine
    assert game.status == Hanchan.Status.FINISHED


def test_the_club_records_leave_out_a_guests_wins(
    table_game: Hanchan, member: Member, other_member: Member, staff_member: Member
):
    """A guest of an event between clubs (``Member.Role.GUEST``) is another club's member:
    their yakuman is in their own records, not the host's hall of fame or yaku counts
    (docs/clubs.md, "Events between clubs")."""
    Member.objects.filter(pk=other_member.pk).update(role=Member.Role.GUEST)
    hand_record(
        hanchan_id=table_game.pk,
        hand={"result": "ron", "loser": 0, "wins": [{"winner": 1, "limit": "yakuman"}]},
        expected_version=0,
        request_id=uuid.uuid4(),
        by=member,
    )
    hanchan_confirm(
        hanchan_id=table_game.pk,
        expected_version=1,
        user_id=staff_member.user_id,
        by=staff_member,
        steward=True,
    )
    assert WinYaku.objects.get().member_id == other_member.pk
    assert yakuman_records() == []
    assert yaku_counts() == (0, [])
    (own,) = yakuman_records(member_id=other_member.pk)
    assert (own.member_name, own.names) == (other_member.display_name, ("yakuman",))
    assert yaku_counts(other_member.pk) == (1, [("yakuman", 1)])
