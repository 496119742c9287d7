"""A poll that finds its sheet unchanged, answered beneath the app.

Every phone on a sheet, following it or entering hands, asks every few seconds whether
the sheet changed (``GET /matches/<id>/live?since=N``, N the version its page shows), and
so does every table screen (``/matches/<id>/screen?since=N``). Nearly always nothing
changed, and the answer is an empty 204. That answer needs one small query, not a
request's whole way through Flask (its hooks, its session, its language): this layer
gives it before the app is called.

Anything else goes on to the app, which answers it as before: a sheet that changed, a
phone due to be noted as seen (``access.seen_due``), a host the app does not trust, a match
that does not exist, an address or a query of any other shape.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie
from werkzeug.wsgi import get_host

from ..db import db
from ..models import MATCH_ID
from .access import seen_due
from .pages import VERSION
from .security import unchanged_headers

POLL = re.compile(r"/matches/([^/]+)/(?:live|screen)")
SINCE = re.compile(r"since=(\d{1,18})")


def answer_unchanged_polls(app: Flask) -> None:
    """Put the layer beneath ``app``: call it before any other layer wraps the app, so that
    a poll reaches it as the app would see it (behind a proxy, its host in lower case)."""
    inner = app.wsgi_app

    def serve(environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_HX_REQUEST") == "true":
            with app.app_context():
                headers = _unchanged(app, environ)
            if headers is not None:
                start_response("204 NO CONTENT", headers)
                return []
        return inner(environ, start_response)

    app.wsgi_app = serve  # type: ignore[method-assign]


def _unchanged(app: Flask, environ: dict[str, Any]) -> list[tuple[str, str]] | None:
    """The headers of a 204 when ``environ`` is a poll this layer may answer and the match
    is still at the version it names; None to let the app answer."""
    poll = POLL.fullmatch(environ.get("PATH_INFO", ""))
    since = SINCE.fullmatch(environ.get("QUERY_STRING", ""))
    if poll is None or since is None or not MATCH_ID.fullmatch(poll[1]):
        return None
    trusted = app.config["TRUSTED_HOSTS"]
    if trusted:
        try:
            get_host(environ, trusted)
        except SecurityError:
            return None
    if seen_due(_cookie(app, environ), time.time()):
        return None
    try:
        with db.engine.connect() as connection:
            version = connection.scalar(VERSION, {"id": poll[1]})
    except SQLAlchemyError:  # the app says what went wrong, its own way
        return None
    if version is None or int(since[1]) < version:
        return None
    return unchanged_headers(environ.get("wsgi.url_scheme") == "https")


def _cookie(app: Flask, environ: dict[str, Any]) -> dict[str, Any]:
    """What this request's session cookie holds, read as Flask reads it (nothing when it is
    missing, forged or expired)."""
    value = parse_cookie(environ).get(app.config["SESSION_COOKIE_NAME"])
    return app.session_interface.read(app, value)  # type: ignore[attr-defined]
