"""Undo is a stack, Redo puts back what Undo took, and a write costs the same at any hand."""

from __future__ import annotations

import pytest
from sqlalchemy import event, select

from scorekeeper.db import db
from scorekeeper.models import Change

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def step(table, match_id: str, action: str):
    return table.post(f"/matches/{match_id}/{action}",
                      {"version": table.sheet(match_id)["version"]})


def totals(table, match_id: str) -> list[int]:
    return table.sheet(match_id)["totals"]


def correct(table, match_id: str, number: int, tricks: list[int], bids: list[int]):
    data = {"version": table.sheet(match_id)["version"], "number": number}
    data.update({f"bids-{s}": b for s, b in enumerate(bids)})
    data.update({f"values-{s}": t for s, t in enumerate(tricks)})
    response = table.post(f"/matches/{match_id}/navawhist/{number}/edit", data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]


def test_undo_redo_and_undo_of_a_redo(table, app):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    table.play_navawhist(match_id, [0, 1], [1, 1])
    table.play_navawhist(match_id, [1, 0], [1, 1])
    entered = totals(table, match_id)
    correct(table, match_id, 1, [0, 2], [0, 1])
    corrected = totals(table, match_id)
    assert corrected != entered

    assert step(table, match_id, "undo").status_code == 303   # the correction
    assert totals(table, match_id) == entered
    assert step(table, match_id, "undo").status_code == 303   # hand 2's tricks
    assert len(table.sheet(match_id)["hands"]) == 1
    assert step(table, match_id, "redo").status_code == 303   # hand 2 again
    assert totals(table, match_id) == entered
    assert step(table, match_id, "redo").status_code == 303   # the correction again
    assert totals(table, match_id) == corrected
    assert step(table, match_id, "redo").status_code == 422   # nothing more to redo
    assert step(table, match_id, "undo").status_code == 303   # undo of a redo
    assert totals(table, match_id) == entered
    assert step(table, match_id, "redo").status_code == 303
    assert totals(table, match_id) == corrected
    with app.app_context():
        kinds = list(db.session.scalars(select(Change.kind).where(
            Change.match_id == match_id).order_by(Change.id)))
    assert kinds[-7:] == ["correct", "undo", "undo", "redo", "redo", "undo", "redo"]


def test_a_new_entry_ends_what_can_be_redone(table):
    match_id = table.new_match("cavallore", ["Anna"])
    for placed in (3, 36):
        sheet = table.sheet(match_id)
        assert table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": sheet["next"]["number"],
            "placed": placed}).status_code == 303
    assert step(table, match_id, "undo").status_code == 303
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/cavallore/deal", {
        "version": sheet["version"], "number": 2, "placed": 7}).status_code == 303
    response = step(table, match_id, "redo")
    assert response.status_code == 422
    assert "There is nothing to redo." in response.get_data(as_text=True)
    assert [h["inputs"]["placed"] for h in table.sheet(match_id)["hands"]] == [3, 7]


def test_a_stale_undo_or_redo_changes_nothing(table):
    match_id = table.new_match("cavallore", ["Anna"])
    sheet = table.sheet(match_id)
    table.post(f"/matches/{match_id}/cavallore/deal",
               {"version": sheet["version"], "number": 1, "placed": 5})
    for action in ("undo", "redo"):
        response = table.post(f"/matches/{match_id}/{action}", {"version": sheet["version"]})
        assert response.status_code == 409
    assert len(table.sheet(match_id)["hands"]) == 1


@pytest.fixture
def queries(app):
    """The SQL statements the app sends while the list is being filled."""
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args):
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    yield statements
    event.remove(engine, "before_cursor_execute", record)


def test_a_bid_costs_the_same_queries_at_hand_one_and_hand_ten(table, queries):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    counts = []
    for number in range(1, 11):
        sheet = table.sheet(match_id)
        assert sheet["next"]["number"] == number
        queries.clear()  # the bid, with the sheet's JSON read first as a phone would
        response = table.bid(match_id, 0, headers={"HX-Request": "true"})
        assert response.status_code == 200
        counts.append(len(queries))
        for seat in sheet["next"]["info"]["order"][1:]:
            assert table.bid(match_id, 0, seat=seat).status_code == 303
        cards = table.sheet(match_id)["next"]["info"]["cards"]
        assert table.tricks(match_id, [cards, 0, 0, 0]).status_code == 303
    # The same queries at every hand: the JSON's match; the match with its seats, players
    # and the edit right; the version claimed with the match's state, the table's version,
    # the hand and the change written (with the caches off, a few reads more each time: the
    # sheet read again for what the live region says among them, and where the match stands
    # in a tournament read again for whether its hands wait to be accepted).
    assert len(set(counts)) == 1, counts
    assert counts[0] <= (7 if table.client.application.config["CACHES"] else 18), \
        "\n".join(q[:60] for q in queries)


def test_the_buttons_say_what_they_take_back_and_the_history_says_it_was_redone(table, client):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    bidder = table.sheet(match_id)["next"]["info"]["bidder"]
    assert table.bid(match_id, 1).status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"Undo: {NAMES[bidder]} bid 1" in page and "Redo:" not in page
    assert step(table, match_id, "undo").status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"Redo: {NAMES[bidder]} bid 1" in page and "Undo:" not in page
    assert step(table, match_id, "redo").status_code == 303
    history = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Hand 1: redone: " in history and f"{NAMES[bidder]} bid 1" in history
    table.post("/lang/it", {})
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"Annulla: {NAMES[bidder]}" in page


def test_a_whole_hand_is_named_by_what_the_button_does_to_it(table, client):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    for seat in table.sheet(match_id)["next"]["info"]["order"]:
        assert table.bid(match_id, 0, seat=seat).status_code == 303
    assert table.tricks(match_id, [1, 0, 0, 0]).status_code == 303
    page = client.get(f"/matches/{match_id}?saved=1").get_data(as_text=True)
    assert "Hand 1 saved." in page and "Undo the save of Hand 1<" in page
    assert step(table, match_id, "undo").status_code == 303
    page = client.get(f"/matches/{match_id}?step=undo").get_data(as_text=True)
    assert "Undone: Hand 1." in page and "Redo: save Hand 1 again<" in page
