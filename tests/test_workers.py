"""Several workers share nothing but the database: what one writes, the other serves.

Two app instances (two ``create_app()`` calls, as two gunicorn workers or two servers
behind a load balancer would make) on the same database, PostgreSQL when
TEST_DATABASE_URL is set, each served by its own threaded server on 127.0.0.1.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.db import db

from .test_stress import Phone, serve

pytestmark = pytest.mark.slow


@pytest.fixture
def second_app(app: Flask) -> Iterator[Flask]:
    """Another worker: its own app, engine and caches, on the first one's database."""
    other = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"],
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def workers(app: Flask, second_app: Flask) -> Iterator[tuple[str, str]]:
    """The base URLs of the two workers."""
    assert app is not second_app and app.extensions["sqlalchemy"] is second_app.extensions[
        "sqlalchemy"]  # one extension object, bound to two apps with an engine each
    with serve(app) as first, serve(second_app) as second:
        yield first, second


def deal(phone: Phone, match_id: str, placed: int) -> int:
    """Enter the next Cavallo Re deal through ``phone``'s worker; the status."""
    sheet = phone.sheet(match_id)
    return phone.post(f"/matches/{match_id}/cavallore/deal", {
        "version": sheet["version"], "number": sheet["next"]["number"], "placed": placed,
        "seat": 0}).status


def test_a_change_through_one_worker_is_live_on_the_other(workers) -> None:
    first, second = workers
    keeper = Phone(first)
    match_id = keeper.new_match("cavallore", ["Anna"])
    assert deal(keeper, match_id, 30) == 303
    follower = Phone(second)  # another phone, following through the other worker
    live = f"/matches/{match_id}/live"
    page = follower.get(live)
    etag = page.headers["ETag"]
    assert page.status == 200 and etag and 'id="deal-1"' in page.body.decode()
    assert 'id="deal-2"' not in page.body.decode()
    assert follower.get(live, {"If-None-Match": etag}).status == 304
    assert follower.sheet(match_id)["version"] == keeper.sheet(match_id)["version"]

    assert deal(keeper, match_id, 36) == 303
    changed = follower.get(live, {"If-None-Match": etag})
    assert changed.status == 200 and changed.headers["ETag"] != etag
    assert 'id="deal-2"' in changed.body.decode()
    assert follower.get(live, {"If-None-Match": changed.headers["ETag"]}).status == 304
    sheet = follower.sheet(match_id)
    assert [h["inputs"]["placed"] for h in sheet["hands"]] == [30, 36]
    assert sheet == keeper.sheet(match_id)

    # An undo through the first worker: the second serves the sheet without it at once.
    version = keeper.sheet(match_id)["version"]
    assert keeper.post(f"/matches/{match_id}/undo", {"version": version}).status == 303
    undone = follower.get(live, {"If-None-Match": changed.headers["ETag"]})
    assert undone.status == 200 and 'id="deal-2"' not in undone.body.decode()
    assert [h["inputs"]["placed"] for h in follower.sheet(match_id)["hands"]] == [30]


def test_the_edit_right_from_one_worker_is_honoured_by_the_other(workers) -> None:
    first, second = workers
    keeper = Phone(first)
    match_id = keeper.new_match("cavallore", ["Anna"])
    # The same browser (its cookie jar) reaching the other worker: the right holds there.
    keeper_there = Phone(second, jar=keeper.jar)
    keeper_there.token = keeper.csrf()
    assert deal(keeper_there, match_id, 12) == 303
    assert 'name="placed"' in keeper_there.get(f"/matches/{match_id}").body.decode()

    stranger = Phone(second)
    assert deal(stranger, match_id, 20) == 403
    stranger.join(keeper.edit_link(match_id))  # the QR code shown by worker 1 ...
    assert deal(stranger, match_id, 20) == 303  # ... honoured by worker 2
    stranger_first = Phone(first, jar=stranger.jar)
    stranger_first.token = stranger.csrf()
    assert deal(stranger_first, match_id, 21) == 303  # and by worker 1

    assert [h["inputs"]["placed"] for h in keeper.sheet(match_id)["hands"]] == [12, 20, 21]
    other = Phone(first).new_match("cavallore", ["Bruno"])  # another phone's table
    assert deal(stranger, other, 5) == 403  # the right is for that table only


def test_an_unchanged_sheet_costs_a_304_to_a_browser_that_accepts_gzip(workers) -> None:
    first, second = workers
    keeper = Phone(first)
    match_id = keeper.new_match("cavallore", ["Anna"])
    assert deal(keeper, match_id, 30) == 303
    follower = Phone(second, headers={"Accept-Encoding": "gzip, deflate, br"})
    live = f"/matches/{match_id}/live"
    page = follower.get(live)
    assert page.status == 200 and page.headers["Content-Encoding"] == "gzip"
    assert 'id="deal-1"' in gzip.decompress(page.body).decode()
    assert follower.get(live, {"If-None-Match": page.headers["ETag"]}).status == 304
