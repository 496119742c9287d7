"""Nothing lost: a match's history, its CSV, and backups of tables or a whole instance.

A backup is JSON in the export format "scorekeeper/2" (its shape declared in
:mod:`.schema`) holding the tables of a phone (or, from the command line, every table with
its phones): each table's secret, which proves membership, and its matches with their
players, options and the raw inputs of each hand. Importing reads each match through the
format's struct, checks it with the rules engine and adds the ones this instance does not
have yet; a match whose address is taken by another is added as a copy under a new address
(see :class:`Targets`). A file written before the format (``scorekeeper-backup``) is read
the same way.

A table's entry carries its secret. Importing it where the table exists with the same
secret proves that the backup comes from that table: its matches already here are skipped
and the importing phone becomes a member. Where the secret differs, or the backup has no
table (an older backup), the matches go to a new table, and a match whose id is taken is
added as a copy under a new id: nobody can slip a match into another's table, or take
over its address.

What a file may hold is capped (:class:`Caps`, ``MAX_*``, docs/operating.md#limits) and checked
before anything is read into the database; what is stored is what every page, export and
statistic can read back: names and places as stored (normal form C, within their columns),
dates from 2000 to 2100, values nested no deeper than a hand's. A file is stored a few
hundred matches at a time, each batch in a short transaction of its own, so that the
phones of the instance go on saving while a large file is imported.
"""

from __future__ import annotations

import hmac
import json
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from flask_babel import gettext as _
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import DataError, IntegrityError
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
    Player,
    Seat,
    Table,
    _now,
    clean_name,
    fits,
    name_key,
    new_match_id,
    new_table_id,
)
from ..rules import GAMES, N_
from .history import ROSTER, table_name
from .schema import (
    FORMAT,
    MAX_CHANGES,
    MAX_HANDS,
    MAX_PHONES,
    OLD_FORMAT,
    HandEntry,
    HistoryEntry,
    MatchEntry,
    Phone,
    RosterChange,
    TableEntry,
    read,
)

FORMATS = (FORMAT, OLD_FORMAT)


@dataclass(frozen=True)
class Caps:
    """What one backup file may hold, checked before anything is read into the database.

    An upload is a request: at these caps it is stored within a few seconds (make bench,
    row 13). The command line holds no worker, and takes a whole instance's backup.
    """

    matches: int = 1_500
    hands: int = 15_000
    changes: int = 22_500  # history entries: every hand's entry, and corrections and undos
    tables: int = 300
    phones: int = 1_500


UPLOAD = Caps()
COMMAND_LINE = Caps(matches=100_000, hands=1_000_000, changes=2_000_000, tables=20_000,
                    phones=50_000)
# Containers inside one hand's inputs, or one history entry's value before or after: a
# hand is a mapping of lists (Forty-Five's plays: a list of tricks of cards, three deep).
MAX_DEPTH = 5
MAX_ITEMS = 2_000  # values in one hand's inputs
# The dates a backup may give, in UTC: every database reads them back.
EARLIEST = datetime(2000, 1, 1)
LATEST = datetime(2101, 1, 1)
# Rows (matches, seats, hands, history entries) written in one transaction.
BATCH_ROWS = 2_000
EXPORT_BATCH = 200  # matches read from the database at a time for an export


def export_text(table_ids: list[str] | None, *, phones: bool = False) -> Iterator[str]:
    """Every table (``table_ids`` None) or the listed ones with their matches, as the JSON
    text of a backup file, in pieces; with ``phones``, the phones of each table too.

    One table or match a line, each written compactly: the file is about the size of what
    is stored (an indented file grows with the nesting of what it holds), and a large
    instance is read a few hundred matches at a time, never whole."""
    yield f'{{"format": "{FORMAT}", "tables": ['
    for index, entry in enumerate(table_entries(table_ids, phones=phones)):
        yield ("," if index else "") + "\n" + _compact(entry)
    yield '],\n"matches": ['
    first = True
    for batch in _match_batches(table_ids):
        for entry in batch:
            yield ("\n" if first else ",\n") + _compact(entry)
            first = False
    yield "]}\n"


def _compact(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def _match_batches(table_ids: list[str] | None) -> Iterator[list[MatchEntry]]:
    """The matches as backup entries, oldest first, ``EXPORT_BATCH`` at a time (the session
    forgets a batch once nothing refers to it)."""
    query = select(Match.id).order_by(Match.created_at, Match.id)
    if table_ids is not None:
        query = query.where(Match.table_id.in_(table_ids))
    ids = list(db.session.scalars(query))
    for start in range(0, len(ids), EXPORT_BATCH):
        chunk = ids[start:start + EXPORT_BATCH]
        matches = db.session.scalars(select(Match).options(selectinload(Match.hands))
                                     .where(Match.id.in_(chunk))).all()
        changes: dict[str, list[Change]] = {}
        for change in db.session.scalars(select(Change).where(
                Change.match_id.in_(chunk)).order_by(Change.id)):
            changes.setdefault(change.match_id, []).append(change)
        order = {match_id: index for index, match_id in enumerate(chunk)}
        people = _people_named(matches, changes)
        yield [_match_entry(m, changes.get(m.id, []), people)
               for m in sorted(matches, key=lambda m: order[m.id])]


def _rosters(match: Match, changes: list[Change]) -> list[list[dict[str, Any]]]:
    """The match's changes of who plays, and those its history's changes held."""
    return [match.roster] + [(part or {}).get("roster") or [] for c in changes
                             if c.number == ROSTER for part in (c.old, c.new)]


def _people_named(matches: Any, changes: dict[str, list[Change]]) -> dict[int, str]:
    """The names of the people the matches' changes of who plays name, by id: a backup
    names them (an id is this instance's own)."""
    ids = {change["person"] for m in matches for roster in _rosters(m, changes.get(m.id, []))
           for change in roster if isinstance(change.get("person"), int)}
    if not ids:
        return {}
    return dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_(sorted(ids)))).all())


def _with_people(roster: list[dict[str, Any]], people: dict[Any, Any]) -> list[dict[str, Any]]:
    """``roster`` with each person given by ``people`` (their name in a backup, their id
    here), those it does not know as they are."""
    return [{**change, "person": people.get(change["person"], change["person"])}
            if "person" in change else dict(change) for change in roster]


def _history_part(part: dict[str, Any] | None, number: int,
                  people: dict[Any, Any]) -> dict[str, Any] | None:
    """A history change's value before or after, its people given by ``people`` when it is
    a change of who plays."""
    if number != ROSTER or part is None:
        return part
    return {"roster": _with_people(part.get("roster") or [], people)}


def _match_entry(m: Match, changes: list[Change], people: dict[int, str]) -> MatchEntry:
    return MatchEntry(
        id=m.id, table=m.table_id, game=m.game, options=m.options,
        first_dealer=m.first_dealer, place=m.place, lang=m.lang, finished=m.finished,
        locked=m.locked, abandoned=m.abandoned, version=m.version,
        created_at=m.created_at, updated_at=m.updated_at, players=m.names,
        hands=[HandEntry(h.number, h.data, h.created_at, h.updated_at) for h in m.hands],
        # Who came and went, people by name (absent from a backup made before).
        roster=[RosterChange(**change) for change in _with_people(m.roster, people)],
        history=[HistoryEntry(c.number, c.kind, c.created_at,
                              _history_part(c.old, c.number, people),
                              _history_part(c.new, c.number, people), c.undone)
                 for c in changes])


class BackupError(ValueError):
    """The file is not a backup this app can read."""


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


def _cap(n: int, cap: int, message: str) -> None:
    if n > cap:
        raise BackupError(_(message, n=n, max=cap))


def _length(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0


def read_backup(raw: bytes | str, caps: Caps = UPLOAD) -> dict[str, Any]:
    """The backup in ``raw``, its shape and size checked against ``caps``; BackupError
    saying what is wrong.

    >>> read_backup('{"format": "scorekeeper/2", "matches": []}')["matches"]
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
    if not isinstance(data, dict) or data.get("format") not in FORMATS \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    matches = data["matches"]
    _cap(len(matches), caps.matches,
         N_("This file holds %(n)s matches; a backup holds at most %(max)s."))
    entries = [m for m in matches if isinstance(m, dict)]
    hands = [_length(m.get("hands")) for m in entries]
    history = [_length(m.get("history")) for m in entries]
    _cap(max(hands, default=0), MAX_HANDS,
         N_("A match of this file has %(n)s hands; a match of a backup has at most %(max)s."))
    _cap(sum(hands), caps.hands,
         N_("This file holds %(n)s hands; a backup holds at most %(max)s."))
    _cap(max(history, default=0), MAX_CHANGES,
         N_("A match of this file has %(n)s changes in its history; a match of a backup has "
            "at most %(max)s."))
    _cap(sum(history), caps.changes,
         N_("This file holds %(n)s changes in its matches' histories; a backup holds at "
            "most %(max)s."))
    tables = data.get("tables")
    tables = [t for t in tables if isinstance(t, dict)] if isinstance(tables, list) else []
    _cap(len(tables), caps.tables,
         N_("This file holds %(n)s tables; a backup holds at most %(max)s."))
    phones = [_length(t.get("phones")) for t in tables]
    _cap(max(phones, default=0), MAX_PHONES,
         N_("A table of this file has %(n)s phones; a table of a backup has at most "
            "%(max)s."))
    _cap(sum(phones), caps.phones,
         N_("This file holds %(n)s phones; a backup holds at most %(max)s."))
    return data


def import_matches(data: Any, *, joining: Callable[[], Device] | None = None,
                   copies: list[tuple[str, str]] | None = None,
                   changed: list[str] | None = None, rejoined: list[str] | None = None,
                   ) -> tuple[list[str], int, list[str]]:
    """Add the backup's tables and matches this instance lacks: (added ids, skipped,
    problems). The device ``joining()`` gives, asked once the matches are stored, becomes a
    member of the backup's tables (a keeper of those the import makes); a match added as a
    copy under a new id is appended to ``copies`` as (old id, new id); the name of a table
    here whose secret the backup no longer holds (it changed when a phone was removed) is
    appended to ``changed``: its matches go to a new table, as copies; the name of a table
    here that the device becomes a member of again is appended to ``rejoined``.

    Every match is checked, the rules included, without touching the database; the good
    ones are stored a batch at a time (``BATCH_ROWS`` rows), each batch in a short
    transaction of its own, so that other phones' saves wait at most for one batch. A
    match whose entry is wrong is left out and named in the problems.
    """
    if not isinstance(data, dict) or data.get("format") not in FORMATS \
            or not isinstance(data.get("matches"), list):
        raise BackupError(_("This file is not a Scorekeeper backup."))
    db.session.commit()  # what the request did before is its own
    problems: list[str] = []
    added: list[str] = []
    skipped = 0
    targets = Targets(data.get("tables"), upload=joining is not None)
    batch: list[dict[str, Any]] = []
    rows = 0
    for entry in data["matches"]:
        try:
            checked = _checked(entry)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as error:
            # RuleError is a ValueError: the rules refused the match's hands.
            name = entry.get("id", "?") if isinstance(entry, dict) else "?"
            problems.append(f"{str(name)[:40]}: {str(error)[:200]}")
            continue
        batch.append(checked)
        rows += 1 + len(checked["names"]) + len(checked["hands"]) + len(checked["history"])
        if rows >= BATCH_ROWS:
            skipped += _store_batch(batch, targets, added, copies, problems)
            batch, rows = [], 0
    skipped += _store_batch(batch, targets, added, copies, problems)
    with _writing():
        targets.finish(joining)
    if changed is not None:
        changed.extend(targets.changed)
    if rejoined is not None:
        rejoined.extend(targets.rejoined)
    return added, skipped, problems


@contextmanager
def _writing() -> Iterator[None]:
    """One short write transaction, committed at the end, rolled back on an error. On
    SQLite it takes the write lock first (BEGIN IMMEDIATE), waiting its turn behind other
    phones' saves, so that nothing it read can be overtaken before it writes."""
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        yield
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _store_batch(batch: list[dict[str, Any]], targets: Targets, added: list[str],
                 copies: list[tuple[str, str]] | None, problems: list[str]) -> int:
    """Store a batch of checked matches in one transaction; how many were here already.
    A batch that meets a concurrent change (another import of the same file, a phone adding
    the same new player) is tried again from what is stored then."""
    if not batch:
        return 0
    for attempt in range(3):
        try:
            with _writing():
                stored, refused = _write(batch, targets)
        except (IntegrityError, DataError) as error:
            targets.rollback()
            if len(batch) > 1:  # find the match at fault: each alone
                return sum(_store_batch([match], targets, added, copies, problems)
                           for match in batch)
            if isinstance(error, IntegrityError) and attempt < 2:
                continue  # a concurrent change: once more, from what is stored now
            problems.append(f"{batch[0]['id'][:40]}: {str(error.orig)[:200]}")
            return 0
        targets.commit()
        problems += refused
        skipped = 0
        for old_id, new_id in stored:
            if new_id is None:
                skipped += 1
                continue
            added.append(new_id)
            if new_id != old_id and copies is not None:
                copies.append((old_id, new_id))
        return skipped
    return 0  # pragma: no cover - the loop returns


def _write(batch: list[dict[str, Any]], targets: Targets,
           ) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Write the batch's matches with their seats, hands and history, in a few statements
    whatever the batch's size: (backup id, stored id or None when the match is here
    already) of each match stored or skipped, and the problems of the others."""
    places = targets.resolve(batch)
    refused = [f"{data['id'][:40]}: {place}" for data, place in zip(batch, places, strict=True)
               if isinstance(place, ValueError)]
    placed = [(data, place) for data, place in zip(batch, places, strict=True)
              if not isinstance(place, ValueError)]
    ids = [data["id"] for data, _place in placed]
    here = dict(db.session.execute(select(Match.id, Match.table_id).where(
        Match.id.in_(ids))).all()) if placed else {}
    # Matches an earlier upload of these entries stored under new addresses, by table.
    came = {(table_id, origin) for origin, table_id in db.session.execute(
        select(Match.origin, Match.table_id).where(Match.origin.in_(ids)))} if placed else set()
    players = _players(placed)
    matches, seats, hands, changes = [], [], [], []
    stored: list[tuple[str, str | None]] = []
    for data, (table_id, proven) in placed:
        match_id = data["id"]
        targets.used.add(table_id)  # the importing phone joins it, even if nothing is new
        if (match_id in here and proven and here[match_id] == table_id) \
                or (table_id, match_id) in came:
            stored.append((match_id, None))
            continue
        origin = None
        if match_id in here or (targets.upload and table_id in targets.created):
            # An upload takes no address (a follower could take the real match's first),
            # nor does a match whose address is taken.
            match_id, origin = new_match_id(), match_id
        here[match_id] = table_id  # a second entry of the same id in the file is a copy
        stored.append((data["id"], match_id))
        ids = {name: players[table_id, name_key(name)] for name in data["people"]}
        matches.append({"id": match_id, "origin": origin, "table_id": table_id,
                        "game": data["game"], "roster": _with_people(data["roster"], ids),
                        "options": data["options"], "first_dealer": data["first_dealer"],
                        "place": data["place"], "lang": data["lang"],
                        "version": data["version"], "created_at": data["created_at"],
                        "updated_at": data["updated_at"], "finished": data["finished"],
                        "locked": data["locked"], "abandoned": data["abandoned"]})
        seats += [{"match_id": match_id, "seat": seat,
                   "player_id": players[table_id, name_key(name)]}
                  for seat, name in enumerate(data["names"])]
        hands += [{"match_id": match_id, "number": number, "data": hand,
                   "created_at": created, "updated_at": updated}
                  for number, hand, created, updated in data["hands"]]
        changes += [{"match_id": match_id, **change,
                     "old": _history_part(change["old"], change["number"], ids),
                     "new": _history_part(change["new"], change["number"], ids)}
                    for change in data["history"]]
    for model, rows in ((Match, matches), (Seat, seats), (Hand, hands), (Change, changes)):
        if rows:
            db.session.execute(insert(model), rows)
    if matches:
        # A new version of each table: its statistics and its place on the home pages
        # follow (what engine.ledger.bump_table does for one table).
        db.session.execute(update(Table).where(Table.id.in_({m["table_id"] for m in matches}))
                           .values(version=Table.version + 1, updated_at=_now())
                           .execution_options(synchronize_session=False))
    return stored, refused


def _players(placed: list[tuple[dict[str, Any], Any]]) -> dict[tuple[str, str], int]:
    """The id of every player the batch's matches (each with its table) seat, by (table,
    name key); new players are added, named as the first match that seats them writes
    them."""
    wanted: dict[tuple[str, str], str] = {}
    for data, (table_id, _proven) in placed:
        for name in (*data["names"], *data["people"]):
            wanted.setdefault((table_id, name_key(name)), name)
    if not wanted:
        return {}
    tables = {table_id for table_id, _key in wanted}
    keys = {key for _table, key in wanted}
    ids = {(table_id, key): player_id for table_id, key, player_id in db.session.execute(
        select(Player.table_id, Player.key, Player.id).where(
            Player.table_id.in_(tables), Player.key.in_(keys)))
        if (table_id, key) in wanted}
    new = [Player(table_id=table_id, key=key, name=name)
           for (table_id, key), name in wanted.items() if (table_id, key) not in ids]
    if new:
        db.session.add_all(new)
        db.session.flush()
        ids.update({(p.table_id, p.key): p.id for p in new})
    return ids


def _text(value: str, limit: int, what: str, *, empty: bool = False) -> str:
    """``value`` cleaned as names are stored (:func:`~scorekeeper.models.clean_name`),
    readable and at most ``limit`` characters long once cleaned, or ValueError."""
    if not fits(value, limit) or not (empty or value.strip()):
        raise ValueError(_("bad %(what)s", what=what))
    return clean_name(value)


def _when(moment: datetime) -> datetime:
    """A date of the backup as stored: in UTC, without its offset, from 2000 to 2100."""
    if moment.tzinfo is not None and EARLIEST.year - 1 <= moment.year <= LATEST.year:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    if not EARLIEST <= moment.replace(tzinfo=None) < LATEST:
        raise ValueError(_("the date %(value)s is not between 2000 and 2100",
                           value=moment.isoformat()))
    return moment


def _inputs(value: dict[str, Any], what: str) -> dict[str, Any]:
    """``value`` (a hand's inputs, or a history entry's value before or after) if its lists
    and mappings nest at most ``MAX_DEPTH`` deep, holding at most ``MAX_ITEMS`` values,
    its keys names; else ValueError."""
    if _items(value, 1, what) > MAX_ITEMS:
        raise ValueError(_("bad %(what)s", what=what))
    return value


def _items(value: dict[str, Any] | list[Any], depth: int, what: str) -> int:
    """How many values ``value`` holds, at any depth; ValueError when it nests too deep, a
    mapping's key is not a name or a text holds a NUL."""
    if depth > MAX_DEPTH:
        raise ValueError(_("%(what)s nested more than %(n)s deep", what=what, n=MAX_DEPTH))
    if type(value) is dict:
        if not all(type(key) is str and key.isidentifier() and key.isascii() and len(key) <= 40
                   for key in value):
            raise ValueError(_("bad %(what)s", what=what))
        values: Any = value.values()
    else:
        values = value
    count = len(values)
    for item in values:
        kind = type(item)
        if kind is dict or kind is list:
            count += _items(item, depth + 1, what)
        elif kind is str and "\x00" in item:  # no database stores it in text
            raise ValueError(_("bad %(what)s", what=what))
    return count


def _checked(entry: Any) -> dict[str, Any]:
    """One backup entry read as a :class:`~.schema.MatchEntry`, what the schema cannot say
    checked here and its hands by the rules, as plain values; ValueError naming what is
    wrong. Reads nothing from the database."""
    m: MatchEntry = read(entry, MatchEntry, "match")
    if m.game not in GAMES:
        raise ValueError(_("unknown game"))
    game = GAMES[m.game]
    # Every seat, those of the players who joined it after the first ones.
    names = [_text(n, NAME_LENGTH, "name") for n in m.players]
    roster = [msgspec.to_builtins(c) for c in m.roster]  # its person by name
    for change in roster:
        if "person" in change:
            change["person"] = _text(change["person"], NAME_LENGTH, "name")
    joiners = [c["person"] for c in roster if c["kind"] == "join"]
    players = len(names) - len(joiners)
    if not game.min_players <= players <= game.max_players \
            or [name_key(n) for n in joiners] != [name_key(n) for n in names[players:]]:
        raise ValueError(_("bad %(what)s", what="players"))
    if len({name_key(n) for n in names}) != len(names):
        raise ValueError(_("a player is in this match twice"))
    options = game.clean_options(players, m.options)
    if m.first_dealer >= players:
        raise ValueError(_("bad %(what)s", what="first dealer"))
    hands = sorted(m.hands, key=lambda h: h.number)
    if [h.number for h in hands] != list(range(1, len(hands) + 1)):
        raise ValueError(_("the hands are not numbered 1, 2, 3..."))
    inputs = [_inputs(h.data, "hand") for h in hands]
    sheet = game.build_sheet(players, inputs, first_dealer=m.first_dealer,
                             **({"roster": roster} if roster else {}), **options)
    history = [{"number": c.number, "kind": c.kind, "undone": c.undone,
                "old": None if c.old is None else _inputs(c.old, "history"),
                "new": None if c.new is None else _inputs(c.new, "history"),
                "created_at": _when(c.created_at)} for c in m.history]
    # One change a version: a sheet cached for a version is this one.
    version = len(history) if m.version is None or m.version < len(history) else m.version
    return {
        "id": m.id, "table": m.table, "game": game.key, "names": names,
        "options": options, "first_dealer": m.first_dealer,
        "place": None if m.place is None else _text(m.place, PLACE_LENGTH, "place",
                                                    empty=True) or None,
        "lang": m.lang if m.lang in ("en", "it") else "en",
        "created_at": _when(m.created_at), "updated_at": _when(m.updated_at),
        "finished": sheet.finished, "locked": sheet.finished if m.locked is None else m.locked,
        "abandoned": m.abandoned, "version": version,
        "hands": [(h.number, data, _when(h.created_at), _when(h.updated_at))
                  for h, data in zip(hands, inputs, strict=True)],
        "history": history, "roster": roster,
        "people": sorted({c["person"] for c in roster if "person" in c}),
    }


def table_entries(table_ids: list[str] | None, *, phones: bool) -> list[TableEntry]:
    """The tables as backup entries; with ``phones``, their members' device ids too (only
    for a backup of the whole instance: a device id is a phone's identity)."""
    query = select(Table).order_by(Table.created_at, Table.id)
    if table_ids is not None:
        query = query.where(Table.id.in_(table_ids))
    members: dict[str, list[Phone]] = {}
    if phones:
        every = select(Membership, Device).join(Device, Device.id == Membership.device_id) \
            .order_by(Membership.joined_at, Device.id)
        if table_ids is not None:
            every = every.where(Membership.table_id.in_(table_ids))
        for m, device in db.session.execute(every):
            members.setdefault(m.table_id, []).append(
                Phone(device.token, m.joined_at, m.last_seen, m.name, m.keeper, m.owner))
    return [TableEntry(table.id, table.name, table.secret, table.created_at,
                       members.get(table.id, [])) for table in db.session.scalars(query)]


class Targets:
    """Where the matches of one backup go, table by table.

    What a batch resolves (:meth:`resolve`) is kept once the batch is committed
    (:meth:`commit`), forgotten when it is rolled back (:meth:`rollback`).
    """

    def __init__(self, entries: Any, *, upload: bool = False) -> None:
        self.upload = upload  # a phone's upload (else the command line's import)
        self.entries = {e["id"]: e for e in entries if isinstance(e, dict) and
                        isinstance(e.get("id"), str)} if isinstance(entries, list) else {}
        self.tables: dict[str | None, tuple[str, bool] | ValueError] = {}
        self.created: set[str] = set()
        self.used: set[str] = set()
        self.phones: dict[str, list[Any]] = {}
        self.changed: list[str] = []  # tables here whose secret the backup does not hold
        self.rejoined: list[str] = []  # tables here the joining device is a member of again
        self._kept: tuple[dict, set, set, dict] = ({}, set(), set(), {})

    def commit(self) -> None:
        self._kept = (dict(self.tables), set(self.created), set(self.used), dict(self.phones))

    def rollback(self) -> None:
        tables, created, used, phones = self._kept
        self.tables, self.created, self.used, self.phones = (
            dict(tables), set(created), set(used), dict(phones))

    def resolve(self, batch: Sequence[dict[str, Any]]) -> list[tuple[str, bool] | ValueError]:
        """The table each match of the batch goes to, and whether the backup proved it is
        that table (or the ValueError of a table entry that cannot be read); a backup
        without tables gets a new one named after the players of its first match. The
        tables the batch is the first to name are looked up and made together."""
        keys = [m["table"] if isinstance(m["table"], str) and m["table"] in self.entries
                else None for m in batch]
        new = [key for key in dict.fromkeys(keys) if key not in self.tables]
        if new:
            wanted = [self.entries[key]["id"] for key in new
                      if key is not None and MATCH_ID.fullmatch(self.entries[key]["id"])]
            secrets = dict(db.session.execute(select(Table.id, Table.secret).where(
                Table.id.in_(wanted))).all()) if wanted else {}
            tables = []
            for key in new:
                names = next(m["names"] for m, k in zip(batch, keys, strict=True) if k == key)
                try:
                    table = self._table(self.entries.get(key), names, secrets)
                except ValueError as error:
                    self.tables[key] = error
                    continue
                if table is None:  # the backup's own table, here already
                    self.tables[key] = (self.entries[key]["id"], True)
                    continue
                tables.append(table)
                self.created.add(table.id)
                self.tables[key] = (table.id, key is not None and table.id == key)
            db.session.add_all(tables)
            db.session.flush()
        return [self.tables[key] for key in keys]

    def _table(self, entry: dict[str, Any] | None, names: list[str],
               secrets: dict[str, str]) -> Table | None:
        """The table to make for a backup table (None: it is here, proven by its secret)."""
        if entry is None:
            return Table(id=new_table_id(), name=table_name(names))
        table_id = entry["id"] if MATCH_ID.fullmatch(entry["id"]) else None
        # Its phones are read one by one (finish): one that cannot be read is left out.
        table: TableEntry = read({**entry, "phones": []}, TableEntry, "table")
        secret, name = table.secret, _text(table.name, TABLE_NAME_LENGTH, "table")
        if table_id in secrets and hmac.compare_digest(secrets[table_id].encode(),
                                                       secret.encode()):
            return None
        if table_id in secrets and name not in self.changed:
            self.changed.append(name)
        if table_id is not None and table_id not in secrets:
            phones = entry.get("phones")
            self.phones[table_id] = phones if isinstance(phones, list) else []
            return Table(id=table_id, name=name, secret=secret)  # restored as it was
        return Table(id=new_table_id(), name=name)  # another has its id: it proves nothing

    def finish(self, joining: Callable[[], Device] | None) -> None:
        """Drop the tables created for nothing; restore phones; make the device
        ``joining()`` gives, when given, a member of every table of the backup. A few
        statements, however many tables and phones."""
        if self.created:
            kept = set(db.session.scalars(select(Match.table_id).where(
                Match.table_id.in_(self.created)).distinct()))
            empty = self.created - kept
            if empty:
                db.session.execute(delete(Table).where(Table.id.in_(empty)))
                self.created -= empty
                self.used -= empty
        members = {(table_id, member["device"]): member
                   for table_id, phones in self.phones.items() if table_id in self.created
                   for member in map(_phone, phones) if member is not None}
        device = joining() if joining is not None else None
        if device is not None:
            joined = set(db.session.scalars(select(Membership.table_id).where(
                Membership.device_id == device.id, Membership.table_id.in_(self.used))))
            for table_id in self.used - joined:
                member = members.setdefault((table_id, device.token), {"device": device.token})
                # The phone that brings a table here keeps it.
                member["keeper"] = member.get("keeper", False) or table_id in self.created
            again = self.used - joined - self.created
            if again:
                self.rejoined = sorted(db.session.scalars(select(Table.name).where(
                    Table.id.in_(again))))
        # A table the import makes keeps a keeper: the earliest of its phones when the
        # backup names none (a backup made before keepers).
        for table_id in self.created:
            mine = [m for (t, _token), m in members.items() if t == table_id]
            if mine and not any(m.get("keeper") for m in mine):
                min(mine, key=lambda m: m.get("joined_at") or _now())["keeper"] = True
        if not members:
            return
        tokens = list({token for _table, token in members})
        devices: dict[str, int] = {}
        for start in range(0, len(tokens), 1000):
            devices.update(db.session.execute(select(Device.token, Device.id).where(
                Device.token.in_(tokens[start:start + 1000]))).all())
        new = [Device(token=token) for token in tokens if token not in devices]
        if new:
            db.session.add_all(new)
            db.session.flush()
            devices.update({d.token: d.id for d in new})
        db.session.execute(insert(Membership), [
            {"table_id": table_id, "device_id": devices[token], "keeper": False,
             **{k: v for k, v in member.items() if k != "device"}}
            for (table_id, token), member in members.items()])


def _phone(phone: Any) -> dict[str, Any] | None:
    """A phone of a backup table as a membership to restore, or None if it cannot be read."""
    try:
        p: Phone = read(phone, Phone, "phone")
        return {"device": p.device, "keeper": p.keeper,
                **{key: None if text is None else _text(text, NAME_LENGTH, "phone",
                                                        empty=True) or None
                   for key, text in (("name", p.name), ("owner", p.owner))},
                "joined_at": _when(p.joined_at), "last_seen": _when(p.last_seen)}
    except ValueError:
        return None
