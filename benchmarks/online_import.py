"""Online game logs read and re-scored per second (issue 22, ``make bench``): every real log
of tests/data/online, by format (Mahjong Soul's own records included), through
:func:`scoring.online.reading.read_game_file` and :func:`scoring.online.verify.verify`: what
an import does before it writes (the ledger's write is the hand-entry benchmark's).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from benchmarks.timing import best_rate
from scoring.online.reading import read_game_file
from scoring.online.verify import verify

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "online"
# Logs re-scored per second, each format (a log is a whole game of 8 to 20 hands): the upload
# page takes 20 files, re-scored in 4 seconds at most. mjai and stripped Mahjong Soul records
# state no han, so every value is tried for each win: they are the slowest.
IMPORT_TARGET = 5.0


def real_logs() -> dict[str, list[tuple[str, bytes]]]:
    """The fixtures' files (``name``, bytes) by format."""
    by_format: dict[str, list[tuple[str, bytes]]] = defaultdict(list)
    for path in sorted(DATA.glob("*/*")):
        if path.suffix not in (".json", ".mjlog", ".xml", ".jsonl"):
            continue
        raw = path.read_bytes()
        game = read_game_file(raw, path.name)
        if game.log is not None:
            by_format[game.log.log_format].append((path.name, raw))
    return by_format


def run_online_import_bench() -> list[str]:
    """Logs read and re-scored per second, each format, as report lines."""
    lines = []
    for log_format, files in sorted(real_logs().items()):

        def work(files: list[tuple[str, bytes]] = files) -> int:
            for name, raw in files:
                log = read_game_file(raw, name).log
                assert log is not None
                verify(log)
            return len(files)

        rate = best_rate(work, rounds=3)
        verdict = "ok" if rate >= IMPORT_TARGET else "BELOW TARGET"
        label = f"online logs re-scored ({log_format}, {len(files)})"
        unit = "logs/s"
        lines.append(f"{label:<44} {rate:>12,.1f} {unit:<12} target >= {IMPORT_TARGET:,} {verdict}")
    return lines


if __name__ == "__main__":
    print("\n".join(run_online_import_bench()))
