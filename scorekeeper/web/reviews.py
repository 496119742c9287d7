"""Results the other side accepts (a tournament's option, docs/operating.md, "Results the
other side accepts"): which hands of a tournament's match wait to be accepted, and the sheet
of its accepted hands alone.

A hand is provisional while no acceptance names the change that last saved it (its entry,
its correction, an undo or a redo of it: each a line of the history). A rejection leaves it
provisional, with the rejecting player's note, until it is corrected and accepted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from ..db import db
from ..engine.sheets import compute_sheet, stored_hands
from ..models import Change, HandReview, Match, Membership
from .seating import tournament_table

ACCEPTED, REJECTED = "accepted", "rejected"


@dataclass(frozen=True)
class Pending:
    """A provisional hand: its number, the change that last saved it and the phone that
    made it (None: not known), and the latest rejection of that save (who, and their note),
    if any."""

    number: int
    change_id: int
    device_id: int | None
    rejected_by: str | None = None
    note: str | None = None
    rejected: bool = False


def _latest_saves(match_ids: Iterable[str]) -> dict[str, dict[int, tuple[int, int | None]]]:
    """Each match's hands' latest changes, by hand number: the change's id and phone."""
    ids = list(match_ids)
    if not ids:
        return {}
    latest = (select(func.max(Change.id).label("id")).where(
        Change.match_id.in_(ids), Change.number >= 1)
        .group_by(Change.match_id, Change.number).subquery())
    saves: dict[str, dict[int, tuple[int, int | None]]] = {}
    for match_id, number, change_id, device_id in db.session.execute(
            select(Change.match_id, Change.number, Change.id, Change.device_id)
            .join(latest, latest.c.id == Change.id)):
        saves.setdefault(match_id, {})[number] = (change_id, device_id)
    return saves


def _reviews(change_ids: list[int]) -> dict[int, list[HandReview]]:
    """The reviews of these changes, oldest first, by change."""
    found: dict[int, list[HandReview]] = {}
    if change_ids:
        for review in db.session.scalars(select(HandReview).where(
                HandReview.change_id.in_(change_ids)).order_by(HandReview.id)):
            found.setdefault(review.change_id, []).append(review)
    return found


def pending_of(matches: Iterable[Match]) -> dict[str, list[Pending]]:
    """The provisional hands of each match (by id), in order: every hand of its sheet whose
    latest save no one accepted. Two queries, however many matches."""
    matches = list(matches)
    saves = _latest_saves(m.id for m in matches)
    reviews = _reviews([c for hands in saves.values() for c, _device in hands.values()])
    found: dict[str, list[Pending]] = {}
    for match in matches:
        hands = saves.get(match.id, {})
        waiting = []
        for row in compute_sheet(match).rows:
            if row.number not in hands:
                continue
            change_id, device_id = hands[row.number]
            said = reviews.get(change_id, [])
            if any(r.verdict == ACCEPTED for r in said):
                continue
            last = said[-1] if said else None
            waiting.append(Pending(row.number, change_id, device_id,
                                   last and last.name, last and last.note, last is not None))
        found[match.id] = waiting
    return found


def pending(match: Match) -> list[Pending]:
    """The provisional hands of ``match``, in order."""
    return pending_of([match])[match.id]


def keeper_name(match: Match, hand: Pending) -> str | None:
    """The player whose phone saved ``hand``, when that phone is named after a player of the
    match at its table ("Anna's phone"); None when not known. Another player accepts it."""
    if hand.device_id is None:
        return None
    name = db.session.scalar(select(Membership.owner).where(
        Membership.table_id == match.table_id, Membership.device_id == hand.device_id))
    return name if name in match.names else None


def accepted_sheet(match: Match, waiting: list[Pending]) -> Any:
    """The match's sheet scored from its hands up to the first provisional one (``waiting``,
    its provisional hands): the hands after it wait for it, whatever was said of them."""
    if not waiting:
        return compute_sheet(match)
    upto = waiting[0].number - 1
    return compute_sheet(match, list(stored_hands(match))[:upto],
                         roster=[c for c in match.roster if c.get("after", 0) <= upto])


def said(number: int, verdict: str, name: str | None, note: str | None) -> str:
    """What a verdict is said as, on the sheet's notice and in its live region."""
    if verdict == ACCEPTED:
        return _("%(name)s accepted hand %(n)s.", name=name, n=number) if name else \
            _("Hand %(n)s accepted.", n=number)
    if note:
        return _("%(name)s rejected hand %(n)s: “%(note)s”.", name=name, n=number, note=note) \
            if name else _("Hand %(n)s rejected: “%(note)s”.", n=number, note=note)
    return _("%(name)s rejected hand %(n)s.", name=name, n=number) if name else \
        _("Hand %(n)s rejected.", n=number)


def verdict_said(match: Match) -> str | None:
    """The latest verdict on a hand of ``match`` in words, when it came after the match's
    latest change (what its live region and another phone's notice say then); else None.
    Asked only of a match whose tournament has the option: where a match stands is read
    once per version."""
    seated = tournament_table(match)
    if seated is None or not seated.accept:
        return None
    verdict = db.session.execute(
        select(HandReview.number, HandReview.verdict, HandReview.name, HandReview.note,
               HandReview.created_at).where(HandReview.match_id == match.id)
        .order_by(HandReview.id.desc()).limit(1)).first()
    if verdict is None:
        return None
    changed = db.session.scalar(select(func.max(Change.created_at)).where(
        Change.match_id == match.id))
    if changed is not None and changed > verdict.created_at:
        return None
    return said(verdict.number, verdict.verdict, verdict.name, verdict.note)
