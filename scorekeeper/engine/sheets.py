"""The one road from stored inputs to a computed sheet: every page, PDF, export and
statistic reads :func:`compute_sheet`, cached by the match's version."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, exists, select

from ..db import db
from ..models import Hand, Match, Player, TournamentTable
from ..rules import GAMES, RuleError, Sheet
from .cache import cache
from .schema import FORMAT

_HANDS = (select(Hand.__table__.c.data).where(Hand.__table__.c.match_id == bindparam("match"))
          .order_by(Hand.__table__.c.number))
# Whether a match is a tournament table's: asked only when a sheet with changes of who plays
# is computed (once per version; a match without them is scored the same either way).
_SEATED = select(exists().where(TournamentTable.__table__.c.match_id == bindparam("match")))


def sheet_weight(sheet: Sheet) -> int:
    """The bytes a cached sheet holds, estimated from its size without walking it: a row
    and player holds about 100 bytes of small objects."""
    return 2048 + 100 * len(sheet.rows) * (sheet.players + 2)


def sheets() -> Any:
    """The cache of computed sheets, by match and version."""
    return cache("sheets", sheet_weight)


def inputs_weight(hands: list[dict[str, Any]]) -> int:
    """The bytes a match's cached inputs hold, estimated without walking them (a save at
    game 1,000 costs no more than one at game 50): about 60 bytes a value, a match's
    hands as large as the larger of its first and its last."""
    if not hands:
        return 512
    values = max(len(hand) + sum(len(v) for v in hand.values() if isinstance(v, list))
                 for hand in (hands[0], hands[-1]))
    return 512 + 60 * values * len(hands)


def hand_inputs() -> Any:
    """The cache of matches' stored inputs, by match and version."""
    return cache("inputs", inputs_weight)


def stored_hands(match: Match) -> tuple[dict[str, Any], ...]:
    """The inputs of the match's stored hands in order, read once per version: a tuple, so
    that no caller can add to what every later request of the worker reads (a change is a
    new list, stored by the ledger)."""
    return hand_inputs().get((match.id, match.version), lambda: tuple(
        db.session.connection().execute(_HANDS, {"match": match.id}).scalars()))


def starting_players(match: Match) -> int:
    """How many seats the match began with: its seats but those of the players who joined it
    (each holds a seat while its join is stored)."""
    return len(match.seats) - sum(change.get("kind") == "join" for change in match.roster)


def in_tournament(match: Match) -> bool:
    """Whether ``match`` is a table's match of a tournament evening: one query."""
    return bool(db.session.connection().scalar(_SEATED, {"match": match.id}))


def whole_hand(match: Match, number: int, inputs: Any) -> bool:
    """Whether hand ``number``, with ``inputs`` in place of what is stored, is a whole hand of
    the match's sheet (one of its rows) and not a part of one still being entered (Navawhist's
    bids): what Undo and Redo say depends on it (engine.history.step_label)."""
    hands = list(stored_hands(match))
    hands[number - 1:number] = [inputs]
    try:
        return number <= len(compute_sheet(match, hands).rows)
    except RuleError:
        return False


def compute_sheet(match: Match, hands: list[dict[str, Any]] | None = None,
                  previous: Sheet | None = None, *,
                  roster: list[dict[str, Any]] | None = None) -> Sheet:
    """The match's sheet, from its stored hands (cached by version) or from ``hands``;
    ``previous``, the sheet of the first of ``hands``, is resumed from where the game can
    (hands added at the end score only those); ``roster``, the changes of who plays when
    they are not the stored ones (a change about to be stored)."""
    game = GAMES[match.game]
    roster = match.roster if roster is None else roster
    # A match nobody joined or left is scored as every match was before anyone could; a
    # tournament's takes no join and no sit-out (docs/rules.md#people-who-come-and-go, case 28).
    changes: dict[str, Any] = {"roster": roster} if roster else {}
    if roster and in_tournament(match):
        changes["tournament"] = True
    if previous is not None and hands is not None:
        return game.extend_sheet(previous, hands, first_dealer=match.first_dealer,
                                 **changes, **match.options)
    if hands is not None:
        return game.build_sheet(starting_players(match), hands,
                                first_dealer=match.first_dealer, **changes, **match.options)
    return sheets().get((match.id, match.version),
                        lambda: compute_sheet(match, stored_hands(match)))


def people(match: Match, *changes: Any) -> dict[Any, str]:
    """The names of the people the match's changes of who plays name (joiners,
    substitutes), by their id: those it holds now, and those of ``changes`` (stored
    changes, or what Undo and Redo would take back: they may name someone no longer in it)."""
    rosters = [match.roster] + [(part or {}).get("roster") or []
                                for change in changes if change is not None
                                for part in (change.old, change.new)]
    ids = sorted({change["person"] for roster in rosters for change in roster
                  if isinstance(change.get("person"), int)})
    if not ids:
        return {}
    return dict(db.session.execute(select(Player.id, Player.name)
                                   .where(Player.id.in_(ids))).all())


def sheet_json(match: Match, sheet: Sheet) -> dict[str, Any]:
    """The computed sheet as JSON-able data: what /matches/<id>.json returns."""
    names, roster, named = match.names, sheet.roster, people(match)

    def who(person: Any, seat: int) -> str:
        return names[seat] if person is None else named.get(person, names[seat])

    def player(seat: int, name: str) -> dict[str, Any]:
        if seat >= len(roster.order):  # pragma: no cover - every game's sheet has a roster
            return {"seat": seat, "name": name}
        return {"seat": seat, "name": name, "turn": roster.order.index(seat),
                "state": roster.states[seat].value, "entry": roster.entries[seat],
                "left_after": roster.left_after[seat],
                "held_by": [{"name": who(h.person, seat), "from_hand": h.hand,
                             "hands": h.hands} for h in roster.holders[seat]],
                "credited": who(roster.credit[seat], seat)}

    return {
        "format": FORMAT,  # engine/schema.py's MatchSheet
        "id": match.id,
        "game": match.game,
        "options": dict(sheet.options),
        "first_dealer": match.first_dealer,
        "players": [player(i, name) for i, name in enumerate(names)],
        # Who came and went, in the order it took effect (a sit-out's last hand: None while
        # it lasts).
        "changes": [{"kind": m.kind.value, "seat": m.seat, "name": names[m.seat],
                     "from_hand": m.hand, "last_hand": m.last,
                     "person": None if m.person is None else named.get(m.person),
                     "total": m.total} for m in roster.marks],
        "columns": [list(c) for c in sheet.columns],
        "hands": [
            {"number": r.number, "dealer": r.dealer, "inputs": dict(r.inputs),
             "points": list(r.points), "totals": list(r.totals),
             "notes": [note and note.label for note in r.notes],
             "annulled": r.annulled, "events": [e.label for e in r.events],
             "presence": [p.value for p in r.presence]}
            for r in sheet.rows
        ],
        "totals": list(sheet.totals),
        "ranking": [
            {"place": place, "column": i, "seats": list(sheet.columns[i]),
             "names": [names[s] for s in sheet.columns[i]], "total": sheet.totals[i]}
            for i, place in sorted(enumerate(sheet.places), key=lambda p: (p[1], p[0]))
        ],
        "winners": list(sheet.winners),
        "status": "finished" if sheet.finished else "in progress",
        "details": sheet.status.as_json(),
        "next": None if sheet.next is None else {
            "number": sheet.next.number, "dealer": sheet.next.dealer,
            "seats": list(sheet.next.seats), "info": sheet.next.info.as_json()},
        "version": match.version,
    }
