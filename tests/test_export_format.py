"""The export format "scorekeeper/2" (README.md#backups-and-exports): backups and each
match's JSON read through the models of scorekeeper/engine/schema.py, each game's entries
in them, the JSON Schema committed and served, backups written before still imported."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from scorekeeper.engine import schema
from scorekeeper.engine.schema import Backup, MatchEntry, MatchSheet
from scorekeeper.models import Match

from .conftest import Table, count, migrated_app
from .test_fortyfive_web import HELPER_TRICKS, TRUMP, FortyFive
from .test_people_web import change
from .test_tournaments_web import Organiser, table_phone

ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "tests" / "data" / "backup-before-scorekeeper-2.json"  # written by 0652e79
ADDRESS = "/schema/scorekeeper-2.json"
WHEN = "2026-01-02T03:04:05"


def body(response) -> str:
    return response.get_data(as_text=True)


def play_every_game(table: Table) -> dict[str, str]:
    """A match of each game with what its players entered: Navawhist's bids and tricks (and
    Dario joining), Quarantotto's closer, a Scala 40 closing in hand, Forty-Five's trick
    winners, tricks per side and a hand played by cards, Cavallo Re's deals."""
    ids = {"navawhist": table.new_match("navawhist", ["Anna", "Bruno", "Carla"], hook=False)}
    table.play_navawhist(ids["navawhist"], [1, 0, 0], [1, 0, 0])
    assert change(table, ids["navawhist"], "join", name="Dario").status_code == 303
    table.play_navawhist(ids["navawhist"], [1, 1, 0, 0], [1, 1, 0, 0])
    for game, path, form in [
        ("quarantotto", "quarantotto/game", {"closer": 0, "values-1": "10", "values-2": "20",
                                             "values-3": "30"}),
        ("scala40", "scala40/deal", {"closer": 1, "closed_in_hand": "y", "values-0": "A K",
                                     "values-2": "30"}),
        ("cavallore", "cavallore/deal", {"placed": 36, "seat": 0}),
    ]:
        names = ["Anna", "Bruno", "Carla", "Dario"][:{"quarantotto": 4, "scala40": 3,
                                                     "cavallore": 1}[game]]
        ids[game] = table.new_match(game, names)
        sheet = table.sheet(ids[game])
        response = table.post(f"/matches/{ids[game]}/{path}", {
            "version": sheet["version"], "number": 1, "action": "save", **form})
        assert response.status_code == 303, body(response)[-2000:]
    ids["fortyfive"] = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    hands = FortyFive(table, ids["fortyfive"])
    assert hands.tap_winners([0, 1, 2, 0, 3], bonus=1).status_code == 303
    assert hands.side_tricks([3, 2], bonus_side=1).status_code == 303
    assert hands.play_cards(TRUMP, HELPER_TRICKS).status_code == 303
    return ids


def undeclared(data: Any, model: Any, path: str = "$") -> list[str]:
    """The keys of ``data`` that ``model`` (decoded from it) does not declare."""
    if isinstance(model, msgspec.Struct):
        fields = model.__struct_fields__
        return [f"{path}.{key}" for key in data if key not in fields] + [
            found for key in fields if key in data
            for found in undeclared(data[key], getattr(model, key), f"{path}.{key}")]
    if isinstance(model, list):
        return [found for n, (item, part) in enumerate(zip(data, model, strict=True))
                for found in undeclared(item, part, f"{path}[{n}]")]
    return []


def decoded(text: bytes, model: type[Any]) -> Any:
    """``text`` read strictly through ``model``, every key of it declared there."""
    value = msgspec.json.decode(text, type=model)
    assert undeclared(json.loads(text), value) == []
    return value


# -- Each game's entries, in the match's JSON and in the backup -----------------------------

def test_every_game_s_json_follows_the_format_and_carries_what_was_entered(table):
    ids = play_every_game(table)
    sheets = {}
    for game, match_id in ids.items():
        response = table.client.get(f"/matches/{match_id}.json")
        sheet = decoded(response.data, MatchSheet)
        assert sheet.format == "scorekeeper/2" and sheet.game == game
        sheets[game] = [hand.inputs for hand in sheet.hands]
    assert sheets["navawhist"][0]["bids"] == [1, 0, 0]
    assert sheets["navawhist"][1]["tricks"] == [1, 1, 0, 0]
    assert sheets["scala40"][0]["closer"] == 1 and sheets["scala40"][0]["closed_in_hand"]
    assert sheets["scala40"][0]["never_opened"] == []
    assert [h["trick_winners"] for h in sheets["fortyfive"][::2]] == [[0, 1, 2, 0, 3],
                                                                    [0, 1, 1, 2, 0]]
    assert [h["bonus_seat"] for h in sheets["fortyfive"][::2]] == [1, 1]  # the best trump's
    assert sheets["fortyfive"][1]["side_tricks"] == [3, 2]
    assert sheets["fortyfive"][2]["plays"][1] == ["2♠", "5♥", "3♠", "4♠"]
    assert sheets["cavallore"][0]["placed"] == 36
    assert sheets["quarantotto"][0]["closer"] == 0


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_backup_follows_the_format_and_carries_what_was_entered(table, lang):
    ids = play_every_game(table)
    table.client.set_cookie("lang", lang)
    backup = decoded(table.client.get("/backup.json").data, Backup)
    assert backup.format == "scorekeeper/2" and len(backup.tables) == 1
    entries = {m.game: m for m in backup.matches}
    assert {game: entries[game].id for game in ids} == ids
    navawhist = entries["navawhist"]
    assert [h.data["bids"] for h in navawhist.hands] == [[1, 0, 0], [1, 1, 0, 0]]
    assert [h.data["tricks"] for h in navawhist.hands] == [[1, 0, 0], [1, 1, 0, 0]]
    assert [(c.kind, c.person, c.after) for c in navawhist.roster] == [("join", "Dario", 1)]
    assert any(c.number == 0 for c in navawhist.history)  # the join, in the history
    closing = entries["scala40"].hands[0].data
    assert (closing["closer"], closing["closed_in_hand"], closing["points"]) == (
        1, True, ["A K", None, 30])
    fortyfive = [h.data for h in entries["fortyfive"].hands]
    assert fortyfive[0] == {"trick_winners": [0, 1, 2, 0, 3], "bonus_seat": 1}
    assert fortyfive[1] == {"side_tricks": [3, 2], "bonus_side": 1}
    assert (fortyfive[2]["trump"], fortyfive[2]["leader"]) == (TRUMP, 3)
    assert [h.data["placed"] for h in entries["cavallore"].hands] == [36]


def test_the_command_line_s_backup_of_an_instance_follows_the_format(app, table, tmp_path):
    play_every_game(table)
    out = tmp_path / "instance.json"
    result = app.test_cli_runner().invoke(args=["export", str(out)])
    assert result.exit_code == 0, result.output
    backup = decoded(out.read_bytes(), Backup)
    assert [len(t.phones) for t in backup.tables] == [1] and backup.tables[0].phones[0].keeper
    assert len(backup.matches) == 5


def test_a_tournament_s_matches_follow_the_format(app):
    organiser = Organiser(app.test_client(), app)
    tournament = organiser.create("navawhist", [f"Entrant {n}" for n in range(8)])
    keeps = organiser.seat(tournament)
    phone = table_phone(app, keeps[0])
    phone.play_navawhist(phone.match_id, [1, 0, 0, 0], [1, 0, 0, 0])
    sheet = decoded(phone.client.get(f"/matches/{phone.match_id}.json").data, MatchSheet)
    assert sheet.hands[0].inputs["bids"] == [1, 0, 0, 0]
    backup = decoded(organiser.client.get("/backup.json").data, Backup)
    played = {m.id: m for m in backup.matches}
    assert len(played) == 1 + len(keeps)  # the organiser's own match and each table's
    assert [h.data["tricks"] for h in played[phone.match_id].hands] == [[1, 0, 0, 0]]


# -- Backups written before, and in the format ----------------------------------------------

# The totals of the matches of BEFORE, by game, as the rules give them.
TOTALS = {"navawhist": [5, 4, 3, 3], "quarantotto": [30, 20, 10, 0],
          "scala40": [42, 0, 60], "fortyfive": [45, 45], "cavallore": [1]}


def imported_totals(table: Table, page: str) -> dict[str, list[int]]:
    assert "5 matches added, 0 already here" in page, page[-2000:]
    home = table.client.get("/backup.json")
    return {m["game"]: table.sheet(m["id"])["totals"] for m in json.loads(home.data)["matches"]}


def test_a_backup_written_before_the_format_still_imports(app, client):
    assert json.loads(BEFORE.read_text())["format"] == "scorekeeper-backup"
    phone = Table(client)
    assert imported_totals(phone, body(phone.upload(BEFORE.read_bytes()))) == TOTALS


def test_a_backup_in_the_format_imports_on_another_instance(app, client, tmp_path):
    first = Table(client)
    assert imported_totals(first, body(first.upload(BEFORE.read_bytes()))) == TOTALS
    written = first.client.get("/backup.json").data
    assert json.loads(written)["format"] == "scorekeeper/2"
    # Another phone of this instance: the backup proves the table, its matches are here.
    assert "0 matches added, 5 already here" in body(Table(app.test_client()).upload(written))
    other = migrated_app(f"sqlite:///{tmp_path / 'other.db'}")
    phone = Table(other.test_client())
    assert imported_totals(phone, body(phone.upload(written))) == TOTALS
    assert count(other, Match) == 5 and count(app, Match) == 5


def test_a_file_in_no_known_format_is_refused(client):
    text = BEFORE.read_text().replace('"scorekeeper-backup"', '"scorekeeper/3"', 1)
    response = Table(client).upload(text.encode())
    assert response.status_code == 422 and "not a Scorekeeper backup" in body(response)


def entry(**changes: Any) -> dict[str, Any]:
    data = {"id": "formatted", "game": "cavallore", "options": {}, "first_dealer": 0,
            "players": ["Zoe"], "created_at": WHEN, "updated_at": WHEN,
            "hands": [{"number": 1, "data": {"placed": 12, "seat": 0}, "created_at": WHEN,
                       "updated_at": WHEN}]}
    data.update(changes)
    return data


WRONG = {  # a field the models refuse: the words the page says, in English and Italian
    "a first dealer in words": (entry(first_dealer="Zoe"), "bad first dealer",
                                "valore non valido: first dealer"),
    "a name that is a number": (entry(players=[7]), "bad name", "valore non valido: name"),
    "no players": (entry(players=None), "bad players", "valore non valido: players"),
    "a date in words": (entry(hands=[{"number": 1, "data": {"placed": 1}, "created_at": WHEN,
                                      "updated_at": "yesterday"}]),
                        "bad date", "valore non valido: date"),
    "a hand numbered 0": (entry(hands=[{"number": 0, "data": {"placed": 1}, "created_at": WHEN,
                                        "updated_at": WHEN}]),
                          "bad hand", "valore non valido: hand"),
    "a history of an unknown kind": (entry(history=[{"number": 1, "kind": "guess",
                                                     "created_at": WHEN}]),
                                     "bad history", "valore non valido: history"),
    "an address too long": (entry(id="L" * 40), "bad id", "valore non valido: id"),
    "a roster change of no kind": (entry(roster=[{"after": 1}]), "bad roster",
                                   "valore non valido: roster"),
}


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("case", list(WRONG))
def test_a_match_the_format_refuses_is_named_with_what_is_wrong(app, client, case, lang):
    wrong, english, italian = WRONG[case]
    text = json.dumps({"format": "scorekeeper/2", "tables": [], "matches": [entry(), wrong]})
    phone = Table(client)
    response = phone.post("/backup", {"file": (io.BytesIO(text.encode()), "b.json")},
                          content_type="multipart/form-data", headers={"Accept-Language": lang})
    page = body(response)
    assert response.status_code == 200
    assert f"{wrong['id'][:40]}: {english if lang == 'en' else italian}" in page, page[-2000:]
    assert count(app, Match) == 1
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(wrong, MatchEntry)


# -- The JSON Schema --------------------------------------------------------------------------

def test_the_committed_schema_is_what_the_models_give():
    assert (ROOT / "docs" / "export-schema.json").read_text() == schema.text(), (
        "python -c 'from scorekeeper.engine.schema import text; print(text(), end=\"\")' "
        "> docs/export-schema.json")


def test_a_worker_without_docstrings_serves_the_same_schema():
    """A served worker runs as ``python -OO`` (docs/architecture.md): the descriptions must
    not be docstrings."""
    served = subprocess.run(
        [sys.executable, "-OO", "-c",
         "import sys; from scorekeeper.engine.schema import text; sys.stdout.write(text())"],
        cwd=ROOT, capture_output=True, text=True, check=True, encoding="utf-8").stdout
    assert served == (ROOT / "docs" / "export-schema.json").read_text()
    assert '"description": "A backup file: tables with their matches."' in served


KEYWORDS = {"$schema", "title", "description", "anyOf", "$defs", "$ref", "type",
            "properties", "required", "items", "enum", "pattern", "maxLength", "minLength",
            "maxItems", "minItems", "minimum", "maximum", "format", "default",
            "additionalProperties", "examples"}


def schema_nodes(node: Any, defs: dict[str, Any]) -> int:
    """How many schemas ``node`` holds, each checked to be JSON Schema's own shape: known
    keywords, known types, every ``$ref`` to a definition, ``required`` among properties."""
    assert isinstance(node, dict) and set(node) <= KEYWORDS, node
    if "$ref" in node:
        assert node["$ref"].removeprefix("#/$defs/") in defs, node
    types = node.get("type", [])
    assert set([types] if isinstance(types, str) else types) <= {
        "object", "array", "string", "integer", "number", "boolean", "null"}, node
    assert set(node.get("required", [])) <= set(node.get("properties", {})), node
    parts = [*node.get("properties", {}).values(), *node.get("anyOf", []),
             *([node["items"]] if isinstance(node.get("items"), dict) else []),
             *([node["additionalProperties"]]
               if isinstance(node.get("additionalProperties"), dict) else [])]
    return 1 + sum(schema_nodes(part, defs) for part in parts)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_schema_is_served_at_a_stable_address_for_any_cache(client, lang):
    response = client.get(ADDRESS, headers={"Accept-Language": lang})
    assert response.status_code == 200 and response.mimetype == "application/schema+json"
    assert response.cache_control.public and response.cache_control.max_age >= 3600
    assert body(response) == (ROOT / "docs" / "export-schema.json").read_text()
    again = client.get(ADDRESS, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    document = response.get_json()
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"Backup", "MatchEntry", "MatchSheet", "HandEntry"} <= set(document["$defs"])
    nodes = schema_nodes({k: v for k, v in document.items() if k != "$defs"},
                         document["$defs"])
    nodes += sum(schema_nodes(part, document["$defs"]) for part in document["$defs"].values())
    assert nodes > 100
    match = document["$defs"]["MatchEntry"]["properties"]
    assert match["hands"]["maxItems"] == 5000
    assert match["id"]["pattern"] == "^[A-Za-z0-9_-]{1,24}$"


def test_the_api_describes_a_sheet_by_the_format(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    sheet = spec["components"]["schemas"]["Sheet"]
    assert sheet == {"$ref": "#/components/schemas/MatchSheet"}
    assert sorted(spec["components"]["schemas"]["MatchSheet"]["required"]) == sorted(
        MatchSheet.__struct_fields__)
    assert ADDRESS in spec["paths"]["/matches/{match_id}"]["get"]["summary"]
