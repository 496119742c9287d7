"""Storage only: tables and their phones, the players, the matches and the raw inputs of
each hand; no scoring here."""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import unicodedata
from datetime import UTC, datetime, time
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db

NAME_LENGTH = 30  # a player's name, a phone's name at its table
PLACE_LENGTH = 60  # where a match is played
TABLE_NAME_LENGTH = 60
ZONE_LENGTH = 64  # an IANA time zone name (the longest is 32 characters)
DEFAULT_ZONE = "Europe/Rome"  # a table's zone until its members choose another
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")  # what a match's or a table's address can be
REQUEST_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a request's Idempotency-Key (a UUID)

# Control characters, surrogates, and the invisible or direction-changing ones (U+202E,
# U+200B, BOM, soft hyphen: category Cf; U+2028 and U+2029: Zl and Zp) that make two
# names look alike or turn the text around them. Names people type (players, places) are
# checked and compared one way everywhere: the functions below.
REFUSED = ("Cc", "Cs", "Cf", "Zl", "Zp")
# Characters that show nothing although they are not controls: Unicode's default-ignorable
# code points (the combining grapheme joiner U+034F, the Hangul fillers U+115F, U+1160,
# U+3164 and U+FFA0, the variation selectors, Khmer's inherent vowels, the tags...), and the
# braille blank U+2800, which looks like a space. "Anna" and "Anna\u034f" would be two
# players no one could tell apart.
INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
# A phone's emoji keyboard follows a symbol with a variation selector (U+2764 U+FE0F, a red
# heart): there it changes how the symbol is drawn, not whether something is there.
EMOJI_STYLE = ("\ufe0e", "\ufe0f")


def clean_name(text: str) -> str:
    """``text`` stripped and in Unicode normal form C (a composed é, never e + accent).

    >>> clean_name(" Rene\\u0301 ") == "René"
    True
    """
    return unicodedata.normalize("NFC", text.strip())


_INVISIBLE = frozenset(code for low, high in INVISIBLE for code in range(low, high + 1))


def _invisible(char: str) -> bool:
    return ord(char) in _INVISIBLE


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that a name may not hold (a control, invisible or
    direction-changing one), or None; a variation selector right after a symbol is kept.

    >>> refused_character("Anna\\u034f"), refused_character("Anna \\u2764\\ufe0f")
    ('\\u034f', None)
    """
    if text.isascii() and text.isprintable():  # most names: nothing to look for
        return None
    return next((char for index, char in enumerate(text) if _refused(text, index)), None)


def _refused(text: str, index: int) -> bool:
    char = text[index]
    return unicodedata.category(char) in REFUSED or _invisible(char) and not (
        char in EMOJI_STYLE and index and unicodedata.category(text[index - 1]) == "So")


def without_refused(text: str) -> str:
    """``text`` without the characters :func:`refused_character` finds, cleaned
    (:func:`clean_name`): what a phone's name keeps of what was typed.

    >>> without_refused(" Bru\\u202eno\\n\\u200b "), without_refused("Anna \\u2764\\ufe0f")
    ('Bruno', 'Anna ❤️')
    """
    if text.isascii() and text.isprintable():
        return clean_name(text)
    return clean_name("".join(char for index, char in enumerate(text)
                              if not _refused(text, index)))


def readable_name(text: str) -> bool:
    """True when ``text`` holds no control, invisible or direction-changing character.

    >>> readable_name("Anna Maria"), readable_name("Anna\\u202e"), readable_name("An\\u00adna")
    (True, False, False)
    >>> readable_name("Anna\\u3164"), readable_name("\\u2800"), readable_name("Anna\\ufe0f")
    (False, False, False)
    """
    return refused_character(text) is None


def fits(text: str, limit: int) -> bool:
    """True when ``text``, once cleaned (:func:`clean_name`), is readable and at most
    ``limit`` characters long: what a name or a place column holds. Normal form C may make
    a text longer (U+FB2C is three characters), so the length is the cleaned one's.

    >>> fits("\\ufb2c" * 20, 60), fits("\\ufb2c" * 21, 60)
    (True, False)
    """
    cleaned = clean_name(text)
    return len(cleaned) <= limit and readable_name(cleaned)


def name_key(name: str) -> str:
    """What makes two names the same player: equal once cleaned, without invisible
    characters, and case-folded.

    >>> name_key("ANNA") == name_key("anna") == name_key("An\\u200bna ")
    True
    """
    visible = "".join(c for c in name if unicodedata.category(c) not in REFUSED)
    return clean_name(visible).casefold()


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character that Unicode's confusables data (UTS #39, as the confusable-homoglyphs
    package ships it) says looks like another, mapped to the one both stand for."""
    from confusable_homoglyphs.utils import load

    data = {key.replace("\u200e", ""): [entry["c"].replace("\u200e", "") for entry in entries]
            for key, entries in load("confusables.json").items()}
    mapped = {}
    for char, alike in data.items():
        if len(char) != 1 or len(alike) != 1:
            continue  # a prototype, listed with everything that looks like it
        target = alike[0]
        if data.get(target) == [char] and len(target) == 1:
            target = min(char, target)  # two that only look like each other: either stands
        if target != char:
            mapped[char] = target
    return mapped


def skeleton(name: str) -> str:
    """What ``name`` looks like: every character replaced by the one it cannot be told
    from (a Cyrillic a by a Latin one, 0 by O), compatibility forms folded (a full-width n
    to n), invisible characters left out. Two names with one skeleton look alike.

    >>> skeleton("\\u0410nna") == skeleton("Anna"), skeleton("Anna") == skeleton("Anne")
    (True, False)
    """
    prototypes = _prototypes()
    text = unicodedata.normalize("NFKD", name.strip())
    text = "".join(prototypes.get(c, c) for c in text if refused_character(c) is None)
    return unicodedata.normalize("NFKD", text)


def look_alike(one: str, other: str) -> bool:
    """True when two different players' names look the same: the same skeleton, with or
    without case (a name equal but for case is the same player, see :func:`name_key`).

    >>> look_alike("Anna", "\\u0410nna"), look_alike("Anna", "ANNA"), look_alike("Anna", "Bruno")
    (True, False, False)
    """
    if name_key(one) == name_key(other):
        return False
    return skeleton(one) == skeleton(other) or \
        skeleton(skeleton(one).casefold()) == skeleton(skeleton(other).casefold())


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_match_id() -> str:
    """An unguessable address for a match (96 random bits)."""
    return secrets.token_urlsafe(12)


def new_table_id() -> str:
    """An unguessable address for a table (96 random bits)."""
    return secrets.token_urlsafe(12)


def new_secret() -> str:
    """A secret of 128 random bits: a device's cookie id, a table's backup proof."""
    return secrets.token_urlsafe(16)


class Table(db.Model):
    """A group that plays together: its players, its matches and the phones that belong to it.

    ``version`` increases with every change to any of its matches (statistics are cached by
    it); ``secret`` is what a backup of the table carries to prove membership;
    ``screen_token`` is the read-only secret in the address of the table's screen;
    ``calendar_token`` the one in the address of its calendar feed. ``zone`` is the IANA
    time zone its evenings are told in, and its card night, when the members set one, falls
    on ``night_weekday`` (0 is Monday) at ``night_start``, lasting ``night_minutes`` when
    given.
    """

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_table_id)
    name: Mapped[str] = mapped_column(String(TABLE_NAME_LENGTH))
    secret: Mapped[str] = mapped_column(String(32), default=new_secret)
    screen_token: Mapped[str] = mapped_column(String(32), default=new_secret)
    calendar_token: Mapped[str] = mapped_column(String(32), default=new_secret)
    zone: Mapped[str] = mapped_column(String(ZONE_LENGTH), default=DEFAULT_ZONE,
                                      server_default=DEFAULT_ZONE)
    night_weekday: Mapped[int | None]
    night_start: Mapped[time | None]
    night_minutes: Mapped[int | None]
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now)


class Device(db.Model):
    """A phone (a browser), known by the random id its cookie carries."""

    __tablename__ = "devices"
    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(String(32), unique=True, default=new_secret)
    created_at: Mapped[datetime] = mapped_column(default=_now)


class Membership(db.Model):
    """A phone that belongs to a table and may edit its matches."""

    __tablename__ = "memberships"
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    device_id: Mapped[int] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True, index=True)
    # Whose phone it is, as it said when it joined or later ("Anna": the table's page shows
    # "Anna's phone"); None: it goes by ``name``, else by its number there ("Phone 2").
    owner: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    # The name a phone gave itself before phones said whose they were ("Kitchen phone"),
    # shown as it was typed until it says whose it is.
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    joined_at: Mapped[datetime] = mapped_column(default=_now)
    last_seen: Mapped[datetime] = mapped_column(default=_now)
    # A keeper may remove phones and name other keepers; the phone that made the table is
    # the first, and a table always keeps one.
    keeper: Mapped[bool] = mapped_column(default=False, server_default=false())


def token_hash(token: str) -> str:
    """What is stored of an invitation's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Invitation(db.Model):
    """A single-use, expiring link that makes a phone a member of a table; or a table
    card, printed to stand on the table, that admits up to ``max_uses`` phones until it
    expires or a member withdraws it.

    Only a hash of its token is stored: the database holds nothing that opens a table.
    """

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The phone that made it: once that phone is off the table, the invitation grants nothing.
    device_id: Mapped[int | None] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"))
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    # A table card: how many phones it admits (None: a single-use invitation), how many
    # joined with it, and when a member withdrew it.
    max_uses: Mapped[int | None]
    uses: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    withdrawn_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=_now)


class ApiToken(db.Model):
    """A read token of a table's API, named by the member who made it: it reads that table
    (its matches, statistics and tournaments) and nothing else, and never writes. Only a
    hash of its secret is stored (:func:`token_hash`); once withdrawn it reads nothing."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    withdrawn_at: Mapped[datetime | None]
    last_used_at: Mapped[datetime | None]


class Player(db.Model):
    """A player of a table, offered again when its next match is set up."""

    __tablename__ = "players"
    # One player per table and name, whatever the case (see name_key).
    __table_args__ = (UniqueConstraint("table_id", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    key: Mapped[str] = mapped_column(String(4 * NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=_now)


class Match(db.Model):
    """A match: its game, the options chosen at creation and the seats in turn order."""

    __tablename__ = "matches"
    # The home page lists matches in progress first, the latest first; a match's poll asks
    # for the newest match its table started after it (scorekeeper.web.pages.STATE).
    __table_args__ = (Index("ix_matches_home", "finished", text("updated_at DESC")),
                      Index("ix_matches_table", "table_id", "finished", text("updated_at DESC")),
                      Index("ix_matches_table_created", "table_id", "created_at"))
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_match_id)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    first_dealer: Mapped[int] = mapped_column(default=0)
    place: Mapped[str | None] = mapped_column(String(PLACE_LENGTH))
    lang: Mapped[str] = mapped_column(String(5), default="en")
    # Increases with every change; a form carries the version it saw.
    version: Mapped[int] = mapped_column(default=0)
    # A finished match is read-only until someone reopens it.
    locked: Mapped[bool] = mapped_column(default=False)
    finished: Mapped[bool] = mapped_column(default=False)
    # Given up by its players: kept, listed as abandoned, until deleted or resumed.
    abandoned: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The address the match had where it came from, when an upload gave it a new one (an
    # upload takes no address: see scorekeeper.engine.backups); a second upload of the
    # same backup finds it by this.
    origin: Mapped[str | None] = mapped_column(String(24), index=True)
    # Who came and went between hands, in the order recorded (scorekeeper.rules.roster):
    # joins, sit-outs and returns, substitutes, leavers. A joiner's seat is a Seat row too.
    roster: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list,
                                                         server_default="[]")
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now)

    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.seat", cascade="all, delete-orphan", lazy="selectin")
    # Loaded when needed: a sheet cached for the match's version does not need them.
    hands: Mapped[list[Hand]] = relationship(
        order_by="Hand.number", cascade="all, delete-orphan", lazy="select")
    # Written with the match (a backup), read through queries of their own (the history).
    changes: Mapped[list[Change]] = relationship(
        order_by="Change.id", cascade="all, delete-orphan", lazy="select", passive_deletes=True)

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s.player.name for s in self.seats]


class Seat(db.Model):
    """A player's seat in a match, 0-based, in turn order."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "player_id"),)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    player: Mapped[Player] = relationship(lazy="joined")


class Hand(db.Model):
    """The raw inputs of one hand (deal, game) as the players declared them."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int]
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now)


class Change(db.Model):
    """One change to a hand: its inputs before and after (None: no such hand)."""

    __tablename__ = "changes"
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))
    old: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    new: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    undone: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    # The phone that made it (None: not known, or made before phones were noted).
    device_id: Mapped[int | None] = mapped_column(ForeignKey("devices.id", ondelete="SET NULL"))


class RequestKey(db.Model):
    """The Idempotency-Key of a request that changed a match, stored with the change in its
    transaction: the same request sent again (its answer was lost, the phone was offline)
    changes nothing. Kept a day.

    A key belongs to the phone that sent it (``device_id``; None: a phone without a device,
    which only an open install lets change a match) and to the match its address names: the
    same key from another phone, or for another match, is another request. ``request_hash``
    is the hash of what the request asked (:func:`scorekeeper.web.entry.request_hash`): the
    same key with another hash is refused, never taken for the request sent again. Two
    phones without a device share a scope, and their keys are not held unique by the
    database (its NULLs differ); the match's version still stores one of two such taps."""

    __tablename__ = "request_keys"
    __table_args__ = (UniqueConstraint("key", "match_id", "device_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    device_id: Mapped[int | None] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), index=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=_now, index=True)


class Tournament(db.Model):
    """A tournament evening: one game on several tables over several rounds, run from its
    organiser's table (whose phones may edit every match of it). What the organiser chose
    is kept as :class:`scorekeeper.rules.tournaments.Tournament` takes it; ``version``
    increases with every change of the tournament itself (an entrant, a round)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_match_id)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(TABLE_NAME_LENGTH))
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    format: Mapped[str] = mapped_column(String(10))
    rounds: Mapped[int]
    size: Mapped[int]
    pairs: Mapped[bool] = mapped_column(default=False)
    go_on: Mapped[int] = mapped_column(default=2)
    seed: Mapped[int]
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    round_minutes: Mapped[int | None]
    warning_minutes: Mapped[int] = mapped_column(default=5, server_default="5")
    # Results the other side accepts: a hand saved at a table is provisional until another
    # player there accepts it (scorekeeper.web.reviews).
    accept: Mapped[bool] = mapped_column(default=False, server_default=false())

    entrants: Mapped[list[Entrant]] = relationship(
        order_by="Entrant.number", cascade="all, delete-orphan", lazy="selectin")
    tables: Mapped[list[TournamentTable]] = relationship(
        order_by="(TournamentTable.round, TournamentTable.number)",
        cascade="all, delete-orphan", lazy="selectin")
    round_rows: Mapped[list[TournamentRound]] = relationship(
        order_by="TournamentRound.number", cascade="all, delete-orphan", lazy="selectin")


class Entrant(db.Model):
    """A player, or a fixed pair (two names), in the order entered (``number``, from 0);
    ``withdrawn`` is the round after which they withdrew (None: still in); ``joined``, for a
    late entrant of a Danish evening, the number of rounds seated when they were added
    (None: entered before round 1)."""

    __tablename__ = "entrants"
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    names: Mapped[list[str]] = mapped_column(JSON)
    withdrawn: Mapped[int | None]
    joined: Mapped[int | None]

    @property
    def name(self) -> str:
        return " + ".join(self.names)


class TournamentRound(db.Model):
    """A round seated: who sat it out, whether it is a knockout's final, whether it is
    closed (its matches can no longer be changed), which of its tables the closing set
    aside unfinished (their matches are played on if the organiser reopens the round),
    when it was published (None: drawn, seen by the organiser's phones only) and started
    (its clock's start, set when it is published; None for a round seated before clocks),
    and the swaps the organiser made before publishing it (pairs of entrant numbers)."""

    __tablename__ = "tournament_rounds"
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    sitting_out: Mapped[list[int]] = mapped_column(JSON, default=list)
    final: Mapped[bool] = mapped_column(default=False)
    closed: Mapped[bool] = mapped_column(default=False)
    closed_early: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    started_at: Mapped[datetime | None]
    published_at: Mapped[datetime | None]
    swaps: Mapped[list[list[int]]] = mapped_column(JSON, default=list, server_default="[]")


class TournamentTable(db.Model):
    """One table of a round: its entrants in seat order, the first dealer's seat, its
    ordinary match (None once deleted) and the secret of the code that lets a phone keep
    that match alone; ``checked_in_at``: when a phone first scanned that code."""

    __tablename__ = "tournament_tables"
    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    entrants: Mapped[list[int]] = mapped_column(JSON)
    dealer: Mapped[int]
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), unique=True)
    token: Mapped[str] = mapped_column(String(32), default=new_secret, unique=True)
    checked_in_at: Mapped[datetime | None]


class MatchKeeper(db.Model):
    """A phone that may edit one match only: a tournament table's phone."""

    __tablename__ = "match_keepers"
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    device_id: Mapped[int] = mapped_column(
        ForeignKey("devices.id", ondelete="CASCADE"), primary_key=True, index=True)
    joined_at: Mapped[datetime] = mapped_column(default=_now)


NOTE_LENGTH = 200  # what a player who rejects a hand may say


class HandReview(db.Model):
    """A player's verdict on hand ``number`` of a tournament's match, "accepted" or
    "rejected", as the change ``change_id`` last saved it (a correction or an undo makes a
    new change: the hand is provisional again); who gave it (``name``), what they said of a
    rejection and the phone it was given on."""

    __tablename__ = "hand_reviews"
    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    change_id: Mapped[int]
    verdict: Mapped[str] = mapped_column(String(10))
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))  # None: not said
    note: Mapped[str | None] = mapped_column(String(NOTE_LENGTH))
    device_id: Mapped[int | None] = mapped_column(ForeignKey("devices.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=_now)
