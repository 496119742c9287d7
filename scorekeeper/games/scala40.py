"""Scala 40 at the table: re-entries, who closed (in hand or not), every hand left, corrections.

A deal is entered in one form: first any re-entry the sheet offers, then the closer and
whether they closed in hand, then for every other player still in "never opened" or their
cards on the card keypad, a sum or a total. A stalemate is recorded with one button.
Keypad taps and choices re-show the form without storing anything (without JavaScript, at
an address that carries the draft).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, request
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..engine.history import Field, Words
from ..engine.printing import Printing, note_word, seat_input
from ..models import Match
from ..rules import N_, Row, Sheet, scala40
from ..rules.cards import RANKS
from ..web.access import needs_edit_right
from ..web.entry import addressed, correcting, tap_address
from ..web.forms import whole
from ..web.games import GameSpec
from ..web.pages import answer_refusal, get_match, redraw
from . import cardpad, rummy

bp = Blueprint("scala40", __name__)
cardpad.attach(bp, scala40, (*RANKS, cardpad.JOLLY))

# How the history says a hand.
WORDS = Words(N_("Deal %(n)s"), {
    "points": Field("seats", N_("Cards left"), N_("%(name)s %(value)s in hand")),
    "closer": Field("seat", N_("Closed by"), N_("closed by %(name)s")),
    "never_opened": Field("players", N_("Never opened"), N_("%(name)s never opened")),
    "closed_in_hand": Field("flag", N_("Closed in hand"), N_("closed in hand")),
    "reentries": Field("players", N_("Re-entries"), N_("%(name)s re-entered")),
    "annulled": Field("flag", N_("Annulled"), N_("annulled (stalemate)")),
})

EDIT_TEMPLATE = "hands/correct.html"
CORRECT_PANEL = "hands/_correct_rummy.html"
FLAGS = ("1", "y", "on", "true", "yes")


@dataclass
class Draft:
    """A deal as the form holds it, before it is stored."""

    texts: list[str]
    closer: Any = None
    closed_in_hand: bool = False
    never_opened: list[Any] = field(default_factory=list)
    reentries: list[Any] = field(default_factory=list)
    tapped: bool = field(default=False, compare=False)

    @classmethod
    def posted(cls, players: int) -> Draft:
        """The draft the form posted, with a keypad tap applied when there was one."""
        draft = cls.read(request.form, players)
        draft.tapped = cardpad.apply_posted_tap("scala40", draft.texts)
        return draft

    @classmethod
    def read(cls, values: MultiDict[str, str], players: int) -> Draft:
        """The draft as ``values`` (a posted form, or a page's address) hold it."""
        return cls(cardpad.posted_texts(players, values), whole(values.get("closer")),
                   _in_hand(values), [whole(v) for v in values.getlist("never")],
                   [whole(v) for v in values.getlist("reentries")])

    def state(self) -> dict[str, Any]:
        """The draft as the form's fields, for a page's address."""
        in_hand = "y" if self.closed_in_hand is True else self.closed_in_hand or None
        return {"closer": self.closer, "closed_in_hand": in_hand, "never": self.never_opened,
                "reentries": self.reentries,
                **{f"values-{seat}": text for seat, text in enumerate(self.texts)}}

    @classmethod
    def stored(cls, data: dict[str, Any], players: int) -> Draft:
        """The draft of a stored deal, to correct it."""
        points = list(data.get("points") or [None] * players)
        return cls(["" if p is None else str(p) for p in points], data.get("closer"),
                   bool(data.get("closed_in_hand")), list(data.get("never_opened") or ()),
                   list(data.get("reentries") or ()))

    def data(self, columns: Sequence[Sequence[int]]) -> dict[str, Any]:
        """The scored deal to store; the cards of never-opened players and of the closer's
        partner are left out, since they pay the flat penalty or nothing whatever they hold."""
        skip = scala40.uncounted(columns, self.closer, self.never_opened)
        points = [None if seat in skip else whole(text)
                  for seat, text in enumerate(self.texts)]
        return {"closer": self.closer, "points": points, "never_opened": self.never_opened,
                "closed_in_hand": self.closed_in_hand, "reentries": self.reentries}

    def annulled(self) -> dict[str, Any]:
        """The deal annulled by stalemate, with the re-entries made before it."""
        return {"annulled": True, **({"reentries": self.reentries} if self.reentries else {})}


def _in_hand(values: Mapping[str, str]) -> Any:
    """The closed-in-hand box: ticked or not; a seat number is left for the rules to check."""
    raw = (values.get("closed_in_hand") or "").strip()
    return raw.lower() in FLAGS or whole(raw) if raw else False


def entry_context(args: MultiDict[str, str], match: Match) -> dict[str, Any]:
    """The deal being entered, when the page's address carries it (a tap without
    JavaScript)."""
    return {"draft": Draft.read(args, len(match.seats))} if addressed(args, match) else {}


def _action() -> str:
    """What the form asks: ``save``, ``annul``, or (by default) to be shown again."""
    return request.form.get("action", "refresh")


def _saving() -> bool:
    """True when the form asks to store the deal, scored or annulled."""
    return _action() in ("save", "annul")


def _deal_data(draft: Draft, sheet: Sheet) -> dict[str, Any]:
    """The deal to store: annulled (a stalemate) or scored for the sheet's columns."""
    return draft.annulled() if _action() == "annul" else draft.data(sheet.columns)


@bp.post("/matches/<match_id>/scala40/deal")
def enter(match_id: str):
    """Record the next deal (scored or annulled), or show the form again after a tap."""
    return rummy.enter(get_match(match_id, "scala40"), Draft, saving=_saving, data=_deal_data)


def _edit_page(match: Match, number: int, draft: Draft, before: Sheet, *, error: Any = None):
    context = {"template": EDIT_TEMPLATE, "number": number, "draft": draft,
               "offered": before, "next_hand": before.next, "annul": True}
    if error is not None:
        return answer_refusal(match, error, **context)
    return redraw(match, CORRECT_PANEL, **context, address=tap_address(
        "scala40.edit", number, draft.state(), match_id=match.id, number=number))


@bp.route("/matches/<match_id>/scala40/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a deal already played; every later total, elimination and re-entry follows."""
    match, hand = correcting(match_id, "scala40", number, _("There is no such deal."))
    return rummy.correct(match, number, hand, Draft, page=_edit_page, saving=_saving,
                         data=_deal_data)


# What the shared pages ask of Scala 40.

def blank_extras(players: int) -> dict[str, Any]:
    """The card values and the never-opened penalty, printed under the blank sheet."""
    return {"values": scala40.card_values(), "never_opened": scala40.NEVER_OPENED}


def _printed_cell(sheet: Sheet, row: Row, column: int) -> str:
    """A printed cell's detail: how the player closed, a re-entry before it."""
    back = {e["seat"]: e["total"] for e in sheet.status.events
            if e["deal"] == row.number and e["event"] == "reentry"}
    return rummy.printed_cell(sheet, row, column, back)


PRINTING = Printing(_printed_cell, (N_("✓ closed, ✓✓ closed in hand, ✗ never opened, ↩ re-entry "
                                        "(×2: penalties doubled)"),
                                     N_("penalty"), N_("running total")),
                    event_marks={scala40.DOUBLED: "×2"},
                    entries=((N_("Penalty"), seat_input("penalties")), (N_("Closing"), note_word)))

SPEC = GameSpec(scala40.GAME, bp, WORDS, PRINTING, blank_extras=blank_extras,
                entry_context=entry_context, template_filters=cardpad.TEMPLATE_FILTERS,
                template_globals={**cardpad.TEMPLATE_GLOBALS,
                                  "lone_ace_points": lambda: scala40.hand_points("A"),
                                  "scala40_deal_players": scala40.deal_players})
