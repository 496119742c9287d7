"""Tournament evenings: creating one from the organiser's table, its entrants, seating each
round (each table an ordinary match), the phone that keeps one table's match joining by that
table's code, and the live standings with their PDFs.

The tournament's address is its secret, as a match's is: anyone holding it follows the
standings. The seating with its codes and every change are for the organiser's phones (the
members of the table it was created from), which may also edit every match of it; a table's
phone may edit that table's match alone.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.datastructures import MultiDict

from ..db import db
from ..engine.cache import cache
from ..engine.ledger import bump_table
from ..models import (
    Entrant,
    MatchKeeper,
    Tournament,
    TournamentRound,
    TournamentTable,
    clean_name,
)
from ..rules import GAMES, Game, RuleError
from ..rules.tournaments import MIN_ENTRANTS, places, table_sizes
from ..web import pdf
from ..web.access import current_device, get_table
from ..web.forms import (
    FORMATS,
    SIZE,
    WARNING_MINUTES,
    StepForm,
    TournamentForm,
    ValidationError,
    check_entrants,
    entrant_names,
    tournament_form,
)
from ..web.i18n import rule_message
from ..web.links import qr_svg, share_url
from ..web.pages import download_language, is_htmx
from ..web.tables import known_players
from ..web.tournaments import (
    changes_said,
    claim,
    claimed,
    close_round,
    closing_key,
    current_round,
    drawn,
    get_organised,
    get_tournament,
    kept_here,
    late_refusal,
    next_table,
    now,
    organiser,
    plan,
    provisional_tables,
    publish_round,
    published_round,
    reopen_round,
    reopenable,
    results,
    round_clock,
    scorecard,
    seat_next_round,
    seen_results,
    sitting_out,
    standings_after,
    swap_entrants,
    tournament_json,
    unfinished,
    version_key,
    where_to_go,
)

bp = Blueprint("tournaments", __name__)
POLL_SECONDS = 4
TOURNAMENT_GAMES = [key for key, game in GAMES.items() if not game.solitaire]


@bp.route("/tables/<table_id>/tournaments/new", methods=["GET", "POST"])
def new(table_id: str):
    """The organiser's form: the game, its options, the format, rounds, table size, the
    entrants and the seed of the draw. A switch of game or format posts the form, which is
    drawn again with what was typed (and still fits) kept."""
    table = get_table(table_id)
    action = request.form.get("action", "")
    key = action[5:] if action.startswith("game:") else request.values.get(
        "game", TOURNAMENT_GAMES[0])
    if key not in TOURNAMENT_GAMES:
        abort(404, _("%(game)s has no tournaments.", game=key[:30]))
    game = GAMES[key]
    if action.startswith("game:") or action == "format":
        form = _redrawn(game)
    elif request.method == "GET":
        form = tournament_form(game)
        form.entrants.data = "\n".join(known_players(table))
        form.seed.data = secrets.randbelow(1_000_000)
    elif (form := tournament_form(game)).validate():
        try:
            tournament = Tournament(
                table_id=table.id, name=clean_name(form.name.data), game=game.key,
                format=form.format.data, rounds=form.rounds.data,
                size=form.size.data if form.size.data is not None else SIZE,
                pairs=bool(form.pairs.data), go_on=form.go_on.data, seed=form.seed.data,
                options=form.option_values(), round_minutes=form.round_minutes.data,
                warning_minutes=form.warning_minutes.data or WARNING_MINUTES,
                accept=bool(form.accept.data))
            _check(tournament, form)
        except RuleError as error:
            form.form_errors.append(rule_message(error))
        else:
            for number, names in enumerate(form.entrant_names()):
                tournament.entrants.append(Entrant(number=number, names=names))
            db.session.add(tournament)
            db.session.commit()
            return redirect(url_for("tournaments.show", tournament_id=tournament.id), 303)
    status = 422 if form.errors or form.form_errors else 200
    return render_template("tournaments/new.html", form=form, game=game, table=table,
                           games=[GAMES[k] for k in TOURNAMENT_GAMES]), status


def _redrawn(game: Game) -> TournamentForm:
    """The new-tournament form of ``game`` after a switch of game or format, nothing
    validated: the name, entrants, format, rounds, seed and knockout cut are kept; the
    table size and pairs where ``game`` asks them; an option where the game switched from
    has the same option and the value typed is one of ``game``'s, else its default."""
    before = GAMES.get(request.form.get("game", ""))
    shared = {o.key for o in game.options
              if before is not None and _same_option(o, before)}
    kept = MultiDict([(k, v) for k, v in request.form.items(multi=True)
                      if not k.startswith("opt_") or k[4:] in shared])
    form = tournament_form(game, formdata=kept)
    for option in game.options:  # an unticked box is what a form without it posts
        field = form[f"opt_{option.key}"]
        if option.key not in shared or (option.choices and field.data not in option.choices):
            field.data = dict(game.tournament.options).get(option.key, option.default)
    if not game.tournament.pairs:
        form.pairs.data = False
    if form.format.data not in FORMATS:
        form.format.data = "danish"
    return form


def _same_option(option: Any, before: Game) -> bool:
    """Whether the game switched from, ``before``, has ``option`` of the same kind."""
    other = next((o for o in before.options if o.key == option.key), None)
    return other is not None and other.kind == option.kind


def _check(tournament: Tournament, form: TournamentForm) -> None:
    """Refuse what the rules refuse of the choices (a game without pairs, a table size
    that does not suit the game, the game's options); keep the options cleaned."""
    game = GAMES[tournament.game]
    plan(tournament)
    players = 4 if tournament.pairs else min(max(tournament.size, game.min_players),
                                             game.max_players)
    tournament.options = game.clean_options(players, form.option_values())
    if not tournament.pairs and not game.tournament.alone:
        table_sizes(MIN_ENTRANTS, game, size=tournament.size)


@bp.get("/tournaments/<tournament_id>")
def show(tournament_id: str):
    """The tournament: its rounds and tables, the standings, and for the organiser the
    entrants to add or withdraw and the next round to seat."""
    tournament = get_tournament(tournament_id)
    return render_template("tournaments/show.html", **_context(tournament),
                           poll_seconds=POLL_SECONDS)


def _context(tournament: Tournament) -> dict:
    done = seen_results(tournament)
    row = tournament.round_rows[len(done.rounds) - 1] if done.rounds else None
    runs = organiser(tournament)
    over = row is None or row.closed or done.finished(row.number)
    return {"tournament": tournament, "game": GAMES[tournament.game], "results": done,
            "entrants": {e.number: e for e in tournament.entrants},
            "organiser": runs, "row": row, "formats": FORMATS,
            "drawn": drawn(tournament) if runs else None, **_where(tournament),
            "checked_in": {(t.round, t.number) for t in tournament.tables if t.checked_in_at}
            if runs else set(),
            "round_over": over,
            "clock": None if over else round_clock(row.number, row.started_at,
                                                   tournament.round_minutes,
                                                   tournament.warning_minutes),
            "last": row is not None and _last(tournament, row),
            "reopen": reopenable(tournament) if runs else None,
            "standings_url": share_url("tournaments.standings", tournament_id=tournament.id),
            "kept_html": kept_html, "changes_said": changes_said,
            "sitting_out_of": partial(sitting_out, tournament),
            "late_open": runs and row is not None and late_refusal(tournament) is None}


def _where(tournament: Tournament) -> dict:
    """Who this phone said it is (``me``) and where that entrant goes in the latest round
    published (``place``; None before it is published), and that round's number
    (``published``, 0 before round 1 is)."""
    me = claimed(tournament)
    row = published_round(tournament)
    return {"me": me, "place": where_to_go(tournament, row).get(me)
            if row is not None and me is not None else None,
            "published": row.number if row is not None else 0}


@bp.post("/tournaments/<tournament_id>/me")
def claim_entrant(tournament_id: str):
    """This phone says which entrant it is ("This is me"), or forgets it (no entrant):
    its tournament page then leads with where that entrant goes."""
    tournament = get_tournament(tournament_id)
    number = request.form.get("entrant", type=int)
    if number is not None and all(e.number != number for e in tournament.entrants):
        abort(404, _("There is no such entrant."))
    claim(tournament, number)
    return redirect(url_for("tournaments.show", tournament_id=tournament.id), 303)


def _unchanged(tournament_id: str) -> bool:
    """Whether a poll's ``since`` is the tournament's version: one query, nothing loaded."""
    since = request.args.get("since", type=int)
    return since is not None and since == db.session.scalar(
        select(Tournament.version).where(Tournament.id == tournament_id[:24]))


@bp.get("/tournaments/<tournament_id>/where")
def where(tournament_id: str):
    """The line that says where this phone's entrant goes, asked every few seconds by the
    tournament page (``since``: 204 while the tournament is as it was). Once a round is
    published after the one the page shows (``published``), the whole page is loaded
    again (htmx's ``HX-Refresh``): it shows the new round everywhere."""
    if _unchanged(tournament_id):
        return "", 204, {"Cache-Control": "no-cache"}
    tournament = get_tournament(tournament_id)
    context = _where(tournament)
    if request.args.get("published", type=int) not in (None, context["published"]):
        return "", 200, {"Cache-Control": "no-cache", "HX-Refresh": "true"}
    return render_template("tournaments/_where.html", tournament=tournament,
                           entrants={e.number: e for e in tournament.entrants},
                           poll_seconds=POLL_SECONDS, **context), 200, \
        {"Cache-Control": "no-cache"}


@bp.get("/tournaments/<tournament_id>/next/<int(max=99):number>/<int(max=99):table>")
def next_round(tournament_id: str, number: int, table: int):
    """What the sheet of table ``table`` of round ``number`` asks every few seconds once its
    match is over: 204 while the tournament is as it was (``since``), the same question with
    the new version while no later round is published, then the way to the next table: one
    tap that keeps it, for the phone that kept the match (or the organiser's); the
    tournament page, for another."""
    if _unchanged(tournament_id):
        return "", 204, {"Cache-Control": "no-cache"}
    tournament = get_tournament(tournament_id)
    seated = next((t for t in tournament.tables if t.round == number and t.number == table),
                  None)
    if seated is None:
        abort(404, _("There is no such table."))
    return render_template("tournaments/_next.html", tournament=tournament, number=number,
                           table=table, going=next_table(tournament, number, table),
                           keeps=kept_here(tournament, seated.match_id)), 200, \
        {"Cache-Control": "no-cache"}


@bp.get("/tournaments/<tournament_id>/screen")
def screen(tournament_id: str):
    """The tournament's screen, for a TV or a laptop in the room: where every entrant goes
    in the latest round published, in large type, paged through by itself when it does not
    fit; its poll (htmx, ``since``) gets 204 while the tournament is as it was."""
    if is_htmx() and _unchanged(tournament_id):
        return "", 204, {"Cache-Control": "no-cache"}
    tournament = get_tournament(tournament_id)
    row = published_round(tournament)
    entrants = {e.number: e for e in tournament.entrants}
    found = where_to_go(tournament, row) if row is not None else {}
    rows = sorted(found.values(), key=lambda p: entrants[p.entrant].name.casefold())
    template = "tournaments/_screen.html" if is_htmx() else "tournaments/screen.html"
    return render_template(template, tournament=tournament, row=row, rows=rows,
                           entrants=entrants, poll_seconds=POLL_SECONDS,
                           light=request.args.get("theme") == "light"), 200, \
        {"Cache-Control": "no-cache"}


def kept_html(key: tuple, caller: Callable[[], str]) -> Markup:
    """What a template's ``{% call kept_html(key) %}`` block renders, once per ``key`` (which
    carries the versions of all the block reads) and language."""
    return cache("tournament-html").get((*key, str(get_locale())), lambda: Markup(caller()))


def _last(tournament: Tournament, row: TournamentRound) -> bool:
    """Whether ``row`` is the evening's last round: a knockout's final, else the last of
    the rounds chosen."""
    return row.final or (tournament.format != "knockout" and row.number >= tournament.rounds)


@bp.post("/tournaments/<tournament_id>/entrants")
def add_entrant(tournament_id: str):
    """Add an entrant (a name, or a pair "Anna + Bruno") before round 1, or a late entrant
    between rounds of a Danish evening (seated from the next round)."""
    tournament = get_organised(tournament_id)
    line = request.form.get("entrant", "")[:200]
    names = entrant_names(line, tournament.pairs)
    error = late_refusal(tournament)
    if error is None:
        try:
            check_entrants([names], tournament.pairs,
                           [n for e in tournament.entrants for n in e.names])
        except ValidationError as refused:
            error = str(refused)
    if error:
        return _refused(tournament, error)
    tournament.entrants.append(Entrant(
        number=len(tournament.entrants), names=names,
        joined=len(tournament.round_rows) if tournament.round_rows else None))
    tournament.version += 1
    db.session.commit()
    return redirect(url_for("tournaments.show", tournament_id=tournament.id,
                            _anchor="entrants"), 303)


def _refused(tournament: Tournament, error: str):
    """The tournament's page saying what was refused, nothing stored."""
    db.session.rollback()
    return render_template("tournaments/show.html", **_context(tournament), error=error), 422


@bp.post("/tournaments/<tournament_id>/entrants/<int(max=64):number>/withdraw")
def withdraw(tournament_id: str, number: int):
    """Withdraw an entrant between rounds: kept in the standings, never seated again."""
    tournament = get_organised(tournament_id)
    entrant = next((e for e in tournament.entrants if e.number == number), None)
    if entrant is None:
        abort(404, _("There is no such entrant."))
    row = current_round(tournament)
    if row is not None and not row.closed and not results(tournament).finished(row.number) \
            and any(number in t.entrants for t in tournament.tables if t.round == row.number):
        return _refused(tournament, _(
            "%(name)s is playing round %(round)s: withdraw them once it is over.",
            name=entrant.name, round=row.number))
    if entrant.withdrawn is None:
        entrant.withdrawn = row.number if row else 0
        tournament.version += 1
        db.session.commit()
    return redirect(url_for("tournaments.show", tournament_id=tournament.id,
                            _anchor="entrants"), 303)


@bp.post("/tournaments/<tournament_id>/rounds")
def seat(tournament_id: str):
    """Seat the next round (closing the round before: no more changes there). A round with
    tables still playing is closed only once the organiser confirmed what that gives."""
    tournament = get_organised(tournament_id)
    form = StepForm()
    if not form.validate() or form.version.data != tournament.version:
        return _refused(tournament, _("The tournament changed meanwhile: here it is as it "
                                      "stands now."))
    if (row := drawn(tournament)) is not None:
        return _refused(tournament, _("Round %(n)s is drawn: publish it first.", n=row.number))
    if (asked := _unconfirmed(tournament, "seat")) is not None:
        return asked
    try:
        row = seat_next_round(tournament)
    except RuleError as error:
        return _refused(tournament, rule_message(error))
    bump_table(tournament.table_id)
    db.session.commit()
    return redirect(url_for("tournaments.seating", tournament_id=tournament.id,
                            number=row.number), 303)


@bp.post("/tournaments/<tournament_id>/close")
def close(tournament_id: str):
    """Close the round in play as it stands: its matches take no more changes. A round
    with tables still playing is closed only once the organiser confirmed it."""
    tournament = get_organised(tournament_id)
    if (row := drawn(tournament)) is not None:
        return _refused(tournament, _("Round %(n)s is drawn: publish it first.", n=row.number))
    if (asked := _unconfirmed(tournament, "close")) is not None:
        return asked
    close_round(tournament)
    db.session.commit()
    return redirect(url_for("tournaments.show", tournament_id=tournament.id), 303)


def _unconfirmed(tournament: Tournament, then: str):
    """None when the round in play may be closed now: every table has finished, or the
    form carries the confirmation of what closing gives as it stands. Else the page that
    asks (again, saying so, when the tables moved on since it was shown): nothing closed."""
    tables = unfinished(tournament)
    given = request.form.get("confirm")
    if not (tables or provisional_tables(tournament)) or given == closing_key(tournament):
        return None
    error = None if given is None else _("The tables moved on meanwhile: this is what "
                                         "closing the round gives now.")
    return render_template("tournaments/close.html", **_closing(tournament, then, tables),
                           error=error), 409 if error else 200


def _closing(tournament: Tournament, then: str, tables: list) -> dict:
    return {**_context(tournament), "then": then, "unfinished": tables,
            "provisional": provisional_tables(tournament), "confirm": closing_key(tournament)}


@bp.get("/tournaments/<tournament_id>/rounds/<int(max=99):number>/close")
def confirm_close(tournament_id: str, number: int):
    """Before closing round ``number`` with tables still playing: each of them and what
    each entrant there gets, and the button that closes it (``then``: "seat" seats the next
    round too). Nothing is closed here."""
    tournament = get_organised(tournament_id)
    row = current_round(tournament)
    then = "seat" if request.args.get("then") == "seat" else "close"
    if row is None or row.number != number or row.closed:
        return redirect(url_for("tournaments.show", tournament_id=tournament.id), 303)
    return render_template("tournaments/close.html",
                           **_closing(tournament, then, unfinished(tournament)))


@bp.post("/tournaments/<tournament_id>/rounds/<int(max=99):number>/reopen")
def reopen(tournament_id: str, number: int):
    """Reopen closed round ``number`` until the next round has its first saved hand: the
    tables it closed early are played on, the next round's seating is removed."""
    tournament = get_organised(tournament_id)
    form = StepForm()
    if not form.validate() or form.version.data != tournament.version:
        return _refused(tournament, _("The tournament changed meanwhile: here it is as it "
                                      "stands now."))
    rows = tournament.round_rows
    if not 1 <= number <= len(rows):
        abort(404, _("There is no such round."))
    row = reopenable(tournament)
    if row is None or row.number != number:
        return _refused(tournament, _("Round %(n)s is not closed.", n=number)
                        if not rows[number - 1].closed else
                        _("Round %(n)s can no longer be reopened: round %(next)s has begun.",
                          n=number, next=number + 1))
    reopen_round(tournament, row)
    bump_table(tournament.table_id)
    db.session.commit()
    return redirect(url_for("tournaments.show", tournament_id=tournament.id,
                            _anchor="next-round"), 303)


@bp.post("/tournaments/<tournament_id>/rounds/<int(max=99):number>/publish")
def publish(tournament_id: str, number: int):
    """Publish drawn round ``number``: every page shows it, its codes keep their tables and
    its clock starts."""
    tournament = get_organised(tournament_id)
    form = StepForm()
    row = drawn(tournament)
    if not form.validate() or form.version.data != tournament.version \
            or row is None or row.number != number:
        return _refused(tournament, _("The tournament changed meanwhile: here it is as it "
                                      "stands now."))
    publish_round(tournament)
    db.session.commit()
    return redirect(url_for("tournaments.seating", tournament_id=tournament.id,
                            number=number), 303)


@bp.post("/tournaments/<tournament_id>/rounds/<int(max=99):number>/swap")
def swap(tournament_id: str, number: int):
    """Swap two entrants of drawn round ``number`` between their tables (recorded on the
    round)."""
    tournament = get_organised(tournament_id)
    form = StepForm()
    if not form.validate() or form.version.data != tournament.version \
            or number != len(tournament.round_rows):
        return _refused_seating(tournament, number, _(
            "The tournament changed meanwhile: here it is as it stands now."))
    first, second = (request.form.get(k, -1, type=int) for k in ("first", "second"))
    if (error := swap_entrants(tournament, first, second)) is not None:
        return _refused_seating(tournament, number, error)
    db.session.commit()
    return redirect(url_for("tournaments.seating", tournament_id=tournament.id,
                            number=number, _anchor="swap"), 303)


def _refused_seating(tournament: Tournament, number: int, error: str):
    """The round's seating page saying what was refused, nothing stored."""
    db.session.rollback()
    return render_template("tournaments/seating.html", **_seating_context(tournament, number),
                           error=error), 422


def _round_tables(tournament: Tournament, number: int) -> list[TournamentTable]:
    tables = [t for t in tournament.tables if t.round == number]
    if not tables:
        abort(404, _("There is no such round."))
    return tables


def _seating_context(tournament: Tournament, number: int) -> dict:
    tables = _round_tables(tournament, number)
    links = {t.number: share_url("tournaments.keep", token=t.token) for t in tables}
    return {**_context(tournament), "number": number, "tables": tables, "links": links,
            "codes": {n: qr_svg(link, _("Keep the sheet of table %(n)s", n=n))
                      for n, link in links.items()},
            "sitting_out": sitting_out(tournament, tournament.round_rows[number - 1])}


@bp.get("/tournaments/<tournament_id>/rounds/<int(max=99):number>")
def seating(tournament_id: str, number: int):
    """A round's seating: each table's seats, first dealer, match and the code its phone
    scans to keep that match (for the organiser's phones only: the code grants editing)."""
    tournament = get_organised(tournament_id)
    return render_template("tournaments/seating.html", **_seating_context(tournament, number))


@bp.get("/tournaments/<tournament_id>/rounds/<int(max=99):number>.pdf")
def seating_pdf(tournament_id: str, number: int):
    """A round's seating to pin up, each table with the code its phone scans."""
    tournament = get_organised(tournament_id)
    with force_locale(download_language()):
        html = render_template("pdf/seating.html", **_seating_context(tournament, number))
    return _pdf(html, f"round-{number}.pdf")


def _pdf(html: str, name: str) -> Response:
    static = current_app.static_folder
    data = pdf.render(html, static, f"{static}/css/print.css")
    return Response(data, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@bp.get("/tournaments/<tournament_id>/standings")
def standings(tournament_id: str):
    """The live standings, overall and per round, for any phone or table screen holding
    the address; its poll (htmx, with ``since``) gets 204 while nothing changed."""
    tournament = get_tournament(tournament_id)
    key = str(hash(version_key(tournament)))
    if is_htmx() and request.args.get("since") == key:
        return "", 204, {"Cache-Control": "no-cache"}
    template = "tournaments/_standings.html" if is_htmx() else "tournaments/standings.html"
    context = _context(tournament)
    # "Accepted only": each table counts its hands up to its first provisional one
    accepted = tournament.accept and request.args.get("accepted") == "1"
    if accepted:
        context["results"] = results(tournament, accepted=True)
    latest = len(context["results"].rounds)
    after = min(max(request.args.get("after", latest, type=int), 1), latest)
    past = standings_after(tournament, context["results"], after) if after < latest else None
    return render_template(template, **context, key=key, poll_seconds=POLL_SECONDS,
                           after=after, past=past, accepted=accepted), 200, \
        {"Cache-Control": "no-cache"}


@bp.get("/tournaments/<tournament_id>/entrants/<int(max=64):number>")
def entrant(tournament_id: str, number: int):
    """An entrant's scorecard: each round's table, seats, opponents, place and points, and
    the running total and rank after it."""
    tournament = get_tournament(tournament_id)
    context = _context(tournament)
    if number not in context["entrants"]:
        abort(404, _("There is no such entrant."))
    return render_template("tournaments/entrant.html", **context, number=number,
                           card=scorecard(tournament, context["results"], number))


@bp.get("/tournaments/<tournament_id>/rounds/<int(max=99):number>/results.pdf")
def round_pdf(tournament_id: str, number: int):
    """One round's results alone, to pin up: each table's entrants with their totals, places
    and points, who sat out, and the standings after the round."""
    tournament = get_tournament(tournament_id)
    context = _context(tournament)
    if not 0 < number <= len(context["results"].rounds):
        abort(404, _("There is no such round."))
    with force_locale(download_language()):
        html = render_template("pdf/round.html", **context, number=number, places=places,
                               after=standings_after(tournament, context["results"], number))
    return _pdf(html, f"round-{number}-results.pdf")


@bp.get("/tournaments/<tournament_id>/standings.pdf")
def standings_pdf(tournament_id: str):
    """The standings (final once every round is played) and each round's seating and
    results, to pin up."""
    tournament = get_tournament(tournament_id)
    with force_locale(download_language()):
        html = render_template("pdf/standings.html", **_context(tournament))
    return _pdf(html, "standings.pdf")


@bp.route("/tournaments/keep/<token>", methods=["GET", "POST"])
def keep(token: str):
    """A table's code: asks first (GET), then checks the table in and lets this phone edit
    that table's match alone, and opens it. A phone that said it is an entrant seated at
    another table is told where it belongs, and granted nothing."""
    table = db.session.scalar(select(TournamentTable).where(TournamentTable.token == token[:64]))
    if table is None or table.match_id is None:
        abort(404, _("This code keeps no table: ask the organiser for the seating."))
    tournament = db.session.get(Tournament, table.tournament_id)
    row = tournament.round_rows[table.round - 1]
    if row.published_at is None:
        abort(403, _("This round is not published yet: ask the organiser."))
    if row.closed:
        abort(403, _("Round %(round)s is over: its matches take no more changes.",
                     round=table.round))
    me = claimed(tournament)
    elsewhere = where_to_go(tournament, row).get(me) if me is not None else None
    if elsewhere is not None and elsewhere.table != table.number:
        abort(403, _("You are at table %(table)s in round %(round)s.", table=elsewhere.table,
                     round=row.number) if elsewhere.table is not None else
              _("You sit out round %(round)s.", round=row.number))
    if request.method == "GET":
        return render_template("tournaments/keep.html", tournament=tournament, table=table,
                               entrants={e.number: e for e in tournament.entrants})
    if table.checked_in_at is None:
        table.checked_in_at = now()
    device = current_device(create=True)
    if db.session.get(MatchKeeper, (table.match_id, device.id)) is None:
        db.session.add(MatchKeeper(match_id=table.match_id, device_id=device.id))
    db.session.commit()
    return redirect(url_for("matches.show", match_id=table.match_id, kept=1), 303)


@bp.get("/tournaments/<tournament_id>.json")
def as_json(tournament_id: str):
    """The tournament as data: each round's tables and standings (and its seating's time, in
    UTC), the overall standings; points as exact fractions ("7/2") beside their one-decimal
    text; the round's clock, in minutes (None: no clock)."""
    return tournament_json(get_tournament(tournament_id))
