# The memberships' role and active flag from their logins' flags: a migration of its own,
# since PostgreSQL refuses to alter a table in the transaction that has just updated its rows
# ("pending trigger events").

from django.conf import settings
from django.db import migrations


def flags_to_memberships(apps, schema_editor):
    """Each existing member keeps what their login said: a staff login's member is a steward
    of the club (role "steward"), an inactive login's member is deactivated (active False)."""
    Member = apps.get_model("clubsite", "Member")
    Member.objects.filter(user__is_staff=True).update(role="steward")
    Member.objects.filter(user__is_active=False).update(active=False)


def memberships_to_flags(apps, schema_editor):
    """Back to the login's flags, the one-club site's way of saying it: a login with a
    membership is active if one of its memberships is, staff if one is a steward's (a
    deactivated steward was an inactive staff login; a superuser's staff flag stays)."""
    Member = apps.get_model("clubsite", "Member")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    flags: dict[int, tuple[bool, bool]] = {}
    for user_id, role, active in Member.objects.values_list("user_id", "role", "active"):
        was_active, was_steward = flags.get(user_id, (False, False))
        flags[user_id] = (was_active or active, was_steward or role == "steward")
    for user in User.objects.filter(pk__in=flags):
        active, steward = flags[user.pk]
        user.is_active = active
        if not user.is_superuser:
            user.is_staff = steward
        user.save(update_fields=["is_active", "is_staff"])


class Migration(migrations.Migration):

    dependencies = [
        ('clubsite', '0009_memberships'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(flags_to_memberships, memberships_to_flags, elidable=False),
    ]
