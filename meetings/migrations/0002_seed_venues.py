"""The three venues of seed 001 (L467–481), as printed there in 2010; stewards correct them in
the admin. Names stay in Japanese; addresses with half-width digits."""

from django.db import migrations

VENUES = [
    {
        "name": "ビック",
        "role": "main",
        "address": "札幌市中央区北4条西2丁目 Aiビル4F",
        "directions": "ビックカメラの南側向かい、ホクレンビルの西側向かい",
        "phone": "011-271-0102",
    },
    {
        "name": "麻雀クラブJUN",
        "role": "tournament",
        "address": "札幌市中央区北1条西7丁目 あおいビル9F",
        "directions": "弁当屋「ほっともっと」が1Fに入っているビル",
        "phone": "011-231-3144",
    },
    {
        "name": "さわやか麻雀",
        "role": "backup",
        "address": "札幌市北区北36条西4丁目 利建ビル2階・3階",
        # Printed "TEL:011：011-708-9394": the area code twice.
        "directions": "地下鉄麻生駅8番出口から徒歩5分、ロイヤルホスト麻生店の南側",
        "phone": "011-708-9394",
    },
]


def seed_venues(apps, schema_editor):
    Venue = apps.get_model("meetings", "Venue")
    for venue in VENUES:
        Venue.objects.update_or_create(name=venue["name"], defaults=venue)


def remove_venues(apps, schema_editor):
    Venue = apps.get_model("meetings", "Venue")
    Venue.objects.filter(name__in=[venue["name"] for venue in VENUES], meetups=None).delete()


class Migration(migrations.Migration):
    dependencies = [("meetings", "0001_initial")]

    operations = [migrations.RunPython(seed_venues, remove_venues)]
