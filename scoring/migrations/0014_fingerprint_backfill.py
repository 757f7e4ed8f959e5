"""Fingerprints for the finished games stored before they existed (issue 19 item 4).

The hashing is scoring.ledger.fingerprint's, written out here: a migration must keep working
whatever the app's code becomes. Version 1 of the fingerprint.
"""

import hashlib
import json

from django.db import migrations


def fingerprint(played_on, members, results, final_scores):
    content = {
        "v": 1,
        "date": None if members is None else played_on.isoformat(),
        "members": members,
        "hands": [[r.get("round"), r.get("honba"), list(r.get("deltas", ()))] for r in results],
        "final_scores": None if final_scores is None else list(final_scores.get("scores", ())),
    }
    text = json.dumps(content, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def backfill(apps, schema_editor):
    Hanchan = apps.get_model("scoring", "Hanchan")
    HandEntry = apps.get_model("scoring", "HandEntry")
    Seat = apps.get_model("scoring", "Seat")
    games = Hanchan.objects.filter(status="finished", fingerprint="").select_related(
        "ruleset_version"
    )
    for game in games.iterator(chunk_size=500):
        online = bool(game.ruleset_version.service)
        members = (
            None
            if online
            else list(
                Seat.objects.filter(hanchan=game)
                .order_by("index")
                .values_list("member_id", flat=True)
            )
        )
        results = HandEntry.objects.filter(hanchan=game).order_by("sequence")
        game.fingerprint = fingerprint(
            game.played_on,
            members,
            list(results.values_list("result", flat=True)),
            (game.state or {}).get("final_scores"),
        )
        game.save(update_fields=["fingerprint"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0013_hanchan_fingerprint")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
