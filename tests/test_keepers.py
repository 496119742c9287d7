"""Removal is final: keepers remove phones, the table's secret changes with every removal,
and the invitations of a removed phone grant nothing. Each way back in that was tried."""

from __future__ import annotations

import json
import re

from scorekeeper.db import db
from scorekeeper.models import Membership
from scorekeeper.models import Table as TableRow

from .conftest import Table
from .test_access import invitation, table_of

NAMES = ["Anna", "Bruno", "Carla"]


def phone(app) -> Table:
    return Table(app.test_client())


def device_ids(app, table_id: str) -> dict[bool, list[int]]:
    """The table's phones, keepers under True."""
    with app.app_context():
        rows = db.session.scalars(db.select(Membership).where(
            Membership.table_id == table_id).order_by(Membership.joined_at)).all()
        return {True: [m.device_id for m in rows if m.keeper],
                False: [m.device_id for m in rows if not m.keeper]}


def joined(app, table: Table, match_id: str) -> Table:
    guest = phone(app)
    assert guest.post(invitation(table, match_id), {}).status_code == 303
    return guest


def remove(by: Table, table_id: str, device_id: int):
    return by.post(f"/tables/{table_id}/phones/{device_id}/remove", {})


def test_the_phone_that_made_the_table_keeps_it_and_only_keepers_remove(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest, other = joined(app, table, match_id), joined(app, table, match_id)
    phones = device_ids(app, table_id)
    [founder], (guest_id, other_id) = phones[True], phones[False]
    # A member who keeps nothing removes nobody, the founder least of all.
    for target in (founder, other_id):
        refused = remove(guest, table_id, target)
        assert refused.status_code == 403 and "Only a keeper" in refused.get_data(as_text=True)
    assert len(device_ids(app, table_id)[False]) == 2
    # Nor may it name itself a keeper.
    assert guest.post(f"/tables/{table_id}/phones/{guest_id}/keeper", {}).status_code == 403
    # The page shows who keeps the table, and offers removal only to keepers.
    page = guest.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "keeper" in page and "Remove Phone" not in page and "Only a keeper" in page
    keeper_page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert keeper_page.count("Make keeper") == 2
    # The keeper names the guest a keeper; the guest may then remove the other phone.
    assert table.post(f"/tables/{table_id}/phones/{guest_id}/keeper", {}).status_code == 303
    removed = remove(guest, table_id, other_id)
    assert removed.status_code == 303
    assert other.bid(match_id, 0).status_code == 403
    done = guest.client.get(removed.headers["Location"]).get_data(as_text=True)
    assert "Phone 3 removed: it can no longer enter scores here" in done


def test_no_one_removes_the_last_keeper(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest = joined(app, table, match_id)
    [founder], [guest_id] = device_ids(app, table_id).values()
    refused = remove(table, table_id, founder)  # leaving, as the last keeper
    assert refused.status_code == 403 and "last keeper" in refused.get_data(as_text=True)
    stop = table.post(f"/tables/{table_id}/phones/{founder}/keeper", {"keeper": "0"})
    assert stop.status_code == 403
    # With a second keeper the first may leave, and a plain member may always leave.
    assert table.post(f"/tables/{table_id}/phones/{guest_id}/keeper", {}).status_code == 303
    assert remove(table, table_id, founder).status_code == 303
    assert device_ids(app, table_id) == {True: [guest_id], False: []}
    assert table.bid(match_id, 0).status_code == 403
    assert guest.bid(match_id, 0).status_code == 303


def test_a_removed_phone_cannot_walk_back_in_with_an_old_backup(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 1, 0], [1, 0, 0])
    table_id = table_of(table, match_id)
    guest = joined(app, table, match_id)
    backup = guest.client.get("/backup.json").data  # made while it was a member
    assert json.loads(backup)["tables"][0]["secret"]
    with app.app_context():
        before = db.session.get(TableRow, table_id).secret
    [guest_id] = device_ids(app, table_id)[False]
    assert remove(table, table_id, guest_id).status_code == 303
    with app.app_context():
        assert db.session.get(TableRow, table_id).secret != before
    # The removed phone, and a brand-new browser with a copy of the file: neither becomes
    # a member; the matches come in as copies in a table of their own, and the page says so.
    for comer in (guest, phone(app)):
        page = comer.upload(backup).get_data(as_text=True)
        assert "copy" in page
        assert comer.bid(match_id, 0).status_code == 403
        assert comer.client.get(f"/tables/{table_id}").status_code == 403
        copy = re.search(r'href="/matches/([^"]+)" data-copy-of="' + match_id, page).group(1)
        assert table_of(comer, copy) != table_id
    assert device_ids(app, table_id) == {True: device_ids(app, table_id)[True], False: []}
    # The founder's backup made after the removal still brings the founder back.
    fresh = table.client.get("/backup.json").data
    cleared = phone(app)
    assert "1 already here" in cleared.upload(fresh).get_data(as_text=True)
    assert cleared.bid(match_id, 0).status_code == 303


def test_the_invitations_of_a_removed_phone_grant_nothing(app, table):
    match_id = table.new_match("navawhist", NAMES)
    table_id = table_of(table, match_id)
    guest = joined(app, table, match_id)
    link = invitation(guest, match_id)  # made before the removal
    kept = invitation(table, match_id)  # the keeper's own
    [guest_id] = device_ids(app, table_id)[False]
    assert remove(table, table_id, guest_id).status_code == 303
    stranger = phone(app)
    refused = stranger.post(link, {})
    assert refused.status_code == 403 and "no longer at the table" in refused.get_data(
        as_text=True)
    assert stranger.client.get(link).status_code == 403
    assert stranger.bid(match_id, 0).status_code == 403
    # An invitation of a phone still at the table works as before.
    assert stranger.post(kept, {}).status_code == 303
    assert stranger.bid(match_id, 0).status_code == 303


def test_an_upload_cannot_take_a_match_s_address_on_another_instance(app, table, tmp_path):
    """A follower who knows a match's address forges a backup under it and uploads it to
    the instance the match is moving to: the forgery gets a new address, and the real
    match, moved by the command line of that instance, keeps its own."""
    from scorekeeper import create_app
    from scorekeeper.db import upgrade

    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 1, 0], [1, 0, 0])
    real = table.client.get("/backup.json").data
    forged = json.loads(real)
    forged["tables"][0]["secret"] = "forged-secret-of-the-follower"
    forged["matches"][0]["hands"][0]["data"]["tricks"] = [0, 1, 0]
    there = create_app({"TESTING": True, "SECRET_KEY": "t2",
                        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'there.db'}"})
    with there.app_context():
        upgrade()
    follower = Table(there.test_client())
    page = follower.upload(json.dumps(forged).encode()).get_data(as_text=True)
    assert "1 matches added" in page
    assert follower.client.get(f"/matches/{match_id}").status_code == 404
    moved = tmp_path / "real.json"
    moved.write_bytes(real)
    result = there.test_cli_runner().invoke(args=["import", str(moved)])
    assert result.exit_code == 0, result.output
    sheet = Table(there.test_client()).sheet(match_id)
    assert sheet["hands"][0]["inputs"]["tricks"] == [1, 0, 0]
