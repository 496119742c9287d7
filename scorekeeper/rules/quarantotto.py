"""Quarantotto: rummy on a shared table, scored from the worst hand (docs/rules.md#quarantotto).

Each game every player scores ``W - h``: ``h`` their points in hand, ``W`` the highest
``h`` at the table. Totals add up over the match and the highest total wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import JOKER, RANKS
from .core import N_, Event, Note, RuleError, check_seat
from .points import Cards, read_cards, rule_error
from .points import entry_points as read_entry
from .roster import Table, gather, on_seats, spread
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
VALUES = {"A": 15, "J": 10, "Q": 10, "K": 10}

CLOSED = Note.CLOSED
LOWEST = Note.LOWEST
ZERO_NOT_CLOSED = Note.ZERO_NOT_CLOSED
STOCK_RAN_OUT = Event.STOCK_RAN_OUT

OPTIONS = (
    Option("length", N_("Match length"), "choice", "players",
           choices=("players", "games", "target"),
           words=(N_("One game per player"), N_("A fixed number of games"),
                  N_("Until a total reaches the target")),
           help=N_("As many games as players (everybody deals once), a fixed number of "
                   "games, or play until a total reaches the target.")),
    Option("games", N_("Number of games"), "int", 4, minimum=1, maximum=100,
           when=("length", "games"),
           help=N_("Used when the match length is a fixed number of games.")),
    Option("target", N_("Target total"), "int", 200, minimum=1, maximum=100_000,
           when=("length", "target"),
           help=N_("Used when the match is played to a target: it ends after the game "
                   "in which a total reaches it.")),
    ENTRY,
)


def card_value(rank: str) -> int:
    """The points one card of ``rank`` counts in hand."""
    return VALUES.get(rank) or int(rank)


def hand_points(cards: Cards, *, seat: int | None = None) -> int:
    """Points of the cards left in hand: Ace 15, J Q K 10, 2 to 10 face value.

    Quarantotto has no jokers: one is refused, naming ``seat`` when given.

    >>> hand_points("A K 7"), hand_points("10 D"), hand_points([])
    (32, 20, 0)
    >>> hand_points("7 *", seat=1)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 1: Quarantotto has no jokers.
    """
    total = 0
    for card in read_cards(cards, seat=seat):
        if card.rank == JOKER:
            raise rule_error(seat, N_("%(player)s: Quarantotto has no jokers."),
                             N_("Quarantotto has no jokers."))
        total += card_value(card.rank)
    return total


def card_values() -> list[tuple[str, int]]:
    """Each rank and its points in hand, for a printed sheet.

    >>> card_values()[:3]
    [('A', 15), ('2', 2), ('3', 3)]
    """
    return [(rank, card_value(rank)) for rank in RANKS]


def entry_points(entry: Any, *, seat: int | None = None) -> int | None:
    """One player's points in hand as entered: a total, a sum such as ``"10+15"``, or cards.

    ``None`` or blank text gives ``None`` (nothing entered).

    >>> entry_points(32), entry_points("10+15+7"), entry_points("A K 7"), entry_points("")
    (32, 32, 32, None)
    """
    return read_entry(entry, hand_points, seat=seat)


def keypad_points(entry: Any, *, seat: int) -> int | None:
    """Seat ``seat``'s points in hand as entered, refused when no hand can hold them, so the
    keypad marks an impossible hand as it is entered.

    >>> keypad_points("A K", seat=1)
    25
    >>> keypad_points("1", seat=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 2: 1 point in hand is impossible (the lowest ...
    """
    h = entry_points(entry, seat=seat)
    if h is not None and h < 0:
        raise RuleError(N_("%(player)s: points in hand cannot be negative."), seat=seat)
    if h == 1:
        raise RuleError(N_("%(player)s: 1 point in hand is impossible (the lowest card "
                           "is a 2)."), seat=seat)
    return h


def _closer(closer: Any, players: int) -> int | None:
    if closer is None or closer == "":
        return None
    return check_seat(closer, players, N_("closer"))


def _checked(points: Sequence[Any], closer: Any) -> tuple[list[int], int | None]:
    """Each seat's points in hand, checked, and the closer's seat (None: the stock ran out)."""
    closer = _closer(closer, len(points))
    hands: list[int] = []
    for seat, entry in enumerate(points):
        h = keypad_points(entry, seat=seat)
        if h is None:
            if seat != closer:
                raise RuleError(N_("%(player)s: the points in hand are missing."), seat=seat)
            h = 0
        hands.append(h)
    if closer is not None and hands[closer] != 0:
        raise RuleError(N_("%(player)s closed and must have 0 points in hand."), seat=closer)
    zeros = [seat for seat, h in enumerate(hands) if h == 0 and seat != closer]
    if len(zeros) > (0 if closer is not None else 1):
        seat = zeros[-1]
        raise RuleError(N_("%(player)s: only one player can end a game with 0 points in hand."),
                        seat=seat)
    return hands, closer


def score_game(hand_points: Sequence[Any], *, closer: int | None) -> list[int]:
    """Each seat's score for one game: ``W - h``, W the highest points in hand.

    ``hand_points`` has one entry per seat (an int, a sum or cards, see
    :func:`entry_points`); the closer's may be None. ``closer`` is the seat that
    closed, or None when the stock ran out.

    >>> score_game([0, 12, 30, 7], closer=0)
    [30, 18, 0, 23]
    >>> score_game([5, 12, 5], closer=None)
    [7, 0, 7]
    >>> score_game([0, 12, 0], closer=0)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.core.RuleError: seat 2: only one player can end a game with 0 points in hand.
    """
    hands, _ = _checked(hand_points, closer)
    worst = max(hands, default=0)
    return [worst - h for h in hands]


def warnings(hand_points: Sequence[Any], *, closer: int | None) -> list[RuleError]:
    """What to point out but allow: a player at 0 when the stock ran out.

    The game is checked as in :func:`score_game` (refusals are raised); the warnings
    are returned as RuleError objects, not raised, so they render like errors.

    >>> [str(w) for w in warnings([0, 12, 30], closer=None)]
    ['seat 0 has 0 points in hand though nobody closed: check the points.']
    >>> warnings([0, 12, 30], closer=0)
    []
    """
    hands, closer = _checked(hand_points, closer)
    found = (entry_warning(h, seat=seat, nobody_closed=closer is None)
             for seat, h in enumerate(hands))
    return [w for w in found if w is not None]


def entry_warning(entry: Any, *, seat: int, nobody_closed: bool) -> RuleError | None:
    """The warning one player's entry earns as it is entered (None when there is none):
    0 points in hand though nobody closed. An entry the rules refuse earns none here.

    >>> str(entry_warning("0", seat=1, nobody_closed=True))
    'seat 1 has 0 points in hand though nobody closed: check the points.'
    >>> entry_warning("0", seat=1, nobody_closed=False)
    >>> entry_warning("K", seat=1, nobody_closed=True)
    """
    try:
        points = entry_points(entry, seat=seat)
    except RuleError:
        return None
    if nobody_closed and points == 0:
        return RuleError(N_("%(player)s has 0 points in hand though nobody closed: check the "
                            "points."), seat=seat)
    return None


def winners(hand_points: Sequence[Any], *, closer: int | None) -> list[int]:
    """The game's winners: the closer, or on an exhausted stock the lowest hands (shared).

    >>> winners([0, 12, 30], closer=0), winners([9, 4, 4], closer=None)
    ([0], [1, 2])
    """
    hands, closer = _checked(hand_points, closer)
    if closer is not None:
        return [closer]
    low = min(hands)
    return [seat for seat, h in enumerate(hands) if h == low]


def _notes(hands: list[int], closer: int | None) -> tuple[Note | str, ...]:
    if closer is not None:
        return tuple(CLOSED if seat == closer else "" for seat in range(len(hands)))
    low = min(hands)
    return tuple(ZERO_NOT_CLOSED if h == 0 else LOWEST if h == low else "" for h in hands)


def _clean_options(players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(N_("Quarantotto is played by 2 to 6 players, not %(players)s."),
                        players=players)
    unknown = set(options) - {o.key for o in OPTIONS}
    if unknown:
        raise RuleError(N_("Unknown option %(option)s."), option=sorted(unknown)[0])
    return {o.key: o.clean(options.get(o.key)) for o in OPTIONS}


def _length(players: int, options: Mapping[str, Any]) -> int | None:
    """Games in the match, or None when it is played to a target."""
    if options["length"] == "target":
        return None
    return players if options["length"] == "players" else options["games"]


def build_sheet(players: int, hands: Sequence[Mapping[str, Any]], *, first_dealer: int = 0,
                roster: Sequence[Mapping[str, Any]] = (), tournament: bool = False,
                entry: str | None = None, **options: Any) -> Sheet:
    """The sheet of a match from its games' inputs, in order.

    Each game is ``{"closer": seat or None, "points": [one entry per seat]}``: the
    closer is the seat that went out, None (or absent) when the stock ran out. An
    entry is a total (``32``, ``"32"``), a sum (``"10+15+7"``) or the cards left in
    hand (``"A K 7"``, ``["A", "K", "7"]``), see :func:`entry_points`; the closer's
    may be None. Row.inputs keep the raw game and add ``"hand_points"``, the points
    in hand per seat. Options: ``length`` (``"players"``, ``"games"`` or
    ``"target"``), ``games``, ``target``.

    ``roster`` lists the changes of players (:mod:`scorekeeper.rules.roster`): after a
    join ``points`` has one entry per seat of the table then (joiners' seats after the
    first ones), None for a seat not dealt in (sitting out, left), and ``hand_points``
    None there; the sitter is not counted in W. ``entry`` is ``"lowest"`` (a joiner starts
    with the lowest total of the players still playing, the default) or ``"zero"``;
    ``tournament`` refuses joins and sit-outs.

    >>> sheet = build_sheet(2, [{"closer": 1, "points": ["A K 7", None]}])
    >>> sheet.rows[0].points, sheet.totals, sheet.next.number, sheet.next.dealer
    ((0, 32), (0, 32), 2, 1)
    >>> sheet = build_sheet(2, [{"closer": 1, "points": [20, 0]}, {"points": [9, 5]}])
    >>> sheet.totals, sheet.finished, sheet.winners
    ((0, 24), True, (1,))
    """
    opts = _clean_options(players, options)
    first_dealer = check_seat(first_dealer, players, N_("first dealer"))
    table = Table("Quarantotto", players, first_dealer, roster, maximum=MAX_PLAYERS,
                  tournament=tournament, entry=entry)
    return _played(players, opts, table, [], [], hands)


def resume_sheet(previous: Sheet, hands: Sequence[Mapping[str, Any]]) -> Sheet:
    """The sheet of ``previous``'s games and ``hands`` after them: what :func:`build_sheet`
    gives for all of them, each earlier game's row taken as ``previous`` has it (a match
    with changes of players is built whole, see ``Game.extend_sheet``).

    >>> first = build_sheet(2, [{"closer": 1, "points": [20, 0]}])
    >>> resume_sheet(first, [{"points": [9, 5]}]) == build_sheet(
    ...     2, [{"closer": 1, "points": [20, 0]}, {"points": [9, 5]}])
    True
    """
    first_dealer = previous.rows[0].dealer if previous.rows else previous.next.dealer
    players = previous.players
    table = Table("Quarantotto", players, first_dealer, (), maximum=MAX_PLAYERS,
                  tournament=previous.roster.tournament, entry=previous.roster.entry)
    for _row in previous.rows:
        table.deal(table.order)
        table.played(table.order)
    return _played(players, dict(previous.options), table, list(previous.rows),
                   list(previous.status.warnings), hands)


def _played(players: int, opts: dict[str, Any], table: Table, rows: list[Row],
            found: list[dict[str, Any]], hands: Sequence[Mapping[str, Any]]) -> Sheet:
    """The sheet of the games ``rows`` (with their warnings ``found``) and ``hands`` after
    them, scored one by one; ``table`` has seen ``rows`` played."""
    target = opts["target"]
    totals: list[int] = list(rows[-1].totals) if rows else [0] * players

    def over() -> bool:
        length = _length(table.counted(), opts)
        return table.over() or bool(rows) and (
            len(rows) >= length if length is not None
            else max(totals[s] for s in table.playing()) >= target)

    def between(after: int) -> bool:
        finished = over()
        table.between(after, finished=finished,
                      entry=lambda: min(totals[s] for s in table.playing()))
        totals.extend(table.entries[len(totals):])  # type: ignore[arg-type]
        return over()

    for index, hand in enumerate(hands, start=len(rows)):
        if between(index):
            raise RuleError(N_("The match is over after game %(number)s."), number=index)
        table.check_dealt(index + 1)
        dealt = table.dealt_in()
        dealer = table.deal(dealt)
        raw = gather(list(hand.get("points") or ()), dealt, table.seats, N_("points entry"))
        closer = hand.get("closer")
        if closer is not None and closer != "":
            closer = check_seat(closer, table.seats, N_("closer"))
            if closer not in dealt:
                raise RuleError(N_("%(player)s is not dealt in and takes no part in this "
                                   "hand."), seat=closer)
            closer = dealt.index(closer)
        game_hands, closer = on_seats(dealt, _checked, raw, closer)
        score = score_game(game_hands, closer=closer)
        for seat, points in zip(dealt, score, strict=True):
            totals[seat] += points
        table.played(dealt)
        rows.append(Row(index + 1, dealer,
                        {**hand, "hand_points": list(spread(game_hands, dealt, table.seats))},
                        spread(score, dealt, table.seats), tuple(totals),
                        spread(_notes(game_hands, closer), dealt, table.seats, ""),
                        events=() if closer is not None else (STOCK_RAN_OUT,)))
        found += [{"game": index + 1, "seat": dealt[w.seat], "message": w.template}
                  for w in warnings(game_hands, closer=closer)]
    finished = between(len(rows))
    table.check_done(len(rows))
    length, dealt = _length(table.counted(), opts), table.dealt_in()
    ranks = table.places([-t for t in totals])
    return Sheet(
        game="quarantotto", players=players, options=opts,
        columns=tuple((seat,) for seat in range(table.seats)), rows=table.rows(rows, table.seats),
        totals=tuple(totals), places=ranks, finished=finished,
        winners=tuple(s for s in range(table.seats) if ranks[s] == 1) if finished else (),
        next=None if finished or table.waiting() else Next(
            len(rows) + 1, table.next_dealer(dealt), tuple(dealt),
            NextHand(length, None if length else target)),
        status=MatchStatus(length, None if length else target, len(rows), found),
        roster=table.roster(),
    )


@dataclass(frozen=True)
class MatchStatus(Status):
    """A Quarantotto sheet beyond its rows: the match's length in games, or its target,
    the games played and the warnings its hands raise."""

    games: int | None
    target: int | None
    played: int
    warnings: list[dict[str, Any]]

    @property
    def games_left(self) -> int | None:
        """The games still to play in a match of a fixed length; None when it is played
        to a target.

        >>> MatchStatus(games=5, target=None, played=2, warnings=[]).games_left
        3
        """
        return None if self.games is None else max(self.games - self.played, 0)


@dataclass(frozen=True)
class NextHand(Details):
    """The game being entered: the match's length in games, or its target."""

    games: int | None
    target: int | None


def counts(sheet: Sheet) -> tuple[dict[str, int], ...]:
    """Per seat: games played, games closed, and the points left in hand summed.

    >>> sheet = build_sheet(2, [{"closer": 0, "points": [None, "K 7"]}])
    >>> counts(sheet)
    ({'games': 1, 'closed': 1, 'hand_points': 0}, {'games': 1, 'closed': 0, 'hand_points': 17})
    """
    out = tuple({"games": 0, "closed": 0, "hand_points": 0} for _seat in sheet.columns)
    for row in sheet.rows:
        for seat, points in enumerate(row.inputs["hand_points"]):
            if points is None:  # not dealt in
                continue
            out[seat]["games"] += 1
            out[seat]["closed"] += row.inputs.get("closer") == seat
            out[seat]["hand_points"] += points
    return out


FIGURES = (
    Figure("closed", N_("Games closed"), of="closed",
           help=N_("Games in which the player went out first and so won the game.")),
    Figure("hand_points", N_("Average hand points"), of="hand_points", per="games",
           help=N_("The points left in hand at the end of a game, on average: fewer is "
                   "better.")),
)


GAME = Game(
    key="quarantotto", name="Quarantotto", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    figures=FIGURES, counts=counts,
    options=OPTIONS, clockwise=True, build_sheet=build_sheet, resume_sheet=resume_sheet,
    # Every table of a tournament plays as long: 4 games (TOURNAMENTS.md).
    tournament=TournamentTables(options=(("length", "games"), ("games", 4))),
    saved=N_("Game %(n)s saved."),
    saved_elsewhere=N_("Another phone saved game %(n)s: this is the sheet now."),
    correct=N_("Correct game %(n)s"),
)
