"""What the read-only API shares: who reads (a table's read token, or a member phone's own
session), what it may read, and answers with an ETag (docs/api.md).

A read token reads its table, that table's matches and its tournaments, and nothing else:
anything else answers 404, as if it did not exist, so a token tells nothing of other
tables. Without a token, the phone's session reads the tables it is a member of. A
request with neither (no token, a phone of no table) answers 401.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Response, abort, g, jsonify, request, session
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select

from ..db import db
from ..models import ApiToken, _now, token_hash
from .access import is_member, my_table_ids, open_edit

PREFIX = "/api/"
READS = ("GET", "HEAD")
USED_EVERY = timedelta(minutes=5)  # a token's last use is this precise; it spares writes
SHOWN_KEY = "read_token"  # the token this phone just made, to show once: table, id, secret


def new_token(table_id: str, name: str) -> tuple[ApiToken, str]:
    """A new read token of the table and its secret, which only the maker sees, once; the
    caller commits."""
    secret = secrets.token_urlsafe(32)
    token = ApiToken(table_id=table_id, name=name, token_hash=token_hash(secret))
    db.session.add(token)
    return token, secret


def keep_to_show(token: ApiToken, secret: str) -> None:
    """Keep the secret of the token this phone just made in its session, for the table page
    to show once (the database holds only its hash)."""
    session[SHOWN_KEY] = [token.table_id, token.id, secret]


def shown_secret(table_id: str) -> tuple[int, str] | None:
    """The id and secret of the token this phone just made for the table, forgotten once
    asked; None when there is none."""
    kept = session.get(SHOWN_KEY)
    if not (isinstance(kept, list) and len(kept) == 3 and kept[0] == table_id):
        return None
    session.pop(SHOWN_KEY)
    return kept[1], kept[2]


def table_tokens(table_id: str) -> list[ApiToken]:
    """The table's read tokens in force, the newest first."""
    return list(db.session.scalars(select(ApiToken).where(
        ApiToken.table_id == table_id, ApiToken.withdrawn_at.is_(None))
        .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())))


def bearer() -> str | None:
    """The secret of the request's ``Authorization: Bearer`` header; None without the
    header; 401 for a header of another kind."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _sep, secret = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        abort(401, _("Give a read token as: Authorization: Bearer <token>."))
    return secret.strip()


def reader_table() -> str | None:
    """The table the request's read token reads (None: the phone's own session reads);
    401 for a token unknown or withdrawn, or for a request with neither a token nor a
    phone of a table. Asked once a request."""
    if "api_table" in g:
        return g.api_table
    secret = bearer()
    if secret is None:
        if not open_edit() and not my_table_ids():
            abort(401, _("Give a read token of the table (Authorization: Bearer <token>), "
                         "or ask from a phone of the table."))
        g.api_table = None
        return None
    token = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == token_hash(secret)))
    if token is None:
        abort(401, _("This read token is not valid."))
    if token.withdrawn_at is not None:
        abort(401, _("This read token was withdrawn: ask a member of the table for a new "
                     "one."))
    now = _now()
    if token.last_used_at is None or now - token.last_used_at >= USED_EVERY:
        token.last_used_at = now
        db.session.commit()
    g.api_table = token.table_id
    return token.table_id


def readable(table_id: str | None) -> bool:
    """True when the request may read what belongs to this table."""
    token_table = reader_table()
    if table_id is None:
        return False
    return table_id == token_table if token_table is not None else is_member(table_id)


def check_readable(table_id: str | None, missing: str) -> None:
    """404 with ``missing`` unless the request may read what belongs to this table."""
    if not readable(table_id):
        abort(404, missing)


def etag_of(*parts: Any) -> str:
    """An ETag for an answer that depends on ``parts`` and the request's language."""
    return hashlib.sha256(repr((*parts, str(get_locale()))).encode()).hexdigest()[:32]


def answer(etag: str, body: Callable[[], Any]) -> Response:
    """``body()`` as JSON with ``etag``; 304 without a body (and ``body`` never called)
    when ``If-None-Match`` holds it (as sent, or as compressed: see web.assets)."""
    if request.if_none_match.contains_weak(etag) or \
            request.if_none_match.contains_weak(f"{etag}-gz"):
        response = Response(status=304)
    else:
        response = jsonify(body())
    response.set_etag(etag, weak=True)
    response.vary.update(("Authorization", "Cookie", "Accept-Language"))
    return response


def hashed(data: Any) -> Response:
    """``data`` as JSON with an ETag from its own bytes: for an answer no version says
    when it changed."""
    return answer(etag_of(jsonify(data).get_data()), lambda: data)
