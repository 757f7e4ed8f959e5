"""``replay_record`` against the previous one, frozen in ``benchmarks/replay_reference.py``
for the replay benchmark: the same replay of every record, and the same error, word for word,
for a record at fault, however many faults it has (the one that wins unchanged)."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from benchmarks import replay_reference
from scoring.engine import (
    RecordError,
    available_rulesets,
    game_of_record,
    replay_record,
)
from scoring.upkeep.sample_games import sample_records

RECORDS = Path(__file__).parent / "data" / "records"
DATA_RECORDS = sorted(p for p in RECORDS.glob("*/*.json") if not p.name.endswith(".expected.json"))


def outcome(replay: Callable[[Any], Any], record: Any) -> tuple[Any, ...]:
    """What ``replay`` makes of ``record``: its output and the whole replay, or its error's
    every part."""
    try:
        done = replay(record)
    except RecordError as error:
        return ("refused", error.hand_index, error.key, error.code, dict(error.params), str(error))
    return ("replayed", done.to_json(), done)


def game_outcome(of_record: Callable[[Any], Any], record: Any) -> tuple[Any, ...]:
    try:
        game = of_record(record)
    except RecordError as error:
        return ("refused", error.hand_index, error.key, error.code, dict(error.params), str(error))
    return ("played", game.state(), game.results, game.settlement)


@pytest.mark.parametrize("ruleset_id", available_rulesets())
def test_it_replays_the_sample_records_as_the_previous_replay(ruleset_id: str) -> None:
    records = sample_records(ruleset_id, 15)
    for record in records:
        new = outcome(replay_record, record)
        old = outcome(replay_reference.replay_record, record)
        assert new[0] == "replayed"
        # The output document, and every part of the replay (hands, results, payments, ...).
        assert new[1] == old[1]
        assert new[2] == old[2]
        assert game_outcome(game_of_record, record) == game_outcome(
            replay_reference.game_of_record, record
        )


def test_the_benchmark_records_replay_as_the_previous_replay() -> None:
    records = [r for rid in ("makura-1.5", "tenhou-4p") for r in sample_records(rid, 100)]
    for record in records:
        assert replay_record(record) == replay_reference.replay_record(record)


@pytest.mark.parametrize("path", DATA_RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_it_replays_the_records_of_the_tests_data_as_the_previous_replay(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    new = outcome(replay_record, record)
    assert new == outcome(replay_reference.replay_record, record)
    assert new[0] == "replayed"
    assert game_outcome(game_of_record, record) == game_outcome(
        replay_reference.game_of_record, record
    )


def _plain_win_hand(record: dict[str, Any]) -> int:
    return next(
        i
        for i, hand in enumerate(record["hands"])
        if hand["result"] in ("ron", "tsumo") and "han" in hand["wins"][0]
    )


# Faults, each put into a copy of a record; several at once show which one wins.
FAULTS: dict[str, Callable[[dict[str, Any]], None]] = {
    "riichi seat out of range": lambda r: r["hands"][1].update(riichi=[7]),
    "riichi seat twice": lambda r: r["hands"][2].update(riichi=[1, 1]),
    "riichi not a list": lambda r: r["hands"][1].update(riichi=1),
    "loser is the winner": lambda r: r["hands"].__setitem__(
        0, {"result": "ron", "loser": 1, "wins": [{"winner": 1, "han": 2, "fu": 30}]}
    ),
    "a hand after the end": lambda r: r["hands"].append({"result": "draw", "tenpai": []}),
    "hands not a list": lambda r: r.update(hands={"result": "draw"}),
    "a hand not an object": lambda r: r["hands"].__setitem__(3, ["draw"]),
    "unknown hand key": lambda r: r["hands"][4].update(dora=1),
    "key not for the result": lambda r: r["hands"][2].update(offender=0),
    "fu not allowed": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(fu=35),
    "han beyond any number": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(han=10**9),
    "fu beyond any number": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(fu=-(10**9)),
    "chips beyond any number": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(
        chips=10**9
    ),
    "negative chips": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(chips=-1),
    "yaku name with a NUL": lambda r: (
        r["hands"][-1].setdefault("wins", [{}])[0].update(yaku=[{"name": "riichi\x00", "han": 1}])
    ),
    "tiles with a lone surrogate": lambda r: r["hands"][_plain_win_hand(r)]["wins"][0].update(
        tiles={"hand": "123m\ud800", "win_tile": "1m"}
    ),
    "penalty kind with a NUL": lambda r: r["hands"][5].update(
        penalties=[{"seat": 0, "kind": "kara\x00"}]
    ),
    "unknown penalty": lambda r: r["hands"][5].update(penalties=[{"seat": 0, "kind": "kara"}]),
    "player with a NUL": lambda r: r["players"].__setitem__(2, "Chi\x00ba"),
    "player twice": lambda r: r["players"].__setitem__(2, r["players"][0]),
    "venue with a lone surrogate": lambda r: r.update(venue="\udc00"),
    "dealer stops too early": lambda r: r["hands"][0].update(dealer_stops=True),
    "time up not a boolean": lambda r: r["hands"][3].update(time_up=1),
    "chombo not an object": lambda r: r["hands"][2].update(chombo=3),
}


@pytest.mark.parametrize("ruleset_id", ["makura-1.5", "tenhou-4p", "home-nashinashi"])
def test_a_record_at_fault_gets_the_previous_replays_error(ruleset_id: str) -> None:
    rng = random.Random(35)
    records = sample_records(ruleset_id, 6)
    names = sorted(FAULTS)
    codes = set()
    for record in records:
        cases = [[name] for name in names] + [rng.sample(names, 3) for _ in range(25)]
        for faults in cases:
            spoiled = copy.deepcopy(record)
            try:
                for name in faults:
                    FAULTS[name](spoiled)
            except (IndexError, KeyError, AttributeError, StopIteration, TypeError):
                continue  # a fault that this record has no place for, after the others
            new = outcome(replay_record, spoiled)
            assert new == outcome(replay_reference.replay_record, spoiled), faults
            assert game_outcome(game_of_record, spoiled) == game_outcome(
                replay_reference.game_of_record, spoiled
            ), faults
            if new[0] == "refused":
                codes.add(new[3])
    # The faults of the walk that checked a record's values first, and the others.
    assert {
        "text_not_storable",
        "number_out_of_range",
        "seat_out_of_range",
        "loser_is_winner",
        "game_over",
        "hands_not_a_list",
        "dealer_stop_not_all_last",
    } <= codes
