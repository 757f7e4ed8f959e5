"""Every ``code`` a :class:`~scoring.engine.errors.RecordError` from the engine can carry.

:data:`ERROR_CODES` maps each code to its meaning in one line, naming the ``params`` that come
with it. Codes are stable: code outside the engine (the UI's translated refusals, tests) keys
on them, so a code is never renamed or reused for another meaning; a new refusal gets a new
code here. ``tests/test_engine_error_codes.py`` checks that every code raised is listed here
and every listed code is raised somewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ERROR_CODES: Mapping[str, str] = MappingProxyType(
    {
        # Game.play: the hand is well-formed but this game or ruleset does not allow it.
        "game_over": "the game already ended; params: ended_by (tobi, last_hand, agari_yame, ...)",
        "no_open_riichi": "the ruleset has no open riichi",
        "riichi_below_minimum": "a riichi below the ruleset's minimum score; "
        "params: seat, score, min_score",
        "no_such_penalty": "the ruleset has no penalty of this kind; params: kind",
        "no_pao": "the ruleset has no pao (liability for a yakuman)",
        "no_chips": "chips where the ruleset has none",
        "chips_out_of_range": "more chips from one payer than a ruleset with chips allows "
        "(MAX_CHIPS_PER_PAYER); params: chips, max",
        "sancha_ron_is_abort": "three ron winners, which the ruleset makes the abortive draw "
        "sancha_ron; params: max (ron winners allowed)",
        "too_many_ron_winners": "more ron winners than the ruleset allows; params: max, winners",
        "no_nagashi": "the ruleset has no nagashi mangan",
        "no_chombo_after_result": "a chombo paid after a win or draw (extension) where the "
        "ruleset waives it (Makura §34)",
        "no_such_abortive_draw": "the ruleset has no abortive draw of this kind; params: kind",
        "dealer_stop_not_all_last": "dealer_stops outside the all-last hand",
        "dealer_stop_needs_renchan": "dealer_stops although the dealer did not keep the deal "
        "by a win or tenpai",
        "no_agari_yame": "dealer_stops after a dealer win, and the ruleset has no agari-yame",
        "no_tenpai_yame": "dealer_stops after dealer tenpai, and the ruleset has no tenpai-yame",
        "yame_needs_target": "dealer_stops while nobody has the extension target; "
        "params: target, top_score",
        "two_han_minimum": "a 1-han win where the ruleset needs 2 han from some honba; "
        "params: from_honba, honba, han",
        "fu_not_scored": "a fu given where the ruleset has no fu scoring; params: fu, fixed_fu",
        "fu_needed": "a win below 5 han without its fu; params: han",
        "fu_out_of_range": "a fu that no hand has (not 25 nor 20-110 in steps of 10); params: fu",
        "fu_not_allowed": "a fu impossible for this han and kind of win under the ruleset "
        "(20 fu ron, 25 fu 1 han, 25 fu 2-han tsumo, ...); params: han, fu, win (ron or tsumo)",
        # parse_hand: the hand's JSON shape.
        "hand_not_an_object": "a hand that is not a JSON object",
        "unknown_result": "a result other than ron, tsumo, draw, abort, chombo",
        "unknown_key": "a key the record format does not have",
        "key_not_for_result": "a key of another result (e.g. loser on a tsumo); params: result",
        "not_a_seat": "a seat that is not an integer",
        "seat_out_of_range": "a seat number beyond the table; params: players, and seat where "
        "it is a number",
        "not_a_seat_list": "a list of seats (riichi, tenpai, ...) that is not a list",
        "seat_listed_twice": "a list of seats naming one seat twice",
        "open_riichi_without_riichi": "an open riichi seat that is not in riichi",
        "not_a_boolean": "a flag (dealer_stops) that is not true or false",
        "not_a_string": "a name (a penalty's kind) that is not a string",
        "not_an_integer": "a number (han, fu, yakuman, chips) that is not an integer",
        "wins_not_a_list": "a ron or tsumo without a non-empty list of wins",
        "win_not_an_object": "a win that is not a JSON object",
        "winner_missing": "a win without its winner",
        "winner_twice": "one seat winning twice in a hand",
        "tsumo_needs_one_win": "a tsumo with more than one win",
        "ron_needs_loser": "a ron without the discarder's seat",
        "loser_is_winner": "the discarder also among the ron winners; params: seat",
        "rinshan_on_ron": "rinshan_from (who fed the kan of a rinshan tsumo) on a ron",
        "rinshan_from_is_winner": "rinshan_from naming the winner",
        "pao_is_winner": "pao naming the winner",
        "unknown_limit": "a limit other than mangan, haneman, baiman, sanbaiman, yakuman",
        "limit_with_han_fu": "a win giving both a limit and han/fu",
        "han_missing": "a win with neither han nor a limit",
        "han_below_one": "a win below 1 han",
        "yakuman_without_limit": "a yakuman multiple on a win that is not limit yakuman",
        "yakuman_multiple_out_of_range": "a yakuman multiple outside 1-6; params: yakuman",
        "negative_chips": "a negative number of chips; params: chips",
        "yaku_malformed": "a win's yaku that are not a list of names with their han",
        "tiles_malformed": "a win's tiles that are not the hand-value contract's hand keys",
        "unknown_abortive_draw": "an abortive draw kind that does not exist",
        "chombo_needs_offender": "a chombo without the offender's seat",
        "chombo_not_an_object": "a win's or draw's chombo (extension) that is not "
        "{offender[, noten_payments]}",
        "chombo_offender_is_winner": "a win's chombo owed by one of its winners; params: seat",
        "penalties_not_a_list": "penalties that are not a list",
        "penalty_not_an_object": "a penalty that is not an object of exactly seat and kind",
        # check_record_values: text and numbers no record has, anywhere in it.
        "text_not_storable": "a text or key with a NUL character or a lone surrogate, which "
        "no database stores",
        "number_out_of_range": "an integer beyond ten million either way (the bound of every "
        "ruleset number); params: limit",
        # replay_record: the record around the hands.
        "record_not_an_object": "a game record that is not a JSON object",
        "unknown_format": "a record format other than the one supported; params: format",
        "ruleset_missing": "a record that names no ruleset",
        "unknown_ruleset": "a ruleset id with no built-in ruleset; params: ruleset",
        "hands_not_a_list": "a record's hands that are not a list",
        "final_scores_with_hands": "a record with both hands and final scores",
        "players_wrong_count": "players that are not one name per seat; params: players, ruleset",
        "player_twice": "one name sitting twice",
        # A game entered as final scores only (final_scores.py).
        "final_scores_not_object": "final_scores that are not an object",
        "final_scores_shape": "final scores or chips that are not one integer per seat; "
        "params: players",
        "final_scores_step": "a final score not in steps of 100",
        "final_scores_deposits": "final deposits that are negative or not in steps of 100",
        "final_scores_total": "final scores and deposits not adding up to the starting total; "
        "params: total, sum",
        "final_scores_chips": "final chips that do not sum to 0",
        "final_scores_tobi": "a tobi entry that is not {busted, by} of two different seats",
        "final_scores_not_bust": "a tobi entry for a seat that is not bust here; params: seat",
        "final_scores_tobi_needs_buster": "a bust seat without who busted them where the "
        "ruleset pays for tobi; params: seat",
        # Rulesets and a game's overrides.
        "overrides_not_an_object": "overrides that are not an object of parameter: value",
        "unknown_parameter": "a ruleset parameter that does not exist",
        "parameter_not_overridable": "an override of a parameter fixed for the ruleset",
        "ruleset_id_mismatch": "a ruleset file whose id is not its file name; params: ruleset",
        "parameter_missing": "a ruleset without one of its parameters",
        "parameter_wrong_type": "a ruleset parameter of the wrong type; params: type",
        "parameter_out_of_range": "a ruleset number beyond ten million either way, or a text "
        "beyond 2,000 characters; params: limit",
        "parameter_not_a_choice": "a ruleset parameter outside its choices",
        "players_not_3_or_4": "a ruleset for other than 3 or 4 players",
        "uma_wrong_length": "uma without one value per rank; params: players",
        "uma_floating_with_uma": "floating uma together with rank uma",
        "uma_floating_wrong_shape": "floating uma not a players x players table; params: players",
        "not_a_multiple_of_100": "a point amount that is negative or not a multiple of 100",
        "noten_total_uneven": "a noten total that some tenpai split leaves in pieces",
        "payment_rounding_unknown": "a payment rounding other than 100 or 1000",
        "rounds_not_1_or_2": "rounds other than 1 (tonpuusen) or 2 (hanchan)",
        "unknown_wind": "an extension wind that does not exist; params: wind",
        "extension_without_winds": "an extension without any wind to extend into",
        "abortive_draws_unknown": "a ruleset listing an abortive draw that does not exist; "
        "params: kind",
        "local_yaku_unknown": "a ruleset listing a local yaku the tiles cannot show; params: yaku",
        "double_wind_pair_fu_out_of_range": "a double-wind pair worth other than 2 or 4 fu",
        "penalty_amounts_wrong_length": "penalty amounts without one per penalty kind",
        "multi_ron_max_out_of_range": "multi_ron_max outside 1 to players - 1; params: max",
        "yakuman_max_out_of_range": "yakuman_max outside 1-6",
        "counted_yakuman_below_sanbaiman": "counted_yakuman_han below sanbaiman_han",
        "fixed_fu_out_of_range": "a fixed fu outside 20-110 in steps of 10",
        "mangan_chombo_needs_4_players": "mangan chombo in a ruleset for other than 4 players",
    }
)
