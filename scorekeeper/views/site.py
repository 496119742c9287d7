"""What every page of the site shares: the language switch, the web app manifest, the
service worker and the trivial answer for load balancers."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request

from ..web import pwa
from ..web.i18n import COOKIE, YEAR, local_target
from ..web.pages import is_htmx
from ..web.templating import LARGE_COOKIE

bp = Blueprint("site", __name__)


@bp.post("/lang/<code>")
def switch_language(code: str):
    """Remember the chosen language and go back where the user was."""
    response = redirect(local_target(request.form.get("next")))
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(COOKIE, code, max_age=YEAR, samesite="Lax", httponly=True,
                            secure=request.is_secure)
    return response


@bp.post("/type/<choice>")
def switch_type(choice: str):
    """Remember large type (``large``) or normal type (``normal``) on this phone; for htmx,
    answer with the switch itself, which static/js/large.js follows without a reload."""
    large = choice == "large"
    if is_htmx():
        response = current_app.make_response(
            render_template("_type_switch.html", large=large))
    else:
        response = redirect(local_target(request.form.get("next")))
    if choice in ("large", "normal"):
        response.set_cookie(LARGE_COOKIE, "on" if large else "off", max_age=YEAR,
                            samesite="Lax", httponly=True, secure=request.is_secure)
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
