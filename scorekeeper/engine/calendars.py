"""Calendars (RFC 5545, written by ``icalendar``): a table's evenings and its card night,
and a tournament's evening with its rounds.

Every time is stored in UTC and told in the table's time zone (``Table.zone``), with the
zone's VTIMEZONE in the calendar, so that a calendar app shows the hour the table saw even
across a change to or from summer time. An evening is the matches whose first hand was
saved on one local day, counting a match begun before ``MORNING`` in the evening before
(a night that goes past midnight is one evening). Each event's UID is built from the
table's or tournament's address and the day or round, so a calendar app that reads the feed
again updates its events rather than adding new ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from icalendar import Calendar, Event, vRecur

MORNING = time(6)  # a match begun before this belongs to the evening before
DOMAIN = "scorekeeper"  # the right-hand side of every UID
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")  # RFC 5545's names, Monday first


@dataclass(frozen=True)
class Played:
    """A match as a calendar tells it: its game's name, its players, its first and last
    saved hands (UTC, naive as stored) and what became of it (its winners' names when it
    is finished, ``abandoned`` when given up)."""

    game: str
    names: Sequence[str]
    first: datetime
    last: datetime
    winners: Sequence[str] = ()
    abandoned: bool = False


@dataclass(frozen=True)
class Night:
    """A table's weekly card night: a weekday (0 is Monday), a start and an optional
    length."""

    weekday: int
    start: time
    minutes: int | None = None


@dataclass(frozen=True)
class Span:
    """A stretch of an evening (a tournament's evening or one of its rounds): its title,
    its lines and its start and end (UTC, naive as stored; no end when nothing is
    recorded)."""

    key: str
    summary: str
    lines: Sequence[str]
    start: datetime
    end: datetime | None = None


def local(moment: datetime, zone: ZoneInfo) -> datetime:
    """A stored (naive UTC) ``moment`` in ``zone``.

    >>> local(datetime(2026, 7, 2, 19, 0), ZoneInfo("Europe/Rome")).isoformat()
    '2026-07-02T21:00:00+02:00'
    """
    return moment.replace(tzinfo=UTC).astimezone(zone)


def evening_of(moment: datetime, zone: ZoneInfo) -> date:
    """The local day of the evening a stored ``moment`` belongs to.

    >>> rome = ZoneInfo("Europe/Rome")
    >>> evening_of(datetime(2026, 3, 28, 23, 30), rome)  # 00:30 on the 29th in Rome
    datetime.date(2026, 3, 28)
    """
    return (local(moment, zone) - timedelta(hours=MORNING.hour)).date()


def evenings(played: Iterable[Played], zone: ZoneInfo) -> dict[date, list[Played]]:
    """The matches by evening, each evening's in the order they began."""
    found: dict[date, list[Played]] = {}
    for match in sorted(played, key=lambda m: m.first):
        found.setdefault(evening_of(match.first, zone), []).append(match)
    return found


def _calendar(uid: str, name: str, zone: ZoneInfo, events: list[Event]) -> bytes:
    calendar = Calendar.new(name=name, prodid="-//Scorekeeper//Scorekeeper//EN",
                            uid=f"{uid}@{DOMAIN}", subcomponents=events)
    calendar.add("X-WR-TIMEZONE", zone.key)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(uid: str, summary: str, start: datetime, end: datetime | None,
           lines: Sequence[str], stamp: datetime) -> Event:
    # An evening of one saved hand has no length: it ends where it starts (no DTEND).
    end = end if end is not None and end > start else None
    return Event.new(uid=f"{uid}@{DOMAIN}", summary=summary, start=start, end=end,
                     description="\n".join(lines) or None, stamp=stamp.replace(tzinfo=UTC))


def _outcome(match: Played) -> str:
    if match.abandoned:
        return _("Abandoned")
    if match.winners:
        return _("Won by %(names)s", names=", ".join(match.winners))
    return _("In progress")


def _hours(match: Played, zone: ZoneInfo) -> str:
    return "–".join(local(m, zone).strftime("%H:%M") for m in (match.first, match.last))


def table_calendar(table_id: str, name: str, zone: ZoneInfo, played: Iterable[Played],
                   night: Night | None, since: datetime) -> bytes:
    """The table's calendar: one event an evening, from its first saved hand to its last,
    named after the table, its games and their winners; and its card night, weekly from
    the first such weekday on or after ``since``."""
    events = []
    for day, matches in evenings(played, zone).items():
        games = ", ".join(f"{m.game} ({', '.join(m.winners)})" if m.winners else m.game
                          for m in matches)
        lines = [f"{m.game} {_hours(m, zone)} · {', '.join(m.names)} · {_outcome(m)}"
                 for m in matches]
        last = max(m.last for m in matches)
        events.append(_event(f"{table_id}-{day.isoformat()}",
                             _("%(table)s: %(games)s", table=name, games=games),
                             local(matches[0].first, zone), local(last, zone), lines, last))
    if night is not None:
        day = local(since, zone).date()
        day += timedelta(days=(night.weekday - day.weekday()) % 7)
        start = datetime.combine(day, night.start, tzinfo=zone)
        end = start + timedelta(minutes=night.minutes) if night.minutes else None
        event = _event(f"{table_id}-night", _("%(table)s: card night", table=name), start,
                       end, [], since)
        event.add("RRULE", vRecur(freq="WEEKLY", byday=WEEKDAYS[night.weekday]))
        events.append(event)
    return _calendar(table_id, name, zone, events)


def tournament_calendar(tournament_id: str, name: str, zone: ZoneInfo,
                        spans: Sequence[Span]) -> bytes:
    """A tournament's calendar: one event for each of ``spans`` (the evening, then its
    rounds)."""
    return _calendar(tournament_id, name, zone, [
        _event(f"{tournament_id}-{span.key}", span.summary, local(span.start, zone),
               local(span.end, zone) if span.end else None, span.lines,
               span.end or span.start) for span in spans])
