"""The per-hand facts the players' figures add up (issue 23 item 5, docs/player-stats.md):
tenpai at an exhaustive draw, the value a discarder paid for a ron, and who dealt in to each
ron win. Hands stored before get them from their entry (``data``, ``result``). Written out
here, not imported: a migration keeps working whatever the app's code becomes
(tests/test_player_stats.py checks this derivation against the ledger's)."""

import django.db.models.deletion
from django.db import migrations, models


def derive(data, result):
    """Per seat, in seat order: ``(tenpai, deal_in_value, fed_by_seat)`` of a stored hand."""
    outcome = data["result"]
    players = len(result["deltas"])
    loser = data.get("loser") if outcome == "ron" else None
    winners = {w["winner"] for w in data.get("wins", ())} if outcome in ("ron", "tsumo") else set()
    tenpai = set(data.get("tenpai", ())) if outcome == "draw" else set()
    paid = 0
    for payment in result.get("payments", ()):
        if payment["reason"] == "ron" and payment["payer"] == loser and payment["payee"] in winners:
            paid += int(payment["amount"])
    return [
        (
            seat in tenpai,
            paid if seat == loser else 0,
            loser if seat in winners and loser is not None else None,
        )
        for seat in range(players)
    ]


def backfill(apps, schema_editor):
    HandEntry = apps.get_model("scoring", "HandEntry")
    HandSeat = apps.get_model("scoring", "HandSeat")
    Seat = apps.get_model("scoring", "Seat")
    hands = (
        HandEntry.objects.filter(data__result__in=["ron", "draw"])
        .values_list("pk", "hanchan_id", "data", "result")
        .iterator(chunk_size=2000)
    )
    wanted = {}
    members = {}
    for pk, hanchan_id, data, result in hands:
        for seat, (tenpai, deal_in_value, fed_by) in enumerate(derive(data, result)):
            if not (tenpai or deal_in_value or fed_by is not None):
                continue
            if fed_by is not None and hanchan_id not in members:
                members[hanchan_id] = dict(
                    Seat.objects.filter(hanchan_id=hanchan_id).values_list("index", "member_id")
                )
            fed_by_id = None if fed_by is None else members[hanchan_id][fed_by]
            wanted[(pk, seat)] = (tenpai, deal_in_value, fed_by_id)
        if len(wanted) >= 2000:
            _update(HandSeat, wanted)
            wanted = {}
    _update(HandSeat, wanted)


def _update(HandSeat, wanted):
    if not wanted:
        return
    rows = []
    for row in HandSeat.objects.filter(hand_id__in={pk for pk, _ in wanted}):
        facts = wanted.get((row.hand_id, row.seat))
        if facts is not None:
            row.tenpai, row.deal_in_value, row.fed_by_id = facts
            rows.append(row)
    HandSeat.objects.bulk_update(rows, ["tenpai", "deal_in_value", "fed_by"], batch_size=2000)


class Migration(migrations.Migration):
    dependencies = [
        ("clubsite", "0005_password_reset_requests"),
        ("scoring", "0016_club_units_backfill"),
    ]

    operations = [
        migrations.AddField(
            model_name="handseat",
            name="tenpai",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="handseat",
            name="deal_in_value",
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name="handseat",
            name="fed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubsite.member",
            ),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
