"""Response headers that keep the pages ours: no inline script or style, no framing."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Request, Response, abort, current_app, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_babel import gettext as _
from itsdangerous import BadSignature
from werkzeug.datastructures import MultiDict

from ..models import MATCH_ID
from .links import guard_host, secure_origin

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


def page_policy() -> str:
    """The Content-Security-Policy of a page: :data:`CSP`, and over plain HTTP on a server
    that also answers HTTPS, images from the secure origin too (the probe that tells whether
    this phone trusts the certificate yet: templates/_secure_offer.html)."""
    origin = secure_origin()
    return CSP if origin is None else CSP.replace("img-src 'self' data:",
                                                  f"img-src 'self' data: {origin}")


def check_request() -> None:
    """Refuse what no page of ours sends, before anything reads it: a match or table address
    that cannot exist, a NUL byte in the address, the query or a form (no database stores
    one in text), a form field without a readable name."""
    if request.endpoint == "backups.restore":
        request.max_content_length = current_app.config["MAX_BACKUP_LENGTH"]
    args = request.view_args or {}
    match_id = args.get("match_id")
    if match_id is not None and not MATCH_ID.fullmatch(match_id):
        abort(404, _("There is no such match."))
    table_id = args.get("table_id")
    if table_id is not None and not MATCH_ID.fullmatch(table_id):
        abort(404, _("There is no such table."))
    if "\x00" in request.path or _holds_nul(request.args):
        abort(400)
    if request.method == "POST":
        if None in request.form or None in request.files:
            abort(400, _("The form could not be read."))
        if _holds_nul(request.form):
            abort(400)


def _holds_nul(values: MultiDict) -> bool:
    return any("\x00" in key or "\x00" in value for key, value in values.items(multi=True))


# What a browser may show as a page of its own, or run as a worker: only these need a policy.
DOCUMENTS = ("text/html", "image/svg+xml", "application/json")
WORKERS = ("site.worker",)


def secure_headers(response: Response) -> Response:
    """Add the Content-Security-Policy and its companions to every document, and nosniff to
    every response (a stylesheet or script needs no policy: the headers stay short)."""
    headers = response.headers
    wanted = [("X-Content-Type-Options", "nosniff")]
    if response.mimetype in DOCUMENTS or request.endpoint in WORKERS:
        wanted += [("Content-Security-Policy", page_policy()), *DOCUMENT_HEADERS]
    if request.endpoint == "static":
        headers.pop("Content-Disposition", None)
    if request.is_secure:
        wanted.append(("Strict-Transport-Security", f"max-age={hsts_age()}"))
    present = {key.lower() for key, _value in headers}
    headers.extend([(key, value) for key, value in wanted if key.lower() not in present])
    return response


DOCUMENT_HEADERS = [("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY")]


def hsts_age() -> int:
    """How long a browser keeps to HTTPS here once it came over it: a year; none where
    scorekeeper serve answers plain HTTP on a port of its own beside HTTPS (a browser keeps
    to HTTPS by host, whatever the port: the plain port, and the page that installs the
    certificate on it, would be out of reach)."""
    return 0 if current_app.config["SECURE_PORT"] else 31_536_000


READ_COOKIES = 4096  # session cookies whose signature was checked, kept at most


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie, marked Secure when it is set over HTTPS (or always, with
    SESSION_COOKIE_SECURE), and each cookie's signature checked once: a phone sends the
    same cookie with every tap, page and poll."""

    def __init__(self) -> None:
        self._read: dict[tuple[Any, str], tuple[dict[str, Any], int]] = {}

    def read(self, app: Flask, value: str | None) -> dict[str, Any]:
        """What the session cookie ``value`` holds, as Flask reads it: nothing when it is
        missing, forged or expired. A cookie seen before is not checked again, only its
        age (the time it was signed is kept with it)."""
        if not value or not app.secret_key:
            return {}
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (app.secret_key, value)
        known = self._read.get(key)
        if known is None:
            try:
                data, signed = self.get_signing_serializer(app).loads(  # type: ignore[union-attr]
                    value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return {}
            if len(self._read) >= READ_COOKIES:
                self._read.clear()
            known = self._read[key] = (data, int(signed.timestamp()))
        elif not 0 <= int(time.time()) - known[1] <= max_age:  # as itsdangerous tells it
            return {}
        return copy.deepcopy(known[0])

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        return self.session_class(self.read(app, request.cookies.get(self.get_cookie_name(app))))

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app) or (has_request_context()
                                                       and request.is_secure))


def lowercase_host(wsgi_app: Callable) -> Callable:
    """Host names are the same whatever their case (SCORES.EXAMPLE is scores.example): the
    trusted-host check and the links see them in lower case; a host that is no host name
    gets a 400 there (``links.guard_host``)."""
    guarded = guard_host(wsgi_app)

    def app(environ: dict, start_response: Callable) -> Any:
        for key in ("HTTP_HOST", "HTTP_X_FORWARDED_HOST"):
            if key in environ:
                environ[key] = environ[key].lower()
        return guarded(environ, start_response)

    return app


def init_app(app: Flask) -> None:
    """Check every request first and add the headers to every response of ``app``.

    Call it before the CSRF extension is bound, so that the checks run first.
    """
    app.session_interface = SessionInterface()
    app.wsgi_app = lowercase_host(app.wsgi_app)
    app.before_request(check_request)
    app.after_request(secure_headers)
