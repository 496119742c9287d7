"""Navawhist: bids and tricks over a fixed table of hands (docs/rules.md#navawhist)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import suit_symbol
from .core import (
    N_,
    Nn_,
    Note,
    RuleError,
    check_count,
    check_length,
    check_seat,
)
from .roster import Table, gather, on_seats, spread
from .sheet import ENTRY, Details, Figure, Game, Next, Option, Row, Sheet, Status

MIN_PLAYERS, MAX_PLAYERS = 2, 10

# The official table of hands: cards dealt to each player, hand by hand.
SCHEDULES: dict[int, tuple[int, ...]] = {
    2: (2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14, 15, 15, 15, 15),
    3: tuple(range(1, 17)) + (16, 16),
    4: tuple(range(1, 13)) + (12,) * 4,
    5: tuple(range(1, 11)) + (10,) * 5,
    6: tuple(range(1, 9)) + (8,) * 10,
    7: tuple(range(1, 8)) + (7,) * 7,
    8: tuple(range(1, 7)) + (6,) * 10,
    9: tuple(range(1, 6)) + (5,) * 13,
    10: tuple(range(1, 6)) + (5,) * 15,
}

HAND_KEYS = frozenset({"bids", "tricks", "trump"})
EXACT = Note.EXACT
OFF_BY_ONE = Note.OFF_BY_ONE
OFF_BY_MORE = Note.OFF_BY_MORE
# Case 4: the closest score, the others get 0; both count as a case-4 hand.
CASE_4_CLOSEST = Note.ALL_MISSED_CLOSEST
CASE_4_OTHER = Note.ALL_MISSED
CASE_4 = (CASE_4_CLOSEST, CASE_4_OTHER)


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(N_("Navawhist is played by 2 to 10 players, not %(players)s."),
                        players=players)


def deck_size(players: int) -> int:
    """Cards in the deck: 40 for two players (no 8, 9, 10), 52 for 3 to 10.

    >>> deck_size(2), deck_size(7)
    (40, 52)
    """
    _check_players(players)
    return 40 if players == 2 else 52


def deal_schedule(players: int) -> list[int]:
    """Cards dealt to each player, hand by hand.

    >>> deal_schedule(5)
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10, 10]
    """
    _check_players(players)
    return list(SCHEDULES[players])


def bidding_order(players: int, dealer: int) -> list[int]:
    """Seats in the order they bid: the seat after the dealer first, the dealer last.

    >>> bidding_order(4, 1)
    [2, 3, 0, 1]
    """
    _check_players(players)
    return [(dealer + 1 + i) % players for i in range(players)]


def forbidden_bid(cards: int, other_bids: Sequence[int]) -> int | None:
    """The bid the dealer may not make: the one that makes the bids add up to ``cards``.

    >>> forbidden_bid(5, [0, 0])
    5
    >>> forbidden_bid(5, [3, 4]) is None
    True
    """
    rest = cards - sum(other_bids)
    return rest if 0 <= rest <= cards else None


def bids_against_cards(cards: int, bids: Sequence[Any]) -> tuple[int, int]:
    """The bids made so far added up, and how far they are from the cards dealt
    (negative: under, positive: over).

    >>> bids_against_cards(6, [2, None, 3, 0])
    (5, -1)
    >>> bids_against_cards(3, [2, 2, None])
    (4, 1)
    """
    total = sum(b for b in bids if b is not None)
    return total, total - cards


def tricks_left(cards: int, tricks: Sequence[Any]) -> int:
    """Tricks still to assign once the whole numbers among ``tricks`` are counted.

    A number too long to be a count of tricks (the form may hold anything) counts none: the
    rules refuse it when the hand is saved.

    >>> tricks_left(5, [2, None, "1"]), tricks_left(5, [2, "9" * 5000])
    (2, 3)
    """
    given = [int(t) for t in tricks if isinstance(t, int)
             or str(t).strip().isdecimal() and len(str(t).strip()) <= 9]
    return cards - sum(given)


def complete_tricks(cards: int, tricks: Sequence[Any]) -> list[Any]:
    """Fill in what follows from the others: the last player left takes the tricks left,
    and once every trick is assigned the players left took none.

    >>> complete_tricks(5, [2, None, 3])
    [2, 0, 3]
    >>> complete_tricks(5, [2, None, 1])
    [2, 2, 1]
    >>> complete_tricks(5, [2, None, None])
    [2, None, None]
    """
    left = tricks_left(cards, tricks)
    missing = [i for i, t in enumerate(tricks) if t is None]
    filled = list(tricks)
    if left == 0 or (len(missing) == 1 and left > 0):
        for i in missing:
            filled[i] = left if len(missing) == 1 else 0
    return filled


def _check_hand(cards: int, bids: Sequence[Any], tricks: Sequence[Any]) -> tuple[list[int], ...]:
    if len(bids) != len(tricks):
        raise RuleError(N_("Give as many tricks as bids (bids: %(bids)s, tricks: %(tricks)s)."),
                        bids=len(bids), tricks=len(tricks))
    bids = [check_count(b, 0, cards, seat=s, what=N_("bid")) for s, b in enumerate(bids)]
    tricks = [check_count(t, 0, cards, seat=s, what=N_("tricks")) for s, t in enumerate(tricks)]
    if sum(tricks) != cards:
        raise RuleError(*Nn_("The tricks add up to %(total)s; they must add up to the %(cards)s "
                             "card dealt.",
                             "The tricks add up to %(total)s; they must add up to the %(cards)s "
                             "cards dealt."), count="cards", total=sum(tricks), cards=cards)
    return bids, tricks


def score_cases(cards: int, bids: Sequence[int],
                tricks: Sequence[int]) -> tuple[list[int], list[Note]]:
    """Points and the case that gave them, per seat (no check of the dealer's restriction).

    >>> points, cases = score_cases(5, [0, 0, 4], [3, 2, 0])
    >>> points, [case.value for case in cases]
    ([0, 3, 0], ['all_missed', 'all_missed_closest', 'all_missed'])
    """
    bids, tricks = _check_hand(cards, bids, tricks)
    errors = [abs(t - b) for b, t in zip(bids, tricks, strict=True)]
    if all(e >= 2 for e in errors):
        best = min(errors)
        return [cards - e if e == best else 0 for e in errors], \
            [CASE_4_CLOSEST if e == best else CASE_4_OTHER for e in errors]
    points, cases = [], []
    for bid, error in zip(bids, errors, strict=True):
        if error == 0:
            points.append(cards + bid)
            cases.append(EXACT)
        elif error == 1:
            points.append(0)
            cases.append(OFF_BY_ONE)
        else:
            points.append(-(cards + error))
            cases.append(OFF_BY_MORE)
    return points, cases


def score_hand(cards: int, bids: Sequence[int], tricks: Sequence[int], *,
               hook: bool = True) -> list[int]:
    """Each seat's points for one hand of ``cards`` cards each.

    With ``hook`` on, bids that add up to ``cards`` are refused (the dealer's restriction).

    >>> score_hand(5, [3, 1], [3, 2])
    [8, 0]
    >>> score_hand(5, [3, 1, 0], [1, 1, 3])
    [-7, 6, -8]
    >>> score_hand(5, [3, 1], [1, 4])
    [3, 0]
    >>> score_hand(4, [0, 0], [2, 2])
    [2, 2]
    >>> score_hand(3, [0, 3, 3], [3, 0, 0])
    [0, 0, 0]
    """
    checked, _tricks = _check_hand(cards, bids, tricks)
    if hook and checked and sum(checked) == cards:
        raise RuleError(*Nn_("The bids add up to the %(cards)s card dealt, which the dealer's "
                             "restriction forbids.",
                             "The bids add up to the %(cards)s cards dealt, which the dealer's "
                             "restriction forbids."), count="cards", cards=cards)
    return score_cases(cards, bids, tricks)[0]


def _check_bids(cards: int, order: list[int], bids: Sequence[Any], hook: bool) -> list[int | None]:
    """The bids made so far, in bidding order, each checked; None for those still to come."""
    checked: list[int | None] = [None] * len(bids)
    for position, seat in enumerate(order):
        if bids[seat] is None:
            if any(bids[s] is not None for s in order[position:]):
                raise RuleError(N_("%(player)s bids before the players after them."), seat=seat)
            break
        checked[seat] = check_count(bids[seat], 0, cards, seat=seat, what=N_("bid"))
        if hook and position == len(order) - 1:
            forbidden = forbidden_bid(cards, [checked[s] for s in order[:-1]])
            if checked[seat] == forbidden:
                raise RuleError(*Nn_("%(player)s deals and may not bid %(bid)s: the bids would "
                                     "add up to the %(cards)s card dealt.",
                                     "%(player)s deals and may not bid %(bid)s: the bids would "
                                     "add up to the %(cards)s cards dealt."),
                                count="cards", seat=seat, bid=forbidden, cards=cards)
    return checked


def build_sheet(players: int, hands: Sequence[Mapping[str, Any]], *, first_dealer: int = 0,
                hook: bool = True, roster: Sequence[Mapping[str, Any]] = (),
                tournament: bool = False, entry: str | None = None) -> Sheet:
    """The sheet of a match from its hands' inputs, in order.

    Each hand is ``{"bids": [...], "tricks": [...] or None, "trump": suit or None}``
    with one entry per seat; bids still to come are None. Only the last hand may be
    unfinished: it becomes ``next``, with the next bidder and the forbidden bid.

    ``roster`` lists the changes of players (:mod:`scorekeeper.rules.roster`): a hand then
    has one bid and one trick count per seat of the table at that hand (joiners' seats after
    the first ones), None for a seat not dealt in; its cards are capped at what the deck
    gives the players dealt in, and the bidding, the hook and case 4 count only them.
    ``entry`` is ``"lowest"`` (a joiner starts with the lowest total of the players still
    playing, the default) or ``"zero"``; ``tournament`` refuses joins and sit-outs.

    >>> sheet = build_sheet(2, [{"bids": [1, 0], "tricks": [1, 1]}])
    >>> sheet.totals, sheet.next.number, sheet.next.info.cards
    ((3, 0), 2, 2)
    """
    deal_schedule(players)
    first_dealer = check_seat(first_dealer, players, N_("first dealer"))
    table = Table("Navawhist", players, first_dealer, roster, maximum=MAX_PLAYERS,
                  tournament=tournament, entry=entry)
    totals = [0] * players
    rows: list[Row] = []
    pending: dict[str, Any] | None = None

    def between(after: int, length: int) -> bool:
        table.between(after, finished=table.over() or after == length,
                      entry=lambda: min(totals[s] for s in table.playing()))
        totals.extend(table.entries[len(totals):])  # type: ignore[arg-type]
        return table.over() or after == length

    between(0, -1)
    # The table of hands of the first hand stays (decided case 12).
    count = min(max(len(table.playing()), MIN_PLAYERS), MAX_PLAYERS)
    schedule = deal_schedule(count)
    if len(hands) > len(schedule):
        raise RuleError(N_("A Navawhist match of %(players)s players has %(hands)s hands."),
                        players=count, hands=len(schedule))
    for index, hand in enumerate(hands):
        if between(index, len(schedule)):
            raise RuleError(N_("The match is over: hand %(number)s comes after its end."),
                            number=index + 1)
        table.check_dealt(index + 1)
        dealt = table.dealt_in()
        dealer = table.deal(dealt)
        cards = _cards(schedule[index], count, table, dealt)
        order = _order(dealt, dealer)
        if not isinstance(hand.get("bids") or [], list) or set(hand) - HAND_KEYS:
            raise RuleError(N_("Hand %(number)s is not a Navawhist hand."), number=index + 1)
        bids = list(hand.get("bids") or [None] * table.seats)
        check_length(bids, table.seats, N_("bid"))
        gather(bids, dealt, table.seats, N_("bid"))
        tricks = hand.get("tricks")
        trump = suit_symbol(hand["trump"]) if hand.get("trump") else None
        checked = _check_bids(cards, order, bids, hook)
        if tricks is None:
            if index != len(hands) - 1:
                raise RuleError(N_("Hand %(number)s has no tricks."), number=index + 1)
            pending = {"cards": cards, "bids": checked, "trump": trump, "order": order,
                       "dealer": dealer, "dealt": dealt}
            break
        if any(checked[s] is None for s in dealt):
            raise RuleError(N_("Hand %(number)s has tricks before every bid."), number=index + 1)
        check_length(tricks, table.seats, N_("tricks"))
        taken = gather(tricks, dealt, table.seats, N_("tricks"))
        scores, cases = on_seats(dealt, score_cases, cards, [checked[s] for s in dealt], taken)
        for seat, score in zip(dealt, scores, strict=True):
            totals[seat] += score
        table.played(dealt)
        inputs = {"bids": checked, "tricks": list(spread([int(t) for t in taken], dealt,
                                                         table.seats)),
                  "trump": trump, "cards": cards}
        rows.append(Row(index + 1, dealer, inputs, spread(scores, dealt, table.seats),
                        tuple(totals), spread(cases, dealt, table.seats, "")))
    finished = pending is None and between(len(rows), len(schedule))
    table.check_done(len(rows))
    dealt = pending["dealt"] if pending else table.dealt_in()
    ranks = table.places([-t for t in totals])
    left = 0 if finished else len(schedule) - len(rows) - bool(pending)
    dealers = [r.dealer for r in rows] + ([pending["dealer"]] if pending else []) + (
        table.projected(dealt, left))
    return Sheet(
        game="navawhist", players=players, options={"hook": hook},
        columns=tuple((s,) for s in range(table.seats)), rows=table.rows(rows, table.seats),
        totals=tuple(totals), places=ranks, finished=finished,
        winners=tuple(s for s in range(table.seats) if ranks[s] == 1) if finished else (),
        next=None if finished or table.waiting() else _next(
            len(rows), _cards(schedule[len(rows)], count, table, dealt),
            pending["dealer"] if pending else table.next_dealer(dealt), dealt, table.seats,
            hook, pending),
        status=MatchStatus(len(schedule), len(rows), [
            r.inputs["cards"] for r in rows] + [_cards(c, count, table, dealt)
                                                for c in schedule[len(rows):]], dealers),
        roster=table.roster(),
    )


def _cards(scheduled: int, count: int, table: Table, dealt: Sequence[int]) -> int:
    """The cards of a hand: the table's, capped at what the deck gives the players dealt in
    (decided case 11); the 40-card deck only in a match of 2 that nobody joined (case 10)."""
    joined = any(after > 0 for after in table.joined_after.values())
    deck = 40 if count == 2 and not joined else 52
    return min(scheduled, deck // max(len(dealt), 1))


def _order(dealt: Sequence[int], dealer: int) -> list[int]:
    """The seats dealt in, in the order they bid: from the one after the dealer, the dealer
    last (decided case 13)."""
    position = dealt.index(dealer) + 1
    return [*dealt[position:], *dealt[:position]]


@dataclass(frozen=True)
class MatchStatus(Status):
    """A Navawhist sheet beyond its rows: the hands of the table and how many are played,
    the cards of each hand (``schedule``) and who deals it."""

    hands: int
    played: int
    schedule: list[int]
    dealers: list[int]

    @property
    def hands_in_all(self) -> int:
        """The table of hands fixes the match's length."""
        return self.hands


@dataclass(frozen=True)
class NextHand(Details):
    """The hand being entered: its cards, the bidding order and the bids so far, who bids
    next (None once every bid is in: the tricks' ``phase``), what the dealer may not bid,
    the bids' total against the cards, and the bids that may still change."""

    cards: int
    order: list[int]
    bids: list[int | None]
    bidder: int | None
    forbidden: int | None
    trump: str | None
    phase: str
    bid_total: int
    bids_off: int
    changeable: list[int]


def _next(index: int, cards: int, dealer: int, dealt: list[int], seats: int, hook: bool,
          pending: dict[str, Any] | None) -> Next:
    """The hand being entered: bids so far, who bids next and what the dealer may not bid."""
    order = _order(dealt, dealer)
    bids = pending["bids"] if pending else [None] * seats
    bidder = next((s for s in order if bids[s] is None), None)
    forbidden = None
    if hook and bidder == dealer:
        forbidden = forbidden_bid(cards, [bids[s] for s in order[:-1]])
    bid_total, bids_off = bids_against_cards(cards, bids)
    # While bidding goes on, a bid already made may still be changed.
    changeable = [s for s in order if bids[s] is not None] if bidder is not None else []
    return Next(index + 1, dealer, tuple(dealt), NextHand(
        cards=cards, order=order, bids=bids, bidder=bidder, forbidden=forbidden,
        trump=pending["trump"] if pending else None,
        phase="bids" if bidder is not None else "tricks",
        bid_total=bid_total, bids_off=bids_off, changeable=changeable,
    ))


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per seat: hands played, exact bids, the sum of bid errors, case-4 hands, and the hands
    dealt with a forbidden bid (the dealer's restriction in force and a bid in range).

    >>> sheet = build_sheet(2, [{"bids": [2, 1], "tricks": [2, 0]}])
    >>> counts(sheet)[0]["exact"], counts(sheet)[1]["error"], counts(sheet)[0]["forbidden"]
    (1, 1, 1)
    """
    out = tuple({"hands": 0, "exact": 0, "error": 0, "case4": 0, "forbidden": 0}
                for _seat in sheet.columns)
    for row in sheet.rows:
        bids, tricks, cards = row.inputs["bids"], row.inputs["tricks"], row.inputs["cards"]
        for seat, (bid, taken) in enumerate(zip(bids, tricks, strict=True)):
            if bid is None:  # not dealt in
                continue
            out[seat]["hands"] += 1
            out[seat]["exact"] += bid == taken
            out[seat]["error"] += abs(bid - taken)
            out[seat]["case4"] += row.notes[seat] in CASE_4
        others = [b for seat, b in enumerate(bids) if seat != row.dealer and b is not None]
        if sheet.options.get("hook") and forbidden_bid(cards, others) is not None:
            out[row.dealer]["forbidden"] += 1
    return out


FIGURES = (
    Figure("exact", N_("Exact bids"), of="exact", per="hands", percent=True,
           help=N_("The share of hands in which the tricks taken were exactly the bid.")),
    Figure("error", N_("Average bid error"), of="error", per="hands",
           help=N_("How many tricks a bid was off by, on average: 0 is always exact.")),
    # case 4 of docs/rules.md#navawhist-scoring-a-hand, said as what happened at the table
    Figure("case4", N_("Hands everybody missed"), of="case4",
           help=N_("Hands in which every player missed their bid by two tricks or more: only "
                   "the nearest scored.")),
    Figure("forbidden", N_("Forbidden bids met as dealer"), of="forbidden",
           help=N_("Hands dealt with one bid forbidden to the dealer, the one that would make "
                   "the bids add up to the cards dealt.")),
)


GAME = Game(
    key="navawhist", name="Navawhist", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    figures=FIGURES, counts=counts,
    options=(Option("hook", N_("Dealer's restriction (the hook)"), "bool", True,
                    help=N_("The dealer may not bid the number that makes the bids add up "
                            "to the cards dealt.")), ENTRY),
    clockwise=False, build_sheet=build_sheet,
)
