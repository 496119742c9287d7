"""Hostile and large backups: caps on every list and on nesting, dates and names checked as
they are stored, an import that lets the other phones save, and everything an import
accepted readable afterwards: exported, listed, rendered.

Every test runs on SQLite and, when TEST_DATABASE_URL is set, on PostgreSQL.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
import threading
import time
import uuid
from typing import Any
from urllib.request import Request

import pytest
from flask import Flask
from sqlalchemy import select

from bench.backups import backup, match_entry, quarantotto_hands
from scorekeeper.db import db
from scorekeeper.engine import backups
from scorekeeper.engine.stats import table_stats
from scorekeeper.models import Change, Hand, Match, Membership, Table
from scorekeeper.models import Table as TableRow

from .conftest import Table as Phone
from .conftest import count, database_url, pdf_text, report
from .test_stress import Phone as ServedPhone
from .test_stress import quiet_server_log, serve  # noqa: F401 (a fixture)

WHEN = "2026-01-02T03:04:05"


def body(response) -> str:
    return response.get_data(as_text=True)


def deep(levels: int, leaf: str = "1") -> str:
    """JSON text of a mapping nested ``levels`` deep (json.dumps would recurse)."""
    return '{"a":' * levels + leaf + "}" * levels


def entry(match_id: str, **changes: Any) -> dict[str, Any]:
    """A Cavallo Re match of one deal, with its history."""
    data = {"id": match_id, "game": "cavallore", "options": {}, "first_dealer": 0,
            "place": None, "lang": "en", "players": ["Zoe"],
            "hands": [{"number": 1, "data": {"placed": 12, "seat": 0}, "created_at": WHEN,
                       "updated_at": WHEN}],
            "history": [{"number": 1, "kind": "enter", "old": None,
                         "new": {"placed": 12, "seat": 0}, "undone": False,
                         "created_at": WHEN}],
            "created_at": WHEN, "updated_at": WHEN}
    data.update(changes)
    return data


def text_of(*entries: dict[str, Any], tables: list[Any] | None = None) -> str:
    return json.dumps({"format": "scorekeeper-backup", "version": 2, "tables": tables or [],
                       "matches": list(entries)}, ensure_ascii=False)


def everything_reads(app: Flask, phone: Phone, tmp_path, *, pdfs: int = 1) -> None:
    """What an import accepted can be read back: the command line's export and the phone's
    backup, the home page, every table's page and statistics, every match's sheet, history,
    CSV and JSON, and the PDF of the first ``pdfs`` matches."""
    out = tmp_path / "export.json"
    result = app.test_cli_runner().invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    backups.read_backup(out.read_bytes())
    client = phone.client
    response = client.get("/backup.json")
    assert response.status_code == 200
    backups.read_backup(response.data)
    assert client.get("/").status_code == 200
    with app.app_context():
        tables = list(db.session.scalars(select(TableRow.id)))
        matches = list(db.session.scalars(select(Match.id).order_by(Match.id)))
    for table_id in tables:
        for path in (f"/tables/{table_id}", f"/tables/{table_id}/stats"):
            assert client.get(path).status_code == 200, path
    for index, match_id in enumerate(matches):
        for suffix in ("", "/history", ".csv", ".json", "/share"):
            response = client.get(f"/matches/{match_id}{suffix}")
            assert response.status_code == 200, (suffix, body(response)[-500:])
        if index < pdfs:
            pdf_text(client.get(f"/matches/{match_id}.pdf"))


# -- Caps on every list -------------------------------------------------------------------

def _capped(kind: str) -> tuple[dict[str, Any], str]:
    """A file one over the cap ``kind``, and the words of its refusal."""
    over = {
        "hands of a match": backups.MAX_HANDS + 1,
        "hands of the file": backups.UPLOAD.hands + 1,
        "history of a match": backups.MAX_CHANGES + 1,
        "history of the file": backups.UPLOAD.changes + 1,
        "tables": backups.UPLOAD.tables + 1,
        "phones of a table": 40_000,
        "phones of the file": backups.UPLOAD.phones + 1,
    }[kind]
    matches: list[Any] = []
    tables: list[Any] = []
    if kind.startswith(("hands", "history")):
        per_match = backups.MAX_HANDS if kind.startswith("hands") else backups.MAX_CHANGES
        key = "hands" if kind.startswith("hands") else "history"
        if kind.endswith("of a match"):
            per_match = over
        while over > 0:
            matches.append({key: [{}] * min(over, per_match)})
            over -= per_match
    elif kind == "tables":
        tables = [{"id": f"t{n}"} for n in range(over)]
    elif kind == "phones of a table":
        tables = [{"id": "t", "phones": [{"device": f"d{n}", "joined_at": WHEN,
                                          "last_seen": WHEN} for n in range(over)]}]
    else:
        tables = [{"id": f"t{n}", "phones": [{}] * backups.MAX_PHONES}
                  for n in range(over // backups.MAX_PHONES + 1)]
    words = {
        "hands of a match": f"a match of a backup has at most {backups.MAX_HANDS}",
        "hands of the file": f"a backup holds at most {backups.UPLOAD.hands}",
        "history of a match": f"a match of a backup has at most {backups.MAX_CHANGES}",
        "history of the file": f"a backup holds at most {backups.UPLOAD.changes}",
        "tables": f"holds {backups.UPLOAD.tables + 1} tables; a backup holds at most "
                  f"{backups.UPLOAD.tables}",
        "phones of a table": f"has 40000 phones; a table of a backup has at most "
                             f"{backups.MAX_PHONES}",
        "phones of the file": f"a backup holds at most {backups.UPLOAD.phones}",
    }[kind]
    return {"format": "scorekeeper-backup", "version": 2, "tables": tables,
            "matches": matches}, words


@pytest.mark.parametrize("kind", ["hands of a match", "hands of the file",
                                  "history of a match", "history of the file", "tables",
                                  "phones of a table", "phones of the file"])
def test_every_list_of_a_backup_is_capped_before_the_database(app, client, tmp_path, kind):
    data, words = _capped(kind)
    content = json.dumps(data).encode()
    phone = Phone(client)
    started = time.perf_counter()
    response = phone.upload(content)
    elapsed = time.perf_counter() - started
    assert response.status_code == 422
    assert words in body(response).replace(",", "")
    assert elapsed < 5, elapsed
    if "of a match" in kind or "of a table" in kind:  # the command line's caps are the same
        path = tmp_path / "capped.json"
        path.write_bytes(content)
        result = app.test_cli_runner().invoke(args=["import", str(path)])
        assert result.exit_code == 1 and words in result.output.replace(",", "")
    assert count(app, Match) == count(app, Table) == 0


def test_the_command_line_takes_larger_files_than_an_upload_but_not_any(app, client, tmp_path):
    phone = Phone(client)
    data = backup(backups.UPLOAD.matches + 1, 1)
    content = json.dumps(data).encode()
    assert phone.upload(content).status_code == 422
    path = tmp_path / "large.json"
    path.write_bytes(content)
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{backups.UPLOAD.matches + 1} matches imported" in result.output
    over = backups.COMMAND_LINE.tables + 1
    path.write_text(json.dumps({"format": "scorekeeper-backup", "matches": [],
                                "tables": [{"id": f"t{n}"} for n in range(over)]}))
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert f"a backup holds at most {backups.COMMAND_LINE.tables}" in result.output.replace(
        ",", "")


def test_a_refusal_of_a_cap_is_said_in_italian(client):
    data, _words = _capped("phones of a table")
    phone = Phone(client)
    phone.client.set_cookie("lang", "it")
    response = phone.client.post("/backup", data={
        "csrf_token": phone.csrf(), "file": (io.BytesIO(json.dumps(data).encode()), "b.json")},
        content_type="multipart/form-data", headers={"Accept-Language": "it"})
    assert response.status_code == 422
    assert "Un tavolo di questo file ha 40000 telefoni; un tavolo di un backup ne ha al " \
        f"massimo {backups.MAX_PHONES}." in body(response).replace(",", "")


# -- What was accepted can be read back ----------------------------------------------------

FAR = "9999-12-31T23:59:59.999999-14:00"
EARLY = "0001-01-01T00:00:00+14:00"
HOSTILE: dict[str, tuple[str, str]] = {
    # name: (the file's text, what the import says: "" when the match is imported)
    "history nested 5,000 deep": (text_of(entry("deephistory", history=[
        {"number": 1, "kind": "enter", "old": None, "new": "@", "undone": False,
         "created_at": WHEN}])).replace('"@"', deep(5000)), "nested more than 5 deep"),
    "history's old value nested 5,000 deep": (text_of(entry("deepold", history=[
        {"number": 1, "kind": "correct", "old": "@", "new": {"placed": 12, "seat": 0},
         "undone": False, "created_at": WHEN}])).replace('"@"', deep(5000)),
        "nested more than 5 deep"),
    "hand nested 5,000 deep": (text_of(entry("deephand", hands=[
        {"number": 1, "data": {"placed": 12, "seat": 0, "x": "@"}, "created_at": WHEN,
         "updated_at": WHEN}])).replace('"@"', deep(5000)), "nested more than 5 deep"),
    "hand nested 6 deep": (text_of(entry("sixdeep", hands=[
        {"number": 1, "data": {"placed": 12, "seat": 0, "x": "@"}, "created_at": WHEN,
         "updated_at": WHEN}])).replace('"@"', deep(5)), "nested more than 5 deep"),
    "created in year 9999 at -14:00": (text_of(entry("farfuture", created_at=FAR)),
                                       "is not between 2000 and 2100"),
    "created in year 1 at +14:00": (text_of(entry("farpast", created_at=EARLY)),
                                    "is not between 2000 and 2100"),
    "a hand updated in year 9999": (text_of(entry("farhand", hands=[
        {"number": 1, "data": {"placed": 12, "seat": 0}, "created_at": WHEN,
         "updated_at": FAR}])), "is not between 2000 and 2100"),
    "a change made in year 1": (text_of(entry("farchange", history=[
        {"number": 1, "kind": "enter", "old": None, "new": {"placed": 12, "seat": 0},
         "undone": False, "created_at": EARLY}])), "is not between 2000 and 2100"),
    "a place of 60 x U+FB2C (180 once normalised)": (
        text_of(entry("longplace", place="\ufb2c" * 60)), "bad place"),
    "a name of 30 x U+FB2C": (text_of(entry("longname", players=["\ufb2c" * 30])), "bad name"),
    "an invisible name": (text_of(entry("invisible", players=["Zoe\u034f"])), "bad name"),
    "a Hangul filler for a name": (text_of(entry("filler", players=["\u3164"])), "bad name"),
    "NUL in a history value": (text_of(entry("nulhistory", history=[
        {"number": 1, "kind": "enter", "old": None, "new": {"placed": "1\u0000"},
         "undone": False, "created_at": WHEN}])), "bad history"),
    "a format string as a history key": (text_of(entry("formatkey", history=[
        {"number": 1, "kind": "correct", "old": {"%(x)s %d": 1}, "new": {"placed": 12},
         "undone": False, "created_at": WHEN}])), "bad history"),
    "40,000 items in a hand": (text_of(entry("wide", hands=[
        {"number": 1, "data": {"placed": 12, "seat": 0, "x": [0] * 40_000},
         "created_at": WHEN, "updated_at": WHEN}])), "bad hand"),
    # Imported, and harmless:
    "a date with an offset": (text_of(entry("offset", created_at="2026-01-02T03:04:05+14:00")),
                              ""),
    "a place to normalise": (text_of(entry("composed", place="Cafe\u0301 " + "\ufb2c" * 18)),
                             ""),
    "an emoji with its style": (text_of(entry("emoji", players=["Zoe \u2764\ufe0f"])), ""),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_backup_fails_or_imports_harmlessly_and_all_reads_back(app, client, tmp_path,
                                                                        name):
    text, problem = HOSTILE[name]
    phone = Phone(client)
    phone.new_match("cavallore", ["Ada"])  # a table of this phone beside the import
    response = phone.upload(text.encode())
    assert response.status_code == 200, body(response)[-800:]
    page = body(response)
    if problem:
        assert "0 matches added" in page and problem in page, page[-2000:]
        assert count(app, Match) == 1
    else:
        assert "1 matches added" in page, page[-2000:]
        assert count(app, Match) == 2
    everything_reads(app, phone, tmp_path, pdfs=2)


def stored_id(app, backup_id: str) -> str:
    """Where an upload put the backup's match ``backup_id``: an upload that brings a table
    new here gives its matches new addresses."""
    with app.app_context():
        return db.session.scalar(select(Match.id).where(Match.origin == backup_id))


def test_dates_are_stored_in_utc_and_names_and_places_normalised(app, client):
    text = text_of(entry("normalised", created_at="2026-01-02T03:04:05+14:00",
                         place="Cafe\u0301", players=["Rene\u0301"]))
    assert "1 matches added" in body(Phone(client).upload(text.encode()))
    with app.app_context():
        match = db.session.get(Match, stored_id(app, "normalised"))
        assert match.created_at.isoformat() == "2026-01-01T13:04:05"
        assert (match.place, match.names) == ("Café", ["René"])


@pytest.mark.parametrize("where", ["players", "place"])
def test_a_new_match_checks_names_and_places_once_normalised(table, app, where):
    form = {"game": "cavallore", "action": "start", "first_dealer": 0, "players-0": "Zoe"}
    form["players-0" if where == "players" else "place"] = "\ufb2c" * (
        11 if where == "players" else 21)
    response = table.post("/matches/new", form)
    assert response.status_code == 422
    assert ("a name has at most 30 characters" if where == "players"
            else "The place has at most 60 characters") in body(response)
    assert count(app, Match) == 0


def test_the_download_is_a_small_multiple_of_what_is_stored(app, client, request):
    """Values nested as deep as a backup allows, in lists as wide: the file written is
    about the size of what the database holds, never the indentation of every level."""
    nested: Any = [1, 2]
    for _level in range(backups.MAX_DEPTH - 2):
        nested = [nested, nested]
    hand = {"placed": 12, "seat": 0, "x": nested}
    history = [{"number": 1, "kind": "enter", "old": None, "new": hand, "undone": False,
                "created_at": WHEN}] * 200
    text = text_of(*[entry(f"wide{n}", hands=[{"number": 1, "data": hand, "created_at": WHEN,
                                               "updated_at": WHEN}], history=history)
                     for n in range(20)])
    phone = Phone(client)
    assert "20 matches added" in body(phone.upload(text.encode()))
    with app.app_context():  # every value of every row, each as short as JSON writes it
        rows = [*db.session.execute(select(Hand.__table__)),
                *db.session.execute(select(Change.__table__)),
                *db.session.execute(select(Match.__table__))]
        stored = sum(len(json.dumps(list(row), separators=(",", ":"), default=str))
                     for row in rows)
    download = len(client.get("/backup.json").data)
    report(request.config, "A backup's download against what is stored", [
        f"{download:,} bytes downloaded, {stored:,} stored: {download / stored:.2f}x; "
        f"the file sent: {len(text.encode()):,} bytes"])
    assert download < 1.5 * stored, (download, stored)
    assert download < 1.2 * len(text.encode())


# -- Imports that let the phones save ----------------------------------------------------

def _multipart(fields: dict[str, str], name: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
             .encode() for key, value in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                 f'filename="{name}"\r\nContent-Type: application/json\r\n\r\n'.encode()
                 + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), boundary


def _upload(phone: ServedPhone, content: bytes):
    data, boundary = _multipart({"csrf_token": phone.csrf()}, "backup.json", content)
    request = Request(phone.base + "/backup", data=data, method="POST", headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}"})
    with phone.opener.open(request, timeout=300) as response:
        return response.status, response.read().decode()


class LockProbe(threading.Thread):
    """Takes SQLite's write lock again and again on a connection of its own, noting how
    long each time it waited: the longest wait bounds how long anyone else held it."""

    def __init__(self, path: str) -> None:
        super().__init__(daemon=True)
        self.path, self.waits, self.done = path, [], threading.Event()

    def run(self) -> None:
        connection = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        while not self.done.is_set():
            started = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            self.waits.append(time.perf_counter() - started)
            connection.execute("ROLLBACK")
            time.sleep(0.005)
        connection.close()


@pytest.mark.slow
@pytest.mark.usefixtures("quiet_server_log")
def test_phones_save_while_a_large_backup_is_imported(app, tmp_path, request):
    matches, hands = 350, 40  # 14,000 hands and as many history entries
    content = json.dumps(backup(matches, hands, seed=5)).encode()
    on_sqlite = not database_url(tmp_path).startswith("postgresql")
    with serve(app) as base:
        player = ServedPhone(base)
        match_id = player.new_match("cavallore", ["Solo"])
        importer = ServedPhone(base)
        importer.csrf()
        result: dict[str, Any] = {}

        def run_import() -> None:
            started = time.perf_counter()
            result["status"], result["page"] = _upload(importer, content)
            result["seconds"] = time.perf_counter() - started

        probe = None
        if on_sqlite:
            probe = LockProbe(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
            probe.start()
        upload = threading.Thread(target=run_import)
        upload.start()
        saves: list[tuple[int, float]] = []
        rng = random.Random(1)
        while upload.is_alive() or len(saves) < 3:
            sheet = player.sheet(match_id)
            started = time.perf_counter()
            reply = player.post(f"/matches/{match_id}/cavallore/deal", {
                "version": sheet["version"], "number": sheet["next"]["number"],
                "placed": rng.randint(0, 35), "seat": 0})
            saves.append((reply.status, time.perf_counter() - started))
            if reply.status != 303:
                break
        upload.join(300)
        if probe is not None:
            probe.done.set()
            probe.join(10)
    assert result["status"] == 200 and f"{matches} matches added" in result["page"]
    assert [status for status, _seconds in saves] == [303] * len(saves)
    assert len(saves) >= 3
    with app.app_context():
        assert db.session.query(Hand).count() == matches * hands + len(saves)
    longest_save = max(seconds for _status, seconds in saves)
    lines = [f"import of {matches} matches, {matches * hands} hands: "
             f"{result['seconds']:.1f} s",
             f"saves meanwhile: {len(saves)}, all 303, the slowest {longest_save:.2f} s"]
    if probe is not None:
        longest = max(probe.waits)
        lines.append(f"SQLite's write lock, longest wait of {len(probe.waits)} takes: "
                     f"{longest:.2f} s")
        # the import takes many seconds: in one transaction it would hold the lock for all
        assert longest < 3, longest
    report(request.config, "Import beside saving phones", lines)
    assert longest_save < 5


def test_an_import_commits_in_batches(app, client, monkeypatch):
    batches = []
    original = backups._write
    monkeypatch.setattr(backups, "_write", lambda batch, targets: batches.append(len(batch))
                        or original(batch, targets))
    data = backup(60, 40)
    assert "60 matches added" in body(Phone(client).upload(json.dumps(data).encode()))
    rows = 1 + 4 + 40 + 40  # a match, its seats, its hands, its history
    assert sum(batches) == 60 and len(batches) > 1
    assert max(batches) * rows < backups.BATCH_ROWS + rows


def test_a_backup_imported_twice_at_once_is_stored_once(app, client):
    """Two phones sending the same file: the batch that meets the other's rows is tried
    again and finds its matches there."""
    data = json.dumps(backup(30, 5, seed=2)).encode()
    first, second = Phone(app.test_client()), Phone(app.test_client())
    answers = []
    threads = [threading.Thread(target=lambda p=p: answers.append(body(p.upload(data))))
               for p in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert count(app, Match) == 30
    assert sorted(a for answer in answers for a in ("30 matches added, 0 already here",
                                                    "0 matches added, 30 already here")
                  if a in answer) == ["0 matches added, 30 already here",
                                      "30 matches added, 0 already here"]


# -- Statistics after an import ----------------------------------------------------------

def test_statistics_are_fresh_right_after_an_import_into_the_table(app, client):
    phone = Phone(client)
    match_id = phone.new_match("quarantotto", ["Anna", "Bruno", "Carla", "Dario"],
                               length="games", games=1)
    sheet = phone.sheet(match_id)
    assert phone.post(f"/matches/{match_id}/quarantotto/game", {
        "version": sheet["version"], "number": 1, "closer": 0, "action": "save",
        "values-1": "10", "values-2": "20", "values-3": "30"}).status_code == 303
    with app.app_context():
        table_id = db.session.get(Match, match_id).table_id
    page = body(client.get(f"/tables/{table_id}/stats"))
    with app.app_context():
        assert table_stats(db.session.get(TableRow, table_id)).games["quarantotto"].matches == 1
    data = json.loads(client.get("/backup.json").data)
    copy = dict(data["matches"][0], id="importedcopy")
    data["matches"] = [copy]
    assert "1 matches added" in body(phone.upload(json.dumps(data).encode()))
    with app.app_context():
        assert db.session.get(Match, "importedcopy").table_id == table_id
        assert table_stats(db.session.get(TableRow, table_id)).games["quarantotto"].matches == 2
    assert body(client.get(f"/tables/{table_id}/stats")) != page


@pytest.mark.slow
def test_statistics_of_a_table_of_five_thousand_matches(app, client, tmp_path, request):
    rng = random.Random(4)
    data = backup(0, 0)
    table = data["tables"][0]["id"]
    data["matches"] = [match_entry(n, quarantotto_hands(1, 4, rng), table)
                       for n in range(5_000)]
    path = tmp_path / "five-thousand.json"
    path.write_text(json.dumps(data))
    started = time.perf_counter()
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    imported = time.perf_counter() - started
    assert "5000 matches imported" in result.output, result.output
    app.config["OPEN_EDIT"] = True  # this browser sees every table
    timings = []
    for _run in range(2):
        started = time.perf_counter()
        response = client.get(f"/tables/{table}/stats")
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200
    with app.app_context():
        stats = table_stats(db.session.get(TableRow, table))
        game = stats.games["quarantotto"]
        assert (game.matches, game.finished, game.rated) == (5000, 5000, 5000)
        assert sum(line.played for line in game.players.values()) == 4 * 5000
    report(request.config, "Statistics of 5,000 matches", [
        f"import {imported:.1f} s; statistics page {timings[0]:.1f} s, then "
        f"{timings[1] * 1000:.0f} ms"])


# -- A long match on paper -------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_long_match_prints_its_last_rows_and_says_where_the_others_are(app, client, lang):
    from scorekeeper.engine.printing import PRINTED_ROWS

    deals = PRINTED_ROWS + 40
    rng = random.Random(9)
    hands = [{"number": n, "data": {"placed": rng.randint(0, 35), "seat": 0},
              "created_at": WHEN, "updated_at": WHEN} for n in range(1, deals + 1)]
    phone = Phone(client)
    assert "1 matches added" in body(phone.upload(text_of(entry(
        "longmatch", hands=hands, history=[])).encode()))
    match_id = stored_id(app, "longmatch")
    text, pages, _pages = pdf_text(client.get(f"/matches/{match_id}.pdf?lang={lang}"))
    said = {"en": "This long match is printed from row 41: rows 1 to 40 are left out",
            "it": "Questa partita lunga è stampata dalla riga 41: le righe da 1 a 40 sono"}
    assert said[lang] in " ".join(text.split())
    assert pages <= 10, pages
    csv_rows = body(client.get(f"/matches/{match_id}.csv")).strip().splitlines()
    assert len(csv_rows) == deals + 2  # the headings, every deal, the totals


# -- Names that cannot be told apart -------------------------------------------------------

INVISIBLE = {"Anna\u034f": "U+034F", "Anna\u3164": "U+3164", "Anna\ufe0f": "U+FE0F",
             "Anna\u115f\u1160": "U+115F"}
ONLY_INVISIBLE = {"\u3164": "U+3164", "\u2800": "U+2800", "\u115f\u1160": "U+115F"}


@pytest.mark.parametrize("name", [*INVISIBLE, *ONLY_INVISIBLE])
@pytest.mark.parametrize("lang", ["en", "it"])
def test_invisible_characters_in_a_name_are_refused_naming_the_player(table, app, name, lang):
    table.new_match("navawhist", ["Anna", "Bruno"])
    response = table.post("/matches/new", {
        "game": "navawhist", "action": "start", "first_dealer": 0,
        "players-0": "Bruno", "players-1": name}, headers={"Accept-Language": lang})
    assert response.status_code == 422
    code = INVISIBLE.get(name) or ONLY_INVISIBLE[name]
    page = body(response)
    if name in INVISIBLE:
        said = {"en": f"Player 2: a name cannot hold control, invisible or direction-changing "
                      f"characters: “Anna” holds {code}.",
                "it": f"Giocatore 2: un nome non può contenere caratteri di controllo, "
                      f"invisibili o che cambiano la direzione del testo: “Anna” contiene "
                      f"{code}."}
    else:
        said = {"en": f"Player 2: a name cannot hold control, invisible or direction-changing "
                      f"characters, and this one holds nothing else ({code}).",
                "it": f"Giocatore 2: un nome non può contenere caratteri di controllo, "
                      f"invisibili o che cambiano la direzione del testo, e questo non "
                      f"contiene altro ({code})."}
    assert said[lang] in page.replace("&#34;", '"')
    assert count(app, Match) == 1


def test_an_emoji_keeps_its_style_selector(table, app):
    table.new_match("navawhist", ["Anna \u2764\ufe0f", "Bruno"])
    assert count(app, Match) == 1


LOOK_ALIKE = ["\u0410nna", "Ann\u0430", "\uff21nna", "\u0391nna"]  # Cyrillic, full-width, Greek


@pytest.mark.parametrize("name", LOOK_ALIKE)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_name_that_only_looks_like_a_player_s_is_asked_about_once(table, app, name, lang):
    table.new_match("navawhist", ["Anna", "Bruno"])
    form = {"game": "navawhist", "action": "start", "first_dealer": 0, "players-0": name,
            "players-1": "Bruno"}
    headers = {"Accept-Language": lang}
    response = table.post("/matches/new", form, headers=headers)
    assert response.status_code == 200
    page = body(response)
    said = {"en": f"“{name}” looks like “Anna”, another player, but is written with other "
                  f"characters (",
            "it": f"“{name}” sembra “Anna”, un altro giocatore, ma è scritto con altri "
                  f"caratteri ("}
    assert said[lang] in page, page[-3000:]
    assert f"U+{ord(name[0] if name[0] != 'A' else name[-1]):04X}" in page
    assert count(app, Match) == 1
    token = page.split('name="alike" value="', 1)[1].split('"', 1)[0]
    response = table.post("/matches/new", {**form, "alike": token}, headers=headers)
    assert response.status_code == 303
    assert count(app, Match) == 2
    # Known now, the look-alike is a player of the table like any other: no question.
    response = table.post("/matches/new", form, headers=headers)
    assert response.status_code == 303


def test_two_look_alike_new_names_in_one_match_are_asked_about(table, app):
    response = table.post("/matches/new", {
        "game": "navawhist", "action": "start", "first_dealer": 0, "players-0": "Anna",
        "players-1": "\u0410nna"})
    assert response.status_code == 200 and "looks like “Anna”" in body(response)
    assert count(app, Match) == 0


def test_names_that_differ_by_case_or_accent_are_not_asked_about(table, app):
    table.new_match("navawhist", ["Anna", "Rene"])
    table.new_match("navawhist", ["ANNA", "René"])  # the same Anna; René is someone else
    assert count(app, Match) == 2


# -- Hostile values in addresses and forms -------------------------------------------------

def test_nul_bytes_anywhere_are_a_4xx(table, app):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    with app.app_context():
        table_id = db.session.get(Match, match_id).table_id
        token = "unused-token"
    cases = [
        ("GET", "/matches/new?table=%00", None),
        ("GET", "/tables/%00", None),
        ("GET", "/tables/a%00b/stats", None),
        ("POST", "/tables/%00/name", {"name": "x"}),
        ("POST", f"/join/{token}?m=%00", {}),
        ("POST", "/matches/new", {"game": "navawhist", "action": "start", "table": "\x00",
                                  "players-0": "Anna", "players-1": "Bruno"}),
        ("POST", f"/tables/{table_id}/invitations", {"match": "\x00"}),
        ("POST", f"/tables/{table_id}/name", {"name": "Bar\x00"}),
        ("GET", f"/matches/{match_id}?seat=%00", None),
        ("GET", "/?page=%00", None),
    ]
    for method, path, form in cases:
        if method == "GET":
            status = table.client.get(path).status_code
        else:
            status = table.post(path, form).status_code
        assert 400 <= status < 500, (method, path, status)
    with app.app_context():
        assert db.session.query(Membership).count() == 1


DIGITS = "9" * 5000


def test_five_thousand_digits_anywhere_are_refused_or_ignored(table, app):
    ids = {game: table.new_match(game, names) for game, names in [
        ("navawhist", ["Anna", "Bruno"]), ("cavallore", ["Anna"]),
        ("quarantotto", ["Anna", "Bruno", "Carla", "Dario"]),
        ("scala40", ["Anna", "Bruno", "Carla"]), ("fortyfive", ["Anna", "Bruno"])]}
    navawhist = ids["navawhist"]
    for seat in table.sheet(navawhist)["next"]["info"]["order"]:
        assert table.bid(navawhist, 0, seat=seat).status_code == 303
    for digits in ("9" * 4301, DIGITS):
        assert 400 <= table.tricks(navawhist, [digits, ""]).status_code < 500
        assert 400 <= table.tricks(navawhist, [digits, digits]).status_code < 500
    posts = [
        (f"/matches/{ids['cavallore']}/cavallore/deal", {"placed": DIGITS, "seat": 0}),
        (f"/matches/{ids['cavallore']}/cavallore/deal", {"placed": 3, "seat": DIGITS}),
        (f"/matches/{ids['quarantotto']}/quarantotto/game",
         {"closer": 0, "action": "save", "values-1": DIGITS, "values-2": "1", "values-3": "1"}),
        (f"/matches/{ids['quarantotto']}/quarantotto/game", {"closer": DIGITS, "action": "save"}),
        (f"/matches/{ids['scala40']}/scala40/deal",
         {"closer": 0, "action": "save", "values-1": DIGITS, "values-2": "5"}),
        (f"/matches/{ids['fortyfive']}/fortyfive/hand",
         {"mode": "sides", "side-0": DIGITS, "side-1": "0", "bonus_side": "0",
          "action": "save"}),
        (f"/matches/{ids['fortyfive']}/fortyfive/hand",
         {"mode": "winners", "winners": ",".join([DIGITS] * 5), "bonus": DIGITS,
          "action": "save"}),
        (f"/matches/{navawhist}/undo", {}),
    ]
    for path, form in posts:
        sheet = table.sheet(path.split("/")[2])
        status = table.post(path, {"version": DIGITS, "number": 1, **form}).status_code
        assert 400 <= status < 500, (path, "version", status)
        status = table.post(path, {"version": sheet["version"],
                                   "number": sheet["next"]["number"] if sheet["next"] else 1,
                                   **form}).status_code
        assert 400 <= status < 500 or status == 303 and path.endswith("undo"), (path, status)
    gets = [f"/?page={DIGITS}", f"/matches/{navawhist}?saved={DIGITS}",
            f"/matches/{navawhist}/live?since={DIGITS}", f"/matches/{navawhist}?n={DIGITS}",
            f"/matches/{ids['cavallore']}?seat={DIGITS}", f"/sheets/blank.pdf?players={DIGITS}",
            f"/matches/{ids['fortyfive']}?n={DIGITS}&entry=sides"]
    for path in gets:
        status = table.client.get(path).status_code
        assert status < 500, (path, status)
