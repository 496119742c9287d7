"""Quarantotto at the table: who closed (or the stock ran out), every hand left, corrections.

A game is entered in one form: the closer, then each other player's cards on the card
keypad, a sum or a total. Keypad taps and choices re-show the form without storing
anything (without JavaScript, at an address that carries the draft); "Save the game"
stores it once the rules accept it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, request
from flask_babel import gettext as _

from ..engine.history import Field, Words
from ..engine.printing import Printing, note_word, open_rows, seat_input
from ..models import Match
from ..rules import N_, RuleError, Sheet, quarantotto
from ..web.access import needs_edit_right
from ..web.entry import addressed, correcting, tap_address
from ..web.forms import whole
from ..web.games import GameSpec
from ..web.pages import answer_refusal, get_match, redraw
from . import cardpad, rummy

bp = Blueprint("quarantotto", __name__)
cardpad.attach(bp, quarantotto, warning=quarantotto.entry_warning)

# How the history says a hand.
WORDS = Words(N_("Game %(n)s"), {
    "points": Field("seats", N_("Points in hand"), N_("%(name)s %(value)s in hand")),
    "closer": Field("seat", N_("Closed by"), N_("closed by %(name)s"),
                    N_("the stock ran out")),
})

STOCK = cardpad.STOCK
EDIT_TEMPLATE = "hands/correct.html"
CORRECT_PANEL = "hands/_correct_rummy.html"
SAVED = "games/quarantotto/_saved.html"  # the answer to a save while the match goes on


@dataclass
class Draft:
    """A game as the form holds it: the closer (or the stock ran out) and each hand's text."""

    texts: list[str]
    closer: Any = None
    stock: bool = False
    tapped: bool = field(default=False, compare=False)

    @classmethod
    def posted(cls, players: int) -> Draft:
        """The draft the form posted, with a keypad tap applied when there was one."""
        draft = cls.read(request.form, players)
        draft.tapped = cardpad.apply_posted_tap("quarantotto", draft.texts)
        return draft

    @classmethod
    def read(cls, values: Mapping[str, str], players: int) -> Draft:
        """The draft as ``values`` (a posted form, or a page's address) hold it."""
        raw = (values.get("closer") or "").strip()
        return cls(cardpad.posted_texts(players, values), None if raw == STOCK else whole(raw),
                   raw == STOCK)

    def state(self) -> dict[str, Any]:
        """The draft as the form's fields, for a page's address."""
        return {"closer": STOCK if self.stock else self.closer,
                **{f"values-{seat}": text for seat, text in enumerate(self.texts)}}

    @classmethod
    def stored(cls, data: dict[str, Any], players: int) -> Draft:
        """The draft of a stored game, to correct it."""
        points = list(data.get("points") or [None] * players)
        closer = data.get("closer")
        return cls(["" if p is None else str(p) for p in points], closer, closer is None)

    def data(self) -> dict[str, Any]:
        """The game to store: the closer (None when the stock ran out) and the raw entries."""
        if self.closer is None and not self.stock:
            raise RuleError(N_("Tap who closed, or that nobody did: the stock ran out."))
        return {"closer": self.closer, "points": [whole(t) for t in self.texts]}


def entry_context(args: Mapping[str, str], match: Match) -> dict[str, Any]:
    """The game being entered, when the page's address carries it (a tap without
    JavaScript)."""
    return {"draft": Draft.read(args, len(match.seats))} if addressed(args, match) else {}


def _saving() -> bool:
    """True when the form asks to store the game, not to be shown again after a choice."""
    return request.form.get("action", "refresh") == "save"


def _game_data(draft: Draft, _sheet: Any) -> dict[str, Any]:
    """The game to store: the same whatever the sheet before it."""
    return draft.data()


@bp.post("/matches/<match_id>/quarantotto/game")
def enter(match_id: str):
    """Record the next game, or show the form again after a tap or a choice."""
    return rummy.enter(get_match(match_id, "quarantotto"), Draft, saving=_saving,
                       data=_game_data, saved=SAVED)


def _edit_page(match: Match, number: int, draft: Draft, before: Sheet, *,
               error: Any = None):
    context = {"template": EDIT_TEMPLATE, "number": number, "draft": draft, "offered": before}
    if error is not None:
        return answer_refusal(match, error, **context)
    return redraw(match, CORRECT_PANEL, **context, address=tap_address(
        "quarantotto.edit", number, draft.state(), match_id=match.id, number=number))


@bp.route("/matches/<match_id>/quarantotto/<int:number>/edit", methods=["GET", "POST"])
@needs_edit_right
def edit(match_id: str, number: int):
    """Correct a game already played; every later total follows."""
    match, hand = correcting(match_id, "quarantotto", number, _("There is no such game."))
    return rummy.correct(match, number, hand, Draft, page=_edit_page, saving=_saving,
                         data=_game_data)


# What the shared pages ask of Quarantotto.

def blank_extras(players: int) -> dict[str, Any]:
    """The card values, printed under the blank sheet."""
    return {"values": quarantotto.card_values()}


PRINTING = Printing(
    rummy.printed_cell,
    (N_("points in hand (✓ closed; ∅ the stock ran out)"), N_("score"), N_("running total")),
    event_marks={quarantotto.STOCK_RAN_OUT: "∅"},
    blank_rows=lambda sheet: open_rows(sheet, (sheet.status.games or 0) - len(sheet.rows)),
    entries=((N_("Points in hand"), seat_input("hand_points")), (N_("Closing"), note_word)))

SPEC = GameSpec(quarantotto.GAME, bp, WORDS, PRINTING, blank_extras=blank_extras,
                entry_context=entry_context, template_globals=cardpad.TEMPLATE_GLOBALS,
                template_filters=cardpad.TEMPLATE_FILTERS)
