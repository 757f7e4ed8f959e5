"""Hands valued from their tiles per second: every winning hand of the real Tenhou
games in tests/data/online through :func:`scoring.tiles.evaluate.evaluate`, and the same
hands through the ``mahjong`` package's ``HandCalculator`` alone, in the same run.

Our evaluation is the package's call plus the club rules; the figure to watch is the ratio
(target: at least half the package's rate, i.e. the house rules cost less than the package;
judged on the medians of rounds taken in turns).
"""

from __future__ import annotations

import gzip
from pathlib import Path
from xml.etree import ElementTree

from mahjong.hand_calculating.hand import HandCalculator

from benchmarks.timing import median_rates, ratio
from scoring.engine import load_ruleset
from scoring.online.mjlog_hands import TenhouWin, winning_hands
from scoring.tiles.evaluate import evaluate, package_config, package_meld

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "online"
RATIO_TARGET = 0.5


def real_wins() -> list[TenhouWin]:
    """Every winning hand, with its tiles, of the mjlog fixtures in tests/data/online."""
    wins = []
    for path in sorted([*DATA.glob("mjlog/*"), *DATA.glob("mjlog-gz/*")]):
        raw = path.read_bytes()
        text = gzip.decompress(raw).decode() if raw[:2] == b"\x1f\x8b" else raw.decode()
        wins += winning_hands(ElementTree.fromstring(text))
    return wins


def run_hand_tiles_bench() -> list[str]:
    """Hands per second, ours and the package's, and their ratio, as report lines."""
    wins = real_wins()
    rulesets = {3: load_ruleset("tenhou-3p"), 4: load_ruleset("tenhou-4p")}
    calculator = HandCalculator()
    package_inputs = []
    for win in wins:
        config = package_config(rulesets[win.players], win.tiles, win.situation)
        tiles = list(win.tiles.concealed) + [t for m in win.tiles.melds for t in m.tiles]
        melds = [package_meld(m) for m in win.tiles.melds]
        package_inputs.append((tiles, win.tiles, melds, config))

    def ours() -> int:
        for win in wins:
            evaluate(rulesets[win.players], win.tiles, win.situation)
        return len(wins)

    def package() -> int:
        for tiles, hand, melds, config in package_inputs:
            calculator.estimate_hand_value(
                tiles,
                hand.win_tile,
                melds=melds,
                dora_indicators=list(hand.dora_indicators),
                ura_dora_indicators=list(hand.ura_indicators),
                config=config,
            )
        return len(package_inputs)

    our_rate, their_rate = median_rates(ours, package, rounds=5)
    medians = ratio(our_rate, their_rate)
    verdict = "ok" if medians >= RATIO_TARGET else "BELOW TARGET"
    return [
        f"hands from tiles: {len(wins)} real Tenhou winning hands; median of the rounds, "
        "taken in turns after a warm-up",
        f"{'scoring.tiles evaluate (club rules)':<44} {our_rate.median:>12,.1f} hands/s "
        f"{our_rate.spread_text()}",
        f"{'mahjong HandCalculator alone':<44} {their_rate.median:>12,.1f} hands/s "
        f"{their_rate.spread_text()}",
        f"{'ratio ours / package':<44} {medians:>12,.2f} x            target >= {RATIO_TARGET} "
        f"{verdict} (of the medians)",
    ]


if __name__ == "__main__":
    print("\n".join(run_hand_tiles_bench()))
