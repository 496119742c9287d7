"""Tables: a group's players, matches and phones; joining by invitation, leaving, rematch.

A table is created quietly with the first match a phone starts. Its page lists its phones
(each may set its own name), its players and its matches; a member may invite another
phone with a single-use link that expires, and may remove a phone from the table.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import selectinload

from . import names as naming
from .access import needs_edit_right, qr_svg
from .db import db
from .forms import StepForm
from .links import share_url
from .membership import current_device, is_member, join, my_tables, open_edit, touch
from .models import (
    NAME_LENGTH,
    Device,
    Invitation,
    Match,
    Membership,
    Player,
    Seat,
    Table,
    _now,
    name_key,
)
from .pages import get_match
from .rules import GAMES
from .scoring import bump_table, compute_sheet

bp = Blueprint("tables", __name__)
bp.add_app_template_filter(name_key)  # the one comparison of player names, for templates too
PAGE = 10  # matches a page of a table's list shows
HOME_TABLES = 10  # tables the home page shows, latest activity first
TABLE_NAME_LENGTH = 60
INVITATION_MINUTES = 10


def get_table(table_id: str) -> Table:
    """The table with this id; raises 404 when there is none, 403 when this phone is not
    one of its members."""
    table = db.get_or_404(Table, table_id, description=_("There is no such table."))
    if not is_member(table.id):
        abort(403, _("This phone is not a member of this table: ask one of its phones for "
                     "an invitation."))
    return table


@bp.before_app_request
def seen() -> None:
    """Note when each phone was last seen (at most once every few minutes); static files
    leave the session alone."""
    if request.endpoint != "static":
        touch()


def page_number() -> int:
    """The ``page`` query argument, 1 when missing or absurd."""
    page = request.args.get("page", "1")
    return int(page) if page.isdecimal() and 0 < int(page) < 10_000 else 1


def table_matches(table_id: str, page: int) -> tuple[list[tuple[Match, Any]], bool]:
    """A page of the table's matches (in progress first, the latest first) with their
    sheets, and whether there are more: one indexed query, however many matches."""
    matches = db.session.scalars(
        select(Match).options(selectinload(Match.hands)).where(Match.table_id == table_id)
        .order_by(Match.finished, Match.updated_at.desc())
        .offset((page - 1) * PAGE).limit(PAGE + 1)).all()
    return [(m, compute_sheet(m)) for m in matches[:PAGE]], len(matches) > PAGE


def home_tables(page: int) -> tuple[list[tuple[Table, list, bool]], int]:
    """This phone's latest tables, each with a page of its matches; and how many it has."""
    tables = db.session.scalars(my_tables().limit(HOME_TABLES)).all()
    count = len(tables)
    if count == HOME_TABLES:
        count = db.session.scalar(select(func.count()).select_from(my_tables().subquery()))
    return [(t, *table_matches(t.id, page)) for t in tables], count


def known_players(table: Table | None) -> list[str]:
    """The table's players, the most frequent first."""
    if table is None:
        return []
    played = func.count(Seat.match_id)
    return list(db.session.scalars(
        select(Player.name).outerjoin(Seat, Seat.player_id == Player.id)
        .where(Player.table_id == table.id).group_by(Player.id, Player.name)
        .order_by(played.desc(), Player.name)))


def chosen_table(table_id: str | None) -> Table | None:
    """The table a new match goes to: the one chosen, else this phone's latest; None when
    the phone has none yet. Raises 403 for a table this phone does not belong to."""
    if table_id:
        return get_table(table_id)
    return db.session.scalars(my_tables().limit(1)).first()


def table_for_new_match(table_id: str | None, names: list[str]) -> Table:
    """The table of a new match; the first match a phone starts creates one, named after
    its players."""
    table = chosen_table(table_id)
    if table is None:
        table = Table(name=", ".join(names)[:TABLE_NAME_LENGTH] or "Scorekeeper")
        db.session.add(table)
        db.session.flush()
        join(table.id)
    return table


def seat_players(table: Table, names: list[str]) -> list[Player]:
    """The table's players of these names, new ones added."""
    keys = [name_key(n) for n in names]
    existing = {p.key: p for p in db.session.scalars(
        select(Player).where(Player.table_id == table.id, Player.key.in_(keys)))}
    return [existing.get(key) or Player(table_id=table.id, name=name, key=key)
            for name, key in zip(names, keys, strict=True)]


@bp.get("/tables")
def index():
    """Every table of this phone."""
    tables = db.session.scalars(my_tables()).all()
    return render_template("tables/index.html", tables=tables)


@bp.get("/tables/<table_id>")
def show(table_id: str):
    """The table: its phones, its players and its matches, ten a page."""
    table = get_table(table_id)
    page = page_number()
    rows, more = table_matches(table.id, page)
    phones = db.session.execute(
        select(Membership, Device).join(Device, Device.id == Membership.device_id)
        .where(Membership.table_id == table.id).order_by(Membership.joined_at)).all()
    me = current_device()
    return render_template("tables/show.html", table=table, rows=rows, more=more, page=page,
                           phones=phones, me=me.id if me else None,
                           players=known_players(table), name_length=NAME_LENGTH, games=GAMES,
                           table_name_length=TABLE_NAME_LENGTH)


def _text_field(field: str, limit: int) -> str:
    """A short printable text from the form, or 422 with a message naming the field."""
    value = request.form.get(field, "").strip()
    if len(value) > limit or not naming.readable(value):
        abort(422, _("The name must be at most %(n)s printable characters.", n=limit))
    return value


@bp.post("/tables/<table_id>/name")
def rename(table_id: str):
    """Rename the table."""
    table = get_table(table_id)
    name = _text_field("name", TABLE_NAME_LENGTH)
    if not name:
        abort(422, _("Give the table a name."))
    table.name = name
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/tables/<table_id>/phone")
def name_phone(table_id: str):
    """Set the name this phone goes by at the table."""
    table = get_table(table_id)
    name = _text_field("name", NAME_LENGTH)
    device = current_device()
    membership = device and db.session.get(Membership, (table.id, device.id))
    if membership is None:  # an open install: a phone that never joined has no name here
        abort(403, _("This phone is not a member of this table: ask one of its phones for "
                     "an invitation."))
    membership.name = name or None
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/tables/<table_id>/phones/<int(max=2147483647):device_id>/remove")
def remove_phone(table_id: str, device_id: int):
    """Take a phone off the table: from its next request on it may change nothing."""
    table = get_table(table_id)
    db.session.execute(delete(Membership).where(Membership.table_id == table.id,
                                                Membership.device_id == device_id))
    db.session.commit()
    me = current_device()
    if me is not None and me.id == device_id:
        return redirect(url_for("matches.home"), 303)
    return redirect(url_for("tables.show", table_id=table.id), 303)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@bp.post("/tables/<table_id>/invitations")
def invite(table_id: str):
    """A fresh single-use invitation: its QR code and link, valid for a few minutes."""
    table = get_table(table_id)
    token = secrets.token_urlsafe(16)
    minutes = current_app.config.get("INVITATION_MINUTES", INVITATION_MINUTES)
    db.session.add(Invitation(table_id=table.id, token_hash=_token_hash(token),
                              expires_at=_now() + timedelta(minutes=minutes)))
    db.session.commit()
    # Invited from a match's share page: the new phone lands on that sheet.
    match_id = request.form.get("match")
    shown = match_id if _match_of(table, match_id) else None
    link = share_url("tables.join_table", token=token, m=shown)
    return render_template("tables/invite.html", table=table, link=link, minutes=minutes,
                           qr=qr_svg(link, _("Join %(table)s", table=table.name)))


def _match_of(table: Table, match_id: str | None) -> bool:
    """True when ``match_id`` names a match of the table."""
    return bool(match_id) and len(match_id) <= 24 and db.session.scalar(
        select(Match.table_id).where(Match.id == match_id)) == table.id


def _invitation(token: str) -> Invitation:
    """The invitation of this link if it may still be used; 403 saying why otherwise."""
    invitation = db.session.scalar(select(Invitation).where(
        Invitation.token_hash == _token_hash(token)))
    if invitation is None:
        abort(403, _("This invitation is not valid."))
    if invitation.used_at is not None:
        abort(403, _("This invitation has already been used: ask for a new one."))
    if invitation.expires_at <= _now():
        abort(403, _("This invitation has expired: ask for a new one."))
    return invitation


@bp.route("/join/<token>", methods=["GET", "POST"])
def join_table(token: str):
    """Ask before joining (a link preview must not use the invitation), then join."""
    invitation = _invitation(token)
    table = db.session.get_one(Table, invitation.table_id)
    if request.method == "GET":
        return render_template("tables/join.html", table=table, token=token)
    if not is_member(table.id) or open_edit():
        used = db.session.execute(
            update(Invitation).where(Invitation.id == invitation.id,
                                     Invitation.used_at.is_(None))
            .values(used_at=_now()).execution_options(synchronize_session=False))
        if used.rowcount != 1:
            db.session.rollback()
            abort(403, _("This invitation has already been used: ask for a new one."))
        join(table.id)
        db.session.commit()
    match_id = request.args.get("m")
    if _match_of(table, match_id):
        return redirect(url_for("matches.show", match_id=match_id), 303)
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/matches/<match_id>/rematch")
def rematch(match_id: str):
    """A new match with the same players, seats and options; the next player deals first."""
    old = db.get_or_404(Match, match_id, description=_("There is no such match."))
    match = Match(table_id=old.table_id, game=old.game, options=dict(old.options),
                  first_dealer=(old.first_dealer + 1) % len(old.seats), place=old.place,
                  lang=old.lang)
    match.seats = [Seat(seat=s.seat, player_id=s.player_id) for s in old.seats]
    db.session.add(match)
    bump_table(old.table_id)
    db.session.commit()
    return redirect(url_for("matches.show", match_id=match.id), 303)


@bp.route("/matches/<match_id>/delete", methods=["GET", "POST"])
@needs_edit_right
def delete_match(match_id: str):
    """Ask first, then delete the match with its hands and history for good; the table's
    statistics follow. A form made for an older version of the match deletes nothing."""
    match = get_match(match_id)
    form = StepForm()
    error = None
    if request.method == "POST":
        if form.validate() and form.version.data == match.version:
            table_id = match.table_id
            db.session.delete(match)
            bump_table(table_id)
            db.session.commit()
            return redirect(url_for("tables.show", table_id=table_id), 303)
        error = _("The match changed meanwhile: here it is as it stands now.")
    return render_template("matches/delete.html", match=match, game=GAMES[match.game],
                           names=match.names, sheet=compute_sheet(match),
                           error=error), 409 if error else 200
