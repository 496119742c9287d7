"""Read tokens of a table's API, made and withdrawn by its members on the table page.

A token's secret is shown once, to the phone that made it (this phone's session keeps it
until the table page shows it); only its hash is stored. The API itself is
scorekeeper.views.api.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, url_for
from flask_babel import gettext as _

from ..db import db
from ..models import ApiToken, _now
from ..web.access import get_table
from ..web.api import keep_to_show, new_token
from ..web.forms import ReadTokenForm
from ..web.templating import error_messages

bp = Blueprint("tokens", __name__)


@bp.post("/tables/<table_id>/read-tokens")
def make(table_id: str):
    """Make a read token of the table under the name given; the table page then shows its
    secret, once. 422 saying why, storing nothing, when the name is wrong."""
    table = get_table(table_id)
    form = ReadTokenForm()
    if not form.validate():
        abort(422, " ".join(error_messages(form)))
    token, secret = new_token(table.id, form.name.data)
    db.session.commit()
    keep_to_show(token, secret)
    return redirect(url_for("tables.show", table_id=table.id, _anchor="read-tokens"), 303)


@bp.post("/tables/<table_id>/read-tokens/<int(max=2147483647):number>/withdraw")
def withdraw(table_id: str, number: int):
    """Withdraw a read token of the table: from its next request on it reads nothing."""
    table = get_table(table_id)
    token = db.session.get(ApiToken, number)
    if token is None or token.table_id != table.id:
        abort(404, _("There is no such read token."))
    if token.withdrawn_at is None:  # a second tap changes nothing
        token.withdrawn_at = _now()
        db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id, _anchor="read-tokens"), 303)
