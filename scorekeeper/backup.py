"""Nothing lost: a match's history, its CSV, and backups of tables or a whole instance.

A backup is JSON holding the tables of a phone (or, from the command line, every table with
its phones): each table's secret, which proves membership, and its matches with their
players, options and the raw inputs of each hand. Importing checks each match with the
rules engine and adds the ones this instance does not have yet; a match whose address is
taken by another is added as a copy under a new address (see table_backup).
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

import click
from flask import Blueprint, Flask, Response, render_template, request
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from .db import db
from .forms import PLACE_LENGTH, printable
from .matches import get_match, sheet_context
from .models import NAME_LENGTH, Change, Hand, Match, Seat, name_key, new_match_id
from .rules import GAMES
from .scoring import compute_sheet
from .security import MATCH_ID
from .table_backup import Targets, my_table_ids, table_entries
from .tables import seat_players

bp = Blueprint("backup", __name__)
FORMAT = "scorekeeper-backup"
KINDS = ("enter", "correct", "undo")
MAX_UPLOAD = 20 * 1024 * 1024


def _time(value: datetime) -> str:
    return value.isoformat()


def export_matches(table_ids: list[str] | None, *, phones: bool = False) -> dict[str, Any]:
    """Every table (``table_ids`` None) or the listed ones with their matches, as JSON-able
    data; with ``phones``, the phones of each table too."""
    query = select(Match).options(selectinload(Match.hands)).order_by(Match.created_at)
    if table_ids is not None:
        query = query.where(Match.table_id.in_(table_ids))
    matches = db.session.scalars(query).all()
    changes: dict[str, list[Change]] = {}
    if matches:
        for change in db.session.scalars(select(Change).where(
                Change.match_id.in_([m.id for m in matches])).order_by(Change.id)):
            changes.setdefault(change.match_id, []).append(change)
    tables = table_entries(table_ids, phones=phones)
    return {"format": FORMAT, "version": 2, "tables": tables, "matches": [{
        "id": m.id, "table": m.table_id, "game": m.game, "options": m.options,
        "first_dealer": m.first_dealer,
        "place": m.place, "lang": m.lang, "finished": m.finished, "locked": m.locked,
        "created_at": _time(m.created_at), "updated_at": _time(m.updated_at),
        "players": m.names,
        "hands": [{"number": h.number, "data": h.data, "created_at": _time(h.created_at),
                   "updated_at": _time(h.updated_at)} for h in m.hands],
        "history": [{"number": c.number, "kind": c.kind, "old": c.old, "new": c.new,
                     "undone": c.undone, "created_at": _time(c.created_at)}
                    for c in changes.get(m.id, [])],
    } for m in matches]}


class BackupError(ValueError):
    """The file is not a backup this app can read."""


def import_matches(data: Any, *, join: bool = False,
                   copies: list[tuple[str, str]] | None = None,
                   ) -> tuple[list[str], int, list[str]]:
    """Add the backup's tables and matches this instance lacks: (added ids, skipped,
    problems). With ``join`` this phone becomes a member of the backup's tables; a match
    added as a copy under a new id is appended to ``copies`` as (old id, new id)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    added, skipped, problems = [], 0, []
    targets = Targets(data.get("tables"))
    for entry in data["matches"]:
        savepoint = db.session.begin_nested()
        try:
            match = _match_from(entry, targets)
            savepoint.commit()
        except (KeyError, TypeError, ValueError, AttributeError, SQLAlchemyError) as error:
            # RuleError is a ValueError: the rules refused the match's hands.
            savepoint.rollback()
            name = entry.get("id", "?") if isinstance(entry, dict) else "?"
            problems.append(f"{str(name)[:40]}: {str(error)[:200]}")
            continue
        if match is None:
            skipped += 1
            continue
        added.append(match.id)
        if match.id != entry["id"] and copies is not None:
            copies.append((entry["id"], match.id))
    targets.finish(join=join)
    db.session.commit()
    return added, skipped, problems


def _text(value: Any, limit: int, what: str, *, empty: bool = False) -> str:
    """``value`` as printable text of at most ``limit`` characters, or ValueError."""
    if not isinstance(value, str) or len(value) > limit or not printable(value) \
            or not (empty or value.strip()):
        raise ValueError(_("bad %(what)s", what=what))
    return value


def _whole(value: Any, low: int, high: int, what: str) -> int:
    """``value`` as an int in low..high, or ValueError."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(_("bad %(what)s", what=what))
    return value


def _when(value: Any) -> datetime:
    return datetime.fromisoformat(_text(value, 40, "date"))


def _match_from(entry: dict[str, Any], targets: Targets) -> Match | None:
    """A new Match from one backup entry, every field checked and the hands checked by the
    rules; None if this instance has it already in the same table, a copy under a new id
    when another match has its id."""
    match_id = _text(entry["id"], 24, "id")
    if not MATCH_ID.fullmatch(match_id):
        raise ValueError(_("bad %(what)s", what="id"))
    if entry["game"] not in GAMES:
        raise ValueError(_("unknown game"))
    game = GAMES[entry["game"]]
    names = [_text(n, NAME_LENGTH, "name").strip() for n in entry["players"]]
    if len({name_key(n) for n in names}) != len(names):
        raise ValueError(_("a player is in this match twice"))
    table, proven = targets.table_of(entry.get("table"), names)
    existing = db.session.get(Match, match_id)
    if existing is not None and proven and existing.table_id == table.id:
        return None
    if existing is not None:
        match_id = new_match_id()
    options = game.clean_options(len(names), dict(entry["options"]))
    place = entry.get("place")
    match = Match(id=match_id, table_id=table.id, game=game.key, options=options,
                  first_dealer=_whole(entry["first_dealer"], 0, len(names) - 1, "first dealer"),
                  place=None if place is None else _text(place, PLACE_LENGTH, "place"),
                  lang=entry.get("lang") if entry.get("lang") in ("en", "it") else "en",
                  created_at=_when(entry["created_at"]), updated_at=_when(entry["updated_at"]))
    for seat, player in enumerate(seat_players(table, names)):
        match.seats.append(Seat(seat=seat, player=player))
    hands = sorted(entry["hands"], key=lambda h: _whole(h["number"], 1, 10_000, "hand"))
    if [h["number"] for h in hands] != list(range(1, len(hands) + 1)):
        raise ValueError(_("the hands are not numbered 1, 2, 3..."))
    sheet = compute_sheet(match, [h["data"] for h in hands])
    match.finished = sheet.finished
    match.locked = bool(entry.get("locked", sheet.finished))
    for h in hands:
        match.hands.append(Hand(number=h["number"], data=h["data"],
                                created_at=_when(h["created_at"]),
                                updated_at=_when(h["updated_at"])))
    db.session.add(match)
    db.session.flush()
    for c in entry.get("history", []):
        if c["kind"] not in KINDS or not isinstance(c["old"], dict | None) \
                or not isinstance(c["new"], dict | None):
            raise ValueError(_("bad %(what)s", what="history"))
        db.session.add(Change(match_id=match.id, number=_whole(c["number"], 1, 10_000, "hand"),
                              kind=c["kind"], old=c["old"], new=c["new"],
                              undone=bool(c["undone"]), created_at=_when(c["created_at"])))
    db.session.flush()
    return match


@bp.get("/matches/<match_id>/history")
def history(match_id: str):
    """Every change to the match's hands, newest first."""
    match = get_match(match_id)
    changes = db.session.scalars(select(Change).where(Change.match_id == match.id)
                                 .order_by(Change.id.desc())).all()
    return render_template("matches/history.html", **sheet_context(match), changes=changes)


@bp.get("/matches/<match_id>.csv")
def match_csv(match_id: str):
    """One match for a spreadsheet: a row per hand with each column's points and totals."""
    match = get_match(match_id)
    sheet = compute_sheet(match)
    names = match.names
    columns = [" + ".join(names[s] for s in column) for column in sheet.columns]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([_("Hand"), _("Dealer")] + columns + [f"{_('Total')}: {c}" for c in columns])
    for row in sheet.rows:
        dealer = names[row.dealer] if row.dealer is not None else ""
        writer.writerow([row.number, dealer] + ["" if p is None else p for p in row.points]
                        + list(row.totals))
    writer.writerow([_("Total"), ""] + list(sheet.totals) + [""] * len(columns))
    name = f"{match.game}-{match.created_at:%Y-%m-%d}.csv"
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/backup.json")
def backup_json():
    """This phone's tables with their matches (every table on an open install), as a file."""
    data = json.dumps(export_matches(my_table_ids()), ensure_ascii=False, indent=1)
    return Response(data, mimetype="application/json", headers={
        "Content-Disposition": 'attachment; filename="scorekeeper-backup.json"'})


@bp.route("/backup", methods=["GET", "POST"])
def restore():
    """Download a backup, or add the matches of one to this instance."""
    result = None
    status = 200
    if request.method == "POST":
        upload = request.files.get("file")
        try:
            if upload is None or not upload.filename:
                raise BackupError(_("Choose a backup file."))
            raw = upload.read(MAX_UPLOAD + 1)
            if len(raw) > MAX_UPLOAD:
                raise BackupError(_("This file is too large."))
            try:
                data = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise BackupError(_("This file is not a Scorekeeper backup.")) from None
            copies: list[tuple[str, str]] = []
            added, skipped, problems = import_matches(data, join=True, copies=copies)
        except BackupError as error:
            db.session.rollback()
            return render_template("backup.html", error=str(error)), 422
        result = {"added": len(added), "skipped": skipped, "problems": problems,
                  "copies": copies}
    return render_template("backup.html", result=result), status


def init_app(app: Flask) -> None:
    """The backup blueprint and the ``flask export`` / ``flask import`` commands."""
    app.register_blueprint(bp)

    @app.cli.command("export")
    @click.argument("file", type=click.File("w", encoding="utf-8"))
    def export_command(file) -> None:
        """Write every table of this instance, with its phones, players and matches, to FILE."""
        data = export_matches(None, phones=True)
        json.dump(data, file, ensure_ascii=False, indent=1)
        click.echo(f"{len(data['matches'])} matches exported.")

    @app.cli.command("import")
    @click.argument("file", type=click.File("r", encoding="utf-8"))
    def import_command(file) -> None:
        """Add the tables and matches of the backup FILE that this instance does not have yet."""
        try:
            added, skipped, problems = import_matches(json.load(file))
        except (BackupError, json.JSONDecodeError) as error:
            raise click.ClickException(str(error)) from None
        for problem in problems:
            click.echo(f"skipped: {problem}", err=True)
        click.echo(f"{len(added)} matches imported, {skipped} already here.")

