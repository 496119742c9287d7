"""The entry and correction flow Quarantotto and Scala 40 share: a draft of the hand (who
closed, each player's cards on the keypad) shown again after every tap or choice, without
JavaScript at an address that carries it, and stored once the rules accept it.

Both print a cell the same way (:func:`printed_cell`).

Each game gives its ``Draft`` (``posted``, ``read``, ``stored``, ``state``, ``tapped``), what
its form asks to store (``saving()``: True for a save, False for a tap or a choice) and the
data to store for a draft (``data(draft, sheet)``, the sheet as it is before the change).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import request
from flask_babel import gettext as _

from ..engine.ledger import Conflict, save_hand
from ..engine.sheets import compute_sheet
from ..models import Match
from ..rules import Note, Row, RuleError, Sheet
from ..rules.roster import Presence
from ..web.entry import check_form, offered, tap_address
from ..web.forms import HandForm, whole
from ..web.pages import Typed, after_change, answer_refusal, redraw, seat_at, still_next

ENTRY_PANEL = "hands/_entry.html"

Data = Callable[[Any, Sheet], dict[str, Any]]


def enter(match: Match, draft_class: Any, *, saving: Callable[[], bool], data: Data,
          saved: str | None = None):
    """Record the next hand, or show the entry again after a tap or a choice. ``saved``: the
    template of the answer to a save (htmx) while the match goes on, a hand saved before it:
    the turn and what the save changed, out of band (None: the whole live sheet)."""
    form = HandForm()
    draft = draft_class.posted(len(match.seats))
    try:
        check_form(form, match)
        sheet = compute_sheet(match)
        if sheet.next is None or form.number.data != sheet.next.number:
            raise Conflict
        if draft.tapped or not saving():
            return redraw(match, ENTRY_PANEL, draft=draft, address=tap_address(
                "matches.show", form.number.data, draft.state(), match_id=match.id))
        sheet = save_hand(match, form.number.data, data(draft, sheet),
                          expected=form.version.data)
    except Conflict as error:
        return answer_refusal(match, error, draft=draft if still_next(match, form) else None,
                              typed=Typed(form.number.data, dict(enumerate(draft.texts))))
    except RuleError as error:
        return answer_refusal(match, error, draft=draft, at=seat_at(error, "closer"))
    going_on = not sheet.finished and form.number.data > 1
    return after_change(match, saved=form.number.data, turn=saved if going_on else None)


def correct(match: Match, number: int, hand: dict[str, Any], draft_class: Any, *,
            page: Callable[..., Any], saving: Callable[[], bool], data: Data):
    """Correct hand ``number`` (stored as ``hand``): shown as stored, or as the address
    carries it after a tap; shown again after a tap; stored once the rules accept it. A
    refusal, or another phone's change first, shows it again as typed.
    ``page(match, number, draft, before, error=...)`` draws the correction page, ``before``
    the sheet as it stood before the hand (``web.entry.offered``): the form offers the seats dealt
    in then and keeps the others None."""
    before = offered(match, number)
    players = seats_of(before)
    if request.method == "GET":
        shown = whole(request.args.get("n")) == number
        return page(match, number, draft_class.read(request.args, players) if shown
                    else draft_class.stored(hand, players), before)
    draft = draft_class.posted(players)
    form = HandForm(data={"number": number})
    try:
        check_form(form, match)
        if draft.tapped or not saving():
            return page(match, number, draft, before)
        save_hand(match, number, data(draft, before), expected=form.version.data,
                  kind="correct")
    except (RuleError, Conflict) as error:
        return page(match, number, draft, before, error=error)
    return after_change(match, step="correct")


def seats_of(sheet: Sheet) -> int:
    """How many seats the table of ``sheet`` has, a departed seat included: a hand's entries
    hold one per seat (None for a seat not dealt in)."""
    return len(sheet.roster.order) or sheet.players


# Short marks keep a column narrow on paper; the legend under the table explains them.
MARKS = {Note.CLOSED: "✓", Note.CLOSED_IN_HAND: "✓✓", Note.NEVER_OPENED: "✗"}


def printed_cell(sheet: Sheet, row: Row, column: int,
                 back: Mapping[int, int] | None = None) -> str:
    """A printed cell's detail: the points left in hand (Quarantotto) or how the player
    closed, with a re-entry before it (``back``: the total each seat re-entered with) and
    "out" after it; "out" for a seat that sat the hand out (or was out of a Scala 40
    match), nothing before a join or after a leave (decided case 29)."""
    if row.annulled:
        return ""
    back = back or {}
    words = []
    for seat in sheet.columns[column]:
        was = row.presence[seat] if seat < len(row.presence) else Presence.IN
        if was is not Presence.IN:
            words.append(_(was.label) if was.label else "")
            continue
        note = row.notes[seat] if seat < len(row.notes) else ""
        points = row.inputs.get("hand_points") or ()
        shown = points[seat] if seat < len(points) else None  # a seat not yet at the table
        word = MARKS.get(note) or ("" if shown is None else str(shown))
        if seat in back:
            word = f"↩{back[seat]} {word}".strip()
        if note == Note.OUT:
            word = f"{word} {_(note.label)}".strip()
        words.append(word)
    return " + ".join(w for w in words if w)
