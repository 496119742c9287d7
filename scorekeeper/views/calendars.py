"""Calendars: a table's evenings and card night as a feed a calendar app subscribes to,
the form that sets its time zone and card night, and a tournament's evening as a file.

The feed's address holds the table's read-only calendar secret (a calendar app cannot log
in); a member gives it a new one from the table page. A tournament's calendar lives at the
tournament's address, its secret like its page's.
"""

from __future__ import annotations

import secrets

from flask import Blueprint, Response, abort, redirect, url_for
from flask_babel import force_locale
from flask_babel import gettext as _

from ..db import db
from ..engine.calendars import table_calendar, tournament_calendar
from ..models import Table, new_secret
from ..web.access import get_table
from ..web.calendars import (
    calendar_form,
    night_of,
    played,
    tournament_spans,
    zone_of,
)
from ..web.pages import download_language
from ..web.templating import error_messages
from ..web.tournaments import get_tournament

bp = Blueprint("calendars", __name__)
CALENDAR = "text/calendar; charset=utf-8"


@bp.post("/tables/<table_id>/calendar")
def settings(table_id: str):
    """Set the table's time zone and card night; 422 saying why, storing nothing, when
    the form is wrong."""
    table = get_table(table_id)
    form = calendar_form()
    if not form.validate():
        abort(422, " ".join(error_messages(form)))
    table.zone = form.zone.data.strip()
    night = form.weekday.data != ""
    table.night_weekday = int(form.weekday.data) if night else None
    table.night_start = form.start.data if night else None
    table.night_minutes = form.minutes.data if night else None
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id, _anchor="calendar"), 303)


@bp.post("/tables/<table_id>/calendar/address")
def renew(table_id: str):
    """Give the table's calendar a new address: the old one stops working."""
    table = get_table(table_id)
    table.calendar_token = new_secret()
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id, _anchor="calendar"), 303)


@bp.get("/tables/<table_id>/calendar/<token>.ics")
def feed(table_id: str, token: str):
    """The table's calendar, in the language its address names; 404 for an address that
    is not (or no longer) the table's."""
    table = db.session.get(Table, table_id)
    if table is None or not secrets.compare_digest(table.calendar_token.encode(),
                                                   token.encode()):
        abort(404, _("There is no such calendar: copy its address again from the table's "
                     "page."))
    with force_locale(download_language()):
        body = table_calendar(table.id, table.name, zone_of(table), played(table),
                              night_of(table), table.created_at)
    return Response(body, content_type=CALENDAR, headers={"Cache-Control": "no-cache"})


@bp.get("/tournaments/<tournament_id>.ics")
def tournament(tournament_id: str):
    """The tournament's evening and its rounds as a calendar file."""
    found = get_tournament(tournament_id)
    table = db.session.get_one(Table, found.table_id)
    with force_locale(download_language()):
        body = tournament_calendar(found.id, found.name, zone_of(table),
                                   tournament_spans(found))
    return Response(body, content_type=CALENDAR, headers={
        "Content-Disposition": f'attachment; filename="{found.id}.ics"'})
