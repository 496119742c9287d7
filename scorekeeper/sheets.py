"""Printed score sheets: a PDF of any match, and blank sheets for play without a phone."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask_babel import force_locale
from flask_babel import gettext as _

from . import pdf
from .cache import cache
from .hands import game_modules
from .models import NAME_LENGTH, Match
from .pages import get_match
from .records import PORTRAIT_COLUMNS, download_language, download_name, printed_sheet
from .rules import GAMES, Game, RuleError
from .scoring import compute_sheet

bp = Blueprint("sheets", __name__)


def render_pdf(html: str) -> bytes:
    """HTML to PDF with the print stylesheet, in the renderer process (see scorekeeper.pdf)."""
    static = current_app.static_folder
    return pdf.render(html, static, f"{static}/css/print.css")


def pdf_response(data: bytes, filename: str) -> Response:
    """A PDF download named ``filename``."""
    return Response(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


def options_in_force(game: Game, players: int, options: dict[str, Any]) -> list[tuple[str, Any]]:
    """(label, value) of each option that applies to a table of ``players``."""
    return [(o.label, options.get(o.key, o.default)) for o in game.options
            if o.in_force(players, options)]


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
    game = GAMES[match.game]
    with force_locale(lang):
        html = render_template(
            "pdf/match.html", match=match, sheet=sheet, game=game, names=match.names,
            landscape=len(match.seats) > PORTRAIT_COLUMNS,
            options=options_in_force(game, len(match.seats), sheet.options),
            printed=printed_sheet(match, sheet, match.names), can_edit=lambda _id: False)
    return render_pdf(html)


@bp.get("/sheets")
def index():
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
    web = game_modules()[game.key]
    try:
        sheet = game.build_sheet(players, [], **game.clean_options(players, {}))
    except RuleError:  # pragma: no cover - every game scores an empty match
        abort(400)
    with force_locale(lang):
        html = render_template(
            f"pdf/blank_{game.key}.html", game=game, sheet=sheet, players=players,
            names=[n or _("Player %(n)s", n=i + 1) for i, n in enumerate(names)],
            landscape=players > getattr(web, "BLANK_PORTRAIT_COLUMNS", PORTRAIT_COLUMNS),
            extras=web.blank_extras(players))
    return pdf_response(render_pdf(html), f"{game.key}-blank-{players}.pdf")

