"""Abandoning and deleting a match: kept and listed as abandoned until deleted; deleting asks
first; only a phone that may edit the match can do either."""

from __future__ import annotations

import re

from scorekeeper.models import Change, Hand, Match, Seat

from .conftest import count
from .test_navawhist_web import NAMES


def test_an_abandoned_match_is_kept_and_listed_until_taken_up(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    version = table.sheet(match_id)["version"]
    response = table.post(f"/matches/{match_id}/abandon", {"version": version})
    assert response.status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Abandoned" in page and "This match was abandoned" in page
    assert 'class="entry' not in page and "data-wake-toggle" not in page
    home = client.get("/").get_data(as_text=True)
    assert re.search(r'<h3 class="list-head">Abandoned</h3>\s*<ul class="cards">\s*<li>\s*'
                     rf'<a class="card" href="/matches/{match_id}"', home)
    assert "No match in progress." in home
    assert table.sheet(match_id)["totals"]  # the sheet is kept whole
    # A stale form changes nothing.
    assert table.post(f"/matches/{match_id}/resume", {"version": version}).status_code == 409
    version = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/resume", {"version": version}).status_code == 303
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Abandoned" not in page and 'class="entry' in page


def test_deleting_asks_first_then_removes_everything(table, client, app):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    keep = table.new_match("scala40", NAMES)
    page = client.get(f"/matches/{match_id}/delete").get_data(as_text=True)
    assert "Delete this match?" in page and "1 hand played." in page
    assert "Anna, Bruno, Carla, Dario" in page
    assert count(app, Match) == 2  # asking deletes nothing
    version = table.sheet(match_id)["version"]
    stale = table.post(f"/matches/{match_id}/delete", {"version": version - 1})
    assert stale.status_code == 409 and "changed meanwhile" in stale.get_data(as_text=True)
    response = table.post(f"/matches/{match_id}/delete", {"version": version})
    assert response.status_code == 303 and response.headers["Location"].startswith("/tables/")
    assert client.get(f"/matches/{match_id}").status_code == 404
    assert count(app, Match) == 1 and count(app, Seat) == 4
    assert count(app, Hand) == 0 and count(app, Change) == 0
    assert client.get(f"/matches/{keep}").status_code == 200


def test_only_a_phone_that_may_edit_abandons_or_deletes(table, app):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    stranger = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      stranger.get("/matches/new").get_data(as_text=True)).group(1)
    for verb in ("abandon", "resume", "delete"):
        response = stranger.post(f"/matches/{match_id}/{verb}",
                                 data={"csrf_token": token, "version": version})
        assert response.status_code == 403, verb
    assert stranger.get(f"/matches/{match_id}/delete").status_code == 403
    assert count(app, Match) == 1


def test_a_backup_keeps_the_match_abandoned(table, client):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/abandon", {"version": version}).status_code == 303
    backup = client.get("/backup.json").get_json()
    assert [m["abandoned"] for m in backup["matches"] if m["id"] == match_id] == [True]
