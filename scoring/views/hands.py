"""Hand entry on the table screen: live preview, confirm, and corrections of earlier hands.

The hand form is one HTML form. Without JavaScript, its "Preview" button posts it to the
preview view, which draws the table screen again with the form, the engine's payments and
the confirm button; "Confirm" posts it to the record view. With htmx, every change posts the
form to the preview view, which swaps the ``entry`` region; confirming swaps in a fresh form
and updates the scores and the hand list out of band.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.entry.hand_form import HandForm
from scoring.ledger import (
    LedgerError,
    Recorded,
    StaleHanchan,
    hand_correct,
    hand_record,
)
from scoring.models import Hanchan, HandEntry
from scoring.views.access import (
    actor,
    hanchan_for_keeper,
    hanchan_for_member,
    names_of,
)
from scoring.views.display import hand_summary
from scoring.views.hand_forms import (
    correction_form,
    new_hand_form,
    stored_hand_form,
    table_before,
)
from scoring.views.previews import preview_correction, preview_next_hand
from scoring.views.table import HtmxHttpRequest, render_table, table_changed, wants_fragment


def _game_over(request: HtmxHttpRequest, hanchan: Hanchan) -> HttpResponse:
    if hanchan.status == Hanchan.Status.VOIDED:
        notice = _("This game was voided.")
    else:
        notice = _("This game is over: no more hands can be entered.")
    return render_table(request, hanchan, update_all=True, notice=notice)


def _stale(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    hanchan = hanchan_for_member(request, pk)
    return render_table(request, hanchan, update_all=True, notice=str(StaleHanchan(hanchan)))


def _hand_saved(
    request: HtmxHttpRequest, hanchan: Hanchan, recorded: Recorded, notice: str
) -> HttpResponse:
    """After a new hand: for htmx, while the game goes on, a fresh form, the scores and the
    new hand's row, from the game as the ledger left it (no second read of the game); a
    game that just ended, or a hand recorded before (a resent form), is read again."""
    if not wants_fragment(request) or not recorded.created:
        return table_changed(request, hanchan.pk, notice)
    written = recorded.entry.hanchan
    if written.status != Hanchan.Status.IN_PLAY:
        return table_changed(request, hanchan.pk, notice)
    for field in ("state", "version", "status", "ended_by", "finished_at"):
        setattr(hanchan, field, getattr(written, field))
    return render_table(
        request,
        hanchan,
        update_all=True,
        new_entry=recorded.entry,
        notice=notice,
        notice_is_success=True,
    )


@require_POST
def hand_preview(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The next hand as tapped so far, with the engine's payments once it is complete."""
    hanchan = hanchan_for_keeper(request, pk)
    if hanchan.status != Hanchan.Status.IN_PLAY:
        return _game_over(request, hanchan)
    ruleset = hanchan.ruleset()
    form = new_hand_form(hanchan, ruleset, request.POST)
    preview = None
    if form.is_valid():
        if form.cleaned_data["version"] != hanchan.version:
            return _stale(request, pk)
        preview = preview_next_hand(hanchan, form)
    return render_table(request, hanchan, form=form, preview=preview)


def _wants_json(request: HtmxHttpRequest) -> bool:
    """The phone's outbox (static/js/offline.js) asks for a JSON answer."""
    return request.headers.get("Accept", "").startswith("application/json")


def _json_answer(hanchan: Hanchan, status: str, code: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"status": status, "version": hanchan.version, **extra}, status=code)


@dataclass
class Attempt:
    """What recording the posted hand came to (:func:`_record`): ``recorded`` (the ledger
    wrote it, or had it under the same request id), ``stale`` (the form was drawn before
    another phone's hand: the game as the ledger found it), ``over`` (the game ended or was
    voided), or neither (the taps are incomplete or refused: the errors are on ``form``)."""

    form: HandForm
    recorded: Recorded | None = None
    stale: StaleHanchan | None = None
    over: bool = False

    def summary(self) -> str:
        """The recorded hand in words (as the hand list says it)."""
        assert self.recorded is not None
        entry, rs = self.recorded.entry, self.form.ruleset
        return hand_summary(
            entry.data, entry.result, self.form.names, fu_scoring=rs.fu_scoring, nagashi=rs.nagashi
        )


def _record(request: HtmxHttpRequest, hanchan: Hanchan) -> Attempt:
    """Record the next hand from the posted taps, through the ledger (one transaction; a
    resent request id records it once): the one path of the table's confirm and of the
    offline outbox's resend."""
    ruleset = hanchan.ruleset()
    form = new_hand_form(hanchan, ruleset, request.POST, strict=True)
    if not form.is_valid() or form.hand is None:
        return Attempt(form, over=hanchan.status != Hanchan.Status.IN_PLAY)
    data = form.cleaned_data
    try:
        recorded = hand_record(
            hanchan_id=hanchan.pk,
            hand=form.hand,
            expected_version=data["version"],
            request_id=data["request_id"] or uuid.uuid4(),
            **actor(request, hanchan),
        )
    except StaleHanchan as stale:
        return Attempt(form, stale=stale)
    except LedgerError as error:
        # The game as loaded may predate the write that ended it: read it again.
        if hanchan_for_member(request, hanchan.pk).status != Hanchan.Status.IN_PLAY:
            return Attempt(form, over=True)
        form.add_record_error(error.field, str(error))
        return Attempt(form)
    return Attempt(form, recorded=recorded)


@require_POST
def hand_create(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next hand. A resent form (same request id) records it once; a form drawn
    before another phone entered a hand is refused with the current table.

    For the outbox of a phone that was offline (``Accept: application/json``), the answer is
    JSON: ``{"status": "recorded", "hand": summary, "version": n}``, ``"stale"`` (409: the
    game moved on; ``version`` is the current one), ``"over"`` (409) or ``"refused"`` (422,
    with ``errors``)."""
    hanchan = hanchan_for_keeper(request, pk)
    attempt = _record(request, hanchan)
    if _wants_json(request):
        return _outbox_answer(request, hanchan, attempt)
    if attempt.recorded is not None:
        notice = _("Recorded: %(hand)s") % {"hand": attempt.summary()}
        return _hand_saved(request, hanchan, attempt.recorded, notice)
    if attempt.stale is not None:
        return _stale(request, pk)
    if attempt.over:
        return _game_over(request, hanchan_for_member(request, pk))
    return render_table(request, hanchan, form=attempt.form)


def _outbox_answer(request: HtmxHttpRequest, hanchan: Hanchan, attempt: Attempt) -> JsonResponse:
    if attempt.recorded is not None:
        # The entry's game is the one the ledger wrote (or, for a resent hand, read afresh).
        entry = attempt.recorded.entry
        return _json_answer(entry.hanchan, "recorded", 200, hand=attempt.summary())
    if attempt.stale is not None:
        # The game as the ledger found it under its lock: its version is the current one.
        found = attempt.stale.hanchan
        current = found if isinstance(found, Hanchan) else hanchan_for_member(request, hanchan.pk)
        return _json_answer(current, "stale", 409)
    if attempt.over:
        return _json_answer(hanchan, "over", 409)
    errors = [str(e) for field in attempt.form.errors.values() for e in field]
    return _json_answer(hanchan, "refused", 422, errors=errors)


def _entries(hanchan: Hanchan, number: int) -> list[HandEntry]:
    entries = list(hanchan.hands.order_by("sequence"))
    if not 1 <= number <= len(entries):
        raise Http404(_("There is no such hand."))
    return entries


@require_http_methods(["GET", "POST"])
def hand_edit(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Correct hand ``number`` (1-based): the hand form filled in as stored, its preview, and
    on confirm the correction (every later hand is recomputed, or the correction refused)."""
    hanchan = hanchan_for_keeper(request, pk)
    if hanchan.status == Hanchan.Status.VOIDED:
        return _game_over(request, hanchan)
    entries = _entries(hanchan, number)
    sequence = number - 1
    ruleset = hanchan.ruleset()
    names = names_of(hanchan)
    before = table_before(hanchan, entries, sequence)
    if request.method == "GET":
        form = stored_hand_form(ruleset, before, names, hanchan.version, entries[sequence])
        form.is_valid()
        preview = preview_correction(hanchan, entries, sequence, form)
        return render_table(request, hanchan, form=form, preview=preview, editing=number)
    form = correction_form(ruleset, before, names, hanchan.version, request.POST, strict=True)
    if form.is_valid() and form.hand is not None:
        # No preview first: the service plans the correction (the engine's one pass) and
        # refuses it, naming the hand, if this or a later hand becomes impossible.
        try:
            hand_correct(
                hanchan_id=pk,
                sequence=sequence,
                hand=form.hand,
                expected_version=form.cleaned_data["version"],
                **actor(request, hanchan),
            )
        except StaleHanchan:
            return _stale(request, pk)
        except LedgerError as error:
            form.add_record_error("" if error.later_hand else error.field, str(error))
        else:
            return table_changed(request, pk, _("Hand %(n)d corrected.") % {"n": number})
    return render_table(request, hanchan, form=form, editing=number)


@require_POST
def hand_edit_preview(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """The correction as tapped so far, with its payments; nothing is written."""
    hanchan = hanchan_for_keeper(request, pk)
    if hanchan.status == Hanchan.Status.VOIDED:
        return _game_over(request, hanchan)
    entries = _entries(hanchan, number)
    sequence = number - 1
    ruleset = hanchan.ruleset()
    before = table_before(hanchan, entries, sequence)
    form = correction_form(ruleset, before, names_of(hanchan), hanchan.version, request.POST)
    preview = None
    if form.is_valid():
        if form.cleaned_data["version"] != hanchan.version:
            return _stale(request, pk)
        preview = preview_correction(hanchan, entries, sequence, form)
    return render_table(request, hanchan, form=form, preview=preview, editing=number)
