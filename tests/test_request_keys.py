"""A post sent again with its Idempotency-Key (a phone back online sends what it kept) is
stored once and answered with the sheet as it is; the key is stored in the change's
transaction, and forgotten after a day."""

from __future__ import annotations

import uuid
from datetime import timedelta

from sqlalchemy.exc import IntegrityError

from scorekeeper.db import db
from scorekeeper.engine import ledger
from scorekeeper.models import Change, RequestKey, _now
from scorekeeper.web import entry

from .conftest import count

NAMES = ["Anna", "Bruno", "Carla"]
HTMX = {"HX-Request": "true"}


def keyed(key: str | None = None) -> dict[str, str]:
    """The headers of a tap of the live sheet, with a new key unless ``key`` is given."""
    return {**HTMX, "Idempotency-Key": key or str(uuid.uuid4())}


def bid_form(table, match_id: str, bid: int) -> dict:
    """The bid form as the page shows it now, for the next bidder."""
    sheet = table.sheet(match_id)
    return {"version": sheet["version"], "number": sheet["next"]["number"],
            "seat": sheet["next"]["info"]["bidder"], "bid": bid}


def history(table, match_id: str) -> str:
    return table.client.get(f"/matches/{match_id}/history").get_data(as_text=True)


def test_a_bid_sent_twice_with_its_key_is_stored_once(app, table):
    match_id = table.new_match("navawhist", NAMES)
    url = f"/matches/{match_id}/navawhist/bid"
    form, headers = bid_form(table, match_id, 1), keyed()
    first = table.post(url, form, headers=headers)
    assert first.status_code == 200 and "HX-Retarget" not in first.headers
    again = table.post(url, form, headers=headers)
    # The sheet as it is now, over the whole live sheet: no refusal, nothing stored again.
    assert again.status_code == 200
    assert again.headers["HX-Retarget"] == "#live" and again.headers["HX-Reselect"] == "#live"
    assert again.headers["Idempotent-Replayed"] == "true"
    assert 'id="live"' in again.get_data(as_text=True)
    assert 'data-version="1"' in again.get_data(as_text=True)
    sheet = table.sheet(match_id)
    assert sheet["version"] == 1 and sheet["next"]["info"]["bids"] == [None, 1, None]
    assert count(app, Change) == 1 and count(app, RequestKey) == 1
    assert history(table, match_id).count("Bruno bid 1") == 1


def test_a_saved_hand_sent_again_is_stored_once(app, table):
    match_id = table.new_match("navawhist", NAMES)
    for seat in (1, 2, 0):
        assert table.bid(match_id, 0, seat=seat).status_code == 303
    headers = keyed()
    sheet = table.sheet(match_id)
    form = {"version": sheet["version"], "number": 1, "trump": "", "action": "save",
            "values-0": 1, "values-1": 0, "values-2": 0}
    url = f"/matches/{match_id}/navawhist/tricks"
    assert table.post(url, form, headers=headers).status_code == 200
    assert table.post(url, form, headers=headers).status_code == 200
    sheet = table.sheet(match_id)
    assert len(sheet["hands"]) == 1 and sheet["next"]["number"] == 2
    assert sheet["version"] == 4 and count(app, Change) == 4
    assert history(table, match_id).count("Anna 1 trick") == 1


def test_undo_sent_twice_takes_back_one_change(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.bid(match_id, 0)
    table.bid(match_id, 1)
    form, headers = {"version": table.sheet(match_id)["version"]}, keyed()
    for _ in range(2):
        assert table.post(f"/matches/{match_id}/undo", form, headers=headers).status_code == 200
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 0, None]
    assert count(app, Change) == 3


def test_different_keys_store_twice_where_the_rules_allow(app, table):
    match_id = table.new_match("navawhist", NAMES)
    url = f"/matches/{match_id}/navawhist/bid"
    assert table.post(url, bid_form(table, match_id, 1), headers=keyed()).status_code == 200
    assert table.post(url, bid_form(table, match_id, 0), headers=keyed()).status_code == 200
    # The same bid again, made for the sheet as it is now: Bruno's bid may still change.
    again = {"version": 2, "number": 1, "seat": 1, "bid": 1}
    assert table.post(url, again, headers=keyed()).status_code == 200
    assert table.post(url, again, headers=keyed()).status_code == 409  # made for version 2
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 1, 0]
    assert count(app, Change) == 3 and count(app, RequestKey) == 3


def test_a_refused_post_stores_no_key(app, table):
    match_id = table.new_match("navawhist", NAMES)
    url = f"/matches/{match_id}/navawhist/bid"
    key = str(uuid.uuid4())
    stale = {**bid_form(table, match_id, 1), "version": 7}
    assert table.post(url, stale, headers=keyed(key)).status_code == 409
    table.bid(match_id, 0)
    table.bid(match_id, 0)
    # The dealer may not bid what makes the bids add up to the one card dealt.
    assert table.post(url, bid_form(table, match_id, 1), headers=keyed(key)).status_code == 422
    assert count(app, RequestKey) == 0 and count(app, Change) == 2
    # The key was never used: the same key with a bid the rules take stores it.
    assert table.post(url, bid_form(table, match_id, 0), headers=keyed(key)).status_code == 200
    assert count(app, RequestKey) == 1 and count(app, Change) == 3


def test_the_key_is_stored_in_the_changes_transaction(app, table, monkeypatch):
    match_id = table.new_match("navawhist", NAMES)
    url = f"/matches/{match_id}/navawhist/bid"
    assert table.post(url, bid_form(table, match_id, 1), headers=keyed()).status_code == 200
    assert count(app, RequestKey) == 1
    commit = db.session.commit

    def failing() -> None:
        raise IntegrityError("INSERT INTO hands", {}, Exception("refused"))

    monkeypatch.setattr(db.session, "commit", failing)
    response = table.post(url, bid_form(table, match_id, 0), headers=keyed())
    monkeypatch.setattr(db.session, "commit", commit)
    assert response.status_code == 409
    assert count(app, RequestKey) == 1 and count(app, Change) == 1


def test_a_conflict_with_a_key_stored_meanwhile_answers_the_sheet(app, table, monkeypatch):
    """The same request twice at once: the second waits, then finds the version taken by the
    first, whose key is stored by then. It gets the sheet, not a refusal."""
    match_id = table.new_match("navawhist", NAMES)
    url = f"/matches/{match_id}/navawhist/bid"
    form, headers = bid_form(table, match_id, 1), keyed()
    assert table.post(url, form, headers=headers).status_code == 200
    seen = []

    def first_look(key: str) -> bool:  # the key read before the first request stored it
        seen.append(key)
        return len(seen) > 1 and ledger.key_used(key)

    monkeypatch.setattr(entry, "key_used", first_look)
    again = table.post(url, form, headers=headers)
    assert again.status_code == 200 and again.headers["HX-Retarget"] == "#live"
    assert count(app, Change) == 1


def test_keys_older_than_a_day_are_forgotten(app, table):
    match_id = table.new_match("navawhist", NAMES)
    with app.app_context():
        db.session.add_all([
            RequestKey(key="old", match_id=match_id, created_at=_now() - timedelta(hours=25)),
            RequestKey(key="recent", match_id=match_id, created_at=_now() - timedelta(hours=23)),
        ])
        db.session.commit()
    key = str(uuid.uuid4())
    table.post(f"/matches/{match_id}/navawhist/bid", bid_form(table, match_id, 1),
               headers=keyed(key))
    with app.app_context():
        assert sorted(db.session.scalars(db.select(RequestKey.key))) == sorted(["recent", key])


def test_without_a_key_nothing_changes(app, table):
    match_id = table.new_match("navawhist", NAMES)
    assert table.bid(match_id, 1).status_code == 303
    assert table.bid(match_id, 1, headers=HTMX).status_code == 200
    assert count(app, RequestKey) == 0 and count(app, Change) == 2


def test_a_key_no_page_sends_is_refused(app, table):
    match_id = table.new_match("navawhist", NAMES)
    response = table.post(f"/matches/{match_id}/navawhist/bid", bid_form(table, match_id, 1),
                          headers=keyed("not a key; DROP TABLE"))
    assert response.status_code == 400
    assert count(app, Change) == 0


def test_deleting_a_match_deletes_its_keys(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.post(f"/matches/{match_id}/navawhist/bid", bid_form(table, match_id, 1),
               headers=keyed())
    assert count(app, RequestKey) == 1
    assert table.post(f"/matches/{match_id}/delete", {"version": 1}).status_code == 303
    assert count(app, RequestKey) == 0
