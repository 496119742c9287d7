"""Who may change a match: the phones of its table (see membership and tables).

Anyone with a match's address may watch it; every change (any POST naming a match) from a
phone that is not a member of its table is refused with a 403. Setting ``OPEN_EDIT`` makes
a household install editable by anyone who can reach it.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import gettext as _

from .db import db
from .links import link_base, share_url
from .membership import join, may_edit_match
from .models import Match
from .pages import get_match

bp = Blueprint("access", __name__)


def can_edit(match_id: str) -> bool:
    """True when this phone may change the match: it belongs to the match's table."""
    return may_edit_match(match_id)


def grant(match_id: str) -> None:
    """Make this phone a member of the match's table; the caller commits."""
    join(db.session.get_one(Match, match_id).table_id)


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
            abort(403, _("This phone may only watch this match: to keep its sheet, ask a "
                         "phone of its table for an invitation (Share, then Invite to this "
                         "table) and scan its code."))


def qr_svg(url: str, title: str) -> str:
    """A QR code of ``url`` as an inline SVG."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, nl=False, scale=5,
                                    border=2, title=title, svgclass="qr")
    return out.getvalue().decode()


@bp.get("/matches/<match_id>/share")
def share(match_id: str):
    """The follow link for every phone; members are offered to invite a phone to the table."""
    match = get_match(match_id)
    follow = share_url("matches.show", match_id=match.id)
    return render_template(
        "matches/share.html", match=match, follow=follow, follow_qr=qr_svg(follow, _("Follow")),
        loopback=link_base().loopback, editor=can_edit(match.id))
