"""Creating a club member: the one write that makes a login and its profile.

A member is a Django ``User`` (the login; ``is_staff`` for a steward) and its
:class:`clubsite.models.Member` profile. Whoever adds one, the steward's desk, the admin's
member page, ``manage.py create_member``, the demo club, a seeded history or an online
import that meets a player no member is, writes them here, so a member is made the same way
everywhere.

The callers check what people typed before (the desk's form, the command's ``full_clean``,
the admin's model form); these functions write, and the database's unique keys refuse a
login or display name taken meanwhile (``IntegrityError``; nothing is written then).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction

from clubsite.models import Member

# A player an online import adds gets a login nobody logs in with: this prefix, 12 hex digits.
IMPORTED_PREFIX = "imported-"


@transaction.atomic
def member_create(
    *,
    username: str,
    display_name: str,
    password: str | None = None,
    email: str = "",
    steward: bool = False,
    superuser: bool = False,
    furigana: str = "",
    phone: str = "",
    women_division: bool = False,
) -> Member:
    """Create a member: their login and their profile, in one transaction.

    Args:
        username: the login name (Django normalizes it, as ``create_user`` does).
        display_name: as on score sheets and standings (unique).
        password: the login's password; ``None`` leaves it without a usable one (the member
            chooses one by the welcome e-mail's link, or never logs in).
        email: the login's address (its domain is lower-cased, as ``create_user`` does).
        steward: a club steward (``is_staff``); ``superuser``: the site's owner too.
        furigana, phone, women_division: the profile's other fields.

    Returns:
        The saved ``Member``, its ``user`` the saved login.

    Raises:
        IntegrityError: the login or the display name is taken; nothing is written.
    """
    user = get_user_model().objects.create_user(
        username=username,
        email=email,
        password=password,
        is_staff=steward,
        is_superuser=superuser,
    )
    return member_profile_create(
        user=user,
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        women_division=women_division,
    )


def member_profile_create(
    *,
    user: User,
    display_name: str,
    furigana: str = "",
    phone: str = "",
    women_division: bool = False,
) -> Member:
    """Create the profile of an existing login that has none (one made on the admin's user
    page or by ``createsuperuser``); :func:`member_create` makes both at once.

    Raises:
        IntegrityError: the login has a profile, or the display name is taken.
    """
    return Member.objects.create(
        user=user,
        display_name=display_name,
        furigana=furigana,
        phone=phone,
        women_division=women_division,
    )


@dataclass(frozen=True, slots=True)
class NewMember:
    """A member for :func:`members_create_many`: a login name and the profile's names."""

    username: str
    display_name: str
    furigana: str = ""


@transaction.atomic
def members_create_many(*, new: Sequence[NewMember]) -> list[Member]:
    """Create many members at once, as a seeded history of the club needs hundreds: logins
    without a usable password and their profiles, in two statements, in the order given.

    The logins are written as given (no normalization): the caller makes the names.

    Raises:
        IntegrityError: a login or display name is taken; nothing is written.
    """
    user_model = get_user_model()
    users = [user_model(username=one.username) for one in new]
    for user in users:
        user.set_unusable_password()
    users = user_model.objects.bulk_create(users)
    return Member.objects.bulk_create(
        Member(user=user, display_name=one.display_name, furigana=one.furigana)
        for user, one in zip(users, new, strict=True)
    )


def imported_member_create(*, display_name: str) -> Member:
    """Create a member for a player an online import meets by a name no member holds: a
    login nobody logs in with (``imported-`` and 12 hex digits, no usable password) and a
    profile under that name. A steward may give them a login at the desk later.

    Raises:
        IntegrityError: the display name is taken; nothing is written.
    """
    return member_create(
        username=f"{IMPORTED_PREFIX}{secrets.token_hex(6)}", display_name=display_name
    )


@transaction.atomic
def imported_member_save(member: Member) -> Member:
    """Save ``member``, a profile an online import built unsaved (its ``display_name`` set)
    for a player no member is, with a login as :func:`imported_member_create` gives one.

    The same object is saved, not a copy: the import matches the player's name to it in the
    batch's later logs, which must find it saved.

    Raises:
        ValueError: ``member`` is saved already.
        IntegrityError: the display name is taken; nothing is written.
    """
    if member.pk is not None:
        raise ValueError("the member is saved already")
    member.user = get_user_model().objects.create_user(
        username=f"{IMPORTED_PREFIX}{secrets.token_hex(6)}", password=None
    )
    member.save()
    return member
