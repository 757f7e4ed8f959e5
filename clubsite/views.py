"""The project's own pages: the language switch, and the refusal of a form whose CSRF
token failed.

Every page is for members only (`LoginRequiredMiddleware`); the few that anyone may see are
marked `@login_not_required`.
"""

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import i18n


@login_not_required
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, open to visitors too: the login page has it in its footer.

    A wrapper rather than ``login_not_required(i18n.set_language)``, which would mark Django's
    own function in place.
    """
    return i18n.set_language(request)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a refused form (a stale page, a forged post, cookies off) told in
    the reader's language and the site's look, not Django's English page. The reason is not
    shown; Django has logged it (``django.security.csrf``)."""
    return render(request, "403.html", {"csrf_failed": True}, status=403)
