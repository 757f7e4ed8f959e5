from django.db import migrations, models
from django.db.models import Count, Q

# meetings.notices.REVISING_KINDS when this migration was written.
REVISING_KINDS = [
    "applied",
    "withdrew",
    "declared",
    "finalized",
    "called_off",
    "rerecruited",
    "moved",
    "cancelled",
    "held",
    "reported",
]


def count_revisions(apps, schema_editor):
    """Existing meetups start at the revisions their notices record, never below what a
    calendar app already holds (the date changes, the old SEQUENCE)."""
    Meetup = apps.get_model("meetings", "Meetup")
    meetups = Meetup.objects.annotate(
        revisions=Count("notices", filter=Q(notices__kind__in=REVISING_KINDS))
    )
    for meetup in meetups:
        Meetup.objects.filter(pk=meetup.pk).update(sequence=meetup.revisions)


class Migration(migrations.Migration):
    dependencies = [
        ("meetings", "0003_notice_undelivered"),
    ]

    operations = [
        migrations.AddField(
            model_name="meetup",
            name="sequence",
            field=models.PositiveIntegerField(
                default=0, editable=False, verbose_name="calendar revision"
            ),
        ),
        migrations.RunPython(count_revisions, migrations.RunPython.noop),
    ]
