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
import math
from datetime import datetime
from typing import Any

import click
from flask import Blueprint, Flask, Response, render_template, request
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from . import names as naming
from .db import db
from .forms import PLACE_LENGTH
from .history import entries, viewer_zone
from .models import NAME_LENGTH, Change, Hand, Match, Seat, new_match_id
from .pages import get_match, sheet_context
from .records import csv_rows, download_name
from .rules import GAMES
from .scoring import compute_sheet
from .security import MATCH_ID
from .table_backup import Targets, my_table_ids, table_entries
from .tables import seat_players

bp = Blueprint("backup", __name__)
FORMAT = "scorekeeper-backup"
KINDS = ("enter", "correct", "undo", "redo")


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
        "abandoned": m.abandoned,
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


# What one backup file may hold: checked before anything is read into the database.
MAX_MATCHES = 5_000
MAX_HANDS = 5_000  # in one match
MAX_FILE_HANDS = 200_000  # in the whole file
MAX_CHANGES = 20_000  # history entries of one match


def _no_constant(name: str) -> Any:
    raise BackupError(_("This file holds %(value)s, which is not a number a backup holds.",
                        value=name))


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BackupError(_("This file holds the number %(value)s, too large for any "
                            "score.", value=text[:20]))
    return value


def _bounded(text: str) -> int:
    if len(text.lstrip("-")) > 100:
        raise BackupError(_("This file holds a number of %(n)s digits, too large for any "
                            "score.", n=len(text.lstrip("-"))))
    return int(text)


def read_backup(raw: bytes | str) -> dict[str, Any]:
    """The backup in ``raw``, its shape and size checked; BackupError saying what is wrong.

    >>> read_backup('{"format": "scorekeeper-backup", "matches": []}')["matches"]
    []
    """
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite,
                          parse_int=_bounded)
    except RecursionError:
        raise BackupError(_("This file nests too deeply to be a Scorekeeper backup.")) from None
    except BackupError:
        raise
    except ValueError:  # UnicodeDecodeError and JSONDecodeError among them
        raise BackupError(_("This file is not a Scorekeeper backup.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    matches = data["matches"]
    if len(matches) > MAX_MATCHES:
        raise BackupError(_("This file holds %(n)s matches; a backup holds at most %(max)s.",
                            n=len(matches), max=MAX_MATCHES))
    hands = sum(len(m["hands"]) for m in matches
                if isinstance(m, dict) and isinstance(m.get("hands"), list))
    if hands > MAX_FILE_HANDS:
        raise BackupError(_("This file holds %(n)s hands; a backup holds at most %(max)s.",
                            n=hands, max=MAX_FILE_HANDS))
    return data


def import_matches(data: Any, *, join: bool = False,
                   copies: list[tuple[str, str]] | None = None,
                   ) -> tuple[list[str], int, list[str]]:
    """Add the backup's tables and matches this instance lacks: (added ids, skipped,
    problems). With ``join`` this phone becomes a member of the backup's tables; a match
    added as a copy under a new id is appended to ``copies`` as (old id, new id).

    Every match is checked first, the rules included, without touching the database; only
    the good ones are then stored, so the time grows with the file and no faster.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    checked, problems = [], []
    for entry in data["matches"]:
        try:
            checked.append(_checked(entry))
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # RuleError is a ValueError: the rules refused the match's hands.
            name = entry.get("id", "?") if isinstance(entry, dict) else "?"
            problems.append(f"{str(name)[:40]}: {str(error)[:200]}")
    added, skipped = [], 0
    targets = Targets(data.get("tables"))
    for match_data in checked:
        savepoint = db.session.begin_nested()
        try:
            match = _stored(match_data, targets)
            savepoint.commit()
        except (ValueError, SQLAlchemyError) as error:
            savepoint.rollback()
            problems.append(f"{match_data['id'][:40]}: {str(error)[:200]}")
            continue
        if match is None:
            skipped += 1
            continue
        added.append(match.id)
        if match.id != match_data["id"] and copies is not None:
            copies.append((match_data["id"], match.id))
    targets.finish(join=join)
    db.session.commit()
    return added, skipped, problems


def _text(value: Any, limit: int, what: str, *, empty: bool = False) -> str:
    """``value`` as readable text of at most ``limit`` characters, or ValueError."""
    if not isinstance(value, str) or len(value) > limit or not naming.readable(value) \
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


def _list(value: Any, limit: int, what: str) -> list[Any]:
    """``value`` as a list of at most ``limit`` items, or ValueError."""
    if not isinstance(value, list) or len(value) > limit:
        raise ValueError(_("bad %(what)s", what=what))
    return value


def _checked(entry: dict[str, Any]) -> dict[str, Any]:
    """One backup entry with every field checked and its hands checked by the rules, as
    plain values; ValueError (or KeyError, TypeError) naming what is wrong. Reads nothing
    from the database."""
    match_id = _text(entry["id"], 24, "id")
    if not MATCH_ID.fullmatch(match_id):
        raise ValueError(_("bad %(what)s", what="id"))
    if entry["game"] not in GAMES:
        raise ValueError(_("unknown game"))
    game = GAMES[entry["game"]]
    names = [naming.clean(_text(n, NAME_LENGTH, "name"))
             for n in _list(entry["players"], game.max_players, "players")]
    if len({naming.key(n) for n in names}) != len(names):
        raise ValueError(_("a player is in this match twice"))
    options = game.clean_options(len(names), dict(entry["options"]))
    first_dealer = _whole(entry["first_dealer"], 0, len(names) - 1, "first dealer")
    place = entry.get("place")
    hands = sorted(_list(entry["hands"], MAX_HANDS, "hands"),
                   key=lambda h: _whole(h["number"], 1, MAX_HANDS, "hand"))
    if [h["number"] for h in hands] != list(range(1, len(hands) + 1)):
        raise ValueError(_("the hands are not numbered 1, 2, 3..."))
    sheet = game.build_sheet(len(names), [h["data"] for h in hands],
                             first_dealer=first_dealer, **options)
    history = []
    for c in _list(entry.get("history", []), MAX_CHANGES, "history"):
        if c["kind"] not in KINDS or not isinstance(c["old"], dict | None) \
                or not isinstance(c["new"], dict | None):
            raise ValueError(_("bad %(what)s", what="history"))
        history.append({"number": _whole(c["number"], 1, MAX_HANDS, "hand"), "kind": c["kind"],
                        "old": c["old"], "new": c["new"], "undone": bool(c["undone"]),
                        "created_at": _when(c["created_at"])})
    return {
        "id": match_id, "table": entry.get("table"), "game": game.key, "names": names,
        "options": options, "first_dealer": first_dealer,
        "place": None if place is None else _text(place, PLACE_LENGTH, "place"),
        "lang": entry.get("lang") if entry.get("lang") in ("en", "it") else "en",
        "created_at": _when(entry["created_at"]), "updated_at": _when(entry["updated_at"]),
        "finished": sheet.finished, "locked": bool(entry.get("locked", sheet.finished)),
        "abandoned": entry.get("abandoned") is True,
        "hands": [(h["number"], h["data"], _when(h["created_at"]), _when(h["updated_at"]))
                  for h in hands],
        "history": history,
    }


def _stored(data: dict[str, Any], targets: Targets) -> Match | None:
    """The checked match stored in its table (see table_backup): None if this instance has
    it already in the same table, a copy under a new id when another match has its id."""
    table, proven = targets.table_of(data["table"], data["names"])
    match_id = data["id"]
    existing = db.session.get(Match, match_id)
    if existing is not None and proven and existing.table_id == table.id:
        return None
    if existing is not None:
        match_id = new_match_id()
    match = Match(id=match_id, table_id=table.id, game=data["game"], options=data["options"],
                  first_dealer=data["first_dealer"], place=data["place"], lang=data["lang"],
                  created_at=data["created_at"], updated_at=data["updated_at"],
                  finished=data["finished"], locked=data["locked"],
                  abandoned=data["abandoned"])
    match.seats = [Seat(seat=seat, player=player)
                   for seat, player in enumerate(seat_players(table, data["names"]))]
    match.hands = [Hand(number=number, data=hand, created_at=created, updated_at=updated)
                   for number, hand, created, updated in data["hands"]]
    match.changes = [Change(**change) for change in data["history"]]
    db.session.add(match)
    db.session.flush()
    return match


@bp.get("/matches/<match_id>/history")
def history(match_id: str):
    """Every change to the match's hands, newest first, as sentences."""
    match = get_match(match_id)
    changes = db.session.scalars(select(Change).where(Change.match_id == match.id)
                                 .order_by(Change.id)).all()
    context = sheet_context(match)
    return render_template("matches/history.html", **context, changes=changes, entries=entries(
        match.game, match.names, context["sheet"].columns, changes), zone=viewer_zone())


# A spreadsheet runs a cell that starts with one of these as a formula.
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet shows it and never runs it (OWASP's advice on CSV
    injection): text that a spreadsheet would take for a formula gets a leading quote.

    >>> safe_cell("=SUM(A1)"), safe_cell("@x"), safe_cell(-5), safe_cell("Anna")
    ("'=SUM(A1)", "'@x", -5, 'Anna')
    """
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


class SafeWriter:
    """A csv writer whose every cell goes through :func:`safe_cell`."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows: list[list[Any]]) -> None:
        for row in rows:
            self.writerow(row)


@bp.get("/matches/<match_id>.csv")
def match_csv(match_id: str):
    """One match for a spreadsheet: a row per hand with each column's points and totals."""
    match = get_match(match_id)
    out = io.StringIO()
    SafeWriter(out).writerows(csv_rows(match, compute_sheet(match), match.names))
    return Response(out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{download_name(match, "csv")}"'})


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
            copies: list[tuple[str, str]] = []
            added, skipped, problems = import_matches(read_backup(upload.read()), join=True,
                                                      copies=copies)
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
    @click.argument("file", type=click.File("rb"))
    def import_command(file) -> None:
        """Add the tables and matches of the backup FILE that this instance does not have yet."""
        try:
            with app.test_request_context():  # messages in the default language
                added, skipped, problems = import_matches(read_backup(file.read()))
        except BackupError as error:
            raise click.ClickException(str(error)) from None
        for problem in problems:
            click.echo(f"skipped: {problem}", err=True)
        click.echo(f"{len(added)} matches imported, {skipped} already here.")

