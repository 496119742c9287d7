"""The card keypad of Quarantotto and Scala 40: tap the cards left in each player's hand.

The entry form keeps each player's entry as text in ``values-<seat>`` (cards such as
``A K 7``, a sum ``10+15+8`` or a total ``32``); the keys edit that text and nothing is
stored until the deal is saved. Without JavaScript a key submits the game's own form,
which applies the tap with :func:`apply_posted_tap` and redirects to the page again, the
entries in its address; with htmx
a key posts to :func:`cards`, which answers with that player's keypad alone. The value
shown is always the rules engine's (``keypad_points`` of the game), which also marks
points no hand can hold as they are entered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from ..rules import RuleError
from ..rules.cards import RANKS, SEPARATOR, parse_cards
from ..rules.points import SUM, TOTAL
from ..web.forms import whole
from ..web.i18n import rule_message
from ..web.pages import get_match

JOLLY = "Jolly"
STOCK = "stock"  # the closer choice "nobody: the stock ran out", as the entry forms post it
BACK, CLEAR, SHOW = "back", "clear", "show"


@dataclass(frozen=True)
class Keypad:
    """What a game declares when it attaches the keypad: its keys and its rules module
    (``keypad_points`` and ``card_values``)."""

    keys: tuple[str, ...]
    rules: ModuleType
    # What an entry earns as it is entered, besides a refusal (Quarantotto: 0 points
    # though nobody closed): ``warning(text, seat=, nobody_closed=)``, a RuleError or None.
    warning: Callable[..., RuleError | None] | None = None


PADS: dict[str, Keypad] = {}  # by game key, filled by attach()


@dataclass(frozen=True)
class Pad:
    """One player's keypad as it stands: the entry text, its points or why it is refused."""

    seat: int
    text: str
    kind: str
    points: int | None
    error: str | None
    warning: str | None = None


def entry_kind(entry: Any) -> str:
    """How an entry was given: ``"total"``, ``"sum"``, ``"cards"``, or ``""`` when blank.

    >>> entry_kind(32), entry_kind(" 10 + 15"), entry_kind("A K"), entry_kind(None)
    ('total', 'sum', 'cards', '')
    """
    if entry is None or isinstance(entry, str) and not entry.strip():
        return ""
    if isinstance(entry, int) and not isinstance(entry, bool):
        return "total"
    text = str(entry).strip()
    if TOTAL.match(text):
        return "total"
    return "sum" if SUM.match(text) else "cards"


def apply_tap(text: str, key: str) -> str:
    """``text`` after one key: a card is added, ``back`` removes the last card or term.

    Cards are added to a hand of cards; a total or a sum gives way to the card tapped.
    ``clear`` empties the entry and ``show`` leaves it as it is.

    >>> apply_tap("A K", "7"), apply_tap("", "Jolly"), apply_tap("7", "K"), apply_tap("32", "K")
    ('A K 7', 'Jolly', '7 K', 'K')
    >>> apply_tap("kq", "7"), apply_tap("10", "K"), apply_tap("1010", "K")
    ('kq 7', '10 K', 'K')
    >>> apply_tap("A K 7", "back"), apply_tap("10+15+8", "back"), apply_tap("A,K", "back")
    ('A K', '10+15', 'A')
    """
    text = " ".join(text.split())
    if key == CLEAR:
        return ""
    if key == SHOW:
        return text
    if key == BACK:
        if SUM.match(text):
            return text.rsplit("+", 1)[0].strip()
        return " ".join([token for token in SEPARATOR.split(text) if token][:-1])
    if not text:
        return key
    try:
        cards = parse_cards(text)
    except RuleError:
        return key
    if len(cards) > 1 and entry_kind(text) == "total":  # 32 points, never the cards 3 2
        return key
    return f"{text} {key}"


def pad_state(game: str, seat: int, text: Any, names: list[str], *,
              nobody_closed: bool = False) -> Pad:
    """The keypad of ``seat``: the rules' points for ``text``, or the refusal in words, and
    what the rules point out about it (``nobody_closed``: the stock ran out)."""
    text = "" if text is None else str(text).strip()
    pad = PADS[game]
    if JOLLY in pad.keys:  # a game with jokers names them in the viewer's language
        text = cards_said(text)
    try:
        points = pad.rules.keypad_points(text, seat=seat)
    except RuleError as error:
        return Pad(seat, text, entry_kind(text), None, rule_message(error, names))
    warning = pad.warning and pad.warning(text, seat=seat, nobody_closed=nobody_closed)
    return Pad(seat, text, entry_kind(text), points, None,
               rule_message(warning, names) if warning else None)


def posted_texts(players: int, values: Mapping[str, str] | None = None) -> list[str]:
    """Each seat's entry text as posted (``values-<seat>``, or as in ``values``), blank when
    missing."""
    values = request.form if values is None else values
    return [(values.get(f"values-{seat}") or "").strip() for seat in range(players)]


def read_tap(game: str, players: int) -> tuple[int, str] | None:
    """The posted ``tap`` as (seat, key), None when there is none; 400 when it is malformed."""
    raw = request.form.get("tap")
    if raw is None:
        return None
    seat, _sep, key = raw.partition(":")
    number = whole(seat)
    if not isinstance(number, int) or not 0 <= number < players \
            or key not in (*PADS[game].keys, BACK, CLEAR, SHOW):
        abort(400, _("Unknown key."))
    return number, key


def apply_posted_tap(game: str, texts: list[str]) -> bool:
    """Apply the posted tap to ``texts`` in place; True when the form was a tap."""
    tap = read_tap(game, len(texts))
    if tap is None:
        return False
    seat, key = tap
    texts[seat] = apply_tap(texts[seat], key)
    return True


def cards(match_id: str):
    """One player's keypad after a tap (htmx): the cards, their value, nothing stored."""
    match = get_match(match_id, request.blueprint)
    texts = posted_texts(len(match.seats))
    tap = read_tap(match.game, len(texts))
    if tap is None:
        abort(400, _("Unknown key."))
    seat, key = tap
    return render_template("hands/_cardpad.html", match=match, names=match.names, seat=seat,
                           text=apply_tap(texts[seat], key),
                           stock=request.form.get("closer") == STOCK)


JOKER_WORD = re.compile(r"\b(?:jolly|joker)\b", re.IGNORECASE)


def cards_said(text: str) -> str:
    """Cards as typed or tapped, the joker named in the viewer's language ("Joker" in
    English, "Jolly" in Italian); the rules read either word."""
    return JOKER_WORD.sub(_("Joker"), text)


def values_text(game: str) -> str:
    """The card values of ``game`` that differ from face value, as its rules give them."""
    return describe_values(PADS[game].rules.card_values(), _("Joker"))


def describe_values(values: list[tuple[str, int]], joker: str = JOLLY) -> str:
    """(rank, points) pairs as text, leaving out the cards worth their face value; the
    joker is called ``joker``.

    >>> describe_values([("A", 11), ("7", 7), ("J", 10), ("Q", 10), ("*", 25)], "Joker")
    'A 11 · J Q 10 · Joker 25'
    """
    groups: dict[int, list[str]] = {}
    for rank, points in values:
        if not rank.isdecimal() or int(rank) != points:
            groups.setdefault(points, []).append(joker if rank == "*" else rank)
    return " · ".join(f"{' '.join(ranks)} {points}" for points, ranks in groups.items())


def attach(bp: Blueprint, rules: ModuleType, keys: tuple[str, ...] = RANKS,
           warning: Callable[..., RuleError | None] | None = None) -> None:
    """Give a game's blueprint the keypad route (``<game>.cards``) with ``keys``, scored by
    ``rules`` (and ``warning``, see :class:`Keypad`); the game's spec binds the template
    helpers (:data:`TEMPLATE_GLOBALS`, :data:`TEMPLATE_FILTERS`)."""
    PADS[bp.name] = Keypad(keys, rules, warning)
    bp.add_url_rule(f"/matches/<match_id>/{bp.name}/cards", "cards", cards, methods=["POST"])


TEMPLATE_GLOBALS = {"cardpad_state": pad_state, "cardpad_keys": lambda game: PADS[game].keys,
                    "card_values_text": values_text}
TEMPLATE_FILTERS = {"entry_kind": entry_kind, "cards_said": cards_said}
