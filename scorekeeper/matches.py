"""Matches: the home page, a new match, the live sheet and its JSON."""

from __future__ import annotations

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
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from werkzeug.datastructures import MultiDict

from . import names as naming
from .access import can_edit, editable_ids, grant, needs_edit_right
from .cache import cache
from .db import db
from .forms import StepForm, match_form
from .i18n import rule_message
from .models import NAME_LENGTH, Match, Player, Seat
from .pages import after_change, get_match, is_htmx, refuse, render_sheet, sheet_context
from .rules import GAMES, RuleError, fortyfive
from .scoring import Conflict, compute_sheet, redo, reopen, sheet_json, undo

bp = Blueprint("matches", __name__)
PAGE = 10  # matches a page of the home list shows
ROW_ACTIONS = ("up", "remove")


@bp.get("/")
def home():
    """This browser's matches, in progress first, then finished ones; the New match button.

    A match's address is its secret: only the matches this browser may edit are listed
    (every match on an install open to everyone), ten a page.
    """
    page = request.args.get("page", "1")
    page = int(page) if page.isdecimal() and 0 < int(page) < 10_000 else 1
    query = select(Match).options(selectinload(Match.hands)).order_by(
        Match.finished, Match.updated_at.desc())
    ids = editable_ids()
    if ids is not None:
        query = query.where(Match.id.in_(ids))
    matches = db.session.scalars(query.offset((page - 1) * PAGE).limit(PAGE + 1)).all()
    rows = [(m, compute_sheet(m)) for m in matches[:PAGE]]
    return render_template("matches/home.html", rows=rows, games=GAMES, page=page,
                           more=len(matches) > PAGE)


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
    names = [naming.clean(v) for k, v in sorted(
        ((k, v) for k, v in request.form.items() if k.startswith("players-")
         and k[8:].isdecimal() and len(k) < 12), key=lambda kv: int(kv[0][8:]))]
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
    key = action[5:] if action.startswith("game:") else request.values.get("game", "navawhist")
    game = GAMES.get(key)
    if game is None:
        abort(400, _("Unknown game."))
    if action.startswith("game:"):
        form = _switched(game)
    elif request.method == "GET":
        form = match_form(game)
        for _i in range(_rows_at_start(game)):
            form.players.append_entry("")
    elif not _edit_rows(form := match_form(game)) and form.validate():
        try:
            options = game.clean_options(len(form.names()), form.option_values())
        except RuleError as error:
            form.form_errors.append(rule_message(error))
        else:
            match = _create(game.key, form, options)
            return redirect(url_for("matches.show", match_id=match.id), 303)
    known = db.session.scalars(select(Player.name).order_by(Player.name)).all()
    status = 422 if form.errors or form.form_errors else 200
    return render_template("matches/new.html", form=form, game=game, games=GAMES,
                           known=known, name_length=NAME_LENGTH,
                           partners=_partners(game, len(form.players.entries))), status


def _partners(game: Any, players: int) -> dict[bool, list[list[int]]]:
    """Forty-Five's sides for this many players, without and with the three-pairs option
    (shown before the match starts); empty when nobody plays with a partner."""
    if game.key != "fortyfive" or not game.min_players <= players <= game.max_players:
        return {}
    arrangements = {flag: fortyfive.sides(players, three_pairs=flag)
                    for flag in ((False, True) if players == 6 else (False,))}
    return {flag: s for flag, s in arrangements.items() if any(len(side) > 1 for side in s)}


def _create(game: str, form: Any, options: dict[str, Any]) -> Match:
    """Store a new match with its players, remembering new names.

    Two phones may add the same new name at the same moment: the one whose insert loses
    the race reads the winner's player and tries again.
    """
    for attempt in range(3):
        existing = {naming.key(p.name): p for p in db.session.scalars(select(Player))}
        match = Match(game=game, options=options, first_dealer=form.first_dealer.data or 0,
                      place=naming.clean(form.place.data or "") or None,
                      lang=str(get_locale()))
        for seat, name in enumerate(form.names()):
            player = existing.get(naming.key(name)) or Player(name=name)
            match.seats.append(Seat(seat=seat, player=player))
        db.session.add(match)
        try:
            db.session.commit()
            break
        except IntegrityError:
            db.session.rollback()
            if attempt == 2:
                raise
    grant(match.id)
    return match


@bp.get("/matches/<match_id>")
def show(match_id: str):
    """The score sheet, with the current hand's entry.

    A browser that already holds a CSRF token gets the page it was last shown while the
    match has not changed: one query for the version instead of loading the match.
    """
    token = session.get("csrf_token")
    version = db.session.scalar(select(Match.version).where(Match.id == match_id))
    if version is None:
        abort(404, _("There is no such match."))
    if token is None or is_htmx():
        return render_sheet(get_match(match_id))
    key = (match_id, version, str(get_locale()), can_edit(match_id), request.full_path, token)
    return cache("pages").get(key, lambda: render_sheet(get_match(match_id)))


@bp.get("/matches/<match_id>/live")
def live(match_id: str):
    """The live part of the sheet, for phones that follow it; 304 while nothing changed."""
    version = db.session.scalar(select(Match.version).where(Match.id == match_id))
    if version is None:
        abort(404, _("There is no such match."))
    etag = f"{match_id}-{version}-{get_locale()}-{int(can_edit(match_id))}"
    # A compressed response carried the same tag with "-gz" (see assets.finish).
    if request.if_none_match.contains_weak(etag) or \
            request.if_none_match.contains_weak(f"{etag}-gz"):
        return "", 304, {"ETag": f'W/"{etag}"', "Cache-Control": "no-cache"}
    response = make_response(render_template(
        "matches/_live.html", **sheet_context(get_match(match_id))))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/matches/<match_id>.json")
def show_json(match_id: str):
    """The computed sheet as JSON."""
    match = get_match(match_id)
    return jsonify(sheet_json(match, compute_sheet(match)))


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


@bp.route("/matches/<match_id>/delete", methods=["GET", "POST"])
@needs_edit_right
def delete(match_id: str):
    """Ask first, then delete a match with its hands and history for good."""
    match = get_match(match_id)
    form = StepForm()
    error = None
    if request.method == "POST":
        if form.validate() and form.version.data == match.version:
            db.session.delete(match)
            db.session.commit()
            return redirect(url_for("matches.home"), 303)
        error = _("The match changed meanwhile: here it is as it stands now.")
    return render_template("matches/delete.html", match=match, game=GAMES[match.game],
                           names=match.names, sheet=compute_sheet(match),
                           error=error), 409 if error else 200
