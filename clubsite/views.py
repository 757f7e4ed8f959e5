"""The project's own page: the language switch.

Every page is for members only (`LoginRequiredMiddleware`); the few that anyone may see are
marked `@login_not_required`.
"""

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.views import i18n


@login_not_required
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, open to visitors too: the login page has it in its footer.

    A wrapper rather than ``login_not_required(i18n.set_language)``, which would mark Django's
    own function in place.
    """
    return i18n.set_language(request)
