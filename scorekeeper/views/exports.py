"""A match as a file: its PDF (the paper sheet), CSV and JSON; every hand of a table's
matches as a CSV; and blank sheets to print for play without a phone."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    render_template,
    request,
    stream_with_context,
)
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from ..db import db
from ..engine import schema
from ..engine.cache import cache
from ..engine.handrows import hand_lines
from ..engine.printing import (
    PORTRAIT_COLUMNS,
    csv_rows,
    csv_text,
    download_name,
    printed_sheet,
    table_download_name,
)
from ..engine.sheets import compute_sheet, sheet_json
from ..models import NAME_LENGTH, Match
from ..rules import GAMES, Game, RuleError
from ..web import pdf
from ..web.access import get_table
from ..web.games import registry, spec_of
from ..web.pages import download_language, get_match, wants_page
from ..web.people import column_order

bp = Blueprint("exports", __name__)


def render_pdf(html: str) -> bytes:
    """HTML to PDF with the print stylesheet, in the renderer process (see scorekeeper.web.pdf)."""
    static = current_app.static_folder
    return pdf.render(html, static, f"{static}/css/print.css")


def pdf_response(data: bytes, filename: str) -> Response:
    """A PDF download named ``filename``."""
    return Response(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


def options_in_force(game: Game, players: int, options: dict[str, Any]) -> list[tuple[str, Any]]:
    """(label, value) of each option that applies to a table of ``players``; a choice's
    value as its words say it."""
    values = [(o, options.get(o.key, o.default)) for o in game.options
              if o.in_force(players, options)]
    return [(o.label, o.word(value) if o.words else value) for o, value in values]


@bp.get("/matches/<match_id>.pdf")
def match_pdf(match_id: str):
    """The match's score sheet as an A4 PDF, in the language of whoever downloads it."""
    match = get_match(match_id)
    lang = download_language()
    data = cache("pdf").get((match.id, match.version, lang), lambda: _match_pdf(match, lang))
    return pdf_response(data, download_name(match, "pdf"))


def _match_pdf(match: Match, lang: str) -> bytes:
    """The PDF of ``match`` in ``lang``: the paper sheet, without what only a screen does."""
    sheet = compute_sheet(match)
    spec = spec_of(match.game)
    with force_locale(lang):
        html = render_template(
            "pdf/match.html", match=match, sheet=sheet, game=spec.rules, names=match.names,
            landscape=len(match.seats) > PORTRAIT_COLUMNS,
            options=options_in_force(spec.rules, len(match.seats), sheet.options),
            printed=printed_sheet(match, sheet, match.names, spec.printing,
                                  order=column_order(sheet)),
            printed_notice=spec.printed_notice, can_edit=lambda _id: False)
    return render_pdf(html)


@bp.get("/sheets")
def sheets():
    """Choose a game, the number of players, the language and the names for blank sheets."""
    return render_template("sheets/index.html", games=GAMES, name_length=NAME_LENGTH)


def _blank_request() -> tuple[Game, int, str, list[str]]:
    """The blank sheet's game, players, language and names, or a 400 saying what is wrong."""
    game = GAMES.get(request.args.get("game", ""))
    if game is None:
        abort(400, _("Unknown game: choose one of %(games)s.", games=", ".join(GAMES)))
    try:
        players = int(request.args.get("players", ""))
    except ValueError:
        players = 0
    if not game.min_players <= players <= game.max_players:
        abort(400, _("%(game)s is played by %(low)s to %(high)s players.", game=game.name,
                     low=game.min_players, high=game.max_players))
    lang = request.args.get("lang", "en")
    if lang not in current_app.config["LANGUAGES"]:
        abort(400, _("Unknown language: choose it or en."))
    names = [n.strip()[:NAME_LENGTH] for n in request.args.getlist("name")][:players]
    names += [""] * (players - len(names))
    return game, players, lang, names


@bp.get("/sheets/blank.pdf")
def blank_pdf():
    """A blank sheet to fill in by hand, for any game and number of players."""
    game, players, lang, names = _blank_request()
    spec = spec_of(game.key)
    try:
        sheet = game.build_sheet(players, [], **game.clean_options(players, {}))
    except RuleError:  # pragma: no cover - every game scores an empty match
        abort(400)
    with force_locale(lang):
        html = render_template(
            spec.template("blank.html"), game=game, sheet=sheet, players=players,
            names=[n or _("Player %(n)s", n=i + 1) for i, n in enumerate(names)],
            landscape=players > spec.blank_portrait_columns, extras=spec.blank_extras(players))
    return pdf_response(render_pdf(html), f"{game.key}-blank-{players}.pdf")


@bp.get("/matches/<match_id>.csv")
def match_csv(match_id: str):
    """One match for a spreadsheet: a row per hand with each column's points and totals."""
    match = get_match(match_id)
    rows = csv_rows(match, compute_sheet(match), match.names, spec_of(match.game).printing)
    return Response(csv_text(rows), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{download_name(match, "csv")}"'})


def hands_csv(matches: Sequence[Match], filename: str) -> Response:
    """Every hand of ``matches`` as a CSV download in the viewer's language (see
    scorekeeper.engine.handrows), written while it is sent."""
    lang = download_language()
    games = {match.game for match in matches}
    printings = {key: spec.printing for key, spec in registry().items() if key in games}

    def lines():
        with force_locale(lang):
            yield from hand_lines(matches, printings)

    return Response(stream_with_context(lines()), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


@bp.get("/tables/<table_id>.csv")
def table_csv(table_id: str):
    """Every hand of every match of the table, a row per player: for its members only."""
    table = get_table(table_id)
    matches = db.session.scalars(
        select(Match).where(Match.table_id == table.id).order_by(Match.created_at, Match.id)).all()
    return hands_csv(matches, table_download_name(table.name, datetime.now(UTC).date(), "csv"))


@bp.get("/matches/<match_id>/hands.csv")
def match_hands_csv(match_id: str):
    """One match's hands, a row per player, as the table's CSV has them."""
    match = get_match(match_id)
    return hands_csv([match], download_name(match, "hands.csv"))


@bp.get("/matches/<match_id>.json")
def match_json(match_id: str):
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


@bp.get(f"/schema/{schema.FORMAT.replace('/', '-')}.json")
def export_schema():
    """The JSON Schema of the format of backups and matches' JSON (docs/export-schema.json),
    the same for everyone until the app changes."""
    response = make_response(schema.text())
    response.mimetype = "application/schema+json"
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    response.add_etag()
    return response.make_conditional(request)
