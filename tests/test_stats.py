"""A table's statistics against figures worked out by hand, before and after a correction."""

from __future__ import annotations

import re

from scorekeeper.db import db
from scorekeeper.engine.ledger import reopen, save_hand
from scorekeeper.engine.stats import table_stats
from scorekeeper.models import Match, Table

from .conftest import CSRF
from .conftest import Table as Phone
from .test_access import invitation, table_of

ANNA_ALL = {"winners": "0,0,0,0,0", "bonus": "0"}  # Anna takes every trick: 30, a jink
BRUNO_ALL = {"winners": "1,1,1,1,1", "bonus": "1"}
ANNA_NO_TRUMP = {"winners": "0,0,0,0,0", "bonus": "none"}  # no trump played: 25


def play(table, hands: list[dict[str, str]], first_dealer: int = 0) -> str:
    """A Forty-Five match of Anna and Bruno (to 45) with these hands."""
    match_id = table.new_match("fortyfive", ["Anna", "Bruno"], first_dealer=first_dealer)
    for data in hands:
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/fortyfive/hand", {
            "version": sheet["version"], "number": sheet["next"]["number"], "mode": "winners",
            "action": "save", **data})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return match_id


def figures(app, table_id: str):
    """The statistics of the table, and its players' ids by name."""
    with app.app_context():
        stats = table_stats(db.session.get(Table, table_id))
        ids = {name: player for player, name in stats.names.items()}
        return stats, ids


def test_figures_of_a_small_table_and_after_a_correction(app, table):
    first = play(table, [ANNA_ALL, ANNA_ALL])  # 60-0
    second = play(table, [BRUNO_ALL, BRUNO_ALL])  # 0-60
    play(table, [ANNA_NO_TRUMP, ANNA_ALL])  # 55-0
    table_id = table_of(table, first)
    stats, ids = figures(app, table_id)
    game = stats.games["fortyfive"]
    anna, bruno = game.players[ids["Anna"]], game.players[ids["Bruno"]]
    assert (anna.played, anna.won, anna.win_rate, anna.average, anna.best_streak) == \
        (3, 2, 66.7, 38.3, 1)
    assert (bruno.played, bruno.won, bruno.win_rate, bruno.average, bruno.best_streak) == \
        (3, 1, 33.3, 20.0, 1)
    no_trump, jinks = game_figures("fortyfive")
    assert anna.figure(jinks) == 4 and bruno.figure(jinks) == 2
    assert anna.figure(no_trump) == bruno.figure(no_trump) == 1
    assert stats.ahead[(ids["Anna"], ids["Bruno"])] == 2
    assert stats.ahead[(ids["Bruno"], ids["Anna"])] == 1
    before = game.ratings[ids["Anna"]]
    assert before.mu > game.ratings[ids["Bruno"]].mu and before.sigma < 25 / 3
    history = game.history[ids["Anna"]]
    assert [step for step, _value in history] == [1, 2, 3]
    # the rating after each match: down after the loss, then up
    assert history[1][1] < history[0][1] and history[2][1] > history[1][1]
    assert history[-1][1] == before.mu  # the chart ends on the rating the page gives

    page = table.client.get(f"/tables/{table_id}/stats")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "66.7%" in text and "38.3" in text and "2–1" in text and "<polyline" in text

    # The second match was entered wrongly: Anna took the second hand, then a third.
    with app.app_context():
        match = db.session.get(Match, second)
        reopen(match, expected=match.version)
        save_hand(match, 2, {"trick_winners": [0, 0, 0, 0, 0], "bonus_seat": 0},
                  expected=match.version, kind="correct")
        save_hand(match, 3, {"trick_winners": [0, 0, 0, 0, 0], "bonus_seat": 0},
                  expected=match.version)
    stats, ids = figures(app, table_id)
    game = stats.games["fortyfive"]
    anna, bruno = game.players[ids["Anna"]], game.players[ids["Bruno"]]
    assert (anna.won, anna.average, anna.best_streak) == (3, 58.3, 3)
    assert (bruno.won, bruno.average, bruno.best_streak) == (0, 10.0, 0)
    assert anna.figure(jinks) == 6 and bruno.figure(jinks) == 1
    assert stats.ahead[(ids["Anna"], ids["Bruno"])] == 3
    assert stats.ahead[(ids["Bruno"], ids["Anna"])] == 0
    after = game.ratings[ids["Anna"]]
    assert after.mu > before.mu  # the past match, rated again, carries to the end
    corrected = game.history[ids["Anna"]]
    assert corrected[0] == history[0] and corrected[1][1] > corrected[0][1]
    text = table.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
    assert "3–0" in text and "58.3" in text


def game_figures(key: str):
    from scorekeeper.rules import GAMES

    return GAMES[key].figures


def test_undo_and_other_games_figures(app, table):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(match_id, [2, 1], [2, 0])  # 2 cards: Anna exact, Bruno off by one
    table.play_navawhist(match_id, [0, 0], [1, 1])  # 2 cards: both off by one
    table_id = table_of(table, match_id)
    stats, ids = figures(app, table_id)
    exact, error, _case4, forbidden = game_figures("navawhist")
    anna = stats.games["navawhist"].players[ids["Anna"]]
    assert anna.figure(exact) == 50.0 and anna.figure(error) == 0.5
    # Anna dealt the first hand (Bruno bid 1 of 2: Anna could not bid 1), Bruno the second
    assert anna.figure(forbidden) == 1
    assert stats.games["navawhist"].players[ids["Bruno"]].figure(forbidden) == 1
    assert table.post(f"/matches/{match_id}/undo",
                      {"version": table.sheet(match_id)["version"]}).status_code == 303
    stats, ids = figures(app, table_id)
    anna = stats.games["navawhist"].players[ids["Anna"]]
    assert anna.figure(exact) == 100.0 and anna.figure(error) == 0.0


def test_only_the_table_s_phones_see_its_statistics(app, table):
    match_id = play(table, [ANNA_ALL, ANNA_ALL])
    table_id = table_of(table, match_id)
    stranger = Phone(app.test_client())
    assert stranger.client.get(f"/tables/{table_id}/stats").status_code == 403
    page = table.client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert f"/tables/{table_id}/stats" in page
    # each phone gets the cached page with a CSRF token its own forms are accepted with
    assert stranger.post(invitation(table, match_id), {}).status_code == 303
    for phone in (table, stranger, table, stranger):
        page = phone.client.get(f"/tables/{table_id}/stats").get_data(as_text=True)
        token = CSRF.search(page).group(1)
        assert phone.client.post(f"/tables/{table_id}/name", data={
            "csrf_token": token, "name": "Club"}).status_code == 303


def test_rematch_keeps_players_and_options_and_moves_the_dealer_on(app, table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"],
                               first_dealer=3, target=120)
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Rematch" not in page  # only once the match is over
    response = table.post(f"/matches/{match_id}/rematch", {})
    assert response.status_code == 303
    again = response.headers["Location"].rsplit("/", 1)[1]
    old, new = table.sheet(match_id), table.sheet(again)
    assert new["players"] == old["players"] and new["options"] == old["options"]
    assert (old["first_dealer"], new["first_dealer"]) == (3, 0)
    assert table_of(table, again) == table_of(table, match_id)
    assert new["hands"] == [] and re.fullmatch(r"[\w-]+", again)


def test_deleting_a_past_match_rates_the_others_again(app, table):
    first = play(table, [BRUNO_ALL, BRUNO_ALL])
    play(table, [ANNA_ALL, ANNA_ALL])
    table_id = table_of(table, first)
    stats, ids = figures(app, table_id)
    before = stats.games["fortyfive"].ratings[ids["Anna"]]
    stranger = Phone(app.test_client())
    assert stranger.post(f"/matches/{first}/delete", {}).status_code == 403
    assert table.client.get(f"/matches/{first}/delete").status_code == 200
    response = table.post(f"/matches/{first}/delete",
                          {"version": table.sheet(first)["version"]})
    assert response.status_code == 303 and table.client.get(f"/matches/{first}").status_code \
        == 404
    stats, ids = figures(app, table_id)
    game = stats.games["fortyfive"]
    anna = game.players[ids["Anna"]]
    assert (anna.played, anna.won, game.rated) == (1, 1, 1)
    after = game.ratings[ids["Anna"]]
    assert after.mu > before.mu and after.sigma > before.sigma  # one win, no loss before it
    assert stats.ahead[(ids["Bruno"], ids["Anna"])] == 0
