"""The ron/tsumo payment grid of every built-in ruleset, against the ``mahjong`` package.

``hand_payment(rs, han=, fu=, dealer=, tsumo=)`` returns the shape of
``ScoresCalculator.calculate_scores`` (``main``, ``additional``): ron -> (payment, 0); dealer
tsumo -> (each, each); non-dealer tsumo -> (from the dealer, from each non-dealer). For han
1-14 (13 as the usual kazoe threshold, 14 where fuji-sanma's starts), every legal fu, dealer and
non-dealer, ron and tsumo, the engine must equal ScoresCalculator configured as the ruleset's
rules say, except exactly where ``INTENDED_DIFFERENCES`` lists a difference, which must then be
a real one and pay the listed value. Hand-checked values from rules-spec §3 follow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator

from scoring.engine import (
    Game,
    RecordError,
    Ruleset,
    available_rulesets,
    hand_payment,
    legal_fu,
    load_ruleset,
    parse_hand,
)

HANS = range(1, 15)

Pay = tuple[int, int]


class Cell(NamedTuple):
    han: int
    fu: int
    dealer: bool
    tsumo: bool


# The ScoresCalculator options each ruleset is compared with. Counted yakuman is always a single
# yakuman (kazoe_limit=KAZOE_LIMITED, the default; Makura §45h, M-21), and with
# is_three_player the (main, additional) pair is the 4-player one, i.e. tsumo-loss (X-01 a).
REFERENCE_OPTIONS: dict[str, dict[str, Any]] = {
    # §45f (000 L424, 001 L349): 4 han 30 fu and 3 han 60 fu are mangan.
    "makura-1.3": {"kiriage": True},
    "makura-1.5": {"kiriage": True},
    # Kiriage is not stated in 003 (Appendix A: "no ⚠").
    "home-nashinashi": {"kiriage": False},
    # tenhou-rules.md §5: no kiriage [LOG].
    "tenhou-4p": {"kiriage": False},
    # tenhou-rules.md §5: no kiriage, ツモ損 [LOG].
    "tenhou-3p": {"kiriage": False, "is_three_player": True},
    # The East-only presets pay as their East-South ones (only the game's length differs).
    "tenhou-4p-east": {"kiriage": False},
    "tenhou-3p-east": {"kiriage": False, "is_three_player": True},
    # Mahjong Soul: no kiriage (its client's have_qieshangmanguan off); 3-player ツモ損.
    "majsoul": {"kiriage": False},
    "majsoul-east": {"kiriage": False},
    "majsoul-3p": {"kiriage": False, "is_three_player": True},
    "majsoul-3p-east": {"kiriage": False, "is_three_player": True},
    # F-01: every hand is 30 fu with kiriage off; X-01 (a) tsumo-loss.
    "fuji-sanma": {"kiriage": False, "is_three_player": True},
    # 002 S(1) L110 "30符4翻は満貫扱い"; X-01 (a) tsumo-loss. ScoresCalculator's kiriage also
    # makes 60 fu 3 han mangan, which S-16 leaves out: with S-03 (B) it pays the same anyway
    # (7,680 -> 8,000), so this reference needs no difference for it.
    "sanma-float": {"kiriage": True, "is_three_player": True},
}


@dataclass(frozen=True)
class Difference:
    """An intended departure from ScoresCalculator: the rule, the cells, the engine's value."""

    rule: str
    applies: Callable[[Cell, Pay], bool]
    engine_pays: Callable[[Cell, Pay], Pay]


# 004 L50 "3倍満は11ハン以上": sanbaiman, b = 6,000, under tsumo-loss (rules-spec §3.5 example 2:
# 24,000 / 36,000 on a ron), keyed by (dealer, tsumo).
SANBAIMAN_3P: dict[tuple[bool, bool], Pay] = {
    (False, False): (24000, 0),
    (True, False): (36000, 0),
    (False, True): (12000, 6000),
    (True, True): (12000, 12000),
}


def round_each_up_to_1000(cell: Cell, reference: Pay) -> Pay:
    return (-(-reference[0] // 1000) * 1000, -(-reference[1] // 1000) * 1000)


INTENDED_DIFFERENCES: dict[str, tuple[Difference, ...]] = {
    "fuji-sanma": (
        Difference(
            rule=(
                "004 L50 '数え役満は14ハン以上、3倍満は11ハン以上': counted yakuman starts at "
                "14 han, so 13 han is sanbaiman (rules-spec §3.5 example 2)"
            ),
            applies=lambda cell, reference: cell.han == 13,
            engine_pays=lambda cell, reference: SANBAIMAN_3P[cell.dealer, cell.tsumo],
        ),
    ),
    "sanma-float": (
        Difference(
            rule=(
                "002 G(22) L51 'あがりの100点単位は全て繰り上げて計算する', read as S-03 (B): "
                "each payment's hundreds are rounded up to the next 1,000"
            ),
            applies=lambda cell, reference: any(v % 1000 for v in reference),
            engine_pays=round_each_up_to_1000,
        ),
    ),
}


def grid(rs: Ruleset) -> Iterator[Cell]:
    """Every cell of the grid: a no-fu ruleset is valued at its fixed fu (F-01)."""
    for han in HANS:
        for tsumo in (False, True):
            fus = legal_fu(rs, han, tsumo) if rs.fu_scoring else [rs.fixed_fu]
            for fu in fus:
                for dealer in (False, True):
                    yield Cell(han, fu, dealer, tsumo)


def scores_calculator(cell: Cell, **options: Any) -> Pay:
    config = HandConfig(
        is_tsumo=cell.tsumo,
        player_wind=EAST if cell.dealer else SOUTH,
        options=OptionalRules(**options),
    )
    result = ScoresCalculator.calculate_scores(han=cell.han, fu=cell.fu, config=config)
    return result["main"], result["additional"]


def engine(rs: Ruleset, cell: Cell) -> Pay:
    return hand_payment(rs, han=cell.han, fu=cell.fu, dealer=cell.dealer, tsumo=cell.tsumo)


def test_it_compares_every_built_in_ruleset() -> None:
    # A new ruleset needs its reference options (and its intended differences) here.
    assert sorted(REFERENCE_OPTIONS) == available_rulesets()
    assert set(INTENDED_DIFFERENCES) <= set(REFERENCE_OPTIONS)


@pytest.mark.parametrize("ruleset_id", sorted(REFERENCE_OPTIONS))
def test_it_pays_as_scores_calculator_except_the_intended_differences(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    differences = INTENDED_DIFFERENCES.get(ruleset_id, ())
    used: set[int] = set()
    mismatches = []
    cells = 0
    for cell in grid(rs):
        cells += 1
        reference = scores_calculator(cell, **REFERENCE_OPTIONS[ruleset_id])
        expected = reference
        for number, difference in enumerate(differences):
            if difference.applies(cell, reference):
                used.add(number)
                expected = difference.engine_pays(cell, reference)
                # A listed difference must really differ from ScoresCalculator.
                assert expected != reference, (difference.rule, cell)
        paid = engine(rs, cell)
        if paid != expected:
            mismatches.append((cell, {"engine": paid, "expected": expected, "sc": reference}))
    assert mismatches == []
    # Every listed difference shows up somewhere in the grid.
    assert used == set(range(len(differences)))
    assert cells > 50


def test_it_has_no_kiriage_where_the_ruleset_has_none() -> None:
    # 4 han 30 fu and 3 han 60 fu, non-dealer ron (1,920 basic points), per ruleset, against
    # ScoresCalculator with and without kiriage.
    kiriage_cells = {
        # §45f: mangan.
        "makura-1.3": (8000, 8000),
        "makura-1.5": (8000, 8000),
        # No kiriage (Appendix A "no ⚠"; tenhou-rules §5 [LOG]): 7,680 -> 7,700.
        "home-nashinashi": (7700, 7700),
        "tenhou-4p": (7700, 7700),
        "tenhou-3p": (7700, 7700),
        "tenhou-4p-east": (7700, 7700),
        "tenhou-3p-east": (7700, 7700),
        "majsoul": (7700, 7700),
        "majsoul-3p": (7700, 7700),
        # S(1) L110 for 30 fu 4 han; 60 fu 3 han is not stated (S-16) but rounds to 8,000.
        "sanma-float": (8000, 8000),
    }
    with_kiriage = scores_calculator(Cell(4, 30, False, False), kiriage=True)
    without = scores_calculator(Cell(4, 30, False, False), kiriage=False)
    assert (with_kiriage, without) == ((8000, 0), (7700, 0))
    for ruleset_id, (four_han, three_han) in kiriage_cells.items():
        rs = load_ruleset(ruleset_id)
        assert engine(rs, Cell(4, 30, False, False)) == (four_han, 0), ruleset_id
        assert engine(rs, Cell(3, 60, False, False)) == (three_han, 0), ruleset_id
    # fuji-sanma has no fu at all (F-01): every hand is 30 fu, so 4 han is 7,700.
    assert engine(load_ruleset("fuji-sanma"), Cell(4, 30, False, False)) == (7700, 0)


# (ruleset, han, fu, dealer, tsumo) -> (main, additional), checked by hand against rules-spec §3.
SPOT_VALUES: list[tuple[str, Cell, Pay, str]] = [
    ("makura-1.3", Cell(3, 30, False, False), (3900, 0), "000 ex 1: 960 x 4 = 3,840 -> 3,900"),
    ("makura-1.5", Cell(3, 30, False, False), (3900, 0), "000 ex 1 under 001"),
    ("makura-1.3", Cell(4, 30, True, True), (4000, 4000), "000 ex 2: kiriage, 4,000 all"),
    ("tenhou-4p", Cell(4, 30, True, True), (3900, 3900), "000 ex 2 w/o kiriage: 3,900 all"),
    ("makura-1.3", Cell(2, 40, True, False), (3900, 0), "000 ex 3: dealer 6 x 640 -> 3,900"),
    ("makura-1.3", Cell(1, 30, False, False), (1000, 0), "000 ex 3: 4 x 240 = 960 -> 1,000"),
    ("makura-1.5", Cell(4, 30, False, True), (4000, 2000), "001 ex 1: kiriage tsumo"),
    ("makura-1.3", Cell(3, 30, False, True), (2000, 1000), "001 ex 1 under 000: 2,000/1,000"),
    ("makura-1.5", Cell(2, 30, False, True), (1000, 500), "001 ex 2: E 1,000; S, W 500"),
    ("makura-1.5", Cell(2, 30, True, False), (2900, 0), "001 ex 3: dealer 2,880 -> 2,900"),
    ("makura-1.5", Cell(1, 40, False, False), (1300, 0), "001 ex 4: 1,280 -> 1,300"),
    ("home-nashinashi", Cell(3, 30, False, False), (3900, 0), "003 ex 1: 3,900"),
    ("home-nashinashi", Cell(2, 40, True, True), (1300, 1300), "003 ex 2: 1,300 all"),
    ("home-nashinashi", Cell(2, 30, True, False), (2900, 0), "003 ex 3: dealer 2,900"),
    ("home-nashinashi", Cell(2, 40, False, False), (2600, 0), "003 ex 3: S 2,600"),
    ("home-nashinashi", Cell(1, 30, False, False), (1000, 0), "003 ex 10: open pinfu 1 han"),
    ("home-nashinashi", Cell(2, 30, False, False), (2000, 0), "003 ex 10: open pinfu 2 han"),
    ("home-nashinashi", Cell(1, 30, True, False), (1500, 0), "003 ex 10: dealer 1,500"),
    ("tenhou-4p", Cell(4, 30, False, False), (7700, 0), "tenhou-rules §5: 7,700"),
    ("tenhou-4p", Cell(4, 30, True, False), (11600, 0), "tenhou-rules §5: dealer 11,600"),
    ("tenhou-3p", Cell(4, 30, True, True), (3900, 3900), "tenhou-rules §5: 3,900 all"),
    ("tenhou-3p", Cell(13, 30, True, True), (16000, 16000), "tenhou-rules §5: 16,000 all"),
    ("sanma-float", Cell(3, 30, False, False), (4000, 0), "002 ex 1 (B): 3,840 -> 4,000"),
    ("sanma-float", Cell(4, 30, False, False), (8000, 0), "002 ex 2: S(1) mangan 8,000"),
    ("sanma-float", Cell(4, 30, True, False), (12000, 0), "002 ex 2: dealer 12,000"),
    ("sanma-float", Cell(3, 60, False, False), (8000, 0), "002 ex 2: 60 fu 3 han (B) 8,000"),
    ("sanma-float", Cell(6, 30, True, True), (6000, 6000), "002 ex 3: tsumo-loss 6,000 each"),
    ("sanma-float", Cell(2, 40, False, False), (3000, 0), "002 ex 7 (B): 2,560 -> 3,000"),
    ("sanma-float", Cell(8, 30, False, True), (8000, 4000), "002 ex 8: baiman E 8,000 W 4,000"),
    ("fuji-sanma", Cell(5, 30, False, False), (8000, 0), "004 ex 1: mangan 8,000"),
    ("fuji-sanma", Cell(13, 30, False, False), (24000, 0), "004 ex 2: 13 han sanbaiman"),
    ("fuji-sanma", Cell(13, 30, True, False), (36000, 0), "004 ex 2: dealer 36,000"),
    ("fuji-sanma", Cell(14, 30, False, False), (32000, 0), "004 ex 2: 14 han yakuman"),
    ("fuji-sanma", Cell(14, 30, True, False), (48000, 0), "004 ex 2: dealer 48,000"),
    ("fuji-sanma", Cell(14, 30, False, True), (16000, 8000), "004 ex 8: E 16,000 + W 8,000"),
    ("makura-1.5", Cell(13, 30, False, False), (32000, 0), "§45f: 13 han is 四倍満"),
]

# rules-spec §3.5 example 9, the 30-fu table for 1-4 han: fuji-sanma values every hand at 30 fu
# (F-01); the common sanma practice of rounding the hundreds up is sanma-float's S-03 (B).
THIRTY_FU_TABLES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "fuji-sanma": ((1000, 2000, 3900, 7700), (1500, 2900, 5800, 11600)),
    "sanma-float": ((1000, 2000, 4000, 8000), (2000, 3000, 6000, 12000)),
}


@pytest.mark.parametrize(
    ("ruleset_id", "cell", "pays", "source"),
    SPOT_VALUES,
    ids=[
        f"{r}-{c.han}h{c.fu}fu-{'d' if c.dealer else 'nd'}-{'tsumo' if c.tsumo else 'ron'}"
        for r, c, _, _ in SPOT_VALUES
    ],
)
def test_it_pays_the_worked_examples(ruleset_id: str, cell: Cell, pays: Pay, source: str) -> None:
    assert engine(load_ruleset(ruleset_id), cell) == pays, source


@pytest.mark.parametrize("ruleset_id", sorted(THIRTY_FU_TABLES))
def test_it_pays_the_thirty_fu_table_of_004_example_9(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    non_dealer, dealer = THIRTY_FU_TABLES[ruleset_id]
    for han in range(1, 5):
        assert engine(rs, Cell(han, 30, False, False)) == (non_dealer[han - 1], 0), han
        assert engine(rs, Cell(han, 30, True, False)) == (dealer[han - 1], 0), han


def first_hand_deltas(rs: Ruleset, win: dict[str, Any], *, dealer: bool, tsumo: bool) -> tuple:
    """The deltas of ``win`` played as East 1 (no honba, no deposits): seat 0 deals, the
    winner is seat 0 or 1, a ron's discarder is seat 2."""
    winner = 0 if dealer else 1
    hand: dict[str, Any] = {"result": "tsumo" if tsumo else "ron", "wins": [{"winner": winner}]}
    hand["wins"][0].update(win)
    if not tsumo:
        hand["loser"] = 2
    return Game(rs).play(parse_hand(hand, rs.players, 0)).deltas


def expected_deltas(rs: Ruleset, pays: Pay, *, dealer: bool, tsumo: bool) -> tuple:
    """What (main, additional) means at the table, for the seats of ``first_hand_deltas``."""
    main, additional = pays
    winner = 0 if dealer else 1
    deltas = [0] * rs.players
    if not tsumo:
        deltas[2] -= main
    else:
        for seat in range(rs.players):
            if seat != winner:
                deltas[seat] -= main if seat == 0 else additional
    deltas[winner] -= sum(deltas)
    return tuple(deltas)


@pytest.mark.parametrize("ruleset_id", sorted(REFERENCE_OPTIONS))
def test_it_plays_the_grid_at_the_table(ruleset_id: str) -> None:
    # The game charges what hand_payment says, with a no-fu ruleset's fu left out (F-01).
    rs = load_ruleset(ruleset_id)
    for cell in grid(rs):
        win: dict[str, Any] = {"han": cell.han}
        if rs.fu_scoring:
            win["fu"] = cell.fu
        pays = engine(rs, cell)
        deltas = first_hand_deltas(rs, win, dealer=cell.dealer, tsumo=cell.tsumo)
        assert deltas == expected_deltas(rs, pays, dealer=cell.dealer, tsumo=cell.tsumo), cell


# Limit hands as ScoresCalculator counts them: mangan 5 han, haneman 6, baiman 8, sanbaiman 11;
# a yakuman multiple k is 13k han with is_yakuman, capped at the ruleset's yakuman_max (Makura
# §45h x3, F-13 x3, Tenhou x6).
LIMIT_HAN = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11}


@pytest.mark.parametrize("ruleset_id", sorted(REFERENCE_OPTIONS))
def test_it_plays_limits_and_yakuman_multiples_as_scores_calculator(ruleset_id: str) -> None:
    rs = load_ruleset(ruleset_id)
    options = REFERENCE_OPTIONS[ruleset_id]
    wins: list[tuple[dict[str, Any], int, bool]] = [
        ({"limit": limit}, han, False) for limit, han in LIMIT_HAN.items()
    ]
    wins += [
        ({"limit": "yakuman", "yakuman": k}, 13 * min(k, rs.yakuman_max), True) for k in range(1, 7)
    ]
    for win, han, is_yakuman in wins:
        for dealer in (False, True):
            for tsumo in (False, True):
                config = HandConfig(
                    is_tsumo=tsumo,
                    player_wind=EAST if dealer else SOUTH,
                    options=OptionalRules(**options),
                )
                result = ScoresCalculator.calculate_scores(han, 30, config, is_yakuman=is_yakuman)
                reference = (result["main"], result["additional"])
                if ruleset_id in INTENDED_DIFFERENCES:
                    # sanma-float's 1,000 rounding never touches limit values (multiples of
                    # 1,000); fuji-sanma's 14-han kazoe does not apply to a stated limit.
                    assert all(v % 1000 == 0 for v in reference)
                deltas = first_hand_deltas(rs, win, dealer=dealer, tsumo=tsumo)
                expected = expected_deltas(rs, reference, dealer=dealer, tsumo=tsumo)
                assert deltas == expected, (win, dealer, tsumo)


ALL_FU = [30, 40, 50, 60, 70, 80, 90, 100, 110]


@pytest.mark.parametrize(
    ("ruleset_id", "tsumo_20"),
    [
        ("makura-1.5", True),
        ("makura-1.3", True),
        ("tenhou-4p", True),
        ("tenhou-3p", True),
        ("home-nashinashi", False),
    ],
)
def test_the_fu_a_ruleset_allows_per_han_and_outcome(ruleset_id, tsumo_20):
    """One rule for pad and records: 25 fu is chiitoitsu, always 2 han
    (Makura 1.5 §45c, seed 002 L112), so a ron needs 2 han and a tsumo, which adds menzen
    tsumo, 3; 20 fu is a pinfu tsumo of 2+ han (Makura 1.5 §45a), not in seed 003 (H-10)."""
    rs = load_ruleset(ruleset_id)
    pinfu_tsumo = [20] if tsumo_20 else []
    assert legal_fu(rs, 1, False) == ALL_FU
    assert legal_fu(rs, 1, True) == ALL_FU
    assert legal_fu(rs, 2, False) == [25, *ALL_FU]
    assert legal_fu(rs, 2, True) == [*pinfu_tsumo, *ALL_FU]
    assert legal_fu(rs, 3, False) == [25, *ALL_FU]
    assert legal_fu(rs, 3, True) == [*pinfu_tsumo, 25, *ALL_FU]
    assert legal_fu(rs, 4, True) == [*pinfu_tsumo, 25, *ALL_FU]


def test_a_2_han_25_fu_tsumo_is_refused_by_the_engine():
    """The engine refuses what the pad does not offer (game-record-format.md,
    Errors: "a fu the ruleset does not allow"); 3 han 25 fu is the smallest chiitoitsu tsumo
    (Makura 1.5 §45c: 25 fu x 2^5 = 800, so 800/1,600)."""
    rs = load_ruleset("makura-1.5")
    game = Game(rs)
    two_han = {"result": "tsumo", "wins": [{"winner": 1, "han": 2, "fu": 25}]}
    with pytest.raises(RecordError) as refused:
        game.play(parse_hand(two_han, rs.players, 0))
    assert (refused.value.hand_index, refused.value.key) == (0, "wins[0].fu")
    assert refused.value.code == "fu_not_allowed"
    assert dict(refused.value.params) == {"han": 2, "fu": 25, "win": "tsumo"}
    assert game.state().scores == (25000, 25000, 25000, 25000)
    three_han = {"result": "tsumo", "wins": [{"winner": 1, "han": 3, "fu": 25}]}
    assert game.play(parse_hand(three_han, rs.players, 0)).deltas == (-1600, 3200, -800, -800)
