"""What every page of the site shares: the language switch, the web app manifest, the
service worker and the trivial answer for load balancers."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, request

from ..web import pwa
from ..web.i18n import COOKIE, YEAR, local_target

bp = Blueprint("site", __name__)


@bp.post("/lang/<code>")
def switch_language(code: str):
    """Remember the chosen language and go back where the user was."""
    response = redirect(local_target(request.form.get("next")))
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: name, icons, colours, standalone display, start at home."""
    return pwa.manifest()


@bp.get("/sw.js")
def worker() -> Response:
    """The service worker, at the root so that its scope is the whole site."""
    return pwa.worker()


@bp.get("/health")
def health():
    """A trivial answer for load balancers and benchmarks."""
    return "ok", 200, {"Content-Type": "text/plain"}
