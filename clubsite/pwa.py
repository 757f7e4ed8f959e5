"""The installable app: the web app manifest and the service worker, both
at the site's root so that the worker's scope is the whole site."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

WORKBOX = "vendor/workbox-7.4.1/"


@login_not_required
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: never cached by the browser itself, so a new version takes over at once."""
    body = render_to_string(
        "pwa/sw.js",
        {"workbox_prefix": settings.STATIC_URL + WORKBOX, "static_url": settings.STATIC_URL},
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@login_not_required
@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: name, start page, colours and icons for "add to home
    screen"."""
    return JsonResponse(
        {
            "name": _("Mahjong club"),
            "short_name": _("Mahjong club"),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#f7f5ef",
            "theme_color": "#1f6b4a",
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {
                    "src": static("icons/icon-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@login_not_required
@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever the pages say: the app's icon. Not a
    permanent redirect: the icon's static name changes with its content."""
    response = HttpResponseRedirect(static("icons/icon-192.png"))
    response["Cache-Control"] = "max-age=86400"
    return response
