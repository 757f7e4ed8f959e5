"""The rulesets' hand-from-tiles parameters (issue 13) added to every stored version, with the
values of its built-in ruleset (a stored version must hold every parameter to be read)."""

from django.db import migrations

HAND_RULES = {
    "makura-1.3": (True, True, 2, False, "yakuman", []),
    "makura-1.5": (True, True, 2, False, "yakuman", []),
    "sanma-float": (True, True, 4, True, "6han", []),
    "home-nashinashi": (False, False, 4, False, "yakuman", []),
    "fuji-sanma": (
        True,
        True,
        4,
        True,
        "yakuman",
        ["daisharin", "shousharin", "sanpuu", "north_yakuhai"],
    ),
}
# Tenhou's, also for a ruleset id no longer shipped.
DEFAULT = (True, True, 4, False, "none", [])
KEYS = (
    "open_tanyao",
    "atozuke",
    "double_wind_pair_fu",
    "chiitoitsu_four_of_a_kind",
    "renhou",
    "local_yaku",
)


def add(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        values = HAND_RULES.get(version.ruleset_id, DEFAULT)
        parameters = dict(version.parameters)
        for key, value in zip(KEYS, values, strict=True):
            parameters.setdefault(key, value)
        if parameters != version.parameters:
            version.parameters = parameters
            version.save(update_fields=["parameters"])


def remove(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        parameters = {k: v for k, v in version.parameters.items() if k not in KEYS}
        if parameters != version.parameters:
            version.parameters = parameters
            version.save(update_fields=["parameters"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_online_games")]
    operations = [migrations.RunPython(add, remove)]
