"""Altered online logs are refused.

Every figure a log states is compared with the engine's, not only the scores at the start of
each hand: each hand's own changes (Tenhou JSON's delta arrays, mjlog's ``AGARI``/``RYUUKYOKU``
``sc``, mjai's ``deltas`` and ``scores``), each win's value (mjlog ``ten``, the JSON's result
string) and the final scores (``owari``, the JSON's ``sc``, mjai's ``end_game``). A log that
disagrees is refused in one line naming the hand, with the engine's figure and the log's; the
real logs, untouched, still import (tests/test_online_logs.py imports all 86).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils.translation import override

from clubsite.models import Member
from scoring.models import Hanchan
from scoring.online.log import LogAltered, LogMismatch
from scoring.online.reading import read_game_file
from scoring.online.verify import verify

DATA = Path(__file__).parent / "data" / "online"
# East only, four hands: E1 tsumo, E2 tsumo, E3 ron 7,700, E4 ron 1,000.
JSON_LOG = DATA / "tenhou-json" / "2022081017gm-00e1-0000-2df24853.json"
# Ten hands; East 3 is seat 0's riichi tsumo (sc="220,99,160,-20,260,-39,340,-20").
MJLOG = DATA / "mjlog" / "2019082700gm-00a9-0000-63d1f136.mjlog"
E3_SC = 'sc="220,99,160,-20,260,-39,340,-20"'
# East 4 is a double ron on seat 3: seat 0 (7,700 and both sticks), then seat 2 (8,000).
DOUBLE_RON = DATA / "mjlog" / "double-ron.mjlog"
MJAI = DATA / "mjai" / "126_204_0_mjai.jsonl"


def verified_from(raw: bytes, name: str):
    log = read_game_file(raw, name).log
    assert log is not None
    return verify(log)


def refusal(raw: bytes, name: str) -> LogMismatch:
    with pytest.raises(LogMismatch) as refused:
        verified_from(raw, name)
    return refused.value


def json_log() -> dict:
    return json.loads(JSON_LOG.read_bytes())


def json_bytes(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def import_games(path: Path) -> tuple[str, str, int]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with override("en"):
        try:
            call_command("import_games", str(path), "--create-members", stdout=out, stderr=err)
        except CommandError as failed:
            code = failed.returncode
    return out.getvalue(), err.getvalue(), code


# -- each hand's own changes ------------------------------------------------------------------


def test_a_one_point_edit_of_a_middle_hands_delta_is_refused_naming_that_hand():
    data = json_log()
    # East 2's delta array: seat 0's tsumo of 400/700 written as 1,501. The start scores of
    # East 3, from which the hand's changes were taken before, still say 1,500.
    data["log"][1][16][1][0] += 1
    refused = refusal(json_bytes(data), JSON_LOG.name)
    assert isinstance(refused, LogAltered)
    assert (refused.hand, refused.round, refused.honba) == ("E2 0 honba", "E2", 0)
    assert refused.ours == (1500, -700, -400, -400)
    assert refused.theirs == (1501, -700, -400, -400)
    assert str(refused) == (
        "E2 0 honba: the engine gives [1500, -700, -400, -400], the log [1501, -700, -400, "
        "-400] (the changes the log states, 和了 of seat 0)"
    )


def test_the_edited_json_log_is_refused_by_the_command_in_one_line_storing_nothing(db, tmp_path):
    data = json_log()
    data["log"][1][16][1][0] += 1
    bad = tmp_path / JSON_LOG.name
    bad.write_bytes(json_bytes(data))
    out, err, code = import_games(bad)
    assert code == 2
    [line] = err.splitlines()
    assert line.startswith(f"{bad}: E2 0 honba: the engine gives [1500, -700, -400, -400]")
    assert Hanchan.objects.count() == 0 and Member.objects.count() == 0


def test_100_moved_between_two_players_in_an_mjlog_agari_sc_is_refused():
    text = MJLOG.read_text()
    assert text.count(E3_SC) == 1
    # Seat 0's change 9,900 → 10,000, seat 1's −2,000 → −2,100: it still adds up.
    moved = text.replace(E3_SC, 'sc="220,100,160,-21,260,-39,340,-20"')
    refused = refusal(moved.encode(), MJLOG.name)
    assert isinstance(refused, LogAltered)
    assert refused.hand == "E3 0 honba"
    # The riichi stick seat 0 put out is in the engine's changes, not in sc's.
    assert refused.ours == (8900, -2000, -4900, -2000)
    assert refused.theirs == (9000, -2100, -4900, -2000)
    assert "the changes the log states, AGARI of seat 0" in str(refused)


def test_100_moved_in_the_scores_an_mjlog_sc_starts_from_is_refused():
    moved = MJLOG.read_text().replace(E3_SC, 'sc="221,99,159,-20,260,-39,340,-20"')
    refused = refusal(moved.encode(), MJLOG.name)
    assert refused.hand == "E3 0 honba"
    assert refused.theirs == (9000, -2100, -4900, -2000)
    assert "the scores before the payments the log states, AGARI of seat 0" in str(refused)


@pytest.mark.parametrize(
    ("written", "edited"),
    [
        # The first win's scores, then the second's: each follows from the one before.
        ('sc="237,97,360,0,240,0,143,-77"', 'sc="238,97,360,0,240,0,142,-77"'),
        ('sc="334,0,360,0,240,80,66,-80"', 'sc="333,0,360,0,240,80,67,-80"'),
    ],
    ids=["first-win", "second-win"],
)
def test_each_win_of_a_double_ron_is_checked(written, edited):
    text = DOUBLE_RON.read_text()
    assert text.count(written) == 1
    refused = refusal(text.replace(written, edited).encode(), DOUBLE_RON.name)
    assert refused.hand == "E4 0 honba"
    assert refused.ours == (8700, 0, 7000, -15700)


def test_an_mjai_hora_whose_deltas_were_edited_is_refused():
    text = MJAI.read_text()
    edited = text.replace('"deltas":[0,0,3300,-1300]', '"deltas":[0,100,3200,-1300]')
    assert edited != text
    refused = refusal(edited.encode(), MJAI.name)
    assert refused.hand == "E2 0 honba"
    assert (refused.ours, refused.theirs) == ((0, 0, 2300, -2300), (0, 100, 2200, -2300))


def mjai_with_scores() -> list[dict]:
    """The mjai log with each hand's ``hora``/``ryukyoku`` carrying ``scores`` after it (the
    next hand's start scores), as some writers give them."""
    events = [json.loads(line) for line in MJAI.read_text().splitlines() if line.strip()]
    starts = [i for i, e in enumerate(events) if e["type"] == "start_kyoku"]
    for here, nxt in zip(starts, starts[1:], strict=False):
        ends = [e for e in events[here:nxt] if e["type"] in ("hora", "ryukyoku")]
        if len(ends) == 1:
            ends[0]["scores"] = events[nxt]["scores"]
    return events


def mjai_bytes(events: list[dict]) -> bytes:
    return "\n".join(json.dumps(e) for e in events).encode()


def test_the_scores_an_mjai_hora_states_after_it_are_checked():
    events = mjai_with_scores()
    verified_from(mjai_bytes(events), MJAI.name)  # as written: accepted
    [hora] = [e for e in events if e.get("deltas") == [0, 0, 3300, -1300]]
    hora["scores"] = [21000, 22100, 25200, 31700]
    refused = refusal(mjai_bytes(events), MJAI.name)
    assert refused.hand == "E2 0 honba"
    assert refused.theirs == (0, 100, 2200, -2300)
    assert "the scores after the payments the log states, hora at line" in str(refused)


# -- each win's value -------------------------------------------------------------------------


def test_a_wins_value_the_log_states_is_checked():
    data = json_log()
    # East 3: 30 fu 4 han ron is 7,700 (no kiriage); the changes still say 7,700.
    data["log"][2][16][2][3] = "30符4飜8000点"
    refused = refusal(json_bytes(data), JSON_LOG.name)
    assert isinstance(refused, LogAltered)
    assert refused.hand == "E3 0 honba" and refused.figure == "win value"
    assert (refused.ours, refused.theirs) == ((0, 0, 0, 7700), (0, 0, 0, 8000))

    text = MJLOG.read_text()
    ten = re.search(r'<AGARI [^>]*ten="(\d+),(\d+),(\d+)"[^>]*' + E3_SC, text)
    assert ten is not None
    edited = text.replace(
        ten[0], ten[0].replace(f'ten="{ten[1]},{ten[2]},', f'ten="{ten[1]},{int(ten[2]) + 100},')
    )
    refused = refusal(edited.encode(), MJLOG.name)
    assert refused.hand == "E3 0 honba" and refused.figure == "win value"
    assert refused.theirs[0] == refused.ours[0] + 100


# -- the final scores -------------------------------------------------------------------------


def test_an_edited_owari_final_score_is_refused():
    text = MJLOG.read_text()
    owari = re.search(r'owari="([^"]*)"', text)
    assert owari is not None and owari[1] == "110,-39.0,121,-28.0,443,54.0,326,13.0"
    edited = text.replace(owari[0], 'owari="111,-39.0,120,-28.0,443,54.0,326,13.0"')
    refused = refusal(edited.encode(), MJLOG.name)
    assert refused.hand == "S4 0 honba" and refused.figure == "final scores"
    assert refused.ours == (11000, 12100, 44300, 32600)
    assert refused.theirs == (11100, 12000, 44300, 32600)
    assert str(refused) == (
        "S4 0 honba: the engine gives [11000, 12100, 44300, 32600], the log [11100, 12000, "
        "44300, 32600] (the final scores under tenhou-4p)"
    )


def test_an_edited_final_score_of_a_json_log_is_refused():
    data = json_log()
    assert data["sc"][:8:2] == [18100, 22900, 27100, 31900]
    data["sc"][0] += 100
    data["sc"][2] -= 100
    refused = refusal(json_bytes(data), JSON_LOG.name)
    assert refused.hand == "E4 0 honba" and refused.figure == "final scores"
    assert (refused.ours, refused.theirs) == (
        (18100, 22900, 27100, 31900),
        (18200, 22800, 27100, 31900),
    )


def test_an_edited_settlement_is_reported_and_the_engines_is_what_counts():
    """The log's settlement is the service's of its day (2009 East-only uma, 2018 rounding of
    three-player results), so a different one is reported, not refused: what is stored is
    the engine's, the log's settlement is never stored (docs/online-logs.md)."""
    text = MJLOG.read_text()
    edited = text.replace("110,-39.0,121,-28.0", "110,-29.0,121,-38.0")
    verified = verified_from(edited.encode(), MJLOG.name)
    assert verified.final["points"] == [-39000, -28000, 54000, 13000]
    assert "the log's [-29000, -38000, 54000, 13000]" in verified.settlement_note


# -- untouched, they import --------------------------------------------------------------------


@pytest.mark.parametrize("path", [JSON_LOG, MJLOG, DOUBLE_RON, MJAI], ids=lambda p: p.name)
def test_the_untouched_logs_still_import(db, path):
    out, err, code = import_games(path)
    assert (code, err) == (0, "")
    game = Hanchan.objects.get()
    assert f"as game {game.pk}" in out


def test_the_mjai_log_with_consistent_scores_imports(db, tmp_path):
    path = tmp_path / MJAI.name
    path.write_bytes(mjai_bytes(mjai_with_scores()))
    out, err, code = import_games(path)
    assert (code, err) == (0, "")
    assert Hanchan.objects.count() == 1


def test_the_upload_page_refuses_an_altered_log_naming_the_hand(staff_member):
    data = json_log()
    data["log"][1][16][1][0] += 1
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(staff_member.user)
    upload = SimpleUploadedFile(JSON_LOG.name, json_bytes(data))
    html = client.post(
        reverse("game_import"), {"logs": [upload], "create_members": "on"}
    ).content.decode()
    assert "Stored: 0. Refused: 1." in html
    assert "East 2 0 honba: the log&#x27;s changes are +1,501 / −700 / −400 / −400" in html
    assert Hanchan.objects.count() == 0


@pytest.mark.parametrize(
    ("language", "edit", "sentence"),
    [
        (
            "en",
            "final",
            "East 4 0 honba: the log&#x27;s final scores are 18,200 / 22,800 / 27,100 / 31,900, "
            "the engine&#x27;s 18,100 / 22,900 / 27,100 / 31,900. Nothing was stored.",
        ),
        (
            "en",
            "value",
            "East 3 0 honba: the log&#x27;s value of the win is 8,000, the engine&#x27;s 7,700.",
        ),
        ("ja", "final", "ログの最終持ち点は 18,200 / 22,800 / 27,100 / 31,900、計算では"),
        ("ja", "value", "ログの和了点は 8,000、計算では 7,700 です。"),
    ],
)
def test_the_upload_page_names_the_figure_that_differs(staff_member, language, edit, sentence):
    data = json_log()
    if edit == "final":
        data["sc"][0] += 100
        data["sc"][2] -= 100
    else:
        data["log"][2][16][2][3] = "30符4飜8000点"
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(staff_member.user)
    upload = SimpleUploadedFile(JSON_LOG.name, json_bytes(data))
    html = client.post(
        reverse("game_import"), {"logs": [upload], "create_members": "on"}
    ).content.decode()
    assert sentence in html
    assert Hanchan.objects.count() == 0
