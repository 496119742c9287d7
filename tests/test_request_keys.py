"""A post sent again with its Idempotency-Key (a phone back online sends what it kept) is
stored once and answered with the sheet as it is; the key is stored in the change's
transaction, and forgotten after a day. A key is the phone's own, for the match its post
names, and stored with the hash of the request: another phone's key, or the same key for
another match, is a new request; the same key with another body is refused."""

from __future__ import annotations

import hashlib
import html
import json
import uuid
from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from scorekeeper import create_app
from scorekeeper.db import db, downgrade, upgrade
from scorekeeper.engine import ledger
from scorekeeper.models import Change, Device, RequestKey, _now
from scorekeeper.web import entry

from .conftest import Table, count, database_url, drop_database
from .test_access import invitation

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

    def first_look(keyed: ledger.KeyedRequest) -> str | None:  # read before the first stored it
        seen.append(keyed)
        return ledger.stored_hash(keyed) if len(seen) > 1 else None

    monkeypatch.setattr(entry, "stored_hash", first_look)
    again = table.post(url, form, headers=headers)
    assert again.status_code == 200 and again.headers["HX-Retarget"] == "#live"
    assert count(app, Change) == 1


def test_keys_older_than_a_day_are_forgotten(app, table):
    match_id = table.new_match("navawhist", NAMES)
    with app.app_context():
        db.session.add_all([
            RequestKey(key="old", match_id=match_id, request_hash="0" * 64,
                       created_at=_now() - timedelta(hours=25)),
            RequestKey(key="recent", match_id=match_id, request_hash="0" * 64,
                       created_at=_now() - timedelta(hours=23)),
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


def joined(app, table: Table, match_id: str) -> Table:
    """A second phone, made a member of the match's table by an invitation."""
    phone = Table(app.test_client())
    assert phone.post(invitation(table, match_id), {}).status_code == 303
    return phone


def bids(table: Table, match_id: str) -> list:
    return table.sheet(match_id)["next"]["info"]["bids"]


def stored_keys(app) -> list[RequestKey]:
    with app.app_context():
        return db.session.scalars(db.select(RequestKey).order_by(RequestKey.id)).all()


def device_of(app, phone: Table) -> int:
    """The id of the phone's device, by the token its cookie carries."""
    with phone.client.session_transaction() as session:
        token = session["device"]
    with app.app_context():
        return db.session.scalar(db.select(Device.id).where(Device.token == token))


def test_another_phones_key_on_another_match_stores_that_phones_tap(app, table):
    first = table.new_match("navawhist", NAMES)
    other_phone = joined(app, table, first)
    second = other_phone.new_match("navawhist", ["Dario", "Elena", "Franco"])
    key = str(uuid.uuid4())
    assert table.post(f"/matches/{first}/navawhist/bid", bid_form(table, first, 1),
                      headers=keyed(key)).status_code == 200
    answer = other_phone.post(f"/matches/{second}/navawhist/bid",
                              bid_form(other_phone, second, 0), headers=keyed(key))
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    assert bids(other_phone, second) == [None, 0, None]
    assert bids(table, first) == [None, 1, None]
    assert count(app, Change) == 2 and count(app, RequestKey) == 2


def test_another_phones_key_on_the_same_match_is_a_new_request(app, table):
    match_id = table.new_match("navawhist", NAMES)
    other_phone = joined(app, table, match_id)
    url, key = f"/matches/{match_id}/navawhist/bid", str(uuid.uuid4())
    assert table.post(url, bid_form(table, match_id, 1), headers=keyed(key)).status_code == 200
    answer = other_phone.post(url, bid_form(other_phone, match_id, 0), headers=keyed(key))
    assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    assert bids(table, match_id) == [None, 1, 0]
    assert count(app, Change) == 2 and count(app, RequestKey) == 2


def test_a_phones_key_for_another_match_is_a_new_request(app, table):
    first = table.new_match("navawhist", NAMES)
    second = table.new_match("navawhist", NAMES)
    key = str(uuid.uuid4())
    for match_id in (first, second):
        answer = table.post(f"/matches/{match_id}/navawhist/bid", bid_form(table, match_id, 1),
                            headers=keyed(key))
        assert answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
        assert bids(table, match_id) == [None, 1, None]
    assert count(app, Change) == 2 and count(app, RequestKey) == 2


def test_the_same_key_with_another_body_is_refused_not_replayed(app, table):
    match_id = table.new_match("navawhist", NAMES)
    url, key = f"/matches/{match_id}/navawhist/bid", str(uuid.uuid4())
    assert table.post(url, bid_form(table, match_id, 1), headers=keyed(key)).status_code == 200
    # The next bid, and an undo, each sent with the key of the bid already stored.
    for address, form in [(url, bid_form(table, match_id, 0)),
                          (f"/matches/{match_id}/undo", {"version": 1})]:
        answer = table.post(address, form, headers=keyed(key))
        assert answer.status_code == 422 and "Idempotent-Replayed" not in answer.headers
        assert answer.headers["HX-Retarget"] == "#live"
        words = " ".join(html.unescape(answer.get_data(as_text=True)).split())
        assert ("This tap came with the same key as an earlier, different tap, so it was not "
                "stored: check the sheet and tap again.") in words
    assert bids(table, match_id) == [None, 1, None]
    assert count(app, Change) == 1 and count(app, RequestKey) == 1
    # In Italian too; and without htmx, the whole page says it.
    table.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "it"
    answer = table.post(url, bid_form(table, match_id, 0),
                        headers={"Idempotency-Key": key})
    assert answer.status_code == 422
    words = " ".join(html.unescape(answer.get_data(as_text=True)).split())
    assert "Questo tocco è arrivato con la stessa chiave di un tocco precedente diverso" in words
    assert count(app, Change) == 1


def hash_of(method: str, path: str, form: dict) -> str:
    """The hash entry.request_hash documents, computed here from its recipe."""
    fields = sorted((name, str(value)) for name, value in form.items())
    asked = [method, path, "", [list(pair) for pair in fields]]
    return hashlib.sha256(json.dumps(asked, ensure_ascii=False, separators=(",", ":"))
                          .encode()).hexdigest()


def test_a_tap_sent_again_is_replayed_and_its_key_holds_phone_match_and_hash(app, table):
    match_id = table.new_match("navawhist", NAMES)
    other_phone = joined(app, table, match_id)
    url, key = f"/matches/{match_id}/navawhist/bid", str(uuid.uuid4())
    form = bid_form(other_phone, match_id, 1)
    assert other_phone.post(url, form, headers=keyed(key)).status_code == 200
    # Sent again, its CSRF token in a header this time: the token is no part of the request.
    again = other_phone.client.post(url, data=form, headers={
        **keyed(key), "X-CSRFToken": other_phone.csrf()})
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert bids(table, match_id) == [None, 1, None] and count(app, Change) == 1
    [row] = stored_keys(app)
    assert (row.key, row.match_id) == (key, match_id)
    assert row.device_id == device_of(app, other_phone) != device_of(app, table)
    assert row.request_hash == hash_of("POST", url, form)


def test_a_phone_without_a_device_on_an_open_install_is_replayed_too(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "OPEN_EDIT": True,
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        upgrade()
    try:
        match_id = Table(app.test_client()).new_match("navawhist", NAMES)
        anyone = Table(app.test_client())
        url, key = f"/matches/{match_id}/navawhist/bid", str(uuid.uuid4())
        form = bid_form(anyone, match_id, 1)
        assert anyone.post(url, form, headers=keyed(key)).status_code == 200
        with anyone.client.session_transaction() as session:
            assert "device" not in session
        again = anyone.post(url, form, headers=keyed(key))
        assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
        assert count(app, Change) == 1
        [row] = stored_keys(app)
        assert row.device_id is None and row.request_hash == hash_of("POST", url, form)
    finally:
        drop_database(app)


def test_the_migration_drops_the_keys_stored_before_it(tmp_path):
    """Keys stored without a phone or a hash are dropped, both ways: none is worth keeping."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": database_url(tmp_path)})
    with app.app_context():
        upgrade()
    try:
        match_id = Table(app.test_client()).new_match("navawhist", NAMES)
        with app.app_context():
            db.session.remove()
            downgrade(revision="b8e4f1c2d3a5")
            db.session.execute(text("INSERT INTO request_keys (key, match_id, created_at)"
                                    " VALUES ('old', :m, '2026-12-01')"), {"m": match_id})
            db.session.commit()
            db.session.remove()
            upgrade()
            assert db.session.scalar(text("SELECT count(*) FROM request_keys")) == 0
            db.session.add(RequestKey(key="new", match_id=match_id, request_hash="0" * 64))
            db.session.commit()
            db.session.remove()
            downgrade(revision="b8e4f1c2d3a5")
            assert db.session.scalar(text("SELECT count(*) FROM request_keys")) == 0
            db.session.remove()
            upgrade()
            db.session.remove()
    finally:
        drop_database(app)
