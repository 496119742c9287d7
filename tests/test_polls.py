"""The polls answered beneath the app (web/polls.py): an unchanged sheet's 204 and the live
part every follower shares without Flask's way through a request, and everything else left
to the app, which answers it as before."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from flask import request, request_started
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.models import Membership

from .conftest import Table

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}


@pytest.fixture
def served(app) -> Iterator[list[str | None]]:
    """The endpoints of the requests the app itself received, in order."""
    endpoints: list[str | None] = []

    def received(_sender, **_extra) -> None:
        endpoints.append(request.endpoint)

    request_started.connect(received, app)
    yield endpoints
    request_started.disconnect(received, app)


def last_seen(app) -> datetime:
    with app.app_context():
        return db.session.scalar(select(Membership.last_seen)).replace(tzinfo=None)


@pytest.mark.parametrize("part", ["live", "screen"])
def test_an_unchanged_sheet_is_answered_beneath_the_app(table: Table, served, part):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    served.clear()
    for since in (version, version + 5):
        response = table.client.get(f"/matches/{match_id}/{part}?since={since}",
                                    headers=HTMX)
        assert response.status_code == 204 and response.data == b""
        assert response.headers["Cache-Control"] == "no-cache"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Strict-Transport-Security" not in response.headers
    assert served == []
    over_https = table.client.get(f"/matches/{match_id}/{part}?since={version}",
                                  headers=HTMX, base_url="https://localhost")
    assert over_https.status_code == 204
    assert over_https.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert served == []


def test_a_changed_sheet_is_the_apps_to_answer(table: Table, served):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    assert table.bid(match_id, 0).status_code == 303
    served.clear()
    response = table.client.get(f"/matches/{match_id}/live?since={version}", headers=HTMX)
    assert response.status_code == 200
    assert f'data-version="{version + 1}"' in response.get_data(as_text=True)
    assert served == ["matches.live"]
    screen = table.client.get(f"/matches/{match_id}/screen?since={version}", headers=HTMX)
    assert screen.status_code == 200 and served[-1] == "screens.match"


def test_what_is_not_such_a_poll_is_the_apps_to_answer(table: Table, served, client):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    served.clear()
    live = f"/matches/{match_id}/live"
    # Not sent by htmx, another query, another address, a match that does not exist.
    assert table.client.get(f"{live}?since={version}").status_code == 204
    assert table.client.get(f"{live}?since={version}", headers={"HX-Request": "false"}) \
        .status_code == 204
    assert table.client.get(f"{live}?since={version}&x=1", headers=HTMX).status_code == 204
    assert table.client.get(live, headers=HTMX).status_code == 200
    assert table.client.get(f"{live}?since=-1", headers=HTMX).status_code == 200
    missing = "/matches/AAAAAAAAAAAAAAAA/live?since=1"
    assert table.client.get(missing, headers=HTMX).status_code == 404
    assert table.client.get("/matches/not*an*id/live?since=1", headers=HTMX).status_code == 404
    assert served == ["matches.live"] * 7


def test_an_untrusted_host_gets_the_apps_refusal(app, table: Table, served):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    app.config["TRUSTED_HOSTS"] = ["scores.example"]
    poll = f"/matches/{match_id}/live?since={version}"
    assert table.client.get(poll, headers=HTMX, base_url="http://evil.example").status_code \
        == 400
    served.clear()
    assert table.client.get(poll, headers=HTMX, base_url="http://scores.example") \
        .status_code == 204
    assert served == []


def test_a_phone_due_to_be_seen_is_noted_by_the_app(app, table: Table, served):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    poll = f"/matches/{match_id}/live?since={version}"
    long_ago = datetime.now(UTC) - timedelta(hours=1)
    with table.client.session_transaction() as session:
        session["seen"] = int(long_ago.timestamp())
    with app.app_context():
        db.session.execute(db.update(Membership).values(last_seen=long_ago))
        db.session.commit()
    served.clear()
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert served == ["matches.live"]
    assert last_seen(app) > long_ago.replace(tzinfo=None) + timedelta(minutes=30)
    # Noted now: the next polls are answered beneath the app.
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert served == ["matches.live"]
    # A cookie that is not the app's own holds nothing: its phone has nothing to note.
    table.client.set_cookie("session", "forged.cookie.value")
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert served == ["matches.live"]


def test_a_follower_asks_since_the_version_it_shows(app, table: Table, served):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    followers = [app.test_client(), app.test_client()]
    page = followers[0].get(f"/matches/{match_id}").get_data(as_text=True)
    poll = f"/matches/{match_id}/live?since={version}"
    assert f'hx-get="{poll}" hx-trigger="every 4s"' in page
    served.clear()
    assert followers[0].get(poll, headers=HTMX).status_code == 204
    assert served == []
    assert table.bid(match_id, 0).status_code == 303
    answers = [follower.get(poll, headers=HTMX) for follower in followers]
    for answer in answers:
        text = answer.get_data(as_text=True)
        assert answer.status_code == 200 and text.startswith('<div id="live"')
        assert f"since={version + 1}" in text and "notice=1" not in text
        assert "another phone" not in text
    # The part every follower shares: the same tag, rendered once for the version; it holds
    # no form, so a follower that has no session is given none.
    assert answers[0].headers["ETag"] == answers[1].headers["ETag"]
    assert "Set-Cookie" not in answers[1].headers
    assert f"-{version + 1}-" in answers[0].headers["ETag"]


def changed_since(table: Table) -> tuple[str, int, str]:
    """A match, the version a follower's page shows, and its poll, after a bid since."""
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    assert table.bid(match_id, 0).status_code == 303
    return match_id, version, f"/matches/{match_id}/live?since={version}"


def answer_of(response) -> tuple[int, list[tuple[str, str]], bytes]:
    return response.status_code, sorted(response.headers.items()), response.data


def test_a_follower_gets_the_answer_the_app_gave_the_first_follower_of_its_language(
        app, table: Table, served):
    match_id, version, poll = changed_since(table)
    english = {**HTMX, "Accept-Language": "en", "Accept-Encoding": "gzip"}
    served.clear()
    first = app.test_client().get(poll, headers=english)
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    assert served == ["matches.live"]
    # Another follower, and the first again: the same answer, headers and bytes, from
    # beneath the app.
    again = [app.test_client().get(poll, headers=english),
             app.test_client().get(poll.replace(f"={version}", "=0"), headers=english)]
    assert [answer_of(a) for a in again] == [answer_of(first)] * 2
    assert served == ["matches.live"]
    # Italian is the app's to answer once, then every Italian follower's, by the browser's
    # language or the one it chose.
    italian = app.test_client().get(poll, headers={**english, "Accept-Language": "it"})
    assert served == ["matches.live"] * 2 and italian.data != first.data
    chooser = app.test_client()
    chooser.set_cookie("lang", "it")
    assert answer_of(chooser.get(poll, headers=english)) == answer_of(italian)
    assert served == ["matches.live"] * 2
    assert "Totale" in gzip.decompress(italian.data).decode()
    # Without gzip, over HTTPS: answers of their own, each the app's once.
    plain = app.test_client().get(poll, headers={**HTMX, "Accept-Language": "en"})
    assert "Content-Encoding" not in plain.headers
    assert plain.data == gzip.decompress(first.data)
    secure = app.test_client().get(poll, headers=english, base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert served == ["matches.live"] * 4
    assert app.test_client().get(poll, headers=english, base_url="https://localhost").data \
        == secure.data
    assert served == ["matches.live"] * 4
    # A new version is the app's to answer again, and shows the new sheet.
    assert table.bid(match_id, 1).status_code == 303
    served.clear()
    newer = app.test_client().get(poll, headers=english)
    assert served == ["matches.live"]
    assert f'data-version="{version + 2}"' in gzip.decompress(newer.data).decode()


def test_a_phone_that_may_edit_or_asks_its_own_way_gets_the_apps_answer(
        app, table: Table, served):
    match_id, version, poll = changed_since(table)
    follower = app.test_client().get(poll, headers=HTMX)
    served.clear()
    # The table's own phone (it has a device, and edits): its answer is the whole sheet.
    own = table.client.get(poll, headers=HTMX)
    assert own.status_code == 200 and own.data != follower.data
    # A follower whose browser revalidates, or that shows a notice.
    app.test_client().get(poll, headers={**HTMX, "If-None-Match": 'W/"old"'})
    app.test_client().get(f"{poll}&notice=1", headers=HTMX)
    assert served == ["matches.live"] * 3
    # A household where every phone edits: each poll is the app's.
    app.config["OPEN_EDIT"] = True
    app.test_client().get(poll, headers=HTMX)
    assert served == ["matches.live"] * 4


def test_an_answer_that_sets_a_cookie_is_not_given_again(app, table: Table, served):
    match_id, version, poll = changed_since(table)
    cookies = iter([True])

    def set_one_cookie(response):
        if next(cookies, False):
            response.set_cookie("once", "1")
        return response

    app.after_request_funcs.setdefault(None, []).append(set_one_cookie)
    served.clear()
    assert "once=1" in app.test_client().get(poll, headers=HTMX).headers["Set-Cookie"]
    assert "Set-Cookie" not in app.test_client().get(poll, headers=HTMX).headers
    assert "Set-Cookie" not in app.test_client().get(poll, headers=HTMX).headers
    assert served == ["matches.live"] * 2
