"""One rendered sheet page serves every browser, each with its own token."""

from __future__ import annotations

import dataclasses
import gzip

import pytest

from scorekeeper.web.pagecache import MARK

from .conftest import CSRF, Table


def test_browsers_share_one_cached_page_and_keep_their_own_tokens(app, table):
    match_id = table.new_match("cavallore", ["Anna"])
    pages = {}
    browsers = [("keeper", table), ("follower", Table(app.test_client())),
                ("another follower", Table(app.test_client()))]
    for name, browser in browsers:
        plain = browser.client.get(f"/matches/{match_id}")
        zipped = browser.client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["Content-Encoding"] == "gzip"
        pages[name] = plain.get_data(as_text=True)
        unzipped = gzip.decompress(zipped.data).decode()
        token = CSRF.search(unzipped).group(1)  # signed afresh for each request
        assert unzipped.replace(token, "T") == pages[name].replace(
            CSRF.search(pages[name]).group(1), "T")
        assert MARK not in pages[name]
    keeper_token = CSRF.search(pages["keeper"]).group(1)
    tokens = {CSRF.search(page).group(1) for page in pages.values()}
    assert len(tokens) == 3
    if app.config["CACHES"]:
        with app.app_context():
            shared = [key for key in app.extensions["scorekeeper.caches"]["pages"].entries
                      if key[0] == match_id]
        # one entry for the keeper (who may edit), one for both followers: none per token
        assert len(shared) == 2
    # the keeper's token from the shared page is accepted for a change
    sheet = table.sheet(match_id)
    response = table.client.post(f"/matches/{match_id}/cavallore/deal", data={
        "csrf_token": keeper_token, "version": sheet["version"], "number": 1, "placed": 4})
    assert response.status_code == 303


def test_a_cached_page_is_frozen_text_with_no_token_in_it(app, table):
    """What a worker keeps of a shared page is its text with the marker where each token
    goes: nothing a browser's answer could change, nothing of any browser's own."""
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla", "Dario"])
    plain = table.client.get(f"/matches/{match_id}").data
    zipped = table.client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.data).count(b"name=\"csrf_token\"") == plain.count(
        b"name=\"csrf_token\"") > 1
    if not app.config["CACHES"]:
        return
    with app.app_context():
        [page] = [value for key, value
                  in app.extensions["scorekeeper.caches"]["pages"].entries.items()
                  if key[0] == match_id]
    token = CSRF.search(plain.decode()).group(1)
    assert page.html.count(MARK) == plain.decode().count(token) > 1
    assert token not in page.html
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.html = ""
