"""Share links and QR codes point where another phone can go, and nowhere a forged Host
header says."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.db import upgrade
from scorekeeper.web import links
from scorekeeper.web.links import qr_svg

from .conftest import CSRF, Table

NAMES = ["Anna", "Bruno", "Carla"]
LINK = re.compile(r'<a href="([^"]+)">')
INVITE = re.compile(r'data-invite="([^"]+)"')
TABLE = re.compile(r'/tables/([^/"]+)/invitations')
WARNING = "no phone can open them"


class SchemeAndHost(FlaskClient):
    """A client whose requests go to scores.example unless told otherwise."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("base_url", "http://scores.example")
        return super().open(*args, **kwargs)


def make_app(tmp_path, **config):
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'links.db'}", **config})
    with app.app_context():
        upgrade()
    return app


def share(client, match_id: str, **kwargs):
    """The follow link, the link of a fresh invitation to the match's table, and the page."""
    response = client.get(f"/matches/{match_id}/share", **kwargs)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    table = TABLE.search(page)  # only a phone of the table is offered an invitation
    if table is None:
        return LINK.search(page).group(1), None, page
    invite = client.post(f"/tables/{table.group(1)}/invitations",
                         data={"csrf_token": CSRF.search(page).group(1), "match": match_id},
                         follow_redirects=True, **kwargs)
    assert invite.status_code == 200
    return (LINK.search(page).group(1), INVITE.search(invite.get_data(as_text=True)).group(1),
            page)


def test_a_loopback_address_is_named_plainly(client, table):
    match_id = table.new_match("navawhist", NAMES)
    follow, edit, page = share(client, match_id)
    assert follow == f"http://localhost/matches/{match_id}"
    assert edit.startswith("http://localhost/join/")
    assert WARNING in page and "make run" in page


def test_links_use_the_address_the_server_listens_on(client, table):
    """An app run without scorekeeper serve and without a base URL: the address its server
    says it listens on (SERVER_NAME, SERVER_PORT), not the one a request names."""
    match_id = table.new_match("navawhist", NAMES)
    follow, _, page = share(client, match_id, base_url="http://192.168.1.20:5000")
    assert follow == f"http://192.168.1.20:5000/matches/{match_id}"
    assert WARNING not in page
    assert qr_svg(follow, "Follow") in page


def test_a_served_app_links_the_address_the_server_printed(tmp_path):
    """scorekeeper serve gives its app the secure address it printed for the phones: every
    link starts with it, whatever name or address the page was opened at."""
    app = make_app(tmp_path, SERVED_URL="https://192.168.1.20:5001")
    table = Table(app.test_client())
    match_id = table.new_match("navawhist", NAMES)
    for base in ("http://127.0.0.1:5000", "https://scorekeeper-table.local:5001"):
        follow, edit, page = share(table.client, match_id, base_url=base)
        assert follow == f"https://192.168.1.20:5001/matches/{match_id}"
        # (A phone of the table only where its cookie goes: the first address.)
        assert edit is None or edit.startswith("https://192.168.1.20:5001/join/")
        assert WARNING not in page
    # Served on loopback only, the printed address leads no phone anywhere: say so.
    app.config["SERVED_URL"] = "http://127.0.0.1:5000"
    follow, _, page = share(table.client, match_id, base_url="http://127.0.0.1:5000")
    assert follow == f"http://127.0.0.1:5000/matches/{match_id}" and WARNING in page


def test_the_lan_address_is_never_loopback():
    address = links.lan_address()
    assert address is None or not links.is_loopback(address)


@pytest.mark.parametrize("served", [None, "https://192.168.1.20:5001"])
def test_without_a_base_url_a_forged_host_header_names_no_link(tmp_path, served):
    app = make_app(tmp_path, SERVED_URL=served)
    table = Table(app.test_client())
    match_id = table.new_match("navawhist", NAMES)
    for headers in ({"Host": "evil.example"}, {"Host": "evil.example:5000"},
                    {"X-Forwarded-Host": "evil.example"}):
        follow, edit, _ = share(table.client, match_id, headers=headers)
        assert "evil" not in follow and "evil" not in (edit or ""), headers
        assert follow.startswith(served or "http://localhost/")


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "a..b", "a" * 64, ".a", "a b"])
@pytest.mark.parametrize("path", ["/", "/health", "/nope", "/matches/new", "/certificate"])
def test_a_host_that_is_no_host_name_gets_a_400_never_a_500(tmp_path, host, path):
    """A label over 63 characters or an empty one: a plain 400, before any page (or error
    page) tries to build an address on it; behind Caddy (X-Forwarded-Host) too."""
    app = make_app(tmp_path, PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    for headers in ({"Host": host}, {"Host": host + ":5000"}):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 400, (headers, answer.status_code)
        assert answer.mimetype == "text/plain"
    proxied = make_app(tmp_path, PROXIES=1, PROPAGATE_EXCEPTIONS=False).test_client()
    answer = proxied.get(path, headers={"Host": "ok.example", "X-Forwarded-Host": host})
    assert answer.status_code == 400


def test_the_base_url_names_every_link_and_other_hosts_are_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BASE_URL", "https://scores.example")
    app = make_app(tmp_path)
    assert app.config["TRUSTED_HOSTS"] == ["scores.example"]
    app.test_client_class = SchemeAndHost
    table = Table(app.test_client())
    match_id = table.new_match("navawhist", NAMES)
    follow, edit, page = share(table.client, match_id)
    assert follow == f"https://scores.example/matches/{match_id}"
    assert edit.startswith("https://scores.example/join/")
    assert qr_svg(follow, "Follow") in page and WARNING not in page
    for host in ("evil.example", "localhost", "scores.example.evil.example"):
        response = table.client.get(f"/matches/{match_id}/share", headers={"Host": host})
        assert response.status_code == 400, host
        assert f"does not answer to {host}" in response.get_data(as_text=True)
    response = table.client.get(
        f"/matches/{match_id}/share", headers={"Host": "evil.example", "Accept-Language": "it"})
    assert "non risponde a evil.example" in response.get_data(as_text=True)


def test_trusted_hosts_may_list_several(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BASE_URL", "https://scores.example")
    monkeypatch.setenv("SCOREKEEPER_TRUSTED_HOSTS", "scores.example, localhost")
    app = make_app(tmp_path)
    client = app.test_client()
    assert client.get("/health").status_code == 200
    assert client.get("/health", headers={"Host": "scores.example"}).status_code == 200
    assert client.get("/health", headers={"Host": "evil.example"}).status_code == 400


def test_a_base_url_without_a_scheme_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="needs a scheme and a host"):
        make_app(tmp_path, BASE_URL="scores.example")
