"""The engine's refusals in the reader's language, by ``RecordError.code``.

The engine is plain Python and speaks English only; every refusal carries a stable ``code``
and the numbers a sentence needs (``params``, :data:`scoring.engine.ERROR_CODES`). The ledger
turns a refusal into the sentence a player reads here, by code, never by the English wording.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.formatting import format_points
from scoring.engine import RecordError, Ruleset

# The engine's refusals that a form can bring about, by RecordError.code: a sentence that needs
# no numbers. Codes of one meaning share a sentence (every fu the rules refuse reads the same).
_REFUSALS: dict[str, Promise] = {
    "game_over": gettext_lazy("This game is over: no more hands can be entered."),
    "no_open_riichi": gettext_lazy("These rules have no open riichi."),
    "fu_not_allowed": gettext_lazy("This fu is not possible under these rules."),
    "fu_not_scored": gettext_lazy("This fu is not possible under these rules."),
    "fu_needed": gettext_lazy("This fu is not possible under these rules."),
    "fu_out_of_range": gettext_lazy("This fu is not possible under these rules."),
    "no_pao": gettext_lazy("These rules have no pao (liability for a yakuman)."),
    "no_chips": gettext_lazy("These rules have no chips."),
    "no_such_abortive_draw": gettext_lazy("These rules have no such abortive draw."),
    "unknown_abortive_draw": gettext_lazy("These rules have no such abortive draw."),
    "no_such_penalty": gettext_lazy("These rules have no such penalty."),
    "no_nagashi": gettext_lazy("These rules have no nagashi mangan."),
    "no_chombo_after_result": gettext_lazy(
        "Under these rules a chombo is waived when the hand is won or drawn."
    ),
    "chombo_offender_is_winner": gettext_lazy(
        "A winner cannot also owe a chombo in the same hand."
    ),
    "sancha_ron_is_abort": gettext_lazy(
        "Three players winning on one discard is an abortive draw under these rules."
    ),
    "dealer_stop_not_all_last": gettext_lazy(
        "Only the dealer of the last hand (all-last) can end the game."
    ),
    "dealer_stop_needs_renchan": gettext_lazy(
        "The dealer can end the game only after keeping the deal by a win or tenpai."
    ),
    "no_agari_yame": gettext_lazy("These rules have no agari-yame."),
    "no_tenpai_yame": gettext_lazy("These rules have no tenpai-yame."),
    "final_scores_step": gettext_lazy("Scores go in steps of 100."),
    "final_scores_deposits": gettext_lazy("Deposits are 0 or more, in steps of 100."),
    "final_scores_tobi": gettext_lazy("Say who busted whom: one player each, not themselves."),
}


def refusal_message(error: RecordError, ruleset: Ruleset) -> str:
    """An engine refusal in the reader's language, chosen by ``error.code`` (see
    :data:`scoring.engine.ERROR_CODES`) and filled in from ``error.params``; ``ruleset`` (the
    game's, overrides applied) supplies a number the error does not carry. A code no form
    brings about (a malformed record) keeps the engine's English ``error.message``,
    introduced as not possible under these rules."""
    text = _REFUSALS.get(error.code)
    if text is not None:
        return str(text)

    def number(name: str, default: int) -> int:
        value = error.params.get(name)
        return value if isinstance(value, int) else default

    if error.code == "riichi_below_minimum":
        return _("Not enough points to declare riichi: it takes at least %(points)s.") % {
            "points": format_points(number("min_score", ruleset.riichi_min_score))
        }
    if error.code == "two_han_minimum":
        return _("From %(n)d honba a win needs at least 2 han.") % {
            "n": number("from_honba", ruleset.two_han_minimum_from_honba)
        }
    if error.code == "too_many_ron_winners":
        return _("At most %(n)d players can win on one discard under these rules.") % {
            "n": number("max", ruleset.multi_ron_max)
        }
    if error.code == "final_scores_total":
        return _("The scores and deposits add up to %(sum)s; they must add up to %(total)s.") % {
            "sum": format_points(number("sum", 0)),
            "total": format_points(number("total", ruleset.players * ruleset.start_points)),
        }
    if error.code == "final_scores_not_bust":
        return _("Only a bust player can be busted.")
    if error.code == "final_scores_tobi_needs_buster":
        return _("A player is bust: say who busted them (these rules pay for tobi).")
    if error.code == "yame_needs_target":
        return _("Nobody has %(points)s points yet: the game goes on.") % {
            "points": format_points(number("target", ruleset.extension_target))
        }
    return _("Not possible under these rules: %(why)s") % {"why": error.message}
