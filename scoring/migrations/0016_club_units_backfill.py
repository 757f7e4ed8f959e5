"""The club's units for results counted before they were kept (issue 20 item 1): each counted
seat's chips and ep from its seat's settlement, then the members' monthly and yearly sums.
Written out here, not imported: a migration keeps working whatever the app's code becomes."""

from django.db import migrations
from django.db.models import Sum
from django.db.models.functions import TruncYear


def backfill(apps, schema_editor):
    Seat = apps.get_model("scoring", "Seat")
    CountedSeat = apps.get_model("scoring", "CountedSeat")
    MemberMonth = apps.get_model("scoring", "MemberMonth")
    MemberYear = apps.get_model("scoring", "MemberYear")
    units = {
        (hanchan_id, index): (chips or 0, ep or 0)
        for hanchan_id, index, chips, ep in Seat.objects.filter(hanchan__counted__isnull=False)
        .values_list("hanchan_id", "index", "chips", "uma_ep")
        .distinct()
        if chips or ep
    }
    if not units:
        return
    changed = []
    for counted in CountedSeat.objects.filter(hanchan_id__in={h for h, _ in units}):
        chips, ep = units.get((counted.hanchan_id, counted.seat), (0, 0))
        counted.chips, counted.uma_ep = chips, ep
        changed.append(counted)
    CountedSeat.objects.bulk_update(changed, ["chips", "uma_ep"], batch_size=2000)
    keys = {(c.member_id, c.ruleset_version_id) for c in changed}
    for member_id, version_id in keys:
        seats = CountedSeat.objects.filter(member_id=member_id, ruleset_version_id=version_id)
        for month in MemberMonth.objects.filter(member_id=member_id, ruleset_version_id=version_id):
            sums = seats.filter(
                played_on__year=month.month.year, played_on__month=month.month.month
            ).aggregate(chips=Sum("chips"), uma_ep=Sum("uma_ep"))
            month.chips, month.uma_ep = sums["chips"] or 0, sums["uma_ep"] or 0
            month.save(update_fields=["chips", "uma_ep"])
        years = (
            MemberMonth.objects.filter(member_id=member_id, ruleset_version_id=version_id)
            .values(year=TruncYear("month"))
            .annotate(chips=Sum("chips"), uma_ep=Sum("uma_ep"))
        )
        for row in years:
            MemberYear.objects.filter(
                member_id=member_id, ruleset_version_id=version_id, year=row["year"]
            ).update(chips=row["chips"] or 0, uma_ep=row["uma_ep"] or 0)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0015_club_units")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
