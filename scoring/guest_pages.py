"""The scoring pages a guest of an event between clubs may open in the club that invited
them (``clubsite.guest_access``): the pages of a game they sit in (to follow it, enter its
hands at the table and confirm it under their own login), their own player page, and the
rulesets. Registered when the app starts (``scoring.apps``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clubsite.guest_access import allow_guests, always
from clubsite.models import Member
from scoring.models import Seat

# The pages of one game (``games/<pk>/...``) that its seated players use.
GAME_PAGES = (
    "game_detail",
    "game_record",
    "game_chart",
    "game_confirm",
    "game_final_scores",
    "hand_create",
    "hand_preview",
    "hand_edit",
    "hand_edit_preview",
    "hand_undo",
)


def seated(guest: Member, kwargs: Mapping[str, Any]) -> bool:
    """The guest sits in the game ``kwargs["pk"]`` (of the club in scope). One query."""
    return Seat.objects.filter(hanchan_id=int(kwargs.get("pk", 0)), member=guest).exists()


def own_page(guest: Member, kwargs: Mapping[str, Any]) -> bool:
    """The page is the guest's own (``kwargs["member_id"]``). No query."""
    return kwargs.get("member_id") == guest.pk


def register() -> None:
    """Register the scoring pages open to guests."""
    for name in GAME_PAGES:
        allow_guests(name, seated)
    allow_guests("member_detail", own_page)
    for name in ("ruleset_list", "ruleset_detail", "hand_value"):
        allow_guests(name, always)
