"""A sixth game added from files under tests/ only (tests/sixth_game/), registered the way
docs/architecture.md says a game is added: named in the ``GAMES`` setting. Through the
web: a match started and played, a refusal, a correction, undo and redo, the history, the
PDF, a blank sheet, the statistics, CSV, JSON and a backup round trip."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.db import db, upgrade
from scorekeeper.models import Match
from scorekeeper.rules import GAMES

from .conftest import Table, database_url, drop_database, pdf_text

GAME = "tests.sixth_game.tally"


def tally_app(url: str) -> Flask:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url,
                      "GAMES": [GAME]})
    with app.app_context():
        upgrade()
    return app


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = tally_app(database_url(tmp_path))
    yield app
    drop_database(app)
    GAMES.pop("tally", None)  # the registry of every other test's app has five games


@pytest.fixture
def table(app: Flask) -> Table:
    return Table(app.test_client())


def hand(table: Table, match_id: str, points: list[object], number: int | None = None):
    """Post a hand's points (a correction of hand ``number`` when given)."""
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": number or sheet["next"]["number"]}
    data.update({f"values-{seat}": value for seat, value in enumerate(points)})
    url = f"/matches/{match_id}/tally/" + (f"{number}/edit" if number else "hand")
    return table.post(url, data)


def step(table: Table, match_id: str, action: str):
    version = table.sheet(match_id)["version"]
    return table.post(f"/matches/{match_id}/{action}", {"version": version})


def test_a_sixth_game_from_outside_the_package_is_played_through_the_web(app, table, tmp_path):
    assert "Tally" in table.client.get("/matches/new").get_data(as_text=True)
    page = table.client.get("/matches/new?game=tally").get_data(as_text=True)
    assert 'name="opt_target"' in page
    match_id = table.new_match("tally", ["Ada", "Bea", "Cy"], target=30)
    shown = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'id="values-2"' in shown and "Hand 1" in shown

    # Two hands, then a refusal that names the player and stores nothing.
    assert hand(table, match_id, [5, 10, 0]).status_code == 303
    assert hand(table, match_id, [10, 5, 2]).status_code == 303
    version = table.sheet(match_id)["version"]
    refused = hand(table, match_id, [1, 900, 2])
    assert refused.status_code == 422
    assert "Bea: the points must be from 0 to 500." in refused.get_data(as_text=True)
    assert table.sheet(match_id)["version"] == version
    assert table.sheet(match_id)["totals"] == [15, 15, 2]

    # A correction of hand 1 carries through the totals.
    assert table.client.get(f"/matches/{match_id}/tally/1/edit").status_code == 200
    assert hand(table, match_id, [5, 12, 0], number=1).status_code == 303
    assert table.sheet(match_id)["totals"] == [15, 17, 2]

    # Undo takes the correction back, redo puts it back.
    assert step(table, match_id, "undo").status_code == 303
    assert table.sheet(match_id)["totals"] == [15, 15, 2]
    assert step(table, match_id, "redo").status_code == 303
    assert table.sheet(match_id)["totals"] == [15, 17, 2]

    history = table.client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Hand 1 corrected: Bea 12 points (was 10)" in history
    assert "Hand 1: change undone" in history and "Hand 1: redone" in history

    # The hand that reaches the target finishes the match.
    assert hand(table, match_id, [20, 0, 0]).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["winners"] == [0]
    assert sheet["totals"] == [35, 17, 2] and sheet["game"] == "tally"

    text, pages, _pages = pdf_text(table.client.get(f"/matches/{match_id}.pdf"))
    assert pages == 1 and "Tally" in text and "Ada" in text and "35" in text
    blank, _n, _p = pdf_text(table.client.get("/sheets/blank.pdf?game=tally&players=4"))
    assert "At most 500 points a hand." in blank

    rows = list(csv.reader(io.StringIO(table.client.get(f"/matches/{match_id}.csv")
                                       .get_data(as_text=True))))
    assert rows[0][:4] == ["Hand", "Dealer", "Ada", "Bea"]
    assert rows[-1][:5] == ["Total", "", "35", "17", "2"]

    with app.app_context():
        table_id = db.session.get(Match, match_id).table_id
    stats = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    assert "Tally" in stats and "Best hand of the table" in stats

    # A backup of the table carries the match to another instance that has the game.
    backup = table.client.get("/backup.json").get_data()
    other = tally_app(f"sqlite:///{tmp_path / 'other.db'}")  # always a second database
    try:
        elsewhere = Table(other.test_client())
        page = elsewhere.upload(backup)
        assert page.status_code == 200
        # An upload takes no address: the page gives the match's new one.
        moved = re.search(r'href="/matches/([^"]+)" data-copy-of="' + match_id,
                          page.get_data(as_text=True)).group(1)
        again = elsewhere.sheet(moved)
        assert again["totals"] == [35, 17, 2] and again["game"] == "tally"
        assert json.loads(backup)["matches"][0]["game"] == "tally"
    finally:
        drop_database(other)
