"""One player's points as typed or tapped: a total, a sum, or the cards left in hand.

Quarantotto and Scala 40 share this reading so that the web keypad and the sheet
turn an entry into points with the same function (each game brings its card values).
The forms of an entry: docs/rules.md#points-as-a-total-a-sum-or-cards.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from .cards import AMBIGUOUS, Card, parse_cards
from .core import N_, RuleError

Cards = str | Iterable[Card | str]
# Bounded so that int() never meets a number too long to read; ASCII digits only.
TOTAL = re.compile(r"^-?[0-9]{1,9}$")
SUM = re.compile(r"^[0-9]{1,9}(?:\s*\+\s*[0-9]{1,9}){1,40}$")
# Digits alone are a total, never cards run together (docs/rules.md#cards-typed-or-tapped).
DIGITS = re.compile(r"^-?[0-9]+$")


def rule_error(seat: int | None, with_seat: str, without_seat: str, **params: Any) -> RuleError:
    """The RuleError naming ``seat`` when there is one, the seatless message otherwise.

    >>> str(rule_error(1, N_("%(player)s: no."), N_("No.")))
    'seat 1: no.'
    """
    if seat is None:
        return RuleError(without_seat, **params)
    return RuleError(with_seat, seat=seat, **params)


def read_cards(cards: Cards, *, seat: int | None = None) -> list[Card]:
    """The cards of a hand, or RuleError naming the seat and the token refused.

    >>> [str(c) for c in read_cards("A k 7h kq")]
    ['A', 'K', '7♥', 'K', 'Q']
    >>> read_cards("A 11", seat=2)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 2: unknown card '11'.
    >>> read_cards("AKD", seat=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 1: 'AKD' reads as different cards: ...
    """
    try:
        return parse_cards(cards)
    except RuleError as err:
        token = err.params.get("token")
        if err.template == AMBIGUOUS:
            raise rule_error(seat, N_("%(player)s: %(token)r reads as different cards: put a "
                                      "space between them."), AMBIGUOUS, token=token) from None
        raise rule_error(seat, N_("%(player)s: unknown card %(token)r."),
                         N_("Unknown card %(token)r."), token=token) from None


def entry_points(entry: Any, hand_points: Callable[..., int], *,
                 seat: int | None = None) -> int | None:
    """The points of one entry, with ``hand_points(cards, seat=...)`` giving card values.

    An entry is a whole number (a total, given as an int or as text such as ``"23"``),
    a sum of whole numbers (``"10+15+8"``), or the cards left in hand as text
    (``"A K 7"``) or as a list; ``None`` or blank text means nothing was entered and
    gives ``None``. Negative totals pass through: each game refuses them its own way.

    >>> count = lambda cards, seat=None: len(read_cards(cards, seat=seat))
    >>> entry_points(23, count), entry_points("10 + 15+8", count), entry_points("A K 7", count)
    (23, 33, 3)
    >>> entry_points(" ", count) is None
    True
    >>> entry_points("1" * 12, count, seat=1)  # digits are a total, never cards
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 1: '111111111111' is neither points nor cards.
    """
    if entry is None:
        return None
    if isinstance(entry, bool):
        raise rule_error(seat, N_("%(player)s: %(entry)r is neither points nor cards."),
                         N_("%(entry)r is neither points nor cards."), entry=entry)
    if isinstance(entry, int):
        return entry
    if isinstance(entry, float):
        if entry.is_integer():
            return int(entry)
        raise rule_error(seat, N_("%(player)s: the points must be a whole number."),
                         N_("The points must be a whole number."))
    if isinstance(entry, str):
        text = entry.strip()
        if not text:
            return None
        if TOTAL.match(text):
            return int(text)
        if DIGITS.match(text):  # a total too long to be one
            raise rule_error(seat, N_("%(player)s: %(entry)r is neither points nor cards."),
                             N_("%(entry)r is neither points nor cards."), entry=text)
        if SUM.match(text):
            return sum(int(term) for term in text.split("+"))
        return hand_points(text, seat=seat)
    if isinstance(entry, list | tuple):
        return hand_points(entry, seat=seat)
    raise rule_error(seat, N_("%(player)s: %(entry)r is neither points nor cards."),
                     N_("%(entry)r is neither points nor cards."), entry=entry)
