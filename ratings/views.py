"""The ratings list (``/ratings/``, per family; docs/ratings.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from ratings.display import FAMILY_CHOICES, provisional_games, rating_list
from ratings.models import Family, RatingBook


@require_safe
def rating_list_page(request: HttpRequest) -> HttpResponse:
    """Every rated member of a family (``?family=4`` or ``3``; default 4), by ordinal."""
    try:
        family = int(request.GET.get("family", Family.FOUR))
    except ValueError:
        family = Family.FOUR
    if family not in Family.values:
        family = Family.FOUR
    book = RatingBook.objects.filter(family=family).first()
    return render(
        request,
        "ratings/rating_list.html",
        {
            "family": family,
            "families": FAMILY_CHOICES,
            "lines": rating_list(family),
            "threshold": provisional_games(),
            "updated_at": book.updated_at if book else None,
        },
    )
