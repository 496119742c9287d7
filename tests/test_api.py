"""The read-only API (docs/api.md): a read token made on the table page reads that table,
its matches and tournaments and nothing else, never writes, and reads nothing once
withdrawn; every read has an ETag; the OpenAPI description matches what the API answers."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.db import db, downgrade, upgrade
from scorekeeper.models import ApiToken, Match, token_hash

from .conftest import Table
from .test_tournaments_web import Organiser

SECRET = re.compile(r'<code id="read-token-secret">([^<]+)</code>')
ROUTES = ("/tables/{table}", "/tables/{table}/matches", "/tables/{table}/stats",
          "/matches/{match}", "/matches/{match}/history")


def table_of(app: Flask, match_id: str) -> str:
    with app.app_context():
        return db.session.get(Match, match_id).table_id


def make_token(table: Table, table_id: str, name: str = "Scoreboard bot") -> str:
    """A read token made on the table page, as its member makes it: the secret the page
    shows once."""
    made = table.post(f"/tables/{table_id}/read-tokens", {"name": name})
    assert made.status_code == 303, made.get_data(as_text=True)[:1000]
    page = table.client.get(made.headers["Location"])
    assert page.headers["Cache-Control"] == "no-store"
    found = SECRET.search(page.get_data(as_text=True))
    assert found, page.get_data(as_text=True)
    return found.group(1)


def read(client: FlaskClient, path: str, token: str | None = None, **headers: str):
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return client.get(f"/api/v1{path}", headers=headers)


@pytest.fixture
def played(app: Flask, table: Table) -> tuple[str, str, str]:
    """A table with a Navawhist match of one hand: (table id, match id, its token)."""
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla", "Dario"])
    table.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
    table_id = table_of(app, match_id)
    return table_id, match_id, make_token(table, table_id)


def test_the_secret_is_shown_once_and_only_its_hash_is_stored(app, table, played):
    table_id, _match, secret = played
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert secret not in page and "Scoreboard bot" in page and "Withdraw" in page
    with app.app_context():
        stored = db.session.scalars(db.select(ApiToken)).one()
        assert stored.token_hash == token_hash(secret) and stored.table_id == table_id
        assert secret not in repr(stored.__dict__)


def test_a_token_reads_every_route_of_its_table(app, played):
    table_id, match_id, secret = played
    reader = app.test_client()  # a program: no cookie
    for route in ROUTES:
        response = read(reader, route.format(table=table_id, match=match_id), secret)
        assert response.status_code == 200, (route, response.get_data(as_text=True))
        assert response.mimetype == "application/json" and response.headers["ETag"]
    sheet = read(reader, f"/matches/{match_id}", secret).get_json()
    assert sheet["id"] == match_id and len(sheet["hands"]) == 1
    assert sheet == {**reader.get(f"/matches/{match_id}.json").get_json()}
    history = read(reader, f"/matches/{match_id}/history", secret).get_json()
    assert history["entries"] and history["entries"][0]["sentence"].startswith("Hand 1")
    about = read(reader, f"/tables/{table_id}", secret).get_json()
    assert [p["name"] for p in about["players"]] == ["Anna", "Bruno", "Carla", "Dario"]
    stats = read(reader, f"/tables/{table_id}/stats", secret).get_json()
    assert [g["game"] for g in stats["games"]] == ["navawhist"]
    assert reader.head(f"/api/v1/tables/{table_id}",
                       headers={"Authorization": f"Bearer {secret}"}).status_code == 200


def test_a_member_phone_reads_with_its_own_session(table, played):
    table_id, match_id, _secret = played
    assert read(table.client, f"/tables/{table_id}/matches").status_code == 200
    assert read(table.client, f"/matches/{match_id}").status_code == 200


def test_the_matches_come_newest_first_a_page_at_a_time(app, table, played):
    table_id, first, secret = played
    later = [table.new_match("navawhist", ["Anna", "Bruno", "Carla", "Dario"])
             for _ in range(4)]
    reader, seen, path = app.test_client(), [], f"/tables/{table_id}/matches?limit=2"
    while path:
        page = read(reader, path.removeprefix("/api/v1"), secret).get_json()
        assert len(page["matches"]) <= 2
        seen += [m["id"] for m in page["matches"]]
        path = page["next"]
    assert seen == [*reversed(later), first]
    assert page["page"] == 3
    for bad in ("0", "x", "101", "9" * 40):
        answer = read(reader, f"/tables/{table_id}/matches?limit={bad}", secret)
        assert answer.status_code == 400 and answer.get_json()["error"]


def test_an_etag_answers_304_until_a_hand_is_saved(app, table, played):
    table_id, match_id, secret = played
    reader = app.test_client()
    routes = [r.format(table=table_id, match=match_id) for r in ROUTES[1:]]
    tags = {route: read(reader, route, secret).headers["ETag"] for route in routes}
    for route, tag in tags.items():
        again = read(reader, route, secret, **{"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"", route
        assert again.headers["ETag"] == tag
    cards = table.sheet(match_id)["next"]["info"]["cards"]
    table.play_navawhist(match_id, [0, 0, 0, 0], [cards, 0, 0, 0])
    for route, tag in tags.items():
        now = read(reader, route, secret, **{"If-None-Match": tag})
        assert now.status_code == 200 and now.headers["ETag"] != tag, route
    italian = read(reader, routes[1], secret, **{"Accept-Language": "it"})
    assert italian.headers["ETag"] != read(reader, routes[1], secret).headers["ETag"]


def test_another_tables_things_are_not_found(app, played):
    table_id, _match, secret = played
    other = Table(app.test_client())
    theirs = other.new_match("navawhist", ["Elena", "Fabio", "Gina"])
    their_table = table_of(app, theirs)
    reader = app.test_client()
    for path in (f"/matches/{theirs}", f"/matches/{theirs}/history",
                 f"/tables/{their_table}", f"/tables/{their_table}/matches",
                 f"/tables/{their_table}/stats", "/tables/nosuchtable", "/matches/nosuchmatch"):
        response = read(reader, path, secret)
        assert response.status_code == 404, path
        assert response.mimetype == "application/json" and response.get_json()["error"]
    # the other phone's own session does not read this table either
    assert read(other.client, f"/tables/{table_id}").status_code == 404


def test_a_token_cannot_read_another_tables_tournament(app):
    organiser = Organiser(app.test_client(), app)
    tournament = organiser.create("navawhist", [f"Entrant {n}" for n in range(8)])
    organiser.seat(tournament)
    mine = make_token(organiser, organiser.table_id)
    stranger = Table(app.test_client())
    stranger_table = table_of(app, stranger.new_match("navawhist", ["Elena", "Fabio", "Gina"]))
    theirs = make_token(stranger, stranger_table)
    reader = app.test_client()
    found = read(reader, f"/tournaments/{tournament}", mine)
    assert found.status_code == 200
    assert found.get_json() == organiser.state(tournament)
    assert read(reader, f"/tournaments/{tournament}", theirs).status_code == 404
    first = found.get_json()["rounds"][0]["tables"][0]["match"]
    assert read(reader, f"/matches/{first}", mine).status_code == 200
    assert read(reader, f"/matches/{first}", theirs).status_code == 404
    tag = found.headers["ETag"]
    assert read(reader, f"/tournaments/{tournament}", mine,
                **{"If-None-Match": tag}).status_code == 304


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def test_the_api_never_writes(app, table, played, method):
    table_id, match_id, secret = played
    before = table.sheet(match_id)
    for path in (f"/api/v1/matches/{match_id}", f"/api/v1/tables/{table_id}",
                 f"/api/v1/matches/{match_id}/history", "/api/v1/nothing/here"):
        for client, headers in ((app.test_client(), {"Authorization": f"Bearer {secret}"}),
                                (table.client, {})):
            response = client.open(path, method=method, headers=headers,
                                   data={"csrf_token": table.csrf(), "version": 1})
            assert response.status_code == 405, (path, response.status_code)
            assert response.get_json()["error"] and response.headers["Allow"] == "GET, HEAD"
    assert table.sheet(match_id) == before


def test_a_withdrawn_token_reads_nothing(app, table, played):
    table_id, match_id, secret = played
    with app.app_context():
        number = db.session.scalars(db.select(ApiToken.id)).one()
    assert table.post(f"/tables/{table_id}/read-tokens/{number}/withdraw", {}).status_code == 303
    assert table.post(f"/tables/{table_id}/read-tokens/{number}/withdraw", {}).status_code == 303
    response = read(app.test_client(), f"/matches/{match_id}", secret)
    assert response.status_code == 401 and "withdrawn" in response.get_json()["error"]
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "Scoreboard bot" not in table.client.get(f"/tables/{table_id}").get_data(as_text=True)


def test_only_a_member_makes_or_withdraws_a_token(app, table, played):
    table_id, _match, _secret = played
    stranger = Table(app.test_client())
    stranger.new_match("navawhist", ["Elena", "Fabio", "Gina"])
    assert stranger.post(f"/tables/{table_id}/read-tokens", {"name": "Mine"}).status_code == 403
    assert stranger.post(f"/tables/{table_id}/read-tokens/1/withdraw", {}).status_code == 403
    assert table.post(f"/tables/{table_id}/read-tokens", {"name": ""}).status_code == 422
    assert table.client.post(f"/tables/{table_id}/read-tokens",
                             data={"name": "No CSRF"}).status_code == 400


def test_no_token_and_no_membership_is_401(app, played):
    table_id, match_id, secret = played
    nobody = app.test_client()
    for path in (f"/tables/{table_id}", f"/matches/{match_id}", "/tournaments/x"):
        response = read(nobody, path)
        assert response.status_code == 401 and response.get_json()["error"]
    assert read(nobody, f"/tables/{table_id}", secret[:-1] + "x").status_code == 401
    basic = nobody.get(f"/api/v1/tables/{table_id}", headers={"Authorization": "Basic eDp5"})
    assert basic.status_code == 401


def test_errors_are_in_the_requests_language(app, played):
    table_id, _match, secret = played
    nobody = app.test_client()
    english = read(nobody, f"/tables/{table_id}", "wrong").get_json()["error"]
    italian = read(nobody, f"/tables/{table_id}", "wrong",
                   **{"Accept-Language": "it"}).get_json()["error"]
    assert english == "This read token is not valid."
    assert italian == "Questo token di lettura non è valido."
    missing = read(nobody, "/tables/nosuchtable", secret, **{"Accept-Language": "it"})
    assert missing.get_json() == {"error": "Questo tavolo non esiste."}
    refused = nobody.delete(f"/api/v1/tables/{table_id}", headers={"Accept-Language": "it"})
    assert refused.get_json() == {"error": "L’API legge soltanto: chiedi con GET."}


def _schema(spec: dict[str, Any], ref_or_node: dict[str, Any]) -> dict[str, Any]:
    """The node a ``$ref`` names (followed as often as needed)."""
    while "$ref" in ref_or_node:
        target: Any = spec
        for part in ref_or_node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        ref_or_node = target
    return ref_or_node


def test_the_openapi_description_matches_the_api(app, played):
    table_id, match_id, secret = played
    organiser = Organiser(app.test_client(), app)
    tournament = organiser.create("navawhist", [f"Entrant {n}" for n in range(8)])
    tokens = {"table": secret, "tournament": make_token(organiser, organiser.table_id)}
    reader = app.test_client()
    spec = reader.get("/api/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.1")
    described = set(spec["paths"])
    routes = {re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule.removeprefix("/api/v1"))
              for rule in app.url_map.iter_rules() if rule.endpoint.startswith("api.")}
    assert routes == described
    values = {"table_id": table_id, "match_id": match_id, "tournament_id": tournament}
    for path, item in spec["paths"].items():
        operation = item["get"]
        token = tokens["tournament" if "tournament_id" in path else "table"]
        response = read(reader, path.format(**values), token)
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:500])
        schema = _schema(spec, operation["responses"]["200"]["content"]["application/json"]
                         ["schema"])
        assert sorted(response.get_json()) == sorted(schema["required"]), path
        for code, answer in operation["responses"].items():
            if code.startswith("4"):
                error = _schema(spec, _schema(spec, answer)["content"]["application/json"]
                                ["schema"])
                assert error["required"] == ["error"]
    wrong = read(reader, "/tables/nosuchtable", secret).get_json()
    assert sorted(wrong) == _schema(spec, {"$ref": "#/components/schemas/Error"})["required"]


def test_the_migration_adds_and_removes_the_tokens_table(app):
    with app.app_context():
        downgrade(revision="a7c3e9f1b2d4")
        assert "api_tokens" not in sa.inspect(db.engine).get_table_names()
        upgrade()
        columns = {c["name"] for c in sa.inspect(db.engine).get_columns("api_tokens")}
        assert columns == {"id", "table_id", "name", "token_hash", "created_at",
                           "withdrawn_at", "last_used_at"}
        db.session.remove()
