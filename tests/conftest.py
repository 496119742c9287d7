"""Fixtures: a fresh app on a migrated temporary database, a client, and a table helper."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from pypdf import PdfReader

from scorekeeper import create_app
from scorekeeper.db import db, upgrade
from scorekeeper.rules import GAMES

# No time limit per example: the suite runs on two processes of a small machine, where an
# example's time says nothing (speed is measured by `make bench`, never by a test).
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


def database_url(tmp_path) -> str:
    """The test database: TEST_DATABASE_URL when set (PostgreSQL), else a SQLite file. Under
    pytest-xdist each worker has a database of its own on the server, named after the given
    one and the worker (``scorekeeper_test_gw0``: `.ci/postgres` makes them)."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path / 'test.db'}"
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return f"{url}_{worker}" if worker else url


def migrated_app(url: str, **config: Any) -> Flask:
    """An app on the database at ``url``, migrated to the latest schema; ``config`` adds
    settings."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url,
                      **config})
    with app.app_context():
        upgrade()
    return app


def drop_database(app: Flask) -> None:
    """Drop every table of ``app``'s database, the migration marker included."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """An app on a freshly migrated database."""
    app = migrated_app(database_url(tmp_path))
    yield app
    drop_database(app)


@pytest.fixture
def cached_app(tmp_path) -> Iterator[Flask]:
    """An app on a freshly migrated database with its in-process caches on, whatever
    SCOREKEEPER_CACHES says: for the tests of what the caches save (queries, renders); every
    other test takes ``app``, which runs once with the caches on and once with them off."""
    app = migrated_app(database_url(tmp_path), CACHES=True)
    yield app
    drop_database(app)


def count(app: Flask, model: Any) -> int:
    """How many rows of ``model`` are stored."""
    with app.app_context():
        return db.session.query(model).count()


def pdf_text(response) -> tuple[str, int, list]:
    """The text of a PDF answer (pages joined), its page count and its pages."""
    assert response.status_code == 200, response.get_data(as_text=True)[-500:]
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(response.data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return text, len(reader.pages), reader.pages


def report(config: pytest.Config, title: str, lines: list[str]) -> None:
    """Print ``lines`` in the test output even when pytest captures it."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or not lines:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        reporter.write_line(title)
        for line in lines:
            reporter.write_line(f"  {line}")


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class Table:
    """Plays a match over HTTP as the players at the table would."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.token = ""

    def csrf(self) -> str:
        if not self.token:
            page = self.client.get("/matches/new").get_data(as_text=True)
            self.token = CSRF.search(page).group(1)
        return self.token

    def post(self, url: str, data: dict[str, Any], **kwargs: Any):
        return self.client.post(url, data={"csrf_token": self.csrf(), **data}, **kwargs)

    def upload(self, content: bytes):
        """Send ``content`` as a backup file on /backup."""
        return self.post("/backup", {"file": (io.BytesIO(content), "backup.json")},
                         content_type="multipart/form-data")

    def new_match(self, game: str, names: list[str], first_dealer: int = 0,
                  **options: Any) -> str:
        data = {"game": game, "first_dealer": first_dealer, "action": "start"}
        data.update({f"players-{i}": n for i, n in enumerate(names)})
        chosen = {o.key: o.default for o in GAMES[game].options}
        chosen.update(options)
        # An unticked checkbox is simply not sent.
        data.update({f"opt_{k}": ("y" if v is True else v) for k, v in chosen.items()
                     if v is not False and v is not None})
        response = self.post("/matches/new", data)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        return response.headers["Location"].rsplit("/", 1)[1]

    def sheet(self, match_id: str) -> dict[str, Any]:
        response = self.client.get(f"/matches/{match_id}.json")
        assert response.status_code == 200
        return response.get_json()

    def bid(self, match_id: str, bid: Any, *, seat: int | None = None, **kwargs: Any):
        sheet = self.sheet(match_id)
        nxt = sheet["next"]
        return self.post(f"/matches/{match_id}/navawhist/bid", {
            "version": sheet["version"], "number": nxt["number"],
            "seat": nxt["info"]["bidder"] if seat is None else seat, "bid": bid}, **kwargs)

    def tricks(self, match_id: str, tricks: list[Any], trump: str = "", **kwargs: Any):
        sheet = self.sheet(match_id)
        data = {"version": sheet["version"], "number": sheet["next"]["number"],
                "trump": trump, "action": "save"}
        data.update({f"values-{i}": t for i, t in enumerate(tricks)})
        return self.post(f"/matches/{match_id}/navawhist/tricks", data, **kwargs)

    def play_navawhist(self, match_id: str, bids: list[int], tricks: list[int]) -> None:
        """Bids given per seat are made in bidding order; then the tricks."""
        order = self.sheet(match_id)["next"]["info"]["order"]
        for seat in order:
            response = self.bid(match_id, bids[seat], seat=seat)
            assert response.status_code == 303, response.get_data(as_text=True)[:3000]
        response = self.tricks(match_id, tricks)
        assert response.status_code == 303, response.get_data(as_text=True)[:3000]


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client)
