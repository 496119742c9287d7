"""The toolbox of every page showing a match: its loader, the htmx test, the sheet
rendered whole or as its live part, a refusal that stores nothing, and the answer after
a change."""

from __future__ import annotations

import re
from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _

from .db import db
from .i18n import rule_message
from .models import Match
from .rules import GAMES, RuleError
from .scoring import Conflict, compute_sheet

INDENT = re.compile(r"\n[ \t]+")


def render_compact(template: str, **context: Any) -> str:
    """``render_template`` without the templates' indentation (no page holds <pre>)."""
    return INDENT.sub("\n", render_template(template, **context))


def is_htmx() -> bool:
    """True when htmx sent the request and wants a fragment back."""
    return request.headers.get("HX-Request") == "true"


def get_match(match_id: str, game: str | None = None) -> Match:
    """The match with this id (of ``game`` when given); raises 404 when there is none.

    A post to another game's match is a 404 like a match that does not exist.
    """
    match = db.get_or_404(Match, match_id, description=_("There is no such match."))
    if game is not None and match.game != game:
        abort(404, _("There is no such match."))
    return match


def render_sheet(match: Match, *, status: int = 200, error: str | None = None,
                 template: str = "matches/show.html", **context: Any):
    """The match page (or, for htmx, its live part) with an optional error message."""
    if is_htmx() and template == "matches/show.html":
        template = "matches/_live.html"
    return render_compact(template, **sheet_context(match), error=error, **context), status


def sheet_context(match: Match) -> dict[str, Any]:
    """What every template showing a match needs."""
    return {"match": match, "sheet": compute_sheet(match), "game": GAMES[match.game],
            "names": match.names}


def refuse(match: Match, error: RuleError | Conflict, **context: Any):
    """Nothing stored: the sheet again with the message, 409 for a conflict, 422 otherwise."""
    db.session.rollback()
    db.session.refresh(match)
    if isinstance(error, Conflict):
        return render_sheet(match, status=409, **context,
                            error=_("Already recorded: the sheet below is the latest one."))
    return render_sheet(match, status=422, **context, error=rule_message(error, match.names))




def after_change(match: Match):
    """POST then redirect; htmx gets the fresh live sheet instead."""
    if is_htmx():
        return render_sheet(match)
    return redirect(url_for("matches.show", match_id=match.id), 303)
