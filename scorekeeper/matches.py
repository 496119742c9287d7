"""Matches: the home page, a new match, the live sheet and its JSON."""

from __future__ import annotations

import re
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
from markupsafe import Markup
from sqlalchemy import select

from . import tables
from .access import can_edit
from .cache import cache
from .charts import running_chart
from .db import db
from .forms import StepForm, match_form
from .i18n import rule_message
from .models import NAME_LENGTH, Match, Seat
from .rules import GAMES, RuleError
from .scoring import Conflict, bump_table, compute_sheet, reopen, sheet_json, undo

bp = Blueprint("matches", __name__)
ROW_ACTIONS = ("up", "remove")


bp.add_app_template_global(running_chart)
bp.add_app_template_global(can_edit)


@bp.app_template_global()
def sheet_block(match: Match, sheet: Any, names: list[str]) -> Markup:
    """The sheet and its chart, rendered once per version, language and edit right."""
    editor = can_edit(match.id)
    key = (match.id, match.version, str(get_locale()), editor)
    return cache("sheet-html").get(key, lambda: Markup(render_compact(
        "matches/_sheet_block.html", match=match, sheet=sheet, names=names,
        game=GAMES[match.game])))


@bp.app_template_global()
def leaders_of(sheet: Any) -> list[int]:
    """The columns in first place."""
    return [column for column, place in enumerate(sheet.places) if place == 1]


@bp.app_template_global()
def ranking_of(sheet: Any) -> list[tuple[int, int]]:
    """(place, column) pairs, best first."""
    return sorted((place, column) for column, place in enumerate(sheet.places))


@bp.app_template_global()
def error_messages(form: Any) -> list[str]:
    """Every message of a form, its own and its fields', nested lists flattened."""
    def flatten(errors: Any) -> list[str]:
        if isinstance(errors, dict):
            return [m for value in errors.values() for m in flatten(value)]
        if isinstance(errors, list | tuple):
            return [m for value in errors for m in flatten(value)]
        return [str(errors)]

    return flatten(list(form.form_errors)) + flatten(
        {k: v for k, v in form.errors.items() if k is not None})


@bp.app_template_filter()
def extract(index: int, container: Any) -> Any:
    """``container[index]``: turns seats into names with ``map('extract', names)``."""
    return container[index]


INDENT = re.compile(r"\n[ \t]+")


def render_compact(template: str, **context: Any) -> str:
    """``render_template`` without the templates' indentation (no page holds <pre>)."""
    return INDENT.sub("\n", render_template(template, **context))


def is_htmx() -> bool:
    """True when htmx sent the request and wants a fragment back."""
    return request.headers.get("HX-Request") == "true"


def get_match(match_id: str) -> Match:
    """The match with this id; raises 404 when there is none."""
    return db.get_or_404(Match, match_id, description=_("There is no such match."))


def render_sheet(match: Match, *, status: int = 200, error: str | None = None,
                 template: str = "matches/show.html", **context: Any):
    """The match page (or, for htmx, its live part) with an optional error message."""
    if is_htmx() and template == "matches/show.html":
        template = "matches/_live.html"
    return render_compact(template, **sheet_context(match), error=error, **context), status


def sheet_context(match: Match) -> dict[str, Any]:
    """What every template showing a match needs."""
    return {"match": match, "sheet": compute_sheet(match), "game": GAMES[match.game],
            "names": match.names}


def refuse(match: Match, error: RuleError | Conflict, **context: Any):
    """Nothing stored: the sheet again with the message, 409 for a conflict, 422 otherwise."""
    db.session.rollback()
    db.session.refresh(match)
    if isinstance(error, Conflict):
        return render_sheet(match, status=409, **context,
                            error=_("Already recorded: the sheet below is the latest one."))
    return render_sheet(match, status=422, **context, error=rule_message(error, match.names))


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
    """Store a new match with its players in the chosen table, remembering new names."""
    names = form.names()
    table = tables.table_for_new_match(request.values.get("table"), names)
    match = Match(game=game, options=options, first_dealer=form.first_dealer.data or 0,
                  place=(form.place.data or "").strip() or None, lang=str(get_locale()),
                  table_id=table.id)
    for seat, player in enumerate(tables.seat_players(table, names)):
        match.seats.append(Seat(seat=seat, player=player))
    db.session.add(match)
    bump_table(table.id)
    db.session.commit()
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


@bp.post("/matches/<match_id>/undo")
def undo_last(match_id: str):
    """Undo the latest change to the match."""
    match = get_match(match_id)
    form = StepForm()
    if not form.validate():
        return refuse(match, Conflict())
    try:
        undo(match, expected=form.version.data)
    except (RuleError, Conflict) as error:
        return refuse(match, error)
    return after_change(match)


@bp.post("/matches/<match_id>/reopen")
def reopen_match(match_id: str):
    """Make a finished match editable again."""
    match = get_match(match_id)
    form = StepForm()
    try:
        if not form.validate():
            raise Conflict
        reopen(match, expected=form.version.data)
    except Conflict as error:
        return refuse(match, error)
    return after_change(match)


def after_change(match: Match):
    """POST then redirect; htmx gets the fresh live sheet instead."""
    if is_htmx():
        return render_sheet(match)
    return redirect(url_for("matches.show", match_id=match.id), 303)
