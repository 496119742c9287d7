"""Large type, a phone's own choice: a form on the bar sets a cookie, and every page then
marks its <html> with the class the style sheet reads; without JavaScript it is a plain
POST (with its CSRF token) answered by a redirect back; with htmx, the switch alone."""

from __future__ import annotations

import re

HTML = re.compile(r"<html[^>]*>")


def html_tag(client, url: str = "/") -> str:
    response = client.get(url)
    assert response.status_code == 200
    return HTML.search(response.get_data(as_text=True)).group(0)


def test_large_type_is_remembered_without_javascript(table):
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    assert 'class="large"' not in html_tag(table.client, f"/matches/{match_id}")
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'action="/type/large"' in page and 'aria-pressed="false"' in page
    response = table.post("/type/large", {"next": f"/matches/{match_id}"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/matches/{match_id}"
    assert "large=on" in response.headers["Set-Cookie"]
    assert "HttpOnly" in response.headers["Set-Cookie"]
    assert 'class="large"' in html_tag(table.client, f"/matches/{match_id}")
    page = table.client.get("/").get_data(as_text=True)
    assert 'action="/type/normal"' in page and 'aria-pressed="true"' in page
    assert table.post("/type/normal", {"next": "/"}).status_code == 302
    assert 'class="large"' not in html_tag(table.client)


def test_large_type_needs_the_csrf_token(client):
    assert client.post("/type/large", data={"next": "/"}).status_code == 400
    assert 'class="large"' not in html_tag(client)


def test_large_type_goes_back_only_to_this_site(table):
    response = table.post("/type/large", {"next": "https://evil.example/"})
    assert response.headers["Location"] == "/"


def test_htmx_gets_the_switch_alone(table):
    response = table.post("/type/large", {"next": "/"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.lstrip().startswith("<form") and 'data-large="on"' in page
    assert "large=on" in response.headers["Set-Cookie"]


def test_large_type_in_italian(table):
    table.post("/lang/it", {"next": "/"})
    assert "Caratteri grandi" in table.client.get("/").get_data(as_text=True)
