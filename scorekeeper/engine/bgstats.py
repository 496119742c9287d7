"""A finished match as a play for BG Stats, through the link its makers document for other
apps ("Push plays to BG Stats from other apps or websites", bgstatsapp.com/support):
``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``, or the same address
through the ``bgstats://`` scheme on a phone that has the app. Nothing is sent from here: a
person taps the link, and BG Stats asks them to match the game and the players.

Every figure comes from the computed sheet (docs/rules.md): a column's total, place and win
go to each of its seats, so partners (Forty-Five's sides, Scala 40's pairs) each get their
side's. A seat goes to the person the sheet credits with it (the substitute who held it for
most hands, else the player who sat down), and a player who left is ranked where the sheet
ranks them. A Cavallo Re log never ends: it is offered once it holds a deal, each player's
score their wins, a player winning when they won a deal (a solitaire is won against the
cards); nobody deals, so nobody starts.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, tzinfo
from typing import Any
from urllib.parse import quote

from sqlalchemy import select

from ..db import db
from ..models import Hand, Match, Player, Table
from ..rules import GAMES, Sheet

WEB = "https://app.bgstatsapp.com/createPlay.html"
APP = "bgstats://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Scorekeeper"
# BG Stats' documented form of a play's date and time.
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def offered(match: Match, sheet: Sheet) -> bool:
    """Whether the match is a play to send: finished (a Cavallo Re log, once it holds a
    deal), and not abandoned."""
    if match.abandoned:
        return False
    return bool(sheet.rows) if GAMES[match.game].solitaire else sheet.finished


def source_player_id(table_id: str, player_id: int) -> str:
    """The stable id BG Stats remembers a player by: the table's and the player's ids, never
    the name (a player renamed stays the same player).

    >>> source_player_id("abc", 7)
    'scorekeeper-abc-7'
    """
    return f"scorekeeper-{table_id}-{player_id}"


def _span(match: Match) -> tuple[datetime, datetime] | None:
    """When the first hand was saved and the last one last changed (UTC), or None."""
    first = db.session.execute(select(Hand.created_at).where(Hand.match_id == match.id)
                               .order_by(Hand.number).limit(1)).scalar()
    last = db.session.execute(select(Hand.updated_at).where(Hand.match_id == match.id)
                              .order_by(Hand.number.desc()).limit(1)).scalar()
    return None if first is None or last is None else (first, last)


def play(match: Match, sheet: Sheet, zone: tzinfo | None = None) -> dict[str, Any]:
    """The play BG Stats imports, its date in ``zone``: by default the server's own, the
    table's (the sheet page is shared by every browser, so it cannot take one viewer's)."""
    game = GAMES[match.game]
    seats = {s.seat: s.player for s in match.seats}
    roster = sheet.roster
    credited = [c for c in roster.credit if isinstance(c, int)]
    others = {p.id: p for p in db.session.execute(
        select(Player).where(Player.id.in_(credited))).scalars()} if credited else {}
    column = {seat: i for i, seats_of in enumerate(sheet.columns) for seat in seats_of}
    players = []
    for seat in sorted(column):
        person = roster.credit[seat] if seat < len(roster.credit) else None
        player = others.get(person, seats[seat])
        i = column[seat]
        winner = (sheet.totals[i] > 0) if game.solitaire else i in sheet.winners
        players.append({
            "name": player.name, "sourcePlayerId": source_player_id(match.table_id, player.id),
            "score": sheet.totals[i], "rank": sheet.places[i], "winner": winner,
            "startPlayer": not game.solitaire and seat == match.first_dealer, "role": ""})
    span = _span(match)
    start = span[0] if span else match.created_at
    minutes = max(0, int((span[1] - span[0]).total_seconds() // 60)) if span else 0
    table = db.session.get(Table, match.table_id)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"scorekeeper-{match.table_id}-{match.id}",
        "playDate": start.replace(tzinfo=UTC).astimezone(zone).strftime(DATE_FORMAT),
        "durationMin": minutes,
        "location": table.name if table is not None else "",
        "game": {"name": game.name, "sourceGameId": game.key,
                 "highestWins": not game.lower_wins, "noPoints": False},
        "players": players,
    }


def links(match: Match, sheet: Sheet, zone: tzinfo | None = None) -> dict[str, str] | None:
    """The web link and the app's link of the match's play, or None when it is no play to
    send (:func:`offered`)."""
    if not offered(match, sheet):
        return None
    data = quote(json.dumps(play(match, sheet, zone), ensure_ascii=False,
                            separators=(",", ":")), safe="")
    return {"web": f"{WEB}?data={data}", "app": f"{APP}?data={data}"}
