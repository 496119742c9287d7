"""What a match looks like on paper and in a download: the printed rows and the file names.

The printed sheet is a paper score sheet: each hand's points with the running total beside
them, and, while the match goes on, blank rows to carry on by hand. Every figure comes from
the computed sheet; this module only lays it out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, request
from flask_babel import get_locale
from flask_babel import gettext as _

from .models import Match
from .rules import N_, Row, Sheet, fortyfive, quarantotto, scala40

BLANK_ROWS = 8  # empty rows printed under a match in progress whose length is open
PORTRAIT_COLUMNS = 6  # more columns than this are printed on landscape pages


@dataclass(frozen=True)
class PrintedRow:
    """One row of the printed sheet: its leading cells, then one cell per column."""

    number: int
    lead: tuple[str, ...]
    cells: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class PrintedSheet:
    """The table of a printed match: its headings, played rows and blank rows to fill in.

    Each column's cell holds the hand's detail, its points and the running total as one line
    of aligned figures (``legend`` names them): a paper sheet of a hundred games stays a few
    thousand boxes for the PDF renderer, not three times as many.
    """

    lead: tuple[tuple[str, str], ...]  # heading and kind (num, name, word) of leading cells
    legend: str
    rows: tuple[PrintedRow, ...]
    blank: tuple[PrintedRow, ...]


def _number(value: Any) -> str:
    """A figure as printed: a real minus sign, nothing for None."""
    if value is None:
        return ""
    return f"−{-value}" if isinstance(value, int) and value < 0 else str(value)


def _navawhist(sheet: Sheet, row: Row, column: int) -> str:
    return f"{row.inputs['bids'][column]}/{row.inputs['tricks'][column]}"


def _rummy(sheet: Sheet, row: Row, column: int) -> str:
    """Quarantotto and Scala 40: the points left in hand (Quarantotto) or how the player
    closed, with a re-entry before it and "out" after it."""
    if row.annulled:
        return ""
    back = {e["seat"]: e["total"] for e in sheet.status.get("events", ())
            if e["deal"] == row.number and e["event"] == "reentry"}
    words = []
    for seat in sheet.columns[column]:
        note = row.notes[seat] if seat < len(row.notes) else ""
        shown = row.inputs["hand_points"][seat] if "hand_points" in row.inputs else None
        word = MARKS.get(note) or ("" if shown is None else str(shown))
        if seat in back:
            word = f"↩{back[seat]} {word}".strip()
        if note == scala40.OUT:
            word = f"{word} {_(note.label)}".strip()
        words.append(word)
    return " + ".join(w for w in words if w)


# Short marks keep a column narrow on paper; the legend under the table explains them.
MARKS = {scala40.CLOSED: "✓", scala40.CLOSED_IN_HAND: "✓✓", scala40.DID_NOT_OPEN: "✗"}
EVENT_MARKS = {quarantotto.STOCK_RAN_OUT: "∅", scala40.DOUBLED: "×2",
               fortyfive.TIE_AT_TOP: "=", fortyfive.NO_TRUMP: "∅", fortyfive.ALL_FIVE: "5×"}


def _fortyfive(sheet: Sheet, row: Row, column: int) -> str:
    tricks = row.inputs.get("side_tricks", [""] * len(sheet.columns))[column]
    return f"{tricks}{' ▲' if row.inputs.get('bonus_side') == column else ''}"


def _none(sheet: Sheet, row: Row, column: int) -> str:
    return ""


# What a cell shows before the points, and the heading of each sub-column, by game.
DETAILS: dict[str, tuple[Callable[[Sheet, Row, int], str], str, str, str]] = {
    "navawhist": (_navawhist, N_("bid/tricks"), N_("points"), N_("running total")),
    "quarantotto": (_rummy, N_("points in hand (✓ closed; ∅ the stock ran out)"),
                    N_("score"), N_("running total")),
    "scala40": (_rummy, N_("✓ closed, ✓✓ closed in hand, ✗ never opened, ↩ re-entry "
                           "(×2: penalties doubled)"),
                N_("penalty"), N_("running total")),
    "fortyfive": (_fortyfive, N_("tricks (▲ the bonus trick; = tie at the top: play goes on, "
                                 "∅ no trump played, 5× all five tricks)"),
                  N_("points"), N_("running total")),
    "cavallore": (_none, "", N_("cards placed"), N_("wins so far")),
}


def printed_sheet(match: Match, sheet: Sheet, names: Sequence[str]) -> PrintedSheet:
    """The rows of the printed sheet, and the blank rows a match in progress goes on with.

    Navawhist prints its remaining hands with their cards and dealers; every other game at
    least ``BLANK_ROWS`` empty rows (more when the number of games left is known).
    """
    detail, *sub = DETAILS[match.game]
    navawhist = match.game == "navawhist"
    dealt = any(r.dealer is not None for r in sheet.rows) or (
        sheet.next is not None and sheet.next.dealer is not None)
    lead = [("#", "num")] + ([(_("Cards"), "cards")] if navawhist else []) + (
        [(_("Dealer"), "name")] if dealt else [])
    if match.game == "fortyfive":
        lead.append((_("Trump"), "word"))

    def lead_cells(number: int, row: Row | None, dealer: int | None) -> tuple[str, ...]:
        marks = [EVENT_MARKS[e] for e in row.events if e in EVENT_MARKS] if row else []
        cells = [" ".join([str(number), *marks])]
        if navawhist:
            trump = (row.inputs.get("trump") or "") if row else ""
            cells.append(f"{sheet.status['schedule'][number - 1]} {trump}".strip())
        if dealt:
            cells.append("" if dealer is None else names[dealer])
        if match.game == "fortyfive":
            cells.append((row.inputs.get("trump") or "") if row else "")
        return tuple(cells)

    figures = [[(detail(sheet, row, c), _number(row.points[c]), _number(row.totals[c]))
                for c in range(len(sheet.columns))] for row in sheet.rows]
    gap = " " if len(sheet.columns) > PORTRAIT_COLUMNS else "  "
    widths = [max([len(cell[i]) for cells in figures for cell in cells] + [1]) for i in range(3)]

    def line(cell: tuple[str, str, str]) -> str:
        if not cell[1] and not cell[0]:
            return ""  # a column that took no part in the hand
        parts = [text.rjust(width) for text, width in zip(cell, widths, strict=True)]
        return gap.join(parts if sub[0] else parts[1:])

    rows = tuple(
        PrintedRow(row.number, lead_cells(row.number, row, row.dealer),
                   tuple(line(cell) for cell in cells),
                   _("annulled (stalemate)") if row.annulled else "")
        for row, cells in zip(sheet.rows, figures, strict=True))
    blank: list[PrintedRow] = []
    if not sheet.finished:
        empty = ("",) * len(sheet.columns)
        if navawhist:
            dealers = sheet.status["dealers"]
            numbers = range(len(sheet.rows) + 1, len(sheet.status["schedule"]) + 1)
            blank = [PrintedRow(n, lead_cells(n, None, dealers[n - 1]), empty) for n in numbers]
        else:
            left = (sheet.status.get("games") or 0) - len(sheet.rows)
            start = len(sheet.rows) + 1
            for n in range(start, start + max(BLANK_ROWS, left)):
                dealer = sheet.next.dealer if sheet.next and n == start else None
                blank.append(PrintedRow(n, lead_cells(n, None, dealer), empty))
    legend = _("Each cell: %(parts)s.", parts=", ".join(_(word) for word in sub if word))
    return PrintedSheet(tuple(lead), legend, rows, tuple(blank))


def download_language() -> str:
    """The language of a download: ``?lang=`` when given, else the page's; 400 if unknown."""
    languages = current_app.config["LANGUAGES"]
    lang = request.args.get("lang")
    if lang is None:
        return str(get_locale())
    if lang not in languages:
        abort(400, _("Unknown language: choose one of %(languages)s.",
                     languages=", ".join(languages)))
    return lang


def _slug(text: str, length: int = 12) -> str:
    """``text`` in plain ASCII letters and digits, for a file name.

    >>> _slug("Niccolò D'Amico")
    'NiccoloDAmic'
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "", folded)[:length]


def download_name(match: Match, extension: str) -> str:
    """A file name that tells matches apart: game, date, players and a short part of the id.

    For example ``navawhist-2026-11-30-Anna-Bruno-Carla-x7Gq2a.pdf``.
    """
    players = [slug for slug in (_slug(name) for name in match.names[:6]) if slug]
    short = _slug(match.id, 6) or "match"
    parts = [match.game, f"{match.created_at:%Y-%m-%d}", *players, short]
    return "-".join(parts) + f".{extension}"


def csv_rows(match: Match, sheet: Sheet, names: Sequence[str]) -> list[list[Any]]:
    """A match for a spreadsheet: a row per hand with each column's points and running total,
    then the totals. A game without a dealer has no Dealer column; Cavallo Re's columns are
    the cards placed and the wins, and its total row puts each in its own columns."""
    columns = [" + ".join(names[s] for s in column) for column in sheet.columns]
    dealt = any(row.dealer is not None for row in sheet.rows)
    solitaire = match.game == "cavallore"
    points = [f"{_('Cards placed')}: {c}" for c in columns] if solitaire else columns
    totals = [f"{_('Wins')}: {c}" if solitaire else f"{_('Total')}: {c}" for c in columns]
    number = _("Deal") if solitaire else _("Hand")
    rows: list[list[Any]] = [[number] + ([_("Dealer")] if dealt else []) + points + totals]
    for row in sheet.rows:
        dealer = [names[row.dealer] if row.dealer is not None else ""] if dealt else []
        rows.append([row.number] + dealer + ["" if p is None else p for p in row.points]
                    + list(row.totals))
    blank = [""] if dealt else []
    if solitaire:
        placed = [s["placed"] for s in sheet.status["statistics"]]
        rows.append([_("Total")] + blank + placed + list(sheet.totals))
    else:
        rows.append([_("Total")] + blank + list(sheet.totals) + [""] * len(columns))
    return rows


def wants_page() -> bool:
    """True when a browser asks for a document (it prefers HTML) and not for ``?raw``: a
    program asking for JSON, or for anything, gets the raw JSON."""
    if "raw" in request.args:
        return False
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"
