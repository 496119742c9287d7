"""People who come and go in the rummy games, through the web: a Quarantotto evening with a
join, a sit-out and a return, a substitute and a leaver, a correction and an undo in between;
a Scala 40 match with a join, a refused sit-out, a substitute and a leaver. Every total is
computed here from RULES.md, and every page answers after each change."""

from __future__ import annotations

import re
from typing import Any

from scorekeeper.db import db
from scorekeeper.models import Match
from tests.test_people_web import change, pages_of, step
from tests.test_quarantotto_web import game_form
from tests.test_quarantotto_web import play as play_game
from tests.test_scala40_web import deal_form
from tests.test_scala40_web import play as play_deal

QUARANTOTTO = {"A": 15, "J": 10, "Q": 10, "K": 10}
SCALA40 = {"*": 25, "A": 11, "J": 10, "Q": 10, "K": 10}


def in_hand(entry: Any, values: dict[str, int]) -> int:
    """RULES.md: a hand's points, from a total or the cards left (face value unless listed)."""
    if isinstance(entry, int):
        return entry
    cards = entry.split()
    if values is SCALA40 and cards == ["A"]:
        return 1  # a lone Ace
    return sum(values.get(card, 0) or int(card) for card in cards)


def quarantotto_scores(hands: dict[int, Any], closer: int | None) -> dict[int, int]:
    """RULES.md, Quarantotto: W is the worst hand of those dealt in (``hands``, by seat;
    the closer's 0); each scores W - h."""
    points = {seat: 0 if seat == closer else in_hand(h, QUARANTOTTO)
              for seat, h in hands.items()}
    worst = max(points.values())
    return {seat: worst - h for seat, h in points.items()}


def added(totals: list[int | None], scores: dict[int, int]) -> list[int | None]:
    return [t + scores[seat] if seat in scores else t for seat, t in enumerate(totals)]


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def all_pages_answer(table, match_id: str) -> None:
    pages = pages_of(table, match_id)
    assert set(pages.values()) == {200}, pages
    pdf = table.client.get(f"/matches/{match_id}.pdf").get_data()
    assert pdf.startswith(b"%PDF")


def ok(response) -> None:
    assert response.status_code == 303, text_of(response)[:3000]


def test_a_quarantotto_evening_with_people_coming_and_going(table, client, app):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno", "Carla"])
    anna, bruno, carla, dario = range(4)
    # Game 1 (Anna deals): Anna closes, Bruno holds A K 7 (32), Carla 10.
    game1 = {anna: None, bruno: "A K 7", carla: 10}
    ok(play_game(table, match_id, anna, [None, "A K 7", 10]))
    totals = added([0, 0, 0], quarantotto_scores(game1, anna))
    # Game 2 (Bruno deals): the stock runs out.
    game2 = {anna: 15, bruno: 5, carla: 30}
    ok(play_game(table, match_id, "stock", [15, 5, 30]))
    totals = added(totals, quarantotto_scores(game2, None))
    assert table.sheet(match_id)["totals"] == totals
    assert table.sheet(match_id)["details"]["games"] == 3  # as many games as players

    # Dario joins after game 2 with the lowest total of those still playing.
    ok(change(table, match_id, "join", name="Dario"))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [*totals, min(totals)]
    assert sheet["details"]["games"] == 4  # one more game for the joiner
    assert sheet["next"]["seats"] == [anna, bruno, carla, dario]
    all_pages_answer(table, match_id)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'name="values-3"' in page  # the joiner's keypad is offered for game 3

    # A correction of game 1: Carla held 12. It shows the three who played it, and Dario's
    # entry total follows the corrected sheet.
    url = f"/matches/{match_id}/quarantotto/1/edit"
    form = client.get(url).get_data(as_text=True)
    assert 'name="values-2"' in form and 'name="values-3"' not in form
    assert 'name="closer" value="3"' not in form
    data = game_form(table.sheet(match_id), anna, [None, "A K 7", 12]) | {"number": 1}
    ok(table.post(url, data))
    game1[carla] = 12
    totals = added(added([0, 0, 0], quarantotto_scores(game1, anna)),
                   quarantotto_scores(game2, None))
    sheet = table.sheet(match_id)
    assert sheet["hands"][0]["inputs"]["points"] == [None, "A K 7", 12]
    assert sheet["totals"] == [*totals, min(totals)]
    totals = [*totals, min(totals)]
    all_pages_answer(table, match_id)

    # Bruno sits out game 3; Elena plays for Carla from game 3.
    ok(change(table, match_id, "sit_out", seat=bruno))
    ok(change(table, match_id, "substitute", seat=carla, name="Elena"))
    all_pages_answer(table, match_id)
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [anna, carla, dario]
    assert sheet["next"]["dealer"] == carla  # after Bruno, who dealt game 2
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'name="values-1"' not in page and 'name="closer" value="1"' not in page
    assert 'name="values-3"' in page
    # An entry for the sitter is refused, naming him; nothing is stored.
    version = sheet["version"]
    refused = play_game(table, match_id, dario, [10, 5, 40, None])
    assert refused.status_code == 422
    assert "Bruno is not dealt in" in text_of(refused)
    assert table.sheet(match_id)["version"] == version
    # Game 3: Dario closes; W is the worst hand of those dealt in (Bruno is not counted).
    game3 = {anna: 10, carla: 40, dario: None}
    ok(play_game(table, match_id, dario, [10, None, 40, None]))
    totals = added(totals, quarantotto_scores(game3, dario))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert sheet["hands"][2]["inputs"]["points"] == [10, None, 40, None]
    assert sheet["hands"][2]["points"][bruno] is None
    all_pages_answer(table, match_id)
    live = text_of(client.get(f"/matches/{match_id}/live"))
    assert "out" in live

    # Undo and redo game 3.
    ok(step(table, match_id, "undo"))
    assert table.sheet(match_id)["totals"] == [t - s for t, s in zip(
        totals, [quarantotto_scores(game3, dario).get(s, 0) for s in range(4)], strict=True)]
    ok(step(table, match_id, "redo"))
    assert table.sheet(match_id)["totals"] == totals

    # Bruno comes back; Anna goes home after game 3.
    ok(change(table, match_id, "back", seat=bruno))
    ok(change(table, match_id, "leave", seat=anna))
    all_pages_answer(table, match_id)
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [bruno, carla, dario]
    assert sheet["next"]["dealer"] == dario
    # Game 4, the last (3 players at the start + 1 joiner): the stock runs out.
    game4 = {bruno: 6, carla: 6, dario: 9}
    ok(play_game(table, match_id, "stock", [None, 6, 6, 9]))
    totals = added(totals, quarantotto_scores(game4, None))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert sheet["status"] == "finished" and sheet["next"] is None
    # Anna left: whatever her total, she ranks below everyone still playing.
    ranking = [entry["seats"][0] for entry in sheet["ranking"]]
    assert ranking[-1] == anna
    best = max(totals[s] for s in (bruno, carla, dario))
    assert sheet["winners"] == [s for s in (bruno, carla, dario) if totals[s] == best]
    all_pages_answer(table, match_id)
    # The match is over: it takes no more changes.
    refused = change(table, match_id, "join", name="Franco")
    assert refused.status_code == 422
    assert table.sheet(match_id)["version"] == sheet["version"]
    with app.app_context():
        assert len(db.session.get(Match, match_id).seats) == 4
