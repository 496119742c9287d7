"""Forty-Five: five tricks a hand, 5 points a trick, 10 for the bonus (docs/rules.md#forty-five).

Cards rank in an unusual order: the 5 of trumps is the best card, then the Jack of
trumps, then the A♥ (a trump whatever the trump suit), and red and black suits run
in opposite directions. The trick helper only ever sees cards that were played: a
robbed Ace or the dealer's discard is never "played", so it needs no special case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, Card, parse_cards, suit_symbol
from .core import N_, Event, RuleError, check_count, check_seat, places
from .roster import Change, Kind, Table, gather, on_seats, spread
from .sheet import (
    ENTRY,
    Details,
    Figure,
    Game,
    Next,
    Option,
    Row,
    Sheet,
    Status,
    TournamentTables,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 6
TRICKS = 5
TRICK_POINTS, BONUS_POINTS = 5, 10
ACE_OF_HEARTS = Card("A", "♥")
RED = ("♥", "♦")

# Trumps after 5, J, A♥ (and the trump Ace), K, Q: the small cards of a red or black suit.
RED_TRUMP_TAIL = ("10", "9", "8", "7", "6", "4", "3", "2")
BLACK_TRUMP_TAIL = ("2", "3", "4", "6", "7", "8", "9", "10")
# Suits that are not trump, high to low: red runs high to low with a low Ace (the A♥ is
# always a trump), black runs low to high after K Q J A.
RED_OFF = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
BLACK_OFF = ("K", "Q", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")

TARGETS = (45, 120, 125)
TARGET = Option("target", N_("Target"), "choice", 45, choices=TARGETS,
                help=N_("The first side at or above this total at the end of a hand wins."))
JINK = Option("jink", N_("Jink"), "bool", False,
              help=N_("A side that takes all five tricks in a hand wins at once."))
THREE_PAIRS = Option("three_pairs", N_("Three pairs"), "bool", False, players=(6,),
                     help=N_("Six players play in three pairs (the 1st player with the 4th, "
                             "the 2nd with the 5th, the 3rd with the 6th) instead of three "
                             "against three."))

NO_TRUMP = Event.NO_TRUMP
ALL_FIVE = Event.ALL_FIVE
TIE_AT_TOP = Event.TIE_AT_TOP


def _trumps(trump: str) -> list[Card]:
    top = [Card("5", trump), Card("J", trump), ACE_OF_HEARTS]
    if trump != "♥":
        top.append(Card("A", trump))
    tail = RED_TRUMP_TAIL if trump in RED else BLACK_TRUMP_TAIL
    return top + [Card(rank, trump) for rank in ("K", "Q") + tail]


def _off_suit(suit: str) -> list[Card]:
    ranks = RED_OFF if suit in RED else BLACK_OFF
    return [Card(rank, suit) for rank in ranks if Card(rank, suit) != ACE_OF_HEARTS]


def rank_table(trump: str) -> dict[str, list[str]]:
    """The order of every card, high to low, for a trump suit: the sheet's printed table.

    ``"trumps"`` comes first, then each other suit (in ♠ ♥ ♦ ♣ order) as cards.

    >>> table = rank_table("D")
    >>> " ".join(table["trumps"])
    '5♦ J♦ A♥ A♦ K♦ Q♦ 10♦ 9♦ 8♦ 7♦ 6♦ 4♦ 3♦ 2♦'
    >>> " ".join(table["♥"])
    'K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥'
    >>> " ".join(table["♣"])
    'K♣ Q♣ J♣ A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣'
    """
    trump = suit_symbol(trump)
    table = {"trumps": [str(c) for c in _trumps(trump)]}
    table.update({s: [str(c) for c in _off_suit(s)] for s in SUITS if s != trump})
    return table


def _card(card: Card | str) -> Card:
    card = parse_cards([card])[0]
    if card.suit is None:
        raise RuleError(N_("The card %(card)s has no suit."), card=str(card))
    return card


def _check_distinct(tricks: Sequence[Sequence[Card]]) -> None:
    seen: set[Card] = set()
    for trick in tricks:
        for card in trick:
            if card in seen:
                raise RuleError(N_("The card %(card)s is played twice."), card=str(card))
            seen.add(card)


def _cards(cards: str | Iterable[Card | str]) -> list[Card]:
    checked = [_card(c) for c in parse_cards(cards)]
    _check_distinct([checked])
    return checked


def trump_rank(trump: str, card: Card | str) -> int | None:
    """A trump's place among the trumps (1 is the best, the 5), or None for a non-trump.

    >>> trump_rank("S", "5S"), trump_rank("S", "AH"), trump_rank("S", "10S"), trump_rank("S", "KD")
    (1, 3, 14, None)
    """
    card, trump = _card(card), suit_symbol(trump)
    trumps = _trumps(trump)
    return trumps.index(card) + 1 if card in trumps else None


def _strength(trump: str, led: str, card: Card) -> tuple[int, int]:
    """A sort key: trumps beat the led suit, which beats the other suits."""
    trumps = _trumps(trump)
    if card in trumps:
        return 2, -trumps.index(card)
    if card.suit == led:
        return 1, -_off_suit(led).index(card)
    return 0, 0


def trick_winner(trump: str, cards: str | Iterable[Card | str]) -> int:
    """The index of the card that wins a trick; ``cards[0]`` was led.

    The highest trump wins; with no trump, the highest card of the led suit.

    >>> trick_winner("H", "KH 5H JD")
    1
    >>> trick_winner("C", "2D AD KS")
    0
    >>> trick_winner("S", "3C 2C AC")
    2
    """
    trump = suit_symbol(trump)
    played = _cards(cards)
    if not played:
        raise RuleError(N_("A trick needs at least one card."))
    led = played[0].suit or ""
    keys = [_strength(trump, led, c) for c in played]
    return keys.index(max(keys))


def best_trump(trump: str, tricks: Sequence[str | Iterable[Card | str]]) -> tuple[int, Card] | None:
    """The best trump played in a hand: the bonus trick's index and the card, or None.

    >>> best_trump("D", ["KD 2C 3C", "AH 5C 6C"])
    (1, Card(rank='A', suit='♥'))
    >>> best_trump("D", ["KS 2C 3C"]) is None
    True
    """
    trump = suit_symbol(trump)
    played = [_cards(trick) for trick in tricks]
    _check_distinct(played)
    best: tuple[int, int, Card] | None = None
    for index, trick in enumerate(played):
        for card in trick:
            rank = trump_rank(trump, card)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, index, card)
    return None if best is None else (best[1], best[2])


@dataclass(frozen=True)
class Trick:
    """A trick of a hand being played: (seat, card) in play order, its winner once complete."""

    number: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None


@dataclass(frozen=True)
class BestTrump:
    """The best trump played so far: the card, who played it, in which trick, who took it."""

    card: str
    seat: int
    trick: int
    taker: int | None


@dataclass(frozen=True)
class TrickState:
    """A hand played card by card: the tricks so far, who plays next, the best trump.

    ``to_play`` is None once the five tricks are complete.
    """

    cards: tuple[str, ...]
    tricks: tuple[Trick, ...]
    to_play: int | None
    best: BestTrump | None

    @property
    def done(self) -> bool:
        """True when the five tricks are complete."""
        return sum(t.winner is not None for t in self.tricks) == TRICKS


def trick_state(trump: str, leader: int, players: int,
                cards: Sequence[Card | str]) -> TrickState:
    """The hand after ``cards``, played in order from ``leader`` (trump: a suit, or "").

    Whoever wins a trick leads the next. RuleError when a card is not a card, has no
    suit or was played already, or when cards are played before the trump is chosen.

    >>> state = trick_state("H", 0, 2, ["2H", "3H", "KS"])
    >>> [t.winner for t in state.tricks], state.to_play, state.best.card, state.best.taker
    ([1, None], 0, '3♥', 1)
    """
    if not cards:
        return TrickState((), (), leader, None)
    if not trump:
        raise RuleError(N_("Choose the trump suit first."))
    played = [str(card) for card in parse_cards(cards)]
    groups = [played[i:i + players] for i in range(0, len(played), players)]
    complete = [g for g in groups if len(g) == players]
    winners, _bonus = play_tricks(trump, leader, players, complete)
    found = best_trump(trump, groups)
    leaders = [leader, *winners]
    tricks = tuple(
        Trick(index + 1, tuple(((leaders[index] + k) % players, card)
                               for k, card in enumerate(group)),
              winners[index] if index < len(winners) else None)
        for index, group in enumerate(groups))
    last = tricks[-1]
    if len(complete) == TRICKS:
        to_play = None
    elif last.winner is None:
        to_play = (last.plays[0][0] + len(last.plays)) % players
    else:
        to_play = last.winner
    best = None
    if found is not None:
        trick = tricks[found[0]]
        seat = next(s for s, card in trick.plays if card == str(found[1]))
        best = BestTrump(str(found[1]), seat, trick.number, trick.winner)
    return TrickState(tuple(played), tricks, to_play, best)


def play_tricks(trump: str, leader: int, players: int,
                plays: Sequence[str | Iterable[Card | str]]) -> tuple[list[int], int | None]:
    """The seat that won each trick and the seat that won the bonus trick (None: no trump).

    ``plays`` lists the tricks played so far (at most 5), each with one card per
    player in the order played; ``leader`` leads the first, and whoever wins a trick
    leads the next.

    >>> play_tricks("H", 0, 2, ["2H 3H", "KS 5S", "AD 2D", "7C 10C", "AH 5H"])
    ([1, 1, 0, 0, 1], 1)
    """
    trump = suit_symbol(trump)
    sides(players)
    leader = check_seat(leader, players, N_("leader"))
    if len(plays) > TRICKS:
        raise RuleError(N_("A hand has %(tricks)s tricks, not %(got)s."),
                        tricks=TRICKS, got=len(plays))
    tricks = [_cards(trick) for trick in plays]
    _check_distinct(tricks)
    winners = []
    for number, trick in enumerate(tricks, start=1):
        if len(trick) != players:
            raise RuleError(N_("Trick %(number)s has %(got)s cards; %(players)s expected."),
                            number=number, got=len(trick), players=players)
        leader = (leader + trick_winner(trump, trick)) % players
        winners.append(leader)
    best = best_trump(trump, tricks)
    return winners, None if best is None else winners[best[0]]


def sides(players: int, *, three_pairs: bool = False) -> list[list[int]]:
    """The seats of each side: alone for 2, 3 or 5 players; partners alternate for 4 and 6.

    ``three_pairs`` applies to 6 players only and is ignored for other tables (as
    :meth:`Game.clean_options` does for an option that does not apply).

    >>> sides(3), sides(4), sides(6), sides(6, three_pairs=True)
    ([[0], [1], [2]], [[0, 2], [1, 3]], [[0, 2, 4], [1, 3, 5]], [[0, 3], [1, 4], [2, 5]])
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(N_("Forty-Five is played by 2 to 6 players, not %(players)s."),
                        players=players)
    if players == 6 and three_pairs:
        return [[0, 3], [1, 4], [2, 5]]
    if players in (4, 6):
        return [[0, 2, 4][: players // 2], [1, 3, 5][: players // 2]]
    return [[seat] for seat in range(players)]


def score_hand(tricks: Sequence[Any], bonus: Any, *,
               columns: Sequence[Sequence[int]] | None = None) -> list[int]:
    """Each side's points: 5 a trick, 10 instead for the bonus trick.

    ``tricks[i]`` is what side i took (they add up to 5) and ``bonus`` the side that
    took the best trump's trick, or None when no trump was played. ``columns`` (the
    seats of each side) only names a player in errors (default: side i is seat i).

    >>> score_hand([3, 2], 0), score_hand([3, 2], 1), score_hand([1, 0, 4], None)
    ([20, 10], [15, 15], [5, 0, 20])
    >>> score_hand([0, 5], 0)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 0: took no trick and cannot have the bonus.
    """
    names = [list(c) for c in columns] if columns is not None else [[i] for i in range(len(tricks))]
    if len(names) != len(tricks):
        raise RuleError(N_("Give one trick count per side: %(sides)s expected, %(got)s given."),
                        sides=len(names), got=len(tricks))
    counts = [check_count(t, 0, TRICKS, seat=names[i][0], what=N_("tricks"))
              for i, t in enumerate(tricks)]
    if sum(counts) != TRICKS:
        raise RuleError(N_("The tricks add up to %(total)s; they must add up to %(tricks)s."),
                        total=sum(counts), tricks=TRICKS)
    points = [TRICK_POINTS * c for c in counts]
    if bonus is not None:
        side = check_count(bonus, 0, len(counts) - 1, seat=None, what=N_("bonus side"))
        if counts[side] == 0:
            raise RuleError(N_("%(player)s: took no trick and cannot have the bonus."),
                            seat=names[side][0])
        points[side] += BONUS_POINTS - TRICK_POINTS
    return points


def fill_last_count(counts: Sequence[Any], filled: tuple[int, int] | None = None
                    ) -> tuple[list[Any], tuple[int, int] | None]:
    """The trick counts per side (or player) with the last one filled in, and which it was.

    A hand has five tricks, the best trump's trick among them: once every side but one
    has a count, the last side took the tricks left. ``filled`` is the (side, count)
    filled in before: while that side still shows that count it was never tapped, so it
    follows the others again. Counts that pass five leave the last one blank.

    >>> fill_last_count([3, None])
    ([3, 2], (1, 2))
    >>> fill_last_count([4, 2], filled=(1, 2))
    ([4, 1], (1, 1))
    >>> fill_last_count([1, None, None]), fill_last_count([4, 3, None])
    (([1, None, None], None), ([4, 3, None], None))
    """
    counts = list(counts)
    if filled is not None and 0 <= filled[0] < len(counts) and counts[filled[0]] == filled[1]:
        counts[filled[0]] = None
    missing = [i for i, count in enumerate(counts) if count is None]
    known = [count for count in counts if isinstance(count, int) and 0 <= count <= TRICKS]
    if len(missing) != 1 or len(known) != len(counts) - 1 or sum(known) > TRICKS:
        return counts, None
    counts[missing[0]] = TRICKS - sum(known)
    return counts, (missing[0], counts[missing[0]])


def _no_trump(value: Any) -> bool:
    return value is None or value == ""


def _list(hand: Mapping[str, Any], key: str, length: int, what: str) -> list[Any]:
    """``hand[key]`` as a list of ``length`` entries, or RuleError naming ``what``."""
    value = hand[key]
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise RuleError(N_("Give the %(what)s as a list."), what=what)
    if len(value) != length:
        raise RuleError(N_("Give %(expected)s %(what)s: %(got)s given."),
                        expected=length, what=what, got=len(value))
    return list(value)


def _read_hand(players: int, columns: list[list[int]], dealer: int,
               hand: Mapping[str, Any]) -> tuple[list[int], int | None, dict[str, Any]]:
    """A hand's tricks and bonus per side, and its checked inputs, from any of its forms."""
    forms = [key for key in ("plays", "trick_winners", "side_tricks") if key in hand]
    if len(forms) != 1:
        raise RuleError(N_("Enter a hand as the cards played, the winner of each trick, or the "
                           "tricks per side: exactly one of them."))
    if forms[0] == "side_tricks":
        if "bonus_side" not in hand:
            raise RuleError(N_("Say which side won the bonus trick, or that no trump was played."))
        raw = _list(hand, "side_tricks", len(columns), N_("trick counts, one per side,"))
        bonus = None if _no_trump(hand["bonus_side"]) else hand["bonus_side"]
        score_hand(raw, bonus, columns=columns)
        tricks, bonus_side = [int(t) for t in raw], None if bonus is None else int(bonus)
        return tricks, bonus_side, {"side_tricks": tricks, "bonus_side": bonus_side}
    inputs: dict[str, Any] = {}
    if forms[0] == "plays":
        if _no_trump(hand.get("trump")):
            raise RuleError(N_("Give the trump suit."))
        trump = suit_symbol(str(hand["trump"]))
        leader = hand.get("leader")
        leader = (dealer + 1) % players if _no_trump(leader) else leader
        leader = check_seat(leader, players, N_("leader"))
        plays = _list(hand, "plays", TRICKS, N_("tricks"))
        winners, bonus_seat = play_tricks(trump, leader, players, plays)
        inputs = {"trump": trump, "leader": leader,
                  "plays": [[str(c) for c in parse_cards(p)] for p in plays]}
    else:
        if "bonus_seat" not in hand:
            raise RuleError(N_("Say who won the bonus trick, or that no trump was played."))
        raw = _list(hand, "trick_winners", TRICKS, N_("trick winners"))
        winners = [check_seat(s, players, N_("trick winner")) for s in raw]
        bonus_seat = None
        if not _no_trump(hand["bonus_seat"]):
            bonus_seat = check_seat(hand["bonus_seat"], players, N_("bonus trick's winner"))
            if bonus_seat not in winners:
                raise RuleError(N_("%(player)s: took no trick and cannot have the bonus."),
                                seat=bonus_seat)
    side_of = {seat: i for i, side in enumerate(columns) for seat in side}
    tricks = [sum(side_of[w] == i for w in winners) for i in range(len(columns))]
    bonus_side = None if bonus_seat is None else side_of[bonus_seat]
    inputs.update({"trick_winners": winners, "bonus_seat": bonus_seat,
                   "side_tricks": tricks, "bonus_side": bonus_side})
    return tricks, bonus_side, inputs


def _winner(totals: Sequence[int], target: int) -> tuple[int | None, list[int]]:
    """The winning side after a hand, or None and the sides tied at the top."""
    passed = [t for t in totals if t >= target]
    if not passed:
        return None, []
    top = [i for i, t in enumerate(totals) if t == max(passed)]
    return (top[0], []) if len(top) == 1 else (None, top)


def build_sheet(players: int, hands: Sequence[Mapping[str, Any]], *, first_dealer: int = 0,
                target: int = 45, jink: bool = False, three_pairs: bool = False,
                roster: Sequence[Mapping[str, Any]] = (), tournament: bool = False,
                entry: str | None = None) -> Sheet:
    """The sheet of a match from its hands' inputs, in order; one column per side.

    A hand is given in exactly one of three forms:

    - ``{"trick_winners": [seat] * 5, "bonus_seat": seat or None}``: the seat that
      won each trick, and the seat that won the best trump's trick (None or "": no
      trump was played; the key is required);
    - ``{"side_tricks": [count per side], "bonus_side": side or None}``: tricks per
      side (column), adding up to 5, and the side that won the bonus trick;
    - ``{"trump": suit, "plays": [cards of each trick in play order] * 5,
      "leader": seat}``: the cards played (text or lists of tokens); the winners and
      the bonus come from :func:`play_tricks`. ``leader`` defaults to the seat after
      the dealer.

    The bonus must go to a seat (or side) that took a trick. After each hand the first
    side at or above ``target`` wins, the higher total when several pass it; a tie at
    the top plays on. With ``jink``, a side taking all five tricks wins at once.

    ``roster`` lists the changes of players (:mod:`scorekeeper.rules.roster`). The sides
    are fixed by the players at the first hand (decided case 19): played alone, a hand
    after a join or a sit-out names seats as ever (a seat not dealt in wins no trick), its
    ``side_tricks`` have one count per seat of the table then (None for a seat not dealt
    in) and its ``plays`` one card per player dealt in, in turn order from the leader.
    Partnerships take no join and no sit-out, and a partner leaving ends the match.
    ``entry`` is ``"lowest"`` (the default) or ``"zero"``; ``tournament`` refuses joins
    and sit-outs.

    >>> sheet = build_sheet(4, [{"trick_winners": [0, 1, 2, 2, 3], "bonus_seat": 1},
    ...                         {"side_tricks": [5, 0], "bonus_side": 0}], jink=True)
    >>> sheet.columns, [r.points for r in sheet.rows], sheet.totals, sheet.winners
    (((0, 2), (1, 3)), [(15, 15), (30, 0)], (45, 15), (0,))
    """
    three_pairs = THREE_PAIRS.clean(three_pairs)
    sides(players, three_pairs=three_pairs)
    target, jink = TARGET.clean(target), JINK.clean(jink)
    first_dealer = check_seat(first_dealer, players, N_("first dealer"))
    table = Table("Forty-Five", players, first_dealer, roster, maximum=MAX_PLAYERS,
                  tournament=tournament, entry=entry)
    match = _Match(table, target, three_pairs)
    rows: list[Row] = []
    for index, hand in enumerate(hands):
        if match.between(index):
            raise RuleError(N_("The match is over: hand %(number)s comes after its end."),
                            number=index + 1)
        table.check_dealt(index + 1)
        dealt = table.dealt_in()
        dealer = table.deal(dealt)
        match.start()
        tricks, bonus, inputs = _dealt_hand(match, dealt, dealer, hand)
        points = score_hand(tricks, bonus, columns=match.compact)
        column_points = spread(points, dealt, table.seats) if match.alone else tuple(points)
        for column, paid in enumerate(column_points):
            match.totals[column] += paid or 0
        events = [NO_TRUMP] if bonus is None else []
        if TRICKS in tricks:
            events.append(ALL_FIVE)
        if jink and TRICKS in tricks:
            won = tricks.index(TRICKS)
            match.winner, match.tied, match.by_jink = (
                won if not match.alone else dealt[won]), [], True
        else:
            match.winner, match.tied = match.judge()
        if match.tied:
            events.append(TIE_AT_TOP)
        table.played(dealt)
        rows.append(Row(index + 1, dealer, inputs, column_points, tuple(match.totals),
                        events=tuple(events)))
    finished = match.between(len(rows))
    table.check_done(len(rows))
    dealt = table.dealt_in()
    dealer = table.next_dealer(dealt)
    columns = match.columns()
    if len(match.totals) != len(columns):  # partners before their first hand
        match.totals = [0] * len(columns)
    totals = match.totals
    ranks = match.places()
    return Sheet(
        game="fortyfive", players=players,
        options={"target": target, "jink": jink, "three_pairs": players == 6 and three_pairs},
        columns=tuple(tuple(side) for side in columns),
        rows=table.rows(rows, len(columns)), totals=tuple(totals),
        places=ranks, finished=finished,
        winners=(match.winner,) if match.winner is not None else tuple(
            c for c, r in enumerate(ranks) if r == 1) if finished else (),
        next=None if finished or table.waiting() else Next(
            len(rows) + 1, dealer, tuple(dealt),
            NextHand(columns, dealt[(dealt.index(dealer) + 1) % len(dealt)], TRICKS)),
        status=MatchStatus(target, jink, players == 6 and three_pairs, bool(match.tied),
                           match.tied, match.by_jink, len(rows),
                           [max(target - total, 0) for total in totals]),
        roster=table.roster(),
    )


class _Match:
    """The running state of a match: the table, the sides once the first hand is dealt, the
    totals per column, the winner or the sides tied at the top, a side that left."""

    def __init__(self, table: Table, target: int, three_pairs: bool) -> None:
        self.table, self.target, self.three_pairs = table, target, three_pairs
        self.sides: list[list[int]] | None = None  # fixed at the first hand (case 19)
        self.totals: list[int] = [0] * table.seats
        self.winner: int | None = None
        self.tied: list[int] = []
        self.by_jink = False
        self.left_side: int | None = None

    def _sides(self) -> list[list[int]]:
        playing = self.table.playing()
        if len(playing) < MIN_PLAYERS:  # the match is over before its first hand
            return [[seat] for seat in playing]
        return [[playing[p] for p in side]
                for side in sides(len(playing), three_pairs=self.three_pairs)]

    def columns(self) -> list[list[int]]:
        """The seats of each column: alone, one per seat of the table."""
        found = self.sides if self.sides is not None else self._sides()
        if all(len(side) == 1 for side in found):
            return [[s] for s in range(self.table.seats)]
        return found

    @property
    def alone(self) -> bool:
        return all(len(side) == 1 for side in self.columns())

    @property
    def compact(self) -> list[list[int]]:
        """The sides numbered by position among the seats dealt in."""
        dealt = self.table.dealt_in()
        if self.alone:
            return [[i] for i in range(len(dealt))]
        return [[dealt.index(s) for s in side] for side in self.columns()]

    def start(self) -> None:
        if self.sides is None:
            self.sides = self.columns()
            if not self.alone:
                self.totals = [0] * len(self.sides)

    def playing_columns(self) -> list[int]:
        playing = self.table.playing()
        return [c for c, side in enumerate(self.columns()) if any(s in playing for s in side)]

    def judge(self) -> tuple[int | None, list[int]]:
        """The winner, or the sides tied at the top, among the columns still playing."""
        live = self.playing_columns()
        winner, tied = _winner([self.totals[c] for c in live], self.target)
        return (None if winner is None else live[winner]), [live[t] for t in tied]

    def refuse(self, change: Change) -> None:
        partners = not self.alone if self.sides is not None else len(self.table.playing()) in (4, 6)
        if change.kind is Kind.JOIN and self.sides is not None and not self.alone:
            raise RuleError(N_("Forty-Five in partnerships takes no new player: a substitute "
                               "may take the seat."))
        if change.kind is Kind.SIT_OUT and partners:
            raise RuleError(N_("Forty-Five in partnerships does not allow sitting out: a "
                               "substitute may take the seat."))

    def between(self, after: int) -> bool:
        """Apply the changes after hand ``after``; whether the match is over."""
        done = self.winner is not None or self.left_side is not None
        applied = self.table.between(after, finished=done or self.table.over(),
                                     entry=lambda: min(self.totals[s]
                                                       for s in self.table.playing()),
                                     refuse=self.refuse)
        if self.sides is None or self.alone:
            self.totals.extend(self.table.entries[len(self.totals):])  # type: ignore[arg-type]
        leaves = [c.seat for c in applied if c.kind is Kind.LEAVE]
        if leaves and self.sides is not None and not self.alone:
            self.left_side = next(c for c, side in enumerate(self.sides) if leaves[0] in side)
        elif leaves and self.tied:
            self.winner, self.tied = self.judge()  # the target rule again (case 20)
        return (self.winner is not None or self.left_side is not None
                or self.table.over())

    def places(self) -> tuple[int, ...]:
        """The winner first, then by totals; a side that left last, leavers alone after
        those still playing."""
        top = max(self.totals, default=0) + 1
        keys = [-(top if c == self.winner else t) for c, t in enumerate(self.totals)]
        if self.alone:
            return self.table.places(keys)
        if self.left_side is None and not self.table.left:
            return places([-k for k in keys])
        full = [(c == self.left_side, k) for c, k in enumerate(keys)]
        return tuple(1 + sum(other < key for other in full) for key in full)


def _dealt_hand(match: _Match, dealt: list[int], dealer: int, hand: Mapping[str, Any]
                ) -> tuple[list[int], int | None, dict[str, Any]]:
    """A hand's tricks and bonus per side as :func:`_read_hand` reads them, for the seats
    dealt in: its seats renumbered among them, and back again in its inputs."""
    compact = match.compact
    if dealt == list(range(match.table.seats)):
        return _read_hand(len(dealt), compact, dealer, hand)
    seats = match.table.seats
    alone = match.alone

    def seat_of(value: Any, what: str) -> Any:
        if _no_trump(value):
            return value
        seat = check_seat(value, seats, what)
        if seat not in dealt:
            raise RuleError(N_("%(player)s is not dealt in and takes no part in this hand."),
                            seat=seat)
        return dealt.index(seat)

    moved = dict(hand)
    if isinstance(hand.get("trick_winners"), list):
        moved["trick_winners"] = [seat_of(s, N_("trick winner")) for s in hand["trick_winners"]]
    if "bonus_seat" in hand:
        moved["bonus_seat"] = seat_of(hand["bonus_seat"], N_("bonus trick's winner"))
    if "leader" in hand:
        moved["leader"] = seat_of(hand["leader"], N_("leader"))
    if alone and isinstance(hand.get("side_tricks"), list):
        moved["side_tricks"] = gather(hand["side_tricks"], dealt, seats, N_("trick count"))
    if alone and "bonus_side" in hand:
        moved["bonus_side"] = seat_of(hand["bonus_side"], N_("bonus side"))
    tricks, bonus, inputs = on_seats(dealt, _read_hand, len(dealt), compact,
                                     dealt.index(dealer), moved)
    if "trick_winners" in inputs:
        inputs["trick_winners"] = [dealt[w] for w in inputs["trick_winners"]]
        inputs["bonus_seat"] = None if inputs["bonus_seat"] is None else dealt[
            inputs["bonus_seat"]]
    if "leader" in inputs:
        inputs["leader"] = dealt[inputs["leader"]]
    if alone:
        inputs["side_tricks"] = list(spread(inputs["side_tricks"], dealt, seats))
        inputs["bonus_side"] = None if inputs["bonus_side"] is None else dealt[
            inputs["bonus_side"]]
    return tricks, bonus, inputs


@dataclass(frozen=True)
class MatchStatus(Status):
    """A Forty-Five sheet beyond its rows: the target and the options in force, whether a
    tie at the top keeps play going (and between which sides), whether a jink won it, and
    the hands played, and the points each side still needs to reach the target."""

    target: int
    jink: bool
    three_pairs: bool
    tie_goes_on: bool
    tied: list[int]
    won_by_jink: bool
    played: int
    to_go: list[int]


@dataclass(frozen=True)
class NextHand(Details):
    """The hand being entered: the sides, who leads the first trick and how many tricks."""

    sides: list[list[int]]
    leader: int
    tricks: int


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per side: hands played, 25-point hands (no trump played) and jinks (all five tricks).

    >>> sheet = build_sheet(4, [{"side_tricks": [5, 0], "bonus_side": None}])
    >>> counts(sheet)
    ({'hands': 1, 'no_trump': 1, 'jinks': 1}, {'hands': 1, 'no_trump': 1, 'jinks': 0})
    """
    out = tuple({"hands": 0, "no_trump": 0, "jinks": 0} for _side in sheet.columns)
    for row in sheet.rows:
        for side, points in enumerate(row.points):
            if points is None:  # not dealt in
                continue
            out[side]["hands"] += 1
            out[side]["no_trump"] += NO_TRUMP in row.events
            out[side]["jinks"] += ALL_FIVE in row.events and (points or 0) >= TRICKS * 5
    return out


FIGURES = (
    Figure("no_trump", N_("25-point hands (no trump played)"), of="no_trump",
           help=N_("Hands in which nobody played a trump: no bonus trick, 25 points in all.")),
    Figure("jinks", N_("Jinks (all five tricks)"), of="jinks",
           help=N_("Hands in which the player or side took all five tricks.")),
)


GAME = Game(
    key="fortyfive", name="Forty-Five", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    figures=FIGURES, counts=counts,
    options=(TARGET, JINK, THREE_PAIRS, ENTRY), clockwise=True,
    build_sheet=build_sheet,
    # Alone where sides() seats each player alone; two or three partnerships a table.
    tournament=TournamentTables(
        alone=tuple(n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if len(sides(n)) == n),
        pairs=(len(sides(4)), len(sides(6, three_pairs=True))),
        pair_options=((THREE_PAIRS.key, True),)),
)
