"""Cavallo Re at the table: a solitaire log, one deal at a time by the cards placed.

A log may be kept for up to six players at once, each with their own deals, taken in
turn: the next deal is the next player's unless the page asks for another (``?seat=``),
and every deal can be corrected. Statistics and the expected odds come from the rules
engine's status; this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, request

from ..engine import formats
from ..engine.history import Field, Words
from ..engine.ledger import Conflict, save_hand
from ..engine.printing import Printing, no_detail, note_word
from ..engine.sheets import compute_sheet, stored_hands
from ..models import Match
from ..rules import N_, Nn_, RuleError, Sheet, cavallore
from ..web.access import needs_edit_right
from ..web.entry import check_form, correcting
from ..web.forms import HandForm, whole
from ..web.games import GameSpec
from ..web.pages import Typed, after_change, answer_refusal, get_match, render_sheet

bp = Blueprint("cavallore", __name__)
EDIT = "hands/correct.html"

# How the history says a hand.
PLACED = Nn_("%(value)s card placed", "%(value)s cards placed")
WORDS = Words(N_("Deal %(n)s"), {
    "seat": Field("seat", N_("Player"), N_("%(name)s")),
    "placed": Field("value", N_("Cards placed"), PLACED[0], plural=PLACED[1]),
})


# The quick keys: the losing counts most often seen (about four losses in five).
QUICK = tuple(range(24, 36))
# The distribution chart's box, in SVG units.
WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 360, 120, 34, 18, 8


@dataclass(frozen=True)
class Bar:
    """One count of cards placed: the share of deals that placed it, as a bar."""

    placed: int
    count: int
    x: float
    y: float
    height: float


@dataclass(frozen=True)
class DistributionChart:
    """Cards placed per deal, as bars, beside the expected distribution as a line."""

    bars: tuple[Bar, ...]
    expected: str
    width: float
    slot: float
    base: float
    top: float
    scale: float
    ticks: tuple[tuple[float, int], ...]
    view: tuple[int, int] = (WIDTH, HEIGHT)


def distribution_chart(stats: Mapping[str, Any],
                       expected: Sequence[float]) -> DistributionChart | None:
    """The chart of a log's ``counts`` (from the sheet's status) beside ``expected``.

    Bars show each count's share of the deals played, so they read on the same scale as
    the expected chances; None before the first deal.

    >>> chart = distribution_chart({"deals": 2, "counts": [0] * 35 + [1, 1]}, [1 / 37] * 37)
    >>> len(chart.bars), chart.bars[-1].count, chart.scale
    (37, 1, 0.5)
    """
    deals = stats["deals"]
    if not deals:
        return None
    counts = stats["counts"]
    shares = [count / deals for count in counts]
    scale = max(shares + list(expected)) or 1
    slot = (WIDTH - LEFT) / len(counts)
    base = HEIGHT - BOTTOM

    def y(share: float) -> float:
        return round(base - share / scale * (base - TOP), 1)

    bars = tuple(Bar(m, count, round(LEFT + m * slot + slot * 0.1, 1), y(share),
                     round(base - y(share), 1))
                 for m, (count, share) in enumerate(zip(counts, shares, strict=True)))
    line = " ".join(f"{round(LEFT + (m + 0.5) * slot, 1)},{y(p)}" for m, p in enumerate(expected))
    ticks = tuple((round(LEFT + (m + 0.5) * slot, 1), m) for m in range(0, len(counts), 6))
    return DistributionChart(bars, line, round(slot * 0.8, 1), slot, base, TOP, scale, ticks)


def cavallore_number(value: float | None, *, percent: bool = False) -> str:
    """A statistic in the user's language (28,8 in Italian); a dash before the first deal."""
    if value is None:
        return "—"
    if percent:
        return formats.percent(value)
    return formats.decimal(value, grouped=True)


def entry_context(args: Mapping[str, str], match: Match) -> dict[str, Any]:
    """Whose deal the page's address asks for (``?seat=1``), checked by ``cavallore_seat``."""
    return {"chosen_seat": args.get("seat")}


def cavallore_seat(match: Match, sheet: Sheet, chosen: Any = None) -> int:
    """Whose deal comes next: the seat chosen, else the player after whoever played the
    last deal (players take turns, in the turn order of the log, a player added to it where
    they were seated)."""
    seat = whole(chosen)
    if isinstance(seat, int) and 0 <= seat < len(match.seats):
        return seat
    order = [s for s in sheet.roster.order or range(len(match.seats)) if s < len(match.seats)]
    if not sheet.rows or sheet.rows[-1].inputs["seat"] not in order:
        return order[0] if order else 0
    return order[(order.index(sheet.rows[-1].inputs["seat"]) + 1) % len(order)]


def cavallore_quick() -> tuple[int, ...]:
    """The quick keys of the cards placed in a lost deal."""
    return QUICK


def _data() -> dict[str, Any]:
    """The deal as posted: cards placed (the first count given: a key tapped comes before
    the field a correction also offers) and whose deal, raw for the rules to check."""
    given = [value for value in request.form.getlist("placed") if value.strip()]
    return {"placed": whole(given[0] if given else ""), "seat": whole(request.form.get("seat"))}


@bp.post("/matches/<match_id>/cavallore/deal")
def deal(match_id: str):
    """Add a deal to the log: the cards placed, 36 for a win."""
    match = get_match(match_id, "cavallore")
    form = HandForm()
    data = _data()
    seat = data["seat"] if isinstance(data["seat"], int) else None
    try:
        check_form(form, match)
        if form.number.data != len(stored_hands(match)) + 1:
            raise Conflict
        save_hand(match, form.number.data, data, expected=form.version.data)
    except (RuleError, Conflict) as error:
        return answer_refusal(match, error, chosen_seat=seat,
                              typed=Typed(form.number.data, {seat: data["placed"]}))
    return after_change(match, saved=form.number.data)  # the next player's turn


@bp.route("/matches/<match_id>/cavallore/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a deal of the log."""
    match, _hand = correcting(match_id, "cavallore", number)
    row = compute_sheet(match).rows[number - 1]
    if request.method == "GET":
        return render_sheet(match, template=EDIT, number=number, row=row,
                            chosen_seat=row.inputs["seat"])
    form = HandForm()
    data = _data()
    try:
        check_form(form, match)
        if form.number.data != number:
            raise Conflict
        save_hand(match, number, data, expected=form.version.data, kind="correct")
    except (RuleError, Conflict) as error:  # shown again as typed
        return answer_refusal(match, error, template=EDIT, number=number, row=row,
                              chosen_seat=data["seat"])
    return after_change(match, step="correct")


# What the shared pages ask of Cavallo Re.

def blank_extras(players: int) -> dict[str, Any]:
    """The odds of a win, printed under the blank sheet."""
    return {"odds": cavallore.WIN_PROBABILITY}


PRINTING = Printing(no_detail, ("", N_("cards placed"), N_("wins so far")),
                    csv_number=N_("Deal"), csv_points=N_("Cards placed"), csv_totals=N_("Wins"),
                    csv_total_row=lambda sheet: [s["placed"] for s in sheet.status.statistics],
                    entries=((N_("Result"), note_word),))

SPEC = GameSpec(cavallore.GAME, bp, WORDS, PRINTING, blank_extras=blank_extras,
                entry_context=entry_context, has_stats=True, template_globals={
                    "cavallore_chart": distribution_chart, "cavallore_number": cavallore_number,
                    "cavallore_seat": cavallore_seat, "cavallore_quick": cavallore_quick,
                    "cavallore_bands": cavallore.band_odds,
                    "cavallore_interval": cavallore.win_interval})
