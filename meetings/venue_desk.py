"""Venues at the steward's desk: the places where the club meets
(:class:`meetings.models.Venue`, seed 001 L467-481), added and edited by stewards on
``/meetups/venues/new/`` and ``/meetups/venues/<pk>/edit/``; the list is
``meetings.views.venue_list``. Meetups pick their venue from these."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubsite.desk.members import one_line
from clubsite.permissions import desk_steward
from meetings.models import Venue


class VenueForm(forms.ModelForm[Venue]):
    """A venue: its name (unique whatever its case), role, address, directions and phone;
    lengths as the columns', the name, address and phone one line of text each."""

    class Meta:
        model = Venue
        fields = ["name", "role", "address", "directions", "phone"]
        widgets = {"directions": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self) -> str:
        name = one_line(self.cleaned_data["name"])
        others = Venue.objects.exclude(pk=self.instance.pk)
        if others.filter(name__iexact=name).exists():
            raise ValidationError(
                _("There is already a venue called %(name)s.") % {"name": name}, code="taken"
            )
        return name

    def clean_address(self) -> str:
        return one_line(self.cleaned_data["address"])

    def clean_phone(self) -> str:
        return one_line(self.cleaned_data["phone"])


def _venue_form(request: HttpRequest, venue: Venue | None) -> HttpResponse:
    form = VenueForm(request.POST or None, instance=venue)
    if request.method == "POST" and form.is_valid():
        try:
            saved = form.save()
        except IntegrityError:
            form.add_error("name", _("Another venue was just given that name."))
        else:
            messages.success(request, _("%(name)s was saved.") % {"name": saved.name})
            return redirect("meetings:venues")
    return render(request, "meetings/venue_form.html", {"form": form, "venue": venue})


@require_http_methods(["GET", "POST"])
def venue_new(request: HttpRequest) -> HttpResponse:
    """``/meetups/venues/new/``: add a venue (stewards only, 403 for anyone else)."""
    desk_steward(request)
    return _venue_form(request, None)


@require_http_methods(["GET", "POST"])
def venue_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """``/meetups/venues/<pk>/edit/``: edit a venue (stewards only); its meetups show the new
    details."""
    desk_steward(request)
    return _venue_form(request, get_object_or_404(Venue, pk=pk))
