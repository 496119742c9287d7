"""What the rules hand to the web layer: the game's description (:class:`Game`, its
:class:`Option` s and statistics' :class:`Figure` s) and the computed :class:`Sheet`, its
rows and its next hand, each game's :class:`Status` and :class:`Details` with named fields.

docs/rules.md, "Conventions for every game".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..frozen import frozen
from .core import N_, Event, Note, RuleError
from .roster import Kind, Mark, Presence, Roster


@dataclass(frozen=True)
class Option:
    """A table option chosen when a match is created.

    ``kind`` is ``"bool"``, ``"int"`` or ``"choice"``; ``choices`` lists the
    allowed values of a choice (or of an int, when only some are allowed), ``words`` what
    each of them says on a page, in the same order (none: the value itself); ``players``
    restricts the option to those player counts (empty: any); ``when`` names another option
    and the value it must have for this one to be in force.
    """

    key: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    players: tuple[int, ...] = ()
    help: str = ""
    when: tuple[str, Any] | None = None
    words: tuple[str, ...] = ()

    def word(self, value: Any) -> str:
        """What a value of this option says on a page (a message to translate).

        >>> Option("end", "Ends", "choice", "deals", choices=("deals",),
        ...        words=("After a fixed number of deals",)).word("deals")
        'After a fixed number of deals'
        """
        if value in self.choices and self.words:
            return self.words[self.choices.index(value)]
        return str(value)

    def applies(self, players: int) -> bool:
        """True when this option can be set for a table of ``players``."""
        return not self.players or players in self.players

    def in_force(self, players: int, options: Mapping[str, Any]) -> bool:
        """True when this option matters to a match of ``players`` with these ``options``.

        >>> deals = Option("deals", "Deals", "int", 10, when=("end", "deals"))
        >>> deals.in_force(3, {"end": "deals"}), deals.in_force(3, {"end": "elimination"})
        (True, False)
        """
        return self.applies(players) and (
            self.when is None or options.get(self.when[0]) == self.when[1])

    def clean(self, value: Any) -> Any:
        """``value`` converted to this option's type, or RuleError.

        >>> Option("target", "Target", "choice", 45, choices=(45, 120, 125)).clean("120")
        120
        """
        if value is None or value == "":
            return self.default
        if self.kind == "bool":
            if isinstance(value, str):
                return value.lower() in ("1", "true", "on", "yes", "y")
            return bool(value)
        if self.kind in ("int", "choice") and not isinstance(self.default, str):
            try:
                number = int(value)
            except (TypeError, ValueError, OverflowError):  # an infinite float
                number = None
            if number is None or isinstance(value, float) and value != number:
                raise RuleError(N_("%(option)s must be a whole number."), option=self.label)
            value = number
        if self.choices and value not in self.choices:
            raise RuleError(N_("%(option)s: %(value)s is not one of the choices."),
                            option=self.label, value=value)
        if self.minimum is not None and value < self.minimum:
            raise RuleError(N_("%(option)s must be at least %(minimum)s."),
                            option=self.label, minimum=self.minimum)
        if self.maximum is not None and value > self.maximum:
            raise RuleError(N_("%(option)s must be at most %(maximum)s."),
                            option=self.label, maximum=self.maximum)
        return value


# A joiner's entry total, an option of the games that give one: the lowest total of those
# still playing, or 0 (docs/rules.md#people-who-come-and-go; decided case 14).
ENTRY = Option("entry", N_("A new player starts with"), "choice", "lowest",
               choices=("lowest", "zero"),
               words=(N_("The lowest total of those playing"), N_("0")),
               help=N_("The total of a player who joins during the match."))


@dataclass(frozen=True)
class Figure:
    """A figure a game makes interesting, summed over many matches: ``of`` counted per column
    of each match, divided by ``per`` when given (a rate or an average).

    >>> exact = Figure("exact", "Exact bids", of="exact", per="hands", percent=True)
    >>> exact.value({"exact": 3, "hands": 4})
    75.0
    """

    key: str
    label: str
    of: str
    per: str | None = None
    percent: bool = False
    help: str = ""  # what the figure counts, in a sentence (the statistics' key)

    def value(self, counts: Mapping[str, int]) -> float | int | None:
        """The figure from summed counts; None when there is nothing to divide by."""
        if self.per is None:
            return counts.get(self.of, 0)
        per = counts.get(self.per, 0)
        if not per:
            return None
        return round(counts.get(self.of, 0) * (100 if self.percent else 1) / per, 2)


Counts = Callable[["Sheet"], tuple[dict[str, int], ...]]


@dataclass(frozen=True)
class TournamentTables:
    """What a tournament evening needs to know of the game's tables (TOURNAMENTS.md,
    "Tables"): ``alone``, the numbers of players who each play for themselves where other
    numbers play in sides (empty: every number plays alone); ``pairs``, how many fixed pairs
    one table may hold (empty: no tournament of pairs); ``options``, the defaults a
    tournament's matches start from where the game's own differ (a fixed length: every
    table plays as long); ``pair_options``, what a table of pairs sets (an option that does
    not apply to the table's number of players keeps its default)."""

    alone: tuple[int, ...] = ()
    pairs: tuple[int, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    pair_options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Game:
    """A game in the registry: what the web layer needs to offer and score it."""

    key: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    clockwise: bool
    build_sheet: Callable[..., Sheet]
    # The sheet of a match resumed from the sheet of its first hands (``previous``) and the
    # hands after them: what ``build_sheet`` gives for them all, the earlier rows as they are
    # (None: the game builds its sheets whole; :meth:`extend_sheet` does then).
    resume_sheet: Callable[[Sheet, Sequence[Mapping[str, Any]]], Sheet] | None = None
    solitaire: bool = False
    # What the statistics show for this game beyond wins and scores: the figures, and the
    # function that counts their parts per column of a computed sheet.
    figures: tuple[Figure, ...] = ()
    counts: Counts | None = None
    lower_wins: bool = False  # the best final score is the lowest (Scala 40's penalties)
    tournament: TournamentTables = TournamentTables()
    # What the phone says after a hand is stored, and when another phone stored one first;
    # the heading of the page that corrects one.
    saved: str = N_("Hand %(n)s saved.")
    saved_elsewhere: str = N_("Another phone saved hand %(n)s: this is the sheet now.")
    correct: str = N_("Correct hand %(n)s")

    def extend_sheet(self, previous: Sheet, hands: Sequence[Mapping[str, Any]], *,
                     first_dealer: int = 0, **options: Any) -> Sheet:
        """The sheet of ``hands``, given ``previous``: the sheet ``build_sheet`` gave for the
        first of them with the same players, first dealer and options. Equal to
        ``build_sheet(players, hands, ...)``, refusals included; only the hands after
        ``previous``'s are scored where the game resumes its sheets
        (tests/rules/test_extend.py checks both ways for every game).
        """
        if (self.resume_sheet is None or len(previous.rows) > len(hands)
                or options.get("roster") or previous.roster.marks):
            return self.build_sheet(previous.players, hands, first_dealer=first_dealer,
                                    **options)
        return self.resume_sheet(previous, hands[len(previous.rows):])

    def clean_options(self, players: int, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The options for a table of ``players``, defaults filled in, or RuleError.

        An option that does not apply to that table keeps its default.
        """
        if not self.min_players <= players <= self.max_players:
            raise RuleError(N_("%(game)s is played by %(low)s to %(high)s players."),
                            game=self.name, low=self.min_players, high=self.max_players)
        return {
            o.key: o.clean(raw.get(o.key)) if o.applies(players) else o.default
            for o in self.options
        }


@dataclass(frozen=True)
class Row:
    """One scored hand (deal, game) of a sheet.

    ``points`` and ``totals`` have one entry per column (a seat, or a side where
    partners pool their points); ``None`` marks a column that took no part.
    ``notes`` hold a :class:`Note` per seat (a Navawhist case, who closed), "" for none.
    ``presence`` holds each seat's :class:`~scorekeeper.rules.roster.Presence` in the hand
    (dealt in, out, not yet joined, gone); a column of a seat not dealt in has None points,
    and None totals before the seat joined.
    """

    number: int
    dealer: int | None
    inputs: Mapping[str, Any]
    points: tuple[int | None, ...]
    totals: tuple[int | None, ...]
    notes: tuple[Note | str, ...] = ()
    annulled: bool = False
    events: tuple[Event, ...] = ()
    presence: tuple[Presence, ...] = ()

    # Frozen through and through once made: its inputs (raw data) refuse any change, and
    # its other fields are tuples of numbers and codes.
    deeply_frozen = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "inputs", frozen(self.inputs))


@dataclass(frozen=True)
class Details:
    """What a game says of its sheet (``Sheet.status``) or of its next hand (``Next.info``)
    beyond the fields every game shares: each game subclasses it, a frozen dataclass whose
    fields are named, so that a template reads ``sheet.status.schedule`` and never guesses.

    The JSON export gives its fields in order (:meth:`as_json`); a field whose metadata says
    ``optional`` is left out while it is None.
    """

    def as_json(self) -> dict[str, Any]:
        """The fields as JSON-able data, in the order they are declared."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if not (f.metadata.get("optional") and getattr(self, f.name) is None)}


def optional(default: Any = None) -> Any:
    """A field of :class:`Details` that the JSON export leaves out while it is None."""
    return field(default=default, metadata={"optional": True})


@dataclass(frozen=True)
class Status(Details):
    """What a game's sheet says beyond rows and totals (``Sheet.status``); the two
    questions below are asked by pages every game shares, each game answers them."""

    @property
    def hands_in_all(self) -> int | None:
        """How many hands the match has in all, when its rules fix it in advance and the
        match list says "Hand 3 of 19"; None otherwise."""
        return None

    def place_reason(self, column: int) -> tuple[str, dict[str, Any]] | None:
        """Why column ``column`` is placed where it is, beyond its total, as a message and
        its values ("out in deal %(n)s"); None when its total says it all."""
        return None


@dataclass(frozen=True)
class Next:
    """The hand to enter next: its number, dealer and the seats that play it."""

    number: int
    dealer: int | None
    seats: tuple[int, ...]
    info: Details = field(default_factory=Details)


@dataclass(frozen=True)
class Sheet:
    """A match computed from its stored inputs.

    ``columns`` lists the seats of each column (one seat each unless partners
    share a score); ``places`` gives each column's place (1, 1, 3...);
    ``winners`` the winning columns once ``finished``; ``roster`` who plays the match: the
    turn order, each seat's state and holders, and the changes of players
    (docs/rules.md#people-who-come-and-go). ``players`` is the number the match began
    with; joiners' seats follow theirs (``len(roster.states)`` seats in all), and
    ``next`` is None too while the next hand waits for a sitter (``roster.waiting``).
    """

    game: str
    players: int
    options: Mapping[str, Any]
    columns: tuple[tuple[int, ...], ...]
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    next: Next | None
    status: Status = field(default_factory=Status)
    roster: Roster = field(default_factory=Roster)


@dataclass(frozen=True)
class Preview:
    """What a proposed change gives: its mark (a joiner's entry total, the range of a
    sit-out a return ends) and the sheet with it."""

    mark: Mark | None
    sheet: Sheet


def propose(game: Game, players: int, hands: Sequence[Mapping[str, Any]],
            change: Mapping[str, Any], *, first_dealer: int = 0,
            roster: Sequence[Mapping[str, Any]] = (), **options: Any) -> Preview:
    """Check one change of players proposed now, after ``hands`` and ``roster``: the
    :class:`Preview` it gives, or RuleError saying why it is refused. ``change`` is a dict
    as in ``roster`` (its ``after`` may be left out: the hands entered). Examples for each
    game: tests/rules/test_roster.py.
    """
    build = game.build_sheet
    sheet = build(players, hands, first_dealer=first_dealer, roster=roster, **options)
    if len(sheet.rows) < len(hands):
        raise RuleError(N_("A hand has entries: finish or clear it before changing who plays."))
    if change.get("after", len(hands)) != len(hands):
        raise RuleError(N_("A change of players takes effect from the next hand, %(hand)s."),
                        hand=len(hands) + 1)
    proposed = {**change, "after": len(hands)}
    try:
        new = build(players, hands, first_dealer=first_dealer, roster=[*roster, proposed],
                    **options)
    except RuleError as error:
        if error.params.get("change") == len(roster) + 1 and error.__cause__ is not None:
            raise error.__cause__ from None
        raise
    kind, seat = Kind(proposed["kind"]), proposed.get("seat")
    if kind is Kind.JOIN:
        seat = len(new.roster.states) - 1
    mark = next((m for m in reversed(new.roster.marks) if m.seat == seat and (
        m.kind is Kind.SIT_OUT and m.last == len(hands) if kind is Kind.BACK
        else m.kind is kind and m.hand == len(hands) + 1)), None)
    return Preview(mark, new)
