"""Nothing lost: history, CSV, backups that round-trip, migrations that keep data."""

from __future__ import annotations

import csv
import io
import json
import re

from sqlalchemy import inspect, text

from scorekeeper import create_app, models
from scorekeeper.db import db, downgrade, upgrade
from scorekeeper.engine.ledger import save_hand, seat_players
from scorekeeper.engine.sheets import compute_sheet, sheet_json
from scorekeeper.models import Match, Seat

from .conftest import Table, database_url

# One match of each game, stored through the same road as the web forms (save_hand).
GAMES = {
    "navawhist": (["Anna", "Bruno", "Carla"], {"hook": True}, [
        {"bids": [1, 0, 1], "tricks": [1, 0, 0]},
        {"bids": [0, 2, 1], "tricks": [0, 2, 0], "trump": "♥"},
        {"bids": [1, 1, None], "tricks": None},
    ]),
    "quarantotto": (["Anna", "Bruno", "Carla", "Dario"],
                    {"length": "players", "games": 4, "target": 200}, [
        {"closer": 0, "points": [None, "A K 7", "10+15", 12]},
        {"closer": None, "points": [3, 20, "Q", 9]},
    ]),
    "scala40": (["Anna", "Bruno", "Carla"], {}, [
        {"closer": 1, "points": ["A", None, "* K"], "never_opened": [], "closed_in_hand": False},
        {"annulled": True},
        {"closer": 0, "points": [None, 30, None], "never_opened": [2], "closed_in_hand": True},
    ]),
    "fortyfive": (["Anna", "Bruno", "Carla", "Dario"], {}, [
        {"trick_winners": [0, 1, 2, 0, 3], "bonus_seat": 2},
        {"side_tricks": [5, 0], "bonus_side": None},
    ]),
    "cavallore": (["Anna"], {}, [{"placed": 36}, {"placed": 12}, {"placed": 29, "seat": 0}]),
}


def make_app(tmp_path, name: str):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "OPEN_EDIT": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}"})
    with app.app_context():
        upgrade()
    return app


def store_matches(app) -> list[str]:
    """A match of each game, every hand checked by the rules as the web stores it."""
    ids = []
    with app.app_context():
        table = models.Table(name="Bar Sport")
        db.session.add(table)
        db.session.flush()
        for game, (names, options, hands) in GAMES.items():
            match = Match(game=game, options=options, first_dealer=0, place="Bar Sport",
                          table_id=table.id)
            for seat, player in enumerate(seat_players(table, names)):
                match.seats.append(Seat(seat=seat, player=player))
            db.session.add(match)
            db.session.commit()
            for number, data in enumerate(hands, start=1):
                save_hand(match, number, data, expected=match.version)
            ids.append(match.id)
    return ids


def sheets(app) -> dict[str, dict]:
    with app.app_context():
        out = {}
        for match in db.session.scalars(db.select(Match)):
            data = sheet_json(match, compute_sheet(match))
            data.pop("version")
            out[match.id] = data
        return out


def test_export_and_import_round_trip(tmp_path):
    source = make_app(tmp_path, "a.db")
    ids = store_matches(source)
    out = tmp_path / "backup.json"
    result = source.test_cli_runner().invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    assert "5 matches exported" in result.output
    target = make_app(tmp_path, "b.db")
    result = target.test_cli_runner().invoke(args=["import", str(out)])
    assert result.exit_code == 0, result.output
    assert "5 matches imported, 0 already here" in result.output
    assert sheets(target) == sheets(source)
    assert set(sheets(target)) == set(ids)
    # importing again adds nothing
    result = target.test_cli_runner().invoke(args=["import", str(out)])
    assert "0 matches imported, 5 already here" in result.output


def test_import_refuses_what_the_rules_refuse(tmp_path):
    app = make_app(tmp_path, "c.db")
    store_matches(app)
    data = json.loads(app.test_client().get("/backup.json").data)
    bad = data["matches"][0]
    bad["id"] = "tampered-id"
    bad["hands"][0]["data"]["tricks"] = [9, 9, 9]
    target = make_app(tmp_path, "d.db")
    with target.app_context():
        from scorekeeper.engine.backups import import_matches

        added, skipped, problems = import_matches({"format": "scorekeeper-backup",
                                                   "matches": [bad]})
    assert added == [] and skipped == 0
    assert "tampered-id" in problems[0] and "must be from 0 to 1" in problems[0]
    result = target.test_cli_runner().invoke(args=["import", str(tmp_path / "none.json")])
    assert result.exit_code != 0


def test_backup_page_moves_a_browser_s_matches(tmp_path):
    source = create_app({"TESTING": True, "SECRET_KEY": "t",
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e.db'}"})
    with source.app_context():
        upgrade()
    mine = Table(source.test_client())
    match_id = mine.new_match("navawhist", ["Anna", "Bruno"])
    mine.play_navawhist(match_id, [0, 1], [1, 1])
    Table(source.test_client()).new_match("navawhist", ["Carla", "Dario"])  # not mine
    data = json.loads(mine.client.get("/backup.json").data)
    assert [m["id"] for m in data["matches"]] == [match_id]
    target = create_app({"TESTING": True, "SECRET_KEY": "t2",
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'f.db'}"})
    with target.app_context():
        upgrade()
    phone = Table(target.test_client())
    token = phone.csrf()
    response = phone.client.post("/backup", data={
        "csrf_token": token,
        "file": (io.BytesIO(json.dumps(data).encode()), "backup.json")},
        content_type="multipart/form-data")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "1 matches added, 0 already here" in page
    # An upload takes no address: the match is here under a new one, which the page gives.
    moved = re.search(r'href="/matches/([^"]+)" data-copy-of="' + match_id, page).group(1)
    assert moved != match_id and phone.client.get(f"/matches/{match_id}").status_code == 404
    assert phone.sheet(moved)["totals"] == mine.sheet(match_id)["totals"]
    assert phone.bid(moved, 0).status_code == 303  # the importer may edit it
    # The same file again: nothing new.
    again = phone.client.post("/backup", data={
        "csrf_token": token, "file": (io.BytesIO(json.dumps(data).encode()), "backup.json")},
        content_type="multipart/form-data")
    assert "0 matches added, 1 already here" in again.get_data(as_text=True)
    response = phone.client.post("/backup", data={
        "csrf_token": token, "file": (io.BytesIO(b"not json"), "x.json")},
        content_type="multipart/form-data")
    assert response.status_code == 422
    assert "not a Scorekeeper backup" in response.get_data(as_text=True)


def test_csv_of_a_match(table, client):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(match_id, [0, 1], [1, 1])
    table.play_navawhist(match_id, [2, 1], [2, 0])
    response = client.get(f"/matches/{match_id}.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    sheet = table.sheet(match_id)
    points = rows[0].index("Anna")
    assert rows[0][points:points + 2] == ["Anna", "Bruno"]
    assert [int(v) for v in rows[1][points:points + 2]] == sheet["hands"][0]["points"]
    assert [int(v) for v in rows[-1][points:points + 2]] == sheet["totals"]


def test_history_records_entries_corrections_and_undo(table, client):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(match_id, [0, 1], [1, 1])
    sheet = table.sheet(match_id)
    edit = {"version": sheet["version"], "number": 1, "bids-0": 0, "bids-1": 1,
            "values-0": 0, "values-1": 2}
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", edit).status_code == 303
    corrected = table.sheet(match_id)["totals"]
    assert corrected != sheet["totals"]
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    # Bids and tricks of the hand make one entry; the correction says what it changed.
    assert len(re.findall(r"<li[ >]", page)) == 2
    assert "Hand 1: Anna bid 0, Bruno 1; Anna 1 trick, Bruno 1" in page
    assert "Hand 1 corrected: Anna 0 tricks (was 1); Bruno 2 tricks (was 1)" in page
    # the correction itself can be undone
    assert table.post(f"/matches/{match_id}/undo",
                      {"version": table.sheet(match_id)["version"]}).status_code == 303
    assert table.sheet(match_id)["totals"] == sheet["totals"]
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Hand 1: change undone: Anna 1 trick (was 0); Bruno 1 trick (was 2)" in page
    assert page.count("undone later") == 1


def test_migrations_keep_data_written_at_the_first_one(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        upgrade(revision="8b477b266037")
        db.session.execute(text(
            "INSERT INTO players (id, name, created_at) VALUES (1, 'Anna', '2026-01-01'),"
            " (2, 'Bruno', '2026-01-01')"))
        db.session.execute(text(
            "INSERT INTO matches (id, game, options, first_dealer, lang, version, locked,"
            " finished, created_at, updated_at) VALUES ('old-match', 'navawhist',"
            " '{\"hook\": true}', 0, 'it', 2, false, false, '2026-01-01', '2026-01-01')"))
        db.session.execute(text(
            "INSERT INTO seats (match_id, seat, player_id) VALUES ('old-match', 0, 1),"
            " ('old-match', 1, 2)"))
        db.session.execute(text(
            "INSERT INTO hands (match_id, number, data, created_at, updated_at) VALUES"
            " ('old-match', 1, '{\"bids\": [0, 1], \"tricks\": [1, 1]}', '2026-01-01',"
            " '2026-01-01')"))
        db.session.commit()
        upgrade()
        db.session.expire_all()
        match = db.session.get(Match, "old-match")
        assert match.names == ["Anna", "Bruno"]
        # The edit key a later migration added to every match is gone again (c4e1d2a7b9f0).
        assert "edit_key" not in {c["name"] for c in inspect(db.engine).get_columns("matches")}
        assert compute_sheet(match).totals == (0, 3)
        db.session.remove()  # end the read before the schema changes again
        downgrade(revision="8b477b266037")
        assert "edit_key" not in {c["name"] for c in inspect(db.engine).get_columns("matches")}
        upgrade()
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
