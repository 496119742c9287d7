"""What every game shares on the web: its routes belong to its own matches."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper.rules import GAMES
from scorekeeper.web.games import EXTENSION

PLAYERS = {"navawhist": ["Ada", "Bea", "Cy"], "quarantotto": ["Ada", "Bea"],
           "scala40": ["Ada", "Bea"], "fortyfive": ["Ada", "Bea"], "cavallore": ["Ada"]}


def game_routes(app: Flask) -> list[tuple[str, str, str]]:
    """(game, method, rule) of every route of every game's entry blueprint."""
    names = set(app.extensions[EXTENSION])
    routes = []
    for rule in app.url_map.iter_rules():
        game = rule.endpoint.partition(".")[0]
        if game in names:
            routes += [(game, method, rule.rule) for method in sorted(rule.methods)
                       if method in ("GET", "POST")]
    return routes


def test_every_game_route_carries_its_game_in_the_address(app):
    routes = game_routes(app)
    assert {game for game, _m, _r in routes} == set(GAMES)
    for game, _method, rule in routes:
        assert rule.startswith(f"/matches/<match_id>/{game}/"), rule


def test_a_route_of_one_game_is_a_404_on_every_other_games_match(app, table):
    ids = {game: table.new_match(game, names) for game, names in PLAYERS.items()}
    routes = game_routes(app)
    for game, method, rule in routes:
        for other, match_id in ids.items():
            if other == game:
                continue
            url = rule.replace("<match_id>", match_id).replace("<int:number>", "1")
            if method == "POST":
                response = table.post(url, {"action": "save"})
            else:
                response = table.client.get(url)
            assert response.status_code == 404, (method, url, other)
            assert "There is no such match." in response.get_data(as_text=True)


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_route_of_a_game_on_a_missing_match_is_a_404(app, table, game):
    for route_game, method, rule in game_routes(app):
        if route_game == game and method == "POST":
            url = rule.replace("<match_id>", "nope").replace("<int:number>", "1")
            assert table.post(url, {"action": "save"}).status_code == 404, url


ROOT = Path(__file__).resolve().parents[1]
# What a game's template, templates/games/<game>/game.html, holds: the shared pages call them.
GAME_MACROS = ("score_sheet", "entry_panel", "correction_line", "correction_form")


def test_every_game_has_its_pieces(app):
    """What adding a game takes (docs/architecture.md, "Adding a game"): each piece is
    found for every game."""
    catalog = read_po((ROOT / "scorekeeper/translations/it/LC_MESSAGES/messages.po").open("rb"))
    specs = app.extensions[EXTENSION]
    assert set(specs) == set(GAMES)
    for key, game in GAMES.items():
        rules = importlib.import_module(f"scorekeeper.rules.{key}")
        assert rules.GAME is game and callable(game.build_sheet)
        spec = importlib.import_module(f"scorekeeper.games.{key}").SPEC
        assert specs[key] is spec and spec.rules is game
        assert spec.blueprint.name == key and app.blueprints[key] is spec.blueprint
        assert isinstance(spec.blank_extras(game.min_players), dict)
        edit = app.view_functions[f"{key}.edit"]
        assert getattr(edit, "needs_edit_right", False), key
        pieces = app.jinja_env.get_template(f"games/{key}/game.html").module
        for macro in GAME_MACROS:
            assert callable(getattr(pieces, macro, None)), (key, macro)
        assert (ROOT / "templates" / f"games/{key}/blank.html").is_file(), key
        for test in (f"tests/rules/test_{key}.py", f"tests/test_{key}_web.py"):
            assert (ROOT / test).is_file(), test
        for text in [o.label for o in game.options] + [o.help for o in game.options if o.help]:
            message = catalog.get(text)
            assert message is not None and message.string and not message.fuzzy, (key, text)
