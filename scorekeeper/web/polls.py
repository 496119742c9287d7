"""The polls a phone makes every few seconds, answered beneath the app when they may be.

Every phone on a sheet, following it or entering hands, asks every few seconds whether
the sheet changed (``GET /matches/<id>/live?since=N``, N the version its page shows), and
so does every table screen (``/matches/<id>/screen?since=N``). Two answers need one small
query, not a request's whole way through Flask (its hooks, its session, its language), and
this layer gives them before the app is called:

- the sheet did not change: an empty 204;
- the sheet changed, and the poll is a follower's (a phone whose cookie holds no device, so
  it may not edit): the answer the app gave the first follower of the same language for
  that version (the live part every follower shares, see ``views.matches.live``), kept as
  the app sent it, headers and all, bytes for bytes. At a table entering hands the sheet
  changes between nearly every two polls of a follower, and at a club night those polls
  are most of what the server answers.

Anything else goes on to the app, which answers it as before: a phone due to be noted as
seen (``access.seen_due``), a phone with a device (it may be one that edits, whose answer
is its own), a household where every phone edits (``OPEN_EDIT``), a host the app does not
trust, a match that does not exist, a request carrying an ``If-None-Match``, an address or
a query of any other shape.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie
from werkzeug.wrappers import Request
from werkzeug.wsgi import get_host

from ..db import db
from ..engine.cache import cache
from ..models import MATCH_ID
from .access import DEVICE_KEY, LEGACY_KEY, seen_due
from .i18n import language_of
from .pages import VERSION
from .security import unchanged_headers

POLL = re.compile(r"/matches/([^/]+)/(live|screen)")
SINCE = re.compile(r"since=(\d{1,18})")
# What the live view puts in the environ of the answer every follower shares: the match,
# its version and the language; this layer keeps that answer for the next followers.
SHARED = "scorekeeper.shared_live"


@dataclass(frozen=True)
class Answer:
    """An answer as a WSGI app gives it."""

    status: str
    headers: list[tuple[str, str]]
    body: bytes

    def weight(self) -> int:
        """The bytes it holds in a cache, about."""
        return len(self.body) + sum(len(k) + len(v) + 64 for k, v in self.headers) + 200


def answer_polls(app: Flask) -> None:
    """Put the layer beneath ``app``: call it before any other layer wraps the app, so that
    a poll reaches it as the app would see it (behind a proxy, its host in lower case)."""
    inner = app.wsgi_app

    def serve(environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_HX_REQUEST") == "true":
            with app.app_context():
                answer, key = _poll(app, environ)
                if key is not None:
                    answer = cache("answers", Answer.weight).peek(key)
            if answer is not None:
                start_response(answer.status, list(answer.headers))
                return [answer.body]
            if key is not None:
                return _keep(app, inner, key, environ, start_response)
        return inner(environ, start_response)

    app.wsgi_app = serve  # type: ignore[method-assign]


def _keep(app: Flask, inner: Callable, key: tuple, environ: dict[str, Any],
          start_response: Callable) -> Iterable[bytes]:
    """The app's answer to a follower's poll, kept under ``key`` when the app says it is the
    part every follower of that language shares (and it sets no cookie)."""
    started: list[Any] = []

    def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
        started[:] = [status, headers]
        return start_response(status, headers, exc_info)

    parts = inner(environ, start)
    try:
        body = b"".join(parts)
    finally:
        if hasattr(parts, "close"):
            parts.close()
    status, headers = started or ("", [])
    if (environ.get(SHARED) == key[:3] and status.startswith("200 ")
            and not any(name.lower() == "set-cookie" for name, _value in headers)):
        with app.app_context():
            cache("answers", Answer.weight).put(key, Answer(status, list(headers), body))
    return [body]


def _poll(app: Flask, environ: dict[str, Any]) -> tuple[Answer | None, tuple | None]:
    """A 204 when ``environ`` is a poll this layer may answer and the match is still at the
    version it names; else, for a follower's poll of the live part, the key of the answer
    every follower of its language shares (match, version, language, gzip, https); else
    nothing, to let the app answer."""
    poll = POLL.fullmatch(environ.get("PATH_INFO", ""))
    since = SINCE.fullmatch(environ.get("QUERY_STRING", ""))
    nothing = None, None
    if poll is None or since is None or not MATCH_ID.fullmatch(poll[1]):
        return nothing
    trusted = app.config["TRUSTED_HOSTS"]
    if trusted:
        try:
            get_host(environ, trusted)
        except SecurityError:
            return nothing
    cookie = _cookie(app, environ)
    if seen_due(cookie, time.time()):
        return nothing
    try:
        with db.engine.connect() as connection:
            version = connection.scalar(VERSION, {"id": poll[1]})
    except SQLAlchemyError:  # the app says what went wrong, its own way
        return nothing
    secure = environ.get("wsgi.url_scheme") == "https"
    if version is None:
        return nothing
    if int(since[1]) >= version:
        return Answer("204 NO CONTENT", unchanged_headers(secure), b""), None
    if (poll[2] != "live" or app.config["OPEN_EDIT"] or DEVICE_KEY in cookie
            or LEGACY_KEY in cookie or "HTTP_IF_NONE_MATCH" in environ):
        return nothing
    language = language_of(Request(environ, populate_request=False, shallow=True))
    return None, (poll[1], version, language, "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""),
                  secure)


def _cookie(app: Flask, environ: dict[str, Any]) -> dict[str, Any]:
    """What this request's session cookie holds, read as Flask reads it (nothing when it is
    missing, forged or expired)."""
    value = parse_cookie(environ).get(app.config["SESSION_COOKIE_NAME"])
    return app.session_interface.read(app, value)  # type: ignore[attr-defined]
