"""Tally: each hand gives every player some points; the first to reach the target wins.

The rules (pure Python, as in ``scorekeeper/rules/``) and the game's module (as in
``scorekeeper/games/``) in one file, with its templates beside it; nothing of it lives in
the package. A match of it is started, played, corrected, printed, exported and backed up
by ``tests/test_sixth_game.py`` through the web.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Blueprint, request

from scorekeeper.engine.history import Field, Words
from scorekeeper.engine.ledger import Conflict, save_hand
from scorekeeper.engine.printing import Printing, no_detail
from scorekeeper.rules import (
    N_,
    Details,
    Figure,
    Game,
    Next,
    Option,
    Row,
    RuleError,
    Sheet,
    Status,
    places,
)
from scorekeeper.rules.core import check_count, check_length, running_totals
from scorekeeper.web.access import needs_edit_right
from scorekeeper.web.entry import check_form, correcting
from scorekeeper.web.forms import HandForm, whole
from scorekeeper.web.games import GameSpec
from scorekeeper.web.pages import after_change, answer_refusal, get_match, render_sheet, seat_at

MOST = 500  # the most points one hand may give a player


# --- the rules ------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchStatus(Status):
    """The target and the hands played."""

    target: int
    played: int


@dataclass(frozen=True)
class NextHand(Details):
    """The most points a hand may give."""

    most: int


def build_sheet(players: int, hands: Sequence[dict[str, Any]], *, first_dealer: int = 0,
                target: int = 100) -> Sheet:
    """The sheet of ``hands`` (each ``{"points": [...]}``), or RuleError naming the player."""
    rows, points = [], []
    for number, hand in enumerate(hands, start=1):
        given = hand.get("points") if isinstance(hand, dict) else None
        if not isinstance(given, list):
            raise RuleError(N_("Give each player's points."))
        check_length(given, players, "score")
        scored = tuple(check_count(value, 0, MOST, seat=seat, what="points")
                       for seat, value in enumerate(given))
        points.append(scored)
        rows.append((number, (first_dealer + number - 1) % players, {"points": list(scored)}))
        if number < len(hands) and max(map(sum, zip(*points, strict=True))) >= target:
            raise RuleError(N_("The match was already won: no hand comes after the last."))
    totals_after = running_totals(points, players)
    totals = totals_after[-1] if totals_after else (0,) * players
    finished = bool(hands) and max(totals) >= target
    ranks = places(totals)
    return Sheet(
        game="tally", players=players, options={"target": target},
        columns=tuple((seat,) for seat in range(players)),
        rows=tuple(Row(number, dealer, inputs, scored, after)
                   for (number, dealer, inputs), scored, after
                   in zip(rows, points, totals_after, strict=True)),
        totals=totals, places=ranks, finished=finished,
        winners=tuple(s for s in range(players) if ranks[s] == 1) if finished else (),
        next=None if finished else Next(len(hands) + 1, (first_dealer + len(hands)) % players,
                                        tuple(range(players)), NextHand(MOST)),
        status=MatchStatus(target, len(hands)),
    )


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per seat: hands played and the hands it scored the most points of the hand in."""
    out = tuple({"hands": 0, "best": 0} for _seat in range(sheet.players))
    for row in sheet.rows:
        top = max(row.points)
        for seat, points in enumerate(row.points):
            out[seat]["hands"] += 1
            out[seat]["best"] += points == top
    return out


GAME = Game(
    key="tally", name="Tally", min_players=2, max_players=6, clockwise=True,
    options=(Option("target", N_("Target"), "int", 100, minimum=10, maximum=10_000),),
    build_sheet=build_sheet, counts=counts,
    figures=(Figure("best", N_("Best hand of the table"), of="best", per="hands",
                    percent=True),),
)


# --- the game at the table ------------------------------------------------------------------

bp = Blueprint("tally", __name__, template_folder=str(Path(__file__).parent / "templates"))
EDIT = "hands/correct.html"


def _posted(players: int) -> dict[str, Any]:
    """The hand as posted: each player's points, raw for the rules to check."""
    return {"points": [whole(request.form.get(f"values-{seat}")) for seat in range(players)]}


@bp.post("/matches/<match_id>/tally/hand")
def hand(match_id: str):
    """Record the next hand."""
    match = get_match(match_id, "tally")
    form = HandForm()
    try:
        check_form(form, match)
        if form.number.data != len(match.hands) + 1:
            raise Conflict
        save_hand(match, form.number.data, _posted(len(match.seats)), expected=form.version.data)
    except (RuleError, Conflict) as error:
        return answer_refusal(match, error, at=seat_at(error))
    return after_change(match, saved=form.number.data)


@bp.route("/matches/<match_id>/tally/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a hand; every later total follows."""
    match, _hand = correcting(match_id, "tally", number)
    if request.method == "GET":
        return render_sheet(match, template=EDIT, number=number)
    form = HandForm()
    try:
        check_form(form, match)
        if form.number.data != number:
            raise Conflict
        save_hand(match, number, _posted(len(match.seats)), expected=form.version.data,
                  kind="correct")
    except (RuleError, Conflict) as error:
        return answer_refusal(match, error, template=EDIT, number=number, at=seat_at(error))
    return after_change(match, step="correct")


WORDS = Words(N_("Hand %(n)s"), {"points": Field("seats", N_("Points"),
                                                 N_("%(name)s %(value)s points"))})
PRINTING = Printing(no_detail, ("", N_("points"), N_("running total")))
SPEC = GameSpec(GAME, bp, WORDS, PRINTING, blank_extras=lambda players: {"most": MOST})
