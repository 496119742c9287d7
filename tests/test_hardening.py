"""What a request may cost, names that cannot fool anyone, hostile numbers, exports, headers.

Every test here runs on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.engine.backups import UPLOAD
from scorekeeper.models import Change, Hand, Match, Player

from .conftest import Table, count
from .test_stress import Phone, quiet_server_log, serve  # noqa: F401 (a fixture)


def body(response) -> str:
    return response.get_data(as_text=True)


class Stream(io.RawIOBase):
    """A request body of ``size`` bytes made on demand, counting what the server read."""

    def __init__(self, size: int, chunk: bytes = b"a=" + b"x" * 1022) -> None:
        self.size, self.chunk, self.position, self.read_bytes = size, chunk, 0, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = base + offset
        return self.position

    def tell(self) -> int:
        return self.position

    def readinto(self, buffer) -> int:
        n = max(0, min(len(buffer), self.size - self.position))
        buffer[:n] = (self.chunk * (n // len(self.chunk) + 1))[:n]
        self.position += n
        self.read_bytes += n
        return n


# -- Limits on what a request may cost ----------------------------------------------------

@pytest.mark.parametrize("content_type", [
    "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz"])
def test_an_oversize_body_gets_a_413_before_anything_reads_it(client, content_type):
    stream = Stream(20 * 1024 * 1024)
    response = client.post("/matches/new", input_stream=stream, headers={
        "Content-Type": content_type, "Content-Length": str(stream.size)})
    assert response.status_code == 413
    assert "Too much was sent at once (at most 512 KB here)" in body(response)
    assert stream.read_bytes == 0


def test_a_backup_upload_has_its_own_larger_limit(client, app):
    table = Table(client)
    small = b'{"format": "scorekeeper-backup", "matches": []}' + b" " * (2 * 1024 * 1024)
    response = table.post("/backup", {"file": (io.BytesIO(small), "b.json")},
                          content_type="multipart/form-data")
    assert response.status_code == 200, body(response)[:500]
    assert "0 matches added" in body(response)
    stream = Stream(17 * 1024 * 1024)
    response = client.post("/backup", input_stream=stream, headers={
        "Content-Type": "multipart/form-data; boundary=xyz",
        "Content-Length": str(stream.size)})
    assert response.status_code == 413
    assert "16,384 KB" in body(response) and stream.read_bytes == 0


def test_a_backup_with_too_many_matches_is_refused_before_the_database(client, app):
    table = Table(client)
    content = json.dumps({"format": "scorekeeper-backup", "version": 1,
                          "matches": [{}] * 100_000}).encode()
    response = table.upload(content)
    assert response.status_code == 422
    assert f"This file holds 100000 matches; a backup holds at most {UPLOAD.matches}" \
        in body(response).replace(",", "")
    assert count(app, Match) == 0


def test_failed_entries_cost_no_savepoint_each_and_are_listed_briefly(client, app):
    table = Table(client)
    good = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(good, [0, 1], [1, 1])
    backup = json.loads(client.get("/backup.json").data)
    entry = backup["matches"][0]
    backup["matches"] = [{}] * 1490 + [{**entry, "id": "copy-of-the-match"}]
    response = table.upload(json.dumps(backup).encode())
    assert response.status_code == 200
    page = body(response)
    assert "1 matches added, 0 already here" in page
    assert page.count('class="alert"') <= 21 and "1470 more" in page.replace(",", "")
    assert count(app, Match) == 2


@pytest.mark.parametrize(("content", "message"), [
    (b"[" * 100_000, "nests too deeply"),
    (b'{"format": "scorekeeper-backup", "matches": [], "size": 1e999}', "1e999"),
    (b'{"format": "scorekeeper-backup", "matches": [], "size": NaN}', "NaN"),
    (b'{"format": "scorekeeper-backup", "matches": [], "n": ' + b"9" * 5000 + b"}",
     "5000 digits"),
])
def test_a_hostile_backup_is_named_on_the_page_and_on_the_command_line(
        client, app, tmp_path, content, message):
    response = Table(client).upload(content)
    assert response.status_code == 422 and message in body(response)
    path = tmp_path / "hostile.json"
    path.write_bytes(content)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1 and message in result.output
    assert "Traceback" not in result.output and result.exception.__class__ is SystemExit


# -- Every hostile number a 4xx, nothing changed -------------------------------------------

HUGE = "9" * 400


def snapshot(app: Flask) -> tuple[int, int, list[int]]:
    with app.app_context():
        return (count(app, Hand), count(app, Change),
                list(db.session.scalars(select(Match.version).order_by(Match.id))))


@pytest.mark.parametrize(("game", "path", "fields"), [
    ("cavallore", "cavallore/deal", {"placed": "--1", "seat": "0"}),
    ("cavallore", "cavallore/deal", {"placed": "1e999", "seat": "--1"}),
    ("cavallore", "cavallore/deal", {"placed": "12²", "seat": "0"}),
    ("navawhist", "bid", {"seat": "1", "bid": "--1"}),
    ("navawhist", "bid", {"seat": "--1", "bid": "1"}),
    ("navawhist", "bid", {"seat": HUGE, "bid": "1"}),
    ("navawhist", "bid", {"version": HUGE, "seat": "1", "bid": "1"}),
    ("navawhist", "bid", {"number": HUGE, "seat": "1", "bid": "1"}),
    ("navawhist", "bid", {"seat": "1", "bid": "NaN"}),
    ("quarantotto", "quarantotto/game", {"closer": "--1", "action": "save",
                                         "values-0": "-inf"}),
    ("quarantotto", "quarantotto/cards", {"tap": "9" * 5000 + ":A"}),
    ("quarantotto", "quarantotto/cards", {"tap": "--0:A"}),
])
def test_hostile_numbers_get_a_4xx_and_change_nothing(table, app, game, path, fields):
    names = ["Anna", "Bruno"] if game == "cavallore" else ["Anna", "Bruno", "Carla", "Dario"]
    match_id = table.new_match(game, names)
    before = snapshot(app)
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/{path}", {
        "version": sheet["version"], "number": sheet["next"]["number"], **fields})
    assert 400 <= response.status_code < 500, body(response)[:1000]
    assert snapshot(app) == before


@pytest.mark.parametrize("seat", ["--1", HUGE, "1e999", "٣"])
def test_a_hostile_seat_in_the_address_is_ignored(table, seat):
    match_id = table.new_match("cavallore", ["Anna", "Bruno"])
    response = table.client.get(f"/matches/{match_id}?seat={seat}")
    assert response.status_code == 200


# -- Names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["Anna\u202e", "An\u200bna", "\ufeffAnna", "An\u2028na",
                                  "An\u00adna", "An\u2029na"])
def test_invisible_and_direction_changing_characters_are_refused(table, app, name):
    response = table.post("/matches/new", {
        "game": "navawhist", "action": "start", "first_dealer": 0,
        "players-0": "Bruno", "players-1": name})
    assert response.status_code == 422
    assert "Player 2: a name cannot hold control, invisible or direction-changing" \
        in body(response)
    assert count(app, Match) == 0


def test_names_equal_but_for_case_or_composition_are_one_player(table, app):
    response = table.post("/matches/new", {
        "game": "navawhist", "action": "start", "first_dealer": 0,
        "players-0": "Rene\u0301", "players-1": "RENÉ"})
    assert response.status_code == 422 and "is in this match twice" in body(response)
    table.new_match("navawhist", ["Rene\u0301", "Anna"])
    table.new_match("navawhist", ["rené", "ANNA"])
    with app.app_context():
        assert sorted(db.session.scalars(select(Player.name))) == ["Anna", "René"]


@pytest.mark.usefixtures("quiet_server_log")
def test_phones_of_a_table_adding_the_same_new_name_at_once_all_succeed(app):
    phones, rounds = 8, 10
    barrier = threading.Barrier(phones)
    with serve(app) as base:
        first = Phone(base)
        table_id = None
        match_id = first.new_match("navawhist", ["Anna", "Bruno"])
        others = [Phone(base) for _ in range(phones - 1)]
        for phone in others:
            phone.join(first.edit_link(match_id))
        share = first.get(f"/matches/{match_id}/share").body.decode()
        table_id = share.split("/tables/", 1)[1].split("/", 1)[0]

        def start(phone_number: int) -> list[int]:
            phone = ([first] + others)[phone_number]
            phone.csrf()
            statuses = []
            for round_number in range(rounds):
                barrier.wait(timeout=60)
                reply = phone.post("/matches/new", {
                    "game": "navawhist", "action": "start", "first_dealer": 0,
                    "table": table_id, "players-0": f"New {round_number}",
                    "players-1": f"Phone {phone_number}"})
                statuses.append(reply.status)
            return statuses

        with ThreadPoolExecutor(phones) as pool:
            statuses = [s for result in pool.map(start, range(phones)) for s in result]
    assert statuses == [303] * phones * rounds
    with app.app_context():
        names = list(db.session.scalars(select(Player.name).where(Player.table_id == table_id)))
    assert sorted(names) == sorted(["Anna", "Bruno"] + [f"New {r}" for r in range(rounds)]
                                   + [f"Phone {p}" for p in range(phones)])


# -- Exports and headers -------------------------------------------------------------------

def test_csv_cells_never_start_a_formula(table, client):
    hostile = ['=HYPERLINK("//e.vu","x")', "+1+1", "@SUM(1+1)", "-2+3"]
    match_id = table.new_match("quarantotto", hostile)
    rows = list(csv.reader(io.StringIO(body(client.get(f"/matches/{match_id}.csv")))))
    cells = [cell for row in rows for cell in row]
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert "'=HYPERLINK(\"//e.vu\",\"x\")" in rows[0] and "'@SUM(1+1)" in rows[0]


def test_private_answers_are_revalidated_backups_never_stored_static_kept_a_year(table,
                                                                                 client):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    for path in (f"/matches/{match_id}", f"/matches/{match_id}.json",
                 f"/matches/{match_id}.csv", f"/matches/{match_id}.pdf",
                 f"/matches/{match_id}/history",
                 f"/matches/{match_id}/live", "/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.cache_control.private and response.cache_control.no_cache, path
    for path in ("/backup.json", "/backup"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    static = client.get("/static/css/app.css?v=0123456789ab")
    assert static.status_code == 200
    control = static.headers["Cache-Control"]
    assert "public" in control and "max-age=31536000" in control and "immutable" in control
    assert "no-cache" not in control and "private" not in control


def test_short_headers_on_static_files_and_fragments_and_no_cookie_resent(table, client):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    page = body(client.get(f"/matches/{match_id}"))
    css = page.split('href="/static/css/', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    gz = {"Accept-Encoding": "gzip"}
    static = client.get(f"/static/css/{css}", headers=gz)
    fragment = table.bid(match_id, 0, headers={"HX-Request": "true", **gz})
    assert fragment.status_code == 200
    for response in (static, fragment):
        size = sum(len(f"{k}: {v}\r\n") for k, v in response.headers.items())
        assert size <= 600, response.headers
        assert "Set-Cookie" not in response.headers
        assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in static.headers
    assert "Content-Security-Policy" in fragment.headers
