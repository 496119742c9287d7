"""Which phone this is, which tables it belongs to, and what it may change.

The session cookie carries one random device id, whatever the number of tables and
matches; membership lives in the database, so removing a phone from a table takes effect
on its very next request. A cookie from before tables (a list of match ids under ``edit``)
is turned into membership of those matches' tables on its first visit.

Anyone with a match's address may watch it; every change (any POST naming a match) from a
phone that is not a member of its table, nor the keeper of that match alone (a tournament
table's phone), is refused with a 403 (:func:`guard`), and so is every change to a match of a
tournament round that was closed. Setting
``OPEN_EDIT`` makes a household install editable by anyone who can reach it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from flask import Flask, Response, abort, current_app, g, request, session
from flask_babel import gettext as _
from sqlalchemy import bindparam, exists, or_, select, update
from sqlalchemy.orm import joinedload

from ..db import db
from ..engine.ledger import add_member
from ..models import (
    Device,
    Match,
    MatchKeeper,
    Membership,
    Seat,
    Table,
    TournamentRound,
    TournamentTable,
    _now,
)
from .pages import VERSION, get_match, is_htmx, over_live, render_sheet

DEVICE_KEY = "device"
LEGACY_KEY = "edit"  # what older cookies carried: the ids of the matches they could edit
LEGACY_LIMIT = 1000
SEEN_EVERY = timedelta(minutes=5)  # last-seen times are this precise; it spares writes


def open_edit() -> bool:
    """True on a household install where anyone may edit everything."""
    return bool(current_app.config["OPEN_EDIT"])


def device_token() -> str | None:
    """The device id this request's cookie carries, after converting an older cookie."""
    if LEGACY_KEY in session:
        _convert_legacy_cookie()
    token = session.get(DEVICE_KEY)
    return token if isinstance(token, str) else None


def current_device(*, create: bool = False) -> Device | None:
    """This phone's Device; with ``create``, a new one (and its cookie) when it has none."""
    if "device" in g and (g.device is not None or not create):
        return g.device
    token = device_token()
    device = None if token is None else db.session.scalar(
        select(Device).where(Device.token == token))
    if device is None and create:
        device = Device()
        db.session.add(device)
        db.session.flush()
        session[DEVICE_KEY] = device.token
        session["seen"] = int(_now().timestamp())
        session.permanent = True
    g.device = device
    return device


def _convert_legacy_cookie() -> None:
    """Make this phone a member of the tables of the matches its old cookie could edit."""
    ids = session.pop(LEGACY_KEY, None)
    ids = [m for m in ids if isinstance(m, str)][:LEGACY_LIMIT] if isinstance(ids, list) else []
    tables = set(db.session.scalars(select(Match.table_id).where(Match.id.in_(ids))))
    if tables:
        device = current_device(create=True)
        for table_id in tables:
            join(table_id, device)
        db.session.commit()


def join(table_id: str, device: Device | None = None, *, keeper: bool = False) -> None:
    """Make this phone (or ``device``) a member of the table (a keeper of it with
    ``keeper``); the caller commits."""
    add_member(table_id, device or current_device(create=True), keeper=keeper)


def membership(table_id: str) -> Membership | None:
    """This phone's membership of the table, or None."""
    device = current_device()
    return device and db.session.get(Membership, (table_id, device.id))


def is_member(table_id: str) -> bool:
    """True when this phone belongs to the table (or every table is open)."""
    if open_edit():
        return True
    token = device_token()
    return token is not None and bool(db.session.scalar(select(exists().where(
        Membership.table_id == table_id, Membership.device_id == Device.id,
        Device.token == token))))


# Whether a phone may change a match: built once, for an open install and for a phone's
# device token (the match and the token are bound at each request).
_CLOSED = exists().where(
    TournamentTable.match_id == bindparam("match"),
    TournamentRound.tournament_id == TournamentTable.tournament_id,
    TournamentRound.number == TournamentTable.round, TournamentRound.closed)
_RIGHT = or_(exists().where(
    Match.id == bindparam("match"), Membership.table_id == Match.table_id,
    Membership.device_id == Device.id, Device.token == bindparam("token")), exists().where(
    MatchKeeper.match_id == bindparam("match"), MatchKeeper.device_id == Device.id,
    Device.token == bindparam("token"))) & ~_CLOSED
_OPEN_EDITABLE = select(~_CLOSED)
_EDITABLE = select(_RIGHT)
# The match's version with the same answer, for a page that asks both.
_VERSIONS = {"open": select(Match.__table__.c.version, ~_CLOSED).where(
                 Match.__table__.c.id == bindparam("match")),
             "token": select(Match.__table__.c.version, _RIGHT.self_group()).where(
                 Match.__table__.c.id == bindparam("match"))}


def can_edit(match_id: str) -> bool:
    """True when this phone belongs to the match's table, or keeps that match alone (a
    tournament table's phone), and the match is not in a tournament round that was closed:
    one query a request and match."""
    known = g.setdefault("editable", {})
    if match_id not in known:
        token = device_token()
        if open_edit():
            allowed = db.session.connection().scalar(_OPEN_EDITABLE, {"match": match_id})
        else:
            allowed = token is not None and db.session.connection().scalar(
                _EDITABLE, {"match": match_id, "token": token})
        known[match_id] = bool(allowed)
    return known[match_id]


# A change's match, its seats and players, with this phone's right to make it: one query,
# built once. Each change loads the match afresh into its own session: a worker keeps no
# match from one request to the next.
_CHANGING = {kind: select(Match, right.label("right"))
             .options(joinedload(Match.seats).joinedload(Seat.player))
             .where(Match.id == bindparam("id"))
             for kind, right in (("open", ~_CLOSED), ("token", _RIGHT.self_group()))}


def load_with_right(match_id: str) -> None:
    """Load the match with this id (as :func:`~.pages.get_match` then finds it) and this
    phone's right to change it (as :func:`can_edit` then knows it), in one query. A phone
    without a device asks nothing: it may not."""
    token = device_token()
    if not open_edit() and token is None:
        return
    row = db.session.execute(_CHANGING["open" if open_edit() else "token"],
                             {"id": match_id, "match": match_id, "token": token}).unique().first()
    if row is None:
        return
    # the session holds its objects weakly: g keeps the match until the end of the request
    g.changing, g.setdefault("editable", {})[match_id] = row[0], bool(row[1])


def version_with_right(match_id: str) -> int:
    """The version of the match with this id, asking with it (in the same query) whether this
    phone may change the match, which :func:`can_edit` then knows; raises 404 when there is
    no such match. What a sheet page asks before serving what it keeps for that version: on
    a connection of its own, so that a page served from what is kept opens no session."""
    token = device_token()
    if not open_edit() and token is None:
        statement, params = VERSION, {"id": match_id}
    else:
        statement = _VERSIONS["open" if open_edit() else "token"]
        params = {"match": match_id, "token": token}
    with db.engine.connect() as connection:
        found = connection.execute(statement, params).first()
    if found is None:
        abort(404, _("There is no such match."))
    g.setdefault("editable", {})[match_id] = len(found) > 1 and bool(found[1])
    return found[0]


def closed_round(match_id: str) -> int | None:
    """The number of the closed tournament round the match was played in; None when it is
    in none."""
    return db.session.scalar(select(TournamentTable.round).join(
        TournamentRound, (TournamentRound.tournament_id == TournamentTable.tournament_id)
        & (TournamentRound.number == TournamentTable.round)).where(
        TournamentTable.match_id == match_id, TournamentRound.closed))


def in_tournament(match_id: str) -> bool:
    """True when the match is a table's match of a tournament evening."""
    return bool(db.session.scalar(select(exists().where(TournamentTable.match_id == match_id))))


def my_tables() -> select:
    """A query of this phone's tables (every table on an open install), latest activity first."""
    query = select(Table).order_by(Table.updated_at.desc(), Table.id)
    if open_edit():
        return query
    token = device_token()
    return query.join(Membership, Membership.table_id == Table.id).join(
        Device, Device.id == Membership.device_id).where(Device.token == (token or ""))


def my_table_ids() -> list[str] | None:
    """The ids of this phone's tables; None on an open install (every table)."""
    if open_edit():
        return None
    return list(db.session.scalars(my_tables().with_only_columns(Table.id)))



def seen_due(cookie: Mapping[str, Any], now: float) -> bool:
    """True when the phone whose session cookie holds ``cookie`` is to be noted as seen at
    ``now`` (a timestamp): it has a device, last noted at least ``SEEN_EVERY`` ago, or an
    older cookie still to convert."""
    seen = cookie.get("seen")
    return LEGACY_KEY in cookie or isinstance(cookie.get(DEVICE_KEY), str) and not (
        isinstance(seen, int) and now - seen < SEEN_EVERY.total_seconds())


def touch() -> None:
    """Record that this phone was seen, at most once every few minutes."""
    now = _now()
    if not seen_due(session, now.timestamp()):
        return
    token = device_token()  # converts an older cookie
    if token is None:
        return
    session["seen"] = int(now.timestamp())
    device_id = select(Device.id).where(Device.token == token).scalar_subquery()
    db.session.execute(update(Membership).where(Membership.device_id == device_id)
                       .values(last_seen=now))
    db.session.commit()


def needs_edit_right(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view whose GET shows a correction form: like every POST naming a match, it
    is refused without the right to edit."""
    view.needs_edit_right = True  # type: ignore[attr-defined]
    return view


def guard() -> Response | None:
    """Refuse any change to a match, or its correction pages, without the right to edit.

    A tap sent by htmx comes from a page drawn while this phone could edit (it was removed
    from the table since): it gets the live sheet as a follower sees it, saying so.
    """
    view = current_app.view_functions.get(request.endpoint or "")
    changing = request.method == "POST" or getattr(view, "needs_edit_right", False)
    if changing and request.view_args and "match_id" in request.view_args:
        match_id = request.view_args["match_id"]
        load_with_right(match_id)
        if not can_edit(match_id):
            match = get_match(match_id)
            closed = closed_round(match_id)
            if closed is not None:
                why = _("Round %(round)s is over: its matches take no more changes.",
                        round=closed)
            elif is_htmx():
                why = _("This phone was removed from the table: you can still follow the "
                        "sheet.")
            elif in_tournament(match_id):
                why = _("This match is kept by its own table’s phone and the organiser’s: "
                        "this phone may only watch it.")
            else:
                why = _("This phone may only watch this match: to keep its sheet, ask a "
                        "phone of its table for an invitation (Share, then Invite to this "
                        "table) and scan its code.")
            if is_htmx():  # the live sheet as this phone may see it, saying why (a closed
                # round's sheet says so itself)
                return over_live(render_sheet(match, status=403, jump=True,
                                              notice=None if closed is not None else why))
            abort(403, why)
    return None


def get_table(table_id: str) -> Table:
    """The table with this id; raises 404 when there is none, 403 when this phone is not
    one of its members."""
    table = db.get_or_404(Table, table_id, description=_("There is no such table."))
    if not is_member(table.id):
        abort(403, _("This phone is not a member of this table: ask one of its phones for "
                     "an invitation."))
    return table


def seen() -> None:
    """Note when each phone was last seen (at most once every few minutes); static files
    leave the session alone."""
    if request.endpoint != "static":
        touch()


def init_app(app: Flask) -> None:
    """Note every phone's visits and guard every change to a match."""
    app.before_request(guard)
    app.before_request(seen)
