"""Who plays a match as its pages show it: the seats in turn order, who holds each now, and
the sentences of the changes ("Elena joins at hand 7 with 34"), in the user's language
(the rules give codes and numbers: scorekeeper.rules.roster)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from ..engine.printing import number_text
from ..engine.sheets import people
from ..models import Match
from ..rules import Sheet
from ..rules.roster import Kind, SeatState


def column_order(sheet: Sheet) -> tuple[int, ...]:
    """The sheet's columns in the order the page shows them: the turn order, a joiner where
    the table seated them (a side of partners, which takes no joiner, stays in place)."""
    columns = sheet.columns
    if sheet.roster.order and all(len(seats) == 1 for seats in columns) \
            and len(sheet.roster.order) == len(columns):
        index = {seats[0]: column for column, seats in enumerate(columns)}
        return tuple(index[seat] for seat in sheet.roster.order)
    return tuple(range(len(columns)))


def state(sheet: Sheet, seat: int) -> SeatState:
    """What ``seat`` is now: playing, sitting out, left, or out (Scala 40)."""
    states = sheet.roster.states
    return states[seat] if seat < len(states) else SeatState.PLAYING


def column_state(sheet: Sheet, column: Sequence[int]) -> SeatState:
    """What a column of the sheet is now: the state its seats share (a pair out of a Scala
    40 match), else playing."""
    states = {state(sheet, seat) for seat in column}
    return states.pop() if len(states) == 1 else SeatState.PLAYING


def holders(match: Match, sheet: Sheet) -> list[str]:
    """Who holds each seat now, by seat: its own player, or its latest substitute."""
    names, named = list(match.names), people(match)
    for seat, held in enumerate(sheet.roster.holders[:len(names)]):
        if held and held[-1].person in named:
            names[seat] = named[held[-1].person]
    return names


def mark_texts(match: Match, sheet: Sheet) -> list[str]:
    """The sentences of the match's changes of who plays, in the order they took effect."""
    return marks_said(sheet, match.names, people(match))


def marks_said(sheet: Sheet, names: Sequence[str], named: Mapping[Any, str]) -> list[str]:
    """The sentences of ``sheet``'s changes of who plays, the seats' players called by
    ``names`` and substitutes by ``named`` (their names by id)."""
    texts = []
    for mark in sheet.roster.marks:
        values = {**mark.params, "player": names[mark.seat] if mark.seat < len(names) else "?",
                  "total": number_text(mark.total)}
        if mark.kind is Kind.SUBSTITUTE:
            values["person"] = named.get(mark.person, "?")
        texts.append(_(mark.message, **values))
    return texts
