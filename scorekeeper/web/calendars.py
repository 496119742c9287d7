"""What a table's and a tournament's calendars are made of: the matches with their saved
hands' times, the card night, the rounds; the form that sets the table's time zone and card
night; and the address of the table's feed.

The feed's address holds the table's ``calendar_token``, a read-only secret like the
screen's: a calendar app cannot log in. A member gives the table a new address (the old one
stops working) from the table page, and removing a phone does the same (docs/operating.md,
"Calendars").
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from babel.dates import get_day_names
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import exists, func, select
from sqlalchemy.orm import selectinload
from wtforms.fields.choices import SelectChoice

from ..db import db
from ..engine.calendars import Night, Played, Span
from ..engine.sheets import compute_sheet
from ..models import Hand, Match, Table, Tournament, TournamentTable
from ..rules import GAMES
from .forms import CalendarForm
from .links import share_url


def zone_of(table: Table) -> ZoneInfo:
    """The table's time zone."""
    return ZoneInfo(table.zone)


def night_of(table: Table) -> Night | None:
    """The table's card night, if its members set one."""
    if table.night_weekday is None or table.night_start is None:
        return None
    return Night(table.night_weekday, table.night_start, table.night_minutes)


def calendar_form(table: Table | None = None) -> CalendarForm:
    """The calendar form as posted, or (given ``table``) as the table's page shows it, its
    weekdays named in the user's language."""
    form = CalendarForm() if table is None else CalendarForm(formdata=None, data={
        "zone": table.zone, "start": table.night_start, "minutes": table.night_minutes,
        "weekday": "" if table.night_weekday is None else str(table.night_weekday)})
    names = get_day_names("wide", locale=get_locale())
    form.weekday.choices = [SelectChoice("", _("No card night"))] + [
        SelectChoice(str(d), names[d]) for d in range(7)]
    return form


def feed_url(table: Table) -> str:
    """The absolute address of the table's calendar, in the user's language."""
    return share_url("calendars.feed", table_id=table.id, token=table.calendar_token,
                     lang=str(get_locale()))


def webcal(url: str) -> str:
    """``url`` for a calendar app to subscribe to.

    >>> webcal("https://scores.example/tables/x/calendar/y.ics")
    'webcal://scores.example/tables/x/calendar/y.ics'
    """
    return "webcal://" + url.split("://", 1)[1]


def played(table: Table) -> list[Played]:
    """The table's own matches with at least one saved hand (a tournament's are in its own
    calendar), with their sheets' outcome."""
    times = (select(Hand.match_id, func.min(Hand.created_at).label("first"),
                    func.max(Hand.created_at).label("last"))
             .group_by(Hand.match_id).subquery())
    rows = db.session.execute(
        select(Match, times.c.first, times.c.last).join(times, times.c.match_id == Match.id)
        .options(selectinload(Match.hands))
        .where(Match.table_id == table.id)
        .where(~exists().where(TournamentTable.match_id == Match.id))).all()
    found = []
    for match, first, last in rows:
        sheet, names = compute_sheet(match), match.names
        winners = [" + ".join(names[s] for s in sheet.columns[c]) for c in sheet.winners] \
            if sheet.finished else []
        found.append(Played(GAMES[match.game].name, names, first, last, winners,
                            match.abandoned))
    return found


def tournament_spans(tournament: Tournament) -> list[Span]:
    """The tournament's evening, from its making (or its first seating, if earlier: a
    restored backup) to its last saved hand, then each round published, from its seating
    to its last saved hand, with its tables (a round drawn but not published is nobody's
    yet)."""
    published = {row.number for row in tournament.round_rows if row.published_at}
    ids = [t.match_id for t in tournament.tables if t.match_id and t.round in published]
    times: dict[str, tuple[datetime, datetime | None]] = {
        match_id: (seated, last) for match_id, seated, last in db.session.execute(
            select(Match.id, Match.created_at, func.max(Hand.created_at))
            .outerjoin(Hand, Hand.match_id == Match.id).where(Match.id.in_(ids))
            .group_by(Match.id, Match.created_at))} if ids else {}
    names = {e.number: e.name for e in tournament.entrants}

    def last(found: list[tuple[datetime, datetime | None]]) -> datetime | None:
        return max((end for _seated, end in found if end), default=None)

    begun = min([tournament.created_at, *(seated for seated, _end in times.values())])
    spans = [Span("evening", tournament.name, [GAMES[tournament.game].name], begun,
                  last(list(times.values())))]
    for row in tournament.round_rows:
        tables = [t for t in tournament.tables if t.round == row.number]
        found = [times[t.match_id] for t in tables if t.match_id in times]
        if not found:
            continue
        lines = [_("Table %(n)s", n=t.number) + ": " + ", ".join(
            names[e] for e in t.entrants if e in names) for t in tables]
        spans.append(Span(f"round-{row.number}",
                          f"{_('Round %(n)s', n=row.number)} · {tournament.name}", lines,
                          min(seated for seated, _end in found), last(found)))
    return spans
