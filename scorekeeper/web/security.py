"""Response headers that keep the pages ours: no inline script or style, no framing."""

from __future__ import annotations

from flask import Flask, Response, abort, current_app, request
from flask_babel import gettext as _

from ..models import MATCH_ID

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
])




def check_request() -> None:
    """Refuse what no page of ours sends, before anything reads it: a match address that
    cannot exist, a form field without a readable name."""
    if request.endpoint == "backups.restore":
        request.max_content_length = current_app.config["MAX_BACKUP_LENGTH"]
    match_id = (request.view_args or {}).get("match_id")
    if match_id is not None and not MATCH_ID.fullmatch(match_id):
        abort(404, _("There is no such match."))
    if request.method == "POST" and (None in request.form or None in request.files):
        abort(400, _("The form could not be read."))


# What a browser may show as a page of its own, or run as a worker: only these need a policy.
DOCUMENTS = ("text/html", "image/svg+xml", "application/json")
WORKERS = ("site.worker",)


def secure_headers(response: Response) -> Response:
    """Add the Content-Security-Policy and its companions to every document, and nosniff to
    every response (a stylesheet or script needs no policy: the headers stay short)."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if response.mimetype in DOCUMENTS or request.endpoint in WORKERS:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
    if request.endpoint == "static":
        response.headers.pop("Content-Disposition", None)
    return response


def init_app(app: Flask) -> None:
    """Check every request first and add the headers to every response of ``app``.

    Call it before the CSRF extension is bound, so that the checks run first.
    """
    app.before_request(check_request)
    app.after_request(secure_headers)
