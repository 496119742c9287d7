"""The read-only API (docs/api.md): a table, its matches a page at a time, a match's sheet
and history, the table's statistics and a tournament, as JSON with an ETag; described by
the OpenAPI document it serves.

Read with a table's read token (``Authorization: Bearer``) or a member phone's session.
Nothing here writes: every other method than GET and HEAD under /api/ answers 405.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from ..db import db
from ..engine.history import entries
from ..engine.sheets import compute_sheet, people, sheet_json
from ..engine.stats import table_stats
from ..models import Change, Match, Player, Table, Tournament, TournamentTable
from ..web.api import PREFIX, READS, answer, check_readable, etag_of, hashed
from ..web.games import spec_of
from ..web.openapi import DESCRIPTION
from ..web.pages import get_match
from ..web.tournaments import tournament_json, version_key

bp = Blueprint("api", __name__, url_prefix="/api/v1")
LIMIT, MAX_LIMIT = 20, 100  # matches a page, unless ``limit`` asks for another number


@bp.before_app_request
def refuse_writes() -> None:
    """The API never writes: any other method than GET and HEAD under /api/ is 405."""
    if request.path.startswith(PREFIX) and request.method not in READS:
        abort(405, valid_methods=list(READS), description=_("The API only reads: ask with GET."))


def _table(table_id: str) -> Table:
    """The table, if the request may read it; 404 otherwise."""
    table = db.session.get(Table, table_id)
    check_readable(table and table.id, _("There is no such table."))
    return table


def _count(name: str, default: int, most: int) -> int:
    """A whole query argument from 1 to ``most``; ``default`` when missing; 400 otherwise."""
    value = request.args.get(name, str(default))
    if not (value.isdecimal() and len(value) < 6 and 1 <= int(value) <= most):
        abort(400, _("%(name)s must be a whole number from 1 to %(most)s.", name=name,
                     most=most))
    return int(value)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI description of this API."""
    return hashed(DESCRIPTION)


@bp.get("/tables/<table_id>")
def table(table_id: str):
    """The table: its name, players and tournaments."""
    found = _table(table_id)
    players = db.session.scalars(select(Player).where(Player.table_id == found.id)
                                 .order_by(Player.name, Player.id))
    tournaments = db.session.scalars(select(Tournament).where(Tournament.table_id == found.id)
                                     .order_by(Tournament.created_at.desc(), Tournament.id))
    return hashed({
        "id": found.id, "name": found.name, "version": found.version, "zone": found.zone,
        "players": [{"id": p.id, "name": p.name} for p in players],
        "tournaments": [{"id": t.id, "name": t.name, "game": t.game} for t in tournaments],
    })


@bp.get("/tables/<table_id>/matches")
def matches(table_id: str):
    """The table's own matches, newest first, a page at a time (``page``, ``limit``)."""
    found = _table(table_id)
    page, limit = _count("page", 1, 10_000), _count("limit", LIMIT, MAX_LIMIT)

    def body() -> dict[str, Any]:
        rows = db.session.scalars(
            select(Match).where(Match.table_id == found.id)
            .where(~select(TournamentTable.match_id).where(
                TournamentTable.match_id == Match.id).exists())
            .order_by(Match.created_at.desc(), Match.id.desc())
            .offset((page - 1) * limit).limit(limit + 1)).all()
        more = len(rows) > limit
        return {"table": found.id, "page": page, "limit": limit,
                "matches": [_listed(m) for m in rows[:limit]],
                "next": url_for("api.matches", table_id=found.id, page=page + 1, limit=limit)
                if more else None}

    return answer(etag_of("matches", found.id, found.version, page, limit), body)


def _listed(match: Match) -> dict[str, Any]:
    """A match as the list gives it: what is stored, no score (its sheet has them)."""
    return {"id": match.id, "game": match.game, "players": match.names,
            "status": "abandoned" if match.abandoned else
            "finished" if match.finished else "in progress",
            "version": match.version, "created_at": match.created_at.isoformat() + "Z",
            "updated_at": match.updated_at.isoformat() + "Z",
            "url": url_for("api.match", match_id=match.id)}


def _match_version(match_id: str) -> int:
    """The match's version, if the request may read the match; 404 otherwise."""
    found = db.session.execute(select(Match.table_id, Match.version)
                               .where(Match.id == match_id)).first()
    check_readable(found and found[0], _("There is no such match."))
    return found[1]


@bp.get("/matches/<match_id>")
def match(match_id: str):
    """The match's computed sheet, as /matches/<id>.json gives it."""
    version = _match_version(match_id)

    def body() -> dict[str, Any]:
        found = get_match(match_id)
        return sheet_json(found, compute_sheet(found))

    return answer(etag_of("match", match_id, version), body)


@bp.get("/matches/<match_id>/history")
def history(match_id: str):
    """Every change to the match, newest first, in words, its times in UTC."""
    version = _match_version(match_id)

    def body() -> dict[str, Any]:
        found = get_match(match_id)
        changes = db.session.scalars(select(Change).where(Change.match_id == found.id)
                                     .order_by(Change.id)).all()
        said = entries(spec_of(found.game).words, found.names, compute_sheet(found).columns,
                       changes, None, people(found, *changes))
        return {"match": found.id, "version": found.version,
                "entries": [{"sentence": e.sentence, "at": e.iso, "undone": e.undone,
                             "values": [{"label": label, "before": before, "after": after,
                                         "changed": changed}
                                        for label, before, after, changed in e.rows]}
                            for e in said]}

    return answer(etag_of("history", match_id, version), body)


@bp.get("/tables/<table_id>/stats")
def stats(table_id: str):
    """The table's statistics: per game, each player's figures and rating; head to head."""
    found = _table(table_id)

    def body() -> dict[str, Any]:
        figures = table_stats(found)
        return {"table": found.id, "version": found.version,
                "players": [{"id": p, "name": n} for p, n in figures.names.items()],
                "games": [{"game": key, "matches": game.matches, "finished": game.finished,
                           "rated": game.rated,
                           "players": [_line(p, line, game) for p, line in
                                       sorted(game.players.items())]}
                          for key, game in figures.games.items()],
                "head_to_head": [{"player": a, "opponent": b, "ahead": n}
                                 for (a, b), n in sorted(figures.ahead.items())]}

    return answer(etag_of("stats", found.id, found.version), body)


def _line(player: int, line: Any, game: Any) -> dict[str, Any]:
    """One player's figures in one game."""
    rating = game.ratings.get(player)
    return {"player": player, "played": line.played, "won": line.won,
            "win_rate": line.win_rate, "average": line.average, "highest": line.highest,
            "lowest": line.lowest, "best_streak": line.best_streak,
            "counts": dict(sorted(line.counts.items())),
            "rating": None if rating is None else {
                "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3),
                "ordinal": round(rating.ordinal, 3), "certainty": rating.certainty}}


@bp.get("/tournaments/<tournament_id>")
def tournament(tournament_id: str):
    """The tournament: its rounds with their tables and standings, the overall standings."""
    found = db.session.get(Tournament, tournament_id)
    check_readable(found and found.table_id, _("There is no such tournament."))
    return answer(etag_of("tournament", version_key(found)), lambda: tournament_json(found))
