"""Hostile game records: ``replay`` and ``import_games`` refuse a record
with a NUL character in its text or a number beyond any game's, in one line on standard error
with exit status 2, and store nothing; chips are bounded by the ruleset, so a game with chips
of 10**12 is never accepted (it could never end: its settlement overflows the ledger)."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from clubsite.models import Member
from scoring.engine import Game, RecordError, load_ruleset, parse_hand, replay_record
from scoring.engine.record_values import check_record_values
from scoring.engine.ruleset import MAX_CHIPS_PER_PAYER
from scoring.engine.ruleset_files import INT_LIMIT
from scoring.models import Hanchan

PLAYERS = ["Aoki", "Baba", "Chiba", "Doi"]
# A yakuman ron off seat 2 busts them under home-nashinashi (27,000 start): the game ends
# after one hand, so its settlement (chips included) is written at once.
CHIPS_RULESET = "home-nashinashi"


def yakuman_ron(**win: Any) -> dict[str, Any]:
    return {"result": "ron", "loser": 2, "wins": [{"winner": 1, "limit": "yakuman", **win}]}


def record(**changes: Any) -> dict[str, Any]:
    """A valid record of a game that ends after its one hand, with ``changes``."""
    return {
        "format": "club-game/1",
        "ruleset": CHIPS_RULESET,
        "players": list(PLAYERS),
        "hands": [yakuman_ron(chips=5)],
        **changes,
    }


def final_scores_record(final_scores: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": CHIPS_RULESET, "players": list(PLAYERS), "final_scores": final_scores}


HOSTILE_RECORDS = {
    "nul_in_a_player_name": record(players=["Ao\x00ki", "Baba", "Chiba", "Doi"]),
    "nul_in_the_venue": record(venue="ビック\x00"),
    "nul_in_the_table": record(table="\x00"),
    "nul_in_a_yaku_name": record(hands=[yakuman_ron(yaku=[{"name": "kokushi\x00", "han": 13}])]),
    "nul_in_a_key": record(**{"no\x00te": "x"}),
    "a_lone_surrogate_in_a_name": record(players=["Aoki\ud800", "Baba", "Chiba", "Doi"]),
    "chips_of_10_to_the_12": record(hands=[yakuman_ron(chips=10**12)]),
    "chips_beyond_64_bits": record(hands=[yakuman_ron(chips=2**70)]),
    "chips_one_beyond_the_bound": record(hands=[yakuman_ron(chips=MAX_CHIPS_PER_PAYER + 1)]),
    "han_beyond_any_game": record(
        hands=[{"result": "ron", "loser": 2, "wins": [{"winner": 1, "han": 10**30}]}]
    ),
    "final_scores_beyond_the_integer_columns": final_scores_record(
        {"scores": [10**12, 54_000 - 10**12, 27_000, 27_000]}
    ),
    "final_chips_beyond_the_integer_columns": final_scores_record(
        {"scores": [27_000] * 4, "chips": [2**40, -(2**40), 0, 0]}
    ),
}


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "game.json"
    # ensure_ascii keeps a lone surrogate writable: the file holds its \\ud800 escape.
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def replay_refusal(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("replay", str(path), stdout=out, stderr=err)
    return int(exited.value.code or 0), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(HOSTILE_RECORDS))
def test_it_replays_no_hostile_record(tmp_path, name):
    status, out, err = replay_refusal(write(tmp_path, HOSTILE_RECORDS[name]))
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.strip(), err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(HOSTILE_RECORDS))
def test_it_imports_no_hostile_record_and_stores_nothing(tmp_path, db, name):
    path = write(tmp_path, HOSTILE_RECORDS[name])
    users = User.objects.count()
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command(
            "import_games", str(path), "--create-members", "--date", "2026-11-20",
            stdout=io.StringIO(), stderr=err,
        )  # fmt: skip
    assert raised.value.returncode == 2
    assert err.getvalue().count("\n") == 1, err.getvalue()
    assert not Hanchan.objects.exists()
    assert not Member.objects.exists() and User.objects.count() == users


def test_the_same_record_with_sane_values_is_imported(tmp_path, db):
    sane = record(venue="ビック", table="1", hands=[yakuman_ron(chips=7)])
    path = write(tmp_path, sane)
    call_command(
        "import_games", str(path), "--create-members", "--date", "2026-11-20",
        stdout=io.StringIO(),
    )  # fmt: skip
    game = Hanchan.objects.get()
    assert game.status == Hanchan.Status.FINISHED
    settlement = replay_record(sane).settlement
    assert settlement is not None and settlement.chips is not None
    assert [seat.chips for seat in game.seats.order_by("index")] == list(settlement.chips)


def test_the_refusals_name_what_is_wrong(tmp_path):
    cases = {
        "nul_in_the_venue": "venue: text with a NUL character",
        "nul_in_a_player_name": "players: text with a NUL character",
        "chips_of_10_to_the_12": "hand 0: wins[0].chips: a number beyond 10,000,000 either way",
        "chips_one_beyond_the_bound": (
            f"hand 0: wins[0].chips: more than {MAX_CHIPS_PER_PAYER} chips from one payer"
        ),
        "han_beyond_any_game": "hand 0: wins[0].han: a number beyond",
    }
    for name, line in cases.items():
        _status, _out, err = replay_refusal(write(tmp_path, HOSTILE_RECORDS[name]))
        assert err.startswith(line), (name, err)


def test_chips_are_bounded_by_the_ruleset():
    ruleset = load_ruleset(CHIPS_RULESET)
    game = Game(ruleset)
    game.play(parse_hand(yakuman_ron(chips=MAX_CHIPS_PER_PAYER), 4, 0))
    assert game.results[0].chips == (0, MAX_CHIPS_PER_PAYER, -MAX_CHIPS_PER_PAYER, 0)
    with pytest.raises(RecordError) as refused:
        Game(ruleset).play(parse_hand(yakuman_ron(chips=MAX_CHIPS_PER_PAYER + 1), 4, 0))
    assert refused.value.code == "chips_out_of_range"
    assert dict(refused.value.params) == {
        "chips": MAX_CHIPS_PER_PAYER + 1,
        "max": MAX_CHIPS_PER_PAYER,
    }
    # A ruleset without chips takes none at all (as before).
    with pytest.raises(RecordError) as none:
        Game(load_ruleset("makura-1.5")).play(parse_hand(yakuman_ron(chips=1), 4, 0))
    assert none.value.code == "no_chips"


def test_a_number_or_text_no_game_has_is_refused_with_a_stable_code():
    with pytest.raises(RecordError) as nul:
        replay_record(HOSTILE_RECORDS["nul_in_the_table"])
    assert (nul.value.code, nul.value.key) == ("text_not_storable", "table")
    with pytest.raises(RecordError) as huge:
        replay_record(HOSTILE_RECORDS["final_scores_beyond_the_integer_columns"])
    assert huge.value.code == "number_out_of_range"
    assert huge.value.key == "final_scores.scores[0]"
    assert dict(huge.value.params) == {"limit": 10_000_000}


TENHOU_LOG = sorted((Path(__file__).parent / "data" / "online" / "tenhou-json").glob("*.json"))[0]


@pytest.mark.parametrize("name", ["k-doc\x00tor", "k-doc\ud800tor"])
def test_an_online_log_with_a_name_no_database_stores_is_refused(tmp_path, member, name):
    log = json.loads(TENHOU_LOG.read_text(encoding="utf-8"))
    log["name"][0] = name
    path = write(tmp_path, log)
    err = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command(
            "import_games", str(path), "--create-members", stdout=io.StringIO(), stderr=err
        )
    assert raised.value.returncode == 2
    assert "players: text with" in err.getvalue() and err.getvalue().count("\n") == 1
    client = Client()
    client.force_login(member.user)
    client.raise_request_exception = False
    with path.open("rb") as upload:
        response = client.post(reverse("game_import"), {"logs": upload})
    assert response.status_code == 200  # the page again, saying what is wrong
    assert not Hanchan.objects.exists()


def _slow_fault(value: Any) -> bool:
    """The value-by-value reading of what check_record_values refuses (no quick path)."""
    if isinstance(value, str):
        return "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > INT_LIMIT
    if isinstance(value, dict):
        return any(_slow_fault(str(k)) or _slow_fault(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_slow_fault(v) for v in value)
    return False


def test_the_check_of_a_records_values_agrees_with_a_plain_reading() -> None:
    """check_record_values (scoring/engine/record_values.py: a quick scan, then the paths only
    to name a fault found) over random records with faults and near-faults (a typed
    backslash-u, 8-digit names, the limit itself, emoji, negative numbers, floats): it refuses
    exactly what a plain value-by-value reading calls a fault."""
    rng = random.Random(20261129)
    pieces = [
        "Aoki",
        "青木",
        "🀄 x",
        "\\u0000",
        "a\x00b",
        "\ud800",
        "\udc00x",
        "12345678",
        "x\\",
        7,
        -7,
        INT_LIMIT,
        -INT_LIMIT,
        INT_LIMIT + 1,
        -(INT_LIMIT + 1),
        10**12,
        True,
        None,
        1.5,
        1e300,
    ]

    def random_value(depth: int) -> Any:
        roll = rng.random()
        if depth > 3 or roll < 0.5:
            return rng.choice(pieces)
        if roll < 0.75:
            return [random_value(depth + 1) for _ in range(rng.randrange(4))]
        return {str(rng.choice(pieces)): random_value(depth + 1) for _ in range(rng.randrange(4))}

    faults = 0
    for _ in range(3000):
        value = {"hands": [random_value(0) for _ in range(rng.randrange(1, 4))]}
        fault = _slow_fault(value)
        faults += fault
        try:
            check_record_values(value)
        except RecordError:
            assert fault, value
        else:
            assert not fault, value
    assert 300 < faults < 2700  # both kinds well represented
