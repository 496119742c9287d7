"""The OpenAPI 3.1 description of the read-only API (scorekeeper.views.api), served at
/api/v1/openapi.json; tests/test_api.py checks that it describes every route of the API,
that every path it describes answers, and each answer's keys."""

from __future__ import annotations

from typing import Any

import msgspec

from ..engine.schema import FORMAT, MatchSheet

JSON = "application/json"
# A match's sheet is the export format's (engine/schema.py), published whole at this address.
SCHEMA_ADDRESS = f"/schema/{FORMAT.replace('/', '-')}.json"
_SHEET, SHEET_PARTS = msgspec.json.schema_components(
    [MatchSheet], ref_template="#/components/schemas/{name}")


def _object(required: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An object schema whose listed properties are all required."""
    return {"type": "object", "required": sorted(required), "properties": required, **extra}


def _ok(schema: str, summary: str, *parameters: str) -> dict[str, Any]:
    """A GET operation answering the named schema, with its errors and 304."""
    responses: dict[str, Any] = {
        "200": {"description": "OK", "headers": {"ETag": {"$ref": "#/components/headers/ETag"}},
                "content": {JSON: {"schema": {"$ref": f"#/components/schemas/{schema}"}}}},
        "304": {"description": "Not modified: If-None-Match holds the current ETag."},
        "400": {"$ref": "#/components/responses/Error"},
        "401": {"$ref": "#/components/responses/Error"},
        "404": {"$ref": "#/components/responses/Error"},
        "405": {"$ref": "#/components/responses/Error"},
    }
    return {"get": {"summary": summary, "security": [{"token": []}, {"session": []}],
                    "parameters": [{"$ref": f"#/components/parameters/{p}"}
                                   for p in (*parameters, "IfNoneMatch")],
                    "responses": responses}}


STRING, INTEGER, BOOLEAN = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
NULLABLE_STRING = {"type": ["string", "null"]}
NULLABLE_INTEGER = {"type": ["integer", "null"]}
ARRAY = {"type": "array"}
OBJECT = {"type": "object"}

SCHEMAS: dict[str, Any] = {
    "Error": _object({"error": STRING}),
    "Table": _object({"id": STRING, "name": STRING, "version": INTEGER, "zone": STRING,
                      "players": {"type": "array", "items": _object({"id": INTEGER,
                                                                     "name": STRING})},
                      "tournaments": {"type": "array", "items": _object(
                          {"id": STRING, "name": STRING, "game": STRING})}}),
    "MatchPage": _object({
        "table": STRING, "page": INTEGER, "limit": INTEGER, "next": NULLABLE_STRING,
        "matches": {"type": "array", "items": _object({
            "id": STRING, "game": STRING, "players": {"type": "array", "items": STRING},
            "status": {"enum": ["in progress", "finished", "abandoned"]},
            "version": INTEGER, "created_at": STRING, "updated_at": STRING,
            "url": STRING})}}),
    "Sheet": {"$ref": "#/components/schemas/MatchSheet"}, **SHEET_PARTS,
    "History": _object({"match": STRING, "version": INTEGER, "entries": {
        "type": "array", "items": _object({"sentence": STRING, "at": STRING,
                                           "undone": BOOLEAN, "values": ARRAY})}}),
    "Stats": _object({"table": STRING, "version": INTEGER, "players": ARRAY, "games": ARRAY,
                      "head_to_head": ARRAY}),
    "Tournament": _object({
        "id": STRING, "version": INTEGER, "game": STRING, "seed": INTEGER, "format": STRING,
        "entrants": ARRAY, "late_entrants": ARRAY, "rounds": ARRAY, "standings": ARRAY,
        "provisional": BOOLEAN, "over": BOOLEAN,
        # The round's clock in minutes (null: no clock); each round carries its started_at,
        # whether it is published and its swaps (a read token sees published rounds only).
        "round_minutes": NULLABLE_INTEGER, "warning_minutes": NULLABLE_INTEGER,
        # Results the other side accepts; each table then gives its hands to accept.
        "accept": BOOLEAN}),
    "OpenAPI": _object({"openapi": STRING, "info": OBJECT, "servers": ARRAY, "paths": OBJECT,
                        "components": OBJECT}),
}


def _path_parameter(name: str, what: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": what,
            "schema": STRING}


DESCRIPTION: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Scorekeeper read-only API", "version": "1",
             "description": "A table's matches, sheets, histories, statistics and "
                            "tournaments, read with the table's read token (docs/api.md). "
                            "Nothing here writes: every other method than GET and HEAD is "
                            "405. Anything a token may not read is 404."},
    "servers": [{"url": "/api/v1"}],
    "paths": {
        "/openapi.json": {"get": {
            "summary": "This description", "security": [],
            "responses": {"200": {"description": "OK", "content": {JSON: {"schema": {
                "$ref": "#/components/schemas/OpenAPI"}}}}}}},
        "/tables/{table_id}": _ok("Table", "A table, its players and tournaments", "table_id"),
        "/tables/{table_id}/matches": _ok(
            "MatchPage", "The table's own matches, newest first, a page at a time",
            "table_id", "page", "limit"),
        "/tables/{table_id}/stats": _ok("Stats", "The table's statistics", "table_id"),
        "/matches/{match_id}": _ok("Sheet", f"A match's computed sheet, in the export "
                                   f"format {FORMAT} ({SCHEMA_ADDRESS})", "match_id"),
        "/matches/{match_id}/history": _ok("History", "A match's history, newest first",
                                           "match_id"),
        "/tournaments/{tournament_id}": _ok(
            "Tournament", "A tournament: rounds, tables, standings", "tournament_id"),
    },
    "components": {
        "schemas": SCHEMAS,
        "parameters": {
            "table_id": _path_parameter("table_id", "The table's id (its address)."),
            "match_id": _path_parameter("match_id", "The match's id (its address)."),
            "tournament_id": _path_parameter("tournament_id", "The tournament's id."),
            "page": {"name": "page", "in": "query", "description": "From 1.",
                     "schema": {"type": "integer", "minimum": 1, "default": 1}},
            "limit": {"name": "limit", "in": "query", "description": "Matches a page.",
                      "schema": {"type": "integer", "minimum": 1, "maximum": 100,
                                 "default": 20}},
            "IfNoneMatch": {"name": "If-None-Match", "in": "header", "schema": STRING,
                            "description": "An ETag from an earlier answer: 304 while the "
                                           "answer is the same."},
        },
        "headers": {"ETag": {"description": "Changes when the answer changes.",
                             "schema": STRING}},
        "responses": {"Error": {"description": "What went wrong, in the request's language.",
                                "content": {JSON: {"schema": {
                                    "$ref": "#/components/schemas/Error"}}}}},
        "securitySchemes": {
            "token": {"type": "http", "scheme": "bearer",
                      "description": "A read token made on the table's page."},
            "session": {"type": "apiKey", "in": "cookie", "name": "session",
                        "description": "A member phone's own session."}},
    },
}
