"""What every page's header needs to know about who is looking at it."""

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from clubsite.models import Member


def current_member(request: HttpRequest) -> dict[str, object]:
    """``current_member``: the logged-in user's `Member` profile, or None (anonymous, or an
    account without a profile). Lazy, so pages that never show it cost no query."""
    return {"current_member": SimpleLazyObject(lambda: Member.for_user(request.user))}
