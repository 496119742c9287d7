"""Sheet pages rendered and compressed once per version, shared by every browser.

A page holds the browser's own CSRF token in its forms, so it cannot be shared as it is.
It is rendered with a marker where the token goes, split there, and each part is
compressed once, on its own (raw deflate blocks that end on a byte boundary). Only the
compressed parts are kept, with each part's checksum and length: a tenth of a large page's
bytes. Sending it to a browser then costs joining the parts around that browser's token:
for gzip, the token as a stored block between the parts, and the page's checksum combined
from the parts' and the token's; uncompressed, the parts inflated.
"""

from __future__ import annotations

import secrets
import struct
import time
import zlib
from collections.abc import Callable
from functools import lru_cache

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


# CRC-32 of joined data from the parts' own (zlib's crc32_combine, which Python's zlib
# does not offer): polynomials over GF(2), modulo CRC-32's, bit-reflected.
_POLY = 0xEDB88320


def _times(a: int, b: int) -> int:
    """``a`` times ``b`` modulo CRC-32's polynomial (``a`` not zero)."""
    m, product = 1 << 31, 0
    while True:
        if a & m:
            product ^= b
            if not a & (m - 1):
                return product
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1


_SQUARES = [1 << 30]  # x to the powers 2**0, 2**1, ...: x**(2**k)
for _ in range(31):
    _SQUARES.append(_times(_SQUARES[-1], _SQUARES[-1]))


@lru_cache(maxsize=256)
def _shift(length: int) -> int:
    """x to the power of ``length`` bytes' bits: what a checksum is multiplied by when
    ``length`` bytes follow what it covers."""
    power, k = 1 << 31, 3
    while length:
        if length & 1:
            power = _times(_SQUARES[k & 31], power)
        length >>= 1
        k += 1
    return power


def crc32_joined(sums: list[tuple[int, int]]) -> int:
    """The CRC-32 of pieces of data joined, from each piece's (CRC-32, length).

    >>> pieces = [b"<p>", b"t0k", b"</p>" * 300, b""]
    >>> crc32_joined([(zlib.crc32(p), len(p)) for p in pieces]) == zlib.crc32(b"".join(pieces))
    True
    """
    crc = 0
    for piece_crc, length in sums:
        crc = _times(_shift(length), crc) ^ piece_crc
    return crc


class _Checksum:
    """The CRC-32 of a page's parts joined around tokens of one length, for any token.

    A CRC is linear but for a constant: the page's is that of the page with zeros for its
    tokens, plus the token's own (less that of as many zeros) moved past what follows each
    place it fills; summed over those places, that is one product per token.

    >>> parts = [b"<p>", b"</p><i>" * 99, b"</i>"]
    >>> checksum = _Checksum([(zlib.crc32(part), len(part)) for part in parts], 3)
    >>> checksum.of(b"t0k") == zlib.crc32(b"t0k".join(parts))
    True
    """

    def __init__(self, sums: list[tuple[int, int]], length: int) -> None:
        zeros = (zlib.crc32(bytes(length)), length)
        self.zeros = zeros[0]
        self.base = crc32_joined([piece for index, part in enumerate(sums)
                                  for piece in ([zeros, part] if index else [part])])
        self.moves = 0
        after = 0
        for _crc, part_length in reversed(sums[1:]):
            after += part_length
            self.moves ^= _shift(after)
            after += length

    def of(self, token: bytes) -> int:
        own = zlib.crc32(token) ^ self.zeros
        return self.base ^ (_times(self.moves, own) if self.moves else 0)


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
        parts = [part.encode() for part in html.split(MARK)]
        self.deflated = [_deflate(part, last=index == len(parts) - 1)
                         for index, part in enumerate(parts)]
        self.sums = [(zlib.crc32(part), len(part)) for part in parts]
        self.checksums: dict[int, _Checksum] = {}
        self.status = status

    @property
    def forms(self) -> bool:
        """True when the page holds a token (a form)."""
        return len(self.deflated) > 1

    def weight(self) -> int:
        """The bytes this page holds in a cache."""
        return sum(map(len, self.deflated)) + 64 * len(self.deflated)

    def body(self, token: bytes) -> bytes:
        inflate = zlib.decompressobj(-15)
        return token.join(inflate.decompress(part) for part in self.deflated)

    def gzipped(self, token: bytes) -> bytes:
        # The token as a stored block (its bytes as they are, after a header saying how
        # many): a few dozen bytes gain nothing from compressing, and need no compressor.
        token_deflated = b"\x00" + struct.pack("<HH", len(token), len(token) ^ 0xFFFF) + token
        checksum = self.checksums.get(len(token))
        if checksum is None:  # once per length of token: every browser's is as long
            checksum = self.checksums[len(token)] = _Checksum(self.sums, len(token))
        size = sum(length for _crc, length in self.sums) + len(token) * (len(self.sums) - 1)
        return b"".join((GZIP_HEADER, token_deflated.join(self.deflated),
                         struct.pack("<II", checksum.of(token), size & 0xFFFFFFFF)))

    def response(self) -> Response:
        """This page for the browser asking, with its token (only where the page holds one:
        a follower's live part has no form, and the browser is given no session for it),
        compressed when it accepts it."""
        token = signed_token().encode() if self.forms else b""
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
