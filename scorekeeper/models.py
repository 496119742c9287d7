"""Storage only: tables and their phones, the players, the matches and the raw inputs of
each hand; no scoring here."""

from __future__ import annotations

import re
import secrets
import unicodedata
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db

NAME_LENGTH = 30  # a player's name, a phone's name at its table
PLACE_LENGTH = 60  # where a match is played
TABLE_NAME_LENGTH = 60
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")  # what a match's or a table's address can be

# Control characters, surrogates, and the invisible or direction-changing ones (U+202E,
# U+200B, BOM, soft hyphen: category Cf; U+2028 and U+2029: Zl and Zp) that make two
# names look alike or turn the text around them. Names people type (players, places) are
# checked and compared one way everywhere: these three functions.
REFUSED = ("Cc", "Cs", "Cf", "Zl", "Zp")


def clean_name(text: str) -> str:
    """``text`` stripped and in Unicode normal form C (a composed é, never e + accent).

    >>> clean_name(" Rene\\u0301 ") == "René"
    True
    """
    return unicodedata.normalize("NFC", text.strip())


def readable_name(text: str) -> bool:
    """True when ``text`` holds no control, invisible or direction-changing character.

    >>> readable_name("Anna Maria"), readable_name("Anna\\u202e"), readable_name("An\\u00adna")
    (True, False, False)
    """
    return not any(unicodedata.category(c) in REFUSED for c in text)


def name_key(name: str) -> str:
    """What makes two names the same player: equal once cleaned, without invisible
    characters, and case-folded.

    >>> name_key("ANNA") == name_key("anna") == name_key("An\\u200bna ")
    True
    """
    visible = "".join(c for c in name if unicodedata.category(c) not in REFUSED)
    return clean_name(visible).casefold()


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
    it); ``secret`` is what a backup of the table carries to prove membership.
    """

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_table_id)
    name: Mapped[str] = mapped_column(String(TABLE_NAME_LENGTH))
    secret: Mapped[str] = mapped_column(String(32), default=new_secret)
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
    # The name the phone gave itself at this table ("Anna's phone").
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    joined_at: Mapped[datetime] = mapped_column(default=_now)
    last_seen: Mapped[datetime] = mapped_column(default=_now)


class Invitation(db.Model):
    """A single-use, expiring link that makes a phone a member of a table.

    Only a hash of its token is stored: the database holds nothing that opens a table.
    """

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=_now)


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
    # The home page lists matches in progress first, the latest first.
    __table_args__ = (Index("ix_matches_home", "finished", text("updated_at DESC")),
                      Index("ix_matches_table", "table_id", "finished", text("updated_at DESC")))
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
