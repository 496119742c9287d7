"""People who come and go during a match: joins, sit-outs and returns, substitutes and
leavers, the same for every game (docs/rules.md#people-who-come-and-go).

A match's changes of who plays are stored beside its hands as plain dicts, in the order
they were made, and handed to a game's ``build_sheet`` as ``roster``::

    {"after": 6, "kind": "join", "at": 2, "person": "Elena"}
    {"after": 8, "kind": "sit_out", "seat": 1}
    {"after": 11, "kind": "back", "seat": 1}
    {"after": 4, "kind": "substitute", "seat": 0, "person": "Carla"}
    {"after": 11, "kind": "leave", "seat": 3}

``after`` is the number of hands entered before the change (it takes effect from hand
``after + 1``); ``seat`` the seat it concerns. A joiner gets the next seat number
(``players``, ``players + 1``, ... in the order they join) and sits at position ``at`` of
the turn order (default: last); no seat number ever changes, so nothing recorded is
renumbered, and :attr:`Roster.order` gives the turn order the page shows.
``person`` is whoever plays the seat from then on (opaque to the rules: an id or a name).

A game replays the changes with a :class:`Table` as it scores its hands: each break
between hands applies its changes (leaves first, then joins, substitutes, sit-outs and
returns), checking each against the sheet as it stands then; the table says who is dealt
in, who deals, and what each seat did, for the sheet's :class:`Roster` and each row's
``presence``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from .core import N_, RuleError, check_length

CHANGE_KEYS = frozenset({"after", "kind", "seat", "at", "person"})
ENTRY_CHOICES = ("lowest", "zero")


class Kind(StrEnum):
    """What a change does; the order here is the order of the changes inside one break
    (decided case 2)."""

    LEAVE = "leave"
    JOIN = "join"
    SUBSTITUTE = "substitute"
    SIT_OUT = "sit_out"
    BACK = "back"

    @property
    def label(self) -> str:
        """The English message id shown for this kind of change."""
        return KIND_LABELS[self]


KIND_LABELS = {
    Kind.LEAVE: N_("leave"),
    Kind.JOIN: N_("join"),
    Kind.SUBSTITUTE: N_("substitute"),
    Kind.SIT_OUT: N_("sit-out"),
    Kind.BACK: N_("return"),
}
KIND_ORDER = {kind: position for position, kind in enumerate(Kind)}


class Presence(StrEnum):
    """What a seat was in one hand (``Row.presence``): dealt in, out (sat out, or out of a
    Scala 40 match), not yet joined, or gone (left). Only "in" scores; the others print as
    "out" or an empty cell, never 0 (decided case 29).

    >>> Presence.NOT_YET.label
    ''
    """

    IN = "in"
    OUT = "out"
    NOT_YET = "not_yet"
    GONE = "gone"

    @property
    def label(self) -> str:
        """The English message id shown in a row's cell for this seat ("" for empty)."""
        return PRESENCE_LABELS[self]


PRESENCE_LABELS = {Presence.IN: "", Presence.OUT: N_("out"), Presence.NOT_YET: "",
                   Presence.GONE: ""}


class SeatState(StrEnum):
    """What a seat is now (``Roster.states``).

    >>> SeatState.SITTING_OUT.label
    'sitting out'
    """

    PLAYING = "playing"
    SITTING_OUT = "sitting_out"
    LEFT = "left"
    OUT = "out"  # out of a Scala 40 match

    @property
    def label(self) -> str:
        """The English message id shown for this state."""
        return STATE_LABELS[self]


STATE_LABELS = {SeatState.PLAYING: N_("playing"), SeatState.SITTING_OUT: N_("sitting out"),
                SeatState.LEFT: N_("left"), SeatState.OUT: N_("out")}


@dataclass(frozen=True)
class Change:
    """One change of who plays, read from its dict; ``index`` its place in the roster as
    stored (1 for the first), which a refusal names."""

    after: int
    kind: Kind
    seat: int
    at: int | None = None
    person: Any = None
    index: int = 0


@dataclass(frozen=True)
class Mark:
    """A change as the sheet prints it: ``hand`` is the first hand it applies to; a sit-out's
    ``last`` is the last hand sat out (None while it lasts); ``person`` who plays the seat
    from then on (a join, a substitute); ``total`` a joiner's entry total.

    >>> mark = Mark(Kind.JOIN, 3, 7, person="Elena", total=34)
    >>> mark.message % {**mark.params, "player": "Elena"}
    'Elena joins at hand 7 with 34'
    >>> mark = Mark(Kind.SIT_OUT, 1, 9, last=11)
    >>> mark.message % {**mark.params, "player": "Bruno"}
    'Bruno sits out hands 9-11'
    """

    kind: Kind
    seat: int
    hand: int
    last: int | None = None
    person: Any = None
    total: int | None = None

    deeply_frozen = True

    @property
    def message(self) -> str:
        """The English message id of the mark, with ``%(player)s`` for the seat's player
        and ``%(person)s`` for a substitute."""
        if self.kind is Kind.SIT_OUT:
            if self.last is None:
                return N_("%(player)s sits out from hand %(hand)s")
            if self.last == self.hand:
                return N_("%(player)s sits out hand %(hand)s")
            return N_("%(player)s sits out hands %(hand)s-%(last)s")
        return MARK_MESSAGES[self.kind]

    @property
    def params(self) -> dict[str, Any]:
        """The values of the message's placeholders but ``player``."""
        return {"hand": self.hand, "last": self.last, "after": self.hand - 1,
                "person": self.person, "total": self.total}


MARK_MESSAGES = {
    Kind.JOIN: N_("%(player)s joins at hand %(hand)s with %(total)s"),
    Kind.SUBSTITUTE: N_("%(person)s plays for %(player)s from hand %(hand)s"),
    Kind.LEAVE: N_("%(player)s leaves after hand %(after)s"),
}


@dataclass(frozen=True)
class Holder:
    """Who held a seat from hand ``hand`` on (``person`` None: whoever the match was created
    with), and how many hands the seat was dealt in while they held it (decided case 26)."""

    person: Any
    hand: int
    hands: int

    deeply_frozen = True


@dataclass(frozen=True)
class Roster:
    """Who plays a match, for the sheet (``Sheet.roster``), indexed by seat number.

    ``order`` is the turn order (the seats as the page lists and numbers them, a seat that
    left keeping its place); ``states`` each seat's :class:`SeatState`; ``holders`` who held
    each seat and for how many hands; ``credit`` who gets each seat's result (the most
    hands, the first holder on a tie); ``entries`` a joiner's entry total (None for a seat
    the match began with); ``left_after`` the hand after which a seat left; ``marks`` the
    changes as printed; ``waiting`` True when fewer than 2 are dealt in because of a leave,
    so the next hand waits for a sitter to come back (decided case 21); ``closed`` True when
    everyone still playing left at once (case 24); ``entry`` the entry option (``"lowest"``
    or ``"zero"``) and ``tournament`` whether it is a tournament's match.
    """

    order: tuple[int, ...] = ()
    states: tuple[SeatState, ...] = ()
    holders: tuple[tuple[Holder, ...], ...] = ()
    credit: tuple[Any, ...] = ()
    entries: tuple[int | None, ...] = ()
    left_after: tuple[int | None, ...] = ()
    marks: tuple[Mark, ...] = ()
    waiting: bool = False
    closed: bool = False
    entry: str = "lowest"
    tournament: bool = False

    deeply_frozen = True

    def number(self, seat: int) -> int:
        """The seat's number as the page shows it: its place in the turn order, from 0
        (decided case 30).

        >>> Roster(order=(0, 3, 1, 2)).number(3)
        1
        """
        return self.order.index(seat)

    def staying(self, first_dealer: int) -> tuple[list[tuple[int, Any]], int]:
        """Who sits down again for the next match at the table: every seat but those that
        left, in turn order, each with whoever holds it now (None: the seat's own player);
        and which of them deals first, the next in turn after ``first_dealer``.

        >>> playing, left = SeatState.PLAYING, SeatState.LEFT
        >>> Roster(order=(0, 3, 1, 2), states=(playing, left, playing, playing),
        ...        holders=((), (), (Holder(None, 1, 2), Holder(9, 3, 4)), ())).staying(3)
        ([(0, None), (3, None), (2, 9)], 2)
        """
        seats = [(seat, self.holders[seat][-1].person if self.holders[seat] else None)
                 for seat in self.order if self.states[seat] is not SeatState.LEFT]
        start = self.order.index(first_dealer)
        after = self.order[start + 1:] + self.order[:start + 1]
        kept = [seat for seat, _person in seats]
        return seats, kept.index(next(seat for seat in after if seat in kept))


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(N_("A change of players needs %(what)s as a whole number."), what=what)
    return value


def read_roster(roster: Iterable[Mapping[str, Any]], players: int) -> list[Change]:
    """The changes of ``roster``, checked for their shape, in the order they apply: by the
    hand they follow, then leaves, joins, substitutes, sit-outs and returns. Joiners get
    the seats after ``players`` in the order they were recorded.

    >>> [(c.kind.value, c.seat) for c in read_roster(
    ...     [{"after": 2, "kind": "join"}, {"after": 2, "kind": "leave", "seat": 0}], 3)]
    [('leave', 0), ('join', 3)]
    """
    changes: list[Change] = []
    joiners, last_after = players, 0
    if isinstance(roster, str | bytes | Mapping):
        raise RuleError(N_("The changes of players must be a list."))
    for index, raw in enumerate(roster, start=1):
        if not isinstance(raw, Mapping) or set(raw) - CHANGE_KEYS:
            raise RuleError(N_("Change %(n)s is not a change of players."), n=index)
        try:
            kind = Kind(raw.get("kind"))
        except ValueError:
            raise RuleError(N_("Change %(n)s is not a change of players."), n=index) from None
        after = _whole(raw.get("after"), N_("the hand it follows"))
        if after < last_after:
            raise RuleError(N_("Change %(n)s comes after hand %(after)s, before a change "
                               "recorded earlier."), n=index, after=after)
        last_after = after
        person = raw.get("person")
        if not (person is None or isinstance(person, str | int) and not isinstance(person, bool)):
            raise RuleError(N_("Change %(n)s names its player neither by name nor by number."),
                            n=index)
        if kind is Kind.JOIN:
            seat = raw.get("seat", joiners)
            if seat != joiners:
                raise RuleError(N_("A new player takes seat %(number)s, the next free one."),
                                number=joiners)
            joiners += 1
        else:
            seat = _whole(raw.get("seat"), N_("the seat"))
        at = raw.get("at")
        changes.append(Change(after, kind, seat, None if at is None else _whole(
            at, N_("the place in the turn order")), person, index))
    return sorted(changes, key=lambda c: (c.after, KIND_ORDER[c.kind]))


def check_entry(entry: Any) -> str:
    """The entry option: ``"lowest"`` (the lowest total among the players still playing,
    the default) or ``"zero"``.

    >>> check_entry(None), check_entry("zero")
    ('lowest', 'zero')
    """
    if entry is None or entry == "":
        return "lowest"
    if entry not in ENTRY_CHOICES:
        raise RuleError(N_("%(option)s: %(value)s is not one of the choices."),
                        option=N_("Entry total"), value=entry)
    return str(entry)


class Table:
    """Who sits at a match's table as its hands are replayed, and their changes.

    ``players`` seats begin the match; ``maximum`` is the game's most players, ``minimum``
    the fewest that keep a match going (and are dealt a hand); ``name`` the game's name for
    refusals; ``entry`` the entry option (see :func:`check_entry`). A ``tournament``'s match
    ends at the break where someone leaves it (TOURNAMENTS.md, "Abandoning") unless it
    ``goes_on`` without them (Scala 40 played alone).
    """

    def __init__(self, name: str, players: int, first_dealer: int,
                 roster: Iterable[Mapping[str, Any]], *, maximum: int,
                 tournament: bool = False, entry: str | None = None, minimum: int = 2,
                 goes_on: bool = False) -> None:
        self.name, self.maximum, self.tournament = name, maximum, tournament
        self.abandoned = False  # a tournament's match that ended at a leave
        self.goes_on = goes_on
        self.minimum = minimum  # fewer players still playing end the match
        self.entry = check_entry(entry)
        self.changes = read_roster(roster, players)
        self.waiting_changes = list(self.changes)
        self.started = players
        self.seats = players
        self.order = list(range(players))
        self.first_dealer = first_dealer
        self.dealer: int | None = None
        self.left: dict[int, int] = {}
        self.left_now: dict[int, int] = {}  # seat -> the index of its leave, in this break
        self.sitting: dict[int, int] = {}  # seat -> the index of its sit-out mark
        self.holders: list[list[list[Any]]] = [[[None, 1, 0]] for _seat in range(players)]
        self.entries: list[int | None] = [None] * players
        self.marks: list[Mark] = []
        self.presences: list[tuple[Presence, ...]] = []
        self.gone: set[Any] = set()
        self.joined_after: dict[int, int] = {}
        self.closed = False
        self.joins = 0

    # --- who is where -------------------------------------------------------------------

    def playing(self, in_game: Callable[[int], bool] = lambda seat: True) -> list[int]:
        """The seats still playing, in turn order: not left (sitters count; case 1)."""
        return [s for s in self.order if s not in self.left and in_game(s)]

    def dealt_in(self, in_game: Callable[[int], bool] = lambda seat: True) -> list[int]:
        """The seats dealt in the next hand, in turn order."""
        return [s for s in self.playing(in_game) if s not in self.sitting]

    def holding(self) -> set[Any]:
        """The persons named by the roster who hold a seat now."""
        return {self.holders[s][-1][0] for s in range(self.seats)
                if s not in self.left} - {None}

    def next_dealer(self, eligible: Sequence[int]) -> int | None:
        """Who deals the next hand: the first seat of ``eligible`` after the last dealer in
        turn order (the first dealer, or the first after them, for the first hand)."""
        if not eligible:
            return None
        start = self.first_dealer if self.dealer is None else self.dealer
        position = self.order.index(start) + (self.dealer is not None)
        turn = self.order[position:] + self.order[:position]
        return next(s for s in turn if s in eligible)

    def deal(self, eligible: Sequence[int]) -> int:
        """The dealer of the next hand, which is now dealt."""
        self.dealer = self.next_dealer(eligible)
        assert self.dealer is not None
        return self.dealer

    def projected(self, eligible: Sequence[int], hands: int) -> list[int]:
        """The dealers of the next ``hands`` hands if nothing changes."""
        saved, out = self.dealer, []
        for _hand in range(hands):
            dealer = self.next_dealer(eligible)
            if dealer is None:
                break
            out.append(dealer)
            self.dealer = dealer
        self.dealer = saved
        return out

    def played(self, dealt: Iterable[int], in_game: Callable[[int], bool] = lambda seat: True
               ) -> None:
        """Record a hand (an annulled deal too) dealt to ``dealt``."""
        dealt = set(dealt)
        for seat in dealt:
            self.holders[seat][-1][2] += 1
        self.presences.append(tuple(
            Presence.IN if s in dealt else Presence.GONE if s in self.left else Presence.OUT
            for s in range(self.seats)))

    def presence(self, index: int) -> tuple[Presence, ...]:
        """Each seat's presence in row ``index`` (from 0), the seats not yet joined too."""
        row = self.presences[index]
        return row + (Presence.NOT_YET,) * (self.seats - len(row))

    # --- the changes --------------------------------------------------------------------

    def between(self, after: int, *, finished: bool, entry: Callable[[], int],
                refuse: Callable[[Change], None] = lambda change: None,
                in_game: Callable[[int], bool] = lambda seat: True) -> list[Change]:
        """Apply the changes recorded after hand ``after`` (``finished``: the match had
        ended by then), each checked as it comes; ``entry`` gives a joiner's entry total
        (asked once, after the leaves), ``refuse`` raises for a change the game refuses.
        The changes applied, or RuleError naming the change that no longer holds."""
        applied: list[Change] = []
        total: int | None = None
        self.left_now = {}
        ended = finished or self.over(in_game)  # the leaves of a break apply all together
        while self.waiting_changes and self.waiting_changes[0].after == after:
            change = self.waiting_changes.pop(0)
            if change.kind is not Kind.LEAVE:
                ended = ended or self.over(in_game)
            try:
                self._check(change, ended, in_game, refuse)
            except RuleError as error:
                if 0 <= change.seat < self.seats:
                    raise RuleError(N_("%(player)s: the %(what)s after hand %(after)s is not "
                                       "allowed there; it must be undone first."),
                                    seat=change.seat, what=change.kind.label, after=after,
                                    change=change.index, reason=error.template) from error
                raise RuleError(N_("The %(what)s after hand %(after)s is not allowed there; it "
                                   "must be undone first."), what=change.kind.label,
                                after=after, change=change.index,
                                reason=error.template) from error
            if change.kind is Kind.JOIN and total is None:
                total = 0 if after == 0 or self.entry == "zero" else entry()
            self._apply(change, total, in_game)
            applied.append(change)
        if any(c.kind is Kind.LEAVE for c in applied) and not self.playing(in_game):
            self.closed = True  # everyone still playing left at once: a close (case 24)
        # after the whole break: two who leave after the same hand share the last places
        self.abandoned = self.abandoned or self.tournament and not self.goes_on and any(
            c.kind is Kind.LEAVE for c in applied)
        return applied

    def counted(self) -> int:
        """The players at the start (after the changes before the first hand, case 4) plus
        every joiner since: what a default length counts (case 15)."""
        return self.started + self.joins - sum(a == 0 for a in self.left.values())

    def over(self, in_game: Callable[[int], bool] = lambda seat: True) -> bool:
        """Whether fewer than 2 players are left, which ends a match (a close too, and a
        leave in a tournament's match that does not go on without the leaver)."""
        return self.closed or self.abandoned or len(self.playing(in_game)) < self.minimum

    def waiting(self, in_game: Callable[[int], bool] = lambda seat: True) -> bool:
        """Whether the next hand waits for a sitter to come back (case 21)."""
        return not self.over(in_game) and len(self.dealt_in(in_game)) < self.minimum

    def check_dealt(self, number: int, in_game: Callable[[int], bool] = lambda seat: True
                    ) -> None:
        """RuleError when hand ``number`` cannot be entered for want of players."""
        if self.waiting(in_game):
            raise RuleError(N_("Fewer than 2 players are dealt in: a player sitting out must "
                               "come back before hand %(number)s."), number=number)

    def check_done(self, completed: int) -> None:
        """RuleError when a change follows a hand not entered, or one still being entered."""
        if self.waiting_changes:
            change = self.waiting_changes[0]
            raise RuleError(N_("%(player)s: the %(what)s after hand %(after)s follows a hand "
                               "not entered; it must be undone first."), seat=change.seat,
                            what=change.kind.label, after=change.after, change=change.index,
                            reason=N_("A hand has entries: finish or clear it before "
                                      "changing who plays."), completed=completed)

    def _check(self, change: Change, finished: bool, in_game: Callable[[int], bool],
               refuse: Callable[[Change], None]) -> None:
        kind, seat = change.kind, change.seat
        if finished:
            raise RuleError(N_("The match is over: it takes no more changes of players."))
        if self.tournament and kind in (Kind.JOIN, Kind.SIT_OUT):
            raise RuleError(N_("A tournament match takes no new player and no sitting out: a "
                               "substitute may take the seat, or the player may leave."))
        refuse(change)
        if kind is Kind.JOIN:
            if len(self.playing(in_game)) + 1 > self.maximum:
                raise RuleError(N_("%(game)s is played by at most %(n)s players."),
                                game=self.name, n=self.maximum)
            if change.at is not None and not 0 <= change.at <= len(self.order):
                raise RuleError(N_("A new player's place in the turn order must be from 0 "
                                   "to %(last)s."), last=len(self.order))
            self._check_person(change)
            return
        if not 0 <= seat < self.seats:
            raise RuleError(N_("There is no seat %(number)s."), number=seat)
        if seat in self.left:
            raise RuleError(N_("%(player)s has left the match."), seat=seat)
        if kind is Kind.SUBSTITUTE:
            self._check_person(change)
        elif kind is Kind.SIT_OUT:
            if seat in self.sitting:
                raise RuleError(N_("%(player)s is sitting out already."), seat=seat)
            # A sit-out recorded before a leave of the same break stands: the leave alone
            # leaves the table short, and the next hand waits for a sitter (case 21).
            later = sum(index > change.index and left not in self.sitting
                        for left, index in self.left_now.items())
            if len(self.dealt_in(in_game)) + later <= 2:
                raise RuleError(N_("%(player)s cannot sit out: at least 2 players must be "
                                   "dealt in."), seat=seat)
        elif kind is Kind.BACK and seat not in self.sitting:
            raise RuleError(N_("%(player)s is not sitting out."), seat=seat)

    def _check_person(self, change: Change) -> None:
        person = change.person
        if change.kind is Kind.SUBSTITUTE and person is None:
            raise RuleError(N_("%(player)s: say who takes the seat."), seat=change.seat)
        if person is not None and (person in self.holding() or person in self.gone):
            raise RuleError(N_("%(person)s holds a seat in this match or has left it."),
                            person=person)

    def _apply(self, change: Change, total: int | None, in_game: Callable[[int], bool]) -> None:
        kind, seat, hand = change.kind, change.seat, change.after + 1
        if kind is Kind.LEAVE:
            self.left[seat] = change.after
            self.left_now[seat] = change.index
            self.gone.add(self.holders[seat][-1][0])
            self._end_sit_out(seat, change.after)
            self.marks.append(Mark(kind, seat, hand))
        elif kind is Kind.JOIN:
            self.seats += 1
            self.joins += 1
            self.order.insert(len(self.order) if change.at is None else change.at, seat)
            self.holders.append([[change.person, hand, 0]])
            self.entries.append(total)
            self.joined_after[seat] = change.after
            self.marks.append(Mark(kind, seat, hand, person=change.person, total=total))
        elif kind is Kind.SUBSTITUTE:
            self.holders[seat].append([change.person, hand, 0])
            self.marks.append(Mark(kind, seat, hand, person=change.person))
        elif kind is Kind.SIT_OUT:
            self.sitting[seat] = len(self.marks)
            self.marks.append(Mark(kind, seat, hand))
        else:
            self._end_sit_out(seat, change.after)

    def _end_sit_out(self, seat: int, after: int) -> None:
        if seat in self.sitting:
            index = self.sitting.pop(seat)
            self.marks[index] = replace(self.marks[index], last=after)

    # --- the end of the match -----------------------------------------------------------

    def ranked_left(self) -> dict[int, int]:
        """The leavers ranked as leavers (after the hand they left): not those of a close."""
        if not self.closed:
            return dict(self.left)
        last = max(self.left.values())
        return {s: a for s, a in self.left.items() if a != last}

    def places(self, keys: Sequence[Any], *, leavers: bool = True) -> tuple[int, ...]:
        """Places from each seat's key (lower is better), leavers after those still playing,
        the later leaver first, leavers of the same hand sharing (cases 22 to 24); with
        ``leavers`` False the keys rank them already."""
        gone = self.ranked_left() if leavers else {}
        full = [(1, -gone[s], ()) if s in gone else (0, 0, k) for s, k in enumerate(keys)]
        return tuple(1 + sum(other < key for other in full) for key in full)

    def roster(self, in_game: Callable[[int], bool] = lambda seat: True,
               out: Iterable[int] = ()) -> Roster:
        """The sheet's :class:`Roster` as the table stands (``out``: seats out of the game)."""
        out = set(out)

        def state(seat: int) -> SeatState:
            if seat in self.left:
                return SeatState.LEFT
            if seat in out or not in_game(seat):
                return SeatState.OUT
            return SeatState.SITTING_OUT if seat in self.sitting else SeatState.PLAYING

        holders = tuple(tuple(Holder(*h) for h in seat) for seat in self.holders)
        return Roster(
            order=tuple(self.order), states=tuple(state(s) for s in range(self.seats)),
            holders=holders,
            credit=tuple(max(seat, key=lambda h: h.hands).person for seat in holders),
            entries=tuple(self.entries),
            left_after=tuple(self.left.get(s) for s in range(self.seats)),
            marks=tuple(self.marks), waiting=self.waiting(in_game), closed=self.closed,
            entry=self.entry, tournament=self.tournament)

    def rows(self, rows: Sequence[Any], columns: int) -> tuple[Any, ...]:
        """``rows`` with each seat's presence, their points, totals and notes given for every
        column: None (an empty cell) for the seats not yet joined (decided case 29)."""
        def pad(values: tuple[Any, ...], fill: Any) -> tuple[Any, ...]:
            return values + (fill,) * (columns - len(values)) if values else values
        def fill(index: int, row: Any) -> Any:
            presence = self.presence(index)
            if row.presence == presence and len(row.points) == columns:
                return row  # a row resumed as it was
            return replace(row, points=pad(row.points, None), totals=pad(row.totals, None),
                           notes=pad(row.notes, ""), presence=presence)
        return tuple(fill(index, row) for index, row in enumerate(rows))


def on_seats(seats: Sequence[int], call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)`` for the seats ``seats`` numbered 0, 1, ... in that order,
    a refusal naming the seat by its own number.

    >>> from scorekeeper.rules.core import check_count
    >>> on_seats([4, 2], check_count, 9, 0, 5, seat=1, what="bid")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 2: the bid must be from 0 to 5.
    """
    try:
        return call(*args, **kwargs)
    except RuleError as error:
        if error.seat is None or list(seats) == list(range(len(seats))):
            raise
        raise RuleError(error.template, error.plural, seat=seats[error.seat], count=error.count,
                        **error.params) from None


def gather(raw: Sequence[Any], dealt: Sequence[int], seats: int, what: str) -> list[Any]:
    """The entries of the seats ``dealt`` in, in their order, from ``raw`` (one entry per
    seat of the table): RuleError when a seat not dealt in has an entry.

    >>> gather([5, None, "7"], [2, 0], 3, "points entry")
    ['7', 5]
    """
    check_length(raw, seats, what)
    for seat, value in enumerate(raw):
        if seat not in dealt and value not in (None, ""):
            raise RuleError(N_("%(player)s is not dealt in and takes no part in this hand."),
                            seat=seat)
    return [raw[s] for s in dealt]


def spread(values: Sequence[Any], dealt: Sequence[int], seats: int, fill: Any = None
           ) -> tuple[Any, ...]:
    """``values`` of the seats ``dealt`` in, as one entry per seat (``fill`` for the others).

    >>> spread([7, 5], [2, 0], 3)
    (5, None, 7)
    """
    by_seat = dict(zip(dealt, values, strict=True))
    return tuple(by_seat.get(s, fill) for s in range(seats))
