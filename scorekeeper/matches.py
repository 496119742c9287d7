"""Matches: the home page, a new match, the live sheet and its JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import names as naming
from . import pagecache, tables
from .access import can_edit
from .cache import cache
from .db import db
from .forms import StepForm, match_form
from .hands import entry_context
from .i18n import rule_message
from .models import NAME_LENGTH, Match, Seat
from .pages import (
    after_change,
    elsewhere_notice,
    get_match,
    is_htmx,
    refuse,
    render_sheet,
    saved_notice,
    sheet_context,
)
from .records import wants_page
from .rules import GAMES, RuleError
from .scoring import Conflict, bump_table, compute_sheet, redo, reopen, sheet_json, undo

bp = Blueprint("matches", __name__)
ROW_ACTIONS = ("up", "remove")


@bp.get("/")
def home():
    """This phone's tables, each with its matches ten a page, in progress first; New match.

    A match's address is its secret: only the tables this phone belongs to are listed
    (every table on an install open to everyone).
    """
    page = tables.page_number()
    rows, count = tables.home_tables(page)
    return render_template("matches/home.html", tables=rows, count=count, games=GAMES,
                           page=page)


def _edit_rows(form: Any) -> bool:
    """Apply an add, move-up or remove button to the player rows; True when one was pressed."""
    action = request.form.get("action", "")
    names = form.names()
    if action == "add" and len(names) < form.game.max_players:
        names.append(request.form.get("add_name", "").strip())
    elif action.startswith("pick:") and len(names) < form.game.max_players:
        picked = action[5:]
        if names and not names[-1]:
            names[-1] = picked
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


@bp.route("/matches/new", methods=["GET", "POST"])
def new():
    """Pick the game, the players in turn order, the first dealer and the options."""
    key = request.values.get("game", "navawhist")
    game = GAMES.get(key)
    if game is None:
        abort(400, _("Unknown game."))
    form = match_form(game)
    if request.method == "GET":
        for _i in range(1 if game.solitaire else max(game.min_players, min(4, game.max_players))):
            form.players.append_entry("")
    elif not _edit_rows(form) and form.validate():
        try:
            options = game.clean_options(len(form.names()), form.option_values())
        except RuleError as error:
            form.form_errors.append(rule_message(error))
        else:
            match = _create(game.key, form, options)
            return redirect(url_for("matches.show", match_id=match.id), 303)
    table = tables.chosen_table(request.values.get("table"))
    status = 422 if form.errors or form.form_errors else 200
    return render_template("matches/new.html", form=form, game=game, games=GAMES,
                           known=tables.known_players(table), table=table,
                           name_length=NAME_LENGTH), status


def _create(game: str, form: Any, options: dict[str, Any]) -> Match:
    """Store a new match with its players in the chosen table, remembering new names.

    Two phones of a table may add the same new name at the same moment: the one whose
    insert loses the race reads the winner's player and tries again.
    """
    names = form.names()
    for attempt in range(3):
        try:
            table = tables.table_for_new_match(request.values.get("table"), names)
            match = Match(game=game, options=options, first_dealer=form.first_dealer.data or 0,
                          place=naming.clean(form.place.data or "") or None,
                          lang=str(get_locale()), table_id=table.id)
            for seat, player in enumerate(tables.seat_players(table, names)):
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
    loading the match.
    """
    version = db.session.scalar(select(Match.version).where(Match.id == match_id))
    if version is None:
        abort(404, _("There is no such match."))
    saved = request.args.get("saved", type=int)

    def page():
        match = get_match(match_id)
        return render_sheet(match, notice=saved_notice(match, saved), undoable=True,
                            **entry_context(match.game, request.args))

    if is_htmx():
        return page()
    key = (match_id, version, str(get_locale()), can_edit(match_id), request.full_path)
    return cache("pages").get(key, lambda: pagecache.shared(page)).response()


@bp.get("/matches/<match_id>/live")
def live(match_id: str):
    """The live part of the sheet, for phones that follow it; 304 while nothing changed.

    A phone that may edit asks with ``since`` (the version its page shows): 204 while the
    sheet is the same, else the live sheet saying which hand another phone saved.
    """
    version = db.session.scalar(select(Match.version).where(Match.id == match_id))
    if version is None:
        abort(404, _("There is no such match."))
    since = request.args.get("since", type=int)
    if since is not None:
        if since >= version:
            return "", 204, {"Cache-Control": "no-cache"}
        match = get_match(match_id)
        return render_sheet(match, notice=elsewhere_notice(match))
    etag = f"{match_id}-{version}-{get_locale()}-{int(can_edit(match_id))}"
    # A compressed response carried the same tag with "-gz" (see assets.finish).
    if request.if_none_match.contains_weak(etag) or \
            request.if_none_match.contains_weak(f"{etag}-gz"):
        return "", 304, {"ETag": f'W/"{etag}"', "Cache-Control": "private, no-cache"}
    response = make_response(render_template(
        "matches/_live.html", **sheet_context(get_match(match_id))))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/matches/<match_id>.json")
def show_json(match_id: str):
    """The computed sheet as JSON; a browser gets it indented in a page linking the raw JSON."""
    match = get_match(match_id)
    data = sheet_json(match, compute_sheet(match))
    if wants_page():
        text = json.dumps(data, ensure_ascii=False, indent=2)
        response = make_response(render_template("matches/json.html", match=match, text=text,
                                                 game=GAMES[match.game]))
    else:
        response = jsonify(data)
    response.vary.add("Accept")
    return response


def _step(match_id: str, action: Callable[..., Any]):
    """Undo, redo or reopen: applied only to the sheet the form was made for."""
    match = get_match(match_id)
    form = StepForm()
    try:
        if not form.validate() or form.version.data != match.version:
            raise Conflict
        action(match, expected=form.version.data)
    except (RuleError, Conflict) as error:
        return refuse(match, error)
    return after_change(match)


@bp.post("/matches/<match_id>/undo")
def undo_last(match_id: str):
    """Take back the latest change to the match."""
    return _step(match_id, undo)


@bp.post("/matches/<match_id>/redo")
def redo_last(match_id: str):
    """Put back the change the latest undo took back."""
    return _step(match_id, redo)


@bp.post("/matches/<match_id>/reopen")
def reopen_match(match_id: str):
    """Make a finished match editable again."""
    return _step(match_id, reopen)
