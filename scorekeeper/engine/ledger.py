"""The write path: every change to a match, checked by the rules before it is stored.

Every change to a hand goes through :func:`save_hand`, which asks the rules engine to score
the whole match with the change applied (:func:`~scorekeeper.engine.sheets.compute_sheet`)
before anything is written; undo and redo are changes like any other. A change made for a
request that carried a key (:func:`expect_key`) is stored with that key, in its transaction:
the same request sent again changes nothing (:func:`stored_hash`). A key is the phone's own,
for the match the request names: another phone's key, or a key of another match, is another
request's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ..db import db
from ..frozen import thawed
from ..models import (
    Change,
    Device,
    Hand,
    HandReview,
    Match,
    Membership,
    Player,
    RequestKey,
    Seat,
    Table,
    _now,
    name_key,
)
from ..rules import N_, RuleError, Sheet
from .cache import cache, carry_forward, frozen
from .history import ROSTER
from .sheets import compute_sheet, hand_inputs, sheets, starting_players, stored_hands

ENTRIES = ("enter", "correct")  # the kinds of change a person makes; undo and redo take back
KEY = "request_key"  # the session's note of the key the next change is stored with
DEVICE = "device_token"  # the session's note of the phone the next change is made on
KEY_LIFE = timedelta(days=1)  # a phone sends a request again within minutes, not days


class Conflict(Exception):
    """The match changed since the form was shown (another phone, a double tap)."""


@dataclass(frozen=True, slots=True)
class KeyedRequest:
    """A request sent with an Idempotency-Key: the key, the match its address names, the
    device token of the phone that sent it (None: it has none) and the hash of what it asked
    (:func:`scorekeeper.web.entry.request_hash`)."""

    key: str
    match_id: str
    token: str | None
    request_hash: str


MATCHES, HANDS, CHANGES, TABLES, SEATS = (
    model.__table__ for model in (Match, Hand, Change, Table, Seat))
# The write path's statements, built once (SQLAlchemy Core: a tap writes a few rows, and the
# ORM's unit of work would cost more than it gives there); the models stay the schema.
_CLAIM = (update(MATCHES).where(MATCHES.c.id == bindparam("match"))
          .values(version=MATCHES.c.version + 1, updated_at=bindparam("now"),
                  finished=bindparam("finished"), locked=bindparam("locked"))
          .returning(MATCHES.c.version))
_CLAIM_SEEN = _CLAIM.where(MATCHES.c.version == bindparam("expected"))
_BUMP_TABLE = (update(TABLES).where(TABLES.c.id == bindparam("table"))
               .values(version=TABLES.c.version + 1, updated_at=bindparam("now")))
_ADD_HAND = insert(HANDS)
_SET_HAND = (update(HANDS).where(HANDS.c.match_id == bindparam("match"),
                                 HANDS.c.number == bindparam("n"))
             .values(data=bindparam("data"), updated_at=bindparam("now")))
_DROP_HAND = delete(HANDS).where(HANDS.c.match_id == bindparam("match"),
                                 HANDS.c.number == bindparam("n"))
_SET_ROSTER = (update(MATCHES).where(MATCHES.c.id == bindparam("match"))
               .values(roster=bindparam("roster")))
_ADD_SEAT = insert(SEATS)
_DROP_SEATS = delete(SEATS).where(SEATS.c.match_id == bindparam("match"),
                                  SEATS.c.seat >= bindparam("first"))
_UNDONE = update(CHANGES).where(CHANGES.c.id == bindparam("change")).values(undone=True)
# A key's scope: the request's match and the phone whose device token it carries, the
# device's id found in the statement itself (NULL: the request carries no token, or one of
# no device; ``IS NOT DISTINCT FROM`` finds such keys too).
KEYS = RequestKey.__table__
_DEVICE = select(Device.__table__.c.id).where(
    Device.__table__.c.token == bindparam("token")).scalar_subquery()
_STORED_HASH = select(KEYS.c.request_hash).where(
    KEYS.c.key == bindparam("key"), KEYS.c.match_id == bindparam("match"),
    KEYS.c.device_id.is_not_distinct_from(_DEVICE)).limit(1)
_ADD_KEY = insert(KEYS).values(
    key=bindparam("key"), match_id=bindparam("match"), device_id=_DEVICE,
    request_hash=bindparam("hash"), created_at=bindparam("now"))
_FORGET_KEYS = delete(KEYS).where(KEYS.c.created_at < bindparam("before"))
# A change names the phone it was made on (NULL: none known), found by its device token.
_ADD_CHANGE = insert(CHANGES).values(device_id=_DEVICE).returning(CHANGES.c.id)


def _bump_version(match: Match, expected: int | None, *, finished: bool | None = None,
                  locked: bool | None = None) -> int:
    """Claim the next version of ``match`` or raise Conflict: one writer wins. The match's
    ``finished`` and ``locked`` flags are written with it (as they are, unless given). The
    new state is set on ``match`` as stored, without reading the row again."""
    now = _now()
    values = {"match": match.id, "now": now, "expected": expected,
              "finished": match.finished if finished is None else finished,
              "locked": match.locked if locked is None else locked}
    connection = db.session.connection()
    version = connection.execute(_CLAIM if expected is None else _CLAIM_SEEN, values).scalar()
    if version is None:
        db.session.rollback()
        raise Conflict
    for name, value in (("version", version), ("updated_at", now),
                        ("finished", values["finished"]), ("locked", values["locked"])):
        set_committed_value(match, name, value)
    bump_table(match.table_id)
    _store_key(now)
    return version


def expect_key(keyed: KeyedRequest | None) -> None:
    """Store ``keyed`` (the request being served, sent with a key; None: without one) with
    the next change this session writes, in the same transaction."""
    db.session.info[KEY] = keyed


def expect_device(token: str | None) -> None:
    """Note ``token`` (the device token of the phone making the request) as the phone the
    changes this session writes are made on."""
    db.session.info[DEVICE] = token


def stored_hash(keyed: KeyedRequest) -> str | None:
    """The hash of the request a change was stored with for this key, from this phone, for
    this match (None: no change was): the same hash is the same request served before."""
    return db.session.connection().scalar(
        _STORED_HASH, {"key": keyed.key, "match": keyed.match_id, "token": keyed.token})


def _store_key(now: datetime) -> None:
    """Store the key :func:`expect_key` noted with the change being written, and forget the
    keys older than a day. A key stored meanwhile (the same request served twice at once)
    is a Conflict."""
    keyed = db.session.info.pop(KEY, None)
    if keyed is None:
        return
    connection = db.session.connection()
    connection.execute(_FORGET_KEYS, {"before": now - KEY_LIFE})
    try:
        connection.execute(_ADD_KEY, {"key": keyed.key, "match": keyed.match_id,
                                      "token": keyed.token, "hash": keyed.request_hash,
                                      "now": now})
    except IntegrityError:
        db.session.rollback()
        raise Conflict from None


def bump_table(table_id: str) -> None:
    """A new version of the table, in the caller's transaction: its statistics are computed
    again, and it comes first on its phones' home pages."""
    db.session.connection().execute(_BUMP_TABLE, {"table": table_id, "now": _now()})


def save_hand(match: Match, number: int, data: dict[str, Any] | None, *,
              expected: int | None, kind: str = "enter", undoes: Change | None = None) -> Sheet:
    """Set hand ``number`` to ``data`` (None removes the last hand), checked by the rules.

    The sheet is computed once, with the change applied, before anything is written (a hand
    added at the end resumes the sheet kept for the version before); once stored it is the
    cached sheet of the match's new version. Raises RuleError (nothing
    stored) when the match was abandoned or the rules refuse the match with the change, and
    Conflict when the match changed since version ``expected``.
    """
    if match.abandoned:
        raise RuleError(N_("This match was abandoned: take it up again to enter or change a "
                           "hand."))
    if match.locked and undoes is None:
        raise RuleError(N_("This match is finished: tap Correct a hand to change one."))
    inputs = list(stored_hands(match))
    if not 1 <= number <= len(inputs) + 1 or (data is None and number != len(inputs)):
        raise Conflict
    old = inputs[number - 1] if number <= len(inputs) else None
    if data is None:
        inputs.pop()
    elif old is None:
        inputs.append(data)
    else:
        inputs[number - 1] = data
    inputs = frozen(inputs)  # what the caches keep below, scored as they will keep it
    # A hand added at the end: the sheet kept for the version before it is resumed (none
    # kept, or any other change: the sheet is built whole).
    appended = old is None and data is not None
    previous = sheets().peek((match.id, match.version)) if appended else None
    sheet = compute_sheet(match, inputs, previous)
    version = _bump_version(match, expected, finished=sheet.finished, locked=sheet.finished)

    def write(connection: Any, now: datetime) -> None:
        if data is None:
            connection.execute(_DROP_HAND, {"match": match.id, "n": number})
        elif old is None:
            connection.execute(_ADD_HAND, {"match_id": match.id, "number": number,
                                           "data": data, "created_at": now, "updated_at": now})
        else:
            connection.execute(_SET_HAND, {"match": match.id, "n": number, "data": data,
                                           "now": now})

    change_id = _recorded(match, number, kind, old, data, undoes, write)
    if "hands" in match.__dict__:  # written past the ORM: read again if asked
        db.session.expire(match, ["hands"])
    sheets().put((match.id, version), sheet)
    hand_inputs().put((match.id, version), inputs)
    carry_forward(match.id, version - 1, version)
    if kind in ENTRIES:  # a new entry is what Undo takes back, and ends what Redo could
        _steps().put((match.id, version), (Step(change_id, number, kind, old, data), None))
    return sheet


def _recorded(match: Match, number: int, kind: str, old: Any, new: Any,
              undoes: Change | None, write: Callable[[Any, datetime], None]) -> int:
    """Write a change (``write``, given the connection and the time) and its line in the
    history, in one transaction; the line's id. Conflict when a row another writer made
    meanwhile stands in the way: that writer got there first."""
    connection = db.session.connection()
    now = _now()
    try:
        write(connection, now)
        change_id = connection.execute(_ADD_CHANGE, {
            "match_id": match.id, "number": number, "kind": kind, "old": old, "new": new,
            "undone": False, "created_at": now,
            "token": db.session.info.get(DEVICE)}).scalar()
        if undoes is not None:
            connection.execute(_UNDONE, {"change": undoes.id})
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict from None
    if undoes is not None:
        set_committed_value(undoes, "undone", True)
    return change_id


def undoable(match: Match) -> Change | None:
    """The change Undo takes back: the latest entry, correction or redo not yet undone."""
    return db.session.scalars(
        select(Change)
        .where(Change.match_id == match.id, Change.undone.is_(False),
               Change.kind.in_((*ENTRIES, "redo")))
        .order_by(Change.id.desc()).limit(1)).first()


def redoable(match: Match) -> Change | None:
    """The undo Redo takes back: the latest undo not yet redone, unless a hand was entered
    or corrected after it (a new entry ends what can be redone, as in any editor)."""
    last_entry = (select(func.coalesce(func.max(Change.id), 0))
                  .where(Change.match_id == match.id, Change.kind.in_(ENTRIES))
                  .scalar_subquery())
    return db.session.scalars(
        select(Change)
        .where(Change.match_id == match.id, Change.kind == "undo", Change.undone.is_(False),
               Change.id > last_entry)
        .order_by(Change.id.desc()).limit(1)).first()


@dataclass(frozen=True)
class Step:
    """What Undo or Redo would take back, as the history stored it: the change's id, its
    hand's number, its kind and the hand's inputs before and after it."""

    id: int
    number: int
    kind: str
    old: Any
    new: Any

    @classmethod
    def of(cls, change: Change | None) -> Step | None:
        return None if change is None else cls(change.id, change.number, change.kind,
                                               change.old, change.new)


def _steps() -> Any:
    """The cache of what Undo and Redo would take back, by match and version."""
    return cache("steps", lambda pair: 4096)


def steps(match: Match) -> tuple[Step | None, Step | None]:
    """What Undo and Redo would take back now (None: nothing), read once per version."""
    return _steps().get((match.id, match.version),
                        lambda: (Step.of(undoable(match)), Step.of(redoable(match))))


def undo(match: Match, *, expected: int | None) -> Sheet:
    """Take back the latest change: that hand's inputs as they were before it.

    Changes are taken back newest first, so a hand created by the change is the last hand.
    Undoing the hand that finished a match reopens it. Raises RuleError when there is
    nothing to undo, or when the rules refuse the result.
    """
    return _take_back(match, undoable(match), "undo", expected)


def redo(match: Match, *, expected: int | None) -> Sheet:
    """Put back the change the latest undo took back. Raises RuleError when there is
    nothing to redo."""
    return _take_back(match, redoable(match), "redo", expected)


NOTHING = {"undo": N_("There is nothing to undo."), "redo": N_("There is nothing to redo.")}


def _take_back(match: Match, change: Change | None, kind: str, expected: int | None) -> Sheet:
    """Restore the inputs ``change`` replaced, recorded as a change of ``kind``."""
    if change is None:
        raise RuleError(NOTHING[kind])
    if change.number == ROSTER:
        return save_roster(match, change.old["roster"], expected=expected, kind=kind,
                           undoes=change)
    return save_hand(match, change.number, change.old, expected=expected, kind=kind,
                     undoes=change)


def change_players(match: Match, change: dict[str, Any], *, expected: int | None) -> Sheet:
    """Record one change of who plays (scorekeeper.rules.roster: a join, a sit-out or a
    return, a substitute, a leave) after the hands entered so far, checked by the rules."""
    roster = with_change(match, change)
    try:
        return save_roster(match, roster, expected=expected)
    except RuleError as error:
        raise refused_now(error, roster) from None


def with_change(match: Match, change: dict[str, Any]) -> list[dict[str, Any]]:
    """The match's changes of who plays with ``change`` after the hands entered so far."""
    return [*match.roster, {**change, "after": len(stored_hands(match))}]


def refused_now(error: RuleError, roster: list[dict[str, Any]]) -> RuleError:
    """What to say of a refusal of ``roster``'s last change, the one being made: the rules'
    own reason (they word a change that no longer holds as one to undo first)."""
    if error.params.get("change") == len(roster) and isinstance(error.__cause__, RuleError):
        return error.__cause__
    return error


def save_roster(match: Match, roster: list[dict[str, Any]], *, expected: int | None,
                kind: str = "enter", undoes: Change | None = None) -> Sheet:
    """Set the match's changes of who plays to ``roster``, checked by the rules with its
    hands, as :func:`save_hand` sets a hand: one change in the history (under number
    ``ROSTER``), undone and redone like a hand's. A joiner's seat is a seat of the match
    while the roster holds their join. Raises RuleError (nothing stored) or Conflict."""
    if match.abandoned:
        raise RuleError(N_("This match was abandoned: take it up again to enter or change a "
                           "hand."))
    if match.locked and undoes is None:
        raise RuleError(N_("This match is finished: nobody joins or leaves it any more."))
    old = list(match.roster)
    roster = frozen([dict(change) for change in roster])
    first = starting_players(match)
    joiners = [change["person"] for change in roster if change.get("kind") == "join"]
    seated = {seat.player_id for seat in match.seats[:first]}
    if any(not isinstance(person, int) or person in seated for person in joiners) \
            or len(set(joiners)) < len(joiners):
        raise RuleError(N_("A player who holds a seat, or held one, cannot join again."))
    sheet = compute_sheet(match, list(stored_hands(match)), roster=list(roster))
    version = _bump_version(match, expected, finished=sheet.finished, locked=sheet.finished)

    def write(connection: Any, _now: datetime) -> None:
        connection.execute(_SET_ROSTER, {"match": match.id, "roster": thawed(roster)})
        # The joiners' seats follow the roster: seats from the first joiner's on, made anew.
        connection.execute(_DROP_SEATS, {"match": match.id, "first": first})
        for offset, person in enumerate(joiners):
            connection.execute(_ADD_SEAT, {"match_id": match.id, "seat": first + offset,
                                           "player_id": person})

    change_id = _recorded(match, ROSTER, kind, {"roster": old}, {"roster": thawed(roster)},
                          undoes, write)
    set_committed_value(match, "roster", thawed(roster))
    db.session.expire(match, ["seats"])
    sheets().put((match.id, version), sheet)
    if kind in ENTRIES:
        _steps().put((match.id, version), (Step(change_id, ROSTER, kind, {"roster": old},
                                                {"roster": thawed(roster)}), None))
    return sheet


def review_hand(match: Match, review: HandReview) -> None:
    """Store ``review`` (a hand accepted or rejected) with a new version of the match, in
    one transaction: every page of the match, and the tournament's standings, show it. The
    hands are as they were: the sheet kept for the version before is the new one's."""
    kept = sheets().peek((match.id, match.version))
    inputs = hand_inputs().peek((match.id, match.version))
    version = _bump_version(match, None)
    db.session.add(review)
    db.session.commit()
    if kept is not None:
        sheets().put((match.id, version), kept)
    if inputs is not None:
        hand_inputs().put((match.id, version), inputs)
    carry_forward(match.id, version - 1, version)


def reopen(match: Match, *, expected: int | None) -> None:
    """Make a finished match editable again."""
    _bump_version(match, expected, locked=False)
    db.session.commit()


def seat_players(table: Table, names: list[str]) -> list[Player]:
    """The table's players of these names, new ones added (the caller adds them with the
    match that seats them)."""
    keys = [name_key(n) for n in names]
    existing = {p.key: p for p in db.session.scalars(
        select(Player).where(Player.table_id == table.id, Player.key.in_(keys)))}
    return [existing.get(key) or Player(table_id=table.id, name=name, key=key)
            for name, key in zip(names, keys, strict=True)]


def add_member(table_id: str, device: Device, *, keeper: bool = False) -> None:
    """Make ``device`` a member of the table, once (a keeper of it with ``keeper``); the
    caller commits."""
    membership = db.session.get(Membership, (table_id, device.id))
    if membership is None:
        db.session.add(Membership(table_id=table_id, device_id=device.id, keeper=keeper))
        db.session.flush()
    elif keeper:
        membership.keeper = True
