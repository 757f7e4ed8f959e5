"""Tournament games stored their table's name in the language of whoever started the round
("GP 1回戦 1卓", which the pages then showed as "1回戦 1卓卓"); they now store the table's
number, the same in every language, and the pages build the rest from the Table row (issue 21
item 6)."""

from django.db import migrations


def names_by_number(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    Hanchan = apps.get_model("scoring", "Hanchan")
    for hanchan_id, number in Table.objects.values_list("hanchan_id", "number"):
        Hanchan.objects.filter(pk=hanchan_id).update(table_name=str(number))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("scoring", "0014_fingerprint_backfill"),
    ]

    operations = [migrations.RunPython(names_by_number, migrations.RunPython.noop)]
