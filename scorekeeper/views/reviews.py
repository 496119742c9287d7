"""Results the other side accepts (docs/operating.md): a hand of a tournament's match
accepted or rejected by another player at its table, on another phone or on the phone that
saved it, handed over after naming who accepts. A verdict is for the hand as a given change
saved it: a verdict on a hand corrected since is refused, nothing stored."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from flask_babel import gettext as _

from ..engine.ledger import review_hand
from ..models import NOTE_LENGTH, HandReview, Match
from ..web.access import current_device
from ..web.pages import VERSION_HEADER, get_match, is_htmx, render_sheet, said_with
from ..web.reviews import ACCEPTED, REJECTED, keeper_name, pending, said
from ..web.seating import tournament_table

bp = Blueprint("reviews", __name__)


@bp.post("/matches/<match_id>/hands/<int(max=9999):number>/review")
def review(match_id: str, number: int):
    """Accept or reject hand ``number`` as the change the form names saved it."""
    match = get_match(match_id)
    seated = tournament_table(match)
    if seated is None or not seated.accept:
        return _answer(match, _("This match’s hands are not accepted one by one."),
                       status=422)
    hand = next((p for p in pending(match) if p.number == number), None)
    verdict = {"accept": ACCEPTED, "reject": REJECTED}.get(request.form.get("verdict", ""))
    name = request.form.get("name", "").strip() or None
    note = request.form.get("note", "").strip() or None
    device = current_device()
    here = hand is not None and (hand.device_id is None or device is not None
                                 and device.id == hand.device_id)
    if hand is None or str(hand.change_id) != request.form.get("change"):
        return _answer(match, _(
            "Hand %(n)s changed meanwhile (corrected, or accepted on another phone): nothing "
            "was stored; here it is as it stands now.", n=number), status=409)
    error = None
    if verdict is None:
        error = _("Choose Accept or Reject.")
    elif name is not None and name not in match.names:
        error = _("%(name)s does not play this match: choose a player of hand %(n)s.",
                  name=name[:30], n=number)
    elif verdict == ACCEPTED and name is not None and name == keeper_name(match, hand):
        error = _("%(name)s saved hand %(n)s on their phone: another player accepts it.",
                  name=name, n=number)
    elif here and name is None:
        error = _("Say which player accepts or rejects hand %(n)s: this phone saved it.",
                  n=number)
    elif note is not None and len(note) > NOTE_LENGTH:
        error = _("%(name)s’s note is too long: at most %(max)s characters.", name=name,
                  max=NOTE_LENGTH) if name else _("The note is too long: at most %(max)s "
                                                  "characters.", max=NOTE_LENGTH)
    if error is not None:
        return _answer(match, error, status=422)
    review_hand(match, HandReview(
        match_id=match.id, number=number, change_id=hand.change_id, verdict=verdict,
        name=name, note=note if verdict == REJECTED else None,
        device_id=device.id if device else None))
    return _answer(match, said(number, verdict, name, note))


def _answer(match: Match, words: str, *, status: int = 200):
    """The sheet with ``words``: htmx gets the live sheet, saying them in the live region
    (a refusal as the error, nothing stored); a plain post the page again (a refusal) or a
    redirect to it."""
    if status != 200:
        answer = render_sheet(match, status=status, error=words)
        return said_with(answer, match, words) if is_htmx() else answer
    if not is_htmx():
        return redirect(url_for("matches.show", match_id=match.id, _anchor="reviews"), 303)
    response = said_with(render_sheet(match, notice=words), match, words)
    response.headers[VERSION_HEADER] = str(match.version)
    return response
