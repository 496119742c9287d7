"""Tournament evenings as requests see them: the stored tournament turned into what
:mod:`scorekeeper.rules.tournaments` takes, each table's result read from its match's
computed sheet (never from stored totals), the standings cached by the versions they were
computed from, and a round's matches created by its seating.

Entrants are known to the rules by their number (the order they were entered).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from math import ceil
from typing import Any

from flask import abort, current_app, session
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..db import db
from ..engine.cache import cache
from ..engine.ledger import seat_players
from ..engine.sheets import compute_sheet
from ..models import (
    Device,
    Hand,
    Match,
    MatchKeeper,
    Seat,
    Table,
    Tournament,
    TournamentRound,
    TournamentTable,
)
from ..rules import GAMES
from ..rules import tournaments as rules
from .access import device_token, is_member
from .people import marks_said, people
from .reviews import accepted_sheet, pending_of
from .seating import Seated


def get_tournament(tournament_id: str) -> Tournament:
    """The tournament with this id; 404 when there is none (its address is its secret)."""
    return db.get_or_404(Tournament, tournament_id, description=_("There is no such tournament."))


def organiser(tournament: Tournament) -> bool:
    """True when this phone belongs to the organiser's table: it runs the evening and may
    edit every match of it."""
    return is_member(tournament.table_id)


def get_organised(tournament_id: str) -> Tournament:
    """The tournament, for a change only its organiser's phones may make (403 otherwise)."""
    tournament = get_tournament(tournament_id)
    if not organiser(tournament):
        abort(403, _("Only the organiser’s phones may change the tournament."))
    return tournament


def plan(tournament: Tournament) -> rules.Tournament:
    """What the rules know of the tournament."""
    return rules.Tournament(
        GAMES[tournament.game], tournament.seed,
        tuple(entrant.number for entrant in tournament.entrants if entrant.joined is None),
        pairs=tournament.pairs, size=tournament.size, format=rules.Format(tournament.format),
        rounds=tournament.rounds, go_on=tournament.go_on,
        late=tuple(entrant.number for entrant in tournament.entrants
                   if entrant.joined is not None))


def missed(tournament: Tournament, number: int) -> tuple[int, ...]:
    """The late entrants who were added after round ``number`` was seated: that round is
    shown as sat out for them (0 points, not a loss)."""
    return tuple(e.number for e in tournament.entrants
                 if e.joined is not None and e.joined >= number)


def sitting_out(tournament: Tournament, row: TournamentRound) -> list[int]:
    """Who sat round ``row`` out: those its seating left out, then the late entrants who
    were not in the evening yet."""
    return [*row.sitting_out, *missed(tournament, row.number)]


def late_refusal(tournament: Tournament) -> str | None:
    """Why an entrant cannot be added to the evening now, once round 1 is seated; None
    when a late entrant may be (TOURNAMENTS.md, "People who come and go": Danish only,
    between rounds, until the last round is seated)."""
    row = current_round(tournament)
    if row is None:
        return None
    if tournament.format != rules.Format.DANISH:
        return _("Entrants can be added before round 1 only: a round-robin group and a "
                 "knockout are closed once drawn.")
    if row.number >= tournament.rounds:
        return _("The last round is seated: no entrant can be added any more.")
    if len(tournament.entrants) >= rules.MAX_ENTRANTS:
        return _("A tournament has at most %(n)s entrants.", n=rules.MAX_ENTRANTS)
    if not (row.closed or results(tournament).finished(row.number)):
        return _("Round %(n)s is being played: a late entrant is added between rounds, once "
                 "it is over.", n=row.number)
    return None


def withdrawn(tournament: Tournament) -> frozenset[int]:
    """The entrants who withdrew."""
    return frozenset(e.number for e in tournament.entrants if e.withdrawn is not None)


def seatings(tournament: Tournament) -> list[rules.Seating]:
    """The rounds seated so far, as the rules seat them."""
    return [rules.Seating(
        row.number, tuple(rules.Table(t.number, tuple(t.entrants), t.dealer)
                          for t in tournament.tables if t.round == row.number),
        tuple(row.sitting_out), row.final) for row in tournament.round_rows]


def current_round(tournament: Tournament) -> TournamentRound | None:
    """The latest round seated; None before round 1."""
    return tournament.round_rows[-1] if tournament.round_rows else None


@dataclass(frozen=True)
class SeatedTable:
    """A table of a round as it was seated: what a page shows of its stored row (kept with
    the results, so plain data, never the row itself)."""

    number: int
    round: int
    dealer: int | None
    entrants: tuple[int, ...]
    match_id: str | None

    @classmethod
    def of(cls, table: TournamentTable) -> SeatedTable:
        return cls(table.number, table.round, table.dealer, tuple(table.entrants),
                   table.match_id)


@dataclass(frozen=True)
class TableMatch:
    """What a page shows of a table's match: its id, its players' names in seat order, and
    whether it was closed as it stood."""

    id: str
    names: tuple[str, ...]
    abandoned: bool
    # the names of the people its changes name (substitutes), by id
    people: tuple[tuple[Any, str], ...] = ()


@dataclass(frozen=True)
class Played:
    """One table of a round as it stands: the table as seated, its match (None once
    deleted), the match's sheet and the table's scores."""

    table: SeatedTable
    match: TableMatch | None
    sheet: Any
    score: rules.TableScore
    # the hands that wait to be accepted (a tournament with results the other side accepts)
    provisional: int = 0

    @property
    def status(self) -> str:
        """How the table stands, as a code: "not-started" (no hand completed), "playing",
        "finished", "closed-early" (closed as it stood) or "deleted" (its match deleted)."""
        if self.match is None:
            return "deleted"
        if self.match.abandoned:
            return "closed-early"
        if self.score.finished:
            return "finished"
        return "playing" if self.score.started else "not-started"


@dataclass(frozen=True)
class Results:
    """Every round's tables, each round's standings and the overall standings."""

    rounds: list[list[Played]]
    per_round: list[rules.Standings]
    overall: rules.Standings
    over: bool  # every round played, the last one ended: the final standings
    # what each round's results were computed from: the tournament's version and that
    # round's tables' matches and versions (a page keeps what it renders of a round by it)
    keys: tuple[tuple, ...] = ()

    def finished(self, number: int) -> bool:
        """True when every match of round ``number`` is over (or the round closed)."""
        return all(played.score.finished for played in self.rounds[number - 1])


def version_key(tournament: Tournament) -> tuple:
    """What the standings depend on: the tournament's version and each match's (a deleted
    match drops out of it). One query."""
    rows = db.session.execute(
        select(TournamentTable.round, TournamentTable.number, Match.version)
        .join(Match, Match.id == TournamentTable.match_id)
        .where(TournamentTable.tournament_id == tournament.id)
        .order_by(TournamentTable.round, TournamentTable.number)).all()
    return (tournament.id, tournament.version, tuple(tuple(row) for row in rows))


def round_weight(done: tuple[list[Played], rules.Standings]) -> int:
    """The bytes a round's cached results hold, estimated without walking them (they reach
    the entrants and their sheets' scores): about 2 KB a table and 1 KB a standing."""
    return 1024 + 2048 * len(done[0]) + 1024 * len(done[1].rows)


def results(tournament: Tournament, accepted: bool = False) -> Results:
    """The tournament's results: each round's computed once per version of the tournament
    and of that round's matches (a change to a match of the round in play leaves the
    others' as they were), the overall standings once per :func:`version_key`. With
    ``accepted``, each match counts its hands up to its first provisional one alone."""
    key = version_key(tournament)
    if accepted:
        key = (*key, "accepted")
    versions: dict[int, list[tuple]] = {}
    for row in key[2]:
        versions.setdefault(row[0], []).append(row[1:])
    kept = cache("tournament-rounds", round_weight)
    context: dict[str, Any] = {}  # what every round's standings need, made once if needed
    keys = tuple((tournament.id, tournament.version, row.number,
                  tuple(versions.get(row.number, ())), *key[3:])
                 for row in tournament.round_rows)
    done = [kept.get(round_key, lambda row=row: _round(tournament, row, context, accepted))
            for round_key, row in zip(keys, tournament.round_rows, strict=True)]
    rounds = [played for played, _standings in done]
    ranked, order, out = _ranking(tournament, context)
    # a late entrant who has not played yet ranks last
    waiting = missed(tournament, len(tournament.round_rows))
    overall = cache("tournaments", lambda value: 1024 + 1024 * len(value.rows)).get(
        key, lambda: ranked(order, [_scores(row, played) for row, played
                                    in zip(tournament.round_rows, rounds, strict=True)], out,
                            waiting))
    last = tournament.round_rows[-1] if tournament.round_rows else None
    over = last is not None and (last.final or last.number >= tournament.rounds
                                 and tournament.format != rules.Format.KNOCKOUT) \
        and all(p.score.finished for p in rounds[-1])
    return Results(rounds, [standings for _played, standings in done], overall, over, keys)


def standings_after(tournament: Tournament, done: Results, number: int) -> rules.Standings:
    """The standings as they stood after round ``number`` (1 to the latest round): the
    rounds up to it, those withdrawn by then marked, the late entrants not seated yet last.
    The latest round's are the overall standings; an earlier one's are kept by the
    versions of the rounds they count."""
    if number >= len(done.rounds):
        return done.overall

    def ranked() -> rules.Standings:
        rank, order, _out = _ranking(tournament, {})
        out = frozenset(e.number for e in tournament.entrants
                        if e.withdrawn is not None and e.withdrawn <= number)
        return rank(order, [_scores(row, played) for row, played in zip(
            tournament.round_rows[:number], done.rounds[:number], strict=True)], out,
            missed(tournament, number))

    return cache("tournaments", lambda value: 1024 + 1024 * len(value.rows)).get(
        ("after", number, done.keys[:number]), ranked)


@dataclass(frozen=True)
class CardRound:
    """One round of an entrant's scorecard. ``kind`` is a code: "played", "sat-out" (the
    seating left them out), "late" (not entered yet), "withdrawn", or "out" (not seated:
    knocked out). ``score`` and ``place`` are the rules' for the round (None when it gave
    them nothing); ``standing`` is the entrant's line of the standings after the round."""

    number: int
    kind: str
    table: int | None
    seats: tuple[int, ...]
    opponents: tuple[int, ...]
    place: int | None
    score: rules.Score | None
    standing: rules.Standing


def scorecard(tournament: Tournament, done: Results, number: int) -> list[CardRound]:
    """Entrant ``number``'s rounds, each with the standings after it."""
    entrant = next(e for e in tournament.entrants if e.number == number)
    card = []
    for row, played in zip(tournament.round_rows[:len(done.rounds)], done.rounds, strict=True):
        after = standings_after(tournament, done, row.number)
        standing = next(r for r in after.rows if r.entrant == number)
        at = next((p for p in played if number in p.table.entrants), None)
        if at is not None:
            seat = at.table.entrants.index(number)
            count = len(at.table.entrants)
            card.append(CardRound(
                row.number, "played", at.table.number,
                tuple(seat + 1 + k * count for k in range(2 if tournament.pairs else 1)),
                tuple(n for n in at.table.entrants if n != number),
                rules.places(at.score)[seat], at.score.scores[seat], standing))
            continue
        if number in row.sitting_out:
            kind, score = "sat-out", rules.sat_out(number).scores[0]
        elif entrant.joined is not None and entrant.joined >= row.number:
            kind, score = "late", None
        elif entrant.withdrawn is not None and entrant.withdrawn < row.number:
            kind, score = "withdrawn", None
        else:
            kind, score = "out", None
        card.append(CardRound(row.number, kind, None, (), (), None, score, standing))
    return card


def _ranking(tournament: Tournament, context: dict[str, Any]) -> tuple[Any, Any, Any]:
    """How the tournament ranks (standings or a knockout's), the draw's order and the
    withdrawn entrants, made once per request that needs them."""
    if "ranked" not in context:
        context["ranked"] = (rules.knockout_standings if tournament.format
                             == rules.Format.KNOCKOUT else rules.standings,
                             plan(tournament).order, withdrawn(tournament))
    return context["ranked"]


def _scores(row: TournamentRound, played: list[Played]) -> list[rules.TableScore]:
    """A round's table scores, those who sat out included."""
    return [p.score for p in played] + [rules.sat_out(entrant) for entrant in row.sitting_out]


def _round(tournament: Tournament, row: TournamentRound, context: dict[str, Any],
           accepted: bool = False) -> tuple[list[Played], rules.Standings]:
    """A round's tables as they stand (with ``accepted``, up to their first provisional
    hand), and the round's standings."""
    game = GAMES[tournament.game]
    tables = [t for t in tournament.tables if t.round == row.number]
    ids = [t.match_id for t in tables if t.match_id]
    matches = {m.id: m for m in db.session.scalars(
        select(Match).options(selectinload(Match.seats).selectinload(Seat.player))
        .where(Match.id.in_(ids)))}
    waiting = pending_of(matches.values()) if tournament.accept else {}
    played = []
    for table in tables:
        match = matches.get(table.match_id or "")
        sheet = None if match is None else accepted_sheet(match, waiting[match.id]) \
            if accepted and match.id in waiting else compute_sheet(match)
        result = rules.table_result(sheet, table.entrants, game,
                                    closed=row.closed or match.abandoned) if match else \
            rules.TableResult(tuple(table.entrants), (0,) * len(table.entrants), hands=0,
                              finished=True)
        shown = match and TableMatch(match.id, tuple(match.names), bool(match.abandoned),
                                     tuple(people(match).items()))
        played.append(Played(SeatedTable.of(table), shown, sheet, rules.score_table(result),
                             len(waiting.get(match.id, ())) if match else 0))
    ranked, order, out = _ranking(tournament, context)
    return played, ranked(order, [_scores(row, played)], out, missed(tournament, row.number))


def changes_said(played: Played) -> list[str]:
    """The sentences of the changes of who plays at a table ("Carla plays for Anna from hand
    5", "Dario leaves after hand 4"), in the viewer's language: what a round's page and PDF
    print under the table."""
    if played.match is None or played.sheet is None:
        return []
    return marks_said(played.sheet, played.match.names, dict(played.match.people))


def seat_next_round(tournament: Tournament) -> TournamentRound:
    """Close the round in play and draw the next one: one ordinary match a table, in the
    organiser's table, with the tournament's options (RuleError when it cannot be seated).
    The round is seen by the organiser's phones only until :func:`publish_round`. The
    caller commits."""
    done = results(tournament)
    scores = [[p.score for p in round_] + [rules.sat_out(e) for e in row.sitting_out]
              for round_, row in zip(done.rounds, tournament.round_rows, strict=True)]
    seating = plan(tournament).seat(seatings(tournament), scores, withdrawn(tournament))
    previous = current_round(tournament)
    if previous is not None and not previous.closed:
        _close(tournament, previous)
    table = db.session.get(Table, tournament.table_id)
    entrants = {e.number: e for e in tournament.entrants}
    game = GAMES[tournament.game]
    for seated in seating.tables:
        names = [entrants[seated.entrants[seat % len(seated.entrants)]].names[
            seat // len(seated.entrants)] for seat in range(_seats(tournament, seated))]
        match = Match(game=game.key, table_id=table.id, first_dealer=seated.dealer,
                      options=rules.match_options(game, tournament.options, len(names),
                                                  pairs=tournament.pairs),
                      place=tournament.name)
        for seat, player in enumerate(seat_players(table, names)):
            match.seats.append(Seat(seat=seat, player=player))
        db.session.add(match)
        db.session.flush()
        tournament.tables.append(TournamentTable(
            round=seating.number, number=seated.number, entrants=list(seated.entrants),
            dealer=seated.dealer, match_id=match.id))
    row = TournamentRound(number=seating.number, sitting_out=list(seating.sitting_out),
                          final=seating.final)
    tournament.round_rows.append(row)
    tournament.version += 1
    return row


def drawn(tournament: Tournament) -> TournamentRound | None:
    """The latest round while it is drawn and not published yet; None otherwise."""
    row = current_round(tournament)
    return row if row is not None and row.published_at is None else None


def publish_round(tournament: Tournament) -> None:
    """Publish the drawn round: every page shows it, its codes keep their tables, its clock
    starts. Its matches and the round before's take a new version, so that their pages
    (the clock, the way to the next table) show it within one poll. The caller commits."""
    row = drawn(tournament)
    if row is None:
        return
    row.published_at = row.started_at = now()
    numbers = (row.number - 1, row.number)
    ids = [t.match_id for t in tournament.tables if t.round in numbers and t.match_id]
    for match in db.session.scalars(select(Match).where(Match.id.in_(ids))):
        match.version += 1
    tournament.version += 1


def swap_entrants(tournament: Tournament, first: int, second: int) -> str | None:
    """Swap entrants ``first`` and ``second`` between two tables of the drawn round: each
    takes the other's seats (the table sizes, seats and first dealers stay as drawn), the
    swap is recorded on the round. The reason it is refused, naming them, else None. The
    caller commits."""
    row = drawn(tournament)
    names = {e.number: e.name for e in tournament.entrants}
    if row is None:
        return _("The round is published: its seating can no longer be changed.")
    if first not in names or second not in names or first == second:
        return _("Choose two different entrants to swap.")
    tables = [t for t in tournament.tables if t.round == row.number]
    at = {n: t for t in tables for n in t.entrants}
    for number in (first, second):
        if number not in at:
            return _("%(name)s is not seated in round %(n)s: only seated entrants can be "
                     "swapped.", name=names[number], n=row.number)
    if at[first] is at[second]:
        return _("%(first)s and %(second)s sit at the same table: a swap moves entrants "
                 "between tables.", first=names[first], second=names[second])
    if _hand_saved(tournament, row.number):
        return _("A hand is saved in round %(n)s: its seating can no longer be changed.",
                 n=row.number)
    if tournament.format == rules.Format.GROUPS and row.number > 1:
        return _("A round-robin group plays together every round: only round 1 can be "
                 "swapped.")
    one, other = at[first], at[second]
    places = [(one, one.entrants.index(first)), (other, other.entrants.index(second))]
    seats = [_entrant_seats(tournament, table, place) for table, place in places]
    matches = {m.id: m for m in db.session.scalars(
        select(Match).options(selectinload(Match.seats))
        .where(Match.id.in_([one.match_id, other.match_id])))}
    if len(matches) == 2:
        rows = [sorted((s for s in matches[t.match_id].seats if s.seat in taken),
                       key=lambda s: s.seat)
                for (t, _place), taken in zip(places, seats, strict=True)]
        for a, b in zip(rows[0], rows[1], strict=True):
            a.player_id, b.player_id = b.player_id, a.player_id
        for match in matches.values():
            match.version += 1
    one.entrants = [second if n == first else n for n in one.entrants]
    other.entrants = [first if n == second else n for n in other.entrants]
    row.swaps = [*row.swaps, [first, second]]
    tournament.version += 1
    return None


def _entrant_seats(tournament: Tournament, table: TournamentTable, place: int) -> list[int]:
    """The seats of the entrant at ``place`` of ``table`` (a pair fills two)."""
    count = len(table.entrants)
    return [place + k * count for k in range(2 if tournament.pairs else 1)]


def seen_rounds(tournament: Tournament) -> int:
    """How many rounds this phone sees: every round seated for the organiser's phones, the
    published ones for everyone else."""
    count = len(tournament.round_rows)
    return count - 1 if drawn(tournament) is not None and not organiser(tournament) else count


def seen_results(tournament: Tournament) -> Results:
    """The results as this phone may see them: without the drawn round for anyone but the
    organiser's phones."""
    done = results(tournament)
    count = seen_rounds(tournament)
    if count == len(done.rounds):
        return done
    if count:
        overall = standings_after(tournament, done, count)
    else:
        rank, order, out = _ranking(tournament, {})
        overall = rank(order, [], out, ())
    return Results(done.rounds[:count], done.per_round[:count], overall, False,
                   done.keys[:count])


def published_round(tournament: Tournament) -> TournamentRound | None:
    """The latest round published; None before round 1 is."""
    return next((row for row in reversed(tournament.round_rows) if row.published_at), None)


@dataclass(frozen=True)
class Place:
    """Where an entrant goes in a round: the table (None: they sit it out), their seats
    counted from 1 (a pair fills two) and the first dealer's name."""

    round: int
    entrant: int
    table: int | None
    seats: tuple[int, ...]
    dealer: str | None


def where_to_go(tournament: Tournament, row: TournamentRound) -> dict[int, Place]:
    """Where each entrant of round ``row`` goes, by entrant number."""
    entrants = {e.number: e for e in tournament.entrants}
    found = {}
    for table in tournament.tables:
        if table.round != row.number:
            continue
        count = len(table.entrants)
        dealer = entrants[table.entrants[table.dealer % count]].names[table.dealer // count]
        for place, number in enumerate(table.entrants):
            seats = tuple(s + 1 for s in _entrant_seats(tournament, table, place))
            found[number] = Place(row.number, number, table.number, seats, dealer)
    for number in sitting_out(tournament, row):
        found[number] = Place(row.number, number, None, (), None)
    return found


@dataclass(frozen=True)
class NextTable:
    """Where a finished round's table goes next: the round published after it, the table
    (None: sits out, or nobody of that table is seated) and its code's secret."""

    round: int
    table: int | None
    token: str | None


def next_table(tournament: Tournament, number: int, table: int) -> NextTable | None:
    """Where the phone of table ``table`` of round ``number`` goes once a later round is
    published: the table of the entrant this phone said it is, else the table most of that
    table's entrants go to (the lowest on a tie). None while no later round is published."""
    row = published_round(tournament)
    if row is None or row.number <= number:
        return None
    found = where_to_go(tournament, row)
    me = claimed(tournament)
    if me is not None and me in found:
        going = found[me].table
    else:
        seated = next((t for t in tournament.tables if t.round == number and t.number == table),
                      None)
        counts = Counter(found[n].table for n in (seated.entrants if seated else ())
                         if n in found and found[n].table is not None)
        going = min(counts, key=lambda t: (-counts[t], t)) if counts else None
    token = next((t.token for t in tournament.tables
                  if t.round == row.number and t.number == going), None)
    return NextTable(row.number, going, token)


def kept_here(tournament: Tournament, match_id: str | None) -> bool:
    """Whether this phone kept match ``match_id`` (its table's phone) or runs the evening,
    even once the match's round is closed."""
    if organiser(tournament):
        return True
    token = device_token()
    return match_id is not None and token is not None and db.session.scalar(
        select(MatchKeeper.match_id).join(Device, Device.id == MatchKeeper.device_id)
        .where(MatchKeeper.match_id == match_id, Device.token == token)) is not None


CLAIMS = "me"  # the session's key: {tournament id: the entrant this phone says it is}
MAX_CLAIMS = 20


def claimed(tournament: Tournament) -> int | None:
    """The entrant this phone said it is ("This is me"), or None."""
    number = session.get(CLAIMS, {}).get(tournament.id)
    return number if any(e.number == number for e in tournament.entrants) else None


def claim(tournament: Tournament, number: int | None) -> None:
    """Remember on this phone (its session cookie) that it is entrant ``number``; None
    forgets it. Only the latest few tournaments are remembered."""
    claims = {k: v for k, v in session.get(CLAIMS, {}).items() if k != tournament.id}
    if number is not None:
        claims[tournament.id] = number
    session[CLAIMS] = dict(list(claims.items())[-MAX_CLAIMS:])


def _seats(tournament: Tournament, table: rules.Table) -> int:
    return len(table.entrants) * (2 if tournament.pairs else 1)


def close_round(tournament: Tournament) -> None:
    """Close the round in play as it stands (its matches take no more changes); the caller
    commits."""
    row = current_round(tournament)
    if row is not None and not row.closed:
        _close(tournament, row)
        tournament.version += 1


def _close(tournament: Tournament, row: TournamentRound) -> None:
    """Close ``row``: a match still in play is set aside as it stands (listed as abandoned,
    counted as it stands, its table kept in ``closed_early``), every match of the round is
    locked, and each takes a new version so that every page of it shows that it is closed."""
    row.closed = True
    tables = {t.match_id: t.number for t in tournament.tables
              if t.round == row.number and t.match_id}
    early = []
    for match in db.session.scalars(select(Match).where(Match.id.in_(list(tables)))):
        if not (match.abandoned or match.finished):
            early.append(tables[match.id])
            match.abandoned = True
        match.locked = True
        match.version += 1
    row.closed_early = sorted(early)


@dataclass(frozen=True)
class Unfinished:
    """A table of the round in play whose match is not over: the hands it completed and
    what closing the round now gives each entrant there (a pair once), in seat order."""

    table: SeatedTable
    hands: int
    scores: tuple[rules.Score, ...]


def unfinished(tournament: Tournament) -> list[Unfinished]:
    """The tables that closing the round in play would end early, each scored as the
    closing scores it (TOURNAMENTS.md, "A match closed early" and "Abandoning")."""
    row = current_round(tournament)
    if row is None or row.closed:
        return []
    game = GAMES[tournament.game]
    found = []
    for played in results(tournament).rounds[row.number - 1]:
        if not played.score.finished:
            result = rules.table_result(played.sheet, played.table.entrants, game, closed=True)
            found.append(Unfinished(played.table, result.hands,
                                    rules.score_table(result).scores))
    return found


def provisional_tables(tournament: Tournament) -> list[Played]:
    """The tables of the round in play with hands that wait to be accepted (results the
    other side accepts): closing the round counts those hands as saved, once the organiser
    confirmed it."""
    row = current_round(tournament)
    if row is None or row.closed or not tournament.accept:
        return []
    return [p for p in results(tournament).rounds[row.number - 1] if p.provisional]


def closing_key(tournament: Tournament) -> str:
    """What a confirmation to close the round was shown for: the same on every worker, and
    different once the tournament or any of its matches changed."""
    return hashlib.sha256(repr(version_key(tournament)).encode()).hexdigest()[:20]


def reopenable(tournament: Tournament) -> TournamentRound | None:
    """The round the organiser may reopen: the latest round when it is closed, or the one
    before it while the latest has no saved hand; None otherwise."""
    rows = tournament.round_rows
    if not rows:
        return None
    if rows[-1].closed:
        return rows[-1]
    if len(rows) > 1 and not _hand_saved(tournament, rows[-1].number):
        return rows[-2]
    return None


def _hand_saved(tournament: Tournament, number: int) -> bool:
    """Whether a match of round ``number`` has a saved hand."""
    ids = [t.match_id for t in tournament.tables if t.round == number and t.match_id]
    return db.session.scalar(select(Hand.id).where(Hand.match_id.in_(ids)).limit(1)) \
        is not None


def reopen_round(tournament: Tournament, row: TournamentRound) -> None:
    """Undo the closing of ``row`` (see :func:`reopenable`): the round seated after it is
    removed with its matches, the tables it closed early are played on, every match of it
    takes changes as before the closing (a finished one once reopened, as any finished
    match). The caller commits."""
    if row is not tournament.round_rows[-1]:
        later = tournament.round_rows[-1]
        tables = [t for t in tournament.tables if t.round == later.number]
        ids = [t.match_id for t in tables if t.match_id]
        for table in tables:
            tournament.tables.remove(table)
        tournament.round_rows.remove(later)
        db.session.flush()
        for match in db.session.scalars(select(Match).where(Match.id.in_(ids))):
            db.session.delete(match)
    early = {t.match_id for t in tournament.tables
             if t.round == row.number and t.number in row.closed_early}
    ids = [t.match_id for t in tournament.tables if t.round == row.number and t.match_id]
    for match in db.session.scalars(select(Match).where(Match.id.in_(ids))):
        if match.id in early:
            match.abandoned = False
        match.locked = match.finished
        match.version += 1
    row.closed, row.closed_early = False, []
    tournament.version += 1


# --- the round's clock (docs/operating.md, "The round's clock") -----------------------------


def now() -> datetime:
    """The current time, in UTC without a zone as the database keeps it: the one clock the
    round's clock reads. A ``NOW`` callable in the app's config stands in for it (tests)."""
    return current_app.config.get("NOW", _utc_now)()


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class Clock:
    """A round's clock as it reads now: the round, the whole seconds ``left`` (0 once time
    is up) and the ``warning`` seconds before the end from which "last deal" is announced.

    >>> Clock(2, 1381, 300).phase, Clock(2, 1381, 300).minutes
    ('on', 24)
    >>> Clock(2, 300, 300).phase, Clock(2, 0, 300).phase
    ('last', 'up')
    """

    round: int
    left: int
    warning: int

    @property
    def phase(self) -> str:
        """"on" while the round is played, "last" from the warning on, "up" at zero."""
        return "up" if self.left <= 0 else "last" if self.left <= self.warning else "on"

    @property
    def minutes(self) -> int:
        """The minutes left, a minute begun counting whole (23 min 10 s: 24)."""
        return ceil(self.left / 60)


def round_clock(number: int, started_at: datetime | None, minutes: int | None,
                warning: int) -> Clock | None:
    """The clock of round ``number`` seated at ``started_at``, rounds of ``minutes`` with
    the warning ``warning`` minutes before the end, as it reads now; None without a clock."""
    if started_at is None or not minutes:
        return None
    end = started_at + timedelta(minutes=minutes)
    return Clock(number, max(0, ceil((end - now()).total_seconds())), warning * 60)


def match_clock(seated: Seated | None) -> Clock | None:
    """The clock of the round a tournament's match is played in, while that round is open."""
    if seated is None or seated.closed:
        return None
    return round_clock(seated.round, seated.started_at, seated.round_minutes,
                       seated.warning_minutes)


def kept_matches() -> list[Match]:
    """The matches this phone keeps alone (a tournament table's phone), newest first."""
    token = device_token()
    if token is None:
        return []
    return list(db.session.scalars(
        select(Match).join(MatchKeeper, MatchKeeper.match_id == Match.id)
        .join(Device, Device.id == MatchKeeper.device_id).where(Device.token == token)
        .order_by(MatchKeeper.joined_at.desc()).limit(20)))


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    """The tournament as data (its .json and the API's): each round's tables and standings
    (and its seating's time, in UTC), the overall standings; points as exact fractions
    ("7/2") beside their one-decimal text; the round's clock in minutes (None: no clock). A
    drawn round is there for the organiser's phones only, not published yet."""
    done = seen_results(tournament)
    names = {e.number: e.name for e in tournament.entrants}

    def rows(standings):
        return [{"place": r.place, "entrant": names[r.entrant], "points": str(r.points),
                 "match_points": str(r.match_points), "shown": rules.display(r.points),
                 "wins": r.wins, "withdrawn": r.withdrawn, "waiting": r.waiting}
                for r in standings.rows]

    return {"id": tournament.id, "version": tournament.version, "game": tournament.game,
            "seed": tournament.seed,
            "format": tournament.format, "entrants": [e.names for e in tournament.entrants],
            "round_minutes": tournament.round_minutes, "accept": tournament.accept,
            "warning_minutes": tournament.warning_minutes if tournament.round_minutes else None,
            "late_entrants": [{"entrant": e.name, "from_round": e.joined + 1}
                              for e in tournament.entrants if e.joined is not None],
            "rounds": [{"number": row.number, "closed": row.closed,
                        "published": row.published_at is not None,
                        "swaps": [[names[n] for n in swap] for swap in row.swaps],
                        "started_at": row.started_at and f"{row.started_at.isoformat()}Z",
                        "closed_early": list(row.closed_early),
                        "sitting_out": [names[n] for n in sitting_out(tournament, row)],
                        "tables": [{"number": p.table.number, "match": p.match and p.match.id,
                                    "dealer": p.table.dealer, "provisional": p.provisional,
                                    "entrants": [names[n] for n in p.table.entrants]}
                                   for p in played],
                        "standings": rows(per_round)}
                       for row, played, per_round in zip(tournament.round_rows[:len(done.rounds)],
                                                         done.rounds,
                                                         done.per_round, strict=True)],
            "standings": rows(done.overall), "provisional": done.overall.provisional,
            "over": done.over}
