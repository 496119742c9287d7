"""Tournament evenings: one game on several tables over several rounds, from plain data.

The draw, the tables, each round's seating (Danish, round robin in groups, knockout), the
placement and match points of every table and the standings. The web layer fills a
:class:`TableResult` from each match's computed sheet (never from stored totals), scores it
with :func:`score_table`, and asks :meth:`Tournament.seat` for the next round. Points are exact
:class:`~fractions.Fraction` s, compared exactly and shown by :func:`display`.

Rounds and tables are numbered from 1, seats from 0. An entrant is any hashable id: a player,
or a fixed pair (in a game whose ``tournament`` seats pairs), which is one entrant filling
two seats. What each game allows is its ``tournament`` (:class:`~.sheet.TournamentTables`):
no game is named here.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import accumulate, combinations, groupby
from typing import Any

from .core import N_, Nn_, RuleError, check_length
from .sheet import Game, Sheet

Entrant = Hashable
MIN_ENTRANTS, MAX_ENTRANTS = 8, 64  # at the start only
SAT_OUT = Fraction(1, 2)  # the placement points of a round sat out


class Format(StrEnum):
    """How the rounds after the first are seated."""

    DANISH = "danish"
    GROUPS = "groups"
    KNOCKOUT = "knockout"


# --- the draw and the tables -------------------------------------------------------------------


def draw(entrants: Sequence[Entrant], seed: int) -> tuple[Entrant, ...]:
    """The draw's order: a copy of ``entrants`` (in the order they were entered) shuffled by
    ``random.Random(seed).shuffle``.

    >>> draw("ABCDEFGH", 2026)
    ('G', 'H', 'D', 'A', 'F', 'E', 'C', 'B')
    """
    order = list(entrants)
    random.Random(seed).shuffle(order)
    return tuple(order)


def first_dealer(seed: int, round_number: int, table: int, seats: int) -> int:
    """The seat (0 to ``seats`` - 1) that deals first at ``table`` in round ``round_number``:
    ``random.Random(f"{seed}:{round_number}:{table}").randrange(seats)``. ``seats`` counts
    players, so a table of two pairs has 4.

    >>> first_dealer(2026, 1, 1, 4), first_dealer(2026, 1, 2, 4), first_dealer(2026, 2, 1, 4)
    (3, 2, 3)
    """
    return random.Random(f"{seed}:{round_number}:{table}").randrange(seats)


def table_sizes(count: int, game: Game, *, size: int = 4, pairs: bool = False) -> tuple[int, ...]:
    """How many entrants sit at each table, table 1 first, for ``count`` entrants.

    Alone: ceil(count / size) tables as equal as possible, larger first; one table fewer
    (and so on) while a table would have fewer than 3 or fewer than the game's minimum, never
    above its maximum. A game that plays some numbers in sides sits players alone only at
    the tables of at least 3 it plays alone, as many of the largest as possible (``size``
    does not apply). Pairs sit two a table; an odd number of pairs puts three at table 1
    where the game seats three pairs, and cannot be seated where it does not.
    """
    if pairs:
        sizes = _pair_tables(count, game)
    elif game.tournament.alone:
        sizes = _largest_first(count, sorted((n for n in game.tournament.alone if n >= 3),
                                             reverse=True))
    else:
        sizes = _equal_tables(count, game, size)
    if not sizes:
        raise RuleError(N_("%(entrants)s entrants cannot be seated at tables of %(game)s."),
                        entrants=count, game=game.name)
    return sizes


def _equal_tables(count: int, game: Game, size: int) -> tuple[int, ...]:
    """The tables of players alone; () when nothing fits."""
    smallest = max(3, game.min_players)
    if not smallest <= size <= game.max_players:
        raise RuleError(N_("Tables of %(size)s do not suit %(game)s: choose %(low)s to "
                           "%(high)s."), size=size, game=game.name, low=smallest,
                        high=game.max_players)
    for tables in range(math.ceil(count / size), 0, -1):
        small, larger = divmod(count, tables)
        sizes = (small + 1,) * larger + (small,) * (tables - larger)
        if small >= smallest and sizes[0] <= game.max_players:
            return sizes
    return ()


def _largest_first(count: int, sizes: Sequence[int]) -> tuple[int, ...]:
    """``count`` at tables of ``sizes`` only (largest first), as many of each larger size as
    the rest allows; () if none.

    >>> _largest_first(13, [5, 3]), _largest_first(12, [5, 3]), _largest_first(7, [5, 3])
    ((5, 5, 3), (3, 3, 3, 3), ())
    """
    largest, *rest = sizes
    for many in range(count // largest, -1, -1):
        left = count - largest * many
        tail = _largest_first(left, rest) if left and rest else ()
        if not left or tail:
            return (largest,) * many + tail
    return ()


def _pair_tables(count: int, game: Game) -> tuple[int, ...]:
    """Two pairs a table, or three at table 1 for an odd number where the game seats three."""
    if count % 2 == 0:
        return (2,) * (count // 2)
    if 3 in game.tournament.pairs and count >= 3:
        return (3,) + (2,) * ((count - 3) // 2)
    return ()


def blocks(order: Sequence[Entrant], sizes: Sequence[int]) -> tuple[tuple[Entrant, ...], ...]:
    """``order`` cut into consecutive blocks of ``sizes``: the first block sits at table 1.

    >>> blocks("ABCDEFGHIJ", (4, 3, 3))
    (('A', 'B', 'C', 'D'), ('E', 'F', 'G'), ('H', 'I', 'J'))
    """
    return tuple(tuple(order[end - size:end]) for size, end in zip(sizes, accumulate(sizes),
                                                                  strict=True))


# --- repeats (Danish) --------------------------------------------------------------------------


def repeats(tables: Sequence[Sequence[Entrant]], previous: Sequence[Sequence[Entrant]]) -> int:
    """How many pairs of entrants sit at one of ``tables`` having sat at one table in
    ``previous`` (the round before); someone who sat out repeats nobody.

    >>> repeats([("A", "B", "C"), ("D", "E", "F")], [("A", "B", "D"), ("C", "E", "F")])
    2
    """
    where = _tables_of(previous)
    return sum(_repeats(table, where) for table in tables)


def _tables_of(tables: Sequence[Sequence[Entrant]]) -> dict[Entrant, int]:
    return {entrant: number for number, table in enumerate(tables) for entrant in table}


def _repeats(table: Sequence[Entrant], where: dict[Entrant, int]) -> int:
    return sum(a in where and where[a] == where.get(b) for a, b in combinations(table, 2))


def reduce_repeats(tables: Sequence[Sequence[Entrant]], previous: Sequence[Sequence[Entrant]],
                   standing: Sequence[Entrant]) -> tuple[tuple[Entrant, ...], ...]:
    """``tables`` after the Danish swaps, each table in order of ``standing``.

    For each pair of adjacent tables (i, i + 1), going down: for each entrant x of table i from
    the lowest standing up, each entrant y of table i + 1 from the highest down, the first swap
    that lowers the repeats at those two tables is made, then the search starts again from
    table 1; it stops when no swap lowers them.

    >>> reduce_repeats(["ABC", "DEF"], ["ABC", "DEF"], "ABCDEF")
    (('A', 'B', 'D'), ('C', 'E', 'F'))
    """
    rank = {entrant: place for place, entrant in enumerate(standing)}.__getitem__
    where = _tables_of(previous)
    seated = [sorted(table, key=rank) for table in tables]
    while _swap(seated, where, rank):
        pass
    return tuple(tuple(table) for table in seated)


def _swap(seated: list[list[Entrant]], where: dict[Entrant, int], rank: Callable) -> bool:
    """Make the first swap that lowers the repeats of two adjacent tables; False if none."""
    for i in range(len(seated) - 1):
        upper, lower = seated[i], seated[i + 1]
        before = _repeats(upper, where) + _repeats(lower, where)
        for x in reversed(upper):
            for y in lower:
                up = sorted([y if e == x else e for e in upper], key=rank)
                down = sorted([x if e == y else e for e in lower], key=rank)
                if _repeats(up, where) + _repeats(down, where) < before:
                    seated[i], seated[i + 1] = up, down
                    return True
    return False


# --- scoring a table ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """One table's match as its computed sheet has it, one entry per entrant (a pair or side
    once), in seat order.

    ``hands`` is the number of hands completed; ``finished`` is False while the match is
    still being played (standings counting it are provisional), True once it is over or the
    round was closed. ``higher_wins`` is the game's direction (False: the lowest total wins).
    ``winner`` is who won by a rule other than the total (a jink).
    ``eliminated`` (a match played by elimination only) gives the deal of each entrant's last
    elimination, None while still in. ``leavers`` are the entrants who abandoned, each with
    the hand they left in.
    """

    entrants: tuple[Entrant, ...]
    totals: tuple[int, ...]
    hands: int
    finished: bool = True
    higher_wins: bool = True
    winner: Entrant | None = None
    eliminated: tuple[int | None, ...] | None = None
    leavers: tuple[tuple[Entrant, int], ...] = ()

    def __post_init__(self) -> None:
        check_length(self.totals, len(self.entrants), N_("total"))
        if self.eliminated is not None:
            check_length(self.eliminated, len(self.entrants), N_("elimination"))
        for entrant in (self.winner, *(leaver for leaver, _hand in self.leavers)):
            if entrant is not None and entrant not in self.entrants:
                raise RuleError(N_("%(entrant)s does not sit at this table."), entrant=entrant)


@dataclass(frozen=True)
class Score:
    """What one entrant takes from one round: placement and match points, and a win."""

    entrant: Entrant
    points: Fraction
    match_points: Fraction
    won: bool


@dataclass(frozen=True)
class TableScore:
    """The scores of one table, in seat order; ``finished`` as in :class:`TableResult`;
    ``started`` is False while the match is unfinished with no hand completed (its entrants
    have not played the round yet)."""

    scores: tuple[Score, ...]
    finished: bool = True
    started: bool = True


def score_table(result: TableResult) -> TableScore:
    """Placement points (n - 1 for first down to 0 for last, tied entrants sharing the places
    they cover), match points (own total against the table's average, in the game's direction)
    and wins (a first place, shared or not, in a match with a hand scored).
    A match still being played with no hand completed gives nothing yet: 0 points each,
    not started (live standings do not count a tie that nobody played for).

    Placement goes by total, except: a winner by another rule places first; with elimination,
    those still in place first, then the others by their last elimination (later is better,
    the same deal shares); with no hand completed everyone ties. Leavers take the last places,
    in reverse order of leaving (the same hand shares), and the table's lowest match points,
    worked out with their totals as they stood.

    >>> table = score_table(TableResult(("A", "B", "C", "D"), (40, 25, 25, 10), hands=5))
    >>> [display(s.points) for s in table.scores], [display(s.match_points) for s in table.scores]
    (['3.0', '1.5', '1.5', '0.0'], ['15.0', '0.0', '0.0', '-15.0'])
    >>> [s.won for s in table.scores]
    [True, False, False, False]
    >>> waiting = score_table(TableResult(("A", "B", "C"), (0, 0, 0), hands=0, finished=False))
    >>> [display(s.points) for s in waiting.scores], waiting.started
    (['0.0', '0.0', '0.0'], False)
    """
    sign = 1 if result.higher_wins else -1
    left = dict(result.leavers)
    played = result.hands > 0
    if not played and not result.finished:
        return TableScore(tuple(Score(entrant, Fraction(0), Fraction(0), won=False)
                                for entrant in result.entrants), finished=False, started=False)

    def order(seat: int) -> tuple[int, int]:
        """Smaller is better; equal keys share their places."""
        entrant, total = result.entrants[seat], result.totals[seat]
        if entrant in left:
            return 3, -left[entrant]
        if not played:
            return 1, 0
        if entrant == result.winner:
            return 0, 0
        out = result.eliminated[seat] if result.eliminated is not None else None
        if out is not None:
            return 2, -out
        return 1, -sign * total

    n = len(result.entrants)
    keys = [order(seat) for seat in range(n)]
    average = Fraction(sum(result.totals), n)
    match_points = [sign * (total - average) if played else Fraction(0)
                    for total in result.totals]
    lowest = min(match_points)
    scores = []
    for seat, entrant in enumerate(result.entrants):
        above = sum(key < keys[seat] for key in keys)
        level = keys.count(keys[seat])
        scores.append(Score(
            entrant,
            points=Fraction(2 * (n - 1 - above) - (level - 1), 2),
            match_points=lowest if entrant in left else match_points[seat],
            won=played and above == 0,
        ))
    return TableScore(tuple(scores), result.finished)


def places(table: TableScore) -> tuple[int, ...]:
    """Each entrant's place at the table, in seat order: 1 plus those placed above (tied
    entrants share the best place they cover), as :func:`score_table` placed them.

    >>> places(score_table(TableResult(("A", "B", "C", "D"), (40, 25, 25, 10), hands=5)))
    (1, 2, 2, 4)
    """
    return tuple(1 + sum(other.points > score.points for other in table.scores)
                 for score in table.scores)


def table_result(sheet: Sheet, entrants: Sequence[Entrant], game: Game, *,
                 closed: bool = False) -> TableResult:
    """A table's :class:`TableResult` from its match's computed ``sheet``: each column is the
    entrant of its seats (seat s is of ``entrants[s % len(entrants)]``, so a pair or a side
    counts once), the hands completed, finished once the match is over or ``closed`` (the
    round closed, the match given up), a single winner by the game's own ranking, and the
    deal that last put each entrant out where the game's status says (``out_in``), and the
    entrants who left (``sheet.roster.left_after``: the hand after which a seat left; a
    partner leaving takes the pair out, at the first of its seats to leave).
    """
    owner = tuple(entrants[column[0] % len(entrants)] for column in sheet.columns)
    out = getattr(sheet.status, "out_in", None)
    left: dict[Entrant, int] = {}
    for seat, after in enumerate(sheet.roster.left_after):
        if after is not None:
            entrant = entrants[seat % len(entrants)]
            left[entrant] = min(after, left.get(entrant, after))
    return TableResult(
        owner, tuple(sheet.totals), hands=len(sheet.rows), finished=sheet.finished or closed,
        higher_wins=not game.lower_wins,
        winner=owner[sheet.winners[0]] if sheet.finished and len(sheet.winners) == 1 else None,
        eliminated=tuple(out) if out and any(deal is not None for deal in out) else None,
        leavers=tuple(left.items()))


def match_options(game: Game, chosen: Mapping[str, Any], players: int, *,
                  pairs: bool = False) -> dict[str, Any]:
    """The options of one table's match: what the organiser chose, a table of pairs playing
    in pairs, cleaned by the game for ``players`` (RuleError if they do not suit it)."""
    return game.clean_options(players, {**chosen, **dict(game.tournament.pair_options)}
                              if pairs else chosen)


def sat_out(entrant: Entrant) -> TableScore:
    """The round of an entrant who sat it out: 0.5 placement points, 0 match points, no win.

    >>> sat_out("P").scores
    (Score(entrant='P', points=Fraction(1, 2), match_points=Fraction(0, 1), won=False),)
    """
    return TableScore((Score(entrant, SAT_OUT, Fraction(0), won=False),))


# --- standings ---------------------------------------------------------------------------------

Rounds = Sequence[Sequence[TableScore]]


@dataclass(frozen=True)
class Standing:
    """One line of the standings; ``reached`` is the last round the entrant played (0: none);
    ``waiting``: the entrant has not played yet (a late entrant not yet seated, or their
    table of the last round counted has no hand completed)."""

    place: int
    entrant: Entrant
    points: Fraction
    match_points: Fraction
    wins: int
    reached: int
    withdrawn: bool
    waiting: bool = False


@dataclass(frozen=True)
class Standings:
    """The standings, first place first; ``provisional`` when a match counted is unfinished."""

    rows: tuple[Standing, ...]
    provisional: bool

    @property
    def order(self) -> tuple[Entrant, ...]:
        """The entrants, first place first."""
        return tuple(row.entrant for row in self.rows)


def standings(order: Sequence[Entrant], rounds: Rounds,
              withdrawn: Collection[Entrant] = frozenset(),
              last: Collection[Entrant] = frozenset()) -> Standings:
    """Every entrant of the draw's ``order``, ranked over ``rounds`` (each a round's table
    scores; one round alone gives that round's standings).

    By total placement points, then total match points, then wins, then among those still
    tied the head-to-head count (times placed above another of them at a shared table minus
    times below, applied once), then the draw's order. Withdrawn entrants stay, marked.
    The entrants of ``last`` (late entrants who have not played yet) rank below everyone,
    in the draw's order. An entrant whose table of the last round has no hand completed
    yet is waiting: ranked after those with the same placement points who played.

    >>> one = [score_table(TableResult(("A", "B", "C"), (10, 30, 20), hands=1))]
    >>> [(row.place, row.entrant, str(row.points)) for row in standings("CBA", [one]).rows]
    [(1, 'B', '2'), (2, 'C', '1'), (3, 'A', '0')]
    >>> two = [score_table(TableResult(("A", "B"), (10, 30), hands=1)),
    ...        score_table(TableResult(("C", "D"), (0, 0), hands=0, finished=False))]
    >>> [(row.entrant, row.waiting) for row in standings("CDAB", [two]).rows]
    [('B', False), ('A', False), ('C', True), ('D', True)]
    """
    return _ranked(order, rounds, withdrawn, knockout=False, last=last)


def knockout_standings(order: Sequence[Entrant], rounds: Rounds,
                       withdrawn: Collection[Entrant] = frozenset(),
                       last: Collection[Entrant] = frozenset()) -> Standings:
    """The standings of a knockout: by the last round reached, the finalists by their
    placement points in the final (a last round of one table), then as :func:`standings`.

    >>> semis = [score_table(TableResult(("A", "B", "C"), (30, 20, 10), hands=1)),
    ...          score_table(TableResult(("D", "E", "F"), (30, 20, 10), hands=1))]
    >>> final = [score_table(TableResult(("A", "B", "D", "E"), (0, 10, 20, 30), hands=1))]
    >>> knockout_standings("ABCDEF", [semis, final]).order
    ('E', 'D', 'B', 'A', 'C', 'F')
    """
    return _ranked(order, rounds, withdrawn, knockout=True, last=last)


def _ranked(order: Sequence[Entrant], rounds: Rounds, withdrawn: Collection[Entrant], *,
            knockout: bool, last: Collection[Entrant] = frozenset()) -> Standings:
    points = dict.fromkeys(order, Fraction(0))
    match_points = dict.fromkeys(order, Fraction(0))
    wins = dict.fromkeys(order, 0)
    reached = dict.fromkeys(order, 0)
    waiting = set(last)
    if rounds:
        waiting.update(score.entrant for table in rounds[-1] if not table.started
                       for score in table.scores)
    for number, tables in enumerate(rounds, 1):
        for score in (score for table in tables for score in table.scores):
            points[score.entrant] += score.points
            match_points[score.entrant] += score.match_points
            wins[score.entrant] += score.won
            reached[score.entrant] = number
    final = {}
    if knockout and rounds and len(rounds[-1]) == 1:
        final = {score.entrant: score.points for score in rounds[-1][0].scores}

    def key(entrant: Entrant) -> tuple:
        tied = (-points[entrant], entrant in waiting, -match_points[entrant], -wins[entrant])
        if knockout:
            return entrant in last, -reached[entrant], -final.get(entrant, 0), *tied
        return entrant in last, *tied

    ranked: list[Entrant] = []
    for _key, group in groupby(sorted(order, key=key), key=key):
        group = list(group)
        count = _head_to_head(group, rounds)
        ranked += sorted(group, key=count.__getitem__, reverse=True)  # stable: the draw's order
    rows = tuple(Standing(place, entrant, points[entrant], match_points[entrant], wins[entrant],
                          reached[entrant], entrant in withdrawn, entrant in waiting)
                 for place, entrant in enumerate(ranked, 1))
    provisional = not all(table.finished for tables in rounds for table in tables)
    return Standings(rows, provisional)


def _head_to_head(group: list[Entrant], rounds: Rounds) -> dict[Entrant, int]:
    """For each of ``group``: times placed above another of them at a shared table, minus
    times placed below."""
    count = dict.fromkeys(group, 0)
    for table in (table for tables in rounds for table in tables):
        met = [score for score in table.scores if score.entrant in count]
        for a in met:
            count[a.entrant] += sum((a.points > b.points) - (a.points < b.points) for b in met)
    return count


# --- seating -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One table of a round: its entrants in seat order and the seat that deals first.

    With pairs, the table of pairs P, Q (, R) seats P1 Q1 (R1) P2 Q2 (R2): seat s is a player
    of pair ``entrants[s % len(entrants)]``.
    """

    number: int
    entrants: tuple[Entrant, ...]
    dealer: int


@dataclass(frozen=True)
class Seating:
    """One round's seating; ``sitting_out`` score :func:`sat_out`; ``final``: a knockout's."""

    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[Entrant, ...] = ()
    final: bool = False


@dataclass(frozen=True)
class Tournament:
    """What the organiser chose: the game, the seed, the entrants in the order they were
    entered, pairs or not, the preferred table size, the format, the number of rounds (a
    knockout plays until its final) and how many of each table go on in a knockout.
    """

    game: Game
    seed: int
    entrants: tuple[Entrant, ...]
    pairs: bool = False
    size: int = 4
    format: Format = Format.DANISH
    rounds: int = 4
    go_on: int = 2
    # Late entrants (Danish only), in the order they were added: after the draw's order.
    late: tuple[Entrant, ...] = ()

    def __post_init__(self) -> None:
        if self.game.solitaire:
            raise RuleError(N_("%(game)s is a solitaire: it has no tournaments."),
                            game=self.game.name)
        if self.pairs and not self.game.tournament.pairs:
            raise RuleError(N_("%(game)s has no tournaments of pairs."), game=self.game.name)
        if self.late and self.format != Format.DANISH:
            raise RuleError(N_("Late entrants join Danish evenings only: a round-robin group "
                               "and a knockout are closed once drawn."))
        seen: set[Entrant] = set()
        for entrant in (*self.entrants, *self.late):
            if entrant in seen:
                raise RuleError(N_("%(entrant)s is entered twice."), entrant=entrant)
            seen.add(entrant)

    @property
    def order(self) -> tuple[Entrant, ...]:
        """The draw's order, then the late entrants in the order they were added."""
        return draw(self.entrants, self.seed) + self.late

    def sizes(self, count: int) -> tuple[int, ...]:
        """The tables of ``count`` entrants (see :func:`table_sizes`)."""
        return table_sizes(count, self.game, size=self.size, pairs=self.pairs)

    def seat(self, history: Sequence[Seating], results: Rounds,
             withdrawn: Collection[Entrant] = frozenset()) -> Seating:
        """The next round: ``history`` holds the seatings so far, ``results`` their table
        scores round by round; ``withdrawn`` entrants are never seated again.

        Round 1 seats the draw's order in blocks. Then Danish seats the standing in blocks (a
        late entrant who has not played yet the lowest in it) and reduces repeats (an odd
        number of pairs where no table seats three: the lowest-ranked pair that has sat out
        least sits out); groups keep round 1's tables, each playing on
        smaller while the game allows (else it sits out), the first dealer moving on one seat
        a round; a knockout seats, as Danish, the top min(go_on, n - 1) of each table of n (a
        tie across the cut to the better standing), the lowest going out until the rest can
        be seated.
        """
        number = len(history) + 1
        if number == 1:
            return self._first_round(withdrawn)
        if self.format == Format.KNOCKOUT:
            if history[-1].final:
                raise RuleError(N_("The knockout is over: its final has been played."))
        elif number > self.rounds:
            raise RuleError(*Nn_("The tournament has %(rounds)s round.",
                                 "The tournament has %(rounds)s rounds."),
                            count="rounds", rounds=self.rounds)
        # A late entrant is seated as the lowest in the standings until they have played.
        seated = {entrant for seating in history for table in seating.tables
                  for entrant in table.entrants}
        overall = standings(self.order, results, last=set(self.late) - seated).order
        standing = [entrant for entrant in overall if entrant not in withdrawn]
        if self.format == Format.GROUPS:
            return self._groups(number, history, withdrawn)
        previous = [table.entrants for table in history[-1].tables]
        if self.format == Format.KNOCKOUT:
            return self._knockout(number, overall, standing, previous, results[-1])
        return self._danish(number, standing, previous, history)

    def _first_round(self, withdrawn: Collection[Entrant]) -> Seating:
        order = [entrant for entrant in self.order if entrant not in withdrawn]
        if not MIN_ENTRANTS <= len(order) <= MAX_ENTRANTS:
            raise RuleError(N_("A tournament starts with %(low)s to %(high)s entrants, not "
                               "%(got)s."), low=MIN_ENTRANTS, high=MAX_ENTRANTS,
                            got=len(order))
        return self._seating(1, blocks(order, self.sizes(len(order))))

    def _danish(self, number: int, standing: list[Entrant], previous: list[tuple],
                history: Sequence[Seating]) -> Seating:
        out: tuple[Entrant, ...] = ()
        if self.pairs and len(standing) % 2 and 3 not in self.game.tournament.pairs:
            times = Counter(entrant for seating in history for entrant in seating.sitting_out)
            out = (min(reversed(standing), key=times.__getitem__),)
            standing = [entrant for entrant in standing if entrant not in out]
        tables = reduce_repeats(blocks(standing, self.sizes(len(standing))), previous, standing)
        return self._seating(number, tables, out)

    def _knockout(self, number: int, overall: Sequence[Entrant], standing: list[Entrant],
                  previous: list[tuple], last: Sequence[TableScore]) -> Seating:
        rank = {entrant: place for place, entrant in enumerate(overall)}
        qualified = set()
        for table in last:
            best = sorted(table.scores, key=lambda score: (-score.points, rank[score.entrant]))
            qualified |= {score.entrant for score in best[:min(self.go_on, len(best) - 1)]}
        going = [entrant for entrant in standing if entrant in qualified]
        for count in range(len(going), 0, -1):
            try:
                sizes = self.sizes(count)
            except RuleError:
                if count != 2 or not self._final_of_two:
                    continue
                sizes = (2,)
            tables = reduce_repeats(blocks(going[:count], sizes), previous, going[:count])
            return self._seating(number, tables, final=len(sizes) == 1)
        raise RuleError(N_("Too few go on to seat round %(round)s."), round=number)

    def _groups(self, number: int, history: Sequence[Seating],
                withdrawn: Collection[Entrant]) -> Seating:
        tables, out = [], []
        for group in history[0].tables:
            here = tuple(entrant for entrant in group.entrants if entrant not in withdrawn)
            if self._plays_on(len(here)):
                last = next(table for seating in reversed(history) for table in seating.tables
                            if table.number == group.number)
                tables.append(Table(group.number, here,
                                    next_dealer(last, here, withdrawn, self._seats_each)))
            else:
                out += here
        return Seating(number, tuple(tables), tuple(out))

    def _plays_on(self, count: int) -> bool:
        """Whether a group of ``count`` can still play its game together."""
        if self.pairs:
            return count >= 2
        if self.game.tournament.alone:
            return count in self.game.tournament.alone
        return count >= self.game.min_players

    @property
    def _final_of_two(self) -> bool:
        """Whether the game plays a knockout's final of 2 entrants (players alone)."""
        two = self.game.tournament.alone or range(self.game.min_players,
                                                  self.game.max_players + 1)
        return not self.pairs and 2 in two

    @property
    def _seats_each(self) -> int:
        return 2 if self.pairs else 1

    def _seating(self, number: int, tables: Sequence[tuple[Entrant, ...]],
                 out: tuple[Entrant, ...] = (), *, final: bool = False) -> Seating:
        return Seating(number, tuple(
            Table(t, table, first_dealer(self.seed, number, t, len(table) * self._seats_each))
            for t, table in enumerate(tables, 1)), out, final)


def next_dealer(last: Table, here: Sequence[Entrant], withdrawn: Collection[Entrant],
                seats_each: int = 1) -> int:
    """The seat of ``here`` (a round-robin group, its leavers' seats closed up) that deals
    first after ``last`` (the group's table the last time it played): the player seated after
    ``last``'s first dealer, counted in ``last``'s seats while skipping anyone who withdrew (if
    that dealer withdrew, the next after them who is still in). ``seats_each`` is 2 for pairs
    (seats P1 Q1 P2 Q2). Nobody withdrawn: the dealer moves on one seat.

    >>> next_dealer(Table(1, tuple("ABCD"), 1), "ABCD", set())
    2
    >>> next_dealer(Table(1, tuple("ABCD"), 1), "ABD", {"C"}), next_dealer(
    ...     Table(1, tuple("ABCD"), 2), "ABD", {"C"})
    (2, 2)
    >>> next_dealer(Table(1, tuple("PQR"), 0), "PR", {"Q"}, seats_each=2)  # Q1 skipped: R1
    1
    """
    count = len(last.entrants)
    seats = count * seats_each
    for step in range(1, seats + 1):
        seat = (last.dealer + step) % seats
        entrant = last.entrants[seat % count]
        if entrant not in withdrawn:
            return seat // count * len(here) + list(here).index(entrant)
    raise RuleError(N_("Everyone at table %(table)s has withdrawn."), table=last.number)


# --- display -----------------------------------------------------------------------------------


def display(value: Fraction) -> str:
    """The one-decimal text of ``value``; a half tenth rounds away from zero (2.25 gives
    "2.3", -2.25 gives "-2.3"), and what rounds to zero has no sign.

    >>> display(Fraction(5, 2)), display(Fraction(1, 3)), display(Fraction(-2, 3))
    ('2.5', '0.3', '-0.7')
    >>> display(Fraction(9, 4)), display(Fraction(-9, 4)), display(Fraction(-1, 50))
    ('2.3', '-2.3', '0.0')
    """
    tenths = math.floor(abs(value) * 10 + Fraction(1, 2))
    sign = "-" if value < 0 and tenths else ""
    return f"{sign}{tenths // 10}.{tenths % 10}"
