"""Nothing lost: a match's history, its CSV, and backups of tables or a whole instance.

A backup is JSON holding the tables of a phone (or, from the command line, every table with
its phones): each table's secret, which proves membership, and its matches with their
players, options and the raw inputs of each hand. Importing checks each match with the
rules engine and adds the ones this instance does not have yet; a match whose address is
taken by another is added as a copy under a new address (see :class:`Targets`).

A table's entry carries its secret. Importing it where the table exists with the same
secret proves that the backup comes from that table: its matches already here are skipped
and the importing phone becomes a member. Where the secret differs, or the backup has no
table (an older backup), the matches go to a new table, and a match whose id is taken is
added as a copy under a new id: nobody can slip a match into another's table, or take
over its address.
"""

from __future__ import annotations

import hmac
import json
import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import delete, exists, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import selectinload

from ..db import db
from ..models import (
    MATCH_ID,
    NAME_LENGTH,
    PLACE_LENGTH,
    TABLE_NAME_LENGTH,
    Change,
    Device,
    Hand,
    Match,
    Membership,
    Seat,
    Table,
    clean_name,
    name_key,
    new_match_id,
    readable_name,
)
from ..rules import GAMES
from .ledger import add_member, seat_players

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


def import_matches(data: Any, *, joining: Callable[[], Device] | None = None,
                   copies: list[tuple[str, str]] | None = None,
                   ) -> tuple[list[str], int, list[str]]:
    """Add the backup's tables and matches this instance lacks: (added ids, skipped,
    problems). The device ``joining()`` gives, asked once the matches are stored, becomes a
    member of the backup's tables; a match added as a copy under a new id is appended to
    ``copies`` as (old id, new id).

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
    targets.finish(joining)
    db.session.commit()
    return added, skipped, problems


def _text(value: Any, limit: int, what: str, *, empty: bool = False) -> str:
    """``value`` as readable text of at most ``limit`` characters, or ValueError."""
    if not isinstance(value, str) or len(value) > limit or not readable_name(value) \
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
    names = [clean_name(_text(n, NAME_LENGTH, "name"))
             for n in _list(entry["players"], game.max_players, "players")]
    if len({name_key(n) for n in names}) != len(names):
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
    """The checked match stored in its table (see :class:`Targets`): None if this instance has
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


def table_entries(table_ids: list[str] | None, *, phones: bool) -> list[dict[str, Any]]:
    """The tables as backup entries; with ``phones``, their members' device ids too (only
    for a backup of the whole instance: a device id is a phone's identity)."""
    query = select(Table).order_by(Table.created_at, Table.id)
    if table_ids is not None:
        query = query.where(Table.id.in_(table_ids))
    entries = []
    for table in db.session.scalars(query):
        entry = {"id": table.id, "name": table.name, "secret": table.secret,
                 "created_at": table.created_at.isoformat()}
        if phones:
            entry["phones"] = [
                {"device": device.token, "name": m.name, "joined_at": m.joined_at.isoformat(),
                 "last_seen": m.last_seen.isoformat()}
                for m, device in db.session.execute(
                    select(Membership, Device).join(Device, Device.id == Membership.device_id)
                    .where(Membership.table_id == table.id).order_by(Membership.joined_at))]
        entries.append(entry)
    return entries


def _string(value: Any, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit \
            or not value.isprintable():
        raise ValueError(_("bad %(what)s", what="table"))
    return value


class Targets:
    """Where the matches of one backup go, table by table."""

    def __init__(self, entries: Any) -> None:
        self.entries = {e["id"]: e for e in entries if isinstance(e, dict) and
                        isinstance(e.get("id"), str)} if isinstance(entries, list) else {}
        self.tables: dict[str | None, tuple[Table, bool]] = {}
        self.created: set[str] = set()
        self.used: set[str] = set()
        self.phones: dict[str, list[Any]] = {}

    def table_of(self, backup_id: Any, names: list[str]) -> tuple[Table, bool]:
        """The table a match of backup table ``backup_id`` goes to, and whether the backup
        proved it is that table; a backup without tables gets a new one named after the
        players of its first match."""
        key = backup_id if isinstance(backup_id, str) and backup_id in self.entries else None
        if key not in self.tables:
            self.tables[key] = self._resolve(self.entries.get(key), names)
        table, proven = self.tables[key]
        self.used.add(table.id)
        return table, proven

    def _resolve(self, entry: dict[str, Any] | None, names: list[str]) -> tuple[Table, bool]:
        if entry is None:
            table = Table(name=", ".join(names)[:TABLE_NAME_LENGTH])
        else:
            table_id = _string(entry["id"], 24)
            secret = _string(entry.get("secret"), 32)
            name = _string(entry.get("name"), TABLE_NAME_LENGTH)
            existing = db.session.get(Table, table_id) if MATCH_ID.fullmatch(table_id) else None
            if existing is not None and hmac.compare_digest(existing.secret.encode(),
                                                            secret.encode()):
                return existing, True
            if existing is None and MATCH_ID.fullmatch(table_id):
                table = Table(id=table_id, name=name, secret=secret)  # restored as it was
                phones = entry.get("phones")
                self.phones[table_id] = phones if isinstance(phones, list) else []
            else:  # another table has this id: the backup proves nothing here
                table = Table(name=name)
        db.session.add(table)
        db.session.flush()
        self.created.add(table.id)
        return table, entry is not None and table.id == entry["id"]

    def finish(self, joining: Callable[[], Device] | None) -> None:
        """Drop the tables created for nothing; restore phones; make the device
        ``joining()`` gives, when given, a member of every table of the backup."""
        for table_id in list(self.created):
            if not db.session.scalar(select(exists().where(Match.table_id == table_id))):
                db.session.execute(delete(Table).where(Table.id == table_id))
                self.created.discard(table_id)
                self.used.discard(table_id)
        for table_id, phones in self.phones.items():
            if table_id in self.created:
                self._add_phones(table_id, phones)
        if joining is not None:
            device = joining()
            for table_id in self.used:
                add_member(table_id, device)

    def _add_phones(self, table_id: str, phones: list[Any]) -> None:
        for phone in phones:
            try:
                token = _string(phone["device"], 32)
                name = phone.get("name")
                name = None if name is None else _string(name, 30)
                joined = datetime.fromisoformat(_string(phone["joined_at"], 40))
                seen = datetime.fromisoformat(_string(phone["last_seen"], 40))
            except (KeyError, TypeError, ValueError):
                continue
            device = db.session.scalar(select(Device).where(Device.token == token))
            if device is None:
                device = Device(token=token)
                db.session.add(device)
                db.session.flush()
            if db.session.get(Membership, (table_id, device.id)) is None:
                db.session.add(Membership(table_id=table_id, device_id=device.id, name=name,
                                          joined_at=joined, last_seen=seen))

