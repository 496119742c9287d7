"""People who come and go at a tournament evening, through the web (TOURNAMENTS.md, "People
who come and go"; RULES.md, decided case 28): a table's match takes a substitute or a leaver
and no join or sit-out, from its own table's phone or the organiser's; a substitute plays for
the entrant, who keeps the result; a leaver abandons (last place, the table's lowest match
points); a late entrant joins a Danish evening between rounds. Every expectation is worked
out here from TOURNAMENTS.md and the matches' own sheets."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any

from flask import Flask

from scorekeeper.db import db
from scorekeeper.models import Match, Player

from .conftest import pdf_text
from .test_tournaments_web import (
    Organiser,
    draw,
    expected_round,
    expected_standings,
    ok,
    play_rummy,
    shown,
    table_phone,
)

EIGHT = ["Ada", "Bea", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal"]


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def change(phone, match_id: str, action: str, **fields: Any):
    """One change of who plays, posted from ``phone``'s page of the match."""
    return phone.post(f"/matches/{match_id}/players", {
        "version": phone.sheet(match_id)["version"], "action": action, **fields})


def play(phone, rng: random.Random, games: int | None = None) -> None:
    """Play ``games`` Quarantotto games at ``phone``'s table (all that are left: None)."""
    play_rummy(phone, rng, "quarantotto/game", games)


def evening(app: Flask, **fields: Any) -> tuple[Organiser, str, list]:
    """An evening of Quarantotto for the eight, round 1 seated: the organiser, the
    tournament and its two tables' phones."""
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("quarantotto", EIGHT, **fields)
    phones = [table_phone(app, link) for link in organiser.seat(tournament_id)]
    return organiser, tournament_id, phones


def stored(app: Flask, match_id: str) -> tuple[int, list]:
    with app.app_context():
        match = db.session.get(Match, match_id)
        return match.version, list(match.roster)


def test_a_tournament_match_takes_no_join_and_no_sit_out(app: Flask) -> None:
    organiser, _tournament, phones = evening(app)
    phone, other = phones
    play(phone, random.Random(1), 1)
    page = ok(phone.client.get(f"/matches/{phone.match_id}/players"), 200)
    text = text_of(page)
    assert "Substitute" in text and "Leaves" in text
    assert "Add a player" not in text and "Sit out" not in text
    assert "A tournament match takes no new player and no sitting out" in text
    before = stored(app, phone.match_id)
    for action, fields in (("join", {"name": "Zed"}), ("sit_out", {"seat": 1})):
        refused = change(phone, phone.match_id, action, **fields)
        assert refused.status_code == 422
        assert "A tournament match takes no new player and no sitting out" in text_of(refused)
        assert stored(app, phone.match_id) == before
    with app.app_context():  # the refused joiner was not added to the table either
        assert db.session.query(Player).filter_by(name="Zed").count() == 0
    # A table's phone changes who plays at its own table only.
    before = stored(app, other.match_id)
    refused = change(phone, other.match_id, "substitute", seat=0, name="Zed")
    assert refused.status_code == 403
    assert "kept by its own table’s phone and the organiser’s" in text_of(refused)
    refused = change(phone, other.match_id, "leave", seat=0)
    assert refused.status_code == 403
    assert stored(app, other.match_id) == before
    # The organiser's phone may record one at any table.
    ok(change(organiser, other.match_id, "substitute", seat=2, name="Zed"))
    assert stored(app, other.match_id)[1] == [
        {"kind": "substitute", "seat": 2, "person": stored_player(app, "Zed"), "after": 0}]


def stored_player(app: Flask, name: str) -> int:
    with app.app_context():
        return db.session.query(Player).filter_by(name=name).one().id


def test_a_substitute_plays_for_the_entrant_who_keeps_the_result(app: Flask) -> None:
    organiser, tournament_id, phones = evening(app)
    rng = random.Random(5)
    phone = phones[0]
    play(phone, rng, 1)
    sheet = phone.sheet(phone.match_id)
    entrant = sheet["players"][1]["name"]
    ok(change(phone, phone.match_id, "substitute", seat=1, name="Zoe"))
    for each in phones:
        play(each, rng)
    sheets = [organiser.sheet(each.match_id) for each in phones]
    assert all(s["status"] == "finished" for s in sheets)
    # The seat keeps its entrant's name on the sheet: the entrant keeps the result.
    assert sheets[0]["players"][1]["name"] == entrant
    expected = expected_round(sheets, lower_wins=False)
    state = organiser.state(tournament_id)
    assert shown(state["standings"]) == expected_standings(draw(EIGHT, 2026), [expected])
    assert "Zoe" not in [row["entrant"] for row in state["standings"]]
    said = f"Zoe plays for {entrant} from hand 2"
    assert said in text_of(organiser.client.get(f"/matches/{phone.match_id}"))
    assert said in text_of(organiser.client.get(f"/tournaments/{tournament_id}"))
    for pdf in (f"/tournaments/{tournament_id}/rounds/1.pdf",
                f"/tournaments/{tournament_id}/standings.pdf"):
        text, _count, _pages = pdf_text(organiser.client.get(pdf))
        assert said in re.sub(r"\s+", " ", text), pdf


def abandoned_table(sheet: dict[str, Any], leaver: str) -> dict[str, tuple]:
    """TOURNAMENTS.md, "Abandoning", at a table of players alone where the highest total
    wins: match points from the totals as they stood, the leaver then taking the lowest of
    them and the last place; the others placed by total (ties sharing)."""
    names = [p["name"] for p in sheet["players"]]
    totals = dict(zip(names, sheet["totals"], strict=True))
    n = len(names)
    average = Fraction(sum(totals.values()), n)
    match_points = {name: totals[name] - average for name in names}
    lowest = min(match_points.values())
    out = {leaver: (Fraction(0), lowest, False)}
    staying = [name for name in names if name != leaver]
    for name in staying:
        better = sum(totals[o] > totals[name] for o in staying)
        level = sum(totals[o] == totals[name] for o in staying)
        points = Fraction(sum(n - 1 - p for p in range(better, better + level)), level)
        out[name] = (points, match_points[name], better == 0)
    return out


def test_a_leaver_abandons_the_match_as_tournaments_md_scores_it(app: Flask) -> None:
    organiser, tournament_id, phones = evening(app)
    rng = random.Random(9)
    phone, other = phones
    play(phone, rng, 2)
    leaver = phone.sheet(phone.match_id)["players"][3]["name"]
    ok(change(phone, phone.match_id, "leave", seat=3))
    sheet = organiser.sheet(phone.match_id)
    # Quarantotto does not play on without the leaver: the match ends as it stands.
    assert sheet["status"] == "finished" and len(sheet["hands"]) == 2
    assert sheet["next"] is None
    play(other, rng)
    expected = {**abandoned_table(sheet, leaver),
                **expected_round([organiser.sheet(other.match_id)], lower_wins=False)}
    state = organiser.state(tournament_id)
    ranked = expected_standings(draw(EIGHT, 2026), [expected])
    assert shown(state["standings"]) == ranked
    assert shown(state["rounds"][0]["standings"]) == ranked
    assert not state["provisional"]
    text, _count, _pages = pdf_text(organiser.client.get(
        f"/tournaments/{tournament_id}/standings.pdf"))
    assert f"{leaver} leaves after hand 2" in re.sub(r"\s+", " ", text)
    # Leaving the match does not withdraw the entrant: round 2 seats them again.
    organiser.seat(tournament_id)
    seated = [n for t in organiser.state(tournament_id)["rounds"][1]["tables"]
              for n in t["entrants"]]
    assert leaver in seated
