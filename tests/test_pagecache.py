"""One rendered, compressed sheet page serves every browser, each with its own token."""

from __future__ import annotations

import gzip

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


def test_a_cached_page_keeps_its_compressed_bytes_not_the_page(app, table):
    """A worker's memory holds each shared page compressed (docs/speed.md, row 9), not the
    page itself, and makes both a plain and a gzip answer from it."""
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla", "Dario"])
    plain = table.client.get(f"/matches/{match_id}").data
    zipped = table.client.get(f"/matches/{match_id}", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(zipped.data).count(b"name=\"csrf_token\"") == plain.count(
        b"name=\"csrf_token\"") > 1
    with app.app_context():
        [(page, weight)] = [entry for key, entry
                            in app.extensions["scorekeeper.caches"]["pages"].entries.items()
                            if key[0] == match_id]
    assert weight == page.weight() < len(plain) / 2
    assert not any(sum(map(len, value)) >= len(plain) / 2 for value in vars(page).values()
                   if isinstance(value, list) and all(isinstance(v, bytes) for v in value))
