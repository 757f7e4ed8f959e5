"""The offline panel agrees with the engine: for every shipped ruleset,
1,000 generated sequences of the hands offline offers (a ron with one winner, a tsumo, an
exhaustive draw, with riichi) are played through the engine (scoring.engine.Game) and through
static/js/offline_table.js under Node, fed only offline_rules's data; every figure the offline
code shows (each seat's change, the scores, the deposits, the round, honba and dealer after,
the end of the game) is the engine's, and every hand it calls refused, the engine refuses."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from scoring.engine import Game, RecordError, available_rulesets, load_ruleset, parse_hand
from scoring.entry.all_last import pad_conditions
from scoring.entry.offline_data import offline_rules, offline_values_file, win_of
from scoring.entry.pad_values import value_choices
from scoring.views.all_last_panel import all_last_rows, can_end_game

SEQUENCES = 1000
TABLE_JS = Path(__file__).resolve().parent.parent / "static" / "js" / "offline_table.js"
# Reads {ruleset id: {rules, start, sequences}} on stdin; writes the results per sequence.
DRIVER = """
const table = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = {};
  for (const [id, run] of Object.entries(JSON.parse(input))) {
    out[id] = run.sequences.map((hands) => table.advanceAll(run.rules, run.start, hands).results);
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def offline_hand(rng: random.Random, players: int, values: list[str]) -> dict[str, Any]:
    """A hand as the offline panel keeps it: outcome, seats, a pad value, riichi."""
    outcome = rng.choice(("ron", "tsumo", "draw"))
    hand: dict[str, Any] = {
        "outcome": outcome,
        "winner": None,
        "loser": None,
        "value": None,
        "tenpai": [],
        "riichi": sorted(s for s in range(players) if rng.random() < 0.15),
    }
    if outcome == "draw":
        hand["tenpai"] = sorted(s for s in range(players) if rng.random() < 0.5)
        return hand
    hand["winner"] = rng.randrange(players)
    if outcome == "ron":
        hand["loser"] = rng.choice([s for s in range(players) if s != hand["winner"]])
    # Mostly the cheap values a game is made of, so that games run to their end; now and then
    # any value of the pad, those the engine refuses for this outcome included.
    hand["value"] = rng.choice(values[:12] if rng.random() < 0.8 else values)
    return hand


def record_hand(hand: dict[str, Any]) -> dict[str, Any]:
    """The record hand the server makes of the panel's hand (its fields as sent)."""
    out: dict[str, Any] = {"result": hand["outcome"]}
    if hand["outcome"] == "draw":
        out["tenpai"] = hand["tenpai"]
    else:
        out["wins"] = [{"winner": hand["winner"], **win_of(hand["value"])}]
        if hand["outcome"] == "ron":
            out["loser"] = hand["loser"]
    if hand["riichi"]:
        out["riichi"] = hand["riichi"]
    return out


def engine_results(rule_id: str, hands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's answer per hand: refused, over (the game had ended), or its figures."""
    rs = load_ruleset(rule_id)
    game = Game(rs)
    n = rs.players
    out: list[dict[str, Any]] = []
    for hand in hands:
        if game.ended_by is not None:
            out.append({"status": "over"})
            continue
        try:
            result = game.play(parse_hand(record_hand(hand), n, game.hands_played))
        except RecordError:
            out.append({"status": "refused"})
            # The outbox stops at a refused hand: nothing after it is compared.
            break
        out.append(
            {
                "status": "ok",
                "deltas": list(result.deltas),
                "scores": list(result.scores),
                "deposits": result.deposits_after,
                "ended": game.ended_by,
                "position": game.wind_index * n + game.hand_number,
                "honba": game.honba,
            }
        )
    return out


def differences(js: dict[str, Any], engine: dict[str, Any]) -> list[str]:
    """Where the offline code shows a figure the engine does not give."""
    if js["status"] == "unknown":
        return []  # no figure shown
    if js["status"] != engine["status"]:
        return [f"status {js['status']} vs {engine['status']}"]
    if js["status"] != "ok":
        return []
    found = [
        f"{key} {js[key]} vs {engine[key]}"
        for key in ("deltas", "scores", "deposits")
        if js[key] != engine[key]
    ]
    after = js["table"]
    if after is None:
        return found  # the table after it: no figure shown
    if after.get("ended"):
        if after["ended"] != engine["ended"]:
            found.append(f"offline ends by {after['ended']}, the engine by {engine['ended']}")
    elif engine["ended"] is not None:
        found.append(f"offline goes on, the engine ends by {engine['ended']}")
    elif (after["position"], after["honba"]) != (engine["position"], engine["honba"]):
        found.append(f"table after {after} vs {engine}")
    return found


# Skipped locally without Node; under CI (CI=true, as .ci/run sets it) a missing Node fails,
# as a missing Chromium does for the browser tests.
@pytest.mark.skipif(
    shutil.which("node") is None and os.environ.get("CI") != "true", reason="needs Node"
)
def test_the_offline_table_agrees_with_the_engine_over_1000_sequences_per_ruleset() -> None:
    rng = random.Random(25)
    runs: dict[str, Any] = {}
    expected: dict[str, list[list[dict[str, Any]]]] = {}
    for rule_id in available_rulesets():
        rs = load_ruleset(rule_id)
        values = [value for value, _label in value_choices(rs, "en")]
        # The pad's common values first (1-4 han at 30 fu and the like): see offline_hand.
        common = [v for v in values if v.endswith("-30") or v.endswith("-40")] + values
        sequences = [
            [offline_hand(rng, rs.players, common) for _ in range(rng.randint(1, 30))]
            for _ in range(SEQUENCES)
        ]
        start = Game(rs).state()
        runs[rule_id] = {
            "rules": offline_rules(rs),
            "start": {
                "position": 0,
                "honba": start.honba,
                "deposits": start.deposits,
                "scores": list(start.scores),
            },
            "sequences": sequences,
        }
        expected[rule_id] = [engine_results(rule_id, hands) for hands in sequences]
    answer = subprocess.run(
        ["node", "-e", DRIVER, str(TABLE_JS)],
        input=json.dumps(runs),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    results = json.loads(answer.stdout)
    found: list[str] = []
    shown = compared = 0
    per_ruleset: dict[str, tuple[int, int]] = {}
    for rule_id, sequences in expected.items():
        ok = total = 0
        for number, (engine_seq, js_seq) in enumerate(
            zip(sequences, results[rule_id], strict=True)
        ):
            for index, engine in enumerate(engine_seq):
                js = js_seq[index]
                total += 1
                ok += js["status"] != "unknown"
                found += [
                    f"{rule_id} sequence {number} hand {index}: {d}"
                    for d in differences(js, engine)
                ]
        per_ruleset[rule_id] = (ok, total)
        shown += ok
        compared += total
    assert found == [], f"{len(found)} differences, first: {found[:5]}"
    # Offline is not silent: most hands get their figures (the rest follow a hand after which
    # a dealer-top end may come, which depends on the ranks; sequences of up to 30 hands run
    # an East-only game well past its all-last). Measured: 62-100 % per ruleset.
    assert all(ok / total > 0.55 for ok, total in per_ruleset.values()), str(per_ruleset)
    assert compared > 13 * SEQUENCES
    assert shown > compared * 0.75, (shown, compared)


ALL_LAST_JS = TABLE_JS.with_name("offline_all_last.js")
TABLES = 200  # per ruleset
WORDED = 40  # of them, per ruleset and language, compared word for word
NAMES = ["Aoki", "Baba", "Chiba", "Endo"]
# Reads {ruleset id: {rules, words: {language: figures file}, tables, worded}}; writes, per
# ruleset, each table's conditions and whether it can end the game, and the rows in words.
ALL_LAST_DRIVER = """
const allLast = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = {};
  for (const [id, run] of Object.entries(JSON.parse(input))) {
    out[id] = {
      conditions: run.tables.map((t) => allLast.conditions(run.rules, t)),
      canEnd: run.tables.map((t) => allLast.canEndGame(run.rules, t)),
      words: Object.fromEntries(Object.entries(run.words).map(([language, data]) => [
        language, run.tables.slice(0, run.worded).map((t) => allLast.rows(data, t, run.names)),
      ])),
    };
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def table_state(rng: random.Random, rs: Any, positions: int, all_last: list[int]) -> dict[str, Any]:
    """A table in play: mostly the all-last hand; scores spread wide, sometimes equal, sometimes
    one seat near a bust; honba and deposits."""
    n = rs.players
    position = rng.choice(all_last) if rng.random() < 0.5 else rng.randrange(positions)
    total = rs.start_points * n
    scores = [rs.start_points] * n
    for _ in range(rng.randint(1, 8)):
        giver, taker = rng.sample(range(n), 2)
        amount = rng.choice((1000, 2000, 3900, 5800, 8000, 12000)) + 100 * rng.randint(0, 30)
        scores[giver] -= amount
        scores[taker] += amount
    if rng.random() < 0.2:
        a, b = rng.sample(range(n), 2)  # a tie for a place
        scores[a] = scores[b] = (scores[a] + scores[b]) // 200 * 100
    if rng.random() < 0.2:
        scores[rng.randrange(n)] = 100 * rng.randint(-10, 120)  # near a bust
    stick = 1000
    deposits = stick * rng.choice((0, 0, 1, 2, 3, 5))
    assert sum(scores) <= total + 100 * n * 100
    return {
        "position": position,
        "honba": rng.choice((0, 0, 1, 2, 3, 5, 8)),
        "deposits": deposits,
        "scores": scores,
    }


def snapshot_of(rs: Any, table: dict[str, Any]) -> dict[str, Any]:
    n = rs.players
    return {
        "hands_played": 5,
        "scores": list(table["scores"]),
        "deposits": table["deposits"],
        "honba": table["honba"],
        "wind_index": table["position"] // n,
        "hand_number": table["position"] % n,
        "chips": [0] * n,
        "win_counts": [0] * n,
    }


def seat_rows(rows: list[Any]) -> list[dict[str, Any]]:
    """The table screen's rows (all_last_rows) in the offline code's shape."""
    return [
        {
            "seat": row.seat,
            "name": row.name,
            "place": row.place,
            "rows": [{"place": place.place, "routes": place.routes} for place in row.rows],
        }
        for row in rows
    ]


@pytest.mark.skipif(
    shutil.which("node") is None and os.environ.get("CI") != "true", reason="needs Node"
)
def test_the_offline_all_last_conditions_are_the_servers() -> None:
    """For 200 tables per shipped ruleset (half at the all-last hand; equal scores, seats near a
    bust, honba, deposits; 3-player rulesets), static/js/offline_all_last.js under Node, fed
    only the figures file, finds the conditions pad_conditions finds, value for value, says
    the hand can end the game where the table screen says so, and words 40 of them per
    ruleset exactly as the table screen does, in English and Japanese."""
    rng = random.Random(36)
    runs: dict[str, Any] = {}
    expected: dict[str, Any] = {}
    for rule_id in available_rulesets():
        rs = load_ruleset(rule_id)
        rules = offline_rules(rs)
        tables = [
            table_state(rng, rs, len(rules["rounds"]), rules["allLast"]) for _ in range(TABLES)
        ]
        conditions, can_end = [], []
        for table in tables:
            game = Game.restore(rs, snapshot_of(rs, table))
            found = pad_conditions(game).to_json()
            conditions.append({"places": found["places"], "seats": found["seats"]})
            can_end.append(can_end_game(rs, {**table, "all_last": game.is_all_last()}))
        names = NAMES[: rs.players]
        words: dict[str, Any] = {}
        worded: dict[str, Any] = {}
        for language in ("en", "ja"):
            with translation.override(language):
                words[language] = json.loads(offline_values_file(rs, language).body)
                worded[language] = [
                    seat_rows(all_last_rows(rs, snapshot_of(rs, t), t, names))
                    for t in tables[:WORDED]
                ]
        runs[rule_id] = {
            "rules": rules,
            "words": words,
            "tables": tables,
            "worded": WORDED,
            "names": names,
        }
        expected[rule_id] = {"conditions": conditions, "canEnd": can_end, "words": worded}
    answer = subprocess.run(
        ["node", "-e", ALL_LAST_DRIVER, str(ALL_LAST_JS)],
        input=json.dumps(runs),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    results = json.loads(answer.stdout)
    found: list[str] = []
    for rule_id, engine in expected.items():
        js = results[rule_id]
        for index, table in enumerate(runs[rule_id]["tables"]):
            if js["conditions"][index] != engine["conditions"][index]:
                found.append(
                    f"{rule_id} {table}: {js['conditions'][index]} vs {engine['conditions'][index]}"
                )
            if js["canEnd"][index] != engine["canEnd"][index]:
                found.append(f"{rule_id} {table}: can end {js['canEnd'][index]}")
        for language, rows in engine["words"].items():
            for index, server in enumerate(rows):
                if js["words"][language][index] != server:
                    found.append(
                        f"{rule_id} {language} {index}: {js['words'][language][index]} vs {server}"
                    )
    assert found == [], f"{len(found)} differences, first: {found[:3]}"
    # The tables are those the panel meets: most can end the game, the rest not; some seat
    # somewhere is out of reach of some place, and direct hits are worded.
    ends = sum(sum(run["canEnd"]) for run in expected.values())
    assert 0.5 * 13 * TABLES < ends < 0.95 * 13 * TABLES, ends
    every = json.dumps(expected, ensure_ascii=False)
    assert '"tsumo": null' in every and "direct hit on" in every and "から直撃" in every
