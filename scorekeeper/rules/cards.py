"""Cards as players type or tap them: ``10♥``, ``Qs``, ``AH``, ``*``, ``fante``.

A token is read whole: ``10 D`` is a ten and a Donna, ``10D`` the ten of diamonds
(docs/rules.md#cards-typed-or-tapped).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .core import N_, RuleError

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "*"
SUITS = ("♠", "♥", "♦", "♣")
SUIT_LETTERS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"♠": N_("spades"), "♥": N_("hearts"), "♦": N_("diamonds"), "♣": N_("clubs")}

# Whole words first: they win over a rank followed by a suit letter.
WORDS = {
    "JOLLY": JOKER, "JOKER": JOKER, "*": JOKER,
    "FANTE": "J", "F": "J", "DONNA": "Q", "D": "Q", "RE": "K", "R": "K",
}
TOKEN = re.compile(r"^(10|[2-9]|[AJQK])([♠♥♦♣SHDC]?)$")
SEPARATOR = re.compile(r"[\s,;]+")


@dataclass(frozen=True, order=True)
class Card:
    """A card: ``rank`` in :data:`RANKS` or ``"*"``, ``suit`` in :data:`SUITS` or None."""

    rank: str
    suit: str | None = None

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def suit_symbol(text: str) -> str:
    """A suit given as a symbol or a letter, as its symbol.

    >>> suit_symbol("h"), suit_symbol("♣")
    ('♥', '♣')
    """
    symbol = SUIT_LETTERS.get(text.strip().upper(), text.strip())
    if symbol not in SUITS:
        raise RuleError(N_("Unknown suit %(suit)r."), suit=text)
    return symbol


def parse_card(token: str) -> Card:
    """One token as a Card, or RuleError naming the token.

    >>> parse_card("10D"), parse_card("qs"), parse_card("Fante")
    (Card(rank='10', suit='♦'), Card(rank='Q', suit='♠'), Card(rank='J', suit=None))
    """
    word = token.strip().upper()
    if word in WORDS:
        return Card(WORDS[word])
    match = TOKEN.match(word)
    if not match:
        raise RuleError(N_("Unknown card %(token)r."), token=token)
    suit = match.group(2)
    return Card(match.group(1), SUIT_LETTERS.get(suit, suit) or None)


def parse_cards(text: str | Iterable[Card | str]) -> list[Card]:
    """Cards separated by spaces or commas, or a list of cards or tokens.

    >>> [str(c) for c in parse_cards("10 D, 10D A♥ jolly")]
    ['10', 'Q', '10♦', 'A♥', '*']
    >>> parse_cards("11")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: Unknown card '11'.
    """
    if isinstance(text, str):
        tokens: Iterable[Card | str] = [t for t in SEPARATOR.split(text) if t]
    else:
        tokens = text
    return [t if isinstance(t, Card) else parse_card(t) for t in tokens]
