"""Scala 40: penalty points left in hand, elimination at a threshold (docs/rules.md#scala-40).

Each deal the closer pays 0, a player who never opened pays a flat 100, everybody
else the penalty points of their cards; closing in hand doubles every opponent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import JOKER, RANKS
from .core import N_, Event, Note, RuleError, check_length, check_seat, places
from .points import Cards, read_cards
from .points import entry_points as read_entry
from .roster import Change, Kind, Table
from .sheet import (
    Details,
    Figure,
    Game,
    Next,
    Option,
    Row,
    Sheet,
    Status,
    TournamentTables,
    optional,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
VALUES = {JOKER: 25, "A": 11, "J": 10, "Q": 10, "K": 10}
NEVER_OPENED = 100
PAIRS = ((0, 2), (1, 3))

CLOSED = Note.CLOSED
CLOSED_IN_HAND = Note.CLOSED_IN_HAND
DID_NOT_OPEN = Note.NEVER_OPENED
OUT = Note.OUT
REENTERED = Note.REENTERED
ANNULLED = Event.ANNULLED
DOUBLED = Event.DOUBLED
ELIMINATION = Event.ELIMINATION
REENTRY = Event.REENTRY

OPTIONS = (
    Option("end", N_("Match ends"), "choice", "elimination",
           choices=("elimination", "deals"),
           words=(N_("By elimination"), N_("After a fixed number of deals")),
           help=N_("By elimination (the last player left wins) or after a fixed number of "
                   "deals (the lowest total wins).")),
    Option("threshold", N_("Elimination at"), "choice", 101, choices=(101, 151, 201, 301, 501),
           when=("end", "elimination"),
           help=N_("A player whose total reaches this is out.")),
    Option("deals", N_("Number of deals"), "int", 10, minimum=1, maximum=100,
           when=("end", "deals"),
           help=N_("Used when the match ends after a fixed number of deals; annulled deals "
                   "do not count.")),
    Option("reentry", N_("Re-entry"), "bool", False,
           help=N_("A player who is out may re-enter before the next deal with the highest "
                   "total among the players still in, while at least 2 are still in.")),
    Option("reentry_limit", N_("Re-entries per player"), "int", 3, minimum=1, maximum=20,
           when=("reentry", True)),
    Option("pairs", N_("Pairs"), "bool", False, players=(4,),
           help=N_("Seats 1 and 3 against seats 2 and 4; a pair pays both partners' "
                   "penalties, nothing when either partner closes.")),
    Option("in_hand_doubles", N_("Closing in hand doubles"), "bool", True,
           help=N_("When the closer lays down every card in one turn without having opened "
                   "before, every opponent's penalty is doubled.")),
)
FLAG_WORDS = {"true": True, "on": True, "yes": True, "y": True,
              "false": False, "off": False, "no": False, "n": False, "": False}


def card_value(rank: str) -> int:
    """The points one card of ``rank`` counts in hand."""
    return VALUES.get(rank) or int(rank)


def hand_points(cards: Cards, *, seat: int | None = None) -> int:
    """Penalty points of the cards left in hand: joker 25, Ace 11, J Q K 10, 2 to 10 face.

    A lone Ace (the only card in hand) counts 1.

    >>> hand_points("A"), hand_points("A K"), hand_points("A A"), hand_points("* 10 D")
    (1, 21, 22, 45)
    """
    held = read_cards(cards, seat=seat)
    if len(held) == 1 and held[0].rank == "A":
        return 1
    return sum(card_value(card.rank) for card in held)


def card_values() -> list[tuple[str, int]]:
    """Each rank and its penalty points, for a printed sheet (a lone Ace counts 1).

    >>> card_values()[0], card_values()[-1]
    (('A', 11), ('*', 25))
    """
    return [(rank, card_value(rank)) for rank in (*RANKS, JOKER)]


def entry_points(entry: Any, *, seat: int | None = None) -> int | None:
    """One player's penalty points as entered: a total, a sum such as ``"10+15"``, or cards.

    ``None`` or blank text gives ``None`` (nothing entered).

    >>> entry_points(21), entry_points("10+11"), entry_points("A K"), entry_points(None)
    (21, 21, 21, None)
    """
    return read_entry(entry, hand_points, seat=seat)


def keypad_points(entry: Any, *, seat: int) -> int | None:
    """Seat ``seat``'s penalty points as entered, refused when no hand can hold them.

    >>> keypad_points("K", seat=0), keypad_points(None, seat=0)
    (10, None)
    >>> keypad_points(-4, seat=1)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 1: penalty points cannot be negative.
    """
    points = entry_points(entry, seat=seat)
    if points is not None and points < 0:
        raise RuleError(N_("%(player)s: penalty points cannot be negative."), seat=seat)
    return points


def _closer(closer: Any, players: int) -> int:
    """The one closer of a scored deal: a seat, or a list holding exactly one seat."""
    if isinstance(closer, list | tuple):
        closer = closer[0] if len(closer) == 1 else None
    if closer is None or closer == "":
        raise RuleError(N_("Tap who closed: a scored deal has exactly one closer."))
    return check_seat(closer, players, N_("closer"))


def _in_hand(flag: Any, closer: int, players: int) -> bool:
    """The closed-in-hand flag: a bool (or a form's word), or the closer's own seat."""
    if flag is None or isinstance(flag, bool):
        return bool(flag)
    if isinstance(flag, str) and flag.strip().lower() in FLAG_WORDS:
        return FLAG_WORDS[flag.strip().lower()]
    seat = check_seat(flag, players, N_("player who closed in hand"))
    if seat != closer:
        raise RuleError(N_("%(player)s did not close: only the closer can close in hand."),
                        seat=seat)
    return True


def _never_opened(seats: Any, players: int) -> set[int]:
    """The seats that never opened: a collection of seats, or one bool per seat."""
    if seats is None or seats == "":
        return set()
    if isinstance(seats, int | str):
        seats = [seats]
    seats = list(seats)
    if seats and all(isinstance(s, bool) for s in seats):
        check_length(seats, players, N_("never-opened flag"))
        return {s for s, flag in enumerate(seats) if flag}
    return {check_seat(s, players, N_("player who never opened")) for s in seats}


def _penalties(points: Sequence[Any], closer: Any, never_opened: Any, closed_in_hand: Any, *,
               doubles: bool, playing: set[int], columns: Sequence[Sequence[int]] = ()
               ) -> tuple[list[int | None], int, set[int], bool]:
    """Each seat's penalty (None for a seat not playing), the closer, never opened, in hand.

    ``columns`` lists partners; the closer's partner pays 0 whatever their cards.
    """
    players = len(points)
    closer = _closer(closer, players)
    never = _never_opened(never_opened, players)
    in_hand = _in_hand(closed_in_hand, closer, players)
    entries = [read_entry(entry, hand_points, seat=seat) for seat, entry in enumerate(points)]
    for seat in range(players):
        if seat not in playing and (seat == closer or seat in never or entries[seat] is not None):
            raise RuleError(N_("%(player)s is out of the match and takes no part in this deal."),
                            seat=seat)
    if closer in never:
        raise RuleError(N_("%(player)s closed, so they cannot be marked as never opened."),
                        seat=closer)
    if entries[closer]:
        raise RuleError(N_("%(player)s closed and pays no penalty, not %(points)s."),
                        seat=closer, points=entries[closer])
    exempt = next((set(c) for c in columns if closer in c), {closer})
    factor = 2 if in_hand and doubles else 1
    penalties: list[int | None] = []
    for seat, h in enumerate(entries):
        if seat not in playing:
            penalties.append(None)
        elif seat in exempt:
            penalties.append(0)
        elif seat in never:
            penalties.append(NEVER_OPENED * factor)
        elif h is None:
            raise RuleError(N_("%(player)s: the penalty points are missing."), seat=seat)
        elif h < 0:
            raise RuleError(N_("%(player)s: penalty points cannot be negative."), seat=seat)
        elif h == 0:
            raise RuleError(N_("%(player)s did not close and so holds at least one card: 0 "
                               "points is only for the one closer."), seat=seat)
        else:
            penalties.append(h * factor)
    return penalties, closer, never, in_hand


def score_deal(hand_points: Sequence[Any], *, closer: int, never_opened: Any,
               closed_in_hand: bool = False, in_hand_doubles: bool = True) -> list[int]:
    """Each seat's penalty for one deal.

    ``hand_points`` has one entry per seat (an int, a sum or cards, see
    :func:`entry_points`); the closer's and never-opened players' may be None.
    ``never_opened`` is a collection of seats (a list or set; empty for none; a list
    of one bool per seat is read as flags): each pays a flat 100 whatever their cards.
    The closer pays 0. With ``closed_in_hand`` (a flag on the deal: the closer closed
    in hand) and ``in_hand_doubles``, every opponent's penalty is doubled.

    >>> score_deal([0, "A K", 7, None], closer=0, never_opened=[3])
    [0, 21, 7, 100]
    >>> score_deal([None, "A", 7, None], closer=0, never_opened={3}, closed_in_hand=True)
    [0, 2, 14, 200]
    >>> score_deal([5, 21], closer=0, never_opened=())
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 0 closed and pays no penalty, not 5.
    """
    penalties, *_ = _penalties(hand_points, closer, never_opened, closed_in_hand,
                               doubles=in_hand_doubles, playing=set(range(len(hand_points))))
    return [p or 0 for p in penalties]


def _clean_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(N_("Scala 40 is played by 2 to 6 players, not %(players)s."),
                        players=players)
    unknown = set(options) - {o.key for o in OPTIONS}
    if unknown:
        raise RuleError(N_("Unknown option %(option)s."), option=sorted(unknown)[0])
    opts = {o.key: o.clean(options.get(o.key)) for o in OPTIONS}
    if opts["pairs"] and players != 4:
        raise RuleError(N_("Pairs are played by 4 players."))
    return opts


class _Match:
    """The running state of a match: totals per column, who is out, re-entries, events, and
    the table of who plays."""

    def __init__(self, players: int, opts: dict[str, Any], table: Table) -> None:
        self.players, self.opts, self.table = players, opts, table
        self.columns: tuple[tuple[int, ...], ...] = (
            PAIRS if opts["pairs"] else tuple((s,) for s in range(players)))
        self.column_of = {s: c for c, seats in enumerate(self.columns) for s in seats}
        self.totals = [0] * len(self.columns)
        self.out: dict[int, int] = {}  # column -> deal that put it out (or after which it left)
        self.reentries = [0] * len(self.columns)
        self.events: list[dict[str, Any]] = []
        self.scored = 0
        self.left_pair: int | None = None

    @property
    def elimination(self) -> bool:
        return self.opts["end"] == "elimination"

    @property
    def columns_in(self) -> list[int]:
        return [c for c in range(len(self.columns)) if c not in self.out]

    @property
    def seats_in(self) -> list[int]:
        return [s for s in range(self.table.seats) if self.in_game(s)]

    def in_game(self, seat: int) -> bool:
        """Whether a seat is still in: not out, and not gone from a fixed number of deals."""
        # A joiner of the break being applied has no column yet: they are in.
        return self.column_of.get(seat) not in self.out and seat not in self.table.left

    @property
    def finished(self) -> bool:
        if self.left_pair is not None:
            return True
        if self.elimination:
            return len(self.columns_in) <= 1
        return self.scored == self.opts["deals"] or self.table.over(self.in_game)

    def reentry_total(self) -> int:
        return max(self.totals[self.column_of[s]] for s in self.seats_in)

    def may_reenter(self, number: int) -> list[dict[str, int]]:
        """The seats that may re-enter before deal ``number``, with the total they would get:
        only those put out in the deal just before it, below the re-entry limit."""
        if not (self.opts["reentry"] and not self.finished and len(self.columns_in) >= 2):
            return []
        return [{"seat": s, "total": self.reentry_total()} for s in range(self.table.seats)
                if self.out.get(self.column_of[s]) == number - 1 and s not in self.table.left
                and self.reentries[self.column_of[s]] < self.opts["reentry_limit"]]

    def reenter(self, seats: Any, number: int) -> set[int]:
        """Apply the re-entries made before deal ``number``; the seats that re-entered."""
        allowed = {entry["seat"] for entry in self.may_reenter(number)}
        total = self.reentry_total() if allowed else 0
        back: set[int] = set()
        for raw in seats or ():
            seat = check_seat(raw, self.table.seats, N_("re-entering player"))
            column = self.column_of[seat]
            if seat in self.table.left:
                raise RuleError(N_("%(player)s has left the match and cannot come back."),
                                seat=seat)
            if column not in self.out:
                raise RuleError(N_("%(player)s is still in the match and cannot re-enter."),
                                seat=seat)
            if not self.opts["reentry"]:
                raise RuleError(N_("%(player)s cannot re-enter: re-entry is off in this match."),
                                seat=seat)
            if self.out[column] != number - 1:
                raise RuleError(N_("%(player)s went out in deal %(deal)s and could re-enter "
                                   "only before deal %(next)s: they stay out."),
                                seat=seat, deal=self.out[column], next=self.out[column] + 1)
            if seat not in allowed:
                raise RuleError(N_("%(player)s has re-entered %(limit)s times, the most "
                                   "allowed."), seat=seat, limit=self.opts["reentry_limit"])
            del self.out[column]
            self.totals[column] = total
            self.reentries[column] += 1
            back.update(self.columns[column])
            self.events += [{"deal": number, "seat": s, "event": REENTRY, "total": total}
                            for s in self.columns[column]]
        return back

    def refuse(self, change: Change) -> None:
        """The changes Scala 40 refuses: sitting out, a new player in pairs, and any change
        after a partner's leave in the same break (it ended the match: case 18)."""
        if self.opts["pairs"] and self.table.left_now:
            raise RuleError(N_("The match is over: it takes no more changes of players."))
        if change.kind is Kind.SIT_OUT:
            raise RuleError(N_("Scala 40 does not allow sitting out: a player who cannot play "
                                "a deal leaves, so %(player)s may leave or hand the seat to a "
                                "substitute."), seat=change.seat)
        if change.kind is Kind.JOIN and self.opts["pairs"]:
            raise RuleError(N_("Scala 40 in pairs takes no new player: a substitute may take "
                               "the seat."))

    def between(self, after: int) -> None:
        """Apply the changes of players recorded after deal ``after``."""
        applied = self.table.between(after, finished=self.finished, refuse=self.refuse,
                                     entry=self.reentry_total, in_game=self.in_game)
        for change in applied:
            if change.kind is Kind.JOIN:
                self.columns += ((change.seat,),)
                self.column_of[change.seat] = len(self.totals)
                self.totals.append(self.table.entries[change.seat] or 0)
                self.reentries.append(0)
            elif change.kind is Kind.LEAVE:
                column = self.column_of[change.seat]
                if self.opts["pairs"]:
                    self.left_pair = column  # a partner takes the pair out (case 18)
                if self.elimination and column not in self.out:
                    self.out[column] = after  # ranked as out at that deal (case 17)

    def score(self, penalties: list[int | None], number: int, dealt: Sequence[int]) -> tuple[
            tuple[int | None, ...], set[int]]:
        """Add a deal's penalties per column; the points per column and the seats put out."""
        points: list[int | None] = []
        for column, seats in enumerate(self.columns):
            if column in self.out or not any(s in dealt for s in seats):
                points.append(None)
            else:
                paid = sum(penalties[s] or 0 for s in seats)
                points.append(paid)
                self.totals[column] += paid
        self.scored += 1
        gone: set[int] = set()
        for column in self.columns_in if self.elimination else ():
            if self.totals[column] >= self.opts["threshold"]:
                self.out[column] = number
                gone.update(self.columns[column])
                self.events += [{"deal": number, "seat": s, "event": "out",
                                 "total": self.totals[column]} for s in self.columns[column]]
        return tuple(points), gone

    def places(self) -> tuple[int, ...]:
        """Lowest total first; a column out ranks after those in, later outs first; a leaver
        of a fixed number of deals after those still playing, a pair that left last."""
        if self.left_pair is not None:
            keys: list[Any] = [(c == self.left_pair, t) for c, t in enumerate(self.totals)]
        elif not self.elimination:
            if not self.opts["pairs"]:
                return self.table.places(self.totals)
            return places(self.totals, higher_wins=False)
        else:
            keys = [(1, -self.out[c], t) if c in self.out else (0, 0, t)
                    for c, t in enumerate(self.totals)]
        return tuple(1 + sum(other < key for other in keys) for key in keys)


def _notes(players: int, closer: int, in_hand: bool, never: set[int], gone: set[int],
           back: set[int]) -> tuple[Note | str, ...]:
    def note(seat: int) -> Note | str:
        if seat == closer:
            return CLOSED_IN_HAND if in_hand else CLOSED
        if seat in never:
            return DID_NOT_OPEN
        return OUT if seat in gone else REENTERED if seat in back else ""
    return tuple(note(seat) for seat in range(players))


def _annulled(hand: Mapping[str, Any], number: int) -> bool:
    """Whether the deal was annulled by stalemate; if so it carries no closer, flags or points."""
    flag = hand.get("annulled")
    if isinstance(flag, str):
        flag = FLAG_WORDS.get(flag.strip().lower(), flag.strip() == "1")
    if not flag:
        return False
    points = hand.get("points") or ()
    if (hand.get("closer") not in (None, "") or hand.get("never_opened")
            or hand.get("closed_in_hand") or any(p not in (None, "") for p in points)):
        raise RuleError(N_("Deal %(number)s is annulled: it has no closer and no points."),
                        number=number)
    return True


def build_sheet(players: int, hands: Sequence[Mapping[str, Any]], *, first_dealer: int = 0,
                roster: Sequence[Mapping[str, Any]] = (), tournament: bool = False,
                **options: Any) -> Sheet:
    """The sheet of a match from its deals' inputs, in order.

    A scored deal is ``{"closer": seat, "points": [one entry per seat],
    "never_opened": [seats], "closed_in_hand": bool, "reentries": [seats]}``. An
    entry is a total, a sum or the cards left in hand (see :func:`entry_points`);
    the closer's, the closer's partner's (with pairs) and never-opened players' may
    be None, and a seat out of the match must have None; ``never_opened`` is as in
    :func:`score_deal`. ``closed_in_hand`` is a flag on the deal: the closer closed in
    hand (the closer's seat number is accepted too). ``reentries`` lists the seats
    that re-enter before this deal (they then play it); only a seat put out in the deal
    just before may re-enter, so a player who lets that moment pass stays out. A deal
    annulled by stalemate is ``{"annulled": True}`` (``"reentries"`` allowed). Row.inputs
    keep the raw deal and add ``"penalties"`` per seat.

    ``roster`` lists the changes of players (:mod:`scorekeeper.rules.roster`): a joiner
    starts with the highest total of the players still in and ``points`` then has one
    entry per seat of the table (None for a seat out or gone); a leaver is out from the
    next deal. Nobody sits out and pairs take no joiner; ``tournament`` refuses joins.

    >>> sheet = build_sheet(3, [{"closer": 0, "points": [None, "A K", 110]},
    ...                         {"closer": 1, "points": [40, 0, None]}])
    >>> sheet.totals, sheet.status.eliminated, sheet.next.dealer, sheet.next.seats
    ((40, 21, 110), [2], 0, (0, 1))

    ``status.to_go`` holds the points each column may still take before it is out
    (None once out, or without elimination), ``status.out_in`` the deal that put it out:

    >>> sheet.status.to_go, sheet.status.out_in
    ([61, 80, None], [None, None, 1])
    """
    opts = _clean_options(players, options)
    table = Table("Scala 40", players, check_seat(first_dealer, players, N_("first dealer")),
                  roster, maximum=MAX_PLAYERS, tournament=tournament,
                  goes_on=not opts["pairs"])  # alone, a tournament plays on without a leaver
    match = _Match(players, opts, table)
    rows: list[Row] = []
    for index, hand in enumerate(hands):
        number = index + 1
        match.between(index)
        if match.finished:
            raise RuleError(N_("The match is over: deal %(number)s cannot be entered."),
                            number=number)
        dealer = table.deal(table.dealt_in(match.in_game))
        back = match.reenter(hand.get("reentries"), number)
        dealt = table.dealt_in(match.in_game)
        events = (REENTRY,) if back else ()
        if _annulled(hand, number):
            rows.append(Row(number, dealer, dict(hand), (None,) * len(match.columns),
                            tuple(match.totals), annulled=True, events=(ANNULLED, *events)))
        else:
            raw = list(hand.get("points") or ())
            check_length(raw, table.seats, N_("points entry"))
            penalties, closer, never, in_hand = _penalties(
                raw, hand.get("closer"), hand.get("never_opened"), hand.get("closed_in_hand"),
                doubles=opts["in_hand_doubles"], playing=set(dealt),
                columns=match.columns)
            points, gone = match.score(penalties, number, dealt)
            events += ((DOUBLED,) if in_hand and opts["in_hand_doubles"] else ()) + (
                (ELIMINATION,) if gone else ())
            rows.append(Row(number, dealer, {**hand, "penalties": penalties}, points,
                            tuple(match.totals), _notes(table.seats, closer, in_hand, never,
                                                        gone, back), events=events))
        table.played(dealt)
    match.between(len(rows))
    table.check_done(len(rows))
    return _sheet(players, opts, match, rows, len(hands) + 1)


def uncounted(columns: Sequence[Sequence[int]], closer: Any,
              never_opened: Iterable[Any]) -> set[Any]:
    """The seats whose cards do not count in a deal: never-opened players pay the flat
    penalty and the closer's partner (with pairs) pays nothing, whatever they hold.

    >>> sorted(uncounted([(0, 2), (1, 3)], 0, [3]))
    [2, 3]
    """
    partners = next((set(c) - {closer} for c in columns if closer in c), set())
    return set(never_opened) | partners


def deal_players(offered: Next, reentries: Iterable[Any]) -> tuple[list[int], list[int]]:
    """Who plays the deal ``offered`` and who re-enters before it, given the re-entries
    ticked: the seats still in, plus every ticked seat the sheet offers a re-entry to.

    >>> offer = Next(4, 0, (0, 2), NextHand([0, 2], [{"seat": 1, "total": 90}], 101, True,
    ...                                     False))
    >>> deal_players(offer, [1, 3])
    ([0, 1, 2], [1])
    """
    may = {offer["seat"] for offer in offered.info.may_reenter}
    back = [seat for seat in reentries if seat in may]
    return sorted(set(offered.seats) | set(back)), back


def _sheet(players: int, opts: dict[str, Any], match: _Match, rows: list[Row],
           number: int) -> Sheet:
    ranks = match.places()
    finished = match.finished
    table = match.table
    may_reenter = match.may_reenter(number)
    threshold = opts["threshold"] if match.elimination else None
    seats_in = match.seats_in
    dealt = table.dealt_in(match.in_game)
    return Sheet(
        game="scala40", players=players, options=opts, columns=match.columns,
        rows=table.rows(rows, len(match.columns)),
        totals=tuple(match.totals), places=ranks, finished=finished,
        winners=tuple(c for c, r in enumerate(ranks) if r == 1) if finished else (),
        next=None if finished or table.waiting(match.in_game) else Next(
            number, table.next_dealer(dealt), tuple(seats_in), NextHand(
                seats_in=seats_in, may_reenter=may_reenter, threshold=threshold,
                in_hand_doubles=opts["in_hand_doubles"], pairs=opts["pairs"],
            )),
        status=MatchStatus(
            end=opts["end"], threshold=threshold,
            deals=None if match.elimination else opts["deals"],
            played=match.scored, annulled=sum(r.annulled for r in rows),
            seats_in=seats_in,
            eliminated=[s for s in range(table.seats) if s not in seats_in],
            reentries=[match.reentries[match.column_of[s]] for s in range(table.seats)],
            reentry_limit=opts["reentry_limit"] if opts["reentry"] else None,
            may_reenter=may_reenter, events=match.events,
            to_go=[None if threshold is None or c in match.out else threshold - t
                   for c, t in enumerate(match.totals)],
            out_in=[match.out.get(c) for c in range(len(match.columns))],
            left_after=[min((table.left[s] for s in seats if s in table.left), default=None)
                        for seats in match.columns] if table.left else None,
        ),
        roster=table.roster(match.in_game),
    )


@dataclass(frozen=True)
class MatchStatus(Status):
    """A Scala 40 sheet beyond its rows: how the match ends (elimination at ``threshold``,
    or after ``deals``), the deals played and annulled, who is still in and who is out,
    each player's re-entries and their limit, who may re-enter now, what happened deal by
    deal (``events``), the points each column may still take (``to_go``) and the deal that
    put it out (``out_in``)."""

    end: str
    threshold: int | None
    deals: int | None
    played: int
    annulled: int
    seats_in: list[int]
    eliminated: list[int]
    reentries: list[int]
    reentry_limit: int | None
    may_reenter: list[dict[str, int]]
    events: list[dict[str, Any]]
    to_go: list[int | None]
    out_in: list[int | None]
    left_after: list[int | None] | None = optional()

    def place_reason(self, column: int) -> tuple[str, dict[str, Any]] | None:
        """A player out is ranked by the deal that put them out, a leaver by the deal they
        left after.

        >>> status = build_sheet(3, [{"closer": 0, "points": [None, 5, 9]}],
        ...                      roster=[{"after": 1, "kind": "leave", "seat": 2}]).status
        >>> status.place_reason(2), status.place_reason(1)
        (('left after deal %(n)s', {'n': 1}), None)
        """
        if self.left_after and self.left_after[column] is not None:
            return N_("left after deal %(n)s"), {"n": self.left_after[column]}
        deal = self.out_in[column]
        return None if not deal else (N_("out in deal %(n)s"), {"n": deal})


@dataclass(frozen=True)
class NextHand(Details):
    """The deal being entered: who is still in, who may re-enter before it, the threshold,
    whether closing in hand doubles the penalties, and whether partners play in pairs."""

    seats_in: list[int]
    may_reenter: list[dict[str, int]]
    threshold: int | None
    in_hand_doubles: bool
    pairs: bool


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per seat: eliminations, closures, closures in hand, never-opened penalties, re-entries.

    >>> sheet = build_sheet(3, [{"closer": 1, "points": ["A", None, "* K"],
    ...                          "never_opened": [2], "closed_in_hand": True}])
    >>> [c["closed_in_hand"] for c in counts(sheet)], counts(sheet)[2]["never_opened"]
    ([0, 1, 0], 1)
    """
    out = tuple({"out": 0, "closed": 0, "closed_in_hand": 0, "never_opened": 0, "reentry": 0}
                for _seat in range(len(sheet.roster.states) or sheet.players))
    notes = {CLOSED: ("closed",), CLOSED_IN_HAND: ("closed", "closed_in_hand"),
             DID_NOT_OPEN: ("never_opened",)}
    for row in sheet.rows:
        for seat, note in enumerate(row.notes):
            for key in notes.get(note, ()):
                out[seat][key] += 1
    for event in sheet.status.events:
        out[event["seat"]][event["event"]] += 1
    return out


FIGURES = (
    Figure("out", N_("Eliminations"), of="out",
           help=N_("Times the player's penalties reached the threshold and put them out.")),
    Figure("closed", N_("Closures"), of="closed",
           help=N_("Deals the player closed, laying down their last card.")),
    Figure("closed_in_hand", N_("Closures in hand"), of="closed_in_hand",
           help=N_("Closures with every card laid down in one turn, without opening before: "
                   "the others' penalties double.")),
    Figure("never_opened", N_("Never-opened penalties"), of="never_opened",
           help=N_("Deals the player ended without having opened, paying a flat 100.")),
    Figure("reentry", N_("Re-entries"), of="reentry",
           help=N_("Times the player came back into the match after being out.")),
)


GAME = Game(
    key="scala40", name="Scala 40", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    figures=FIGURES, counts=counts, lower_wins=True,
    options=OPTIONS, clockwise=True, build_sheet=build_sheet,
    # The pairs option: two pairs at a table of 4; a tournament plays 6 deals (TOURNAMENTS.md).
    tournament=TournamentTables(pairs=(2,), options=(("end", "deals"), ("deals", 6)),
                                pair_options=(("pairs", True),)),
    saved=N_("Deal %(n)s saved."),
    saved_elsewhere=N_("Another phone saved deal %(n)s: this is the sheet now."),
    correct=N_("Correct deal %(n)s"),
)
