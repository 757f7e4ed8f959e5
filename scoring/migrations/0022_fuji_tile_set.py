"""The set's gold fives and 白ポッチ (issue 32 item 7) added to every stored ruleset version, so
that each still holds every parameter: none in any set but FUJI's.

A stored ``fuji-sanma`` version with the earlier reading of seed 004's set (no red five, every
5p and 5s a dora) gets the set L22-23 and L39 describe: three red and one gold five of each of
pinzu and souzu, and the 白ポッチ, wild after riichi. Only the hands from tiles read these (no
payment does), and every hand stored under such a version values as it did: a five entered
without its colour is still one dora (F-06)."""

from django.db import migrations

ADDED = {"gold_fives": [], "gold_five_dora": 1, "white_pocchi": "none"}
FUJI = {
    "red_fives": ["p", "p", "p", "s", "s", "s"],
    "gold_fives": ["p", "s"],
    "white_pocchi": "wild_after_riichi",
}


def _earlier_fuji_reading(version) -> bool:
    parameters = version.parameters
    return (
        version.ruleset_id == "fuji-sanma"
        and parameters.get("red_fives") == []
        and parameters.get("five_dora") == ["p", "s"]
    )


def add(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        parameters = {**ADDED, **version.parameters}
        if _earlier_fuji_reading(version):
            parameters.update(FUJI)
        if parameters != version.parameters:
            version.parameters = parameters
            version.save(update_fields=["parameters"])


def remove(apps, schema_editor):
    RulesetVersion = apps.get_model("scoring", "RulesetVersion")
    for version in RulesetVersion.objects.all():
        parameters = {k: v for k, v in version.parameters.items() if k not in ADDED}
        if version.ruleset_id == "fuji-sanma" and parameters.get("red_fives") == FUJI["red_fives"]:
            parameters["red_fives"] = []
        if parameters != version.parameters:
            version.parameters = parameters
            version.save(update_fields=["parameters"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0021_fingerprint_of_online_games")]
    operations = [migrations.RunPython(add, remove)]
