"""Entering and correcting hands: one module and blueprint per game, sharing these helpers.

Each game's module declares, besides its blueprint ``bp``: ``blank_extras(players)``,
what its blank sheet prints besides the rows; and, optionally, ``BLANK_PORTRAIT_COLUMNS``,
how many players a portrait blank sheet holds; and, when its entry panel reads a choice
from the page's address (whose deal, the way of entering, a hand being entered),
``entry_context(args, match)``, the context the match page passes its entry for those
``args``.

Without JavaScript, a tap that stores nothing (a key of a keypad, a choice) is answered
with a redirect to a page whose address carries the hand being entered (:func:`tap_address`,
``n`` naming the hand), so that reloading it posts nothing.

Every step is checked by the rules engine (through :func:`scorekeeper.scoring.save_hand`)
before it is stored; a form carries the version of the sheet it was made for.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from flask import Blueprint, url_for

from ..forms import whole
from ..models import Match
from ..scoring import Conflict, compute_sheet


def stored_inputs(match: Match, number: int, empty: dict[str, Any]) -> dict[str, Any]:
    """A copy of the inputs of hand ``number`` if it is stored, else ``empty``."""
    if number <= len(match.hands):
        return dict(match.hands[number - 1].data)
    return dict(empty)


def check_form(form: Any, match: Match) -> None:
    """Raise Conflict unless the form is complete and was made for the sheet as it is now."""
    if not form.validate() or form.version.data != match.version:
        raise Conflict


def stored_hand(match: Match, number: int) -> dict[str, Any] | None:
    """The inputs of hand ``number`` when it is stored, else None."""
    if 1 <= number <= len(match.hands):
        return match.hands[number - 1].data
    return None


def entry_context(match: Match, args: Mapping[str, str]) -> dict[str, Any]:
    """What the match page passes to its game's entry panel from its address ``args``."""
    declared = getattr(game_modules()[match.game], "entry_context", None)
    return declared(args, match) if declared else {}


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


def game_modules() -> dict[str, ModuleType]:
    """Every game's entry module, by game key."""
    from . import cavallore, fortyfive, navawhist, quarantotto, scala40

    return {module.bp.name: module
            for module in (navawhist, quarantotto, scala40, fortyfive, cavallore)}


def blueprints() -> list[Blueprint]:
    """The entry blueprints of every game."""
    return [module.bp for module in game_modules().values()]
