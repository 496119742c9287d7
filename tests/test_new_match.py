"""Starting a match over HTTP: known players fill the first empty row, a switch of game keeps
the names, options show where they apply under a heading saying when, Forty-Five's partners."""

from __future__ import annotations

import re

from scorekeeper.models import Match
from scorekeeper.rules import GAMES, fortyfive

from .conftest import count


def names_in(page: str) -> list[str]:
    """The player rows of a new-match page, in order."""
    return re.findall(r'name="players-\d+" id="players-\d+" value="([^"]*)"', page)


def test_a_known_player_fills_the_first_empty_row(table, app):
    table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    data = {"game": "navawhist", "players-0": "Dario", "players-1": "", "players-2": "Elsa",
            "players-3": "", "action": "pick:Carla"}
    response = table.post("/matches/new", data)
    assert response.status_code == 200
    assert names_in(response.get_data(as_text=True)) == ["Dario", "Carla", "Elsa", ""]
    # A full table of rows gains one, up to the game's most players.
    data.update({"players-1": "Carla", "players-3": "Fede", "action": "pick:Anna"})
    assert names_in(table.post("/matches/new", data).get_data(as_text=True)) == [
        "Dario", "Carla", "Elsa", "Fede", "Anna"]
    assert count(app, Match) == 1


def test_switching_game_keeps_the_names_typed(table, app):
    data = {"game": "navawhist", "players-0": "Anna", "players-1": "Bruno", "players-2": "",
            "players-3": "Dario", "first_dealer": "3", "place": "Bar", "opt_hook": "y",
            "action": "game:scala40"}
    response = table.post("/matches/new", data)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert names_in(page) == ["Anna", "Bruno", "", "Dario"]
    assert 'name="game" value="scala40"' in page
    assert 'value="3" checked' in page and 'value="Bar"' in page
    # Scala 40's options start from their defaults (closing in hand doubles is on).
    assert re.search(r'id="opt_in_hand_doubles"[^>]*checked|checked[^>]*id="opt_in_hand_doubles"',
                     page)
    # A game for fewer players keeps as many names as it seats.
    eight = {**data, **{f"players-{i}": f"P{i}" for i in range(8)}, "action": "game:scala40"}
    assert names_in(table.post("/matches/new", eight).get_data(as_text=True)) == [
        f"P{i}" for i in range(GAMES["scala40"].max_players)]
    # A short table is topped up with empty rows; an unknown game is a 400.
    data.update({"action": "game:navawhist", "players-1": "", "players-3": ""})
    del data["players-2"], data["players-3"], data["players-1"]
    assert names_in(table.post("/matches/new", data).get_data(as_text=True)) == [
        "Anna", "", "", ""]
    data["action"] = "game:poker"
    assert table.post("/matches/new", data).status_code == 400
    assert count(app, Match) == 0


def test_options_show_where_they_apply_under_a_heading(client):
    page = client.get("/matches/new?game=scala40").get_data(as_text=True)
    for option in GAMES["scala40"].options:
        if option.when:
            key, value = option.when
            block = re.search(rf'data-when="opt_{key}" data-when-value="{value}">(.*?)</div>'
                              r"\s*</div>", page, re.S)
            assert block and f'name="opt_{option.key}"' in block.group(1), option.key
    assert "When “Match ends” is “After a fixed number of deals”:" in page
    assert "When “Re-entry” is “yes”:" in page
    # Pairs are for 4 players: shown with 4 rows, not with 3.
    assert 'name="opt_pairs"' in page
    three = client.post("/matches/new", data={
        "game": "scala40", "players-0": "A", "players-1": "B", "players-2": "C",
        "players-3": "", "action": "remove:3"}).get_data(as_text=True)
    assert 'name="opt_pairs"' not in three
    quarantotto = client.get("/matches/new?game=quarantotto").get_data(as_text=True)
    assert "When “Match length” is “A fixed number of games”:" in quarantotto
    assert "When “Match length” is “Until a total reaches the target”:" in quarantotto


def test_forty_five_shows_the_partners_before_the_start(table):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elsa", "Fede"]
    data = {"game": "fortyfive", **{f"players-{i}": n for i, n in enumerate(names)},
            "action": "up:0"}  # a row button that changes nothing
    page = table.post("/matches/new", data).get_data(as_text=True)
    for flag in (False, True):
        block = re.search(rf'class="partners" data-when="opt_three_pairs" '
                          rf'data-when-value="{flag}">(.*?)</div>', page, re.S).group(1)
        sides = [" + ".join(names[s] for s in side)
                 for side in fortyfive.sides(6, three_pairs=flag)]
        assert [re.sub(r"<[^>]+>", "", li).strip() for li in re.findall(
            r"<li>(.*?)</li>", block, re.S)] == sides
    # Three players play alone: no partners to show.
    three = table.post("/matches/new", {
        "game": "fortyfive", "players-0": "A", "players-1": "B", "players-2": "C",
        "players-3": "", "action": "remove:3"}).get_data(as_text=True)
    assert 'class="partners"' not in three
