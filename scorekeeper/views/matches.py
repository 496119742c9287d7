"""Matches: the home page, a new match, the live sheet, its history and its share page,
and the changes of a whole match (undo, redo, reopen, abandon, resume)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.datastructures import MultiDict

from ..db import db
from ..engine import bgstats
from ..engine.cache import cache
from ..engine.history import entries
from ..engine.ledger import Conflict, bump_table, redo, reopen, seat_players, undo
from ..engine.printing import download_name
from ..engine.sheets import compute_sheet, people
from ..models import NAME_LENGTH, Change, Match, Seat, clean_name
from ..rules import GAMES, RuleError
from ..web import pagecache
from ..web.access import can_edit, is_member, version_with_right
from ..web.forms import StepForm, match_form
from ..web.games import spec_of
from ..web.i18n import rule_message
from ..web.links import link_base, qr_svg, secure_offer, share_url
from ..web.pages import (
    after_change,
    announcement,
    answer_refusal,
    elsewhere_notice,
    get_match,
    is_htmx,
    joined_notice,
    match_state,
    render_sheet,
    said_out_of_band,
    said_with,
    saved_notice,
    sheet_context,
    viewer_zone,
)
from ..web.seating import seated_at
from ..web.tables import (
    Started,
    chosen_table,
    home_tables,
    known_players,
    next_match,
    page_number,
    started,
    table_for_new_match,
)
from ..web.templating import large_type
from ..web.tournaments import kept_matches, match_clock

bp = Blueprint("matches", __name__)
ROW_ACTIONS = ("up", "remove")


@bp.get("/")
def home():
    """This phone's tables, each with its matches ten a page, in progress first; New match.

    A match's address is its secret: only the tables this phone belongs to are listed
    (every table on an install open to everyone).
    """
    page = page_number()
    rows, count = home_tables(page)
    return render_template("matches/home.html", tables=rows, count=count, games=GAMES,
                           page=page, kept=kept_matches())


def _edit_rows(form: Any) -> bool:
    """Apply an add, move-up or remove button to the player rows; True when one was pressed."""
    action = request.form.get("action", "")
    names = form.names()
    if action == "add" and len(names) < form.game.max_players:
        names.append(request.form.get("add_name", "").strip())
    elif action.startswith("pick:") and (
            "" in names or len(names) < form.game.max_players):
        picked = action[5:]
        if "" in names:
            names[names.index("")] = picked
        else:
            names.append(picked)
    elif action.partition(":")[0] in ROW_ACTIONS:
        verb, _sep, index = action.partition(":")
        i = int(index) if index.isdecimal() and len(index) < 4 else -1
        if verb == "up" and 0 < i < len(names):
            names[i - 1], names[i] = names[i], names[i - 1]
        elif verb == "remove" and 0 <= i < len(names):
            names.pop(i)
    else:
        return False
    while len(form.players.entries):
        form.players.pop_entry()
    for name in names:
        form.players.append_entry(name)
    return True


def _switched(game: Any) -> Any:
    """The new-match form of ``game`` after a switch of game: the names, the first dealer
    and the place already typed are kept (as many names as ``game`` seats), the options
    start from ``game``'s defaults."""
    kept = MultiDict([(k, v) for k, v in request.form.items(multi=True)
                      if k in ("csrf_token", "first_dealer", "place")])
    form = match_form(game, formdata=kept)
    for option in game.options:  # an unticked box is what a form without it posts
        form[f"opt_{option.key}"].data = option.default
    names = [clean_name(v) for k, v in sorted(
        ((k, v) for k, v in request.form.items() if k.startswith("players-")
         and k[8:].isdecimal() and len(k) < 12), key=lambda kv: int(kv[0][8:]))]
    while names and not names[-1]:  # the blank rows the other game opened with
        names.pop()
    names = names[: game.max_players]
    while len(names) < _rows_at_start(game):
        names.append("")
    for name in names:
        form.players.append_entry(name)
    if (form.first_dealer.data or 0) >= len(names):
        form.first_dealer.data = 0
    return form


def _rows_at_start(game: Any) -> int:
    """How many empty player rows a new match of ``game`` shows."""
    return 1 if game.solitaire else max(game.min_players, min(4, game.max_players))


@bp.route("/matches/new", methods=["GET", "POST"])
def new():
    """Pick the game, the players in turn order, the first dealer and the options."""
    action = request.form.get("action", "")
    table = chosen_table(request.values.get("table"))
    # A new match at a table proposes its game and whoever is at the table, the next in
    # turn dealing first.
    proposed = next_match(table.id) if request.method == "GET" and request.args.get(
        "table") and table is not None else None
    key = action[5:] if action.startswith("game:") else request.values.get(
        "game", proposed.game if proposed else next(iter(GAMES)))
    game = GAMES.get(key)
    if game is None:
        abort(400, _("Unknown game."))
    known = known_players(table)
    alike: list[tuple[str, str, str]] = []
    if action.startswith("game:"):
        form = _switched(game)
    elif request.method == "GET":
        form = match_form(game)
        if proposed and game.min_players <= len(proposed.names) <= game.max_players:
            for name in proposed.names:
                form.players.append_entry(name)
            form.first_dealer.data = proposed.dealer
        else:
            for _i in range(_rows_at_start(game)):
                form.players.append_entry("")
    elif not _edit_rows(form := match_form(game)) and form.validate():
        alike = form.look_alikes(known)
        try:
            options = game.clean_options(len(form.named()), form.option_values())
        except RuleError as error:
            form.form_errors.append(rule_message(error))
        else:
            # A name that only looks like another player's is asked about once: the page
            # says which, and starting again with the same names confirms them.
            if not alike or request.form.get("alike") == _alike_token(alike):
                match = _create(game.key, form, options)
                return redirect(url_for("matches.show", match_id=match.id), 303)
    status = 422 if form.errors or form.form_errors else 200
    return render_template("matches/new.html", form=form, game=game, games=GAMES,
                           known=known, table=table, name_length=NAME_LENGTH,
                           partners=spec_of(game.key).partners(len(form.players.entries)),
                           alike=alike, alike_token=_alike_token(alike)), status


def _alike_token(alike: list[tuple[str, str, str]]) -> str:
    """What the confirmation of look-alike names carries: the names confirmed."""
    return "\n".join(name for name, _other, _letters in alike)


def _create(game: str, form: Any, options: dict[str, Any]) -> Match:
    """Store a new match with its players in the chosen table, remembering new names.

    Two phones of a table may add the same new name at the same moment: the one whose
    insert loses the race reads the winner's player and tries again.
    """
    names = form.named()
    for attempt in range(3):
        try:
            table = table_for_new_match(request.values.get("table"), names)
            match = Match(game=game, options=options, first_dealer=form.dealer(),
                          place=clean_name(form.place.data or "") or None,
                          lang=str(get_locale()), table_id=table.id)
            for seat, player in enumerate(seat_players(table, names)):
                match.seats.append(Seat(seat=seat, player=player))
            db.session.add(match)
            bump_table(table.id)
            db.session.commit()
            break
        except IntegrityError:
            db.session.rollback()
            if attempt == 2:
                raise
    return match


@bp.get("/matches/<match_id>")
def show(match_id: str):
    """The score sheet, with the current hand's entry.

    While the match has not changed, every browser gets the page rendered and compressed
    for its version (with its own CSRF token put in): one query for the version instead of
    loading the match. A page showing a round's clock reads the time now: never kept.
    """
    version = version_with_right(match_id)
    saved = request.args.get("saved", type=int)

    def page():
        match = get_match(match_id)
        notice = saved_notice(match, saved, request.args.get("step"))
        if notice is None and request.args.get("joined") == "1":
            notice = joined_notice(match, can_edit(match_id))
        if notice is None and request.args.get("kept") == "1" and can_edit(match_id):
            notice = _("This phone now keeps this table’s sheet, and no other.")
        # A page this phone's own change led to says it in the live region (without
        # JavaScript, or after a change made on another page: who plays).
        announce = announcement(match) if saved or request.args.get("step") else None
        return render_sheet(match, notice=notice, undoable=True, announce=announce,
                            **spec_of(match.game).entry_context(request.args, match))

    if is_htmx() or _timed(match_id, version):
        return page()
    key = (match_id, version, str(get_locale()), can_edit(match_id), request.full_path,
           secure_offer(), large_type())
    return cache("pages").get(key, lambda: pagecache.shared(page)).response()


@bp.get("/matches/<match_id>/live")
def live(match_id: str):
    """The live part of the sheet, for phones that follow it.

    A page asks with ``since`` (the version it shows) and ``newer`` (the table's newer match
    it shows, if any): 204 while the sheet is the same and the table started no other match
    (one small query, :func:`match_state`), else the live sheet, which names the table's
    newer match with its link and says it once in the live region; a phone that may edit, or
    a follower's page showing a notice (``notice``), gets it saying which hand another phone
    saved, any other follower the part every follower shares. Asked without ``since``, the
    shared part has an ETag: 304 while nothing changed (not while it shows a round's clock,
    which reads the time now).
    """
    version, newer = match_state(match_id)
    since = request.args.get("since", type=int)
    moved = newer is not None and request.args.get("newer") != newer
    if since is not None and since >= version and not moved:
        return "", 204, {"Cache-Control": "no-cache"}
    editor = can_edit(match_id)
    if since is not None and (editor or request.args.get("notice")):
        match = get_match(match_id)
        table_moved = started(newer)
        notice = elsewhere_notice(match) if since < version else None  # else only the table
        return said_with(render_sheet(match, notice=notice, newer=table_moved), match,
                         table_moved.said() if moved and table_moved else None)
    if _timed(match_id, version):
        match = get_match(match_id)
        return said_with(render_template("matches/_live.html", **sheet_context(match),
                                         newer=started(newer)), match), \
            200, {"Cache-Control": "no-cache"}
    etag = f"{match_id}-{version}-{get_locale()}-{int(editor)}-{newer or ''}"
    # A compressed response carried the same tag with "-gz" (see assets.finish).
    if request.if_none_match.contains_weak(etag) or \
            request.if_none_match.contains_weak(f"{etag}-gz"):
        return "", 304, {"ETag": f'W/"{etag}"', "Cache-Control": "private, no-cache"}
    # Every following phone of the same language gets the part rendered and compressed once.
    # It ends with what the change did, said in each follower's live region, or with the
    # table's newer match for a page that did not show it yet.
    response = cache("pages").get((etag, "live", moved), lambda: pagecache.shared(lambda: (
        _shared_live(get_match(match_id), started(newer), moved), 200))).response()
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _shared_live(match: Match, newer: Started | None, moved: bool) -> str:
    """The live part every follower shares, ending with what its live region says: the
    table's newer match when ``moved`` (the page did not show it), else the latest change."""
    return render_template("matches/_live.html", **sheet_context(match), newer=newer) \
        + said_out_of_band(match, newer.said() if moved and newer else None)


def _timed(match_id: str, version: int) -> bool:
    """Whether the match's page shows its tournament round's clock, or asks for its hands
    to be accepted (what a phone may do with them depends on which phone saved them):
    rendered for each request, never served from a cache."""
    seated = seated_at(match_id, version)
    return match_clock(seated) is not None or seated is not None and seated.accept


def _step(match_id: str, action: Callable[..., Any], step: str | None = None):
    """Undo, redo (``step`` names them for the notice) or another change of the whole
    match: applied only to the sheet the form was made for."""
    match = get_match(match_id)
    form = StepForm()
    try:
        if not form.validate() or form.version.data != match.version:
            raise Conflict
        action(match, expected=form.version.data)
    except (RuleError, Conflict) as error:
        return answer_refusal(match, error)
    return after_change(match, step=step)


@bp.post("/matches/<match_id>/undo")
def undo_last(match_id: str):
    """Take back the latest change to the match."""
    return _step(match_id, undo, "undo")


@bp.post("/matches/<match_id>/redo")
def redo_last(match_id: str):
    """Put back the change the latest undo took back."""
    return _step(match_id, redo, "redo")


@bp.post("/matches/<match_id>/reopen")
def reopen_match(match_id: str):
    """Make a finished match editable again."""
    return _step(match_id, reopen)


def _set_aside(abandoned: bool) -> Callable[..., None]:
    """The change that marks a match abandoned, or back in play, for :func:`_step`."""
    def change(match: Match, *, expected: int) -> None:
        match.abandoned = abandoned
        match.version = expected + 1  # every page and cache of the match shows the new state
        db.session.commit()
    return change


@bp.post("/matches/<match_id>/abandon")
def abandon(match_id: str):
    """Give a match up: it is kept, and listed as abandoned, until it is deleted."""
    return _step(match_id, _set_aside(True))


@bp.post("/matches/<match_id>/resume")
def resume(match_id: str):
    """Take an abandoned match up again."""
    return _step(match_id, _set_aside(False))


@bp.get("/matches/<match_id>/history")
def history(match_id: str):
    """Every change to the match's hands, newest first, as sentences."""
    match = get_match(match_id)
    changes = db.session.scalars(select(Change).where(Change.match_id == match.id)
                                 .order_by(Change.id)).all()
    context = sheet_context(match)
    spec, zone = spec_of(match.game), viewer_zone()
    return render_template("matches/history.html", **context, changes=changes, entries=entries(
        spec.words, match.names, context["sheet"].columns, changes, zone,
        people(match, *changes)), zone=zone)


@bp.get("/matches/<match_id>/share")
def share(match_id: str):
    """The follow link for every phone; members are offered to invite a phone to the table."""
    match = get_match(match_id)
    follow = share_url("matches.show", match_id=match.id)
    return render_template(
        "matches/share.html", match=match, follow=follow, follow_qr=qr_svg(follow, _("Follow")),
        screen=share_url("screens.match", match_id=match.id),
        pdf=share_url("exports.match_pdf", match_id=match.id),
        pdf_name=download_name(match, "pdf"), title=GAMES[match.game].name,
        loopback=link_base().loopback, editor=is_member(match.table_id),
        bgstats=bgstats.links(match, compute_sheet(match)))
