"""Who may use the steward's desk: stewards (``is_staff``,
:func:`clubsite.permissions.is_steward`)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubsite.permissions import is_steward


def steward_user(request: HttpRequest) -> User:
    """The logged-in steward making ``request``.

    Raises:
        PermissionDenied: anyone else (a 403 page).
    """
    if not is_steward(request.user):
        raise PermissionDenied(_("Only stewards use the desk."))
    user: User = request.user  # type: ignore[assignment]
    return user
