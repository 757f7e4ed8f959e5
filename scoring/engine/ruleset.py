"""The ruleset: every parameter the engine reads, as one frozen dataclass.

Parameters follow docs/rules-spec.md §1 and Appendix A; every ambiguity of §6 is a
parameter whose default in the shipped TOML files is the spec's recommendation. Points are
integers in points (25,000 is ``25000``), never thousands, unless a name ends in ``_k``.

The built-in rulesets live in ``scoring/rulesets/*.toml`` and are read by
:mod:`scoring.engine.ruleset_files`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

WINDS = ("E", "S", "W", "N")
ABORTIVE_KINDS = ("kyuushu_kyuuhai", "suufon_renda", "suucha_riichi", "suukaikan", "sancha_ron")
# Yakuman a ruleset may count double (Makura §43 L352-356, 003 L559-560).
DOUBLE_YAKUMAN = ("kokushi_13_sided", "suuankou_tanki", "junsei_chuuren", "daisuushii")
# Yakuman that may stand alone, never added to another (Makura 1.3 §43 L360, 1.5 L295).
LONE_YAKUMAN = ("tenhou", "chiihou", "renhou", "shiisanputa")
# Suits with red fives (003 L91-94 has two red 5p) and suits whose every five is dora.
FIVE_SUITS = ("m", "p", "s")
# The most chips one win takes from one payer under a ruleset with chips (a ruleset without
# them takes none). Seed 003's table pays at most 7 (a yakuman's 5 with ippatsu and ura, rules-
# spec §1H, H-16); two digits leave room for any club's table, and keep a game's chip balance
# far inside the ledger's integer columns however long it runs (chips of 10**12
# were once accepted, and the game's settlement could never be stored).
MAX_CHIPS_PER_PAYER = 99


def _choice(*choices: str, doc: str) -> Any:
    return field(metadata={"choices": choices, "doc": doc})


def _param(doc: str) -> Any:
    return field(metadata={"doc": doc})


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete scoring ruleset. Build one with ``load_ruleset(id, overrides)``.

    Every field is documented in its ``metadata["doc"]``; fields with a fixed set of values
    list them in ``metadata["choices"]``. Construction does not validate: use
    :func:`scoring.engine.ruleset_files.ruleset_from_mapping`, which raises ``RecordError``.
    """

    # -- identity -------------------------------------------------------------------------
    id: str = _param("Ruleset id used in game records, e.g. 'makura-1.5'.")
    name: str = _param("Human-readable name.")
    sources: tuple[str, ...] = _param("Citations: seed document and clause for the rules.")
    players: int = _param("3 or 4.")

    # -- points and final settlement (rules-spec §1B) -------------------------------------
    start_points: int = _param("Starting score of every player.")
    return_points: int = _param("Return points (genten for settlement).")
    oka: int = _param("Oka paid to the top, in points; usually (return-start) x players.")
    uma: tuple[int, ...] = _param("Rank uma in points, 1st to last; empty when none.")
    uma_floating: tuple[tuple[int, ...], ...] = _param(
        "Floating uma (002): row k-1 is the uma by rank when k players float; empty = rank uma."
    )
    float_threshold: int = _param("A player floats with a final score >= this (S-02).")
    uma_ep_points: int = _param(
        "Floating uma unit 'ep' (S-01): points per ep; 0 keeps ep separate (final.uma_ep)."
    )
    final_rounding: str = _choice(
        "none",
        "floor",
        "round_half_up",
        "round_half_away",
        "truncate_before_uma",
        "truncate_after_uma",
        doc=(
            "How a final score becomes settlement points (M-01): 'floor' = R1 (floor of "
            "(score-return)/1000); 'round_half_*' round the score to 1,000 (Tenhou); "
            "'truncate_*' = R2a/R2b; 'none' keeps every 100."
        ),
    )
    top_takes_remainder: bool = _param(
        "The top's points are minus the sum of the others' (M-01 i)."
    )
    tie_break: str = _choice(
        "seat_order",
        "reverse_seat_order",
        doc="Equal scores: the seat nearer the chicha in turn order ranks higher (M-02 a).",
    )
    box_under: str = _choice(
        "count",
        "zero",
        doc="Negative final scores count in full, or a busted player settles at 0 (F-04).",
    )
    tobi: bool = _param("A player going bust ends the game (off for the GP, M-17).")
    tobi_at_zero: bool = _param("Exactly 0 points is already bust (002/003/004), not only < 0.")
    tobi_after_chombo: bool = _param("The bust check also runs after a chombo payment (§35).")
    chombo_after_result: bool = _param(
        "A chombo in a hand that ends in a win or a draw is still paid, after it (seed 003"
        " L402-410, L426-428, H-18: the record's chombo on a ron, tsumo or draw); False: the"
        " win stands and the chombo is waived (Makura §34)."
    )
    tobi_payment: int = _param(
        "Seed 003: each busted player pays this, shared among those who busted them (H-06)."
    )

    # -- game length (rules-spec §1C) -----------------------------------------------------
    rounds: int = _param("Base length in winds: 1 = tonpuusen, 2 = hanchan (East-South).")
    extension: str = _choice(
        "none",
        "sudden_death",
        "round_end",
        doc=(
            "Extension rounds when nobody reaches extension_target at the end of the base "
            "game: 'sudden_death' ends after the first hand (without renchan) that leaves "
            "someone at the target (Tenhou); 'round_end' checks only at each round's end (H-02)."
        ),
    )
    extension_winds: tuple[str, ...] = _param("Winds of the extension rounds, in order.")
    extension_target: int = _param("Score someone must reach (>=) for the game to end.")

    # -- all-last (rules-spec §1C) --------------------------------------------------------
    agari_yame: bool = _param("The all-last dealer may stop after a win (dealer_stops).")
    tenpai_yame: bool = _param("The all-last dealer may stop when tenpai at a draw.")
    yame_needs_target: bool = _param(
        "Agari/tenpai-yame only when someone has reached extension_target (H-21)."
    )
    dealer_top_ends: str = _choice(
        "never",
        "after_win_or_tenpai",
        "after_any_hand",
        "after_win",
        doc=(
            "At all-last the game ends by itself when the dealer keeps the deal and is top: "
            "after a dealer win or dealer tenpai at a draw (Tenhou §4), or after any hand "
            "that keeps the dealer (004 L49, F-18), or after a dealer win only (Tenhou's logs "
            "of 2009-2010)."
        ),
    )
    dealer_top_min_score: int = _param("The dealer-top end also needs this score (0 = none).")
    dealer_top_in_extension: bool = _param(
        "The dealer-top end applies to every hand of the extension rounds, not only their last "
        "(every Tenhou log seen that reaches the case ends a sudden death so: 2014, 2015 and "
        "a 3-player game of 2022; tenhou-rules.md §4 keeps a renchan)."
    )

    # -- renchan ---------------------------------------------------------------------------
    renchan: str = _choice(
        "normal",
        "none",
        doc=(
            "'normal': the dealer keeps the deal as the parameters below say (a dealer win, "
            "dealer tenpai at a draw, ...); 'none': the deal passes after every win and every "
            "draw, honba reset by a win and +1 after a draw (Tenhou's 30,000 tournament lobby "
            "of GO type 0x641, its logs of 2021); a chombo's replay is unchanged."
        ),
    )
    draws_keep_dealer_from_round: int = _param(
        "From this round index (0 = East) on, every exhaustive draw keeps the dealer (H-01); "
        "-1 = never (renchan on a draw only when the dealer is tenpai)."
    )
    multi_ron_renchan: str = _choice(
        "any_winner",
        "first_winner",
        doc="Multi-ron renchan when the dealer is any winner, or only the first (F-10).",
    )
    abortive_draws: tuple[str, ...] = _param("Abortive draws the ruleset has.")
    abortive_renchan: str = _choice(
        "dealer_tenpai",
        "always",
        "never",
        doc="Dealer after an abortive draw (M-03); honba always +1.",
    )

    # -- honba, riichi, deposits (rules-spec §1D) ------------------------------------------
    honba_ron: int = _param("Points per honba on a ron, paid by the discarder.")
    honba_tsumo_each: int = _param("Points per honba on a tsumo, from each payer.")
    multi_ron_max: int = _param("Most ron winners on one discard (a triple ron may be abortive).")
    multi_ron_honba: str = _choice(
        "each", "first", doc="Honba in a multi-ron: to every winner, or the first only."
    )
    multi_ron_deposits: str = _choice(
        "first", "split", doc="Deposits in a multi-ron: to the first winner, or split (H-19)."
    )
    riichi_stick: int = _param("Riichi deposit.")
    open_riichi: bool = _param("The ruleset has open riichi.")
    open_riichi_stick: int = _param("Deposit (fee) for an open riichi.")
    open_riichi_deal_in: str = _choice(
        "none",
        "any",
        "stuck",
        doc=(
            "A player not in riichi who deals into an open riichi: 'none', an ordinary ron;"
            " 'any', a yakuman (Makura 1.3 §18 L130-134); 'stuck', a yakuman only when every"
            " tile they hold wins, else the tile goes back and there is no ron (Makura 1.5 §18"
            " L115-121, 003 L361-371, 004 L40-46). The table asks; payments read the value."
        ),
    )
    riichi_min_score: int = _param(
        "Lowest score at which riichi may be declared (H-25, F-11); 0 = no minimum (M-10)."
    )
    noten_total: int = _param("Noten payments in all, shared as X-03 says.")
    penalty_kinds: tuple[str, ...] = _param("Penalties put on the table ('kara', ...).")
    penalty_amounts: tuple[int, ...] = _param("Amount of each penalty kind, same order.")

    # -- chombo (rules-spec §1F) ---------------------------------------------------------
    chombo_payment: str = _choice(
        "fixed", "mangan", doc="Fixed amount to each other player, or a mangan-style payment."
    )
    chombo_each: int = _param("With 'fixed': what the offender pays each other player.")
    chombo_effect: str = _choice(
        "replay",
        "replay_honba_plus",
        "rotate_if_dealer",
        doc=(
            "'replay': same dealer and honba (§35); 'replay_honba_plus': same dealer, honba +1 "
            "(H-03); 'rotate_if_dealer': a dealer's chombo rotates, honba unchanged, except at "
            "all-last when the offender stays top (S-09)."
        ),
    )
    chombo_riichi: str = _choice(
        "return_except_offender",
        "return_all",
        "keep",
        doc="Riichi sticks put out in the chombo hand: back to their owners, or kept (H-04).",
    )

    # -- hand values (rules-spec §1G) ----------------------------------------------------
    fu_scoring: bool = _param("Hands carry fu; False = every hand is fixed_fu (F-01).")
    fixed_fu: int = _param("The fu of every hand when fu_scoring is False.")
    pinfu_tsumo_20fu: bool = _param("20 fu exists (pinfu tsumo, §45a); False for H-10.")
    kiriage: str = _choice(
        "none", "4han30fu", "both", doc="Kiriage mangan: none, 30fu4han only, or also 60fu3han."
    )
    payment_rounding: int = _param("Each payment rounded up to this (100, or 1000 for S-03 B).")
    sanbaiman_han: int = _param("Han from which a hand is sanbaiman.")
    counted_yakuman_han: int = _param("Han from which a counted hand is yakuman (kazoe).")
    yakuman_max: int = _param("Cap on yakuman multiples.")
    two_han_minimum_from_honba: int = _param("Honba from which 2 han are needed; 0 = never.")
    sanma_tsumo: str = _choice("tsumo_loss", "north_split", doc="3-player tsumo payment (X-01).")

    # -- pao, rinshan, nagashi, chips (rules-spec §1H) -----------------------------------
    pao: bool = _param("Pao applies (daisangen, daisuushii, suukantsu).")
    pao_ron_honba: str = _choice(
        "discarder",
        "split",
        "each",
        "liable",
        doc="Honba on a pao ron shared 50/50 (M-05, S-10, H-12).",
    )
    rinshan_liability: str = _choice(
        "none",
        "ron_value",
        "tsumo_total",
        doc="Daiminkan rinshan: who feeds the kan pays alone (S-11, H-24), or an ordinary tsumo.",
    )
    nagashi: str = _choice(
        "none", "mangan", "baiman", "yakuman", doc="Value of nagashi, paid as a tsumo."
    )
    nagashi_rotation: str = _choice(
        "as_win",
        "as_draw",
        "dealer_stays",
        doc=(
            "'as_win' (M-07): renchan iff the dealer made it; 'as_draw': renchan iff the "
            "dealer is tenpai, honba +1 (Tenhou); 'dealer_stays': always, honba +1 (H-23)."
        ),
    )
    nagashi_honba: bool = _param("Honba is added to nagashi payments.")
    nagashi_takes_deposits: bool = _param("The nagashi player takes the deposits.")
    paarenchan: bool = _param(
        "The dealer's 8th consecutive win on is yakuman (Makura 1.3 §44f L386-388, 1.5 L316-318;"
        " M-09: a draw resets the count, a chombo hand is ignored); the table offers it."
    )
    chips: bool = _param("The ruleset keeps a chip ledger (003).")
    yakitori_chips: int = _param("Chips a player without a win pays each player with one.")

    # -- hands from tiles (the engine's payments do not read these) ---------------
    open_tanyao: bool = _param("Tanyao counts in an open hand (kuitan; 003 nashi-nashi: no).")
    atozuke: bool = _param(
        "A yaku may come after the first call or on only some winning tiles (003: no, L264-292)."
    )
    double_wind_pair_fu: int = _param(
        "Fu of a pair of the seat wind that is also the round wind (Makura §45e: 2; H-11: 4)."
    )
    chiitoitsu_four_of_a_kind: bool = _param(
        "Chiitoitsu may hold four of a tile as two pairs (002 S(2) L112, 004 L33; Makura §44b no)."
    )
    renhou: str = _choice(
        "none",
        "yakuman",
        "6han",
        doc="Renhou: not a yaku, a yakuman, or 6 han plus the hand's yaku (002 Y L143, S-20).",
    )
    local_yaku: tuple[str, ...] = _param(
        "Local yaku the tiles can show: ids of the local yaku table, which gives each one's "
        "han and seed rule (scoring/engine/local_yaku.py; 004 L26, L54-L61, F-15; Makura §43)."
    )
    # The seeds' own valuations of a hand's tiles (defaults = Tenhou's).
    double_yakuman: tuple[str, ...] = _param(
        "Yakuman counted double: kokushi_13_sided, suuankou_tanki, junsei_chuuren, daisuushii "
        "(Makura 1.3 §43 L352-356, 1.5 L285-289; 003 L559-560); empty = all single (Tenhou)."
    )
    lone_yakuman: tuple[str, ...] = _param(
        "Yakuman never added to another yakuman: tenhou, chiihou, renhou, shiisanputa (Makura "
        "1.3 §43 L360, 1.5 L291-295); the hand then keeps the larger of the two values, the "
        "lone one on a tie (rules-spec M-21: chiihou with suuankou tanki is x2)."
    )
    rinshan_haitei: str = _choice(
        "refused",
        "rinshan_only",
        doc=(
            "A rinshan win on the last tile: refused as a contradiction (Tenhou), or rinshan's "
            "1 han only, the two never stacking (002 K(7) L72, 004 L108)."
        ),
    )
    pinfu_tsumo: bool = _param(
        "Pinfu counts on a tsumo (004 L24 'ツモ平和あり'; 003 L608: with 2 tsumo fu, 30 fu)."
    )
    rinshan_tsumo_fu: bool = _param(
        "A rinshan win adds the 2 tsumo fu (Makura §45d); False: none (002 K(3) L66)."
    )
    ryuuiisou_needs_hatsu: bool = _param(
        "Ryuuiisou needs hatsu (003 L557 '発必須'); False: any all-green hand (Makura §44g)."
    )
    riichi_kinds_combine: bool = _param(
        "Open riichi and double riichi add up to 3 han (Makura 1.5 §23); False: the riichi "
        "kinds never combine, an open double riichi is 2 han (Makura 1.3 §44d)."
    )
    red_fives: tuple[str, ...] = _param(
        "The red fives of the set, one entry each by suit: m, p, s (003 L91-94: m, p, p, s)."
    )
    five_dora: tuple[str, ...] = _param(
        "Suits whose every five is a dora (004 L22-23: p, s); a red five there counts once."
    )
    gold_fives: tuple[str, ...] = _param(
        "The gold fives of the set, one entry each by suit (004 L22-23 '赤3・金1': p, s); the "
        "last copy of its five, written as a plain 5 where the set has no plain five."
    )
    gold_five_dora: int = _param(
        "Dora a gold five is worth in all, its five's own dora included where every five is a "
        "dora (F-06: 1)."
    )
    white_pocchi: str = _choice(
        "none",
        "wild_after_riichi",
        doc=(
            "The 白ポッチ (a white dragon with a dot, 0z): not in the set, or a tile that a "
            "player in riichi who draws it takes as any tile to win by it (004 L39 'リーチ後、"
            "オールマイティ牌'); else, and held or discarded, a haku."
        ),
    )
    flowers: int = _param("Flower tiles in the set, each a nuki dora (004 L17, L27: 4).")
    nuki_north: bool = _param(
        "A north may be set aside as a nuki dora (3-player: Tenhou, 002 N(2) L76; not 004)."
    )

    def penalty_amount(self, kind: str) -> int | None:
        """Points a penalty of ``kind`` puts on the table, or None if the ruleset has none."""
        try:
            return self.penalty_amounts[self.penalty_kinds.index(kind)]
        except ValueError:
            return None

    def round_winds(self) -> tuple[str, ...]:
        """Every wind the game can reach, base rounds first: ('E', 'S', 'W') for Tenhou."""
        return WINDS[: self.rounds] + self.extension_winds

    def parameters(self) -> dict[str, Any]:
        """All parameters as plain Python values (tuples become lists), for display/export."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out
