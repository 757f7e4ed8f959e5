"""A game's page asked under another club's address, by someone who may see it there.

A guest's games at an event between clubs count in their own club's standings (docs/clubs.md,
"Events between clubs"): that club's standings and player pages link the game by its id,
under their own club's prefix, where it is not found. For whoever is a member (or a guest) of
the game's own club, the page answers with the game's address there; for anyone else it stays
404, as a game id of another club always is.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from clubsite.club_links import root_path
from clubsite.club_scope import current_club_id
from clubsite.models import Member
from scoring.models import Hanchan


def game_address_elsewhere(user: AbstractBaseUser | AnonymousUser, pk: int) -> str | None:
    """The address of game ``pk``'s page under its own club's prefix (``/c/<slug>/games/
    <pk>/``) when it is another club's than the one in scope and ``user`` is an active
    member or guest of that club, or a superuser; else None. Two queries at most, and only
    on the way to a 404."""
    if not user.is_authenticated:
        return None
    # Across clubs by design: the game's own club, then whether the viewer belongs to it
    # (tests/test_club_scoping.py names this module).
    found = (
        Hanchan.objects.with_scopes_disabled()
        .filter(pk=pk)
        .values_list("club_id", "club__slug")
        .first()
    )
    if found is None or found[0] == current_club_id():
        return None
    club_id, slug = found
    if not getattr(user, "is_superuser", False):
        belongs = (
            Member.objects.with_scopes_disabled()
            .filter(user_id=user.pk, club_id=club_id, active=True)
            .exists()
        )
        if not belongs:
            return None
    return f"/c/{slug}{root_path('game_detail', [pk])}"
