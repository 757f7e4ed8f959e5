"""The club's public face: what a visitor (not logged in, or no member of the club) sees at
``/c/<slug>/``, and the join application sent from it (docs/clubs.md, "The club's public face").

The page shows the club's name, its text (``Club.public_text``) and, each by the stewards'
switch on ``/desk/club/``, sections the apps contribute: the rules pages (scoring), the venues
and the next meetups' dates (meetings), the public tournament boards (tournaments). clubsite
knows none of them (the apps build on clubsite, not the other way round): each app registers
its section here when it starts (:func:`register_public_section`). A section gives only what
a visitor may read: never a member's name, nor counts of named people.

Pages open to visitors on a club are marked :func:`club_public_page`: no login needed, but a
club's page all the same (``clubsite.middleware`` sends a logged-in person on a site of
several clubs to choose one; a visitor there without a club's prefix is sent to log in).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.accounts import client_address
from clubsite.club_model import Club
from clubsite.club_scope import ClubNotChosen, current_club
from clubsite.desk.join import JoinForm, JoinRefused, join_apply
from clubsite.models import Member

TEMPLATE = "clubsite/public_page.html"


@dataclass(frozen=True)
class PublicSection:
    """A section of the public page: shown when the club's ``switch`` field (a boolean of
    :class:`clubsite.club_model.Club`) is on and ``build`` (called in the club's scope)
    gives a context; ``template`` renders it with ``club`` and ``section`` (that context)."""

    key: str
    switch: str
    order: int
    template: str
    build: Callable[[Club], dict[str, Any] | None]


_SECTIONS: dict[str, PublicSection] = {}


def register_public_section(section: PublicSection) -> None:
    """Add ``section`` to every club's public page (an app's ``ready``); registering a key
    again replaces it."""
    _SECTIONS[section.key] = section


def public_sections(club: Club) -> list[tuple[PublicSection, dict[str, Any]]]:
    """The sections ``club`` publishes, in their order, each with its context (a section
    with nothing to show is left out)."""
    shown = []
    for section in sorted(_SECTIONS.values(), key=lambda s: (s.order, s.key)):
        if not getattr(club, section.switch, False):
            continue
        context = section.build(club)
        if context is not None:
            shown.append((section, context))
    return shown


def club_public_page[**P](view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """Mark ``view`` a club's page open to visitors: no login needed
    (``login_not_required``), and a club's page still (``club_page``, read by
    ``clubsite.middleware``). Without a club's prefix on a site of several clubs there is no
    club to show: a visitor is sent to log in, as before there were public pages."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        request = args[0]
        assert isinstance(request, HttpRequest)
        try:
            current_club().pk  # noqa: B018
        except ClubNotChosen:
            return redirect_to_login(request.get_full_path())
        return view(*args, **kwargs)

    wrapper.club_page = True  # type: ignore[attr-defined]
    return login_not_required(wrapper)


def is_member_here(request: HttpRequest) -> bool:
    """Whether the viewer sees the club's own pages: an active member of the club in hand,
    or a superuser (the site's owner sees every club). A guest of one of its events between
    clubs is another club's member: they see the public page, as any login of other clubs."""
    user = request.user
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    member = Member.for_user(user)
    return member is not None and not member.is_guest


def public_page(
    request: HttpRequest, form: JoinForm | None = None, status: int = 200
) -> HttpResponse:
    """The club's public page (see the module), with the join form (``form``: one refused,
    shown again with its errors) where the club takes applications."""
    club = current_club()
    if club.public_join and form is None:
        form = JoinForm()
    context = {
        "club": club,
        "sections": public_sections(club),
        "join_form": form if club.public_join else None,
        "is_member": is_member_here(request),
    }
    return render(request, TEMPLATE, context, status=status)


@club_public_page
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    """``/join/``: GET, the public page at its join form (the address to give out); POST, an
    application: stored and the stewards told (a redirect to the page with a thank-you), or
    the page again with the refused values named (400) or the hour's limit said (429), with
    nothing stored. 404 where the club takes no applications."""
    club = current_club()
    if not club.public_join:
        raise Http404("This club takes no applications here.")
    if request.method != "POST":
        return public_page(request)
    form = JoinForm(request.POST)
    if not form.is_valid():
        return public_page(request, form=form, status=400)
    if not form.is_robot:
        try:
            join_apply(
                name=form.cleaned_data["name"],
                email=form.cleaned_data["email"],
                message=form.cleaned_data["message"],
                language=translation.get_language() or "",
                address=client_address(request),
            )
        except JoinRefused as refused:
            form.add_error(None, str(refused))
            return public_page(request, form=form, status=429)
    messages.success(
        request,
        _("Thank you: your application is with the club's stewards, who will write to you."),
    )
    return redirect(reverse("game_list") + "#join")


@require_POST
def public_profile_set(request: HttpRequest) -> HttpResponse:
    """``/members/public-profile/``: the logged-in member turns their public profile on
    (``public=1``) or off; 403 for a login that is no member of the club. Back to their
    page."""
    member = Member.for_user(request.user)
    if member is None:
        raise PermissionDenied(_("Only members have a profile."))
    member.public_profile = request.POST.get("public") == "1"
    member.save(update_fields=["public_profile"])
    if member.public_profile:
        messages.success(request, _("Your public profile is on: anyone with its link sees it."))
    else:
        messages.success(request, _("Your public profile is off: its link shows nothing."))
    return redirect("member_detail", member.pk)
