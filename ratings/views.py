"""The ratings list (``/ratings/``, per family; docs/ratings.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ratings.display import provisional_games, rating_list
from ratings.models import Family


@require_safe
def rating_list_page(request: HttpRequest) -> HttpResponse:
    """Every rated member of a family (``?family=4`` or ``3``; default 4), by ordinal."""
    try:
        family = int(request.GET.get("family", Family.FOUR))
    except ValueError:
        family = Family.FOUR
    if family not in Family.values:
        family = Family.FOUR
    return render(
        request,
        "ratings/rating_list.html",
        {
            "family": family,
            "families": Family.choices,
            "lines": rating_list(family),
            "threshold": provisional_games(),
        },
    )
