"""Who may see and change a game, and who is acting: one access call per object (as
healthchecks' ``_get_check_for_user`` / ``_get_rw_check_for_user``).

A view loads its game and authorizes the request in one call: :func:`hanchan_for_member`
(every page is for members only, so any logged-in member may see a game),
:func:`hanchan_for_keeper` (the seated players and stewards may enter, correct, undo and
void) or :func:`hanchan_for_manners` (stewards note manners warnings). Each loads the game
with its ruleset version, online origin and seated members in one query; a steward's part of
each right is asked of :mod:`clubsite.permissions`. Who confirms a result is the ledger's
rule (``scoring.ledger.confirmation_state``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from clubsite.models import Member
from clubsite.permissions import may_keep_every_game, may_note_manners
from scoring.ledger import hanchan_with_seats
from scoring.models import Hanchan, Seat


def hanchan_for_member(request: HttpRequest, pk: int) -> Hanchan:
    """The game ``pk`` for a page any member may see (the login is required by the
    middleware for every page).

    Raises:
        Http404: there is no such game.
    """
    hanchan = hanchan_with_seats(pk, online=True)
    if hanchan is None:
        raise Http404(_("There is no such game."))
    return hanchan


def hanchan_for_keeper(request: HttpRequest, pk: int) -> Hanchan:
    """The game ``pk`` for a change: only its seated players and stewards keep its score.

    Raises:
        Http404: there is no such game.
        PermissionDenied: the user is neither seated at the game nor a steward.
    """
    hanchan = hanchan_for_member(request, pk)
    if not may_keep_score(request.user, seats_of(hanchan)):
        raise PermissionDenied(_("Only the players at this table and staff may change it."))
    return hanchan


def hanchan_for_manners(request: HttpRequest, pk: int) -> Hanchan:
    """The game ``pk`` for its manners warnings: only stewards note and read them.

    Raises:
        PermissionDenied: not a steward (asked first: anyone else learns nothing of the game).
        Http404: there is no such game.
    """
    if not may_note_manners(request.user):
        raise PermissionDenied(_("Only stewards note manners warnings."))
    return hanchan_for_member(request, pk)


def seats_of(hanchan: Hanchan) -> list[Seat]:
    """The game's seats in seat order (prefetched with the game)."""
    return sorted(hanchan.seats.all(), key=lambda seat: seat.index)


def names_of(hanchan: Hanchan) -> list[str]:
    """The seated members' display names, in seat order."""
    return [seat.member.display_name for seat in seats_of(hanchan)]


def may_keep_score(user: AbstractBaseUser | AnonymousUser, seats: Sequence[Seat]) -> bool:
    """Members seated at the game, and staff, may enter, correct, undo and void."""
    if not user.is_authenticated:
        return False
    if may_keep_every_game(user):
        return True
    return any(seat.member.user_id == user.pk for seat in seats)


def acting_member(request: HttpRequest, hanchan: Hanchan | None = None) -> Member | None:
    """Who is doing this, for the history: a player's profile comes with the seats already
    loaded; anyone else's (staff) takes a query."""
    if hanchan is not None:
        for seat in seats_of(hanchan):
            if seat.member.user_id == request.user.pk:
                return seat.member
    return Member.for_user(request.user)


def actor(request: HttpRequest, hanchan: Hanchan) -> dict[str, Any]:
    """Who makes a change, as the ledger's writes take it: ``by`` (the member), ``steward``
    (a steward's authority: their change confirms the result) and ``user_id``."""
    return {
        "by": acting_member(request, hanchan),
        "steward": may_keep_every_game(request.user),
        "user_id": request.user.pk,
    }
