"""Sheet pages rendered once per version, shared by every browser.

A page holds the browser's own CSRF token in its forms, so it cannot be shared as it is.
It is rendered with a marker where the token goes and kept as that text (frozen, keyed by
the match's version: see scorekeeper.engine.cache); sending it to a browser puts that
browser's token in by plain string replacement. The answer is compressed afterwards like
any other page (``assets.finish``).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, current_app, g, session
from flask_wtf.csrf import generate_csrf

# Where the token goes while a shared page is rendered; random, so no name can spell it.
MARK = f"csrf-{secrets.token_hex(12)}"


@dataclass(frozen=True)
class SharedPage:
    """A rendered page whose CSRF token is put in when it is sent.

    >>> SharedPage(f"<p>{MARK}</p><i>{MARK}</i>", 200).body("t0k")
    '<p>t0k</p><i>t0k</i>'
    """

    html: str
    status: int

    @property
    def forms(self) -> bool:
        """True when the page holds a token (a form)."""
        return MARK in self.html

    def weight(self) -> int:
        """The bytes this page holds in a cache, about."""
        return len(self.html) + 64

    def body(self, token: str) -> str:
        return self.html.replace(MARK, token)

    def response(self) -> Response:
        """This page for the browser asking, with its token (only where the page holds one:
        a follower's live part has no form, and the browser is given no session for it)."""
        token = signed_token() if self.forms else ""
        return Response(self.body(token), self.status, mimetype="text/html")


def shared(render: Callable[[], tuple[str, int]]) -> SharedPage:
    """The page ``render()`` makes, with the marker in place of the CSRF token."""
    g.shared_page = True
    try:
        html, status = render()
    finally:
        g.shared_page = False
    return SharedPage(html, status)


def signed_token() -> str:
    """This browser's CSRF token, as Flask-WTF's ``generate_csrf`` signs it, signed once a
    second per browser: the signature holds the time in whole seconds, so every token a
    browser is given within a second is the same string, and a page served a tap later
    reuses it instead of signing again."""
    field = current_app.config["WTF_CSRF_FIELD_NAME"]
    made = vars(g._get_current_object()).get(field)
    if made is not None:  # this request's, as generate_csrf would return it
        return made
    secret = session.get(field)
    if secret is None:
        return generate_csrf()
    signed = current_app.extensions.setdefault("scorekeeper.signed_tokens", {})
    key = (secret, int(time.time()))
    token = signed.get(key)
    if token is None:
        if len(signed) >= SIGNED_TOKENS:
            signed.clear()
        token = signed[key] = generate_csrf()
    else:
        setattr(g, field, token)  # where generate_csrf keeps it for the rest of the request
    return token


SIGNED_TOKENS = 1024  # browsers' tokens of the current seconds kept at most


def csrf_token() -> str:
    """The template's ``csrf_token()``: the marker while a shared page is rendered."""
    return MARK if g.get("shared_page") else signed_token()
