"""Shared fixtures. Personas (member, coordinator, outsider) join as the views that need them do."""

import pytest
from django.contrib.auth.models import User


@pytest.fixture
def staff(db: None) -> User:
    """A club officer who runs the site and may use the admin."""
    return User.objects.create_user("staff", password="staff-password", is_staff=True)
