"""The polls every phone on a sheet makes every few seconds, answered by the ordinary Flask
views (``matches.live``, ``screens.match``): an unchanged sheet's empty 204 after one small
query (the match's version), the live part every follower shares rendered once a version and
language, an ETag's 304, and everything else as any request."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from flask import request, request_started, template_rendered
from sqlalchemy import event, select

from scorekeeper.db import db
from scorekeeper.models import Membership

from .conftest import Table

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}


@pytest.fixture
def served(app) -> Iterator[list[str | None]]:
    """The endpoints of the requests the app received, in order."""
    endpoints: list[str | None] = []

    def received(_sender, **_extra) -> None:
        endpoints.append(request.endpoint)

    request_started.connect(received, app)
    yield endpoints
    request_started.disconnect(received, app)


@pytest.fixture
def queries(app) -> Iterator[list[str]]:
    """The SQL statements the app sends, in order."""
    sent: list[str] = []
    with app.app_context():
        engine = db.engine

    def before(_conn, _cursor, statement, *_args) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", before)
    yield sent
    event.remove(engine, "before_cursor_execute", before)


@pytest.fixture
def rendered(app) -> Iterator[list[str]]:
    """The templates the app renders, in order."""
    names: list[str] = []

    def record(_sender, template, **_extra) -> None:
        names.append(template.name)

    template_rendered.connect(record, app)
    yield names
    template_rendered.disconnect(record, app)


def last_seen(app) -> datetime:
    with app.app_context():
        return db.session.scalar(select(Membership.last_seen)).replace(tzinfo=None)


@pytest.mark.parametrize("part", ["live", "screen"])
def test_an_unchanged_sheet_is_a_204_after_one_small_query(app, table: Table, served, queries,
                                                            rendered, part):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    follower = app.test_client()
    rendered.clear()
    for client in (table.client, follower):
        for since in (version, version + 5):
            served.clear()
            queries.clear()
            response = client.get(f"/matches/{match_id}/{part}?since={since}", headers=HTMX)
            assert response.status_code == 204 and response.data == b""
            assert response.headers["Cache-Control"] == "no-cache"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert "Strict-Transport-Security" not in response.headers
            assert "Set-Cookie" not in response.headers
            assert served == [f"matches.{part}" if part == "live" else "screens.match"]
            assert len(queries) == 1 and "version" in queries[0].lower(), queries
    assert rendered == []
    over_https = follower.get(f"/matches/{match_id}/{part}?since={version}", headers=HTMX,
                              base_url="https://localhost")
    assert over_https.status_code == 204
    assert over_https.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_a_changed_sheet_is_the_live_sheet(table: Table, served):
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


def test_any_other_request_to_the_live_part_is_answered_as_before(table: Table, client):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    live = f"/matches/{match_id}/live"
    # Not sent by htmx, another query, a match that does not exist.
    assert table.client.get(f"{live}?since={version}").status_code == 204
    assert table.client.get(f"{live}?since={version}", headers={"HX-Request": "false"}) \
        .status_code == 204
    assert table.client.get(f"{live}?since={version}&x=1", headers=HTMX).status_code == 204
    assert table.client.get(f"{live}?since=-1", headers=HTMX).status_code == 200
    assert table.client.get(f"{live}?since=x", headers=HTMX).status_code == 200
    missing = "/matches/AAAAAAAAAAAAAAAA/live?since=1"
    assert table.client.get(missing, headers=HTMX).status_code == 404
    assert table.client.get("/matches/not*an*id/live?since=1", headers=HTMX).status_code == 404


def test_an_untrusted_host_is_refused(app, table: Table):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    app.config["TRUSTED_HOSTS"] = ["scores.example"]
    poll = f"/matches/{match_id}/live?since={version}"
    assert table.client.get(poll, headers=HTMX, base_url="http://evil.example").status_code \
        == 400
    assert table.client.get(poll, headers=HTMX, base_url="http://scores.example") \
        .status_code == 204


def test_a_phone_due_to_be_seen_is_noted_by_its_poll(app, table: Table, queries):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    poll = f"/matches/{match_id}/live?since={version}"
    long_ago = datetime.now(UTC) - timedelta(hours=1)
    with table.client.session_transaction() as session:
        session["seen"] = int(long_ago.timestamp())
    with app.app_context():
        db.session.execute(db.update(Membership).values(last_seen=long_ago))
        db.session.commit()
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert last_seen(app) > long_ago.replace(tzinfo=None) + timedelta(minutes=30)
    # Noted now: the next polls ask only for the version.
    queries.clear()
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert len(queries) == 1
    # A cookie that is not the app's own holds nothing: its phone has nothing to note.
    table.client.set_cookie("session", "forged.cookie.value")
    queries.clear()
    assert table.client.get(poll, headers=HTMX).status_code == 204
    assert len(queries) == 1


def test_followers_share_the_live_part_rendered_once_a_version_and_language(cached_app):
    # what the cache of pages saves is counted: the app has its caches on
    app, table, rendered = cached_app, Table(cached_app.test_client()), []
    template_rendered.connect(lambda _sender, template, **_extra: rendered.append(
        template.name), app, weak=False)
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    followers = [app.test_client() for _ in range(3)]
    page = followers[0].get(f"/matches/{match_id}").get_data(as_text=True)
    poll = f"/matches/{match_id}/live?since={version}"
    assert f'hx-get="{poll}" hx-trigger="every 4s"' in page
    assert followers[0].get(poll, headers=HTMX).status_code == 204
    assert table.bid(match_id, 0).status_code == 303
    english = {**HTMX, "Accept-Language": "en", "Accept-Encoding": "gzip"}
    rendered.clear()
    answers = [follower.get(poll, headers=english) for follower in followers]
    assert rendered.count("matches/_live.html") == 1  # once for every follower of the language
    for answer in answers:
        assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
        text = gzip.decompress(answer.data).decode()
        assert text.startswith('<div id="live"')
        assert f"since={version + 1}" in text and "notice=1" not in text
        assert "another phone" not in text
        assert "Set-Cookie" not in answer.headers
    # The part every follower shares: the same tag and bytes; it holds no form.
    assert len({(a.headers["ETag"], a.data) for a in answers}) == 1
    assert f"-{version + 1}-" in answers[0].headers["ETag"]
    # Italian, by the browser's language or the one chosen: rendered once more.
    italian = app.test_client().get(poll, headers={**english, "Accept-Language": "it"})
    chooser = app.test_client()
    chooser.set_cookie("lang", "it")
    assert chooser.get(poll, headers=english).data == italian.data != answers[0].data
    assert "Totale" in gzip.decompress(italian.data).decode()
    assert rendered.count("matches/_live.html") == 2
    # Without gzip: the same part, plain.
    plain = app.test_client().get(poll, headers={**HTMX, "Accept-Language": "en"})
    assert "Content-Encoding" not in plain.headers
    assert plain.data == gzip.decompress(answers[0].data)
    # A new version is rendered again, and shows the new sheet.
    assert table.bid(match_id, 1).status_code == 303
    newer = app.test_client().get(poll, headers=english)
    assert f'data-version="{version + 2}"' in gzip.decompress(newer.data).decode()
    assert rendered.count("matches/_live.html") == 3


def test_the_live_part_asked_without_since_is_revalidated_by_its_etag(app, table: Table):
    match_id = table.new_match("navawhist", NAMES)
    live = f"/matches/{match_id}/live"
    follower = app.test_client()
    first = follower.get(live, headers=HTMX)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    assert first.headers["Cache-Control"] == "private, no-cache"
    again = follower.get(live, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert table.bid(match_id, 0).status_code == 303
    changed = follower.get(live, headers={**HTMX, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_a_phone_that_may_edit_or_shows_a_notice_gets_its_own_answer(app, table: Table):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    assert table.bid(match_id, 0).status_code == 303
    poll = f"/matches/{match_id}/live?since={version}"
    follower = app.test_client().get(poll, headers=HTMX)
    # The table's own phone (it has a device, and edits): its answer is the whole sheet.
    own = table.client.get(poll, headers=HTMX)
    assert own.status_code == 200 and own.data != follower.data
    assert "ETag" not in own.headers
    noticed = app.test_client().get(f"{poll}&notice=1", headers=HTMX)
    assert noticed.status_code == 200 and "ETag" not in noticed.headers
    # A household where every phone edits: each phone gets the editor's answer.
    app.config["OPEN_EDIT"] = True
    assert "ETag" not in app.test_client().get(poll, headers=HTMX).headers


def test_a_phone_on_a_match_is_told_within_one_poll_of_the_tables_new_match(app, table: Table,
                                                                             queries):
    from .test_access import invitation
    from .test_quarantotto_web import play

    # Quarantotto, two games: Dario deals the first, so Anna deals the rematch's first.
    match_id = table.new_match("quarantotto", NAMES, first_dealer=3, length="games", games=2)
    other = Table(app.test_client())  # a second phone of the table
    assert other.post(invitation(table, match_id), {}).status_code == 303
    follower = app.test_client()  # a third that only follows the sheet
    pages = {"other": other.client.get(f"/matches/{match_id}"),
             "follower": follower.get(f"/matches/{match_id}")}
    assert play(table, match_id, 0, [None, 20, 5, 5]).status_code == 303
    assert play(table, match_id, 1, [30, None, 5, 5]).status_code == 303
    version = table.sheet(match_id)["version"]
    assert table.sheet(match_id)["status"] == "finished"
    # A finished match's page still asks, every few seconds: a 204 after one query.
    finished = {"other": other.client.get(f"/matches/{match_id}").get_data(as_text=True),
                "follower": follower.get(f"/matches/{match_id}").get_data(as_text=True)}
    poll = f"/matches/{match_id}/live?since={version}"
    assert f'data-since="/matches/{match_id}/live"' in finished["other"]
    assert f'hx-get="{poll}" hx-trigger="every 4s"' in finished["follower"]
    queries.clear()
    assert other.client.get(poll, headers=HTMX).status_code == 204
    assert len(queries) == 1
    # The first phone starts the rematch.
    response = table.post(f"/matches/{match_id}/rematch", {})
    new_id = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    told = "The table started a new match: Quarantotto, Anna deals first."
    for client in (other.client, follower):
        queries.clear()
        answer = client.get(poll, headers=HTMX)
        text = answer.get_data(as_text=True)
        assert answer.status_code == 200 and 'class="notice moved"' in text, text[:2000]
        assert told in text.split('id="announce"')[0]  # the notice, on the sheet
        assert f'<a class="button primary" href="/matches/{new_id}">Open the new match</a>' \
            in text
        assert told in text.split('id="announce"')[1]  # said once in the live region
        assert f'data-newer="{new_id}"' in text
        # The page now names the new match: its next poll is a 204 again, after one query.
        queries.clear()
        again = client.get(f"{poll}&newer={new_id}", headers=HTMX)
        assert again.status_code == 204 and len(queries) == 1
    assert f"newer={new_id}" in follower.get(poll, headers=HTMX).get_data(as_text=True)
    # The new match itself is told of nothing; the match before it, of a match started later.
    new_version = table.sheet(new_id)["version"]
    assert other.client.get(f"/matches/{new_id}/live?since={new_version}",
                            headers=HTMX).status_code == 204
    later_id = table.new_match("navawhist", NAMES)
    answer = other.client.get(f"{poll}&newer={new_id}", headers=HTMX).get_data(as_text=True)
    assert f'data-newer="{later_id}"' in answer and "Navawhist, Anna deals first." in answer
    assert NAMES[0] in pages["other"].get_data(as_text=True)


def test_the_new_match_is_told_in_italian(app, table: Table):
    from .test_access import invitation

    match_id = table.new_match("navawhist", NAMES)
    other = Table(app.test_client())
    assert other.post(invitation(table, match_id), {}).status_code == 303
    version = table.sheet(match_id)["version"]
    new_id = table.post(f"/matches/{match_id}/rematch", {}).headers["Location"] \
        .split("?")[0].rsplit("/", 1)[1]
    other.client.set_cookie("lang", "it")
    text = other.client.get(f"/matches/{match_id}/live?since={version}", headers=HTMX) \
        .get_data(as_text=True)
    assert "Il tavolo ha iniziato una nuova partita: Navawhist, primo mazziere: Bruno." in text
    assert f'href="/matches/{new_id}">Apri la nuova partita</a>' in text
