"""The keys the ledger copies onto the rows it derives, and the check that
they agree with where they come from.

A hand's per-seat facts (``HandSeat``) and yaku (``WinYaku``) carry the hand's game and the
seat's member (and, on a ron winner's facts, the discarder's member, ``fed_by``); a counted
seat (``CountedSeat``) carries its seat's member and its game's ruleset version. They are
copies, so the standings and statistics read them without a join. The database checks each
key where it comes from (the hand's game, the seats' members, the game's version) and not
again on the copies: an import writes some 17,000 of them in one transaction, and checking
them took a third of its store. The copies protect nothing the sources do not: a member who
sat in a game cannot be deleted while their seat stands, nor a game while its hands stand.
Django still cascades and protects through them.

:func:`copied_key_disagreements` counts the rows whose copy differs from its source: none in
a sound ledger. The tests check it after every kind of write; the restore drill
(:mod:`scoring.upkeep.restore_drill`) checks it on the restored database.
"""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef

from scoring.models import CountedSeat, HandSeat, Seat, WinYaku


def _seated(member: str = "member", seat: str | None = "seat") -> Exists:
    """A seat of the outer row's game held by the outer row's ``member`` (at its ``seat``)."""
    at = {"index": OuterRef(seat)} if seat else {}
    return Exists(
        Seat.objects.filter(hanchan_id=OuterRef("hanchan_id"), member_id=OuterRef(member), **at)
    )


def copied_key_disagreements() -> dict[str, int]:
    """How many rows have a copied key that differs from its source, by ``"Model.field"``
    (every count 0 in a sound ledger): a fact's or yaku's game not its hand's; its member not
    the member at its seat; a ``fed_by`` no member of the game; a counted seat's member not
    its seat's, or its version not its game's; a guest club's row of a guest's seat whose
    member is none of that club's (``scoring.ledger.guests``). Eight queries."""
    return {
        "HandSeat.hanchan": HandSeat.objects.exclude(hanchan_id=F("hand__hanchan_id")).count(),
        "HandSeat.member": HandSeat.objects.exclude(_seated()).count(),
        "HandSeat.fed_by": HandSeat.objects.filter(fed_by_id__isnull=False)
        .exclude(_seated("fed_by_id", None))
        .count(),
        "WinYaku.hanchan": WinYaku.objects.exclude(hanchan_id=F("hand__hanchan_id")).count(),
        "WinYaku.member": WinYaku.objects.exclude(_seated()).count(),
        # A guest club's row of a guest's seat (scoring.ledger.guests) carries the guest's
        # membership of that club, not the seat's: checked on its own line.
        "CountedSeat.member": CountedSeat.objects.filter(club_id=F("hanchan__club_id"))
        .exclude(_seated())
        .count(),
        "CountedSeat.guest_copy": CountedSeat.objects.exclude(club_id=F("hanchan__club_id"))
        .exclude(member__club_id=F("club_id"), guest=False)
        .count(),
        "CountedSeat.ruleset_version": CountedSeat.objects.exclude(
            ruleset_version_id=F("hanchan__ruleset_version_id")
        ).count(),
    }
