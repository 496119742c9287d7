"""A table's statistics: per game and per player, head-to-head, and a skill rating.

Every figure comes from the computed sheets of the table's matches (``compute_sheet``, the
one road from stored inputs to scores) and from the counts each game's rules module
declares (``Game.counts`` and ``Game.figures``): nothing here scores a hand. The facts of
each match are cached by its version, the statistics by the table's version, which every
change to any of its matches bumps; the ratings resume from the first match that changed,
so a correction of a past match rates every later one again, in order.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..db import db
from ..models import Match, Player, Table
from ..rules import GAMES, Figure, Sheet
from ..rules.sheet import Counts
from .cache import cache
from .charts import spread
from .sheets import compute_sheet, sheets


@dataclass(frozen=True)
class Facts:
    """What the statistics need of one match, from its computed sheet."""

    id: str
    version: int  # of the match: a match unchanged since it was rated has the same
    game: str
    created_at: datetime
    finished: bool
    columns: tuple[tuple[int, ...], ...]  # player ids of each column
    totals: tuple[int, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    counts: tuple[dict[str, int], ...]  # the game's counts, per column
    # A seat several people held: each one's counts of the hands they played, as (column,
    # player id, counts); they replace that column's counts for its players (case 27).
    shares: tuple[tuple[int, int, dict[str, int]], ...] = ()


def shares_of(sheet: Sheet, ids: list[int], count: Counts) -> tuple[tuple[int, int, dict], ...]:
    """The counts of each person who held a seat that changed hands, over the hands they
    held it (docs/rules.md#people-who-come-and-go, "Substitute")."""
    out = []
    for column, seats in enumerate(sheet.columns):
        held = sheet.roster.holders[seats[0]] if seats[0] < len(sheet.roster.holders) else ()
        if len(seats) != 1 or len(held) < 2:
            continue
        for index, holder in enumerate(held):
            until = held[index + 1].hand if index + 1 < len(held) else len(sheet.rows) + 1
            rows = tuple(row for row in sheet.rows if holder.hand <= row.number < until)
            person = ids[seats[0]] if holder.person is None else holder.person
            out.append((column, person, count(replace(sheet, rows=rows))[column]))
    return tuple(out)


def facts_of(match: Match) -> Facts:
    """The facts of a match, from its computed sheet and its game's counts: the sheet kept
    for its version, else one computed from its hands (loaded with it) and not kept, so
    that the statistics of thousands of matches leave the sheets of the matches being
    played in the cache."""
    sheet = sheets().peek((match.id, match.version)) or compute_sheet(
        match, [hand.data for hand in match.hands])
    game = GAMES[match.game]
    # A seat's result goes to whoever played most of its hands (its own player, None, or a
    # substitute): docs/rules.md#people-who-come-and-go, case 26.
    credit = sheet.roster.credit
    seated = [seat.player_id for seat in match.seats]
    ids = [seated[s] if s >= len(credit) or credit[s] is None else credit[s]
           for s in range(len(seated))]
    return Facts(
        id=match.id, version=match.version, game=match.game, created_at=match.created_at,
        finished=sheet.finished,
        columns=tuple(tuple(ids[s] for s in column) for column in sheet.columns),
        totals=tuple(sheet.totals), places=tuple(sheet.places), winners=tuple(sheet.winners),
        counts=game.counts(sheet) if game.counts else tuple({} for _c in sheet.columns),
        shares=shares_of(sheet, seated, game.counts) if game.counts else ())


FACTS_BATCH = 500  # matches loaded at a time when their facts are missing


def table_facts(table_id: str) -> list[Facts]:
    """The facts of every match of the table, oldest first; only the matches that changed
    since they were last read are loaded, a few hundred at a time. What the cache of facts
    cannot keep (a table of thousands of matches) is made again, never missing."""
    known = cache("match-facts", facts_weight)
    rows = db.session.execute(select(Match.id, Match.version).where(
        Match.table_id == table_id).order_by(Match.created_at, Match.id)).all()
    facts = {match_id: known.peek((match_id, version)) for match_id, version in rows}
    missing = [match_id for match_id, value in facts.items() if value is None]
    for start in range(0, len(missing), FACTS_BATCH):
        for match in db.session.scalars(select(Match).options(selectinload(Match.hands)).where(
                Match.id.in_(missing[start:start + FACTS_BATCH]))):
            facts[match.id] = facts_of(match)
            known.put((match.id, match.version), facts[match.id])
    return [facts[match_id] for match_id, _version in rows if facts[match_id] is not None]


@dataclass
class Line:
    """One player's (or one partnership's) figures in one game."""

    played: int = 0
    won: int = 0
    # the final scores of the finished matches: their sum, the highest and the lowest (a
    # table's statistics hold a few numbers a player, whatever the matches played)
    scored: int = 0
    highest: int | None = None
    lowest: int | None = None
    streak: int = 0
    best_streak: int = 0
    counts: Counter = field(default_factory=Counter)

    @property
    def win_rate(self) -> float | None:
        return round(100 * self.won / self.played, 1) if self.played else None

    @property
    def average(self) -> float | None:
        return round(self.scored / self.played, 1) if self.played else None

    def best(self, lower_wins: bool) -> int | None:
        """The best final score: the highest, or the lowest where the lowest wins."""
        return self.lowest if lower_wins else self.highest

    def figure(self, figure: Figure) -> float | int | None:
        return figure.value(self.counts)


START = 25.0  # every player's rating before a first match (openskill's mu)
# The uncertainty a rating has before a first match (three of openskill's sigma), and the
# shares of it under which a rating is taking shape, then settled.
START_UNCERTAINTY = 25.0
SHAPING, SETTLED = 2 / 3, 1 / 3


@dataclass(frozen=True)
class Rating:
    """A player's skill rating in a game: mean and standard deviation (openskill)."""

    mu: float
    sigma: float

    @property
    def uncertainty(self) -> float:
        """How far the skill may be from the rating: three deviations, nearly sure."""
        return 3 * self.sigma

    @property
    def ordinal(self) -> float:
        """What the players are ranked by: the rating less its uncertainty, the skill a
        player has almost surely; a player who has played little ranks low."""
        return self.mu - self.uncertainty

    @property
    def certainty(self) -> str:
        """How sure the rating is, as a code: uncertain, shaping or settled.

        >>> [Rating(25, s).certainty for s in (25 / 3, 4, 2)]
        ['uncertain', 'shaping', 'settled']
        """
        if self.uncertainty <= SETTLED * START_UNCERTAINTY:
            return "settled"
        return "shaping" if self.uncertainty <= SHAPING * START_UNCERTAINTY else "uncertain"


@dataclass
class GameStats:
    """A game's statistics at one table."""

    key: str
    matches: int = 0
    finished: int = 0
    players: dict[int, Line] = field(default_factory=lambda: defaultdict(Line))
    sides: dict[tuple[int, ...], Line] = field(default_factory=lambda: defaultdict(Line))
    ratings: dict[int, Rating] = field(default_factory=dict)
    # each rated player's rating (mu) after each rated match they played: (step, rating),
    # evenly spread over the matches when they are more than a chart draws (charts.spread)
    history: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    rated: int = 0

    def counted(self, order: list[int], count: str | None = None) -> list[int]:
        """The players, in ``order``, with something counted (``count``, or any count):
        a player with no hand or deal yet has no figure to show."""
        return [p for p in order if p in self.players and (
            self.players[p].counts[count] if count else any(self.players[p].counts.values()))]

    def ranked(self, order: list[int]) -> list[int]:
        """The rated players, highest ranked first (by ``Rating.ordinal``), ties in
        ``order``."""
        return sorted((p for p in order if p in self.ratings),
                      key=lambda p: -self.ratings[p].ordinal)


@dataclass
class TableStats:
    """A table's statistics: per game, and head-to-head across games."""

    games: dict[str, GameStats]
    names: dict[int, str]
    # (a, b) -> matches where a finished ahead of b
    ahead: Counter

    def rivals(self, order: list[int]) -> list[int]:
        """The players, in ``order``, who met another in a finished match."""
        met = {p for pair in self.ahead for p in pair}
        return [p for p in order if p in met]


def _add(line: Line, facts: Facts, column: int, counts: bool = True) -> None:
    """One match of a player (or side) into its line (``counts``: its column's counts too)."""
    if counts:
        line.counts.update(facts.counts[column])
    if not facts.finished:
        return
    line.played += 1
    score = facts.totals[column]
    line.scored += score
    line.highest = score if line.highest is None else max(line.highest, score)
    line.lowest = score if line.lowest is None else min(line.lowest, score)
    if column in facts.winners:
        line.won += 1
        line.streak += 1
        line.best_streak = max(line.best_streak, line.streak)
    else:
        line.streak = 0


def compute(table_id: str) -> TableStats:
    """The statistics of the table from its matches' facts."""
    games: dict[str, GameStats] = {}
    ahead: Counter = Counter()
    everything = table_facts(table_id)
    for facts in everything:
        stats = games.setdefault(facts.game, GameStats(facts.game))
        stats.matches += 1
        stats.finished += facts.finished
        shared = {column for column, _person, _counts in facts.shares}
        for _column, person, counts in facts.shares:
            stats.players[person].counts.update(counts)
        for column, players in enumerate(facts.columns):
            for player in players:
                _add(stats.players[player], facts, column, column not in shared)
            if len(players) > 1:
                _add(stats.sides[players], facts, column)
        if facts.finished and len(facts.columns) > 1:
            for a_column, a_players in enumerate(facts.columns):
                for b_column, b_players in enumerate(facts.columns):
                    if facts.places[a_column] < facts.places[b_column]:
                        ahead.update((a, b) for a in a_players for b in b_players)
    for key, stats in games.items():
        _rate(table_id, key, stats, everything)
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.table_id == table_id)).all())
    return TableStats(games=dict(sorted(games.items(), key=lambda g: list(GAMES).index(g[0]))),
                      names=names, ahead=ahead)


CHECKPOINT = 100  # matches rated between two full states kept to resume from


@dataclass
class Run:
    """The ratings of a game's finished matches at a table, in order: which matches were
    rated (id and version), each one's players' ratings after it, and the whole state every
    ``CHECKPOINT`` matches, the last one included, to resume from."""

    rated: list[tuple[str, int]] = field(default_factory=list)
    after: list[dict[int, tuple[float, float]]] = field(default_factory=list)
    states: dict[int, dict[int, tuple[float, float]]] = field(default_factory=dict)

    def weight(self) -> int:
        """The bytes it holds, estimated without walking it."""
        players = sum(len(a) for a in self.after[-20:]) / min(len(self.after), 20) \
            if self.after else 0
        widest = max((len(state) for state in self.states.values()), default=0)
        return 1024 + len(self.rated) * int(200 + 110 * players) \
            + len(self.states) * (300 + 110 * widest)


def _rate(table_id: str, game: str, stats: GameStats, everything: list[Facts]) -> None:
    """Rate the game's finished matches in order (openskill, Plackett-Luce, partnerships as
    teams), resuming from the last state kept within the longest run of matches rated
    before and unchanged since."""
    from openskill.models import PlackettLuce

    rated = [f for f in everything if f.game == game and f.finished and len(f.columns) > 1]
    runs = cache("rating-runs")
    run = runs.peek((table_id, game)) or Run()
    same = 0
    while same < min(len(run.rated), len(rated)) and \
            run.rated[same] == (rated[same].id, rated[same].version):
        same += 1
    start = max((k for k in run.states if k <= same), default=0)
    state: dict[int, tuple[float, float]] = dict(run.states.get(start, {}))
    run = Run(run.rated[:start], run.after[:start],
              {k: v for k, v in run.states.items() if k <= start})
    model = PlackettLuce(mu=START, sigma=START_UNCERTAINTY / 3)
    for facts in rated[start:]:
        teams = [[model.rating(*state.get(p, (model.mu, model.sigma))) for p in column]
                 for column in facts.columns]
        after: dict[int, tuple[float, float]] = {}
        for column, team in zip(facts.columns, model.rate(teams, ranks=list(facts.places)),
                                strict=True):
            for player, rating in zip(column, team, strict=True):
                state[player] = after[player] = (rating.mu, rating.sigma)
        run.rated.append((facts.id, facts.version))
        run.after.append(after)
        if len(run.rated) % CHECKPOINT == 0:
            run.states[len(run.rated)] = dict(state)
    if run.rated:
        run.states[len(run.rated)] = dict(state)
    runs.put((table_id, game), run)
    stats.rated = len(run.rated)
    stats.ratings = {p: Rating(mu, sigma) for p, (mu, sigma) in state.items()}
    history: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for step, after in enumerate(run.after, start=1):
        for player, (mu, _sigma) in after.items():
            history[player].append((step, mu))
    # What the chart draws: a few hundred points a player at most, the last one included.
    stats.history = {player: list(spread(points)) for player, points in history.items()}


def facts_weight(facts: Facts) -> int:
    """The bytes one match's facts hold, estimated without walking them: most of it is the
    game's counts of each column."""
    return 400 + 480 * len(facts.columns)


def stats_weight(stats: TableStats) -> int:
    """The bytes a table's statistics hold, estimated without walking them: most of it is
    the ratings' history, a point a player and match."""
    return 4096 + 120 * len(stats.names) + 100 * len(stats.ahead) + sum(
        600 * (len(g.players) + len(g.sides)) + 100 * sum(len(h) for h in g.history.values())
        for g in stats.games.values())


def table_stats(table: Table) -> TableStats:
    """The table's statistics, computed once per version of the table."""
    return cache("table-stats", stats_weight).get((table.id, table.version),
                                                  lambda: compute(table.id))
