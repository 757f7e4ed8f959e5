"""A member's own online names: the names under which their Tenhou, Mahjong
Soul and mjai games are matched to them on import. A member adds and removes only their own;
a name already claimed by another member is refused (a steward settles disputes in the
admin). One transaction per action; bad input changes nothing."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from clubsite.models import ONLINE_SERVICES, Member, OnlineName


class OnlineNameForm(forms.Form):
    """One online name (service and name, e.g. ``tenhou`` / ``Aoki_K``) for the logged-in
    member; a name another member holds on that service is refused."""

    service = forms.ChoiceField(label=gettext_lazy("Service"), choices=ONLINE_SERVICES)
    name = forms.CharField(label=gettext_lazy("Online name"), max_length=100, strip=True)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        service, name = data.get("service"), data.get("name")
        if service and name:
            taken = OnlineName.objects.filter(service=service, name=name).first()
            if taken is not None:
                raise forms.ValidationError(
                    _("%(name)s is already the online name of %(member)s.")
                    % {"name": name, "member": taken.member.display_name}
                )
        return data


def _me(request: HttpRequest) -> Member:
    member = Member.for_user(request.user)
    if member is None:
        raise PermissionDenied(_("Only members have online names."))
    return member


@require_http_methods(["GET", "POST"])
def online_names_page(request: HttpRequest) -> HttpResponse:
    """``/members/online-names/``: the logged-in member's online names, and a form to add
    one (post/redirect/get). 403 for an account without a member profile."""
    member = _me(request)
    if request.method == "POST":
        form = OnlineNameForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    OnlineName.objects.create(
                        member=member,
                        service=form.cleaned_data["service"],
                        name=form.cleaned_data["name"],
                    )
            except IntegrityError:
                form.add_error(None, _("That online name was just claimed by another member."))
            else:
                messages.success(request, _("Online name added."))
                return redirect("online_names")
    else:
        form = OnlineNameForm()
    names = list(member.online_names.all())
    return render(
        request, "members/online_names.html", {"member": member, "form": form, "names": names}
    )


@require_POST
def online_name_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Remove one of the logged-in member's online names (404 for anyone else's)."""
    member = _me(request)
    get_object_or_404(OnlineName, pk=pk, member=member).delete()
    messages.success(request, _("Online name removed."))
    return redirect("online_names")
