"""The clubsite scoring engine: pure Python (no Django), integer points.

Public API:

- :func:`load_ruleset`, :func:`available_rulesets`, :class:`Ruleset` — rulesets (TOML files in
  ``scoring/rulesets/``, rules-spec §1 and Appendix A); :func:`ruleset_variants`,
  :func:`variant_of`, :class:`Variant` — the variants a ruleset offers when a game starts
  (``scoring/rulesets/variants/``).
- :func:`parse_hand`, :class:`Hand`, :class:`Win`, :class:`Penalty` — hand outcomes.
- :class:`Game` — one hanchan fed hand by hand; :class:`HandResult`, :class:`TableState`.
- :func:`final_settlement`, :class:`Settlement`, :class:`Payment` — the end of a game.
- :func:`replay_record`, :class:`Replay` — a whole game record; :func:`game_of_record` — the
  game of a record's hands, to go on from;
- :func:`all_last_conditions`, :class:`AllLast` — what each seat needs in the hand in play
  to climb to each better place (docs/all-last.md);
  :func:`check_record_values` — the text and numbers no record has.
- :func:`hand_payment`, :func:`basic_points`, :func:`legal_fu` — the
  payment grid; :func:`dealer_win_streak`, :func:`is_paarenchan_next` — paarenchan's count.
- :class:`RecordError` — the only exception raised for bad input; its ``code`` is one of
  :data:`ERROR_CODES`.
"""

from .all_last import AllLast, all_last_conditions
from .error_codes import ERROR_CODES
from .errors import RecordError
from .game import Game, HandResult, TableState
from .hand_value import basic_points, hand_payment, legal_fu
from .hands import Hand, Penalty, Win, parse_hand, parse_hands
from .paarenchan import dealer_win_streak, is_paarenchan_next
from .record_values import check_record_values
from .replay import Replay, game_of_record, record_players, replay_record, ruleset_of_record
from .ruleset import Ruleset
from .ruleset_files import (
    Variant,
    apply_overrides,
    available_rulesets,
    load_ruleset,
    ruleset_from_mapping,
    ruleset_variants,
    variant_of,
)
from .settlement import Payment, Settlement, final_settlement

__all__ = [
    "ERROR_CODES",
    "AllLast",
    "Game",
    "Hand",
    "HandResult",
    "Payment",
    "Penalty",
    "RecordError",
    "Replay",
    "Ruleset",
    "Settlement",
    "TableState",
    "Variant",
    "Win",
    "all_last_conditions",
    "apply_overrides",
    "available_rulesets",
    "basic_points",
    "check_record_values",
    "dealer_win_streak",
    "final_settlement",
    "game_of_record",
    "hand_payment",
    "is_paarenchan_next",
    "legal_fu",
    "load_ruleset",
    "parse_hand",
    "parse_hands",
    "record_players",
    "replay_record",
    "ruleset_from_mapping",
    "ruleset_of_record",
    "ruleset_variants",
    "variant_of",
]
