"""Tables: a group's players, matches and phones; joining by invitation, leaving, rematch.

A table is created quietly with the first match a phone starts. Its page lists its phones
(each may set its own name), its players and its matches; a member may invite another
phone with a single-use link that expires, or with a table card that several phones may use
(made in scorekeeper.views.cards), and may remove a phone from the table.
"""

from __future__ import annotations

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
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import func, select, update

from ..db import db
from ..engine.cache import cache
from ..engine.history import local_time
from ..engine.ledger import bump_table
from ..engine.sheets import compute_sheet
from ..engine.stats import Line, table_stats
from ..models import (
    NAME_LENGTH,
    TABLE_NAME_LENGTH,
    Device,
    Invitation,
    Match,
    Membership,
    Seat,
    Table,
    Tournament,
    _now,
    clean_name,
    new_secret,
    readable_name,
    token_hash,
)
from ..rules import GAMES, Game, RuleError
from ..web import cards
from ..web.access import (
    current_device,
    get_table,
    in_tournament,
    is_member,
    join,
    membership,
    my_tables,
    needs_edit_right,
    open_edit,
)
from ..web.api import shown_secret, table_tokens
from ..web.calendars import calendar_form, feed_url, webcal
from ..web.forms import PhoneForm, StepForm
from ..web.games import registry, spec_of
from ..web.links import qr_svg, share_url, table_screen_url
from ..web.pages import get_match, viewer_zone
from ..web.tables import (
    current_match,
    known_players,
    page_number,
    phone_label,
    table_matches,
)

bp = Blueprint("tables", __name__)
INVITATION_MINUTES = 10
INVITATION_KEY = "invitation"  # the latest invitation this phone made: id, token, match


@bp.get("/tables")
def index():
    """Every table of this phone."""
    tables = db.session.scalars(my_tables()).all()
    return render_template("tables/index.html", tables=tables)


@bp.get("/tables/<table_id>")
def show(table_id: str):
    """The table: its phones, its players and its matches, ten a page."""
    return _page(get_table(table_id))


def _page(table: Table, phone_form: PhoneForm | None = None, status: int = 200):
    """The table's page; ``phone_form``: this phone's name as typed, refused (422)."""
    page = page_number()
    rows, more = table_matches(table.id, page)
    phones = db.session.execute(
        select(Membership, Device).join(Device, Device.id == Membership.device_id)
        .where(Membership.table_id == table.id).order_by(Membership.joined_at)).all()
    me = current_device()
    mine = membership(table.id)
    feed = feed_url(table)
    zone = viewer_zone()
    seen = {device.id: local_time(member.last_seen, zone) for member, device in phones}
    shown = shown_secret(table.id)
    page_html = render_template(
        "tables/show.html", table=table, rows=rows, more=more, page=page,
        read_tokens=table_tokens(table.id), shown_token=shown,
        screen=table_screen_url(table), feed=feed, webcal=webcal(feed),
        calendar_form=calendar_form(table),
        cards=cards.in_force(table.id, _now(), zone), seen=seen,
        card_form=cards.FORM,
        phones=phones, me=me.id if me else None, phone_label=phone_label,
        phone_form=phone_form or PhoneForm(name=mine.owner if mine else None),
        keeper=bool(mine and mine.keeper),
        removed=request.args.get("removed", "")[:NAME_LENGTH],
        joined=request.args.get("joined") == "1",
        players=known_players(table), name_length=NAME_LENGTH, games=GAMES,
        tournaments=db.session.scalars(
            select(Tournament).where(Tournament.table_id == table.id)
            .order_by(Tournament.created_at.desc())).all(),
        table_name_length=TABLE_NAME_LENGTH)
    # a page showing a read token's secret is kept nowhere
    return page_html, status, {"Cache-Control": "no-store"} if shown else {}


def _text_field(field: str, limit: int) -> str:
    """A short printable text from the form, as names are stored (normal form C), or 422
    with a message naming the field."""
    value = clean_name(request.form.get(field, ""))
    if len(value) > limit or not readable_name(value):
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
    """Say whose phone this is at the table ("Bruno's phone"); empty, it goes by its number.
    A name too long is refused beside its field (422), nothing stored."""
    table = get_table(table_id)
    mine = membership(table.id)
    if mine is None:  # an open install: a phone that never joined has no name here
        abort(403, _("This phone is not a member of this table: ask one of its phones for "
                     "an invitation."))
    form = PhoneForm()
    if not form.validate():
        return _page(table, phone_form=form, status=422)
    mine.owner, mine.name = form.name.data or None, None
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id, _anchor="phones"), 303)


def _keepers(table: Table) -> int:
    return db.session.scalar(select(func.count()).where(
        Membership.table_id == table.id, Membership.keeper.is_(True))) or 0


def _as_keeper(table: Table) -> Membership:
    """This phone's membership when it keeps the table; 403 saying so otherwise."""
    mine = membership(table.id)
    if mine is None or not mine.keeper:
        abort(403, _("Only a keeper of this table may do this: ask one of them."))
    return mine


def _phone_name(table: Table, device_id: int) -> str:
    """The name a phone goes by at the table, as its page lists it ("Phone 2" unnamed)."""
    ids = db.session.execute(select(Membership.device_id, Membership.owner, Membership.name)
                             .where(Membership.table_id == table.id)
                             .order_by(Membership.joined_at)).all()
    return next((phone_label(owner, name, index) for index, (device, owner, name)
                 in enumerate(ids, start=1) if device == device_id), "")


@bp.route("/tables/<table_id>/phones/<int(max=2147483647):device_id>/remove",
          methods=["GET", "POST"])
def remove_phone(table_id: str, device_id: int):
    """Ask first (GET), then take a phone off the table: from its next request on it may
    change nothing. A phone may leave by itself; only a keeper removes another, and the last
    keeper stays. The table's secret changes, so that no backup made before proves
    membership any more, and so does the address of its screen; the invitations the phone
    made grant nothing."""
    table = get_table(table_id)
    mine = membership(table.id)
    if mine is None or mine.device_id != device_id:
        _as_keeper(table)
    phone = db.session.get(Membership, (table.id, device_id))
    if phone is None:  # removed already (a second tap)
        return redirect(url_for("tables.show", table_id=table.id), 303)
    if phone.keeper and _keepers(table) == 1:
        abort(403, _("This phone is the table's last keeper: name another keeper first."))
    leaving = mine is not None and mine.device_id == device_id
    name = _phone_name(table, device_id)
    if request.method == "GET":
        return render_template("tables/remove.html", table=table, device_id=device_id,
                               phone=name, leaving=leaving)
    db.session.delete(phone)
    table.secret = new_secret()
    table.screen_token = new_secret()  # the table's screen no longer opens for it either
    table.calendar_token = new_secret()  # nor the table's calendar
    db.session.commit()
    if leaving:
        return redirect(url_for("matches.home"), 303)
    return redirect(url_for("tables.show", table_id=table.id, removed=name), 303)


@bp.post("/tables/<table_id>/phones/<int(max=2147483647):device_id>/keeper")
def name_keeper(table_id: str, device_id: int):
    """A keeper names another phone keeper, or (``keeper=0``) stops keeping the table
    itself or another, as long as one keeper is left."""
    table = get_table(table_id)
    _as_keeper(table)
    phone = db.session.get(Membership, (table.id, device_id))
    if phone is None:  # it left meanwhile
        return redirect(url_for("tables.show", table_id=table.id), 303)
    keeper = request.form.get("keeper", "1") == "1"
    if not keeper and phone.keeper and _keepers(table) == 1:
        abort(403, _("This phone is the table's last keeper: name another keeper first."))
    phone.keeper = keeper
    db.session.commit()
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/tables/<table_id>/invitations")
def invite(table_id: str):
    """Make a single-use invitation, valid for a few minutes, then show it (POST, redirect)."""
    table = get_table(table_id)
    token = secrets.token_urlsafe(16)
    minutes = current_app.config.get("INVITATION_MINUTES", INVITATION_MINUTES)
    mine = membership(table.id)
    invitation = Invitation(table_id=table.id, token_hash=token_hash(token),
                            device_id=mine.device_id if mine else None,
                            expires_at=_now() + timedelta(minutes=minutes))
    db.session.add(invitation)
    db.session.commit()
    # Invited from a match's share page: the new phone lands on that sheet.
    match_id = request.form.get("match")
    # Only the token's hash is stored: this phone's session keeps the link to show it again.
    session[INVITATION_KEY] = [invitation.id, token,
                               match_id if _match_of(table, match_id) else None]
    return redirect(url_for("tables.invitation", table_id=table.id, number=invitation.id), 303)


@bp.get("/tables/<table_id>/invitations/<int(max=2147483647):number>")
def invitation(table_id: str, number: int):
    """The invitation this phone just made: its QR code and link (a reload makes no other);
    404 on another phone, or once this one has made a newer invitation."""
    table = get_table(table_id)
    kept = session.get(INVITATION_KEY)
    stored = db.session.get(Invitation, number)
    if not kept or kept[0] != number or stored is None or stored.table_id != table.id:
        abort(404, _("This invitation is not shown here any more: make a new one."))
    _number, token, match_id = kept
    link = share_url("tables.join_table", token=token, m=match_id)
    left = (stored.expires_at - _now()).total_seconds()
    page = render_template(
        "tables/invite.html", table=table, link=link, match_id=match_id,
        minutes=max(1, -int(-left // 60)), usable=stored.used_at is None and left > 0,
        qr=qr_svg(link, _("Join %(table)s", table=table.name)))
    return page, {"Cache-Control": "no-store"}  # it holds the link that joins the table


def _match_of(table: Table, match_id: str | None) -> bool:
    """True when ``match_id`` names a match of the table."""
    return bool(match_id) and len(match_id) <= 24 and db.session.scalar(
        select(Match.table_id).where(Match.id == match_id)) == table.id


def _invitation(token: str) -> Invitation:
    """The invitation of this link if it may still be used; 403 saying why otherwise."""
    invitation = db.session.scalar(select(Invitation).where(
        Invitation.token_hash == token_hash(token)))
    if invitation is None:
        abort(403, _("This invitation is not valid."))
    if invitation.max_uses is not None:  # a table card
        refused = cards.refusal(invitation, _now(), viewer_zone())
        if refused:
            abort(403, refused)
    elif invitation.used_at is not None:
        abort(403, _("This invitation has already been used: ask for a new one."))
    elif invitation.expires_at <= _now():
        abort(403, _("This invitation has expired: ask for a new one."))
    if invitation.device_id is not None and db.session.get(
            Membership, (invitation.table_id, invitation.device_id)) is None:
        abort(403, _("The phone that made this invitation is no longer at the table: ask "
                     "another one for a new invitation."))
    return invitation


@bp.route("/join/<token>", methods=["GET", "POST"])
def join_table(token: str):
    """Ask before joining (a link preview must not use the invitation), then join."""
    invitation = _invitation(token)
    table = db.session.get_one(Table, invitation.table_id)
    form = PhoneForm()
    if request.method == "GET" or not form.validate():  # a name too long: nothing stored
        match_id = request.args.get("m")
        names = db.session.get_one(Match, match_id).names if _match_of(table, match_id) \
            else known_players(table)
        return render_template("tables/join.html", table=table, token=token, form=form,
                               names=names, name_length=NAME_LENGTH), \
            200 if request.method == "GET" else 422
    if not is_member(table.id) or open_edit():
        if invitation.max_uses is None:
            use = update(Invitation).where(Invitation.id == invitation.id,
                                           Invitation.used_at.is_(None)).values(used_at=_now())
        else:  # a table card: one more phone, if another did not take the last place
            use = update(Invitation).where(
                Invitation.id == invitation.id, Invitation.uses < Invitation.max_uses,
                Invitation.withdrawn_at.is_(None), Invitation.expires_at > _now(),
            ).values(uses=Invitation.uses + 1)
        used = db.session.execute(use.execution_options(synchronize_session=False))
        if used.rowcount != 1:
            db.session.rollback()
            _invitation(token)  # says why
            abort(403, _("This invitation has already been used: ask for a new one."))
        join(table.id)
        mine = membership(table.id)
        if mine is not None and form.name.data:
            mine.owner, mine.name = form.name.data, None
        db.session.commit()
    # The page it lands on says what this phone may now do.
    match_id = request.args.get("m")
    if not match_id and invitation.max_uses is not None:  # a table card: the match in play
        current = current_match(table.id)
        playing = current and db.session.get_one(Match, current[0])
        match_id = playing.id if playing and not (playing.finished or playing.abandoned) \
            else None
    if _match_of(table, match_id):
        return redirect(url_for("matches.show", match_id=match_id, joined=1), 303)
    return redirect(url_for("tables.show", table_id=table.id, joined=1), 303)


@bp.post("/matches/<match_id>/rematch")
def rematch(match_id: str):
    """A new match with the same options and whoever is at the table as the match ended, in
    turn order (a substitute in the seat they took, not those who left); the next player
    deals first. When the options cannot stay as they were for that many players (a
    partnership a leave broke), the new-match page instead, at the same table."""
    old = db.get_or_404(Match, match_id, description=_("There is no such match."))
    staying, dealer = compute_sheet(old).roster.staying(old.first_dealer)
    owners = {s.seat: s.player_id for s in old.seats}
    try:
        options = GAMES[old.game].clean_options(len(staying), old.options)
    except RuleError:  # too few left for the game
        options = None
    if options is None or any(options.get(key) != value for key, value in old.options.items()):
        return redirect(url_for("matches.new", game=old.game, table=old.table_id), 303)
    match = Match(table_id=old.table_id, game=old.game, options=dict(old.options),
                  first_dealer=dealer, place=old.place, lang=old.lang)
    match.seats = [Seat(seat=new, player_id=owners[seat] if person is None else person)
                   for new, (seat, person) in enumerate(staying)]
    db.session.add(match)
    bump_table(old.table_id)
    db.session.commit()
    return redirect(url_for("matches.show", match_id=match.id, **spec_of(old.game).carried(old)),
                    303)


@bp.route("/matches/<match_id>/delete", methods=["GET", "POST"])
@needs_edit_right
def delete_match(match_id: str):
    """Ask first, then delete the match with its hands and history for good; the table's
    statistics follow. A form made for an older version of the match deletes nothing."""
    match = get_match(match_id)
    if in_tournament(match.id) and not is_member(match.table_id):
        abort(403, _("Only the organiser’s phones may delete a match of the tournament."))
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


@bp.get("/tables/<table_id>/stats")
def stats(table_id: str):
    """The table's statistics page."""
    table = get_table(table_id)
    token = session.get("csrf_token")  # the page carries this phone's CSRF token
    if token is None:
        return _stats_page(table)
    key = (table.id, table.version, str(get_locale()), token)
    return cache("stats-pages").get(key, lambda: _stats_page(table))


def _stats_page(table: Table) -> str:
    """The statistics page of the table."""
    stats = table_stats(table)
    players = sorted(stats.names, key=lambda p: stats.names[p].casefold())
    # The games with something to show, the most finished matches first (ties in the app's
    # order of games); a log that never finishes (Cavallo Re) shows once a deal is counted.
    shown = sorted((key for key, g in stats.games.items() if g.finished or (
        GAMES[key].solitaire and g.counted(list(g.players)))),
        key=lambda key: -stats.games[key].finished)
    return render_template("tables/stats.html", table=table, stats=stats, games=GAMES,
                           shown=shown, waiting=[key for key in stats.games if key not in shown],
                           players=players, rivals=stats.rivals(players), chance=_chance,
                           best=_best, adds_stats={key: spec.has_stats
                                                   for key, spec in registry().items()})


def _chance(value: Any) -> float:
    """A probability as a percentage."""
    return round(100 * float(value), 1)


def _best(line: Line, game: Game) -> int | None:
    """The best final score: the highest, or the lowest where the lowest wins."""
    return line.best(game.lower_wins)
