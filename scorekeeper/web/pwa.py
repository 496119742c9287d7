"""Installable and calm offline: the web app manifest and the service worker.

Both are served by views (``views/site.py``) rather than as static files: the manifest
names the versioned icons and the home page, and the worker must sit at the root of the
site for its scope to cover every page. Neither may be cached for long, so that a new
release reaches the phones.
"""

from __future__ import annotations

import hashlib
import json

from flask import Response, render_template, url_for
from flask_babel import gettext as _

from .assets import asset

# Light and dark: the colour of the top bar, and of the page behind it.
THEME = {"light": ("#1f6f4a", "#f7f6f2"), "dark": ("#173a2a", "#121416")}
ICONS = (("icons/icon-192.png", "192x192", "image/png"),
         ("icons/icon-512.png", "512x512", "image/png"),
         ("icons/icon.svg", "any", "image/svg+xml"))
# What a phone keeps from the first visit on, so that a sheet opened before reads offline.
PRECACHE = ("css/app.css", "vendor/htmx-2.0.11/htmx.min.js", "js/app.js", "js/queue.js",
            "vendor/idb-keyval-6.3.0/idb-keyval.umd.js", "favicon.svg",
            *(name for name, _size, _type in ICONS))


def _fresh(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-cache"
    return response


def manifest() -> Response:
    """The web app manifest: name, icons, colours, standalone display, start at home."""
    theme, background = THEME["light"]
    data = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _("Keeps score at a real card table."),
        "start_url": url_for("matches.home"),
        "scope": url_for("matches.home"),
        "display": "standalone",
        "theme_color": theme,
        "background_color": background,
        "icons": [{"src": asset(name), "sizes": sizes, "type": kind, "purpose": "any"}
                  for name, sizes, kind in ICONS],
    }
    return _fresh(Response(json.dumps(data, ensure_ascii=False),
                           mimetype="application/manifest+json"))


def worker() -> Response:
    """The service worker, at the root so that its scope is the whole site."""
    assets = [asset(name) for name in PRECACHE]
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:12]
    body = render_template(
        "sw.js", version=version, assets=assets, static=url_for("static", filename=""),
        sheets=url_for("matches.show", match_id="0")[:-1])
    response = Response(body, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = url_for("matches.home")
    return _fresh(response)
