"""The hanchan ledger's pages: the games list, new game, the table screen with hand entry."""

from scoring.views.confirmations import game_confirm
from scoring.views.final_scores import game_final_scores
from scoring.views.games import (
    game_chart,
    game_detail,
    game_list,
    game_new,
    game_record,
    game_void,
    hand_undo,
)
from scoring.views.hand_value import hand_value
from scoring.views.hands import hand_create, hand_edit, hand_edit_preview, hand_preview
from scoring.views.manners import game_manners
from scoring.views.online import game_import
from scoring.views.placement_story import member_swings_page
from scoring.views.player import member_page
from scoring.views.player_stats import head_to_head_page, head_to_head_pick, member_figures
from scoring.views.rulesets import ruleset_detail, ruleset_list
from scoring.views.standings import champions_page, standings_page
from scoring.views.standings_csv import member_games_export, standings_export
from scoring.views.whatif import what_if_page
from scoring.views.yaku import yaku_page

__all__ = [
    "champions_page",
    "member_games_export",
    "member_page",
    "member_swings_page",
    "member_figures",
    "head_to_head_page",
    "head_to_head_pick",
    "standings_export",
    "standings_page",
    "game_confirm",
    "game_detail",
    "game_manners",
    "game_final_scores",
    "game_import",
    "game_list",
    "game_new",
    "game_chart",
    "game_record",
    "game_void",
    "hand_create",
    "hand_value",
    "what_if_page",
    "yaku_page",
    "hand_edit",
    "hand_edit_preview",
    "hand_preview",
    "hand_undo",
    "ruleset_detail",
    "ruleset_list",
]
