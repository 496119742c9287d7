"""Over HTTPS the browser is told to keep to it (HSTS) and the cookies go only over it;
host names are compared without their case."""

from __future__ import annotations

from .conftest import Table
from .test_links import SchemeAndHost, make_app

NAMES = ["Anna", "Bruno", "Carla"]


def cookies(response) -> dict[str, str]:
    return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}


def test_over_https_hsts_and_secure_cookies(tmp_path):
    app = make_app(tmp_path)
    secure = app.test_client()
    page = secure.get("/matches/new", base_url="https://localhost")
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Secure" in cookies(page)["session"]
    token = Table(secure).csrf()
    switched = secure.post("/lang/it", base_url="https://localhost",
                           data={"csrf_token": token},
                           headers={"Referer": "https://localhost/matches/new"})
    assert "Secure" in cookies(switched)["lang"]


def test_over_plain_http_neither(tmp_path):
    app = make_app(tmp_path)
    plain = app.test_client()
    page = plain.get("/matches/new", base_url="http://localhost")
    assert "Strict-Transport-Security" not in page.headers
    assert "Secure" not in cookies(page)["session"]
    token = Table(plain).csrf()
    switched = plain.post("/lang/it", base_url="http://localhost",
                          data={"csrf_token": token})
    assert "Secure" not in cookies(switched)["lang"]


def test_beside_a_plain_port_of_its_own_https_asks_browsers_to_keep_nothing(tmp_path):
    """scorekeeper serve: Caddy answers plain HTTP on 5000 and HTTPS on 5001. A browser
    keeps to HTTPS by host, whatever the port: kept, it would never reach the plain port
    (and its certificate page) again."""
    app = make_app(tmp_path, SECURE_PORT=5001)
    page = app.test_client().get("/health", base_url="https://192.168.1.20:5001")
    assert page.headers["Strict-Transport-Security"] == "max-age=0"


def test_a_host_name_in_capitals_is_the_same_host(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BASE_URL", "https://scores.example")
    app = make_app(tmp_path)
    app.test_client_class = SchemeAndHost
    table = Table(app.test_client())
    match_id = table.new_match("navawhist", NAMES)
    for host in ("SCORES.EXAMPLE", "Scores.Example"):
        answer = table.client.get(f"/matches/{match_id}", headers={"Host": host})
        assert answer.status_code == 200, host
    assert table.client.get(f"/matches/{match_id}",
                            headers={"Host": "EVIL.EXAMPLE"}).status_code == 400
