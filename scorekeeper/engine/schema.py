"""The export format "scorekeeper/2": a backup file and a match's JSON, declared once.

Each shape is a msgspec struct, its limits beside its fields; :func:`document` publishes
them as JSON Schema (docs/export-schema.json, served at /schema/scorekeeper-2.json), and an
import reads each table, phone and match through them (:func:`read`). What a schema cannot
say (a date from 2000 to 2100, a name as it is stored, how deep a hand nests, which seat
deals first) is checked in engine.backups.
"""

from __future__ import annotations

import functools
import json
import re
from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from flask_babel import gettext as _
from msgspec import Meta, Struct

from ..models import MATCH_ID, NAME_LENGTH, PLACE_LENGTH, TABLE_NAME_LENGTH
from ..rules.roster import Kind, Presence, SeatState

FORMAT = "scorekeeper/2"
OLD_FORMAT = "scorekeeper-backup"  # backups written before (versions 1 and 2): still read
MAX_HANDS = 5_000  # of one match
MAX_CHANGES = 20_000  # history entries of one match
MAX_PHONES = 200  # of one table
MAX_INT = 2**31 - 1


def _text(limit: int, what: str) -> Any:
    # A text is checked as stored once cleaned (engine.backups); 4 code points a character
    # at most before that.
    return Annotated[str, Meta(max_length=4 * limit, description=what)]


def described(text: str) -> Any:
    """A struct's description in the JSON Schema: not its docstring, which a worker (run
    with ``python -OO``) does not have."""

    def describe(cls: type) -> type:
        cls.__doc__ = text
        return cls

    return describe


Id = Annotated[str, Meta(pattern=f"^{MATCH_ID.pattern}$", description="a match's or a "
                         "table's address")]
Token = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
Name = _text(NAME_LENGTH, "a person's name")
Count = Annotated[int, Meta(ge=0, le=MAX_INT)]
When = Annotated[datetime, Meta(description=(
    "A moment in UTC, written without an offset (2026-03-01T20:15:00.123456); one given with "
    "an offset is converted. From 2000 to 2100."))]
# The rules' codes (rules/roster.py), by value.
Kinds = Literal[tuple(k.value for k in Kind)]  # type: ignore[valid-type]
Presences = Literal[tuple(p.value for p in Presence)]  # type: ignore[valid-type]
States = Literal[tuple(s.value for s in SeatState)]  # type: ignore[valid-type]
Inputs = Annotated[dict[str, Any], Meta(description=(
    "A hand as entered, read by its game's rules (docs/rules.md): Navawhist's bids, tricks "
    "and trump; Quarantotto's and Scala 40's closer and points (Scala 40's never_opened, "
    "closed_in_hand, reentries, annulled); Forty-Five's trick_winners and bonus_seat, "
    "side_tricks and bonus_side, or the cards: trump, leader and plays; Cavallo Re's placed "
    "and seat. Nested at most 5 deep."), examples=[
        {"bids": [1, 0, 1], "tricks": [1, 0, 0], "trump": "♥"},
        {"closer": 1, "points": ["A K", None, 30], "never_opened": [], "closed_in_hand": True},
        {"trick_winners": [0, 1, 2, 0, 3], "bonus_seat": 1}, {"placed": 36, "seat": 0}])]


@described("A phone that is a member of a table (only in an instance's backup).")
class Phone(Struct):
    device: Token
    joined_at: When
    last_seen: When
    name: _text(NAME_LENGTH, "the name the phone gave itself at its table") | None = None
    keeper: bool = False
    owner: _text(NAME_LENGTH, "whose phone it is (\"Bruno\": Bruno's phone)") | None = None


@described("A table: its secret proves that a match comes from it.")
class TableEntry(Struct):
    id: str
    name: _text(TABLE_NAME_LENGTH, "the table's name")
    secret: Token
    created_at: When | None = None
    phones: Annotated[list[Phone], Meta(max_length=MAX_PHONES)] = []


@described("A hand (a deal, a game) as stored.")
class HandEntry(Struct):
    number: Annotated[int, Meta(ge=1, le=MAX_HANDS)]
    data: Inputs
    created_at: When
    updated_at: When


@described("A change of who plays (docs/rules.md#people-who-come-and-go), its person "
           "by name.")
class RosterChange(Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: Kinds
    after: Count | None = None
    seat: Count | None = None
    at: Count | None = None
    person: Name | None = None


@described("A change of the match's history: a hand (number 0: who plays) before and "
           "after.")
class HistoryEntry(Struct):
    number: Annotated[int, Meta(ge=0, le=MAX_HANDS)]
    kind: Literal["enter", "correct", "undo", "redo"]
    created_at: When
    old: Inputs | None = None
    new: Inputs | None = None
    undone: bool = False


@described("A match of a backup: what was entered; every score is computed from it "
           "again.")
class MatchEntry(Struct):
    id: Id
    game: str
    options: dict[str, Any]
    first_dealer: Count
    players: Annotated[list[Name], Meta(min_length=1, max_length=20)]
    created_at: When
    updated_at: When
    hands: Annotated[list[HandEntry], Meta(max_length=MAX_HANDS)]
    table: str | None = None
    place: _text(PLACE_LENGTH, "where it was played") | None = None
    lang: Annotated[str, Meta(max_length=10)] = "en"
    finished: bool = False
    locked: bool | None = None
    abandoned: bool = False
    version: Count | None = None
    roster: Annotated[list[RosterChange], Meta(max_length=MAX_CHANGES)] = []
    history: Annotated[list[HistoryEntry], Meta(max_length=MAX_CHANGES)] = []


@described("A backup file: tables with their matches.")
class Backup(Struct):
    format: Literal[FORMAT]
    tables: list[TableEntry]
    matches: list[MatchEntry]


# -- A match's JSON (/matches/<id>.json, and the API's sheet) -------------------------------

class Holder(Struct):
    name: str
    from_hand: int
    hands: int


@described("A seat: who holds it and held it, its state, entry total and credit.")
class PlayerLine(Struct):
    seat: int
    name: str
    turn: int
    state: States
    entry: int | None
    left_after: int | None
    held_by: list[Holder]
    credited: str


class Mark(Struct):
    kind: Kinds
    seat: int
    name: str
    from_hand: int
    last_hand: int | None
    person: str | None
    total: int | None


@described("A hand of the sheet: as entered (inputs), its points and running totals "
           "by column, each seat's note and presence.")
class Row(Struct):
    number: int
    dealer: int | None
    inputs: Inputs
    points: list[int | None]
    totals: list[int | None]
    notes: list[str]
    annulled: bool
    events: list[str]
    presence: list[Presences]


class Place(Struct):
    place: int
    column: int
    seats: list[int]
    names: list[str]
    total: int | None


class NextHand(Struct):
    number: int
    dealer: int | None
    seats: list[int]
    info: dict[str, Any]


@described("A match computed by its rules: its players, each hand as entered with its "
           "points, the totals and places; details and next.info are each game's own.")
class MatchSheet(Struct):
    format: Literal[FORMAT]
    id: str
    game: str
    options: dict[str, Any]
    first_dealer: int
    players: list[PlayerLine]
    changes: list[Mark]
    columns: list[list[int]]
    hands: list[Row]
    totals: list[int | None]
    ranking: list[Place]
    winners: list[int]
    status: Literal["finished", "in progress"]
    details: dict[str, Any]
    next: NextHand | None
    version: int


def document() -> dict[str, Any]:
    """The JSON Schema of the format: a backup file or a match's JSON."""
    roots, parts = msgspec.json.schema_components([Backup, MatchSheet],
                                                  ref_template="#/$defs/{name}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"Scorekeeper's export format {FORMAT}",
            "description": "A backup file (/backup.json) or a match's JSON "
                           "(/matches/<id>.json). README.md#backups-and-exports",
            "anyOf": list(roots), "$defs": parts}


@functools.cache
def text() -> str:
    """The JSON Schema as published: docs/export-schema.json holds this text."""
    return json.dumps(document(), ensure_ascii=False, indent=2) + "\n"


DATES = {"created_at", "updated_at", "joined_at", "last_seen"}
WORDS = {"players[": "name", "hands[": "hand", "person": "name", "first_dealer": "first dealer"}


def read(value: Any, shape: type[Any], what: str) -> Any:
    """``value`` (decoded JSON) as ``shape``; else ValueError saying which field is wrong,
    in the words of the import ("bad date", "bad name"), ``what`` when it is the whole."""
    try:
        return msgspec.convert(value, shape)
    except msgspec.ValidationError as error:
        message, _at, where = str(error).partition(" - at `")
        fields = re.findall(r"\.(\w+\[?)", where) + re.findall(r"field `(\w+)`", message)
        if fields and fields[-1] in DATES:
            what = "date"
        elif fields:
            what = WORDS.get(fields[0], fields[0].strip("[").replace("_", " "))
        raise ValueError(_("bad %(what)s", what=what)) from None
