"""Cards as players type or tap them: ``10♥``, ``Qs``, ``AH``, ``*``, ``fante``, ``kq``.

A token is read whole: ``10 D`` is a ten and a Donna, ``10D`` the ten of diamonds; a token
that is no card is read as cards run together when it reads one way only (``kq``, ``10k``)
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
# Cards run together: a rank (the Italian letters and the joker too) and maybe a suit.
RUN_RANK = re.compile(r"10|[2-9AJQKFDR*]")
RUN_SUITS = "♠♥♦♣SHDC"
UNKNOWN = N_("Unknown card %(token)r.")
AMBIGUOUS = N_("%(token)r reads as different cards: put a space between them.")


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
        raise RuleError(UNKNOWN, token=token)
    suit = match.group(2)
    return Card(match.group(1), SUIT_LETTERS.get(suit, suit) or None)


def read_run(token: str) -> list[Card]:
    """One token as a card, or as cards run together when it reads one way only; RuleError
    naming the token when it reads no way (:data:`UNKNOWN`) or several (:data:`AMBIGUOUS`).

    >>> [str(c) for c in read_run("kq")], [str(c) for c in read_run("10KsR")]
    (['K', 'Q'], ['10', 'K♠', 'K'])
    >>> read_run("KDQ")  # the king of diamonds and a queen, or a king and two queens
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: 'KDQ' reads as different cards: put a space between them.
    """
    try:
        return [parse_card(token)]
    except RuleError:
        pass
    word = token.strip().upper()
    # From the end: how many readings the rest has from each position (2 means several)
    # and the first card of one of them.
    readings = [0] * len(word) + [1]
    first: list[tuple[Card, int] | None] = [None] * (len(word) + 1)
    for at in range(len(word) - 1, -1, -1):
        rank = RUN_RANK.match(word, at)
        if not rank:
            continue
        card = parse_card(rank.group())
        ends = [(card, rank.end())]
        if card.rank != JOKER and rank.end() < len(word) and word[rank.end()] in RUN_SUITS:
            ends.append((Card(card.rank, suit_symbol(word[rank.end()])), rank.end() + 1))
        for found, end in ends:
            if readings[end]:
                readings[at] = min(2, readings[at] + readings[end])
                first[at] = first[at] or (found, end)
    if readings[0] != 1:
        raise RuleError(AMBIGUOUS if readings[0] else UNKNOWN, token=token)
    cards, at = [], 0
    while at < len(word):
        card, at = first[at]  # type: ignore[misc]  # one reading: every step has its card
        cards.append(card)
    return cards


def parse_cards(text: str | Iterable[Card | str]) -> list[Card]:
    """Cards separated by spaces or commas (or run together, see :func:`read_run`), or a
    list of cards or tokens, one card each.

    >>> [str(c) for c in parse_cards("10 D, 10D A♥ jolly kq")]
    ['10', 'Q', '10♦', 'A♥', '*', 'K', 'Q']
    >>> parse_cards("11")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: Unknown card '11'.
    """
    if isinstance(text, str):
        return [card for token in SEPARATOR.split(text) if token for card in read_run(token)]
    return [t if isinstance(t, Card) else parse_card(t) for t in text]
