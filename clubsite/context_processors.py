"""What every page's header needs to know about who is looking at it."""

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from clubsite.models import Member


def current_member(request: HttpRequest) -> dict[str, object]:
    """``current_member``: the logged-in user's `Member` profile, or None (anonymous, or an
    account without a profile). No query: the login backend loads the profile with the user
    (clubsite/auth_backends.py; a session from before it reads it here, lazily)."""
    return {"current_member": SimpleLazyObject(lambda: Member.for_user(request.user))}
