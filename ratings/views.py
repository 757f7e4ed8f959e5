"""The ratings list (``/ratings/``, per family; docs/ratings.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ratings.display import provisional_games, rating_list, settled_games
from ratings.models import Family


@require_safe
def rating_list_page(request: HttpRequest) -> HttpResponse:
    """Every rated member of a family (``?family=4`` or ``3``; default 4): those ranked by
    rating, then the provisional ones; and how the rating is worked out, in plain words
    (``#how-ratings-work``, linked from the member page)."""
    try:
        family = int(request.GET.get("family", Family.FOUR))
    except ValueError:
        family = Family.FOUR
    if family not in Family.values:
        family = Family.FOUR
    ranked, new = rating_list(family)
    return render(
        request,
        "ratings/rating_list.html",
        {
            "family": family,
            "families": Family.choices,
            "ranked": ranked,
            "new": new,
            "threshold": provisional_games(),
            "settled_games": settled_games(family),
        },
    )
