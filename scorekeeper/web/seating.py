"""Where a match stands in a tournament (its round, its table, its round's clock and
whether its hands wait to be accepted), read once per version of the match: what the sheet
pages, the live part and the hand reviews ask of every match, tournament or not."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select

from ..db import db
from ..engine.cache import cache
from ..models import Match, Tournament, TournamentRound, TournamentTable


@dataclass(frozen=True)
class Seated:
    """Where a match stands in a tournament: the tournament, the round and the table,
    whether the round is closed, and what its clock reads from (the round's start, the
    tournament's round length and warning, in minutes)."""

    tournament_id: str
    name: str
    round: int
    table: int
    closed: bool
    started_at: datetime | None
    round_minutes: int | None
    warning_minutes: int
    accept: bool = False  # its hands wait to be accepted by another player there


def tournament_table(match: Match) -> Seated | None:
    """Where ``match`` stands in a tournament; None for a match of no tournament."""
    return seated_at(match.id, match.version)


def seated_at(match_id: str, version: int) -> Seated | None:
    """Where match ``match_id`` at ``version`` stands in a tournament. Read once per version
    of the match (closing its round gives it a new one; a hand's change keeps it; a round's
    start and the tournament's clock never change once it is seated)."""
    return cache("seated", hands_keep=True).get((match_id, version),
                                                lambda: _seated(match_id))


# Where a match stands in a tournament: one query, built once.
_SEATED = (select(Tournament.id, Tournament.name, TournamentTable.round, TournamentTable.number,
                  TournamentRound.closed, TournamentRound.started_at, Tournament.round_minutes,
                  Tournament.warning_minutes, Tournament.accept)
           .join(TournamentTable, TournamentTable.tournament_id == Tournament.id)
           .join(TournamentRound, (TournamentRound.tournament_id == Tournament.id)
                 & (TournamentRound.number == TournamentTable.round))
           .where(TournamentTable.match_id == bindparam("match")))


def _seated(match_id: str) -> Seated | None:
    row = db.session.connection().execute(_SEATED, {"match": match_id}).first()
    return None if row is None else Seated(*row)
