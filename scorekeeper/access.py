"""Who may change a match: the browser that created it, and the phones it hands the right to.

The right rides in the signed session cookie. Anyone with a match's address may watch it;
every change (any POST naming a match) without the right is refused with a 403. Setting
``OPEN_EDIT`` makes a household install editable by anyone who can reach it.
"""

from __future__ import annotations

import hmac
import io
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _

from .links import link_base, share_url
from .pages import get_match

bp = Blueprint("access", __name__)
SESSION_KEY = "edit"
REMEMBERED = 200  # match ids a browser keeps the right to edit (the cookie stays small)


def can_edit(match_id: str) -> bool:
    """True when this browser may change the match."""
    return bool(current_app.config["OPEN_EDIT"]) or match_id in session.get(SESSION_KEY, [])


def grant(match_id: str) -> None:
    """Give this browser the right to edit the match."""
    rights = [m for m in session.get(SESSION_KEY, []) if m != match_id]
    session[SESSION_KEY] = (rights + [match_id])[-REMEMBERED:]
    session.permanent = True


def editable_ids() -> list[str] | None:
    """The matches this browser may edit; None when every match is open."""
    if current_app.config["OPEN_EDIT"]:
        return None
    return list(session.get(SESSION_KEY, []))


def needs_edit_right(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view whose GET shows a correction form: like every POST naming a match, it
    is refused without the right to edit."""
    view.needs_edit_right = True  # type: ignore[attr-defined]
    return view


@bp.before_app_request
def guard() -> None:
    """Refuse any change to a match, or its correction pages, without the right to edit."""
    view = current_app.view_functions.get(request.endpoint or "")
    changing = request.method == "POST" or getattr(view, "needs_edit_right", False)
    if changing and request.view_args and "match_id" in request.view_args:
        match_id = request.view_args["match_id"]
        if not can_edit(match_id):
            get_match(match_id)
            abort(403, _("This phone may only watch this match: ask the phone that keeps "
                         "the sheet for the edit QR code."))


def qr_svg(url: str, title: str) -> str:
    """A QR code of ``url`` as an inline SVG."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, nl=False, scale=5,
                                    border=2, title=title, svgclass="qr")
    return out.getvalue().decode()


@bp.get("/matches/<match_id>/share")
def share(match_id: str):
    """The follow link for every phone, and the edit link for the phones that may edit."""
    match = get_match(match_id)
    follow = share_url("matches.show", match_id=match.id)
    edit = share_url("access.join", match_id=match.id, key=match.edit_key)
    editor = can_edit(match.id)
    return render_template(
        "matches/share.html", match=match, follow=follow, follow_qr=qr_svg(follow, _("Follow")),
        loopback=link_base().loopback,
        edit=edit if editor else None,
        edit_qr=qr_svg(edit, _("Edit")) if editor else None)


@bp.get("/matches/<match_id>/join/<key>")
def join(match_id: str, key: str) -> Response:
    """Take the edit right handed over by a QR code, then open the sheet."""
    match = get_match(match_id)
    if not hmac.compare_digest(match.edit_key.encode(), key.encode()):
        abort(403, _("This edit link is not valid for this match."))
    grant(match.id)
    return redirect(url_for("matches.show", match_id=match.id), 303)
