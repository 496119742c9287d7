"""Nothing lost: a match's history, its CSV, and backups of a whole instance.

A backup is JSON holding every match a browser may edit (or, from the command line, every
match): its players, options and the raw inputs of each hand. Importing checks each match
with the rules engine and adds the ones this instance does not have yet.
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
from .access import editable_ids, grant
from .db import db
from .forms import PLACE_LENGTH
from .hands import game_modules
from .models import NAME_LENGTH, Change, Hand, Match, Player, Seat
from .pages import get_match, sheet_context
from .rules import GAMES
from .scoring import compute_sheet
from .security import MATCH_ID

bp = Blueprint("backup", __name__)
FORMAT = "scorekeeper-backup"
KINDS = ("enter", "correct", "undo")


def _time(value: datetime) -> str:
    return value.isoformat()


def export_matches(ids: list[str] | None) -> dict[str, Any]:
    """Every match (``ids`` None) or the listed ones, as JSON-able data."""
    query = select(Match).options(selectinload(Match.hands)).order_by(Match.created_at)
    if ids is not None:
        query = query.where(Match.id.in_(ids))
    matches = db.session.scalars(query).all()
    changes: dict[str, list[Change]] = {}
    if matches:
        for change in db.session.scalars(select(Change).where(
                Change.match_id.in_([m.id for m in matches])).order_by(Change.id)):
            changes.setdefault(change.match_id, []).append(change)
    return {"format": FORMAT, "version": 1, "matches": [{
        "id": m.id, "game": m.game, "options": m.options, "first_dealer": m.first_dealer,
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


def import_matches(data: Any) -> tuple[list[str], int, list[str]]:
    """Add the backup's matches this instance lacks: (added ids, skipped, problems).

    Every entry is checked, the rules included, before the first is stored; the good ones
    are then stored in one transaction, so the time grows with the file and no faster.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    entries = data["matches"]
    wanted = [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)]
    here = set()
    for start in range(0, len(wanted), 500):
        here.update(db.session.scalars(select(Match.id).where(
            Match.id.in_(wanted[start:start + 500]))))
    players = {naming.key(p.name): p for p in db.session.scalars(select(Player))}
    added: list[Match] = []
    skipped, problems = 0, []
    for entry in entries:
        try:
            match = _match_from(entry, players, here)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # RuleError is a ValueError: the rules refused the match's hands.
            name = entry.get("id", "?") if isinstance(entry, dict) else "?"
            problems.append(f"{str(name)[:40]}: {str(error)[:200]}")
            continue
        if match is None:
            skipped += 1
            continue
        here.add(match.id)
        added.append(match)
    db.session.add_all(added)
    try:
        db.session.commit()
    except SQLAlchemyError:
        db.session.rollback()
        raise BackupError(_("The backup could not be stored: another phone changed the "
                            "same matches. Try again.")) from None
    return [m.id for m in added], skipped, problems


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


def _match_from(entry: dict[str, Any], players: dict[str, Player],
                here: set[str]) -> Match | None:
    """A new Match from one backup entry, every field checked and the hands checked by the
    rules, not yet added to the session; None if this instance (``here``) has it already.
    New players are added to ``players``."""
    match_id = _text(entry["id"], 24, "id")
    if not MATCH_ID.fullmatch(match_id):
        raise ValueError(_("bad %(what)s", what="id"))
    if match_id in here:
        return None
    if entry["game"] not in GAMES:
        raise ValueError(_("unknown game"))
    game = GAMES[entry["game"]]
    names = [naming.clean(_text(n, NAME_LENGTH, "name"))
             for n in _list(entry["players"], game.max_players, "players")]
    if len({naming.key(n) for n in names}) != len(names):
        raise ValueError(_("a player is in this match twice"))
    options = game.clean_options(len(names), dict(entry["options"]))
    place = entry.get("place")
    match = Match(id=match_id, game=game.key, options=options,
                  first_dealer=_whole(entry["first_dealer"], 0, len(names) - 1, "first dealer"),
                  place=None if place is None else _text(place, PLACE_LENGTH, "place"),
                  lang=entry.get("lang") if entry.get("lang") in ("en", "it") else "en",
                  created_at=_when(entry["created_at"]), updated_at=_when(entry["updated_at"]))
    for seat, name in enumerate(names):
        player = players.get(naming.key(name))
        if player is None:
            player = players[naming.key(name)] = Player(name=name)
        match.seats.append(Seat(seat=seat, player=player))
    hands = sorted(_list(entry["hands"], MAX_HANDS, "hands"),
                   key=lambda h: _whole(h["number"], 1, MAX_HANDS, "hand"))
    if [h["number"] for h in hands] != list(range(1, len(hands) + 1)):
        raise ValueError(_("the hands are not numbered 1, 2, 3..."))
    sheet = compute_sheet(match, [h["data"] for h in hands])
    match.finished = sheet.finished
    match.locked = bool(entry.get("locked", sheet.finished))
    match.abandoned = entry.get("abandoned") is True
    match.hands = [Hand(number=h["number"], data=h["data"], created_at=_when(h["created_at"]),
                        updated_at=_when(h["updated_at"])) for h in hands]
    changes = []
    for c in _list(entry.get("history", []), MAX_CHANGES, "history"):
        if c["kind"] not in KINDS or not isinstance(c["old"], dict | None) \
                or not isinstance(c["new"], dict | None):
            raise ValueError(_("bad %(what)s", what="history"))
        changes.append(Change(match_id=match_id, number=_whole(c["number"], 1, MAX_HANDS, "hand"),
                              kind=c["kind"], old=c["old"], new=c["new"],
                              undone=bool(c["undone"]), created_at=_when(c["created_at"])))
    match.changes = changes
    return match


@bp.get("/matches/<match_id>/history")
def history(match_id: str):
    """Every change to the match's hands, newest first."""
    match = get_match(match_id)
    changes = db.session.scalars(select(Change).where(Change.match_id == match.id)
                                 .order_by(Change.id.desc())).all()
    return render_template("matches/history.html", **sheet_context(match), changes=changes,
                           seat_keys=game_modules()[match.game].HISTORY_SEATS)


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


@bp.get("/matches/<match_id>.csv")
def match_csv(match_id: str):
    """One match for a spreadsheet: a row per hand with each column's points and totals."""
    match = get_match(match_id)
    sheet = compute_sheet(match)
    names = match.names
    columns = [" + ".join(names[s] for s in column) for column in sheet.columns]
    writer = SafeWriter(out := io.StringIO())
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
    """The matches this browser may edit (every match on an open install), as a file."""
    data = json.dumps(export_matches(editable_ids()), ensure_ascii=False, indent=1)
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
            added, skipped, problems = import_matches(read_backup(upload.read()))
        except BackupError as error:
            db.session.rollback()
            return render_template("backup.html", error=str(error)), 422
        for match_id in added:
            grant(match_id)
        result = {"added": len(added), "skipped": skipped, "problems": problems}
    return render_template("backup.html", result=result), status


def init_app(app: Flask) -> None:
    """The backup blueprint and the ``flask export`` / ``flask import`` commands."""
    app.register_blueprint(bp)

    @app.cli.command("export")
    @click.argument("file", type=click.File("w", encoding="utf-8"))
    def export_command(file) -> None:
        """Write every match and player of this instance to FILE."""
        data = export_matches(None)
        json.dump(data, file, ensure_ascii=False, indent=1)
        click.echo(f"{len(data['matches'])} matches exported.")

    @app.cli.command("import")
    @click.argument("file", type=click.File("rb"))
    def import_command(file) -> None:
        """Add the matches of the backup FILE that this instance does not have yet."""
        try:
            with app.test_request_context():  # messages in the default language
                added, skipped, problems = import_matches(read_backup(file.read()))
        except BackupError as error:
            raise click.ClickException(str(error)) from None
        for problem in problems:
            click.echo(f"skipped: {problem}", err=True)
        click.echo(f"{len(added)} matches imported, {skipped} already here.")

