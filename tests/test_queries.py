"""Growth without surprises: the same number of SQL queries whatever the size."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from sqlalchemy import event, update

from scorekeeper.db import db
from scorekeeper.models import Match
from scorekeeper.rules import navawhist


@pytest.fixture
def app(cached_app):
    """What these tests count is what the caches save: the app has them on."""
    return cached_app


@contextmanager
def counting(app):
    queries: list[str] = []
    with app.app_context():
        engine = db.engine

    def count(conn, cursor, statement, parameters, context, executemany):
        if not statement.lstrip().upper().startswith("PRAGMA"):
            queries.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield queries
    finally:
        event.remove(engine, "before_cursor_execute", count)


def queries_for(app, client, url: str) -> int:
    with counting(app) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def play(table, players: int, hands: int) -> str:
    match_id = table.new_match("navawhist", [f"P{i}" for i in range(players)], hook=False)
    for cards in navawhist.deal_schedule(players)[:hands]:
        table.play_navawhist(match_id, [0] * players, [cards] + [0] * (players - 1))
    return match_id


def test_sheet_and_json_queries_do_not_grow(app, table, client):
    small = play(table, 2, 1)
    large = play(table, 10, 12)
    # both name the match their table started after them
    table.new_match("navawhist", ["Anna", "Bruno"])
    for suffix in ("", ".json", "/live", "/history"):
        assert queries_for(app, client, f"/matches/{small}{suffix}") == \
            queries_for(app, client, f"/matches/{large}{suffix}")


def test_home_queries_do_not_grow_with_matches(app, table, client):
    play(table, 3, 2)
    few = queries_for(app, client, "/")
    for players in range(2, 11):
        play(table, players, 3)
    assert queries_for(app, client, "/") == few


def test_a_sheet_page_unchanged_since_it_was_served_costs_one_query(app, table, client):
    """Its version and this phone's right to edit it, asked together; the page itself is
    kept for that version. A follower without a device asks only the version."""
    match_id = play(table, 4, 2)
    follower = app.test_client()
    for phone, editor in ((client, True), (follower, False)):
        assert phone.get(f"/matches/{match_id}").status_code == 200
        with counting(app) as queries:
            page = phone.get(f"/matches/{match_id}").get_data(as_text=True)
        assert len(queries) == 1, queries
        assert ('id="entry"' in page) is editor


def test_a_tap_loads_its_match_with_the_right_to_change_it_in_one_query(app, table, client):
    """A bid asks for the match, its seats and players, and this phone's right to change it
    in one query, at every bid (a worker keeps no match from one request to the next), then
    writes: nothing else is read before the version is claimed. A phone that was never given
    the right is still refused, without a write."""
    match_id = play(table, 4, 1)

    def bid() -> list[str]:
        sheet = table.sheet(match_id)
        nxt = sheet["next"]
        with counting(app) as queries:
            response = table.post(f"/matches/{match_id}/navawhist/bid", {
                "version": sheet["version"], "number": nxt["number"],
                "seat": nxt["info"]["bidder"], "bid": 0}, headers={"HX-Request": "true"})
        assert response.status_code == 200, response.get_data(as_text=True)[:500]
        return queries

    for _bid in range(2):
        queries = bid()
        claim = next(i for i, q in enumerate(queries) if q.lstrip().upper().startswith("UPDATE"))
        assert claim == 1, "\n".join(q[:70] for q in queries[:claim])
        assert all(word in queries[0] for word in ("tournament", "seats", "players"))
    sheet = table.sheet(match_id)
    stranger = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      stranger.get("/matches/new").get_data(as_text=True)).group(1)
    with counting(app) as queries:
        refused = stranger.post(f"/matches/{match_id}/navawhist/bid", data={
            "csrf_token": token, "version": sheet["version"] + 1, "number": 2,
            "seat": 0, "bid": 0})
    assert refused.status_code == 403
    assert not [q for q in queries if q.lstrip().upper().startswith(("UPDATE", "INSERT"))]


def test_a_tap_sees_its_match_as_stored_not_as_the_worker_kept_it(app, table, client):
    """What a worker keeps of a match it changed is only what never changes (its seats and
    players): a tap after another worker abandoned the match, or named its place, sees
    both, and stores nothing."""
    match_id = play(table, 4, 1)
    with app.app_context():
        db.session.execute(update(Match).where(Match.id == match_id).values(
            place="Bar Sport", abandoned=True, version=Match.version + 1))
        db.session.commit()
    sheet = table.sheet(match_id)
    nxt = sheet["next"]
    refused = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": nxt["number"], "seat": nxt["info"]["bidder"],
        "bid": 0}, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "This match was abandoned" in refused.get_data(as_text=True)
    assert "Bar Sport" in table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert table.sheet(match_id)["version"] == sheet["version"]
    assert table.sheet(match_id)["next"]["info"]["bids"] == nxt["info"]["bids"]
