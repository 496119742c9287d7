"""The tables this phone sees: its latest tables with a page of their matches each, the
players a new match offers, and the table a new match goes to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import request
from flask_babel import gettext as _
from sqlalchemy import exists, func, select
from sqlalchemy.orm import selectinload

from ..db import db
from ..engine.history import table_name
from ..engine.sheets import compute_sheet, people
from ..models import Match, Player, Seat, Table, Tournament, TournamentRound, TournamentTable
from ..rules import GAMES
from .access import get_table, join, my_tables

PAGE = 10  # matches a page of a table's list shows
HOME_TABLES = 10  # tables the home page shows, latest activity first


def page_number() -> int:
    """The ``page`` query argument, 1 when missing or absurd."""
    page = request.args.get("page", "1")
    return int(page) if page.isdecimal() and len(page) < 5 and 0 < int(page) < 10_000 else 1


def table_matches(table_id: str, page: int) -> tuple[list[tuple[Match, Any]], bool]:
    """A page of the table's own matches (in progress first, the latest first) with their
    sheets, and whether there are more: one indexed query, however many matches. The
    matches of the tournaments it organises are not its own: they are listed with their
    tournament."""
    matches = db.session.scalars(
        select(Match).options(selectinload(Match.hands)).where(Match.table_id == table_id)
        .where(~exists().where(TournamentTable.match_id == Match.id))
        .order_by(Match.finished, Match.updated_at.desc())
        .offset((page - 1) * PAGE).limit(PAGE + 1)).all()
    return [(m, compute_sheet(m)) for m in matches[:PAGE]], len(matches) > PAGE


def home_tables(page: int) -> tuple[list[tuple[Table, list, bool, list]], int]:
    """This phone's latest tables, each with a page of its matches and the tournaments it
    organises; and how many it has."""
    tables = db.session.scalars(my_tables().limit(HOME_TABLES)).all()
    count = len(tables)
    if count == HOME_TABLES:
        count = db.session.scalar(select(func.count()).select_from(my_tables().subquery()))
    organised = table_tournaments([t.id for t in tables])
    return [(t, *table_matches(t.id, page), organised.get(t.id, [])) for t in tables], count


@dataclass(frozen=True)
class Organised:
    """A tournament as a table's home lists it: its id, name, game and the round seated
    last (0 before round 1)."""

    id: str
    name: str
    game: str
    round: int


def table_tournaments(table_ids: list[str]) -> dict[str, list[Organised]]:
    """The tournaments each of ``table_ids`` organises, the latest first: one query."""
    if not table_ids:
        return {}
    rows = db.session.execute(
        select(Tournament.table_id, Tournament.id, Tournament.name, Tournament.game,
               func.coalesce(func.max(TournamentRound.number), 0))
        .outerjoin(TournamentRound, TournamentRound.tournament_id == Tournament.id)
        .where(Tournament.table_id.in_(table_ids))
        .group_by(Tournament.id, Tournament.table_id, Tournament.name, Tournament.game,
                  Tournament.created_at)
        .order_by(Tournament.created_at.desc(), Tournament.id)).all()
    found: dict[str, list[Organised]] = {}
    for table_id, *tournament in rows:
        found.setdefault(table_id, []).append(Organised(*tournament))
    return found


def phone_label(owner: str | None, name: str | None, number: int) -> str:
    """How a table's page names a phone: "Bruno's phone" for Bruno's (``owner``), the name
    it gave itself before phones said whose they were (``name``, as it was typed), else by its
    place among the table's phones ("Phone 2")."""
    if owner:
        return _("%(name)s's phone", name=owner)
    return name or _("Phone %(n)s", n=number)


def known_players(table: Table | None) -> list[str]:
    """The table's players, the most frequent first."""
    if table is None:
        return []
    played = func.count(Seat.match_id)
    return list(db.session.scalars(
        select(Player.name).outerjoin(Seat, Seat.player_id == Player.id)
        .where(Player.table_id == table.id).group_by(Player.id, Player.name)
        .order_by(played.desc(), Player.name)))


def chosen_table(table_id: str | None) -> Table | None:
    """The table a new match goes to: the one chosen, else this phone's latest; None when
    the phone has none yet. Raises 403 for a table this phone does not belong to."""
    if table_id:
        return get_table(table_id)
    return db.session.scalars(my_tables().limit(1)).first()


def table_for_new_match(table_id: str | None, names: list[str]) -> Table:
    """The table of a new match; the first match a phone starts creates one, named after
    its players."""
    table = chosen_table(table_id)
    if table is None:
        table = Table(name=table_name(names))
        db.session.add(table)
        db.session.flush()
        join(table.id, keeper=True)
    return table


@dataclass(frozen=True)
class NextMatch:
    """What a table's next match proposes: the game of its current match, whoever is at the
    table as that match ended, by name in turn order, and who deals first."""

    game: str
    names: list[str]
    dealer: int


def next_match(table_id: str) -> NextMatch | None:
    """The players the table's current match leaves for the next one (those a rematch
    seats); None before its first match."""
    current = current_match(table_id)
    if current is None:
        return None
    match = db.session.get_one(Match, current[0])
    staying, dealer = compute_sheet(match).roster.staying(match.first_dealer)
    named = people(match)
    return NextMatch(match.game, [match.names[seat] if person is None
                                  else named.get(person, match.names[seat])
                                  for seat, person in staying], dealer)


def current_match(table_id: str) -> tuple[str, int] | None:
    """The id and version of the match ``table_id`` plays now: the match changed last (a
    hand saved, a correction, a new match started), so that a match just finished shows its
    result until the next one starts; an abandoned match only when there is no other; never
    a match of a tournament round drawn but not published. None before the table's first
    match."""
    drawn = exists().where(
        TournamentTable.match_id == Match.id,
        TournamentRound.tournament_id == TournamentTable.tournament_id,
        TournamentRound.number == TournamentTable.round, TournamentRound.published_at.is_(None))
    row = db.session.execute(
        select(Match.id, Match.version).where(Match.table_id == table_id, ~drawn)
        .order_by(Match.abandoned, Match.updated_at.desc(), Match.created_at.desc(),
                  Match.id.desc()).limit(1)).first()
    return None if row is None else (row.id, row.version)


@dataclass(frozen=True)
class Started:
    """A match the table started after the one a phone shows (``pages.match_state``): its
    id, its game's key and who deals first, by name."""

    id: str
    game: str
    dealer: str

    def said(self) -> str:
        """"The table started a new match: Quarantotto, Anna deals first.\""""
        return _("The table started a new match: %(game)s, %(dealer)s deals first.",
                 game=GAMES[self.game].name, dealer=self.dealer)


def started(match_id: str | None) -> Started | None:
    """The match ``match_id`` as a notice names it, in one query; None for None (or a match
    gone)."""
    row = db.session.execute(
        select(Match.id, Match.game, Player.name)
        .join(Seat, (Seat.match_id == Match.id) & (Seat.seat == Match.first_dealer))
        .join(Player, Player.id == Seat.player_id).where(Match.id == match_id)
    ).first() if match_id else None
    return None if row is None else Started(*row)
