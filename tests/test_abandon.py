"""Abandoning and deleting a match: kept and listed as abandoned until deleted; deleting asks
first; only a phone that may edit the match can do either."""

from __future__ import annotations

import re

import pytest

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


ABANDONED = "This match was abandoned: take it up again"


def _enter(table, game: str, match_id: str) -> tuple[str, dict]:
    """The address and form that enter the next hand of ``game``."""
    sheet = table.sheet(match_id)
    base = {"version": sheet["version"], "number": sheet["next"]["number"]}
    if game == "navawhist":
        if sheet["next"]["info"]["phase"] == "bids":
            return "navawhist/bid", {**base, "seat": sheet["next"]["info"]["bidder"], "bid": 0}
        return "navawhist/tricks", {**base, "action": "save",
                                    **{f"values-{i}": t for i, t in enumerate([1, 0, 0, 0])}}
    if game == "quarantotto":
        return "quarantotto/game", {**base, "action": "save", "closer": 0, "values-0": "",
                                    "values-1": "A K", "values-2": "7", "values-3": "5"}
    if game == "scala40":
        return "scala40/deal", {**base, "action": "save", "closer": 0, "values-1": "A K",
                                "values-2": "7", "values-3": "5"}
    if game == "fortyfive":
        return "fortyfive/hand", {**base, "action": "save", "mode": "sides", "side-0": 3,
                                  "side-1": 2, "bonus_side": 0}
    return "cavallore/deal", {**base, "placed": 12, "seat": 0}


def _correct(table, game: str, match_id: str) -> tuple[str, dict]:
    """The address and form that correct hand 1 of ``game``."""
    url, data = _enter(table, game, match_id)
    if game == "navawhist":
        data = {"version": data["version"], "number": 1, "trump": "",
                **{f"bids-{i}": b for i, b in enumerate([1, 0, 1, 1])},
                **{f"values-{i}": t for i, t in enumerate([0, 1, 0, 0])}}
    data["number"] = 1
    return f"{game}/1/edit", data


@pytest.mark.parametrize("game", ["navawhist", "quarantotto", "scala40", "fortyfive",
                                  "cavallore"])
def test_an_abandoned_match_accepts_no_hand(table, app, game):
    match_id = table.new_match(game, NAMES)
    # Hand 1 played, hand 2 begun then undone: entry, correction, undo and redo all apply.
    for _ in range(6 if game == "navawhist" else 2):  # Navawhist: four bids and tricks
        url, data = _enter(table, game, match_id)
        response = table.post(f"/matches/{match_id}/{url}", data)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    version = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/undo", {"version": version}).status_code == 303
    version = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/abandon", {"version": version}).status_code == 303
    before, changes = table.sheet(match_id), count(app, Change)
    version = before["version"]
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/undo" not in page and f"/matches/{match_id}/redo" not in page
    for url, data in [_enter(table, game, match_id), _correct(table, game, match_id),
                      ("undo", {"version": version}), ("redo", {"version": version})]:
        response = table.post(f"/matches/{match_id}/{url}", data)
        assert response.status_code == 422, (url, response.status_code)
        assert ABANDONED in response.get_data(as_text=True), url
    assert table.sheet(match_id) == before and count(app, Change) == changes


def test_a_page_older_than_the_abandon_says_so(table):
    match_id = table.new_match("quarantotto", NAMES)
    url, data = _enter(table, "quarantotto", match_id)
    version = data["version"]
    assert table.post(f"/matches/{match_id}/abandon", {"version": version}).status_code == 303
    # A hand saved on a page made before the abandon: refused as stale, and told why.
    response = table.post(f"/matches/{match_id}/{url}", data)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Another phone abandoned this match" in page and "saved game" not in page
    assert table.sheet(match_id)["hands"] == []


@pytest.mark.parametrize("game", ["navawhist", "quarantotto", "scala40", "fortyfive",
                                  "cavallore"])
def test_a_correction_lands_on_the_next_entry_saying_it_was_saved(table, game):
    match_id = table.new_match(game, NAMES)
    for _ in range(5 if game == "navawhist" else 1):  # Navawhist: four bids and tricks
        url, data = _enter(table, game, match_id)
        assert table.post(f"/matches/{match_id}/{url}", data).status_code == 303
    url, data = _correct(table, game, match_id)
    data["version"] = table.sheet(match_id)["version"]
    response = table.post(f"/matches/{match_id}/{url}", data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    assert response.location.endswith("#turn") and "step=correct" in response.location
    page = table.client.get(response.location).get_data(as_text=True)
    assert "Correction saved." in page and f"/matches/{match_id}/undo" in page
