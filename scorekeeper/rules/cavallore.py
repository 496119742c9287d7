"""Cavallo Re: a solitaire of pure chance with 40 cards, and its log (docs/rules.md#cavallo-re).

The deck is Ace to 7, Fante (J), Cavallo (Q) and Re (K) in four suits; with
Italian cards, read coppe ♥, denari ♦, bastoni ♣, spade ♠. The 36 cells hold one
row per suit (♥ ♦ ♣ ♠) and one column per rank from Ace to Cavallo; the Kings
have no cell.

Why the odds are exact: every card turned comes from a place nobody has seen (a
talon card, or the face-down card in the cell of the card just placed, which is
still face down because its own card was not yet placed). So the cards come out
in a uniformly random order, and a deal places the cards that come out before the
fourth King. A card dealt face down into its own cell (and more generally any
set of cells whose cards only belong to one another) is never reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt
from typing import Any

from .cards import Card, parse_cards
from .core import N_, Event, Note, RuleError, check_count, check_seat, places
from .roster import Change, Kind, Table
from .sheet import Details, Figure, Game, Next, Row, Sheet, Status

MIN_PLAYERS, MAX_PLAYERS = 1, 6
ROWS = ("♥", "♦", "♣", "♠")
COLUMNS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q")
KING = "K"
CELLS = len(ROWS) * len(COLUMNS)
DECK = frozenset(Card(rank, suit) for suit in ROWS for rank in COLUMNS + (KING,))
WIN_PROBABILITY = Fraction(1, 10)
# Each card's cell, row by row.
HOME = {Card(rank, suit): row * len(COLUMNS) + column
        for row, suit in enumerate(ROWS) for column, rank in enumerate(COLUMNS)}

WON = Note.WON
LOST = Note.LOST


def _check_deal(deal: str | Iterable[Card | str]) -> list[Card]:
    cards = parse_cards(deal)
    if len(cards) == len(DECK) and set(cards) == DECK:
        return cards
    if len(cards) != len(DECK):
        raise RuleError(N_("A deal has %(expected)s cards, not %(got)s."),
                        expected=len(DECK), got=len(cards))
    for card in cards:
        if card.suit is None:
            raise RuleError(N_("The card %(card)s has no suit."), card=str(card))
        if card not in DECK:
            raise RuleError(N_("The card %(card)s is not in the 40-card deck."), card=str(card))
    # 40 cards of the deck that are not the whole deck: one of them comes twice.
    twice = next(c for c in cards if cards.count(c) > 1)
    raise RuleError(N_("The card %(card)s is dealt twice."), card=str(twice))


def play(deal: str | Iterable[Card | str]) -> int:
    """Cards placed face up in a deal of 40 cards, given in the order dealt.

    The first 36 fill the cells face down, row by row; the last 4 are the talon,
    turned in order. A King is discarded; any other card goes face up in its cell
    and the card found there face down is placed the same way. 36 means won.

    >>> order = [rank + suit for suit in "HDCS" for rank in "A 2 3 4 5 6 7 J Q".split()]
    >>> play(order + ["KH", "KD", "KC", "KS"])  # every card in its own cell: none reached
    0
    >>> play(["KH"] + order[1:] + ["AH", "KD", "KC", "KS"])  # the A♥'s cell hides the K♥
    1
    """
    cards = _check_deal(deal)
    cells = cards[:CELLS]
    placed = 0
    for card in cards[CELLS:]:
        while card.rank != KING:
            cell = HOME[card]
            card, cells[cell] = cells[cell], card
            placed += 1
            if placed == CELLS:
                return placed
    return placed


def expected_distribution() -> list[Fraction]:
    """The chance of placing exactly m cards, m = 0..36: C(m+3, 3) / C(40, 4).

    The cards come out in a random order, and m are placed when the fourth King
    comes out after exactly m others: in C(m+3, 3) of the C(40, 4) equally likely
    sets of places of the four Kings in that order.

    >>> dist = expected_distribution()
    >>> dist[36], dist[0], sum(dist)
    (Fraction(1, 10), Fraction(1, 91390), Fraction(1, 1))
    """
    deals = comb(len(DECK), len(ROWS))
    return [Fraction(comb(m + 3, 3), deals) for m in range(CELLS + 1)]


def expected_mean() -> Fraction:
    """The average number of cards placed in a deal.

    >>> expected_mean()
    Fraction(144, 5)
    """
    return sum((m * p for m, p in enumerate(expected_distribution())), Fraction(0))


@dataclass(frozen=True)
class Stats:
    """A log's statistics; ``counts[m]`` is the number of deals that placed m cards."""

    deals: int
    wins: int
    win_rate: Fraction | None
    best_streak: int
    current_streak: int
    mean: Fraction | None
    counts: tuple[int, ...]
    placed: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-able values: fractions as floats (None before the first deal)."""
        interval = win_interval(self.wins, self.deals)
        return {
            "deals": self.deals, "wins": self.wins,
            "win_rate": None if self.win_rate is None else float(self.win_rate),
            "best_streak": self.best_streak, "current_streak": self.current_streak,
            "mean": None if self.mean is None else float(self.mean),
            "counts": list(self.counts), "placed": self.placed,
            "interval": None if interval is None else list(interval),
            "verdict": verdict(self.wins, self.deals),
        }


Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
# The normal approximation behind the interval holds once both wins and losses are expected
# at least five times: with odds of 1 in 10, after 50 deals.
MIN_EXPECTED = 5


def win_interval(wins: int, deals: int) -> tuple[float, float] | None:
    """The 95% (Wilson score) interval of the true win rate after ``wins`` in ``deals``.

    >>> low, high = win_interval(5, 50)
    >>> round(low, 3), round(high, 3)
    (0.043, 0.214)
    >>> win_interval(0, 0) is None
    True
    """
    if deals <= 0:
        return None
    rate, z2 = wins / deals, Z95 * Z95
    centre = (rate + z2 / (2 * deals)) / (1 + z2 / deals)
    half = Z95 * sqrt(rate * (1 - rate) / deals + z2 / (4 * deals * deals)) / (1 + z2 / deals)
    return max(0.0, centre - half), min(1.0, centre + half)


def verdict(wins: int, deals: int) -> str:
    """How the observed win rate compares with the exact odds: ``"few"`` while too few deals
    were played to tell, else ``"within"``, ``"above"`` or ``"below"`` the 95% interval.

    >>> verdict(2, 10), verdict(5, 50), verdict(20, 60), verdict(0, 60)
    ('few', 'within', 'above', 'below')
    """
    p = float(WIN_PROBABILITY)
    interval = win_interval(wins, deals)
    if interval is None or min(deals * p, deals * (1 - p)) < MIN_EXPECTED:
        return "few"
    low, high = interval
    return "below" if high < p else "above" if low > p else "within"


def _placed(value: Any, seat: int | None = None) -> int:
    if isinstance(value, bool):
        value = None
    return check_count(value, 0, CELLS, seat=seat, what=N_("cards placed"))


def statistics(placed: Sequence[Any]) -> Stats:
    """Deals, wins, win rate, the longest run of wins, mean and counts of cards placed.

    >>> s = statistics([36, 36, 20, 36])
    >>> s.wins, s.win_rate, s.best_streak, s.current_streak, s.mean, s.counts[20]
    (3, Fraction(3, 4), 2, 1, Fraction(32, 1), 1)
    """
    values = [_placed(v) for v in placed]
    counts = [0] * (CELLS + 1)
    best = streak = 0
    for value in values:
        counts[value] += 1
        streak = streak + 1 if value == CELLS else 0
        best = max(best, streak)
    deals, wins = len(values), counts[CELLS]
    return Stats(
        deals=deals, wins=wins, win_rate=Fraction(wins, deals) if deals else None,
        best_streak=best, current_streak=streak,
        mean=Fraction(sum(values), deals) if deals else None, counts=tuple(counts),
        placed=sum(values),
    )


def build_sheet(players: int, hands: Sequence[Mapping[str, Any]], *,
                first_dealer: int = 0, roster: Sequence[Mapping[str, Any]] = (),
                tournament: bool = False) -> Sheet:
    """A log of deals, one column per player keeping their own log (usually just one).

    Each hand is ``{"placed": 0..36, "seat": seat}`` (``seat`` missing, None or ""
    means 0). A row's points are the cards placed, for that seat only; totals count
    wins (36 placed). The log never ends, nobody deals (``first_dealer`` is ignored),
    and ``status`` holds each seat's :class:`Stats` as a dict beside the expected odds.
    ``roster`` may add players to the log at any time (joins only,
    :mod:`scorekeeper.rules.roster`): a joiner's seat comes after the others.

    >>> sheet = build_sheet(1, [{"placed": 36}, {"placed": "12"}])
    >>> [r.points for r in sheet.rows], sheet.totals, sheet.status.statistics[0]["mean"]
    ([(36,), (12,)], (1,), 24.0)
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(N_("A Cavallo Re log is kept for 1 to 6 players, not %(players)s."),
                        players=players)
    table = Table("Cavallo Re", players, 0, roster, maximum=MAX_PLAYERS, tournament=tournament,
                  minimum=0)
    rows: list[Row] = []
    logs: list[list[int]] = [[] for _ in range(players)]
    wins = [0] * players

    def between(after: int) -> None:
        table.between(after, finished=False, entry=lambda: 0, refuse=_only_joins,
                      in_game=lambda seat: True)
        logs.extend([] for _seat in range(len(logs), table.seats))
        wins.extend(0 for _seat in range(len(wins), table.seats))

    for index, hand in enumerate(hands):
        between(index)
        seat = hand.get("seat")
        seat = check_seat(0 if seat is None or seat == "" else seat, table.seats, N_("player"))
        if "placed" not in hand:
            raise RuleError(N_("%(player)s: give the cards placed."), seat=seat)
        placed = _placed(hand["placed"], seat)
        logs[seat].append(placed)
        wins[seat] += placed == CELLS
        points = tuple(placed if s == seat else None for s in range(table.seats))
        notes = tuple((WON if placed == CELLS else LOST) if s == seat else ""
                      for s in range(table.seats))
        table.played(range(table.seats))
        rows.append(Row(index + 1, None, {"placed": placed, "seat": seat}, points,
                        tuple(wins), notes, events=(Event.WON,) if placed == CELLS else ()))
    between(len(rows))
    table.check_done(len(rows))
    dist = expected_distribution()
    return Sheet(
        game="cavallore", players=players, options={},
        columns=tuple((s,) for s in range(table.seats)), rows=table.rows(rows, table.seats),
        totals=tuple(wins), places=places(wins), finished=False, winners=(),
        next=Next(len(rows) + 1, None, tuple(range(table.seats)), NextHand(CELLS)),
        status=MatchStatus(
            [statistics(log).as_dict() for log in logs],
            {"win_rate": float(WIN_PROBABILITY), "mean": float(expected_mean()),
             "distribution": [float(p) for p in dist]},
        ),
        roster=table.roster(),
    )


def _only_joins(change: Change) -> None:
    if change.kind is not Kind.JOIN:
        raise RuleError(N_("A Cavallo Re log only takes new players: nothing else changes."))


@dataclass(frozen=True)
class MatchStatus(Status):
    """A Cavallo Re log beyond its rows: each player's statistics, and the exact odds
    (the chance of a win, the mean of cards placed, their distribution) beside them."""

    statistics: list[dict[str, Any]]
    expected: dict[str, Any]


@dataclass(frozen=True)
class NextHand(Details):
    """The deal being entered: how many cards a win places."""

    cells: int


# Cards placed, grouped for the comparison with the exact distribution: (low, high).
BANDS = ((0, 9), (10, 19), (20, 29), (30, 35), (36, 36))


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per seat: deals, wins, cards placed in all, and deals per band of cards placed.

    >>> counts(build_sheet(1, [{"placed": 36}, {"placed": 12}]))[0]["band-10"]
    1
    """
    out = tuple({"deals": 0, "wins": 0, "placed": 0, **{f"band-{low}": 0 for low, _h in BANDS}}
                for _seat in sheet.columns)
    for row in sheet.rows:
        placed, seat = row.inputs["placed"], row.inputs["seat"]
        out[seat]["deals"] += 1
        out[seat]["wins"] += placed == CELLS
        out[seat]["placed"] += placed
        out[seat][f"band-{next(low for low, high in BANDS if low <= placed <= high)}"] += 1
    return out


def band_odds() -> list[tuple[int, int, Fraction]]:
    """(low, high, exact chance) of placing from low to high cards in a deal.

    >>> band_odds()[-1]
    (36, 36, Fraction(1, 10))
    """
    dist = expected_distribution()
    return [(low, high, sum(dist[low:high + 1], Fraction(0))) for low, high in BANDS]


FIGURES = (
    Figure("deals", N_("Deals"), of="deals", help=N_("Deals the player played.")),
    Figure("wins", N_("Wins"), of="wins",
           help=N_("Deals won: all 36 cards placed.")),
    Figure("rate", N_("Win rate"), of="wins", per="deals", percent=True,
           help=N_("The share of deals won; the exact odds are one in ten.")),
    Figure("mean", N_("Cards placed, average"), of="placed", per="deals",
           help=N_("How many of the 36 cards were placed in a deal, on average.")),
)

GAME = Game(
    key="cavallore", name="Cavallo Re", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    options=(), clockwise=True, build_sheet=build_sheet, solitaire=True,
    figures=FIGURES, counts=counts,
    saved=N_("Deal %(n)s saved."),
    saved_elsewhere=N_("Another phone saved deal %(n)s: this is the sheet now."),
    correct=N_("Correct deal %(n)s"),
)
