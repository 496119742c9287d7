"""Sheet pages rendered and compressed once per version, shared by every browser.

A page holds the browser's own CSRF token in its forms, so it cannot be shared as it is.
It is rendered with a marker where the token goes, split there, and each part is
compressed once, on its own (raw deflate blocks that end on a byte boundary). Sending it
to a browser then costs joining the parts around that browser's token: for gzip, the
token compressed alone between the stored parts, and a checksum over the page.
"""

from __future__ import annotations

import secrets
import struct
import time
import zlib
from collections.abc import Callable

from flask import Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

# Where the token goes while a shared page is rendered; random, so no name can spell it.
MARK = f"csrf-{secrets.token_hex(12)}"
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time


def _deflate(data: bytes, *, last: bool) -> bytes:
    """``data`` as raw deflate blocks: the stream's end when ``last``, else a full flush, so
    that any part can follow it."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(
        zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)


class SharedPage:
    """A rendered page whose CSRF token is put in when it is sent.

    >>> page = SharedPage(f"<p>{MARK}</p><i>{MARK}</i>", 200)
    >>> page.body(b"t0k") == b"<p>t0k</p><i>t0k</i>"
    True
    >>> import gzip
    >>> gzip.decompress(page.gzipped(b"t0k")) == page.body(b"t0k")
    True
    """

    def __init__(self, html: str, status: int) -> None:
        self.parts = [part.encode() for part in html.split(MARK)]
        self.deflated = [_deflate(part, last=index == len(self.parts) - 1)
                         for index, part in enumerate(self.parts)]
        self.status = status

    def weight(self) -> int:
        """The bytes this page holds in a cache."""
        return sum(map(len, self.parts)) + sum(map(len, self.deflated))

    def body(self, token: bytes) -> bytes:
        return token.join(self.parts)

    def gzipped(self, token: bytes) -> bytes:
        # The token as a stored block (its bytes as they are, after a header saying how
        # many): a few dozen bytes gain nothing from compressing, and need no compressor.
        token_deflated = b"\x00" + struct.pack("<HH", len(token), len(token) ^ 0xFFFF) + token
        chunks, crc, size = [GZIP_HEADER], 0, 0
        for index, (part, deflated) in enumerate(zip(self.parts, self.deflated, strict=True)):
            if index:
                chunks.append(token_deflated)
                crc, size = zlib.crc32(token, crc), size + len(token)
            chunks.append(deflated)
            crc, size = zlib.crc32(part, crc), size + len(part)
        chunks.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
        return b"".join(chunks)

    def response(self) -> Response:
        """This page for the browser asking, with its token (only where the page holds one:
        a follower's live part has no form, and the browser is given no session for it),
        compressed when it accepts it."""
        token = signed_token().encode() if len(self.parts) > 1 else b""
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            response = Response(self.gzipped(token), self.status, mimetype="text/html")
            response.headers["Content-Encoding"] = "gzip"
            response.headers["Vary"] = "Accept-Encoding"
            return response
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
    secret = session.get(field)
    if secret is None or field in g:
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
