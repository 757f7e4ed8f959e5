from django.db import migrations, models
from django.db.models import Count, Q

# meetings.notices.revises when this migration was written.
REVISING = (
    Q(
        kind__in=[
            "declared",
            "finalized",
            "called_off",
            "rerecruited",
            "moved",
            "cancelled",
            "held",
            "reported",
        ]
    )
    | Q(kind="applied", params__seated=True)
    | Q(kind="withdrew", params__has_key="offered_to")
)


def count_revisions(apps, schema_editor):
    """Existing meetups start at the revisions their notices record, never below what a
    calendar app already holds (the date changes, the old SEQUENCE)."""
    Meetup = apps.get_model("meetings", "Meetup")
    Notice = apps.get_model("meetings", "Notice")
    revisions = Notice.objects.filter(REVISING).order_by().values("meetup").annotate(n=Count("pk"))
    for row in revisions:
        Meetup.objects.filter(pk=row["meetup"]).update(sequence=row["n"])


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
