"""Table cards: invitations printed to stand on the table for an evening.

A card admits up to the number of phones its maker chose (1 to 12) until the time its
maker chose, never more than 24 hours away, or until a member withdraws it from the table
page. Once used up, expired or withdrawn it grants nothing, and the phone that opens it is
told which; like any invitation, it also grants nothing once its maker has left the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy import or_, select

from ..db import db
from ..engine import formats
from ..models import Invitation, Membership

LONGEST = timedelta(hours=24)
MORNING = time(6)


@dataclass(frozen=True)
class CardForm:
    """What the form that makes a card offers."""

    until: dict[str, Any]  # key: label
    default_until: str
    phones: range  # how many phones one card may admit
    default_phones: int


# Until when a card is valid: a duration, or the next midnight or morning where its maker is.
FORM = CardForm(until={"2h": _l("For 2 hours"), "6h": _l("For 6 hours"),
                       "midnight": _l("Until midnight"),
                       "morning": _l("Until tomorrow morning (6:00)")},
                default_until="6h", phones=range(1, 13), default_phones=8)


def expiry(choice: str, now: datetime, zone: tzinfo | None) -> datetime:
    """When a card made at ``now`` (UTC) for ``choice`` of ``FORM.until`` ends, read
    in ``zone``: at most 24 hours later.

    >>> from zoneinfo import ZoneInfo
    >>> expiry("midnight", datetime(2026, 12, 2, 20, 30), ZoneInfo("Europe/Rome"))
    datetime.datetime(2026, 12, 2, 23, 0)
    >>> expiry("morning", datetime(2026, 12, 2, 3, 0), None)
    datetime.datetime(2026, 12, 2, 6, 0)
    """
    if choice in ("2h", "6h"):
        return now + timedelta(hours=int(choice[0]))
    zone = zone or UTC
    local = now.replace(tzinfo=UTC).astimezone(zone)
    day = local.date()
    at = time(0) if choice == "midnight" else MORNING
    if choice == "midnight" or local.time() >= MORNING:
        day += timedelta(days=1)
    end = datetime.combine(day, at, tzinfo=zone).astimezone(UTC).replace(tzinfo=None)
    return min(end, now + LONGEST)


def until_text(moment: datetime, now: datetime, zone: tzinfo | None) -> str:
    """``moment`` (UTC) as its hour in ``zone``, with the weekday when it is not the day of
    ``now``; labelled UTC without a zone."""
    aware, today = (m.replace(tzinfo=UTC).astimezone(zone or UTC) for m in (moment, now))
    text = formats.clock(aware, weekday=aware.date() != today.date())
    return text if zone is not None else f"{text} UTC"


def refusal(card: Invitation, now: datetime, zone: tzinfo | None) -> str | None:
    """Why the table card ``card`` admits no more phones, or None while it does."""
    if card.withdrawn_at is not None:
        return _("This table card was withdrawn: ask the table for a new one.")
    if card.uses >= card.max_uses:
        return ngettext("This table card has been used by %(num)s phone already: ask the "
                        "table for a new one.",
                        "This table card has been used by %(num)s phones already: ask the "
                        "table for a new one.", card.max_uses)
    if card.expires_at <= now:
        return _("This table card expired at %(time)s: ask the table for a new one.",
                 time=until_text(card.expires_at, now, zone))
    return None


def in_force(table_id: str, now: datetime, zone: tzinfo | None) -> list[tuple[Invitation, str]]:
    """The table's cards that still admit phones, the oldest first, each with the time it
    is valid until in ``zone``."""
    maker_here = select(Membership.device_id).where(
        Membership.table_id == table_id, Membership.device_id == Invitation.device_id)
    found = db.session.scalars(select(Invitation).where(
        Invitation.table_id == table_id, Invitation.max_uses.is_not(None),
        Invitation.withdrawn_at.is_(None), Invitation.expires_at > now,
        Invitation.uses < Invitation.max_uses,
        or_(Invitation.device_id.is_(None), maker_here.exists()))
        .order_by(Invitation.created_at, Invitation.id))
    return [(card, until_text(card.expires_at, now, zone)) for card in found]
