"""People who come and go at a tournament evening, through the web (TOURNAMENTS.md, "People who
come and go"; docs/rules.md#people-who-come-and-go, case 28): a table's match takes a
substitute or a leaver and no join or sit-out, from its own table's phone or the
organiser's; a substitute plays for the entrant, who keeps the result; a leaver abandons
(last place, the table's lowest match points); a late entrant joins a Danish evening between
rounds. Every expectation is worked out here from TOURNAMENTS.md and the matches' own
sheets."""

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
    assert 'value="join"' not in page.get_data(as_text=True) and "Sit out" not in text
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


def abandoned_table(sheet: dict[str, Any], leaver: str, *,
                    lower_wins: bool = False) -> dict[str, tuple]:
    """TOURNAMENTS.md, "Abandoning", at a table of players alone: match points from the
    totals as they stood (in the game's direction), the leaver then taking the lowest of
    them and the last place; the others placed by total (ties sharing)."""
    sign = -1 if lower_wins else 1
    names = [p["name"] for p in sheet["players"]]
    totals = dict(zip(names, sheet["totals"], strict=True))
    n = len(names)
    average = Fraction(sum(totals.values()), n)
    match_points = {name: sign * (totals[name] - average) for name in names}
    lowest = min(match_points.values())
    out = {leaver: (Fraction(0), lowest, False)}
    staying = [name for name in names if name != leaver]
    for name in staying:
        better = sum(sign * totals[o] > sign * totals[name] for o in staying)
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


def test_scala40_alone_plays_on_without_its_leaver(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    tournament_id = organiser.create("scala40", EIGHT, opt_end="deals", opt_deals=3)
    phones = [table_phone(app, link) for link in organiser.seat(tournament_id)]
    rng = random.Random(4)
    phone, other = phones
    play_rummy(phone, rng, "scala40/deal", 1)
    leaver = phone.sheet(phone.match_id)["players"][2]["name"]
    ok(change(phone, phone.match_id, "leave", seat=2))
    # Scala 40 played alone goes on: the leaver is counted out from the next deal.
    while (sheet := phone.sheet(phone.match_id))["next"] is not None:
        seats = sheet["next"]["seats"]
        assert 2 not in seats
        closer = rng.choice(seats)
        data = {"version": sheet["version"], "number": sheet["next"]["number"],
                "action": "save", "closer": closer}
        data.update({f"values-{s}": rng.randrange(2, 60) for s in seats if s != closer})
        ok(phone.post(f"/matches/{phone.match_id}/scala40/deal", data))
    sheet = organiser.sheet(phone.match_id)
    assert sheet["status"] == "finished" and len(sheet["hands"]) == 3
    play_rummy(other, rng, "scala40/deal")
    expected = {**abandoned_table(sheet, leaver, lower_wins=True),
                **expected_round([organiser.sheet(other.match_id)], lower_wins=True)}
    state = organiser.state(tournament_id)
    assert shown(state["standings"]) == expected_standings(draw(EIGHT, 2026), [expected])


def danish_tables(standing: list[str], sizes: list[int],
                  previous: list[list[str]]) -> list[list[str]]:
    """TOURNAMENTS.md, "Danish": the standing in blocks of the table sizes, then the first
    swap (table i's entrants from the lowest standing up, table i + 1's from the highest
    down) that lowers the repeats at two adjacent tables, again from table 1, until none
    does; seats follow standing."""
    before = {name: t for t, table in enumerate(previous) for name in table}

    def repeats(table: list[str]) -> int:
        return sum(a in before and before.get(b) == before[a]
                   for i, a in enumerate(table) for b in table[i + 1:])

    tables, start = [], 0
    for size in sizes:
        tables.append(standing[start:start + size])
        start += size
    swapped = True
    while swapped:
        swapped = False
        for i in range(len(tables) - 1):
            here, there = tables[i], tables[i + 1]
            for x in sorted(here, key=standing.index, reverse=True):
                for y in sorted(there, key=standing.index):
                    a = [y if n == x else n for n in here]
                    b = [x if n == y else n for n in there]
                    if repeats(a) + repeats(b) < repeats(here) + repeats(there):
                        tables[i], tables[i + 1] = a, b
                        swapped = True
                        break
                if swapped:
                    break
            if swapped:
                break
    return [sorted(table, key=standing.index) for table in tables]


def add_entrant(organiser, tournament_id: str, name: str):
    return organiser.post(f"/tournaments/{tournament_id}/entrants", {"entrant": name})


def test_a_late_entrant_joins_a_danish_evening_between_rounds(app: Flask) -> None:
    organiser, tournament_id, phones = evening(app, rounds=2)
    rng = random.Random(11)
    play(phones[0], rng)
    # Round 1 is still being played at table 2: not between rounds yet.
    refused = add_entrant(organiser, tournament_id, "Ivy")
    assert refused.status_code == 422
    assert "Round 1 is being played: a late entrant is added between rounds" in text_of(refused)
    assert len(organiser.state(tournament_id)["entrants"]) == 8
    play(phones[1], rng)
    page = text_of(organiser.client.get(f"/tournaments/{tournament_id}"))
    assert "A late entrant is seated from round 2 on" in page
    ok(add_entrant(organiser, tournament_id, "Ivy"))
    first = expected_round([organiser.sheet(p.match_id) for p in phones], lower_wins=False)
    order = draw(EIGHT, 2026)
    state = organiser.state(tournament_id)
    # The lowest in the standings, with 0 points, even below an entrant with fewer match
    # points; round 1 shown as sat out (0 points, not a loss).
    waiting = [*expected_standings(order, [first]), ("Ivy", Fraction(0), Fraction(0), 0)]
    assert any(row[2] < 0 for row in waiting[:-1])
    assert shown(state["standings"]) == waiting
    assert shown(state["rounds"][0]["standings"]) == waiting
    assert state["rounds"][0]["sitting_out"] == ["Ivy"]
    assert state["late_entrants"] == [{"entrant": "Ivy", "from_round": 2}]
    tables_before = state["rounds"][0]["tables"]
    # Round 2 (the last): nine sit 3, 3, 3, Ivy as the lowest in the standing.
    phones = [table_phone(app, link) for link in organiser.seat(tournament_id)]
    state = organiser.state(tournament_id)
    assert state["rounds"][0]["tables"] == tables_before  # never re-drawn
    standing = [row[0] for row in waiting]
    expected_tables = danish_tables(standing, [3, 3, 3],
                                    [t["entrants"] for t in tables_before])
    assert [t["entrants"] for t in state["rounds"][1]["tables"]] == expected_tables
    assert state["rounds"][1]["sitting_out"] == []
    # The last round is seated: nobody can be added any more.
    refused = add_entrant(organiser, tournament_id, "Jo")
    assert refused.status_code == 422
    assert "The last round is seated: no entrant can be added any more." in text_of(refused)
    for phone in phones:
        play(phone, rng)
    second = expected_round([organiser.sheet(p.match_id) for p in phones], lower_wins=False)
    state = organiser.state(tournament_id)
    assert len(state["entrants"]) == 9
    assert shown(state["standings"]) == expected_standings([*order, "Ivy"], [first, second])
    text, _count, _pages = pdf_text(organiser.client.get(
        f"/tournaments/{tournament_id}/standings.pdf"))
    assert "Ivy sits out." in text


def test_a_round_robin_or_a_knockout_takes_no_late_entrant(app: Flask) -> None:
    for fmt in ("groups", "knockout"):
        organiser, tournament_id, phones = evening(app, format=fmt)
        rng = random.Random(2)
        for phone in phones:
            play(phone, rng)
        before = organiser.state(tournament_id)
        refused = add_entrant(organiser, tournament_id, "Ivy")
        assert refused.status_code == 422
        assert ("Entrants can be added before round 1 only: a round-robin group and a "
                "knockout are closed once drawn.") in text_of(refused)
        assert organiser.state(tournament_id) == before
        page = text_of(organiser.client.get(f"/tournaments/{tournament_id}"))
        assert "A late entrant is seated" not in page
