"""Growth without surprises: the same number of SQL queries whatever the size."""

from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event

from scorekeeper.db import db
from scorekeeper.rules import navawhist


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
