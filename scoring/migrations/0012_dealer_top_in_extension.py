"""The parameter ``dealer_top_in_extension`` (false in every built-in ruleset) added to every
stored ruleset version, so that each still holds every parameter."""

from django.db import migrations


def add(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        if "dealer_top_in_extension" not in version.parameters:
            version.parameters = {**version.parameters, "dealer_top_in_extension": False}
            version.save(update_fields=["parameters"])


def remove(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        if "dealer_top_in_extension" in version.parameters:
            parameters = dict(version.parameters)
            del parameters["dealer_top_in_extension"]
            version.parameters = parameters
            version.save(update_fields=["parameters"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0011_win_yaku")]
    operations = [migrations.RunPython(add, remove)]
