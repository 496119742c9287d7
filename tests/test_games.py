"""What every game shares on the web: its routes belong to its own matches."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper.hands import blueprints
from scorekeeper.rules import GAMES

PLAYERS = {"navawhist": ["Ada", "Bea", "Cy"], "quarantotto": ["Ada", "Bea"],
           "scala40": ["Ada", "Bea"], "fortyfive": ["Ada", "Bea"], "cavallore": ["Ada"]}


def game_routes(app: Flask) -> list[tuple[str, str, str]]:
    """(game, method, rule) of every route of every game's entry blueprint."""
    names = {bp.name for bp in blueprints()}
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
