"""People who come and go: the page of a match's players between hands, where a player is
added, sits out and comes back, hands a seat over, or leaves
(docs/rules.md#people-who-come-and-go). Each is one change in the match's history, checked
by the rules, undone and redone like a hand."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, url_for

from ..db import db
from ..engine.ledger import (
    Conflict,
    change_players,
    refused_now,
    seat_players,
    with_change,
)
from ..engine.sheets import compute_sheet, stored_hands
from ..models import NAME_LENGTH, Match, Table
from ..rules import N_, RuleError
from ..rules.roster import Kind
from ..web.access import needs_edit_right
from ..web.forms import PlayersForm
from ..web.i18n import rule_message
from ..web.pages import elsewhere_notice, get_match, sheet_context
from ..web.people import holders
from ..web.tables import known_players

bp = Blueprint("people", __name__)


def proposed_join(at: int | None = None) -> dict[str, Any]:
    """A join as the page proposes it: last in the turn order unless ``at`` says where."""
    return {"kind": Kind.JOIN.value, **({} if at is None else {"at": at})}


def trial(match: Match, change: dict[str, Any]) -> Any:
    """The sheet the match would have with ``change`` after the hands entered so far, or the
    RuleError that refuses it (nothing is stored)."""
    roster = with_change(match, change)
    try:
        return compute_sheet(match, list(stored_hands(match)), roster=roster)
    except RuleError as refusal:
        return refused_now(refusal, roster)


def offered(match: Match, seats: Any) -> dict[tuple[int, str], bool]:
    """Which change of each seat the rules take now (the page offers only those)."""
    return {(seat, kind): not isinstance(trial(match, {"kind": kind, "seat": seat}),
                                         RuleError)
            for seat in seats for kind in (Kind.SIT_OUT.value, Kind.BACK.value,
                                           Kind.LEAVE.value)}


def players_page(match: Match, *, form: PlayersForm | None = None, error: str | None = None,
                 status: int = 200):
    """The players' page: who plays, in turn order, with what each may do now."""
    context = sheet_context(match)
    roster = context["sheet"].roster
    table = db.session.get(Table, match.table_id)
    joined = trial(match, proposed_join())
    # Why nothing can change now (a hand being entered, a match over), said once at the top.
    blocked = joined if isinstance(joined, RuleError) and isinstance(
        trial(match, {"kind": Kind.LEAVE.value, "seat": roster.order[0]}), RuleError) else None
    return render_template(
        "matches/players.html", **context, form=form or PlayersForm(),
        error=error or (rule_message(blocked, match.names) if blocked else None),
        roster=roster, order=roster.order, holders=holders(match, context["sheet"]),
        known=known_players(table), name_length=NAME_LENGTH, blocked=blocked is not None,
        offered=offered(match, roster.order) if blocked is None else {},
        entry=None if isinstance(joined, RuleError) else joined.roster.entries[-1],
        join_refused=rule_message(joined, match.names) if isinstance(joined, RuleError)
        else None), status


@bp.get("/matches/<match_id>/players")
@needs_edit_right
def players(match_id: str):
    """Who plays the match, and the changes a table makes between hands."""
    return players_page(get_match(match_id))


@bp.post("/matches/<match_id>/players")
def change(match_id: str):
    """One change of who plays: checked by the rules, stored, then the sheet with what it
    did; refused, the players' page again saying why (nothing stored)."""
    match = get_match(match_id)
    form = PlayersForm()
    if not form.validate():
        return players_page(match, form=form, status=422,
                            error=" ".join(str(m) for ms in form.errors.values() for m in ms))
    try:
        if form.version.data != match.version:
            raise Conflict
        kind = Kind(form.action.data)
        change: dict[str, Any] = {"kind": kind.value}
        if kind is Kind.JOIN:
            change.update(proposed_join(form.at.data))
        else:
            change["seat"] = form.seat.data
        if kind in (Kind.JOIN, Kind.SUBSTITUTE):
            change["person"] = person_id(db.session.get(Table, match.table_id), form.name.data,
                                         match)
        change_players(match, change, expected=form.version.data)
    except Conflict:
        db.session.rollback()
        db.session.refresh(match)
        return players_page(match, status=409, error=elsewhere_notice(match))
    except RuleError as refusal:
        db.session.rollback()
        db.session.refresh(match)
        return players_page(match, form=form, status=422,
                            error=rule_message(refusal, match.names))
    return redirect(url_for("matches.show", match_id=match.id, step="players", _anchor="turn"),
                    303)


def person_id(table: Table, name: str, match: Match) -> int:
    """The id of the table's player of this name (added to the table when new), refused
    when they hold a seat of the match or held one."""
    [player] = seat_players(table, [name])
    if player.id is None:
        db.session.add(player)
        db.session.flush()
    held = {seat.player_id for seat in match.seats} | {
        change.get("person") for change in match.roster if change.get("kind") in
        (Kind.SUBSTITUTE.value, Kind.JOIN.value)}
    if player.id in held:
        raise RuleError(N_("%(name)s holds a seat of this match, or held one: choose another "
                           "name."), name=player.name)
    return player.id
