"""What every game's entry and correction views share: the hand as stored, the form
checked against the sheet, and the address a tap without JavaScript lands on.

Without JavaScript, a tap that stores nothing (a key of a keypad, a choice) is answered
with a redirect to a page whose address carries the hand being entered (:func:`tap_address`,
``n`` naming the hand), so that reloading it posts nothing.

Every step is checked by the rules engine (through :func:`scorekeeper.engine.ledger.save_hand`)
before it is stored; a form carries the version of the sheet it was made for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, url_for

from ..engine.ledger import Conflict
from ..engine.sheets import compute_sheet
from ..models import Match
from .forms import whole
from .pages import get_match


def stored_inputs(match: Match, number: int, empty: dict[str, Any]) -> dict[str, Any]:
    """A copy of the inputs of hand ``number`` if it is stored, else ``empty``."""
    if number <= len(match.hands):
        return dict(match.hands[number - 1].data)
    return dict(empty)


def check_form(form: Any, match: Match) -> None:
    """Raise Conflict unless the form is complete and was made for the sheet as it is now."""
    if not form.validate() or form.version.data != match.version:
        raise Conflict


def correcting(match_id: str, game: str, number: int,
               missing: str | None = None) -> tuple[Match, dict[str, Any]]:
    """The match of ``game`` whose hand ``number`` a correction page is about, and that
    hand's stored inputs; a 404 (saying ``missing``, when given) if it has no such hand."""
    match = get_match(match_id, game)
    if not 1 <= number <= len(match.hands):
        abort(404, missing)
    return match, match.hands[number - 1].data


def tap_address(endpoint: str, hand: int, state: Mapping[str, Any], **values: Any) -> str:
    """The address of a page showing hand ``hand`` being entered as ``state`` holds it
    (blank values left out), for the redirect that answers a tap without JavaScript."""
    kept = {key: value for key, value in state.items() if value not in (None, "", [])}
    return url_for(endpoint, **values, n=hand, **kept)


def addressed(args: Mapping[str, str], match: Match) -> bool:
    """True when the address carries the next hand of ``match`` being entered (``n``): a
    hand saved meanwhile by another phone leaves it out."""
    sheet = compute_sheet(match)
    return sheet.next is not None and whole(args.get("n")) == sheet.next.number
