"""The login backend: Django's `ModelBackend`, whose user comes with its member profile.

Every page's header shows the viewer's profile (``current_member``,
clubsite/context_processors.py) and many views read ``request.user.member``; loading the user
with ``select_related("member")`` makes that one outer join in the user's own query instead of a
query of its own on every page and every tap of a table screen (it took the player page to 11
queries, over its budget of 10). An account without a profile (``createsuperuser``) still logs
in: its ``user.member`` raises ``RelatedObjectDoesNotExist`` without a query.

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

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


class MemberModelBackend(ModelBackend):
    """`ModelBackend` whose :meth:`get_user` reads the user's `Member` in the same query."""

    def get_user(self, user_id: Any) -> User | None:
        """The active user of ``user_id`` with ``user.member`` loaded (or known missing), or
        None. One query."""
        user_model = get_user_model()
        try:
            user = user_model._default_manager.select_related("member").get(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

    async def aget_user(self, user_id: Any) -> User | None:
        """:meth:`get_user` for async requests."""
        user_model = get_user_model()
        try:
            user = await user_model._default_manager.select_related("member").aget(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None

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
