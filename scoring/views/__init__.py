"""The hanchan ledger's pages: the games list, new game, the table screen with hand entry."""

from scoring.views.games import (
    game_detail,
    game_list,
    game_new,
    game_record,
    game_void,
    hand_undo,
)
from scoring.views.hands import hand_create, hand_edit, hand_edit_preview, hand_preview

__all__ = [
    "game_detail",
    "game_list",
    "game_new",
    "game_record",
    "game_void",
    "hand_create",
    "hand_edit",
    "hand_edit_preview",
    "hand_preview",
    "hand_undo",
]
