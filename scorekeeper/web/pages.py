"""The toolbox of every page showing a match: its loader, the htmx test, the sheet
rendered whole or as its live part, a refusal that stores nothing, and the answer after
a change.

One htmx pattern: a tap returns the partial that replaces itself; a save, a refusal and
a refresh answer with the live sheet (``#live``). The entry panel then comes first in
the live sheet's ``#turn``, with a notice (what was saved, or what another phone did
first) or the refusal beside the control it is about (``error_at``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from sqlalchemy import bindparam, exists, select
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.util import identity_key

from ..db import db
from ..engine.history import Speaker, local_time, sentence, step_done
from ..engine.ledger import ROSTER, Conflict, steps
from ..engine.printing import number_text
from ..engine.sheets import compute_sheet, people, stored_hands
from ..models import Change, Match, Seat, Table, TournamentTable
from ..rules import GAMES, N_, Note, RuleError
from .forms import MAX_INT
from .games import spec_of
from .i18n import rule_message
from .reviews import verdict_said


def is_htmx() -> bool:
    """True when htmx sent the request and wants a fragment back."""
    return request.headers.get("HX-Request") == "true"


# The match with its seats and their players, in one query built once.
MATCH = (select(Match).options(joinedload(Match.seats).joinedload(Seat.player))
         .where(Match.id == bindparam("id")))


def get_match(match_id: str, game: str | None = None) -> Match:
    """The match with this id (of ``game`` when given); raises 404 when there is none. A
    match this request loaded already (a change's, with the right to make it: see
    ``access.guard``) is not asked again: a query would not change what it holds.

    A post to another game's match is a 404 like a match that does not exist.
    """
    match = db.session.identity_map.get(identity_key(Match, match_id))
    if match is None:
        match = db.session.scalars(MATCH, {"id": match_id}).unique().one_or_none()
    if match is None or game is not None and match.game != game:
        abort(404, _("There is no such match."))
    return match


VERSION = select(Match.__table__.c.version).where(Match.__table__.c.id == bindparam("id"))


def match_version(match_id: str) -> int:
    """The version of the match with this id; raises 404 when there is none. One small
    query, built once: what a page asks before serving what it keeps for that version (on
    the session's connection, which the edit right's query then uses too)."""
    version = db.session.connection().scalar(VERSION, {"id": match_id})
    if version is None:
        abort(404, _("There is no such match."))
    return version


# The match's version, and the newest match its table started after it (not a tournament's,
# not one abandoned), or None: one query, each part one probe of an index (ix_matches_table_
# created), however many matches the table has played. A tournament's match is never told.
_THIS, _LATER = Match.__table__.alias("this"), Match.__table__.alias("later")
_SEATED = TournamentTable.__table__.c.match_id
STATE = select(_THIS.c.version, select(_LATER.c.id).where(
    _LATER.c.table_id == _THIS.c.table_id, _LATER.c.created_at > _THIS.c.created_at,
    _LATER.c.abandoned.is_(False), ~exists().where(_LATER.c.id == _SEATED),
    ~exists().where(bindparam("id") == _SEATED),
).order_by(_LATER.c.created_at.desc()).limit(1).scalar_subquery()).where(
    _THIS.c.id == bindparam("id"))


def match_state(match_id: str) -> tuple[int, str | None]:
    """The version of the match with this id and the newest match its table started after
    it (None when none): what a poll asks before anything else, in one query. Raises 404
    when there is no such match."""
    row = db.session.connection().execute(STATE, {"id": match_id}).first()
    if row is None:
        abort(404, _("There is no such match."))
    return row[0], row[1]


def render_sheet(match: Match, *, status: int = 200, error: str | None = None,
                 template: str = "matches/show.html", **context: Any):
    """The match page (or, for htmx, its live part) with an optional error message."""
    if is_htmx() and template == "matches/show.html":
        template = "matches/_live.html"
    return render_template(template, **sheet_context(match), error=error, **context), status


def redraw(match: Match, partial: str, *, template: str = "matches/show.html",
           address: str | None = None, status: int = 200, **context: Any):
    """A tap or a choice shown again, nothing stored: htmx gets ``partial``, the part of the
    page that replaces itself; a plain POST a redirect to ``address``, the page showing
    what the tap made (Post/Redirect/Get: reloading it posts nothing); a GET, or a POST
    without ``address`` (a refused tap), the whole page (``template``)."""
    if is_htmx():
        return render_template(partial, **sheet_context(match), **context), status
    if address is not None and request.method == "POST":
        return redirect(address, 303)
    return render_sheet(match, template=template, status=status, **context)


def sheet_context(match: Match) -> dict[str, Any]:
    """What every template showing a match needs."""
    return {"match": match, "sheet": compute_sheet(match), "game": GAMES[match.game],
            "names": match.names}


# What another phone did to a hand, by the kind of its change ("enter": the game's own words).
ELSEWHERE = {
    "undo": N_("%(hand)s: another phone undid a change: this is the sheet now."),
    "redo": N_("%(hand)s: another phone redid a change: this is the sheet now."),
    "correct": N_("%(hand)s: another phone saved a correction (%(time)s): this is the sheet "
                  "now."),
    # A change to the hand still being entered: a bid, not the whole hand.
    "part": N_("%(hand)s: another phone entered a bid: this is the sheet now."),
}


def elsewhere_notice(match: Match) -> str:
    """What a phone says when its page was older than the sheet: what the latest change (by
    any phone) did to which hand, or that the match was abandoned."""
    if match.abandoned:
        return _("Another phone abandoned this match: nothing was stored.")
    if (verdict := verdict_said(match)) is not None:  # a hand accepted or rejected
        return verdict
    latest = db.session.execute(
        select(Change.kind, Change.number, Change.created_at)
        .where(Change.match_id == match.id).order_by(Change.id.desc()).limit(1)).first()
    if latest is None:
        return _("Already recorded: the sheet below is the latest one.")
    kind = latest.kind
    if latest.number == ROSTER:
        return _("Another phone changed who plays: this is the sheet now.")
    upcoming = compute_sheet(match).next
    if kind == "enter" and upcoming is not None and upcoming.number == latest.number:
        kind = "part"
    if kind not in ELSEWHERE:
        return _(GAMES[match.game].saved_elsewhere, n=latest.number)
    return _(ELSEWHERE[kind], hand=_(spec_of(match.game).words.numbered, n=latest.number),
             time=local_time(latest.created_at, viewer_zone()))


@dataclass(frozen=True)
class Typed:
    """What a phone typed for hand ``number`` (as posted, possibly anything) before its save
    was refused as stale: a value per seat (blank ones are not said)."""

    number: Any
    values: Mapping[int, Any]


# What a save another phone overtook did not store, and why: the hand saved first by another
# phone (with the values typed, else without), a correction of a hand another phone deleted.
TAKEN = (N_("%(hand)s: your entry (%(values)s) was not saved: another phone saved it first."),
         N_("%(hand)s: your entry was not saved: another phone saved it first."))
DELETED = N_("%(hand)s was deleted on another phone: your correction was not saved.")


def not_saved(match: Match, typed: Typed | None) -> str | None:
    """What a refused entry of a hand another phone saved first did not store, and why ("Hand
    5: your entry (Anna 34, Bruno 21) was not saved: another phone saved it first."); None when
    that hand is not a whole row of the sheet (what changed, a Navawhist bid say, is then said
    by :func:`elsewhere_notice`). Read after the refused change is rolled back."""
    if typed is None or not isinstance(typed.number, int) \
            or not 1 <= typed.number <= len(compute_sheet(match).rows):
        return None
    hand = _(spec_of(match.game).words.numbered, n=typed.number)
    values = ", ".join(f"{match.names[seat]} {value}" for seat, value in typed.values.items()
                       if isinstance(seat, int) and 0 <= seat < len(match.names)
                       and value not in (None, ""))
    return _(TAKEN[0], hand=hand, values=values) if values else _(TAKEN[1], hand=hand)


def was_entered(match: Match, number: int) -> bool:
    """True when hand ``number`` of the match was ever entered (its history has it), stored
    now or not; a number no database column holds never was."""
    return 1 <= number <= MAX_INT and db.session.scalar(
        select(Change.id).where(Change.match_id == match.id, Change.number == number)
        .limit(1)) is not None


def deleted_answer(match: Match, number: int):
    """The answer to a correction of hand ``number``, which another phone deleted (an undo)
    since the page was made: nothing stored, the live sheet saying so (409)."""
    notice = _(DELETED, hand=_(spec_of(match.game).words.numbered, n=number))
    answer = render_sheet(match, status=409, notice=notice, stale=True, jump=True)
    return over_live(said_with(answer, match, notice) if is_htmx() else answer)


STEPPED = {"undo": N_("Undone."), "redo": N_("Redone."), "correct": N_("Correction saved.")}


def saved_notice(match: Match, number: int | None, step: str | None = None) -> str | None:
    """"Hand 5 saved." for a hand that is stored, with who it put out and who won when it
    ended the match; what a correction, an undo or a redo (``step``) did; else None."""
    if step in ("undo", "redo"):
        undoable, redoable = steps(match)
        return step_done(spec_of(match.game).words, match.names, compute_sheet(match).columns,
                         undoable, redoable, step, people(match, undoable, redoable)) \
            or _(STEPPED[step])
    if step in STEPPED:
        return _(STEPPED[step])
    if number is None or not 1 <= number <= len(stored_hands(match)):
        return None
    return " ".join([_(GAMES[match.game].saved, n=number), *outcome(match, number)])


def announcement(match: Match) -> str | None:
    """The latest change to the match in words, as every phone's live region says it once
    (this phone's own change, another phone's): a hand saved with its points ("Hand 5 saved.
    Points: Anna 34, Bruno 21."), else as the history says it ("Hand 3 corrected: Carla 3
    tricks (was 2).", "Dario joins from hand 3."); None before any change. The latest change
    is Undo's or Redo's, whichever is newer: a new entry, a correction and a redo are what
    Undo takes back, an undo what Redo does."""
    if (verdict := verdict_said(match)) is not None:  # a hand accepted or rejected
        return verdict
    latest = max((step for step in steps(match) if step is not None), key=lambda step: step.id,
                 default=None)
    if latest is None:
        return None
    sheet = compute_sheet(match)
    words = spec_of(match.game).words
    wording = Speaker(words.fields, match.names, sheet.columns, people(match, latest))
    row = next((r for r in sheet.rows if r.number == latest.number), None)
    if latest.kind == "enter" and latest.number != ROSTER and row is not None:
        points = ", ".join(f"{wording.who(column, 'sides')} {number_text(value)}"
                           for column, value in enumerate(row.points) if value is not None)
        return " ".join([_(GAMES[match.game].saved, n=latest.number),
                         _("Points: %(points)s.", points=points), *outcome(match, row.number)])
    return sentence(wording, words, latest.number, latest.kind, latest.old, latest.new) + "."


def said_out_of_band(match: Match, words: str | None = None) -> str:
    """What an answer htmx swaps ends with: ``words``, else :func:`announcement`, swapped
    out of band into the match page's live region (matches/_announce.html)."""
    return render_template("matches/_announce.html", announce=words or announcement(match),
                           oob=True)


def said_with(answer: Any, match: Match, words: str | None = None):
    """``answer`` (for htmx to swap) as a response that ends with :func:`said_out_of_band`."""
    response = make_response(answer)
    response.set_data(response.get_data() + said_out_of_band(match, words).encode())
    return response


def joined_notice(match: Match, editor: bool) -> str:
    """What a phone that has just joined the match's table may now do there (``editor``:
    it may enter scores)."""
    name = db.session.scalar(select(Table.name).where(Table.id == match.table_id))
    if not editor:
        return _("This phone follows the table “%(table)s”: the sheet refreshes by itself.",
                 table=name)
    if compute_sheet(match).finished:
        return _("You joined the table “%(table)s”: this phone can now correct this match and "
                 "start new ones.", table=name)
    return _("You joined the table “%(table)s”: this phone can now enter scores.", table=name)


def outcome(match: Match, number: int) -> list[str]:
    """What the sheet says hand ``number`` did beyond its points: who it put out, with their
    total ("Carla is out (104)."), and who won when it ended the match."""
    sheet = compute_sheet(match)
    row = next((r for r in sheet.rows if r.number == number), None)
    if row is None:
        return []
    said = []
    for column, seats in enumerate(sheet.columns):
        out = [seat for seat in seats if seat < len(row.notes) and row.notes[seat] == Note.OUT]
        if out:
            said.append(ngettext("%(names)s is out (%(total)s).", "%(names)s are out "
                                 "(%(total)s).", len(out), names=_and(match.names, out),
                                 total=number_text(row.totals[column])))
    if sheet.finished and row is sheet.rows[-1] and sheet.winners:
        seats = [seat for column in sheet.winners for seat in sheet.columns[column]]
        said.append(ngettext("%(names)s wins.", "%(names)s win.", len(seats),
                             names=_and(match.names, seats)))
    return said


def _and(names: list[str], seats: list[int]) -> str:
    """The names of ``seats``: "Anna", "Anna and Bruno", "Anna, Bruno and Carla"."""
    said = [names[seat] for seat in seats]
    if len(said) == 1:
        return said[0]
    return _("%(names)s and %(last)s", names=", ".join(said[:-1]), last=said[-1])


def answer_refusal(match: Match, error: RuleError | Conflict, *, at: str = "save",
                   lost: str | None = None, typed: Typed | None = None, **context: Any):
    """Nothing stored: the sheet again, 409 for a conflict, 422 otherwise.

    A conflict (the page was older than the sheet) is told in the notice above the entry,
    marked as a tap not saved: what was not saved and why (``lost``; or, ``typed`` a hand
    another phone saved first, :func:`not_saved`), else what changed meanwhile; a rule's
    refusal is shown beside the control ``at`` names (``"save"``, ``"seat-2"``, ``"closer"``):
    the entry templates place it there and keep what was typed.
    """
    db.session.rollback()
    db.session.refresh(match)
    if isinstance(error, Conflict):  # said too: the tap was not saved
        notice = lost or not_saved(match, typed) or elsewhere_notice(match)
        answer = render_sheet(match, status=409, **context, notice=notice, stale=True, jump=True)
        return said_with(answer, match, notice) if is_htmx() else answer
    return render_sheet(match, status=422, **context, error=rule_message(error, match.names),
                        error_at=at)


def refusal_over_live(match: Match, error: RuleError | Conflict, **context: Any):
    """:func:`answer_refusal` over the whole live sheet, even when a tap asked for a part of
    it."""
    return over_live(answer_refusal(match, error, **context))


def over_live(answer: Any):
    """``answer`` (the live sheet) for the whole of ``#live``: htmx is told to swap it instead
    of the part that sent the tap, and to keep all of it whatever part that tap selects."""
    response = make_response(answer)
    if is_htmx():
        response.headers["HX-Retarget"] = "#live"
        response.headers["HX-Reswap"] = "outerHTML"
        response.headers["HX-Reselect"] = "#live"
    return response


def seat_at(error: RuleError | Conflict, default: str = "save") -> str:
    """Where a refusal goes in a form with one control per seat: that seat's, else
    ``default``."""
    seat = getattr(error, "seat", None)
    return default if seat is None else f"seat-{seat}"


def still_next(match: Match, form: Any) -> bool:
    """True when the hand the form was made for is still the one to enter: what was typed
    in it still applies after another phone's change."""
    db.session.rollback()
    db.session.refresh(match)
    sheet = compute_sheet(match)
    return sheet.next is not None and sheet.next.number == form.number.data


VERSION_HEADER = "X-Match-Version"


def after_change(match: Match, saved: int | None = None, *, step: str | None = None,
                 args: dict[str, Any] | None = None, partial: str | None = None,
                 turn: str | None = None, **context: Any):
    """POST then redirect to the next entry (``#turn``, with ``args`` in its address), with
    the notice of the hand ``saved`` or of the undo or redo ``step``; htmx gets the fresh
    live sheet (with ``context``), or only ``partial`` when the tap that stored the change
    redraws its own part (a bid), or ``turn``: the turn with its notice, and out of band
    what the change did to the sheet, swapped over the turn whatever the tap aimed at (a
    save while the match goes on).

    Every answer carries the match's new version (``X-Match-Version``): a page that swaps in
    only a part of the sheet knows it too, and its poll does not take this phone's own
    change for another phone's (static/js/sheet.js)."""
    if is_htmx() and turn is not None:
        answer = render_template(turn, **sheet_context(match), saved=saved, jump=True,
                                undoable=True, notice=saved_notice(match, saved, step),
                                **context), 200, {"HX-Retarget": "#turn",
                                                  "HX-Reswap": "outerHTML"}
    elif is_htmx() and partial is not None:
        answer = render_template(partial, **sheet_context(match), **context), 200
    elif is_htmx():
        answer = render_sheet(match, notice=saved_notice(match, saved, step), jump=True,
                              undoable=True, **context)
    else:
        answer = redirect(url_for("matches.show", match_id=match.id, saved=saved, step=step,
                                  _anchor="turn", **(args or {})), 303)
    response = said_with(answer, match) if is_htmx() else make_response(answer)
    response.headers[VERSION_HEADER] = str(match.version)
    return response


TZ_COOKIE = "tz"


def viewer_zone() -> tzinfo | None:
    """The time zone the browser reported, else None: in the page's address when
    static/js/tz.js has just reloaded it (``?tz=``), else in the cookie the script keeps."""
    name = request.args.get(TZ_COOKIE) or request.cookies.get(TZ_COOKIE, "")
    if not name or len(name) > 64:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def download_language() -> str:
    """The language of a download: ``?lang=`` when given, else the page's; 400 if unknown."""
    languages = current_app.config["LANGUAGES"]
    lang = request.args.get("lang")
    if lang is None:
        return str(get_locale())
    if lang not in languages:
        abort(400, _("Unknown language: choose one of %(languages)s.",
                     languages=", ".join(languages)))
    return lang


def wants_page() -> bool:
    """True when a browser asks for a document (it prefers HTML) and not for ``?raw``: a
    program asking for JSON, or for anything, gets the raw JSON."""
    if "raw" in request.args:
        return False
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"
