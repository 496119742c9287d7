"""What every game's rules share: the error type, the codes of events and notes, places
and the checks of what was typed. What a game hands the web layer is in ``sheet.py``: the
web layer never computes a score, it hands a game's ``build_sheet`` the raw inputs it
stored and shows the :class:`~scorekeeper.rules.sheet.Sheet` it gets back.

Its conventions (refusals, places and ties, options): docs/rules.md#conventions-for-every-game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any


def N_(message: str) -> str:
    """Mark a message for translation without translating it (the web layer does)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message said of a count, in its singular and plural, for translation without
    translating it: ``RuleError(*Nn_("%(n)s card", "%(n)s cards"), count="n", n=1)``."""
    return singular, plural



class Event(StrEnum):
    """Something a hand did beyond its points, as a stable code; ``label`` is what to show.

    Templates test for a code (``Event.DOUBLED in row.events``), never for a message, so a
    reworded label cannot change a sheet.

    >>> Event.DOUBLED.label
    'closed in hand: penalties doubled'
    """

    NO_TRUMP = "no_trump"
    ALL_FIVE = "all_five"
    TIE_AT_TOP = "tie_at_top"
    ANNULLED = "annulled"
    DOUBLED = "doubled"
    ELIMINATION = "elimination"
    REENTRY = "reentry"
    STOCK_RAN_OUT = "stock_ran_out"
    WON = "won"

    @property
    def label(self) -> str:
        """The English message id shown for this event."""
        return EVENT_LABELS[self]


EVENT_LABELS = {
    Event.NO_TRUMP: N_("no trump played"),
    Event.ALL_FIVE: N_("all five tricks"),
    Event.TIE_AT_TOP: N_("tie at the top: play goes on"),
    Event.ANNULLED: N_("annulled (stalemate)"),
    Event.DOUBLED: N_("closed in hand: penalties doubled"),
    Event.ELIMINATION: N_("elimination"),
    Event.REENTRY: N_("re-entry"),
    Event.STOCK_RAN_OUT: N_("stock ran out"),
    Event.WON: N_("won"),
}

class Note(StrEnum):
    """What a hand says of one player beside the points (a Navawhist case, who closed), as a
    stable code; ``label`` is what to show. A row's ``notes`` hold one per seat, "" for none.

    Templates test for a code (``row.notes[seat] == Note.CLOSED``), never for a message.

    >>> Note.NEVER_OPENED.label
    'never opened'
    """

    EXACT = "exact"
    OFF_BY_ONE = "off_by_one"
    OFF_BY_MORE = "off_by_more"
    ALL_MISSED = "all_missed"
    ALL_MISSED_CLOSEST = "all_missed_closest"
    CLOSED = "closed"
    CLOSED_IN_HAND = "closed_in_hand"
    NEVER_OPENED = "never_opened"
    OUT = "out"
    REENTERED = "reentered"
    LOWEST = "lowest"
    ZERO_NOT_CLOSED = "zero_not_closed"
    WON = "won"
    LOST = "lost"

    @property
    def label(self) -> str:
        """The English message id shown for this note."""
        return NOTE_LABELS[self]


NOTE_LABELS = {
    Note.EXACT: N_("exact"),
    Note.OFF_BY_ONE: N_("off by one"),
    Note.OFF_BY_MORE: N_("off by two or more"),
    Note.ALL_MISSED: N_("all missed: not the closest"),
    Note.ALL_MISSED_CLOSEST: N_("all missed: the closest"),
    Note.CLOSED: N_("closed"),
    Note.CLOSED_IN_HAND: N_("closed in hand"),
    Note.NEVER_OPENED: N_("never opened"),
    Note.OUT: N_("out"),
    Note.REENTERED: N_("re-entered"),
    Note.LOWEST: N_("lowest hand"),
    Note.ZERO_NOT_CLOSED: N_("0 without closing"),
    Note.WON: N_("won"),
    Note.LOST: N_("lost"),
}

TRANSLATED_PARAMS = frozenset({"what", "option"})


class RuleError(ValueError):
    """A rule violation: the message says which rule and, where there is one, which seat.

    ``template`` is an English message with ``%(name)s`` placeholders and ``params``
    their values; a seat-specific message starts with ``%(player)s``, which reads
    "seat N" here and the player's name once the web layer renders it.

    >>> err = RuleError(N_("%(player)s: bid %(bid)s is out of range 0..%(n)s."), seat=2, bid=7, n=5)
    >>> str(err)
    'seat 2: bid 7 is out of range 0..5.'
    >>> err.render(player_name=lambda seat: "Anna")
    'Anna: bid 7 is out of range 0..5.'

    A message said of a count has a ``plural`` too, and ``count`` names the param that
    chooses between them:

    >>> str(RuleError(*Nn_("%(n)s card dealt.", "%(n)s cards dealt."), count="n", n=1))
    '1 card dealt.'
    """

    def __init__(self, template: str, plural: str = "", *, seat: int | None = None,
                 count: str = "", **params: Any) -> None:
        self.template = template
        self.plural = plural
        self.count = count
        self.seat = seat
        self.params = params
        super().__init__(self.render())

    def render(
        self,
        translate: Callable[[str], str] = lambda s: s,
        player_name: Callable[[int], str] | None = None,
        translate_plural: Callable[[str, str, int], str] = lambda s, p, n: s if n == 1 else p,
    ) -> str:
        """The message, translated by ``translate`` (``translate_plural`` for a message
        said of a count), naming the seat's player."""
        values = {k: translate(v) if k in TRANSLATED_PARAMS else v for k, v in self.params.items()}
        if self.seat is not None:
            values["player"] = player_name(self.seat) if player_name else f"seat {self.seat}"
        if self.plural:
            return translate_plural(self.template, self.plural, self.params[self.count]) % values
        return translate(self.template) % values


def places(totals: Sequence[int], *, higher_wins: bool = True) -> tuple[int, ...]:
    """Competition places: equal totals share a place (1, 1, 3, ...).

    >>> places([10, 30, 10, 5])
    (2, 1, 2, 4)
    >>> places([10, 30, 10, 5], higher_wins=False)
    (2, 4, 2, 1)
    """
    sign = -1 if higher_wins else 1
    return tuple(1 + sum(sign * o < sign * t for o in totals) for t in totals)


def running_totals(points: Sequence[Sequence[int | None]], columns: int) -> list[tuple[int, ...]]:
    """Totals after each row; a ``None`` point adds nothing.

    >>> running_totals([(1, None), (2, 3)], 2)
    [(1, 0), (3, 3)]
    """
    total = [0] * columns
    out = []
    for row in points:
        total = [t + (p or 0) for t, p in zip(total, row, strict=True)]
        out.append(tuple(total))
    return out


def check_seat(seat: Any, players: int, what: str) -> int:
    """``seat`` as an int in 0..players-1, or RuleError naming ``what``.

    >>> check_seat("2", 4, "closer")
    2
    """
    try:
        number = int(seat)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        number = None
    if number is None or isinstance(seat, float) and seat != number:
        raise RuleError(N_("The %(what)s must be a seat number."), what=what)
    seat = number
    if not 0 <= seat < players:
        raise RuleError(N_("The %(what)s must be a seat from 0 to %(last)s."),
                        what=what, last=players - 1)
    return seat


def check_count(value: Any, low: int, high: int, *, seat: int | None, what: str) -> int:
    """``value`` as an int in low..high, or RuleError naming the seat and ``what``.

    >>> check_count("3", 0, 5, seat=1, what="bid")
    3
    """
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        number = None
    if number is None or isinstance(value, float) and value != number:
        if seat is None:
            raise RuleError(N_("The %(what)s must be a whole number."), what=what)
        raise RuleError(N_("%(player)s: the %(what)s must be a whole number."),
                        seat=seat, what=what)
    if not low <= number <= high:
        if seat is None:
            raise RuleError(N_("The %(what)s must be from %(low)s to %(high)s."),
                            what=what, low=low, high=high)
        raise RuleError(N_("%(player)s: the %(what)s must be from %(low)s to %(high)s."),
                        seat=seat, what=what, low=low, high=high)
    return number


def check_length(values: Sequence[Any], players: int, what: str) -> None:
    """RuleError unless there is one value per player."""
    if len(values) != players:
        raise RuleError(N_("Give one %(what)s per player: %(players)s expected, %(got)s given."),
                        what=what, players=players, got=len(values))
