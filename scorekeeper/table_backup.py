"""The tables of a backup: what proves membership, and where each imported match goes.

A table's entry carries its secret. Importing it where the table exists with the same
secret proves that the backup comes from that table: its matches already here are skipped
and the importing phone becomes a member. Where the secret differs, or the backup has no
table (an older backup), the matches go to a new table, and a match whose id is taken is
added as a copy under a new id: nobody can slip a match into another's table, or take
over its address.
"""

from __future__ import annotations

import hmac
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import delete, exists, select

from . import membership
from .db import db
from .membership import current_device, my_tables, open_edit
from .models import Device, Match, Membership, Table
from .security import MATCH_ID

TABLE_NAME_LENGTH = 60


def my_table_ids() -> list[str] | None:
    """The ids of this phone's tables; None on an open install (every table)."""
    if open_edit():
        return None
    return list(db.session.scalars(my_tables().with_only_columns(Table.id)))


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

    def finish(self, *, join: bool) -> None:
        """Drop the tables created for nothing; restore phones; with ``join``, make this
        phone a member of every table of the backup."""
        for table_id in list(self.created):
            if not db.session.scalar(select(exists().where(Match.table_id == table_id))):
                db.session.execute(delete(Table).where(Table.id == table_id))
                self.created.discard(table_id)
                self.used.discard(table_id)
        for table_id, phones in self.phones.items():
            if table_id in self.created:
                self._add_phones(table_id, phones)
        if join:
            device = current_device(create=True)
            for table_id in self.used:
                membership.join(table_id, device)

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

