"""The table screen: a read-only page for a tablet, a laptop or a TV set up at the table.

It shows a match's current state big enough to read from across the table, and follows it
by itself: every few seconds it asks with the version it shows, and gets 204 while the
sheet is the same. A match's screen lives at the match's address; a table's screen, at an
address holding the table's read-only ``screen_token``, follows whichever match the table
plays now (``web.tables.current_match``), so it stays up from one match to the next.
Neither page has a control: the screen only shows.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _

from ..db import db
from ..models import Table
from ..web.games import spec_of
from ..web.pages import get_match, is_htmx, match_version, sheet_context
from ..web.tables import current_match

bp = Blueprint("screens", __name__)
POLL_SECONDS = 4
NO_STORE = {"Cache-Control": "no-cache"}


def _screen(poll: str, match_id: str | None, *, table: Table | None = None):
    """The screen (the whole page, or for htmx its part) of match ``match_id``, polling
    ``poll`` with the version it shows; an empty table's screen when there is no match."""
    match = get_match(match_id) if match_id else None
    context = {**sheet_context(match), "numbered": spec_of(match.game).words.numbered} \
        if match else {}
    since = context["match"].version if context else -1
    template = "screens/_screen.html" if is_htmx() else "screens/page.html"
    return render_template(template, **context, table=table, poll=url_for(
        poll, **request.view_args, match=(match_id or "") if table else None, since=since),
        poll_seconds=POLL_SECONDS, light=request.args.get("theme") == "light"), 200, NO_STORE


@bp.get("/matches/<match_id>/screen")
def match(match_id: str):
    """A match's table screen; for its poll (``since``), 204 while nothing changed."""
    since = request.args.get("since", type=int)
    if is_htmx() and since is not None and since >= match_version(match_id):
        return "", 204, NO_STORE
    return _screen("screens.match", match_id)


@bp.get("/tables/<table_id>/screen/<token>")
def table(table_id: str, token: str):
    """A table's screen: the match the table plays now; for its poll (``match`` and
    ``since``), 204 while that is the same match, unchanged."""
    found = db.session.get(Table, table_id)
    if found is None or not secrets.compare_digest(found.screen_token.encode(),
                                                   token.encode()):
        if is_htmx():  # a screen left open on an address that changed: say so, stop asking
            return render_template("screens/_gone.html"), 404, NO_STORE
        abort(404, _("There is no such screen: open it again from the table's page."))
    match_id, version = current_match(found.id) or ("", -1)
    if is_htmx() and request.args.get("match", "") == match_id and \
            request.args.get("since", type=int) == version:
        return "", 204, NO_STORE
    return _screen("screens.table", match_id or None, table=found)
