"""What a request pays for the phone's cookie and CSRF token: each session cookie's
signature checked once (then only its age), each browser's token signed once a second;
and a SQLite connection taken from the pool without a test query."""

from __future__ import annotations

import re

import pytest
from flask import session
from itsdangerous import URLSafeTimedSerializer

from scorekeeper import create_app
from scorekeeper.web import pagecache, security

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def spy(monkeypatch, method: str, salt: bytes) -> list[str]:
    """The values the serializers of ``salt`` were given to ``method`` (loads: checked,
    dumps: signed), in order."""
    seen: list[str] = []
    original = getattr(URLSafeTimedSerializer, method)

    def spied(self, value, *args, **kwargs):
        if self.salt == salt:
            seen.append(value)
        return original(self, value, *args, **kwargs)

    monkeypatch.setattr(URLSafeTimedSerializer, method, spied)
    return seen


@pytest.fixture
def checks(app, monkeypatch) -> list[str]:
    """The session cookies whose signature the app checked, in order."""
    return spy(monkeypatch, "loads", b"cookie-session")


def cookie(client, app) -> str:
    return client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value


def test_a_cookie_is_checked_once_and_read_the_same_every_time(app, client, checks):
    first = TOKEN.search(client.get("/matches/new").get_data(as_text=True))[1]
    value = cookie(client, app)
    with app.test_request_context():
        secret = app.session_interface.read(app, value)["csrf_token"]
    for _ in range(3):
        client.get("/matches/new")
        assert cookie(client, app) == value
    assert checks == [value]
    with app.test_request_context():
        assert app.session_interface.read(app, value)["csrf_token"] == secret
    assert checks == [value]
    assert first


def test_a_changed_or_forged_cookie_is_checked_and_refused(app, client, checks):
    client.get("/matches/new")
    value = cookie(client, app)
    forged = value[:-2] + ("AA" if not value.endswith("AA") else "BB")
    with app.test_request_context():
        interface = app.session_interface
        assert interface.read(app, value)["csrf_token"]
        assert interface.read(app, forged) == {}
        assert interface.read(app, forged) == {}  # a forged cookie is never taken as read
    assert checks.count(forged) == 2


def test_a_cookie_read_before_expires_all_the_same(app, client, monkeypatch):
    client.get("/matches/new")
    value = cookie(client, app)
    interface = app.session_interface
    assert interface.read(app, value)
    now = security.time.time()
    lifetime = app.permanent_session_lifetime.total_seconds()
    monkeypatch.setattr(security.time, "time", lambda: now + lifetime + 5)
    assert interface.read(app, value) == {}


def test_what_a_request_changes_in_its_session_is_not_what_the_next_reads(app):
    with app.test_request_context():
        session["list"] = [1, 2]
        value = app.session_interface.get_signing_serializer(app).dumps(dict(session))
    first = app.session_interface.read(app, value)
    first["list"].append(3)
    first["new"] = True
    assert app.session_interface.read(app, value) == {"list": [1, 2]}


def test_a_browser_gets_one_signed_token_a_second_and_it_is_accepted(app, client,
                                                                     monkeypatch):
    signed = spy(monkeypatch, "dumps", b"wtf-csrf-token")
    second = [1_900_000_000.0]
    monkeypatch.setattr(pagecache.time, "time", lambda: second[0])
    client.get("/matches/new")  # the session's secret is made
    tokens = [TOKEN.search(client.get("/matches/new").get_data(as_text=True))[1]
              for _ in range(3)]
    assert len(set(tokens)) == 1
    assert len(signed) == 2  # the first page's and the one of this second
    other = app.test_client()
    other.get("/matches/new")
    assert TOKEN.search(other.get("/matches/new").get_data(as_text=True))[1] != tokens[0]
    second[0] += 1
    later = TOKEN.search(client.get("/matches/new").get_data(as_text=True))[1]
    assert len(signed) == 5  # the other browser's two, then this browser's next second
    for token in (tokens[0], later):
        response = client.post("/matches/new", data={"csrf_token": token})
        assert response.status_code != 400, response.get_data(as_text=True)[:300]
    assert client.post("/matches/new", data={"csrf_token": "forged"}).status_code == 400


@pytest.mark.parametrize(("url", "ping"), [("sqlite:///x.db", False),
                                           ("postgresql://u@db/score", True)])
def test_only_a_database_server_pings_its_pooled_connections(tmp_path, url, ping):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url})
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is ping
    chosen = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url,
                         "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True}})
    assert chosen.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True
