"""Invariants of the scoring engine over random legal games, for every built-in ruleset.

A game is driven hand by hand through :class:`scoring.engine.Game`. Each hand is built as a
record hand object (docs/game-record-format.md) that is legal in the current state under
the ruleset's parameters, so the hands of a game are also a record that ``replay_record`` takes.
A generated hand the engine rejects is a failure: either the generator's idea of "legal" or the
engine is wrong, and the failure message carries the record so far to tell which.

Hypothesis draws the ruleset variant's seed and a "style" (how often each result and each
optional key appears); the hands themselves come from ``random.Random(seed)``, because a game of
up to 300 hands needs more choices than hypothesis's buffer holds. Failures print the seed and
the style, which replay the game exactly.
"""

from __future__ import annotations

import copy
import json
import os
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from scoring.engine import (
    Game,
    RecordError,
    Ruleset,
    TableState,
    available_rulesets,
    legal_fu,
    load_ruleset,
    parse_hand,
    replay_record,
)
from scoring.engine.limits import LIMITS
from scoring.engine.ruleset import ABORTIVE_KINDS

NAMES = ("Aoki", "Baba", "Chiba", "Doi")
MAX_HANDS = 300
# Examples per variant and property: the whole file takes about 15 s. PROP_EXAMPLES=1000 in the
# environment runs a deeper search.
EXAMPLES = int(os.environ.get("PROP_EXAMPLES", 80))

# Every built-in ruleset as shipped, plus per-game overrides that change how a game runs or
# settles: the GP's "no tobi" (rules-spec §4.1, M-17), the north-split 3-player tsumo (X-01 b)
# and floating uma converted to points at S-01's illustrative 100 ep = 1,000 points.
VARIANTS: list[tuple[str, dict[str, Any]]] = [(rid, {}) for rid in available_rulesets()] + [
    ("makura-1.5", {"tobi": False}),
    ("tenhou-3p", {"sanma_tsumo": "north_split"}),
    ("sanma-float", {"uma_ep_points": 10}),
]
VARIANT_IDS = [rid + "".join(f"+{k}={v}" for k, v in o.items()) for rid, o in VARIANTS]


@dataclass(frozen=True)
class Style:
    """How a random game leans: relative weights of the results and rates of optional keys.

    Wins carry at least 5/12 of the weight (ron >= 3 and tsumo >= 2, against at most 4 + 2 + 1
    for draws, aborts and chombo), so that games end: under home-nashinashi only a non-dealer
    win moves the deal from South on (H-01), and chombo replays the hand. ``big`` is the chance
    of a limit or 5+ han hand; other hands have at most ``cap`` han and mostly 30-40 fu, so
    that many games run to the last hand or into extensions instead of ending by tobi.
    ``even`` is the chance that the lowest score wins (a ron from the highest), which keeps
    everyone below the extension target: West, North and return-East under home-nashinashi,
    West under Tenhou.
    """

    ron: int
    tsumo: int
    draw: int
    abort: int
    chombo: int
    riichi: float
    big: float
    cap: int
    even: float
    stop: float


styles = st.builds(
    Style,
    ron=st.integers(3, 10),
    tsumo=st.integers(2, 8),
    draw=st.integers(0, 4),
    abort=st.integers(0, 2),
    chombo=st.integers(0, 1),
    riichi=st.sampled_from([0.0, 0.1, 0.3]),
    big=st.sampled_from([0.0, 0.02, 0.1, 0.4]),
    cap=st.sampled_from([1, 1, 2, 3, 4]),
    even=st.sampled_from([0.0, 0.5, 0.95, 0.95]),
    stop=st.sampled_from([0.0, 0.3, 1.0]),
)
seeds = st.integers(0, 2**32 - 1)
property_settings = settings(max_examples=EXAMPLES, deadline=None)


# -- the generator -----------------------------------------------------------------------------


def random_win(rng: random.Random, game: Game, winner: int, *, tsumo: bool, style: Style) -> dict:
    """One win legal under the ruleset at the current honba (check_win, pao, chips)."""
    rs = game.ruleset
    n = rs.players
    win: dict[str, Any] = {"winner": winner}
    if rng.random() < style.big / 2:
        limit = rng.choice(LIMITS)
        win["limit"] = limit
        if limit == "yakuman" and rng.random() < 0.5:
            win["yakuman"] = rng.randint(1, 6)  # capped by yakuman_max
    else:
        two_han = rs.two_han_minimum_from_honba
        min_han = 2 if two_han and game.honba >= two_han else 1  # 003 L106, H-22
        if rng.random() < style.big / 2:
            han = rng.randint(5, 16)
        else:
            han = rng.randint(min_han, max(min_han, style.cap))
        win["han"] = han
        if rs.fu_scoring:
            # Below 5 han the fu is required; from 5 han on it may be left out.
            if han < 5 or rng.random() < 0.5:
                fus = legal_fu(rs, han, tsumo)
                common = [fu for fu in fus if fu <= 40]
                win["fu"] = rng.choice(common if common and rng.random() < 0.8 else fus)
        elif rng.random() < 0.1:
            win["fu"] = rs.fixed_fu  # the only fu a no-fu ruleset accepts (F-01)
    others = [s for s in range(n) if s != winner]
    if rs.pao and rng.random() < 0.05:
        win["pao"] = rng.choice(others)
    elif tsumo and rng.random() < 0.05:
        win["rinshan_from"] = rng.choice(others)
    if rs.chips and rng.random() < 0.3:
        win["chips"] = rng.randint(1, 7)
    return win


def random_seats(rng: random.Random, n: int, rate: float) -> list[int]:
    return [s for s in range(n) if rng.random() < rate]


def dealer_stop_kind(rs: Ruleset, hand: dict, dealer: int) -> str | None:
    """'agari_yame' or 'tenpai_yame' when ``hand`` keeps the deal by a dealer win or tenpai.

    A dealer among the ron winners keeps the deal, except under ``first_winner`` renchan (F-10)
    when another winner comes first in turn order from the discarder; a nagashi draw is never a
    tenpai stop.
    """
    n = rs.players
    if hand["result"] == "tsumo":
        return "agari_yame" if hand["wins"][0]["winner"] == dealer else None
    if hand["result"] == "ron":
        order = sorted((w["winner"] for w in hand["wins"]), key=lambda s: (s - hand["loser"]) % n)
        if dealer not in order:
            return None
        if rs.multi_ron_renchan == "first_winner" and order[0] != dealer:
            return None
        return "agari_yame"
    if hand["result"] == "draw" and not hand.get("nagashi") and dealer in hand.get("tenpai", []):
        return "tenpai_yame"
    return None


def someone_reaches_target(game: Game, hand: dict) -> bool:
    """Whether after ``hand`` someone has ``extension_target`` (H-21), tried on a copy."""
    trial = copy.deepcopy(game)
    trial.play(parse_hand(hand, game.ruleset.players, len(trial.results)))
    return max(trial.results[-1].scores) >= game.ruleset.extension_target


def random_hand(rng: random.Random, game: Game, style: Style, *, may_stop: bool = True) -> dict:
    """A record hand object that is legal in ``game``'s current state."""
    rs = game.ruleset
    n = rs.players
    dealer = game.dealer
    all_last = game.is_all_last()
    can_stop = may_stop and all_last and (rs.agari_yame or rs.tenpai_yame)
    results = ["ron", "tsumo", "draw", "abort", "chombo"]
    weights = [
        style.ron,
        style.tsumo,
        style.draw,
        style.abort if rs.abortive_draws else 0,
        style.chombo,
    ]
    result = rng.choices(results, weights)[0]
    if can_stop and rng.random() < style.stop / 2:
        # Make a stop possible: a dealer win, or dealer tenpai at a draw.
        result = "tsumo" if rs.agari_yame and (rng.random() < 0.7 or not rs.tenpai_yame) else "draw"
    hand: dict[str, Any] = {"result": result}

    by_score = sorted(range(n), key=lambda s: (game.scores[s], rng.random()))
    evening = rng.random() < style.even
    if result == "ron":
        if evening:
            loser, winners = by_score[-1], [by_score[0]]
        else:
            loser = rng.randrange(n)
            others = [s for s in range(n) if s != loser]
            count = 1
            if rs.multi_ron_max >= 2 and rng.random() < 0.15:
                count = 3 if rs.multi_ron_max >= 3 and rng.random() < 0.3 else 2
            winners = rng.sample(others, count)
        hand["loser"] = loser
        hand["wins"] = [random_win(rng, game, w, tsumo=False, style=style) for w in winners]
    elif result == "tsumo":
        stopping = can_stop and rs.agari_yame and rng.random() < style.stop
        winner = dealer if stopping else by_score[0] if evening else rng.randrange(n)
        hand["wins"] = [random_win(rng, game, winner, tsumo=True, style=style)]
    elif result == "draw":
        tenpai = random_seats(rng, n, 0.4)
        if can_stop and rs.tenpai_yame and dealer not in tenpai and rng.random() < style.stop:
            tenpai = sorted([*tenpai, dealer])
        if tenpai:
            hand["tenpai"] = tenpai
        if rs.nagashi != "none" and rng.random() < 0.05:
            hand["nagashi"] = sorted(rng.sample(range(n), 1 if rng.random() < 0.8 else 2))
    elif result == "abort":
        hand["kind"] = rng.choice(rs.abortive_draws)
        tenpai = random_seats(rng, n, 0.4)
        if tenpai:
            hand["tenpai"] = tenpai
    else:
        hand["offender"] = rng.randrange(n)

    # Riichi sticks from seats with enough points (H-25, F-11, Tenhou); open riichi only where
    # the ruleset has it; a kara penalty now and then.
    eligible = [
        s for s in range(n) if not rs.riichi_min_score or game.scores[s] >= rs.riichi_min_score
    ]
    riichi = [s for s in eligible if rng.random() < style.riichi]
    if result == "abort" and hand["kind"] == "suucha_riichi" and len(eligible) == n:
        riichi = list(range(n))
    if riichi:
        hand["riichi"] = riichi
        if rs.open_riichi:
            open_riichi = [s for s in riichi if rng.random() < 0.2]
            if open_riichi:
                hand["open_riichi"] = open_riichi
    if rs.penalty_kinds and rng.random() < 0.05:
        hand["penalties"] = [{"seat": rng.randrange(n), "kind": rng.choice(rs.penalty_kinds)}]

    if can_stop and rng.random() < style.stop:
        kind = dealer_stop_kind(rs, hand, dealer)
        if (
            kind is not None
            and getattr(rs, kind)
            and (not rs.yame_needs_target or someone_reaches_target(game, hand))
        ):
            hand["dealer_stops"] = True
    return hand


@dataclass
class PlayedGame:
    """A random game: the record of its hands, the Game that played them, and the table state
    before each hand."""

    ruleset: Ruleset
    record: dict[str, Any]
    game: Game
    states: list[TableState]


def make_record(ruleset_id: str, overrides: dict[str, Any], players: int, hands: list) -> dict:
    return {
        "format": "club-game/1",
        "ruleset": ruleset_id,
        "overrides": overrides,
        "players": list(NAMES[:players]),
        "hands": hands,
    }


def play_random_game(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style, max_hands: int = MAX_HANDS
) -> PlayedGame:
    ruleset_id, overrides = variant
    rs = load_ruleset(ruleset_id, overrides)
    rng = random.Random(seed)
    game = Game(rs)
    hands: list[dict] = []
    states: list[TableState] = []
    while game.ended_by is None and len(hands) < max_hands:
        hand = random_hand(rng, game, style)
        states.append(game.state())
        try:
            game.play(parse_hand(hand, rs.players, len(hands)))
        except RecordError as error:
            record = make_record(ruleset_id, overrides, rs.players, [*hands, hand])
            raise AssertionError(
                f"the engine rejects a hand the generator thinks legal: {error}\n"
                f"state before it: {states[-1]}\nrecord: {json.dumps(record)}"
            ) from error
        hands.append(hand)
    record = make_record(ruleset_id, overrides, rs.players, hands)
    note(f"record: {json.dumps(record)}")
    return PlayedGame(rs, record, game, states)


def finished_game(variant: tuple[str, dict[str, Any]], seed: int, style: Style) -> PlayedGame:
    played = play_random_game(variant, seed, style)
    assert played.game.ended_by is not None, f"no end after {MAX_HANDS} hands"
    assert played.game.settlement is not None
    return played


variants = pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)


# -- properties ----------------------------------------------------------------------------------


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_keeps_every_hand_zero_sum_and_chains_the_scores(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = finished_game(variant, seed, style)
    rs = played.ruleset
    scores = (rs.start_points,) * rs.players
    deposits = 0
    for state, result in zip(played.states, played.game.results, strict=True):
        assert state.scores == scores
        assert state.deposits == deposits == result.deposits_before
        assert (state.round, state.dealer, state.honba) == (
            result.round,
            result.dealer,
            result.honba,
        )
        assert sum(result.deltas) + result.deposits_after - result.deposits_before == 0
        assert result.scores == tuple(s + d for s, d in zip(scores, result.deltas, strict=True))
        assert sum(result.chips) == 0
        # The payments list accounts for every delta and for the change on the table.
        moved = [0] * (rs.players + 1)  # the last entry is the table
        for payment in result.payments:
            assert payment.amount > 0 and payment.payer != payment.payee, payment
            moved[-1 if payment.payer is None else payment.payer] -= payment.amount
            moved[-1 if payment.payee is None else payment.payee] += payment.amount
        assert tuple(moved[:-1]) == result.deltas
        assert moved[-1] == result.deposits_after - result.deposits_before
        scores, deposits = result.scores, result.deposits_after
    assert tuple(played.game.scores) == scores
    assert played.game.deposits == deposits


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_moves_points_in_hundreds(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = finished_game(variant, seed, style)
    for result in played.game.results:
        assert all(d % 100 == 0 for d in result.deltas), result
        assert all(s % 100 == 0 for s in result.scores), result
        assert result.deposits_before % 100 == 0 and result.deposits_after % 100 == 0, result
        assert result.deposits_before >= 0 and result.deposits_after >= 0, result
    settlement = played.game.settlement
    assert settlement is not None
    assert all(s % 100 == 0 for s in settlement.scores)


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_settles_zero_sum_unless_busted_players_settle_at_zero(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = finished_game(variant, seed, style)
    rs = played.ruleset
    settlement = played.game.settlement
    assert settlement is not None
    # Deposits left on the table go to the top, so the final scores hold every point.
    assert sum(settlement.scores) == rs.players * rs.start_points
    if rs.box_under == "zero":
        # F-04: a busted player settles at 0 and the receivers keep everything, so the points
        # are short of zero-sum by exactly what the busted players did not pay.
        assert sum(settlement.points) == sum(-min(score, 0) for score in settlement.scores)
    else:
        assert sum(settlement.points) == 0
    if settlement.uma_ep is not None:
        assert sum(settlement.uma_ep) == 0
    if settlement.chips is not None:
        assert sum(settlement.chips) == 0
    assert settlement.ended_by == played.game.ended_by


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_ranks_by_final_score_then_seat(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = finished_game(variant, seed, style)
    settlement = played.game.settlement
    assert settlement is not None
    n = played.ruleset.players
    ranks, scores = settlement.ranks, settlement.scores
    assert sorted(ranks) == list(range(1, n + 1))
    seat_order = played.ruleset.tie_break == "seat_order"
    for a in range(n):
        for b in range(a + 1, n):
            # Higher score ranks better; equal scores: the seat nearer the chicha (M-02 a, X-05).
            if scores[a] > scores[b] or (scores[a] == scores[b] and seat_order):
                assert ranks[a] < ranks[b], (a, b, scores, ranks)
            else:
                assert ranks[a] > ranks[b], (a, b, scores, ranks)


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_replays_a_record_as_the_game_played_it(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = finished_game(variant, seed, style)
    game = played.game
    assert game.settlement is not None
    first = replay_record(played.record)
    second = replay_record(copy.deepcopy(played.record))
    assert first.to_json() == second.to_json()
    assert first.to_json() == {
        "ruleset": played.ruleset.id,
        "hands": [result.to_json() for result in game.results],
        "final": game.settlement.to_json(),
    }
    assert list(first.results) == game.results
    assert first.settlement == game.settlement
    # The output is plain JSON: integers, strings, lists, objects.
    assert json.loads(json.dumps(first.to_json())) == first.to_json()


@variants
@property_settings
@given(seed=seeds, style=styles)
def test_it_always_ends_and_then_refuses_every_hand(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style
) -> None:
    played = play_random_game(variant, seed, style)
    game = played.game
    assert game.ended_by is not None, f"still in play after {MAX_HANDS} hands"
    assert len(game.results) <= MAX_HANDS
    state = game.state()
    assert state.ended_by == game.ended_by
    rng = random.Random(seed)
    n = played.ruleset.players
    after_end = [
        {"result": "draw"},
        {"result": "chombo", "offender": rng.randrange(n)},
        *(random_hand(rng, game, style, may_stop=False) for _ in range(5)),
    ]
    for hand in after_end:
        with pytest.raises(RecordError) as caught:
            game.play(parse_hand(hand, n, len(game.results)))
        assert caught.value.key == "result"
        assert caught.value.hand_index == len(game.results)
        assert game.state() == state
    # The record with one more hand is refused by replay at that hand.
    record = copy.deepcopy(played.record)
    record["hands"].append({"result": "draw"})
    with pytest.raises(RecordError) as caught:
        replay_record(record)
    assert (caught.value.hand_index, caught.value.key) == (len(game.results), "result")


# -- rejected hands --------------------------------------------------------------------------------


def invalid_hands(game: Game) -> list[tuple[str, str, dict]]:
    """Hands that parse but that ``game`` must refuse now: (key at fault, why, hand).

    Each hand has exactly one fault. Where any seat may declare riichi the hand also puts out
    legal riichi sticks, so that a refusal after the sticks went out would show.
    """
    rs = game.ruleset
    n = rs.players
    dealer = game.dealer
    winner, loser = (dealer + 1) % n, (dealer + 2) % n
    eligible = [
        s for s in range(n) if not rs.riichi_min_score or game.scores[s] >= rs.riichi_min_score
    ]
    sticks: dict[str, Any] = {"riichi": eligible} if eligible else {}
    value: dict[str, Any] = {"han": 3, "fu": 40} if rs.fu_scoring else {"han": 3}
    two_han = rs.two_han_minimum_from_honba
    one_han_allowed = not two_han or game.honba < two_han  # else 1 han is a second fault
    out: list[tuple[str, str, dict]] = []

    def ron(win: dict, **extra: Any) -> dict:
        wins = [{"winner": winner, **win}]
        return {"result": "ron", "loser": loser, "wins": wins, **sticks, **extra}

    def tsumo(seat: int, win: dict, **extra: Any) -> dict:
        return {"result": "tsumo", "wins": [{"winner": seat, **win}], **sticks, **extra}

    def draw(**extra: Any) -> dict:
        return {"result": "draw", **sticks, **extra}

    if rs.fu_scoring:
        out.append(("wins[0].fu", "20 fu on a ron", ron({"han": 2, "fu": 20})))
        out.append(("wins[0].fu", "35 fu", ron({"han": 2, "fu": 35})))
        out.append(("wins[0].fu", "120 fu", ron({"han": 2, "fu": 120})))
        out.append(("wins[0].fu", "no fu below 5 han", ron({"han": 4})))
        out.append(("wins[0].fu", "25 fu, 2-han tsumo (§45c)", tsumo(winner, {"han": 2, "fu": 25})))
        if one_han_allowed:
            out.append(("wins[0].fu", "25 fu with 1 han", ron({"han": 1, "fu": 25})))
            out.append(("wins[0].fu", "20 fu, 1-han tsumo", tsumo(winner, {"han": 1, "fu": 20})))
        if not rs.pinfu_tsumo_20fu:
            out.append(("wins[0].fu", "no 20 fu (H-10)", tsumo(winner, {"han": 2, "fu": 20})))
    else:
        out.append(("wins[0].fu", "a fu without fu scoring (F-01)", ron({"han": 2, "fu": 40})))
    if not rs.pao:
        out.append(("wins[0].pao", "pao (004 L64)", ron({**value, "pao": dealer})))
    if not rs.chips:
        out.append(("wins[0].chips", "chips", tsumo(winner, {**value, "chips": 2})))
    if n == 4 and rs.multi_ron_max < 3:
        wins = [{"winner": s, **value} for s in range(n) if s != loser]
        triple = {"result": "ron", "loser": loser, "wins": wins, **sticks}
        out.append(("wins", "a third ron winner", triple))
    for kind in ABORTIVE_KINDS:
        if kind not in rs.abortive_draws:
            out.append(("kind", f"abortive draw {kind}", {"result": "abort", "kind": kind}))
    if not rs.open_riichi and eligible:
        out.append(("open_riichi", "open riichi", draw(open_riichi=eligible[:1])))
    penalty = "withdrawn_win" if "withdrawn_win" not in rs.penalty_kinds else "nonsense"
    penalties = [{"seat": winner, "kind": penalty}]
    out.append(("penalties[0].kind", "an unknown penalty", draw(penalties=penalties)))
    if rs.nagashi == "none":
        out.append(("nagashi", "nagashi", draw(nagashi=[winner])))
    if not one_han_allowed:
        fu = {"fu": 30} if rs.fu_scoring else {}
        out.append(("wins[0].han", "1 han from 5 honba (H-22)", ron({"han": 1, **fu})))
    short = [s for s in range(n) if rs.riichi_min_score and game.scores[s] < rs.riichi_min_score]
    if short:
        out.append(("riichi", "riichi below the minimum", {"result": "draw", "riichi": short}))
    # A dealer mangan tsumo computes its payments (and maybe a tobi) before dealer_stops is
    # checked, so refusing the stop must still leave everything as it was.
    mangan = {"limit": "mangan"}
    stop = tsumo(dealer, mangan, dealer_stops=True)
    if not game.is_all_last():
        out.append(("dealer_stops", "a stop before all-last", stop))
    else:
        no_stop = {k: v for k, v in stop.items() if k != "dealer_stops"}
        if rs.agari_yame and rs.yame_needs_target and not someone_reaches_target(game, no_stop):
            out.append(("dealer_stops", "agari-yame with nobody at the target (H-21)", stop))
        if not rs.agari_yame:
            out.append(("dealer_stops", "agari-yame", stop))
        if not rs.tenpai_yame:
            out.append(("dealer_stops", "tenpai-yame", draw(tenpai=[dealer], dealer_stops=True)))
        others_win = tsumo(winner, mangan, dealer_stops=True)
        out.append(("dealer_stops", "a stop after a non-dealer win", others_win))
        chombo = {"result": "chombo", "offender": winner, "dealer_stops": True}
        out.append(("dealer_stops", "a stop after a chombo", chombo))
        noten = draw(tenpai=[winner], dealer_stops=True)
        out.append(("dealer_stops", "a stop with the dealer noten", noten))
    return out


def snapshot(game: Game) -> tuple:
    """Everything a rejected hand must leave alone."""
    return (
        game.state(),
        list(game.results),
        list(game.scores),
        game.deposits,
        game.honba,
        game.dealer,
        game.round_label,
        list(game.chips),
        list(game.win_counts),
        game.ended_by,
        game.settlement,
    )


@variants
@property_settings
@given(seed=seeds, style=styles, cut=st.integers(0, 10**6))
def test_it_leaves_the_game_unchanged_after_a_rejected_hand(
    variant: tuple[str, dict[str, Any]], seed: int, style: Style, cut: int
) -> None:
    played = finished_game(variant, seed, style)
    rs = played.ruleset
    hands = played.record["hands"]
    midway = cut % len(hands)  # hands before the one that ended the game
    game = Game(rs)
    for index, hand in enumerate(hands[:midway]):
        game.play(parse_hand(hand, rs.players, index))
    before = snapshot(game)
    candidates = invalid_hands(game)
    assert candidates
    for key, why, hand in candidates:
        parsed = parse_hand(hand, rs.players, midway)  # well-formed: the game must refuse it
        with pytest.raises(RecordError) as caught:
            game.play(parsed)
        assert (caught.value.hand_index, caught.value.key) == (midway, key), why
        assert snapshot(game) == before, why
    # The game then goes on exactly as the one that never saw the rejected hands.
    for index in range(midway, len(hands)):
        assert (
            game.play(parse_hand(hands[index], rs.players, index)) == (played.game.results[index])
        )
    assert game.ended_by == played.game.ended_by
    assert game.settlement == played.game.settlement


# -- regressions found while writing these tests ----------------------------------------------


def test_it_lets_the_all_last_dealer_stop_after_a_nagashi_that_counts_as_a_win() -> None:
    # With nagashi_rotation "as_win" nagashi is a tsumo win that keeps the deal (M-07, S-12
    # "和了扱い", F-14), so agari-yame applies (Makura §4, 002 G(11), 004 L49).
    # Seven non-dealer rons take makura-1.5 to South 4, where seat 3 deals.
    hands: list[dict] = [
        {
            "result": "ron",
            "loser": (d + 2) % 4,
            "wins": [{"winner": (d + 1) % 4, "han": 1, "fu": 30}],
        }
        for d in (0, 1, 2, 3, 0, 1, 2)
    ]
    hands.append({"result": "draw", "nagashi": [3], "dealer_stops": True})
    out = replay_record(make_record("makura-1.5", {}, 4, hands)).to_json()
    assert out["hands"][-1]["round"] == "S4"
    assert out["hands"][-1]["deltas"] == [-4000, -4000, -4000, 12000]  # dealer mangan tsumo
    assert out["final"]["ended_by"] == "agari_yame"
