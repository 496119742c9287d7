"""Quarantotto played over HTTP: closers, an exhausted stock, refusals, the keypad, corrections."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.models import Change
from scorekeeper.rules import quarantotto

from .conftest import count

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def game_form(sheet: dict[str, Any], closer: Any, hands: list[Any], **extra: Any) -> dict:
    """The entry form of the next game: the closer ("stock" when it ran out) and each hand."""
    number = sheet["next"]["number"] if sheet["next"] else len(sheet["hands"]) + 1
    data = {"version": sheet["version"], "number": number, "action": "save", "closer": closer}
    data.update({f"values-{seat}": "" if h is None else h for seat, h in enumerate(hands)})
    data.update(extra)
    return data


def play(table, match_id: str, closer: Any, hands: list[Any], **kwargs: Any):
    data = game_form(table.sheet(match_id), closer, hands)
    return table.post(f"/matches/{match_id}/quarantotto/game", data, **kwargs)


def test_a_match_with_closers_and_an_exhausted_stock(table, client):
    match_id = table.new_match("quarantotto", NAMES, first_dealer=2)
    games = [
        (0, [None, "A K 7", "10+15", 9]),            # Anna closes: W = 32
        ("stock", ["Q 5", 30, "2 2", "A A 10"]),       # nobody closes: Carla lowest
        (3, ["K K", "7,8,9", "j q", ""]),              # cards with commas and lower case
        ("stock", [0, "5+5", "A", "3 4"]),             # a 0 on an exhausted stock: warned
    ]
    expected = [0] * 4
    for number, (closer, hands) in enumerate(games, start=1):
        sheet = table.sheet(match_id)
        assert sheet["next"]["number"] == number
        assert sheet["next"]["dealer"] == (2 + number - 1) % 4
        response = play(table, match_id, closer, hands)
        assert response.status_code == 303, response.get_data(as_text=True)[:3000]
        scores = quarantotto.score_game(hands, closer=None if closer == "stock" else closer)
        expected = [t + s for t, s in zip(expected, scores, strict=True)]
        assert table.sheet(match_id)["totals"] == expected
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["next"] is None
    assert sheet["hands"][0]["points"] == [32, 0, 7, 23]
    assert sheet["hands"][1]["events"] == ["stock ran out"]
    assert sheet["hands"][1]["notes"][2] == "lowest hand"
    assert sheet["hands"][0]["inputs"]["points"] == [None, "A K 7", "10+15", 9]
    best = max(expected)
    assert sheet["winners"] == [s for s in range(4) if expected[s] == best]
    assert sheet["details"]["warnings"] == [{"game": 4, "seat": 0, "message": (
        "%(player)s has 0 points in hand though nobody closed: check the points.")}]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Final ranking" in page
    assert "Anna has 0 points in hand though nobody closed" in page
    assert "A K 7" in page and "= 32" in page
    # The match is over: another game is refused, nothing stored.
    response = table.post(f"/matches/{match_id}/quarantotto/game",
                          game_form(sheet, 0, [None, 5, 5, 5]))
    assert response.status_code == 409
    assert len(table.sheet(match_id)["hands"]) == 4


def test_a_fixed_number_of_games_and_a_target(table):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="games", games=2)
    assert play(table, match_id, 0, [None, 20]).status_code == 303
    assert play(table, match_id, 1, [30, None]).status_code == 303
    assert table.sheet(match_id)["status"] == "finished"
    match_id = table.new_match("quarantotto", ["Anna", "Bruno"], length="target", target=50)
    assert "playing to 50" in table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert play(table, match_id, 0, [None, 40]).status_code == 303
    assert table.sheet(match_id)["status"] == "in progress"
    assert play(table, match_id, 0, [None, "K"]).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["totals"] == [50, 0]
    assert sheet["winners"] == [0]


@pytest.mark.parametrize(("closer", "hands", "message"), [
    ("", [None, 5, 5, 5], "Tap who closed, or that nobody did: the stock ran out."),
    (0, [None, "-5", 5, 5], "Bruno: points in hand cannot be negative."),
    (0, [None, 1, 5, 5], "Bruno: 1 point in hand is impossible"),
    ("stock", [0, 5, 0, 5], "Carla: only one player can end a game with 0 points in hand."),
    (0, [None, 0, 5, 5], "Bruno: only one player can end a game with 0 points in hand."),
    (0, ["7", 5, 5, 5], "Anna closed and must have 0 points in hand."),
    (0, [None, 5, "", 5], "Carla: the points in hand are missing."),
    ("stock", [5, 5, 5, ""], "Dario: the points in hand are missing."),
    (0, [None, 5, "7 Jolly", 5], "Carla: Quarantotto has no jokers."),
    (0, [None, 5, 5, "A Z"], "Dario: unknown card &#39;Z&#39;."),
    (0, [None, 5, 5, "A KDQ"],
     "Dario: &#39;KDQ&#39; reads as different cards: put a space between them."),
    (0, [None, 5, "kqz", 5], "Carla: unknown card &#39;kqz&#39;."),
    (0, [None, "10+", 5, 5], "Bruno: unknown card"),
    (7, [None, 5, 5, 5], "The closer must be a seat from 0 to 3."),
])
def test_refusals_name_the_player_and_store_nothing(table, app, closer, hands, message):
    match_id = table.new_match("quarantotto", NAMES)
    assert play(table, match_id, 0, [None, 5, 5, 5]).status_code == 303
    before, changes = table.sheet(match_id), count(app, Change)
    response = play(table, match_id, closer, hands)
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert message in text
    assert count(app, Change) == changes
    assert table.sheet(match_id) == before
    # The form comes back with what was typed, to fix it (the closer needs no keypad).
    typed = [h for seat, h in enumerate(hands) if isinstance(h, str) and h and seat != closer]
    for entry in typed:
        assert f'value="{entry}"' in text.replace("&#34;", '"')


@pytest.mark.parametrize("typed", ["kq", "KQ", "Kq", "k q", "10k", "10 k"])
def test_cards_run_together_are_stored_as_the_same_cards(table, typed):
    """docs/rules.md#cards-typed-or-tapped: ``kq`` reads as ``k q``, ``10k`` as ``10 k``."""
    match_id = table.new_match("quarantotto", NAMES)
    assert play(table, match_id, 0, [None, typed, 5, 5]).status_code == 303
    spaced = {"kq": "K Q", "10k": "10 K", "10 k": "10 K"}.get(typed.lower(), "K Q")
    other = table.new_match("quarantotto", NAMES)
    assert play(table, other, 0, [None, spaced, 5, 5]).status_code == 303
    assert table.sheet(match_id)["totals"] == table.sheet(other)["totals"] \
        == quarantotto.score_game([None, spaced, 5, 5], closer=0)


def test_a_run_read_two_ways_is_refused_in_italian_too(table, app):
    match_id = table.new_match("quarantotto", NAMES)
    changes = count(app, Change)
    response = play(table, match_id, 0, [None, "rd", 5, 5], headers={"Accept-Language": "it"})
    assert response.status_code == 422
    assert "Bruno: &#39;rd&#39; si legge come carte diverse: separale con uno spazio." \
        in response.get_data(as_text=True)
    assert count(app, Change) == changes


def test_refused_with_htmx_the_live_part_comes_back(table):
    match_id = table.new_match("quarantotto", NAMES)
    response = play(table, match_id, 0, [None, 1, 5, 5], headers={"HX-Request": "true"})
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert text.lstrip().startswith('<div id="live"')
    assert "Bruno: 1 point in hand is impossible" in text


def test_a_stale_or_double_submission_stores_one_game(table, app):
    match_id = table.new_match("quarantotto", NAMES)
    data = game_form(table.sheet(match_id), 1, [9, None, 9, 9])
    assert table.post(f"/matches/{match_id}/quarantotto/game", data).status_code == 303
    response = table.post(f"/matches/{match_id}/quarantotto/game", data)
    assert response.status_code == 409
    text = response.get_data(as_text=True)
    assert "Game 1: your entry (Anna 9, Carla 9, Dario 9) was not saved: another phone saved " \
        "it first." in text
    # What was typed belonged to game 1, which is stored now: game 2 starts empty.
    assert 'name="values-0" id="values-0" value=""' in text
    assert len(table.sheet(match_id)["hands"]) == 1
    assert count(app, Change) == 1


def test_keypad_taps_without_javascript_show_the_form_again(table, client, app):
    match_id = table.new_match("quarantotto", NAMES)
    sheet = table.sheet(match_id)
    form = game_form(sheet, 0, [None, "A K", "", "10+15"]) | {"action": "", "tap": "1:7"}
    del form["action"]
    version = table.sheet(match_id)["version"]
    response = table.post(f"/matches/{match_id}/quarantotto/game", form)
    # Answered with the page whose address carries the game: reloading it posts nothing.
    assert response.status_code == 303
    address = response.headers["Location"]
    assert address.startswith(f"/matches/{match_id}?n=1&closer=0&values-1=A+K+7")
    text = client.get(address).get_data(as_text=True)
    assert text == client.get(address).get_data(as_text=True)
    assert table.sheet(match_id)["version"] == version
    assert 'value="A K 7"' in text
    assert '<output class="pad-value" id="pad-value-1"' in text and ">32<" in text
    assert ">25<" in text  # Dario's sum
    assert "closed: 0 points in hand" in text  # Anna chose as closer: no keypad for her
    assert 'name="values-0"' not in text
    assert 'formaction="/matches/' in text
    assert count(app, Change) == 0 and table.sheet(match_id)["hands"] == []
    # Enter in a field (no action) only shows the form again too.
    del form["tap"]
    response = table.post(f"/matches/{match_id}/quarantotto/game", form)
    assert response.status_code == 303 and count(app, Change) == 0
    # A tap on a stale form is refused rather than shown for the wrong game.
    table.post(f"/matches/{match_id}/quarantotto/game", game_form(sheet, 0, [None, 5, 5, 5]))
    assert table.post(f"/matches/{match_id}/quarantotto/game",
                      form | {"tap": "1:7"}).status_code == 409
    # And an address made for that game shows the next one, blank.
    text = client.get(address).get_data(as_text=True)
    assert "Game 2 of 4" in text and 'value="A K 7"' not in text


@pytest.mark.parametrize(("text", "key", "shown", "points"), [
    ("", "A", "A", 15),
    ("A", "K", "A K", 25),
    ("A K 7", "back", "A K", 25),
    ("A", "back", "", None),
    ("10+15+8", "show", "10+15+8", 33),
    ("10+15+8", "back", "10+15", 25),
    ("32", "show", "32", 32),
    ("32", "Q", "Q", 10),
])
def test_the_keypad_endpoint(table, text, key, shown, points):
    match_id = table.new_match("quarantotto", NAMES)
    response = table.post(f"/matches/{match_id}/quarantotto/cards",
                          {"values-2": text, "tap": f"2:{key}"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html and 'id="pad-state-2"' in html
    assert f'name="values-2" id="values-2" value="{shown}"' in html
    value = html.split('id="pad-value-2"')[1].split(">", 1)[1].split("<", 1)[0].strip()
    assert value == ("–" if points is None else str(points))
    assert table.sheet(match_id)["hands"] == []


def test_the_keypad_refuses_a_joker_and_unknown_keys(table):
    match_id = table.new_match("quarantotto", NAMES)
    url = f"/matches/{match_id}/quarantotto/cards"
    response = table.post(url, {"values-1": "7 *", "tap": "1:show"})
    assert response.status_code == 200
    assert "Bruno: Quarantotto has no jokers." in response.get_data(as_text=True)
    assert "Joker" not in table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert table.post(url, {"tap": "1:Jolly"}).status_code == 400
    assert table.post(url, {"tap": "9:A"}).status_code == 400
    assert table.post(url, {"tap": "x"}).status_code == 400
    assert table.post(url, {}).status_code == 400
    assert table.post("/matches/nope/quarantotto/cards", {"tap": "1:A"}).status_code == 404


def test_correcting_a_past_game(table, client, app):
    match_id = table.new_match("quarantotto", NAMES)
    assert play(table, match_id, 0, [None, "A K 7", 20, 9]).status_code == 303
    assert play(table, match_id, "stock", [5, 30, 12, 8]).status_code == 303
    page = client.get(f"/matches/{match_id}")
    assert f'href="/matches/{match_id}/quarantotto/1/edit"' in page.get_data(as_text=True)
    edit = client.get(f"/matches/{match_id}/quarantotto/1/edit")
    assert edit.status_code == 200
    text = edit.get_data(as_text=True)
    assert "Correct game 1" in text and 'value="A K 7"' in text
    url = f"/matches/{match_id}/quarantotto/1/edit"
    sheet = table.sheet(match_id)
    data = game_form(sheet, 1, [12, None, 20, 9]) | {"number": 1}
    # A tap on the correction form shows it again; nothing changes.
    response = table.post(url, data | {"action": "", "tap": "0:A"})
    assert response.status_code == 303 and response.headers["Location"].startswith(f"{url}?n=1")
    text = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'value="12 A"' not in text and "Correct game 1" in text
    assert 'value="A"' in text  # a total gives way to a card
    # A refused correction stores nothing.
    changes = count(app, Change)
    response = table.post(url, data | {"values-0": 1})
    assert response.status_code == 422
    assert "Anna: 1 point in hand is impossible" in response.get_data(as_text=True)
    assert count(app, Change) == changes and table.sheet(match_id) == sheet
    response = table.post(url, data)
    assert response.status_code == 303
    after = table.sheet(match_id)
    first = quarantotto.score_game([12, None, 20, 9], closer=1)
    second = quarantotto.score_game([5, 30, 12, 8], closer=None)
    assert after["totals"] == [a + b for a, b in zip(first, second, strict=True)]
    assert after["hands"][0]["inputs"] == {"closer": 1, "points": [12, None, 20, 9],
                                           "hand_points": [12, 0, 20, 9]}
    # A stale correction is refused; unknown games and other games' matches are 404.
    assert table.post(url, data).status_code == 409
    assert client.get(f"/matches/{match_id}/quarantotto/3/edit").status_code == 404
    other = table.new_match("navawhist", NAMES)
    assert client.get(f"/matches/{other}/quarantotto/1/edit").status_code == 404
    assert table.post(f"/matches/{other}/quarantotto/game",
                      game_form(table.sheet(other), 0, [None, 5, 5, 5])).status_code == 404
    assert table.post(f"/matches/{other}/quarantotto/cards", {"tap": "1:A"}).status_code == 404


def test_htmx_choice_shows_the_form_again(table):
    match_id = table.new_match("quarantotto", NAMES)
    form = game_form(table.sheet(match_id), "stock", ["A", "", "", ""])
    form["action"] = "refresh"
    response = table.post(f"/matches/{match_id}/quarantotto/game", form,
                          headers={"HX-Request": "true"})
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    # the entry panel alone, which replaces itself
    assert text.lstrip().startswith('<section class="entry rummy"') and 'id="deal-form"' in text
    assert 'id="live"' not in text and "<html" not in text
    assert 'value="stock" checked' in text
    assert table.sheet(match_id)["hands"] == []


def test_a_choice_on_the_correction_page_redraws_its_form_alone(table):
    match_id = table.new_match("quarantotto", NAMES)
    assert table.post(f"/matches/{match_id}/quarantotto/game", game_form(
        table.sheet(match_id), 0, [None, 5, 5, 5], action="save")).status_code == 303
    sheet = table.sheet(match_id)
    form = game_form(sheet, "stock", ["0", "5", "5", "5"], action="refresh")
    form["number"] = 1
    response = table.post(f"/matches/{match_id}/quarantotto/1/edit", form,
                          headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert text.lstrip().startswith('<form method="post" id="deal-form" class="entry rummy"')
    assert "<html" not in text and 'value="stock" checked' in text
    # the rules' warning comes with Anna's keypad as soon as the form shows her 0
    assert "Anna has 0 points in hand though nobody closed" in text
    assert table.sheet(match_id)["version"] == sheet["version"]  # nothing stored


def test_a_save_while_the_match_goes_on_answers_the_row_saved_not_the_sheet(table):
    match_id = table.new_match("quarantotto", NAMES, length="target", target=500)
    htmx = {"HX-Request": "true"}
    for closer in range(3):
        answer = play(table, match_id, closer, [None if s == closer else 9 + s for s in range(4)],
                      headers=htmx).get_data(as_text=True)
    # Game 3 is sent alone, with what it changed; games 1 and 2 stay as the phone shows them.
    assert 'id="game-3"' in answer and 'id="game-1"' not in answer
    assert 'hx-swap-oob="beforeend:#games"' in answer and 'id="current-game"' in answer
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    row = re.compile(r'<tr id="game-3".*?</tr>', re.S)
    assert row.search(answer).group() == row.search(page).group()
    assert 'id="game-1"' in page and 'id="current-game"' in page
