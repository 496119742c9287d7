"""Nobody in where they don't belong: edit rights, sharing, headers, CSRF."""

from __future__ import annotations

import re

from scorekeeper import create_app
from scorekeeper.models import Change

from .conftest import CSRF, Table

NAMES = ["Anna", "Bruno", "Carla"]


def other_phone(app) -> Table:
    """A second browser: its own cookies, no right to anything yet."""
    return Table(app.test_client())


def changes(app) -> int:
    from scorekeeper.db import db

    with app.app_context():
        return db.session.query(Change).count()


def test_only_the_creator_may_change_a_match(app, table):
    match_id = table.new_match("navawhist", NAMES)
    stranger = other_phone(app)
    page = stranger.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Anna" in page and 'name="bid"' not in page
    assert "refreshes by itself" in page
    sheet = stranger.sheet(match_id)
    for url, data in [
        (f"/matches/{match_id}/navawhist/bid", {"version": sheet["version"], "number": 1, "seat": 1,
                                      "bid": 0}),
        (f"/matches/{match_id}/undo", {"version": sheet["version"]}),
        (f"/matches/{match_id}/reopen", {"version": sheet["version"]}),
    ]:
        response = stranger.post(url, data)
        assert response.status_code == 403
        assert "may only watch" in response.get_data(as_text=True)
        assert "invitation" in response.get_data(as_text=True)
        assert "QR code." not in response.get_data(as_text=True)
    assert changes(app) == 0
    assert table.bid(match_id, 0).status_code == 303
    table.bid(match_id, 0)
    table.bid(match_id, 0)
    table.tricks(match_id, [1, 0, 0])
    assert table.client.get(f"/matches/{match_id}/navawhist/1/edit").status_code == 200
    assert stranger.client.get(f"/matches/{match_id}/navawhist/1/edit").status_code == 403


def test_an_invitation_hands_over_the_right(app, table, client):
    match_id = table.new_match("navawhist", NAMES)
    share = client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    # The codes to follow and of the table screen; no invitation's before one is asked for.
    assert share.count("<svg") == 2 and "Invite to this table" in share
    stranger = other_phone(app)
    stranger_share = stranger.client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    assert stranger_share.count("<svg") == 2 and "Invite to this table" not in stranger_share
    assert stranger.client.get("/join/wrong-key").status_code == 403
    assert stranger.bid(match_id, 0).status_code == 403
    join = invitation(table, match_id)
    assert stranger.client.get(join).status_code == 200  # asks first: a preview joins nothing
    assert stranger.bid(match_id, 0).status_code == 403
    assert stranger.post(join, {}).status_code == 303
    assert stranger.bid(match_id, 0).status_code == 303
    assert changes(app) == 1


def table_of(table: Table, match_id: str) -> str:
    """The id of the match's table, from its share page (this phone may edit)."""
    page = table.client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    return re.search(r'/tables/([^/"]+)/invitations', page).group(1)


def invitation(table: Table, match_id: str) -> str:
    """The path of a fresh invitation to the match's table."""
    page = table.post(f"/tables/{table_of(table, match_id)}/invitations", {},
                      follow_redirects=True)
    assert page.status_code == 200
    link = re.search(r'data-invite="([^"]+)"', page.get_data(as_text=True)).group(1)
    return link.replace("http://localhost", "")


def test_an_open_install_lets_anyone_edit(tmp_path):
    from scorekeeper.db import upgrade

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "OPEN_EDIT": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'open.db'}"})
    with app.app_context():
        upgrade()
    match_id = Table(app.test_client()).new_match("navawhist", NAMES)
    assert Table(app.test_client()).bid(match_id, 0).status_code == 303


def test_security_headers(client, table):
    match_id = table.new_match("navawhist", NAMES)
    for url in ["/", "/matches/new", f"/matches/{match_id}", f"/matches/{match_id}.json",
                "/matches/missing"]:
        headers = client.get(url).headers
        csp = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_session_cookie_flags(client, table):
    table.new_match("navawhist", NAMES)
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    assert not cookie.secure


def test_secure_cookie_by_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("SESSION_COOKIE_SECURE", "1")
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 's.db'}"})
    assert app.config["SESSION_COOKIE_SECURE"] is True


def test_csrf_token_in_a_header_is_accepted_and_none_is_refused(client, table):
    match_id = table.new_match("navawhist", NAMES)
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 1, "seat": 1, "bid": 0}
    assert client.post(f"/matches/{match_id}/navawhist/bid", data=data).status_code == 400
    token = CSRF.search(client.get("/matches/new").get_data(as_text=True)).group(1)
    response = client.post(f"/matches/{match_id}/navawhist/bid", data=data,
                           headers={"X-CSRFToken": token, "HX-Request": "true"})
    assert response.status_code == 200


def test_live_sheet_costs_a_304_while_unchanged(client, table):
    match_id = table.new_match("navawhist", NAMES)
    first = client.get(f"/matches/{match_id}/live")
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(f"/matches/{match_id}/live",
                       headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    table.bid(match_id, 0)
    changed = client.get(f"/matches/{match_id}/live",
                         headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert client.get("/matches/missing/live").status_code == 404


def test_home_lists_only_this_browser_s_matches_ten_a_page(app, table):
    match_id = table.new_match("navawhist", ["Zita", "Ugo"])
    stranger = other_phone(app)
    assert "Zita" not in stranger.client.get("/").get_data(as_text=True)
    assert match_id in table.client.get("/").get_data(as_text=True)
    for i in range(10):
        table.new_match("navawhist", [f"A{i}", f"B{i}"])
    first = table.client.get("/").get_data(as_text=True)
    second = table.client.get("/?page=2").get_data(as_text=True)
    assert first.count('class="card"') == 10 and second.count('class="card"') == 1
    assert f"/matches/{match_id}" in second and f"/matches/{match_id}" not in first
    assert table.client.get("/?page=x").status_code == 200
