"""Fingerprints by the kind of entry (issue 32 item 1): a game from a Tenhou result line is
its line (lobby, day, start time, names, points) with its final scores (version 2), not its
final scores alone, which every line with the same points shared; a game from an online log
is its hands alone also where it counts under the club's ruleset (it had the date its log
id gives and the members its names were mapped to). Club games and online logs pinned to
their service keep theirs.

The hashing is scoring.ledger.fingerprint's, written out here: a migration must keep working
whatever the app's code becomes.
"""

import hashlib
import json

from django.db import migrations
from django.db.models import Q


def _hash(content):
    text = json.dumps(content, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def fingerprint(log_format, log_id, results, final_scores):
    """The fingerprint of a finished online game from its origin's format and id, its hands'
    results and its final_scores entry (``None`` with hands)."""
    hands = [[r.get("round"), r.get("honba"), list(r.get("deltas", ()))] for r in results]
    scores = None if final_scores is None else list(final_scores.get("scores", ()))
    if log_format == "result-line":
        return _hash({"v": 2, "line": log_id, "hands": hands, "final_scores": scores})
    return _hash({"v": 1, "date": None, "members": None, "hands": hands, "final_scores": scores})


def recompute(apps, schema_editor):
    Hanchan = apps.get_model("scoring", "Hanchan")
    HandEntry = apps.get_model("scoring", "HandEntry")
    OnlineGame = apps.get_model("scoring", "OnlineGame")
    origins = (
        OnlineGame.objects.filter(hanchan__status="finished")
        .filter(Q(log_format="result-line") | Q(hanchan__ruleset_version__service=""))
        .values_list("hanchan_id", "log_format", "log_id")
    )
    for hanchan_id, log_format, log_id in origins.iterator(chunk_size=500):
        game = Hanchan.objects.get(pk=hanchan_id)
        results = HandEntry.objects.filter(hanchan_id=hanchan_id).order_by("sequence")
        final_scores = (game.state or {}).get("final_scores")
        game.fingerprint = fingerprint(
            log_format, log_id, list(results.values_list("result", flat=True)), final_scores
        )
        game.save(update_fields=["fingerprint"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0020_derived_rows_keys")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
