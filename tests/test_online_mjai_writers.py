"""mjai logs as three more writers write them.

Real logs, copied byte for byte (tests/data/online/README.md):

- ``mjai/2026-07-01-130909.mjson``: a whole East-South game as the original mjai server
  (gimite/mjai, New BSD licence) writes it, from Apricot-S/mjai-manue-go (BSD 3-Clause), commit
  0bcd2876e04405bdbe14da68a56a860d78a9ea08, ``docs/2026-07-01-130909.mjson`` (its self-match
  record). Its ``start_kyoku`` carries no ``scores``: they follow from 25,000 and each win's
  and draw's ``deltas``; its ``hora`` gives ``fan``, ``fu``, ``hora_points``, ``deltas`` and
  ``scores`` after it, its ``ryukyoku`` ``deltas`` and ``scores``.
- ``mjai3p/sample2.mjson``, ``mjai3p/sample-nuki.mjson``, ``mjai3p/sample3.mjson``: three real
  Tenhou 3-player games (三鳳南喰赤, January 2026) as mortal-sanma's converter writes them,
  from Mateces/mortal-sanma (AGPL-3.0), commit bf69bc320d6072bbeae2abfdc57bf876a5bab2e3,
  ``test-data/`` (written by ``scripts/tenhou6_to_mjai.py``, added in ed9a1863). It numbers a
  hand from Tenhou's round number as if a wind had three hands (South 1, Tenhou's 4, as "S"
  2 with ``oya`` 1), and ``sample3.mjson`` has no result event for its 九種九牌 and 全員聴牌
  hands. The same games as Tenhou wrote them: ``test-data/sample.xml`` (2026011603gm-00b9-0000-
  2b45278f, owari 70,000 / 18,000 / 17,000, +65.0 / -22.0 / -43.0) and
  ``test-data/tenhou6-3.json``, ``tenhou6-2026011604gm-00b9-0000-93055867.json`` of that commit.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import OnlineName
from scoring.models import Hanchan, OnlineGame
from scoring.online.log import LogAltered, LogError, LogMismatch
from scoring.online.reading import read_game_file
from scoring.online.verify import verify
from tests.conftest import make_member

DATA = Path(__file__).parent / "data" / "online"
GIMITE = DATA / "mjai" / "2026-07-01-130909.mjson"
SANMA2 = DATA / "mjai3p" / "sample2.mjson"
NUKI = DATA / "mjai3p" / "sample-nuki.mjson"
SANMA3 = DATA / "mjai3p" / "sample3.mjson"


def read_bytes(raw: bytes):
    log = read_game_file(raw, "game.mjson").log
    assert log is not None
    return log


def events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def written(items: list[dict[str, Any]]) -> bytes:
    return "\n".join(json.dumps(e, ensure_ascii=False) for e in items).encode()


def nth(items: list[dict[str, Any]], kind: str, n: int) -> dict[str, Any]:
    return [e for e in items if e["type"] == kind][n]


def refusal(raw: bytes) -> LogError:
    with pytest.raises(LogError) as refused:
        verify(read_bytes(raw))
    return refused.value


def assert_hand_exact(log, verified) -> None:
    assert len(verified.results) == len(log.hands)
    for result, hand in zip(verified.results, log.hands, strict=True):
        assert (result.round, result.honba, result.deposits_before) == (
            hand.round,
            hand.honba,
            hand.deposits,
        )
        assert result.deltas == hand.deltas, hand.label


# -- the original mjai server ----------------------------------------------------------------


def test_the_original_mjai_servers_log_is_re_scored_from_its_deltas():
    log = read_bytes(GIMITE.read_bytes())
    assert log.players == ("ManueGo3", "ManueGo2", "ManueGo1", "ManueGo0")
    assert [h.label for h in log.hands] == [
        "E1 0 honba",
        "E2 0 honba",
        "E3 0 honba",
        "E4 0 honba",
        "S1 0 honba",
        "S1 1 honba",
        "S1 2 honba",
        "S2 0 honba",
        "S3 0 honba",
        "S4 0 honba",
    ]
    # 25,000 each, as the first hora's scores less its deltas and seat 1's stick say.
    assert log.hands[0].start_scores == (25000, 25000, 25000, 25000)
    # East 2 starts where East 1's hora left the table (its "scores"): seat 2's riichi ron,
    # 2,600 and its own stick back.
    assert log.hands[1].start_scores == (25000, 25000, 27600, 22400)
    verified = verify(log)
    assert verified.ruleset == "tenhou-4p"
    assert_hand_exact(log, verified)
    # The log's own fan and fu are the stored values.
    assert verified.record["hands"][0] == {
        "result": "ron",
        "loser": 3,
        "wins": [{"winner": 2, "han": 2, "fu": 40}],
        "riichi": [2],
    }
    # South 1: a draw with seat 0's stick out; South 1 1 honba starts with it on the table.
    assert verified.record["hands"][4] == {"result": "draw", "tenpai": [0, 2], "riichi": [0]}
    assert log.hands[5].deposits == 1000
    assert verified.final["scores"] == [17200, 13500, 35600, 33700]


def test_a_log_with_neither_scores_nor_kyotaku_at_its_starts_reads_the_same():
    """mjai's Tenhou converter (gimite/mjai ``TenhouArchive``) writes no ``kyotaku`` either:
    the deposits follow from the riichi sticks and the wins."""
    items = events(GIMITE)
    for event in items:
        if event["type"] == "start_kyoku":
            del event["kyotaku"]
    assert read_bytes(written(items)).hands == read_bytes(GIMITE.read_bytes()).hands


def scores_after_east_3(items: list[dict[str, Any]]) -> None:
    nth(items, "hora", 2)["scores"][0] += 100


def value_of_east_2(items: list[dict[str, Any]]) -> None:
    ron = nth(items, "hora", 1)  # seat 2's 30 fu 2 han ron: 2,000
    assert ron["hora_points"] == 2000
    ron["hora_points"] = 2100


@pytest.mark.parametrize(
    ("edit", "hand", "why"),
    [
        (scores_after_east_3, "E3 0 honba", "the scores after the payments the log states"),
        (value_of_east_2, "E2 0 honba", "the win's value the log states"),
    ],
    ids=["scores-after", "win-value"],
)
def test_an_edited_figure_of_the_original_servers_log_is_refused_naming_the_hand(edit, hand, why):
    items = events(GIMITE)
    edit(items)
    refused = refusal(written(items))
    assert isinstance(refused, LogAltered)
    assert refused.hand == hand and why in str(refused)
    if edit is value_of_east_2:
        assert (refused.ours, refused.theirs) == ((0, 0, 2000, 0), (0, 0, 2100, 0))


def test_the_original_servers_deltas_and_final_scores_are_checked():
    items = events(GIMITE)
    ron = nth(items, "hora", 3)  # East 4: seat 2's ron on seat 0, 7,700
    ron["deltas"] = [-7600, 0, 7600, 0]
    refused = refusal(written(items))
    assert isinstance(refused, LogMismatch) and refused.hand == "E4 0 honba"
    items = events(GIMITE)
    nth(items, "end_game", 0)["scores"][1] += 100
    refused = refusal(written(items))
    assert refused.figure == "final scores" and refused.hand == "S4 0 honba"


def test_the_original_servers_log_imports(db, tmp_path):
    out, err = io.StringIO(), io.StringIO()
    with override("en"):
        call_command("import_games", str(GIMITE), "--create-members", stdout=out, stderr=err)
    assert "imported mjai" in out.getvalue(), err.getvalue()
    game = Hanchan.objects.get()
    assert [s.final_score for s in game.seats.order_by("index")] == [17200, 13500, 35600, 33700]
    assert OnlineGame.objects.get(hanchan=game).log_format == "mjai"


# -- mortal-sanma's numbering ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "labels", "final", "points"),
    [
        (
            SANMA2,
            ["E1 0", "E1 1", "E2 0", "E3 0", "S1 0", "S2 0", "S3 0", "S3 1", "S3 2"],
            [70000, 18000, 17000],
            [65000, -22000, -43000],
        ),
        (
            NUKI,
            ["E1 0", "E1 1", "E2 0", "E3 0", "E3 1", "S1 0", "S1 1", "S2 0", "S3 0", "S3 1"],
            [51600, -2300, 55700],
            [11600, -62300, 50700],
        ),
    ],
    ids=["sample2", "sample-nuki"],
)
def test_mortal_sanmas_logs_are_read_by_tenhous_round_numbers(path, labels, final, points):
    # South 1 as the converter writes it: "S", 2, dealer seat 1.
    south = next(e for e in events(path) if e["type"] == "start_kyoku" and e["bakaze"] == "S")
    assert (south["kyoku"], south["oya"]) == (2, 1)
    log = read_bytes(path.read_bytes())
    assert [f"{h.round} {h.honba}" for h in log.hands] == labels
    verified = verify(log)
    assert verified.ruleset == "tenhou-3p"
    assert_hand_exact(log, verified)
    # The games' own results as Tenhou wrote them (sample.xml's owari; tenhou6-3.json's sc).
    assert verified.final["scores"] == final
    assert verified.final["points"] == points


def test_an_edited_mortal_sanma_log_is_refused_naming_the_hand_by_tenhous_round():
    items = events(SANMA2)
    # The fifth hand, South 1 (written "S" 2): seat 1's tsumo, 100 moved in its deltas.
    hora = nth(items, "hora", 4)
    assert hora["deltas"] == [-6000, 10000, -3000]
    hora["deltas"] = [-6100, 10100, -3000]
    refused = refusal(written(items))
    assert refused.hand == "S1 0 honba"


# -- a hand with no result event -------------------------------------------------------------


def test_a_hand_without_a_result_event_that_goes_on_is_read_as_the_next_hand_says():
    log = read_bytes(SANMA3.read_bytes())
    verified = verify(log)
    assert_hand_exact(log, verified)
    by_label = dict(zip([h.label for h in log.hands], verified.record["hands"], strict=True))
    # 九種九牌 (Tenhou's JSON of the game): an abortive draw, the dealer keeps the deal.
    assert by_label["S1 1 honba"] == {"result": "abort", "kind": "kyuushu_kyuuhai"}
    assert by_label["S2 1 honba"] == {"result": "abort", "kind": "kyuushu_kyuuhai"}
    # 全員聴牌 with two riichi: the sticks stay on the table for the next hand.
    assert by_label["S1 3 honba"] == {"result": "draw", "tenpai": [0, 1, 2], "riichi": [1, 2]}
    assert log.hands[9].label == "S1 4 honba" and log.hands[9].deposits == 2000
    assert verified.final["scores"] == [56900, 39100, 9000]


def test_a_hand_without_a_result_event_is_still_checked_and_a_last_one_refused():
    items = events(SANMA3)
    # The start of the hand after the first 九種九牌: 1,000 moved from seat 0 to seat 1.
    after_abort = nth(items, "start_kyoku", 7)
    assert after_abort["scores"] == [51600, 23800, 29600]
    after_abort["scores"] = [50600, 24800, 29600]
    refused = refusal(written(items))
    assert refused.hand == "S1 1 honba"
    # A log that stops after a hand began, with no result and no next hand.
    items = events(SANMA3)
    last = max(i for i, e in enumerate(items) if e["type"] == "hora")
    del items[last]
    with pytest.raises(LogError, match="stops in the middle of the hand"):
        read_bytes(written(items))


def test_the_converters_own_draws_without_deltas_are_read(tmp_path):
    """Today's converter writes ``{"type": "ryukyoku"}`` with no deltas for 九種九牌 and
    全員聴牌 (``scripts/tenhou6_to_mjai.py``): a draw stating no figure."""
    items = events(SANMA3)
    out: list[dict[str, Any]] = []
    for event in items:
        if event["type"] == "end_kyoku" and out[-1]["type"] not in ("hora", "ryukyoku"):
            out.append({"type": "ryukyoku"})
        out.append(event)
    log = read_bytes(written(out))
    verified = verify(log)
    assert_hand_exact(log, verified)
    assert verified.final["scores"] == [56900, 39100, 9000]


# -- a log with no player names -------------------------------------------------------------


def nameless(names: Any) -> bytes:
    items = events(GIMITE)
    if names is None:
        del items[0]["names"]
    else:
        items[0]["names"] = names
    return written(items)


@pytest.mark.parametrize("names", [[], ["", "", "", ""], None], ids=["empty", "blank", "none"])
def test_a_log_with_no_player_names_is_read_with_its_seats_nameless(names):
    log = read_bytes(nameless(names))
    assert log.players == ("seat 1", "seat 2", "seat 3", "seat 4")
    assert log.nameless == (0, 1, 2, 3)
    assert verify(log).final["scores"] == [17200, 13500, 35600, 33700]


def run(*args: str) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with override("en"):
        try:
            call_command("import_games", *args, stdout=out, stderr=err)
        except CommandError as failed:
            code = failed.returncode
    return out.getvalue(), err.getvalue(), code


def test_a_nameless_log_is_refused_saying_so_and_stored_with_map_by_seat(db, tmp_path):
    path = tmp_path / "arena.mjson"
    path.write_bytes(nameless([]))
    _, err, code = run(str(path), "--create-members")
    assert code == 2
    assert "the log gives no player names" in err
    assert '--map "seat 1=member"' in err
    assert Hanchan.objects.count() == 0
    members = [make_member(f"m{n}", name, "えー") for n, name in enumerate("ABCD")]
    maps = [f"--map=seat {n}={name}" for n, name in enumerate("ABCD", start=1)]
    out, err, code = run(str(path), *maps)
    assert code == 0, err
    game = Hanchan.objects.get()
    assert [s.member for s in game.seats.order_by("index")] == members
    # A seat's placeholder name is no one's online name.
    assert not OnlineName.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The log gives no player names (seats 1, 2, 3, 4)"),
        ("ja", "このログには打ち手の名前がありません（席 1, 2, 3, 4）"),
    ],
)
def test_the_upload_page_says_a_log_has_no_player_names_and_the_way_on(
    staff_member, language, words
):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(staff_member.user)
    upload = SimpleUploadedFile("arena.mjson", nameless(["", "", "", ""]))
    response = client.post(reverse("game_import"), {"logs": [upload], "create_members": "on"})
    html = response.content.decode()
    assert words in html
    assert "--map &quot;seat 1=" in html
    assert Hanchan.objects.count() == 0


def test_a_steward_chooses_the_member_at_each_nameless_seat_on_the_upload_page(staff_member):
    members = [make_member(f"m{n}", name, "えー") for n, name in enumerate("ABCD")]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    page = client.get(reverse("game_import")).content.decode()
    assert "A log with no player names" in page and 'name="seat_4"' in page
    chosen = {f"seat_{n}": member.pk for n, member in enumerate(reversed(members), start=1)}
    # The choice goes with every file of the upload, and only to seats without a name: the
    # named game keeps its players (new members, by name).
    named = SimpleUploadedFile("named.jsonl", (DATA / "mjai" / "126_204_0_mjai.jsonl").read_bytes())
    upload = SimpleUploadedFile("arena.mjson", nameless([]))
    response = client.post(
        reverse("game_import"), {"logs": [upload, named], "create_members": "on", **chosen}
    )
    html = response.content.decode()
    assert "Stored: 2. Refused: 0." in html, html
    arena, copy = Hanchan.objects.order_by("pk")
    assert [s.member for s in arena.seats.order_by("index")] == members[::-1]
    assert [s.member.display_name for s in copy.seats.order_by("index")] == ["0", "1", "2", "3"]
    assert not OnlineName.objects.filter(name__startswith="seat").exists()


def test_a_member_is_not_offered_the_members_by_seat(member):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member.user)
    page = client.get(reverse("game_import")).content.decode()
    assert 'name="seat_1"' not in page
