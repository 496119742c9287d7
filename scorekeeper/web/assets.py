"""Static files with a version in their address, cached for a year, and compressed responses.

A server in front (nginx, a CDN) may compress too; then it sees ``Content-Encoding`` set and
leaves the response alone.
"""

from __future__ import annotations

import hashlib
import zlib
from functools import cache
from pathlib import Path

from flask import Flask, Response, current_app, request, url_for

YEAR = 365 * 24 * 3600
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")
MIN_SIZE = 512


@cache
def _digest(path: Path, mtime: float) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def asset(filename: str) -> str:
    """The address of a static file with its content hash: a new file gets a new address."""
    path = Path(current_app.static_folder) / filename
    return url_for("static", filename=filename, v=_digest(path, path.stat().st_mtime))


def gzipped(data: bytes) -> bytes:
    """``data`` in gzip, level 6, with a window no larger than the data: zlib takes longer to
    set up its full 32 KB window and hash than to compress a 4 KB fragment (28 µs against 75
    for a bid's answer, the same bytes out).

    >>> import gzip
    >>> gzip.decompress(gzipped(b"<p>Hand 2 saved.</p>" * 40)) == b"<p>Hand 2 saved.</p>" * 40
    True
    """
    window = min(15, max(9, (len(data) - 1).bit_length()))
    squeezer = zlib.compressobj(6, zlib.DEFLATED, 16 + window, max(1, window - 7))
    return squeezer.compress(data) + squeezer.flush()


_static_gzipped = cache(gzipped)


# Backups hold every match a phone may edit: never kept by a browser or a proxy.
NO_STORE = ("backups.backup_json", "backups.restore")
# Answers sent as they are written (every hand of a table): never gathered to be gzipped.
STREAMED = ("exports.table_csv", "exports.match_hands_csv")


def cache_policy(response: Response) -> None:
    """Versioned static files are kept a year; every other answer that set no policy of its
    own is this browser's own and is checked again before use (its ETag, where it has one,
    makes that cheap)."""
    if request.endpoint == "static":
        if request.args.get("v"):
            response.cache_control.no_cache = None
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
    elif request.endpoint in NO_STORE:
        response.headers["Cache-Control"] = "no-store"
    elif "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "private, no-cache"


def finish(response: Response) -> Response:
    """Cache headers; gzip for text the client accepts."""
    cache_policy(response)
    if (response.status_code != 200 or request.endpoint in STREAMED
            or "Content-Encoding" in response.headers
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or not response.mimetype.startswith(COMPRESSIBLE)):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    # Static files repeat: keep their compressed bytes; pages change, compress them afresh.
    body = _static_gzipped(data) if request.endpoint == "static" else gzipped(data)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}-gz", weak=weak)
    return response


def init_app(app: Flask) -> None:
    """The response finishing of ``app``."""
    app.after_request(finish)
