"""The login backend: Django's `ModelBackend`, whose user comes with its membership of the club.

Every page's header shows the viewer's membership of the club of the request
(``current_member``, clubsite/context_processors.py), every steward's right asks it
(clubsite/permissions.py) and many views read it (``Member.for_user``); loading it with the user,
one outer join on the membership of the club in hand in the user's own query, saves a query
of its own on every page and every tap of a table screen (it took the player page to 11 queries,
over its budget of 10). An account without a membership there (``createsuperuser``) still logs
in: ``Member.for_user`` answers None for it without a query. Outside any club's scope on a site
of several clubs the user is loaded alone, and ``Member.for_user`` asks when a club is named.

Sessions store the path of the backend that logged them in, and Django logs out a session
whose path is no longer in ``AUTHENTICATION_BACKENDS``. So that the deploy logs nobody out
(a table screen mid-game would be sent to the login page), settings keep
``django.contrib.auth.backends.ModelBackend`` listed after this backend: sessions from before
keep working (with the profile's query of old) until their member logs in again or they
expire, and new logins store this backend's path. Listed second, Django's backend would check
a wrong password a second time (twice the hashing for every failed attempt, a cost a guesser
chooses); :meth:`MemberModelBackend.authenticate` therefore ends the attempt itself
(``PermissionDenied``, which `django.contrib.auth.authenticate` reads as "stop here" and
reports as one failed login, as axes counts it). The old path can go from settings once the
sessions from before this backend have expired (``SESSION_COOKIE_AGE``, two weeks without a
save), logging out whoever still holds one.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import FilteredRelation, Q, QuerySet
from django.http import HttpRequest

from clubsite.club_scope import ClubNotChosen, current_club
from clubsite.models import Member

# The alias under which the user's query joins its membership of the club in hand.
_JOINED = "membership_here"


def _users_with_membership() -> tuple[QuerySet[User], int | None]:
    """The users, each joined to its membership of the club in hand, and that club's id; the
    users alone and None outside any club's scope on a site of several clubs."""
    users: QuerySet[User] = get_user_model()._default_manager.all()
    try:
        club_id = int(current_club().pk)
    except ClubNotChosen:
        return users, None
    joined = users.annotate(
        **{_JOINED: FilteredRelation("memberships", condition=Q(memberships__club_id=club_id))}
    ).select_related(_JOINED)
    return joined, club_id


def _remembered(user: User, club_id: int | None) -> User:
    """``user`` keeping its joined membership as ``Member.for_user``'s answer for the club."""
    if club_id is not None:
        Member.remember_for_user(user, club_id, getattr(user, _JOINED, None))
    return user


class MemberModelBackend(ModelBackend):
    """`ModelBackend` whose :meth:`get_user` reads the user's membership of the club in hand
    in the same query."""

    def get_user(self, user_id: Any) -> User | None:
        """The active user of ``user_id`` with its membership of the club in hand known to
        ``Member.for_user`` (found or missing), or None. One query."""
        users, club_id = _users_with_membership()
        try:
            user = users.get(pk=user_id)
        except get_user_model().DoesNotExist:
            return None
        return _remembered(user, club_id) if self.user_can_authenticate(user) else None

    async def aget_user(self, user_id: Any) -> User | None:
        """:meth:`get_user` for async requests."""
        # Outside any club's scope the club is looked up, a query of the synchronous kind.
        users, club_id = await sync_to_async(_users_with_membership)()
        try:
            user = await users.aget(pk=user_id)
        except get_user_model().DoesNotExist:
            return None
        return _remembered(user, club_id) if self.user_can_authenticate(user) else None

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        """Django's check of the username and password; a failure ends the attempt.

        Raises:
            PermissionDenied: the credentials do not log anyone in, so that the
                `ModelBackend` listed after this one for old sessions does not check them
                again (see the module's docstring).
        """
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        """:meth:`authenticate` for async requests."""
        user = await super().aauthenticate(request, username=username, password=password, **kwargs)
        if user is None:
            raise PermissionDenied
        return user
