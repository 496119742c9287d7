"""Running a tournament evening (issue 43): a round is drawn for the organiser's phones alone,
may have two entrants swapped, and is shown everywhere once published; each entrant's phone
says where to go; a table's code checks its phone in; a finished table's phone is offered
its next table.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import datetime, timedelta

from flask import Flask
from sqlalchemy import select, text

from scorekeeper import create_app
from scorekeeper.db import db, downgrade, upgrade
from scorekeeper.models import Table as TableRow
from scorekeeper.models import TournamentRound, TournamentTable

from .conftest import Table, database_url
from .test_api import make_token, read
from .test_tournaments_web import NAVA, Organiser, ok, play_rummy, table_phone

EIGHT = NAVA[:8]


def tokens(app: Flask, tournament_id: str, number: int) -> list[str]:
    """The codes of round ``number``'s tables, as stored (the page shows none before the
    round is published)."""
    with app.app_context():
        return list(db.session.scalars(
            select(TournamentTable.token).where(TournamentTable.tournament_id == tournament_id,
                                                TournamentTable.round == number)
            .order_by(TournamentTable.number)))


def evening(app: Flask, **fields) -> tuple[Organiser, str]:
    organiser = Organiser(app.test_client(), app)
    return organiser, organiser.create("quarantotto", EIGHT, rounds=2, **fields)


def test_a_drawn_round_is_the_organisers_until_published(app: Flask) -> None:
    at = datetime(2026, 12, 4, 21, 0)
    app.config["NOW"] = lambda: at
    organiser, tournament_id = evening(app, round_minutes=30)
    follower = Table(app.test_client())
    organiser.draw(tournament_id)
    drawn = organiser.state(tournament_id)["rounds"]
    assert [r["published"] for r in drawn] == [False]
    tables = drawn[0]["tables"]
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Round 1 is drawn" in page and "Publish round 1" in page
    # Nobody else sees it: the page, the JSON, the standings, the table screen.
    assert follower.client.get(f"/tournaments/{tournament_id}.json").get_json()["rounds"] == []
    seen = follower.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Table 1" not in seen and "Publish" not in seen
    with app.app_context():
        table = db.session.get(TableRow, organiser.table_id)
        screen = f"/tables/{table.id}/screen/{table.screen_token}"
    assert tables[0]["match"] not in follower.client.get(screen).get_data(as_text=True)
    assert "Round 1" not in follower.client.get(f"/tournaments/{tournament_id}.ics").get_data(
        as_text=True)
    for page in ("standings", "entrants/0"):
        shown = ok(follower.client.get(f"/tournaments/{tournament_id}/{page}"), 200)
        assert "Table 1" not in shown.get_data(as_text=True)
    assert follower.client.get(f"/tournaments/{tournament_id}/rounds/1/results.pdf") \
        .status_code == 404
    token = make_token(organiser, organiser.table_id)
    assert read(app.test_client(), f"/tournaments/{tournament_id}", token).get_json()[
        "rounds"] == []
    # Its codes grant nothing yet.
    codes = tokens(app, tournament_id, 1)
    phone = Table(app.test_client())
    for method in (phone.client.get, lambda url: phone.post(url, {})):
        refused = method(f"/tournaments/keep/{codes[0]}")
        assert refused.status_code == 403
        assert "This round is not published yet" in refused.get_data(as_text=True)
    assert "/tournaments/keep/" not in organiser.client.get(
        f"/tournaments/{tournament_id}/rounds/1").get_data(as_text=True)
    # It is published before the next is seated or it is closed.
    for path in ("rounds", "close"):
        refused = organiser.post(f"/tournaments/{tournament_id}/{path}",
                                 {"version": organiser.version(tournament_id)})
        assert refused.status_code == 422
        assert "Round 1 is drawn: publish it first." in refused.get_data(as_text=True)
    assert organiser.state(tournament_id)["rounds"][0]["closed"] is False
    # A swap between tables: recorded, shown, and the matches seat them so.
    anna, carla = tables[0]["entrants"][1], tables[1]["entrants"][2]
    number = {name: n for n, name in enumerate(EIGHT)}
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds/1/swap",
                      {"version": organiser.version(tournament_id),
                       "first": number[anna], "second": number[carla]}))
    swapped = organiser.state(tournament_id)["rounds"][0]
    assert swapped["tables"][0]["entrants"][1] == carla
    assert swapped["tables"][1]["entrants"][2] == anna
    assert swapped["swaps"] == [[anna, carla]]
    assert [p["name"] for p in organiser.sheet(tables[0]["match"])["players"]][1] == carla
    assert [p["name"] for p in organiser.sheet(tables[1]["match"])["players"]][2] == anna
    assert f"Swapped {anna} and {carla}" in organiser.client.get(
        f"/tournaments/{tournament_id}/rounds/1").get_data(as_text=True)
    # Two at one table cannot be swapped: said, nothing stored.
    same = tables[0]["entrants"]
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds/1/swap",
                             {"version": organiser.version(tournament_id),
                              "first": number[same[0]], "second": number[same[2]]})
    assert refused.status_code == 422
    assert f"{same[0]} and {same[2]} sit at the same table" in refused.get_data(as_text=True)
    assert organiser.state(tournament_id)["rounds"][0]["swaps"] == [[anna, carla]]
    # Publishing shows it to everyone and starts its clock then, not at the draw.
    at += timedelta(minutes=10)
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds/1/publish",
                      {"version": organiser.version(tournament_id)}))
    state = follower.client.get(f"/tournaments/{tournament_id}.json").get_json()
    assert state["rounds"][0]["published"] is True
    assert state["rounds"][0]["started_at"] == "2026-12-04T21:10:00Z"
    assert state["rounds"][0]["swaps"] == [[anna, carla]]
    assert read(app.test_client(), f"/tournaments/{tournament_id}", token).get_json() == state
    seen = follower.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "Table 1" in seen and f"Swapped {anna} and {carla}" in seen
    assert "Round 1" in follower.client.get(f"/tournaments/{tournament_id}.ics").get_data(
        as_text=True)
    at += timedelta(minutes=5)
    assert "Round 1: 25 min left" in organiser.client.get(f"/tournaments/{tournament_id}").get_data(
        as_text=True)
    kept = table_phone(app, f"/tournaments/keep/{codes[0]}")
    assert kept.match_id == tables[0]["match"]
    # A published round's seating stays as it is.
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds/1/swap",
                             {"version": organiser.version(tournament_id),
                              "first": number[anna], "second": number[carla]})
    assert refused.status_code == 422
    assert "can no longer be changed" in refused.get_data(as_text=True)


def test_each_entrant_sees_where_to_go_on_its_phone_and_on_the_screen(app: Flask) -> None:
    organiser, tournament_id = evening(app)
    phone = Table(app.test_client())
    page = phone.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "This is me: Ada" in page
    ok(phone.post(f"/tournaments/{tournament_id}/me", {"entrant": 0}))  # Ada
    page = phone.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "No round is published yet" in page and "This is not me" in page
    organiser.draw(tournament_id)
    assert "Round 1: table" not in phone.client.get(
        f"/tournaments/{tournament_id}").get_data(as_text=True)
    # The page's poll learns of the round within one poll once it is published.
    since = organiser.version(tournament_id)
    assert phone.client.get(f"/tournaments/{tournament_id}/where?since={since}").status_code \
        == 204
    organiser.publish(tournament_id, 1)
    tables = organiser.state(tournament_id)["rounds"][0]["tables"]
    at = next(t for t in tables if "Ada" in t["entrants"])
    seat = at["entrants"].index("Ada") + 1
    line = (f"Round 1: table {at['number']}, seat {seat}, "
            f"{at['entrants'][at['dealer']]} deals first")
    polled = phone.client.get(f"/tournaments/{tournament_id}/where?since={since}")
    assert polled.status_code == 200 and line in polled.get_data(as_text=True)
    # A page that showed no round published loads again whole: it shows round 1 everywhere.
    polled = phone.client.get(f"/tournaments/{tournament_id}/where?since={since}&published=0")
    assert polled.headers["HX-Refresh"] == "true"
    version = organiser.version(tournament_id)
    assert "HX-Refresh" not in phone.client.get(
        f"/tournaments/{tournament_id}/where?since={version - 1}&published=1").headers
    assert line in phone.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    # The phone changes its mind: it is Bea; then nobody.
    ok(phone.post(f"/tournaments/{tournament_id}/me", {"entrant": 1}))
    assert "Round 1: table" in phone.client.get(f"/tournaments/{tournament_id}").get_data(
        as_text=True)
    ok(phone.post(f"/tournaments/{tournament_id}/me", {}))
    assert "Round 1: table" not in phone.client.get(
        f"/tournaments/{tournament_id}").get_data(as_text=True)
    # The screen lists everyone, by name, with their table and seat.
    screen = phone.client.get(f"/tournaments/{tournament_id}/screen").get_data(as_text=True)
    for table in tables:
        for place, name in enumerate(table["entrants"], start=1):
            assert f'<span class="goes-name">{name}</span>' in screen
            assert f"table {table['number']}, seat {place}</span>" in screen
    assert "js/rotate.js" in screen
    version = organiser.version(tournament_id)
    polled = phone.client.get(f"/tournaments/{tournament_id}/screen?since={version}",
                              headers={"HX-Request": "true"})
    assert polled.status_code == 204


def test_the_tournaments_screen_before_a_round_is_published(app: Flask) -> None:
    organiser, tournament_id = evening(app)
    organiser.draw(tournament_id)
    follower = app.test_client()
    screen = follower.get(f"/tournaments/{tournament_id}/screen").get_data(as_text=True)
    assert "No round is published yet" in screen and "goes-name" not in screen


def test_a_tables_code_checks_its_phone_in_and_sends_a_stray_phone_to_its_table(
        app: Flask) -> None:
    organiser, tournament_id = evening(app)
    organiser.draw(tournament_id)
    links = organiser.publish(tournament_id, 1)
    tables = organiser.state(tournament_id)["rounds"][0]["tables"]
    seating = organiser.client.get(f"/tournaments/{tournament_id}/rounds/1").get_data(
        as_text=True)
    assert seating.count("Not checked in yet") == 2 and "Checked in<" not in seating
    # A phone that said it is an entrant of table 2 scans table 1's code: sent to table 2.
    stray = Table(app.test_client())
    entrant = EIGHT.index(tables[1]["entrants"][0])
    ok(stray.post(f"/tournaments/{tournament_id}/me", {"entrant": entrant}))
    for method in (stray.client.get, lambda url: stray.post(url, {})):
        refused = method(links[0])
        assert refused.status_code == 403
        assert "You are at table 2 in round 1." in refused.get_data(as_text=True)
    seating = organiser.client.get(f"/tournaments/{tournament_id}/rounds/1").get_data(
        as_text=True)
    assert seating.count("Not checked in yet") == 2
    refused = stray.post(f"/matches/{tables[0]['match']}/undo", {"version": 0})
    assert refused.status_code == 403
    # At its own table's code it checks in and keeps that table's match.
    kept = table_phone(app, links[1])
    assert kept.match_id == tables[1]["match"]
    ok(stray.post(links[1], {}))
    seating = organiser.client.get(f"/tournaments/{tournament_id}/rounds/1").get_data(
        as_text=True)
    assert seating.count("Not checked in yet") == 1 and seating.count("Checked in<") == 1
    page = organiser.client.get(f"/tournaments/{tournament_id}").get_data(as_text=True)
    assert "not checked in yet" in page and "· <span class=\"checked-in\">checked in" in page


NEXT = re.compile(r'hx-get="(/tournaments/[^"]+/next/1/(\d)[^"]*)"')


def test_a_finished_tables_phone_is_offered_its_next_table_in_one_tap(app: Flask) -> None:
    organiser, tournament_id = evening(app)
    links = organiser.seat(tournament_id)
    phones = [table_phone(app, link) for link in links]
    rng = random.Random(3)
    for phone in phones:
        play_rummy(phone, rng, "quarantotto/game")
    sheet = phones[0].client.get(f"/matches/{phones[0].match_id}").get_data(as_text=True)
    asks = NEXT.search(sheet).group(1).replace("&amp;", "&")
    assert ok(phones[0].client.get(asks), 200).get_data(as_text=True).count("go to table") == 0
    organiser.draw(tournament_id)  # drawn, not published: nothing to offer yet
    waiting = ok(phones[0].client.get(asks), 200).get_data(as_text=True)
    assert "is published" not in waiting
    since = re.search(r'since=(\d+)', waiting).group(1)
    assert phones[0].client.get(f"{asks}?since={since}").status_code == 204
    organiser.publish(tournament_id, 2)
    state = organiser.state(tournament_id)
    first, second = state["rounds"][0]["tables"], state["rounds"][1]["tables"]
    # Without a claim: the table most of this table's entrants go to (the lowest on a tie).
    going = Counter(t["number"] for t in second for name in first[0]["entrants"]
                    if name in t["entrants"])
    most = min(going, key=lambda t: (-going[t], t))
    offered = ok(phones[0].client.get(f"{asks}?since={since}"), 200).get_data(as_text=True)
    assert f"Round 2 is published: go to table {most}" in offered
    keep = re.search(r'action="(/tournaments/keep/[^"]+)"', offered).group(1)
    moved = ok(phones[0].post(keep, {}))
    assert moved.headers["Location"].split("/")[2].split("?")[0] == second[most - 1]["match"]
    # A phone that said it is an entrant goes to that entrant's table; a follower gets a
    # link to the tournament's page.
    name = first[1]["entrants"][0]
    mine = next(t["number"] for t in second if name in t["entrants"])
    ok(phones[1].post(f"/tournaments/{tournament_id}/me", {"entrant": EIGHT.index(name)}))
    asks = asks.replace("/next/1/1", "/next/1/2")
    offered = ok(phones[1].client.get(asks), 200).get_data(as_text=True)
    assert f"Round 2 is published: go to table {mine}" in offered
    assert "/tournaments/keep/" in offered
    follower = app.test_client().get(asks).get_data(as_text=True)
    assert "Round 2 is published: go to table" in follower
    assert "/tournaments/keep/" not in follower
    assert f'href="/tournaments/{tournament_id}"' in follower


def test_a_swap_of_two_pairs_moves_both_partners(app: Flask) -> None:
    organiser = Organiser(app.test_client(), app)
    pairs = [f"{a} + {b}" for a, b in zip(NAVA[0::2], NAVA[1::2], strict=True)]
    pairs += ["Mo + Ned", "Oz + Pia"]  # 8 pairs: 4 tables of two pairs
    tournament_id = organiser.create("scala40", pairs, pairs="y", opt_end="deals",
                                     opt_deals=3)
    organiser.draw(tournament_id)
    tables = organiser.state(tournament_id)["rounds"][0]["tables"]
    first, second = tables[0]["entrants"][0], tables[1]["entrants"][1]
    ok(organiser.post(f"/tournaments/{tournament_id}/rounds/1/swap",
                      {"version": organiser.version(tournament_id),
                       "first": pairs.index(first), "second": pairs.index(second)}))
    seats = [[p["name"] for p in organiser.sheet(t["match"])["players"]] for t in tables[:2]]
    # A pair fills seats P1 Q1 P2 Q2: the first pair seats 0 and 2, the second 1 and 3.
    assert [seats[0][0], seats[0][2]] == second.split(" + ")
    assert [seats[1][1], seats[1][3]] == first.split(" + ")
    state = organiser.state(tournament_id)["rounds"][0]
    assert state["tables"][0]["entrants"][0] == second
    assert state["tables"][1]["entrants"][1] == first
    # Once a hand is saved at a table of the round (the organiser's phones may), no swap.
    match = tables[0]["match"]
    sheet = organiser.sheet(match)
    ok(organiser.post(f"/matches/{match}/scala40/deal", {
        "version": sheet["version"], "number": 1, "action": "save", "closer": 0,
        **{f"values-{s}": 10 for s in range(1, 4)}}))
    refused = organiser.post(f"/tournaments/{tournament_id}/rounds/1/swap",
                             {"version": organiser.version(tournament_id),
                              "first": pairs.index(first), "second": pairs.index(second)})
    assert refused.status_code == 422
    assert "A hand is saved in round 1" in refused.get_data(as_text=True)


def test_rounds_seated_before_the_migration_are_published(tmp_path) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        upgrade(revision="c4a9e2f7b1d5")
        for statement in (
                "INSERT INTO tables (id, name, secret, screen_token, calendar_token, zone,"
                " version, created_at, updated_at) VALUES ('t-one', 'Club', 's', 'k', 'c',"
                " 'Europe/Rome', 0, '2026-12-01', '2026-12-01')",
                "INSERT INTO tournaments (id, table_id, name, game, options, format, rounds,"
                " size, pairs, go_on, seed, version, created_at, warning_minutes) VALUES"
                " ('e-one', 't-one', 'Evening', 'navawhist', '{}', 'danish', 2, 4, false, 2,"
                " 1, 2, '2026-12-01', 5)",
                "INSERT INTO tournament_rounds (tournament_id, number, sitting_out, final,"
                " closed, closed_early, started_at) VALUES ('e-one', 1, '[]', false, true,"
                " '[]', '2026-12-01 21:00:00'), ('e-one', 2, '[]', false, false, '[]', NULL)"):
            db.session.execute(text(statement))
        db.session.commit()
        upgrade()
        rows = db.session.scalars(select(TournamentRound).order_by(TournamentRound.number)).all()
        assert rows[0].published_at == datetime(2026, 12, 1, 21, 0)
        assert rows[1].published_at is not None  # seated before clocks: published now
        assert [r.swaps for r in rows] == [[], []]
        db.session.remove()
        downgrade(revision="c4a9e2f7b1d5")
        upgrade()
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
