"""How ``make bench`` turns rounds into figures (benchmarks/timing.py): the median with its
spread and the best beside it, a warm-up round left out, rounds in turns, and a target judged
on the median; and the report lines built from fixed rounds."""

from __future__ import annotations

import pytest

from benchmarks import timing
from benchmarks.online_import import store_report
from benchmarks.whatif import whatif_report


class FakeClock:
    """A clock that each work moves by its own fixed steps, one per call of that work."""

    def __init__(self) -> None:
        self.now = 0.0

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def test_the_figure_of_fixed_rounds() -> None:
    rates = timing.figure([1_300.0, 1_100.0, 1_234.0, 1_350.0, 1_000.0])
    assert rates.median == 1_234.0
    # statistics.quantiles' inclusive method: 1 + (n - 1) p, within the rounds' range.
    assert rates.p10 == pytest.approx(1_040.0)
    assert rates.p90 == pytest.approx(1_330.0)
    assert rates.best == 1_350.0
    assert rates.rounds == 5
    assert rates.spread_text() == "(p10-p90 1,040.0-1,330.0; best 1,350.0; 5 rounds)"

    eleven = timing.figure([float(n) for n in range(11, 0, -1)], higher_is_better=False)
    assert (eleven.median, eleven.p10, eleven.p90, eleven.best) == pytest.approx(
        (6.0, 2.0, 10.0, 1.0)
    )
    assert timing.figure([4.0]) == timing.Figure(4.0, 4.0, 4.0, 4.0, 1)
    with pytest.raises(ValueError, match="no rounds"):
        timing.figure([])


def test_the_target_is_the_medians_not_the_best() -> None:
    # One lucky round reaches the target; the median does not: below target.
    rates = timing.figure([90.0, 95.0, 250.0])
    assert rates.best >= 200 and not timing.meets(rates, 200)
    assert timing.meets(rates, 95.0)
    # Times: one quick round under the limit does not make a slow page ok.
    times = timing.figure([70.0, 65.0, 40.0], higher_is_better=False)
    assert times.best == 40.0 and not timing.meets(times, 60.0)
    assert timing.meets(times, 65.0)
    assert timing.ratio(timing.figure([3.0, 4.0, 9.0]), timing.figure([2.0, 1.0, 2.0])) == 2.0


def test_median_rates_leave_out_the_warm_up_and_take_turns() -> None:
    clock = FakeClock()
    calls: list[str] = []
    # Work a takes 1 s a call, except its warm-up (10 s, as an import or a cold cache would);
    # work b takes 2, 4, 2, 8 s; each does 100 items a call.
    a_seconds = iter([10.0, 1.0, 1.0, 1.0])
    b_seconds = iter([5.0, 2.0, 4.0, 8.0])

    def a() -> int:
        calls.append("a")
        clock.advance(next(a_seconds))
        return 100

    def b() -> int:
        calls.append("b")
        clock.advance(next(b_seconds))
        return 100

    rate_a, rate_b = timing.median_rates(a, b, rounds=3, clock=clock)
    assert calls == ["a", "b"] * 4
    assert (rate_a.median, rate_a.best, rate_a.rounds) == (100.0, 100.0, 3)
    assert rate_b.median == 25.0 and rate_b.best == 50.0
    assert rate_b.p10 == pytest.approx(15.0) and rate_b.p90 == pytest.approx(45.0)
    assert timing.ratio(rate_a, rate_b) == 4.0


def test_time_in_turns_warms_each_work_once_first() -> None:
    clock = FakeClock()
    calls: list[str] = []
    times = timing.time_in_turns(
        [lambda: clock.advance(3.0), lambda: clock.advance(0.5)],
        2,
        lambda index: calls.append(f"use {index}"),
        clock=clock,
    )
    assert calls == ["use 0", "use 1"] * 3
    assert times == [[3.0, 3.0], [0.5, 0.5]]


def test_the_load_line() -> None:
    line = timing.load_line("at the start", load=lambda: (0.5, 1.25, 2.0))
    assert line.startswith("load average at the start: 0.50 1.25 2.00 (1, 5, 15 min; ")
    assert line.endswith(" cores)")


def test_the_store_reports_verdict_is_the_batchs_median() -> None:
    result = {
        "logs": 40,
        "batch": {
            "rates": [60.0, 80.0, 150.0],
            "store_rates": [200.0, 210.0, 220.0],
            "statements": 12.5,
            "stored": 38,
        },
        "single": {
            "rates": [30.0, 31.0, 32.0],
            "store_rates": [50.0, 51.0, 52.0],
            "statements": 20.0,
            "stored": 38,
        },
    }
    lines = store_report(result)
    batch = lines[1]
    assert batch.startswith("online logs stored per second (a batch)")
    assert "80.0 logs/s" in batch and "target >= 100.0 BELOW TARGET" in batch
    assert batch.endswith("(p10-p90 64.0-136.0; best 150.0; 3 rounds)")
    assert "51.0 logs/s (p10-p90 50.2-51.8; best 52.0; 3 rounds)" in lines[5]
    result["batch"]["rates"] = [90.0, 120.0, 130.0]
    assert "target >= 100.0 ok" in store_report(result)[1]


def test_the_what_if_verdict_is_the_median() -> None:
    result = {
        "games": 1_300,
        "refused": 0,
        "not_reproduced": 0,
        "times_s": [4.0, 6.0, 5.5],
        "cpu_s": [3.0, 3.5, 3.25],
    }
    page = whatif_report(result)[1]
    assert page.startswith("what-if page, a season")
    assert "5.50 s target <= 5.0 ABOVE TARGET (p10-p90 4.30-5.90; best 4.00; 3 rounds)" in page
    result["times_s"] = [4.0, 6.0, 4.5]
    assert "4.50 s target <= 5.0 ok" in whatif_report(result)[1]


def test_the_standings_verdict_is_the_medians() -> None:
    from benchmarks import standings

    def run(years: int, page_ms: list[float]) -> dict[str, object]:
        spread = timing.figure(page_ms, higher_is_better=False)
        cell = {
            "median_ms": spread.median,
            "p10_ms": spread.p10,
            "p90_ms": spread.p90,
            "best_ms": spread.best,
            "queries": 7,
        }
        names = ("month", "all_time", "champions", "player_year", "player_all_time")
        pages = [f"{name}_page" for name in (*names, "year")]
        return {
            "years": years,
            "hanchans": 2_300 * years,
            "seeding_s": 10 * years,
            "measured": {name: dict(cell) for name in (*names, *pages)},
        }

    # 10 years: one round at 30 ms, the median 70 ms: above the 60 ms target.
    lines = standings._report(run(1, [40.0, 41.0, 42.0]), run(10, [30.0, 70.0, 71.0]))
    month = next(line for line in lines if line.startswith("monthly standings page"))
    assert "41.0 (40.2-41.8; best 40.0) ms, 7 q" in month
    assert "70.0 (38.0-70.8; best 30.0) ms, 7 q" in month
    assert month.endswith("1.71x ABOVE TARGET")
    lines = standings._report(run(1, [40.0, 41.0, 42.0]), run(10, [30.0, 45.0, 71.0]))
    month = next(line for line in lines if line.startswith("monthly standings page"))
    assert month.endswith("1.10x ok")


def test_each_part_runs_alone_between_two_load_lines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess
    import sys

    from benchmarks import __main__ as bench

    commands: list[list[str]] = []

    def run(command: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        commands.append(command)
        # The standings part misses a target.
        return subprocess.CompletedProcess(command, 1 if "standings" in command else 0)

    monkeypatch.setattr(bench.subprocess, "run", run)
    monkeypatch.setattr(bench, "load_line", lambda when: f"load average {when}: 1.00")
    assert bench.main(["--only", "standings,engine"]) == 1
    assert commands == [
        [sys.executable, "-m", "benchmarks", "--part", "engine"],
        [sys.executable, "-m", "benchmarks", "--part", "standings"],
    ]
    assert capsys.readouterr().out.splitlines() == [
        "== engine: load average at the start: 1.00",
        "== engine: load average at the end: 1.00",
        "== standings: load average at the start: 1.00",
        "== standings: load average at the end: 1.00",
    ]
    assert bench.main(["--only", "engine"]) == 0
