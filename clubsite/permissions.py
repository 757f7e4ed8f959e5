"""Who may do what, as predicates both apps use (the rules themselves live with their data:
the ledger's in scoring, the meetups' in meetings)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def is_steward(user: AbstractBaseUser | AnonymousUser) -> bool:
    """A club steward: a logged-in staff user (seed 001's 世話役; Django's ``is_staff``)."""
    return bool(user.is_authenticated and getattr(user, "is_staff", False))
