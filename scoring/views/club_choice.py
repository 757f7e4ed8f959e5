"""``/clubs/``: the person's clubs, each with their figures there this year
(``clubsite.club_choice``: why a site of several clubs sends people here)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone

from clubsite.club_choice import choice_next, club_links
from scoring.standings.across_clubs import with_year_figures


def club_choice(request: HttpRequest) -> HttpResponse:
    """The person's clubs; with one club, straight on to ``next`` (a path of this site) in
    it. ``next`` that is not a path of this site is ignored."""
    user_id = int(request.user.pk or 0)
    links = club_links(user_id, choice_next(request))
    if len(links) == 1:
        return HttpResponseRedirect(links[0].url)
    # A page of no club: the site's time zone says which year it is.
    year = timezone.localdate().year
    links = with_year_figures(links, user_id, year)
    return render(request, "clubsite/club_choice.html", {"links": links, "year": year})
