"""``POST /api/hand-value/``: the hand-value contract over HTTP, for the
tile keyboard and other clients: a JSON hand in (:mod:`scoring.tiles.contract`), its value or
``{"error": ...}`` out (status 400 with an error)."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from scoring.tiles.contract import answer

# One hand is a few hundred bytes.
MAX_BODY = 10_000


@require_POST
def hand_value(request: HttpRequest) -> JsonResponse:
    """``POST /api/hand-value/``: one hand as JSON in the contract of ``manage.py hand_value``
    (:mod:`scoring.tiles.contract`) -> its han, fu, yaku, yakuman and limit,
    or ``{"error": ...}`` with status 400 (not JSON, over 10 KB, or a hand refused)."""
    if len(request.body) > MAX_BODY:
        return JsonResponse({"error": "longer than a hand"}, status=400)
    try:
        data = json.loads(request.body)
        # A lone surrogate ("\ud800") is JSON but no text: the answer, which may quote what
        # it refuses, could not be written out.
        json.dumps(data, ensure_ascii=False).encode()
    except (ValueError, RecursionError) as error:
        # ValueError: not JSON, not UTF-8, a lone surrogate, or an integer too long to convert.
        return JsonResponse({"error": f"not JSON: {error}"}, status=400)
    result = answer(data)
    return JsonResponse(
        result, status=400 if "error" in result else 200, json_dumps_params={"ensure_ascii": False}
    )
