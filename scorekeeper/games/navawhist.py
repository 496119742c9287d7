"""Navawhist at the table: bids one player at a time, then tricks, and corrections."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import gettext as _

from ..db import db
from ..engine.history import Field, Words
from ..engine.ledger import Conflict, save_hand
from ..engine.printing import Lead, Printing, note_word, seat_input
from ..engine.sheets import compute_sheet, stored_hands
from ..models import Match
from ..rules import N_, Nn_, Row, RuleError, Sheet, navawhist
from ..web.access import needs_edit_right
from ..web.entry import addressed, check_form, correcting, offered, stored_inputs
from ..web.forms import BidForm, HandForm, SeatValuesForm, whole
from ..web.games import GameSpec
from ..web.i18n import rule_message
from ..web.pages import (
    Typed,
    after_change,
    answer_refusal,
    deleted_answer,
    get_match,
    redraw,
    refusal_over_live,
    render_sheet,
    seat_at,
)

bp = Blueprint("navawhist", __name__)
EDIT = "hands/correct.html"
BID = "games/navawhist/_bid.html"
SAVED = "games/navawhist/_saved.html"
TRICKS = "games/navawhist/_tricks.html"

# How the history says a hand.
TRICKS_TAKEN = Nn_("%(name)s %(value)s trick", "%(name)s %(value)s tricks")
WORDS = Words(N_("Hand %(n)s"), {
    "bids": Field("seats", N_("Bids"), N_("%(name)s bid %(value)s")),
    "tricks": Field("seats", N_("Tricks"), TRICKS_TAKEN[0], plural=TRICKS_TAKEN[1]),
    "trump": Field("value", N_("Trump"), N_("trump %(value)s")),
})


def _pending(match: Match, number: int) -> dict[str, Any]:
    """A copy of the inputs of hand ``number`` if it is stored, else an empty hand."""
    return stored_inputs(match, number, {"bids": [None] * len(match.seats), "tricks": None})


def entry_context(args: Mapping[str, str], match: Match) -> dict[str, Any]:
    """Whose bid the keypad asks again, when the page's address says so (``ask``: an
    earlier bid tapped without JavaScript) and that bid can still change."""
    if not addressed(args, match):
        return {}
    seat = whole(args.get("ask"))
    return {"asking": seat} if seat in compute_sheet(match).next.info.changeable \
        else {}


def _in_phase(match: Match, form: HandForm, phase: str) -> Sheet:
    """The sheet, when the form is for the hand being entered and that hand is in
    ``phase`` (its bids, its tricks); Conflict otherwise (another phone got there first)."""
    check_form(form, match)
    sheet = compute_sheet(match)
    if sheet.next is None or form.number.data != sheet.next.number \
            or sheet.next.info.phase != phase:
        raise Conflict
    return sheet


def _lost_bid(match: Match, form: HandForm) -> str | None:
    """What a stale bid tap did not save, and why: the player's bid stored meanwhile, or
    None (a tap asking an earlier bid again, which stores nothing; the hand gone on)."""
    if not isinstance(form, BidForm):
        return None
    seat, value = form.seat.data, whole(form.bid.data)
    if not isinstance(seat, int) or not 0 <= seat < len(match.seats) \
            or not isinstance(value, int):
        return None
    db.session.rollback()
    db.session.refresh(match)
    sheet = compute_sheet(match)
    if sheet.next is None or sheet.next.number != form.number.data:
        return None
    now, player = _pending(match, form.number.data)["bids"][seat], match.names[seat]
    if now == value:
        return _("%(player)s’s bid of %(bid)s was already saved.", player=player, bid=value)
    if now is not None:
        return _("Your bid of %(bid)s for %(player)s was not saved: %(player)s already bid "
                 "%(now)s.", bid=value, player=player, now=now)
    return None


@bp.post("/matches/<match_id>/navawhist/bid")
def bid(match_id: str):
    """Record one player's bid, the next bidder's or a change of an earlier one; a tap on
    an earlier bid (``change``) asks that player's bid again, storing nothing."""
    match = get_match(match_id, "navawhist")
    changing = request.form.get("change")
    form = HandForm() if changing is not None else BidForm()
    try:
        sheet = _in_phase(match, form, "bids")
        info = sheet.next.info
        if changing is not None:
            seat = whole(changing)
            if seat not in info.changeable:
                raise Conflict
            return redraw(match, BID, asking=seat, error=None, error_at="save",
                          address=url_for("matches.show", match_id=match.id,
                                          n=sheet.next.number, ask=seat, _anchor="turn"))
        if form.seat.data != info.bidder and form.seat.data not in info.changeable:
            raise Conflict
        data = _pending(match, form.number.data)
        bids = list(data["bids"])
        bids[form.seat.data] = whole(form.bid.data)
        data["bids"] = bids
        sheet = save_hand(match, form.number.data, data, expected=form.version.data)
    except Conflict as error:
        return refusal_over_live(match, error, lost=_lost_bid(match, form))
    except RuleError as error:
        db.session.rollback()
        db.session.refresh(match)
        return redraw(match, BID, status=422, asking=form.seat.data, error_at="save",
                      error=rule_message(error, match.names))
    return after_change(match, partial=BID, asking=None, error=None, error_at="save")


@bp.post("/matches/<match_id>/navawhist/tricks")
def tricks(match_id: str):
    """Record every player's tricks (or, with action=preview, show the points they give)."""
    match = get_match(match_id, "navawhist")
    form = SeatValuesForm()
    preview = request.form.get("action") == "preview"
    chosen = form.seat_values(len(match.seats))
    try:
        sheet = _in_phase(match, form, "tricks")
        data = _pending(match, form.number.data)
        chosen = data["tricks"] = _completed(sheet, chosen)
        data["trump"] = form.trump.data or None
        if preview:
            return _preview(match, sheet, form, data)
        sheet = save_hand(match, form.number.data, data, expected=form.version.data)
    except Conflict as error:  # whether it saved or previewed: the whole sheet is new
        return refusal_over_live(match, error, form=form, chosen=chosen,
                                 typed=Typed(form.number.data, dict(enumerate(chosen))))
    except RuleError as error:
        return answer_refusal(match, error, at=seat_at(error), form=form, chosen=chosen)
    # The match going on, the page keeps its sheet but for what the save changed; a match
    # that ended is shown whole, with its ranking.
    return after_change(match, saved=form.number.data, turn=None if sheet.finished else SAVED)


def _completed(sheet: Sheet, chosen: list[Any]) -> list[Any]:
    """The tricks posted, completed among the seats dealt in (the last one left takes the
    tricks left); a seat not dealt in keeps what was posted for it (None: nothing)."""
    dealt = list(sheet.next.seats)
    filled = navawhist.complete_tricks(sheet.next.info.cards, [chosen[s] for s in dealt])
    completed = list(chosen)
    for seat, value in zip(dealt, filled, strict=True):
        completed[seat] = value
    return completed


def _preview(match: Match, sheet: Sheet, form: SeatValuesForm, data: dict[str, Any]):
    """The tricks panel with what is left to assign and, once complete, each player's points."""
    hands = [*stored_hands(match)[: form.number.data - 1], data]
    left = navawhist.tricks_left(sheet.next.info.cards, data["tricks"])
    row, error = None, None
    if left == 0:
        try:
            row = compute_sheet(match, hands).rows[form.number.data - 1]
        except RuleError as exc:
            error = exc
    return render_template(TRICKS, match=match, sheet=sheet,
                           names=match.names, form=form, chosen=data["tricks"], left=left, row=row,
                           error=error and rule_message(error, match.names)), 200


@bp.route("/matches/<match_id>/navawhist/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a hand already played, with the entry's keys in bid order; every later
    total follows."""
    match, hand = correcting(match_id, "navawhist", number, _("There is no such hand."))
    if hand.get("tricks") is None:  # its tricks undone on another phone, if posted
        if request.method == "POST":
            abort(deleted_answer(match, number))
        abort(404, _("This hand is still being entered."))
    form = SeatValuesForm(data={"version": match.version, "number": number,
                                "trump": hand.get("trump") or ""})
    # One entry per seat of the table at that hand; the form offers only the seats dealt in
    # (the others stay None).
    players = len(hand["bids"])
    dealt = [s for s in range(players) if hand["bids"][s] is not None]
    values = {"bids": hand["bids"], "values": hand["tricks"]}
    if request.method == "POST":
        values = {key: [value if s in dealt else None
                        for s, value in enumerate(form.seat_values(players, name))]
                  for key, name in (("bids", "bids"), ("values", "values"))}
        try:
            check_form(form, match)
            if form.number.data != number:
                raise Conflict
            data = {"bids": values["bids"], "tricks": values["values"],
                    "trump": form.trump.data or None}
            save_hand(match, number, data, expected=form.version.data, kind="correct")
        except (RuleError, Conflict) as error:
            return answer_refusal(match, error, at=seat_at(error), form=form, template=EDIT,
                                  values=values, number=number, offered=offered(match, number))
        return after_change(match, step="correct")
    return render_sheet(match, form=form, template=EDIT, values=values, number=number,
                        offered=offered(match, number))


# What the shared pages ask of Navawhist.

def _given(row: Row, key: str, seat: int) -> int | None:
    """A seat's bid or tricks in a played row; None for a seat not dealt in that hand (or
    not yet at the table)."""
    values = row.inputs[key]
    return values[seat] if seat < len(values) else None


def _bids_tricks(sheet: Sheet, row: Row, column: int) -> str:
    """A printed cell's detail: the bid and the tricks taken; nothing for a seat not dealt
    in."""
    bid = _given(row, "bids", column)
    return "" if bid is None else f"{bid}/{_given(row, 'tricks', column)}"


def _cards(sheet: Sheet, number: int, row: Row | None) -> str:
    """A printed row's cards dealt, and the trump when one was noted."""
    trump = (row.inputs.get("trump") or "") if row else ""
    return f"{sheet.status.schedule[number - 1]} {trump}".strip()


def _hands_left(sheet: Sheet) -> list[tuple[int, int | None]]:
    """The hands still to play, with their dealers: the fixed table of hands."""
    dealers = sheet.status.dealers
    return [(n, dealers[n - 1] if n <= len(dealers) else None)
            for n in range(len(sheet.rows) + 1, len(sheet.status.schedule) + 1)]


BIDS_TRICKS = ((N_("Bid"), seat_input("bids")), (N_("Tricks"), seat_input("tricks")))
PRINTING = Printing(_bids_tricks, (N_("bid/tricks"), N_("points"), N_("running total")),
                    lead=(Lead(N_("Cards"), "cards", _cards, before_dealer=True),),
                    blank_rows=_hands_left, csv_inputs=BIDS_TRICKS,
                    entries=(*BIDS_TRICKS, (N_("Result"), note_word)))

# A player's column of the blank sheet holds bid, tricks and total: 4 fit a portrait page.
SPEC = GameSpec(navawhist.GAME, bp, WORDS, PRINTING, blank_portrait_columns=4,
                entry_context=entry_context)
