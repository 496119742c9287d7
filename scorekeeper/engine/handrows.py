"""Every hand of a table's matches for a spreadsheet, a row per player per hand: the table's
open data (``/tables/<id>.csv``; one match's at ``/matches/<id>/hands.csv``).

A row holds the match (its id, game and the day it started), the hand and its dealer, the
player who held the seat then and the seat's number in the turn order, what the game says
of that player's hand (its ``Printing.entries``: Navawhist's bid and tricks, Scala 40's
penalty and closing, Forty-Five's tricks and best trump, Cavallo Re's result), the points
the rules scored and the running total (partners each get their side's), and whether the
seat was dealt in. Every figure is read from the computed sheet (docs/rules.md); nothing is
scored here.

It opens in a spreadsheet in the viewer's language: headings and words translated, fields
separated by a comma, or by a semicolon where the comma is the decimal sign (Italian),
figures as :func:`~.formats.figure` writes them with a hyphen for minus, dates ISO, UTF-8
after a byte order mark (Excel reads accents right only so). It is written a match at a
time, never whole in memory.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

from ..models import Match
from ..rules import GAMES, N_, Sheet
from ..rules.roster import Presence
from . import formats
from .printing import Printing, presence, safe_cell
from .sheets import compute_sheet, people

LEAD = (N_("Match"), N_("Game"), N_("Started"), N_("Hand"), N_("Dealer"), N_("Player"),
        N_("Seat"))
TAIL = (N_("Points"), N_("Total"), N_("Presence"))
PRESENCE_WORDS = {Presence.IN: N_("playing"), Presence.OUT: N_("out"),
                  Presence.NOT_YET: N_("not yet joined"), Presence.GONE: N_("left")}
BOM = "\ufeff"


def entry_headings(printings: Iterable[Printing]) -> tuple[str, ...]:
    """The games' own columns, each heading once (Navawhist's and Forty-Five's Tricks are
    one column), in the order the games give them."""
    return tuple(dict.fromkeys(heading for printing in printings
                               for heading, _entry in printing.entries))


def cell(value: Any) -> str:
    """A value as the file holds it: a figure in the viewer's language, a word as it is and
    never as a formula, nothing for None."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal | Fraction) and not isinstance(value, bool):
        return formats.figure(value, minus="-")
    return safe_cell(str(value))


def match_rows(match: Match, sheet: Sheet, printing: Printing,
               headings: Sequence[str]) -> Iterator[list[Any]]:
    """One match's rows: a row per seat per hand, in turn order; none for a seat dealt in
    that took no part (another player's deal of Cavallo Re)."""
    names, roster, named = match.names, sheet.roster, people(match)
    order = roster.order or tuple(range(len(names)))
    column = {seat: i for i, seats in enumerate(sheet.columns) for seat in seats}
    entries = dict(printing.entries)
    game, started = GAMES[match.game].name, match.created_at.date().isoformat()

    def held(seat: int, number: int) -> str:
        """Who held the seat at hand ``number``: its player, or the substitute then."""
        person = None
        for holder in roster.holders[seat] if seat < len(roster.holders) else ():
            if holder.hand <= number:
                person = holder.person
        return named.get(person, names[seat])

    for row in sheet.rows:
        dealer = None if row.dealer is None else held(row.dealer, row.number)
        for seat in order:
            was, points = presence(row, seat), row.points[column[seat]]
            if was is Presence.IN and points is None and not row.annulled:
                continue
            given = [entries[h](sheet, row, seat) if was is Presence.IN and h in entries
                     else None for h in headings]
            yield [match.id, game, started, row.number, dealer, held(seat, row.number),
                   order.index(seat) + 1, *given, points, row.totals[column[seat]],
                   _(PRESENCE_WORDS[was])]


def hand_lines(matches: Iterable[Match], printings: Mapping[str, Printing]) -> Iterator[str]:
    """The CSV of every hand of ``matches``, whose games' printings are ``printings``: the
    byte order mark and the headings, then each match's rows as one piece of text."""
    headings = entry_headings(printings.values())
    out = io.StringIO()
    writer = csv.writer(out, delimiter=formats.list_separator())

    def text(rows: Iterable[Sequence[Any]]) -> str:
        writer.writerows([cell(value) for value in row] for row in rows)
        chunk = out.getvalue()
        out.seek(0)
        out.truncate()
        return chunk

    yield BOM + text([[_(heading) for heading in (*LEAD, *headings, *TAIL)]])
    for match in matches:
        yield text(match_rows(match, compute_sheet(match), printings[match.game], headings))
