"""What a match looks like on paper and in a download: the printed rows and the file names.

The printed sheet is a paper score sheet: each hand's points with the running total beside
them, and, while the match goes on, blank rows to carry on by hand. Every figure comes from
the computed sheet; this module only lays it out.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

from ..models import Match
from ..rules import N_, Row, Sheet
from ..rules.roster import Presence
from . import formats

Cell = Callable[[Sheet, Row, int], str]
# What a hand says of one seat (or column) besides its points: a number, a word, None.
Entry = Callable[[Sheet, Row, int], Any]


@dataclass(frozen=True)
class Lead:
    """A leading column a game prints besides the hand's number and its dealer: its
    heading, its kind (the width class: ``cards``, ``word``) and its cell for hand
    ``number`` (``row`` None for a blank row)."""

    heading: str
    kind: str
    cell: Callable[[Sheet, int, Row | None], str]
    before_dealer: bool = False


@dataclass(frozen=True)
class Printing:
    """How a game's match is printed and exported: what a cell shows before the points
    (``detail``, for a column of a row) and the words of the legend that names the parts
    of a cell; its leading columns; the marks its events print beside the hand's number;
    the blank rows a match in progress goes on with (hand number and dealer), when the game
    knows them; and the CSV's headings, and the inputs of a hand it gives per column before
    the points (``csv_inputs``: a heading and the value for a row's column). ``entries`` is
    what the CSV of every hand (:mod:`scorekeeper.engine.handrows`) gives of each player
    besides the points: a heading and the value for a row's seat, read from the row the
    rules computed (a heading two games share is one column)."""

    detail: Cell
    parts: tuple[str, str, str]
    lead: tuple[Lead, ...] = ()
    event_marks: Mapping[str, str] = field(default_factory=dict)
    blank_rows: Callable[[Sheet], list[tuple[int, int | None]]] | None = None
    csv_number: str = N_("Hand")
    csv_points: str | None = None  # what each points column says before the players' names
    csv_totals: str = N_("Total")
    csv_total_row: Callable[[Sheet], list[Any]] | None = None  # under the points columns
    csv_inputs: tuple[tuple[str, Entry], ...] = ()
    entries: tuple[tuple[str, Entry], ...] = ()


def open_rows(sheet: Sheet, left: int = 0) -> list[tuple[int, int | None]]:
    """The blank rows of a match whose length is open, or has ``left`` rows to go: at least
    ``BLANK_ROWS``, the first with its dealer."""
    start = len(sheet.rows) + 1
    return [(n, sheet.next.dealer if sheet.next and n == start else None)
            for n in range(start, start + max(BLANK_ROWS, left))]


def no_detail(sheet: Sheet, row: Row, column: int) -> str:
    """A cell that shows only the points and the running total."""
    return ""


def seat_input(key: str) -> Entry:
    """An entry of the CSV of every hand: a seat's value of the row's input ``key`` (bids,
    points in hand), None where the row holds none."""
    def value(sheet: Sheet, row: Row, seat: int) -> Any:
        values = row.inputs.get(key) or ()
        return values[seat] if seat < len(values) else None
    return value


def note_word(sheet: Sheet, row: Row, seat: int) -> str:
    """What the rules noted of a seat in a row, in words (closed in hand, exact, won);
    "" for nothing."""
    note = row.notes[seat] if seat < len(row.notes) else ""
    return _(note.label) if note else ""


BLANK_ROWS = 8  # empty rows printed under a match in progress whose length is open
PORTRAIT_COLUMNS = 6  # more columns than this are printed on landscape pages
# The rows a printed sheet holds at most: of a longer match it prints the last ones, their
# running totals counting every row before (a few hundred rows are a few pages, and take
# the PDF renderer a second or two; five thousand took it half a minute). The CSV holds
# every row.
PRINTED_ROWS = 300


@dataclass(frozen=True)
class PrintedRow:
    """One row of the printed sheet: its leading cells, then one cell per column."""

    number: int
    lead: tuple[str, ...]
    cells: tuple[str, ...]
    note: str = ""


# A printed row is one line of a monospaced font: its leading cells, then each column's
# figures, every one a field of so many characters. The line's font is as large as
# ``LARGEST_PT`` or as the width ``LINE_MM`` allows (an A4 page less its margins and the
# table's rules, see static/css/print.css), portrait or landscape; ``MONO_EM`` is a
# character's width in em.
LINE_MM = {False: 187.0, True: 273.0}
LARGEST_PT = 8.5
MONO_EM = 0.602
NAME_FIELD = 9  # the narrowest field, in characters: the room of a player's name above it
WIDEST_NAME = 16  # a field widened for its heading is at most this wide; a dealer's name too
# Played rows are printed in blocks of this many lines, a box for WeasyPrint per block: a
# 200-game sheet is forty boxes, and its PDF takes half the time it took at a box a row.
# A rule is drawn under each block.
BLOCK = 5
# A rule between two fields, as a background image (a gradient of one colour would fill
# the whole table: WeasyPrint paints it as a colour).
RULE = "linear-gradient(to right, #777 0.4pt, transparent 0.4pt)"
# The leading cells' alignment in their fields, by kind: numbers right, words left.
RIGHT_ALIGNED = frozenset({"num", "cards"})


@dataclass(frozen=True)
class PrintedSheet:
    """The table of a printed match: its headings, played rows and blank rows to fill in.

    Each column's cell holds the hand's detail, its points and the running total as one line
    of aligned figures (``legend`` names them). A row is one line of text (:meth:`text`),
    its leading cells then its columns, and the rows are printed in blocks of lines
    (:meth:`blocks`), the table's background drawing the rules between the fields
    (:meth:`rules`): for the PDF renderer a paper sheet of two hundred games is about forty
    boxes, not a box per cell.
    """

    lead: tuple[tuple[str, str], ...]  # heading and kind (num, name, word) of leading cells
    legend: str
    rows: tuple[PrintedRow, ...]
    blank: tuple[PrintedRow, ...]
    omitted: int = 0  # rows of the match before the first one printed
    order: tuple[int, ...] = ()  # the columns in the order printed (the turn order)
    field: int = NAME_FIELD  # characters of each column's field in a line
    size: float = LARGEST_PT  # the font size of the lines, in points
    widths: tuple[int, ...] = ()  # characters of each leading cell's field

    def line(self, cells: Sequence[str]) -> str:
        """The cells as one line of fields, each right-aligned with a space either side.

        >>> PrintedSheet((), "", (), (), field=6).line(["12", "−3"])
        '   12    −3 '
        """
        return "".join(f" {cell:>{self.field - 2}} " for cell in cells)

    def in_order(self, values: Sequence[Any]) -> list[Any]:
        """One value per column, in the order the columns are printed.

        >>> PrintedSheet((), "", (), (), order=(2, 0, 1)).in_order(["a", "b", "c"])
        ['c', 'a', 'b']
        """
        return [values[c] for c in self.order] if self.order else list(values)

    def lead_line(self, cells: Sequence[str]) -> str:
        """The leading cells as fields of ``widths`` characters, a number to the right, a
        word to the left; a word too long for its field is cut short with an ellipsis.

        >>> PrintedSheet((("#", "num"), ("D", "name")), "", (), (), widths=(4, 7)).lead_line(
        ...     ["12", "Massimo"])
        ' 12  Mass… '
        """
        fields = []
        for cell, (_heading, kind), width in zip(cells, self.lead, self.widths, strict=True):
            room = width - 2
            text = cell if len(cell) <= room else cell[:room - 1].rstrip() + "…"
            fields.append(f" {text:>{room}} " if kind in RIGHT_ALIGNED else f" {text:<{room}} ")
        return "".join(fields)

    def rules(self, columns: int) -> str:
        """The table's background, drawn once a page: a rule between two leading fields,
        and before each of the ``columns`` fields (a block of rows is one box across them,
        so no cell can draw them). The table's border draws the outer ones.

        >>> for part in PrintedSheet((), "", (), (), field=10, widths=(4,)).rules(2).split("; "):
        ...     print(part)
        background-image: linear-gradient(to right, #777 0.4pt, transparent 0.4pt), \
linear-gradient(to right, #777 0.4pt, transparent 0.4pt)
        background-size: 1pt 100%, 1pt 100%
        background-repeat: no-repeat, no-repeat
        background-position: 2.408em 0, 8.428em 0
        """
        edges = list(itertools.accumulate([*self.widths, *[self.field] * columns]))[:-1]
        layers = {"image": [RULE] * len(edges), "size": ["1pt 100%"] * len(edges),
                  "repeat": ["no-repeat"] * len(edges),
                  "position": [f"{x * MONO_EM:.3f}em 0" for x in edges]}
        return "; ".join(f"background-{key}: {', '.join(values)}"
                         for key, values in layers.items())

    def blocks(self) -> list[tuple[PrintedRow, ...]]:
        """The played rows in blocks of up to ``BLOCK``; a row with a note is a block of
        its own (its note is printed across the figures' fields)."""
        blocks: list[list[PrintedRow]] = []
        for row in self.rows:
            if row.note or not blocks or blocks[-1][0].note or len(blocks[-1]) == BLOCK:
                blocks.append([row])
            else:
                blocks[-1].append(row)
        return [tuple(block) for block in blocks]

    def text(self, block: Sequence[PrintedRow]) -> str:
        """The rows of ``block`` as lines of text, one a row."""
        return "\n".join(self.lead_line(row.lead) + self.line(row.cells) for row in block)


def number_text(value: Any) -> str:
    """A figure as printed (:func:`scorekeeper.engine.formats.figure`): a real minus sign,
    one decimal in the viewer's language when it is no whole number, nothing for None; a
    word (a cell's "out") as it is."""
    if value is None or isinstance(value, int | float | Decimal | Fraction):
        return formats.figure(value)
    return str(value)


def signed_text(value: Any) -> str:
    """A hand's points as printed, a gain with its plus sign: "+12", "−3", "0"."""
    return f"+{number_text(value)}" if isinstance(value, int | float) and value > 0 \
        else number_text(value)


def presence(row: Row, seat: int) -> Presence:
    """What ``seat`` was in ``row``: dealt in, out, not yet joined, or gone."""
    return row.presence[seat] if seat < len(row.presence) else Presence.NOT_YET


def sat_out(row: Row, column: Sequence[int]) -> bool:
    """Whether the seats of ``column`` were all out of ``row`` (sat it out, or out of the
    match): its printed cell says "out", where one before a join or after a leave is empty."""
    return bool(row.presence) and all(
        seat < len(row.presence) and row.presence[seat] is Presence.OUT for seat in column)


def printed_sheet(match: Match, sheet: Sheet, names: Sequence[str],
                  printing: Printing, last: int = PRINTED_ROWS,
                  order: Sequence[int] = ()) -> PrintedSheet:
    """The rows of the printed sheet, the ``last`` ones of a longer match, and the blank
    rows a match in progress goes on with: the ones the game knows
    (``printing.blank_rows``), else :func:`open_rows`; its columns in ``order`` (all of
    them, as the page shows them; default: as the sheet has them)."""
    order = tuple(order) or tuple(range(len(sheet.columns)))
    detail, sub = printing.detail, printing.parts
    dealt = any(r.dealer is not None for r in sheet.rows) or (
        sheet.next is not None and sheet.next.dealer is not None)
    before = [lead for lead in printing.lead if lead.before_dealer]
    after = [lead for lead in printing.lead if not lead.before_dealer]
    lead = [("#", "num")] + [(_(c.heading), c.kind) for c in before] + (
        [(_("Dealer"), "name")] if dealt else []) + [(_(c.heading), c.kind) for c in after]

    def lead_cells(number: int, row: Row | None, dealer: int | None) -> tuple[str, ...]:
        marks = [printing.event_marks[e] for e in row.events
                 if e in printing.event_marks] if row else []
        cells = [" ".join([str(number), *marks])]
        cells += [c.cell(sheet, number, row) for c in before]
        if dealt:
            cells.append("" if dealer is None else names[dealer])
        cells += [c.cell(sheet, number, row) for c in after]
        return tuple(cells)

    shown = sheet.rows[-last:] if len(sheet.rows) > last else sheet.rows
    figures = [[(detail(sheet, row, c), number_text(row.points[c]), number_text(row.totals[c]))
                for c in range(len(sheet.columns))] for row in shown]
    gap = " " if len(sheet.columns) > PORTRAIT_COLUMNS else "  "
    widths = [max([len(cell[i]) for cells in figures for cell in cells] + [1]) for i in range(3)]

    def line(cell: tuple[str, str, str], out: bool = False) -> str:
        if not cell[1] and not cell[0]:
            return _("out") if out else ""  # a column that took no part in the hand
        parts = [text.rjust(width) for text, width in zip(cell, widths, strict=True)]
        return gap.join(parts if sub[0] else parts[1:])

    rows = tuple(
        PrintedRow(row.number, lead_cells(row.number, row, row.dealer),
                   tuple(line(cells[c], sat_out(row, sheet.columns[c])) for c in order),
                   _("annulled (stalemate)") if row.annulled else "")
        for row, cells in zip(shown, figures, strict=True))
    blank: list[PrintedRow] = []
    if not sheet.finished:
        empty = ("",) * len(sheet.columns)
        rows_left = printing.blank_rows or open_rows
        blank = [PrintedRow(n, lead_cells(n, None, dealer), empty)
                 for n, dealer in rows_left(sheet)]
    legend = _("Each cell: %(parts)s.", parts=", ".join(_(word) for word in sub if word))
    # As wide as the widest figures, and as the longest heading (a side's names) up to
    # WIDEST_NAME characters: a longer one wraps in its box.
    headings = [len(" + ".join(names[seat] for seat in column)) for column in sheet.columns]
    field = max([NAME_FIELD - 2, min(max(headings), WIDEST_NAME - 2)]
                + [len(cell) for row in rows for cell in row.cells]
                + [len(number_text(total)) for total in sheet.totals]) + 2
    # A leading field is as wide as its heading and its widest cell, a dealer's name up to
    # WIDEST_NAME characters; together they hold the word Total.
    widths = [max([len(heading)] + [len(row.lead[i]) for row in (*rows, *blank)]) + 2
              for i, (heading, _kind) in enumerate(lead)]
    widths = [min(width, WIDEST_NAME) if kind == "name" else width
              for width, (_heading, kind) in zip(widths, lead, strict=True)]
    widths[0] += max(0, len(_("Total")) + 2 - sum(widths))
    characters = sum(widths) + field * len(sheet.columns)
    size = min(LARGEST_PT, LINE_MM[len(names) > PORTRAIT_COLUMNS]
               / (characters * MONO_EM * 25.4 / 72))
    return PrintedSheet(tuple(lead), legend, rows, tuple(blank), len(sheet.rows) - len(shown),
                        order, field, int(size * 10) / 10, tuple(widths))


def _slug(text: str, length: int = 12) -> str:
    """``text`` in plain ASCII letters and digits, for a file name.

    >>> _slug("Niccolò D'Amico")
    'NiccoloDAmic'
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "", folded)[:length]


def download_name(match: Match, extension: str) -> str:
    """A file name that tells matches apart: game, date, players and a short part of the id.

    For example ``<game>-2026-11-30-Anna-Bruno-Carla-x7Gq2a.pdf``, the game by its key.
    """
    players = [slug for slug in (_slug(name) for name in match.names[:6]) if slug]
    short = _slug(match.id, 6) or "match"
    parts = [match.game, f"{match.created_at:%Y-%m-%d}", *players, short]
    return "-".join(parts) + f".{extension}"


def table_download_name(name: str, day: date, extension: str) -> str:
    """A file name for an export of a whole table: its name and the day.

    >>> table_download_name("Casa Rossi: giovedì", date(2026, 12, 3), "csv")
    'CasaRossigiovedi-2026-12-03.csv'
    """
    return f"{_slug(name, 16) or 'table'}-{day:%Y-%m-%d}.{extension}"


def _absence(row: Row, seats: Sequence[int]) -> str | None:
    """What a column's cells say in a hand none of its seats was dealt: "out" when one sat
    it out, "" before a join or after a leave; None when it played."""
    was = [row.presence[s] if s < len(row.presence) else Presence.NOT_YET for s in seats]
    if not row.presence or Presence.IN in was:
        return None
    return _(Presence.OUT.label) if Presence.OUT in was else ""


def csv_rows(match: Match, sheet: Sheet, names: Sequence[str],
             printing: Printing) -> list[list[Any]]:
    """A match for a spreadsheet: a row per hand with each column's points and running total,
    then the totals. A game without a dealer has no Dealer column; a game may name its
    points and totals columns otherwise, and fill its total row's points columns."""
    columns = [" + ".join(names[s] for s in column) for column in sheet.columns]
    dealt = any(row.dealer is not None for row in sheet.rows)
    points = [f"{_(printing.csv_points)}: {c}" for c in columns] if printing.csv_points \
        else columns
    totals = [f"{_(printing.csv_totals)}: {c}" for c in columns]
    inputs = [f"{_(heading)}: {c}" for heading, _value in printing.csv_inputs for c in columns]
    rows: list[list[Any]] = [[_(printing.csv_number)] + ([_("Dealer")] if dealt else [])
                             + inputs + points + totals]
    for row in sheet.rows:
        dealer = [names[row.dealer] if row.dealer is not None else ""] if dealt else []
        # A seat not dealt in the hand gave nothing: its cells are empty, "out" for its
        # points when it sat the hand out (never 0).
        absent = [_absence(row, seats) for seats in sheet.columns]
        given = [value(sheet, row, c) if absent[c] is None else "" for _heading, value in
                 printing.csv_inputs for c in range(len(columns))]
        rows.append([row.number] + dealer + given
                    + [absent[c] if absent[c] is not None else "" if p is None else p
                       for c, p in enumerate(row.points)]
                    + ["" if t is None else t for t in row.totals])
    blank = ([""] if dealt else []) + [""] * len(inputs)
    if printing.csv_total_row is not None:
        rows.append([_("Total")] + blank + printing.csv_total_row(sheet) + list(sheet.totals))
    else:
        rows.append([_("Total")] + blank + list(sheet.totals) + [""] * len(columns))
    return rows


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet shows it and never runs it (OWASP's advice on CSV
    injection): text that a spreadsheet would take for a formula gets a leading quote.

    >>> safe_cell("=SUM(A1)"), safe_cell("@x"), safe_cell(-5), safe_cell("Anna")
    ("'=SUM(A1)", "'@x", -5, 'Anna')
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def csv_text(rows: list[list[Any]]) -> str:
    """``rows`` as CSV, every cell through :func:`safe_cell`."""
    out = io.StringIO()
    csv.writer(out).writerows([[safe_cell(value) for value in row] for row in rows])
    return out.getvalue()
