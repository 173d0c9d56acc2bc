"""What puts the app on a phone's home screen: its web app manifest, and the service worker, served from the root so
that its scope is the whole site (static/js/install.js registers it where the browser allows one)."""

import json

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.templatetags.static import static

THEME = "#1f3a5f"  # the navbar's blue (static/css/republic.css, --republic-blue)


def manifest(request: HttpRequest) -> HttpResponse:
    found = {
        "name": "Republic Companion",
        "short_name": "Republic",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": static(f"icons/republic-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
            for size in (192, 512)
        ],
    }
    return HttpResponse(json.dumps(found), content_type="application/manifest+json")


def worker(request: HttpRequest) -> HttpResponse:
    path = finders.find("js/worker.js")
    if not isinstance(path, str):
        raise Http404("No service worker.")
    with open(path, encoding="utf-8") as script:
        answer = HttpResponse(script.read(), content_type="text/javascript; charset=utf-8")
    # a phone checks for a new worker on every visit instead of keeping an old one
    answer["Cache-Control"] = "no-cache"
    return answer
