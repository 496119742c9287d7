"""People who come and go in the rummy games, through the web: a Quarantotto evening with a
join, a sit-out and a return, a substitute and a leaver, a correction and an undo in between;
a Scala 40 match with a join, a refused sit-out, a substitute and a leaver. Every total is
computed here from docs/rules.md, and every page answers after each change."""

from __future__ import annotations

import re
from typing import Any

from scorekeeper.db import db
from scorekeeper.models import Match
from tests.conftest import pdf_text
from tests.test_people_web import change, pages_of, step
from tests.test_quarantotto_web import game_form
from tests.test_quarantotto_web import play as play_game
from tests.test_scala40_web import deal_form
from tests.test_scala40_web import play as play_deal

QUARANTOTTO = {"A": 15, "J": 10, "Q": 10, "K": 10}
SCALA40 = {"*": 25, "A": 11, "J": 10, "Q": 10, "K": 10}


def in_hand(entry: Any, values: dict[str, int]) -> int:
    """docs/rules.md: a hand's points, from a total or the cards left (face value unless listed)."""
    if isinstance(entry, int):
        return entry
    cards = entry.split()
    if values is SCALA40 and cards == ["A"]:
        return 1  # a lone Ace
    return sum(values.get(card, 0) or int(card) for card in cards)


def quarantotto_scores(hands: dict[int, Any], closer: int | None) -> dict[int, int]:
    """docs/rules.md, Quarantotto: W is the worst hand of those dealt in (``hands``, by seat;
    the closer's 0); each scores W - h."""
    points = {seat: 0 if seat == closer else in_hand(h, QUARANTOTTO)
              for seat, h in hands.items()}
    worst = max(points.values())
    return {seat: worst - h for seat, h in points.items()}


def added(totals: list[int | None], scores: dict[int, int]) -> list[int | None]:
    return [t + scores[seat] if seat in scores else t for seat, t in enumerate(totals)]


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def all_pages_answer(table, match_id: str) -> str:
    """Every page of the match answers, none says "None"; the text of its PDF."""
    pages = pages_of(table, match_id)
    pages[f"/matches/{match_id}/screen"] = table.client.get(
        f"/matches/{match_id}/screen").status_code
    assert set(pages.values()) == {200}, pages
    for url in (f"/matches/{match_id}", f"/matches/{match_id}/live",
                f"/matches/{match_id}.csv"):
        assert "None" not in text_of(table.client.get(url)), url
    text, _pages, _ = pdf_text(table.client.get(f"/matches/{match_id}.pdf"))
    assert "None" not in text
    return text


def cells(page: str, row_id: str) -> list[str]:
    """The text of each cell of a row of the live sheet."""
    row = re.search(rf'<tr id="{row_id}".*?</tr>', page, re.S)
    assert row, row_id
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell)).strip()
            for cell in re.findall(r"<td.*?</td>", row.group(0), re.S)]


def names_row(page: str) -> list[str]:
    """The players' names as the sheet's head lists them, in turn order."""
    row = re.search(r'<tr id="names-row".*?</tr>|<thead>\s*<tr>.*?</tr>', page, re.S)
    assert row
    return re.findall(r'<span class="name">([^<]*)</span>', row.group(0))


def strip_states(page: str) -> dict[str, str]:
    """Each name of the totals strip with the state it says ("" while playing)."""
    strip = re.search(r'<ol class="strip[^"]*" id="strip".*?</ol>', page, re.S).group(0)
    return {re.search(r'class="who">([^<]+)<', item).group(1):
            (re.findall(r'class="unseen state">, ([^<]+)<', item) or [""])[0]
            for item in re.findall(r"<li.*?</li>", strip, re.S)}


def penalties(hands: dict[int, Any], closer: int) -> dict[int, int]:
    """docs/rules.md, Scala 40: the closer pays 0, every other player the penalty points of the
    cards left (no closing in hand, nobody who never opened in the deals below)."""
    return {seat: 0 if seat == closer else in_hand(h, SCALA40) for seat, h in hands.items()}


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
    pdf = all_pages_answer(table, match_id)
    assert "out" in pdf
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert names_row(page) == ["Anna", "Bruno", "Carla", "Dario"]
    assert cells(page, "game-1")[dario] == ""  # before he joined: empty, not 0
    assert cells(page, "game-3")[bruno] == "out"
    assert cells(page, "game-3")[dario].split()[-1] == str(totals[dario])
    assert "sitting out" in text_of(client.get(f"/matches/{match_id}"))

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
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'name="values-0"' not in page and 'name="values-1"' in page
    assert "left" in text_of(client.get(f"/matches/{match_id}"))
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
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert cells(page, "game-4")[anna] == ""  # after she left: empty
    # The match is over: it takes no more changes.
    refused = change(table, match_id, "join", name="Franco")
    assert refused.status_code == 422
    assert table.sheet(match_id)["version"] == sheet["version"]
    with app.app_context():
        assert len(db.session.get(Match, match_id).seats) == 4


def test_a_scala40_match_with_a_join_a_substitute_and_a_leaver(table, client, app):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    anna, bruno, carla, dario = range(4)
    threshold = 101
    # Deal 1 (Anna deals): Anna closes; Bruno a lone Ace, Carla Q Q 9.
    deal1 = {anna: None, bruno: "A", carla: "Q Q 9"}
    ok(play_deal(table, match_id, anna, {bruno: "A", carla: "Q Q 9"}))
    totals = added([0, 0, 0], penalties(deal1, anna))
    assert table.sheet(match_id)["totals"] == totals

    # Scala 40 takes no sit-out: refused, saying why, naming the player; nothing stored.
    version = table.sheet(match_id)["version"]
    refused = change(table, match_id, "sit_out", seat=bruno)
    assert refused.status_code == 422
    said = text_of(refused)
    assert "Scala 40 does not allow sitting out" in said and "Bruno" in said
    assert table.sheet(match_id)["version"] == version
    assert table.sheet(match_id)["totals"] == totals

    # Dario joins with the highest total of those still in; it is not a re-entry.
    ok(change(table, match_id, "join", name="Dario"))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [*totals, max(totals)]
    assert not any(sheet["details"]["reentries"])
    assert sheet["next"]["seats"] == [anna, bruno, carla, dario]
    all_pages_answer(table, match_id)
    # Deal 1 corrected (Carla held Q Q 8): the form shows the three who played it, and
    # Dario's entry total follows.
    url = f"/matches/{match_id}/scala40/1/edit"
    form = client.get(url).get_data(as_text=True)
    assert 'name="values-2"' in form and "Dario" not in re.sub(r"<[^>]+>", "", form.split(
        'id="deal-form"')[1])
    ok(table.post(url, deal_form(sheet, anna, {bruno: "A", carla: "Q Q 8"}) | {"number": 1}))
    deal1[carla] = "Q Q 8"
    totals = added([0, 0, 0], penalties(deal1, anna))
    totals = [*totals, max(totals)]
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert sheet["hands"][0]["inputs"]["points"] == [None, "A", "Q Q 8"]

    # Deal 2 (Bruno deals): Bruno closes; Dario's 80 put him out.
    deal2 = {anna: "K", bruno: None, carla: "7 3", dario: 80}
    ok(play_deal(table, match_id, bruno, {anna: "K", carla: "7 3", dario: 80}))
    totals = added(totals, penalties(deal2, bruno))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert totals[dario] >= threshold and sheet["details"]["eliminated"] == [dario]
    all_pages_answer(table, match_id)

    # Elena plays for Carla from deal 3.
    ok(change(table, match_id, "substitute", seat=carla, name="Elena"))
    all_pages_answer(table, match_id)
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [anna, bruno, carla]
    assert sheet["next"]["dealer"] == carla
    # Deal 3: Anna closes.
    deal3 = {anna: None, bruno: 50, carla: "K Q J"}
    ok(play_deal(table, match_id, anna, {bruno: 50, carla: "K Q J"}))
    totals = added(totals, penalties(deal3, anna))
    assert table.sheet(match_id)["totals"] == totals
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert cells(page, "deal-1")[dario] == ""  # before he joined: empty
    assert cells(page, "deal-3")[dario] == "out"  # out of the match
    assert names_row(page) == ["Anna", "Bruno", "Carla", "Dario"]

    # Bruno goes home after deal 3: out from deal 4, ranked as put out in deal 3.
    ok(change(table, match_id, "leave", seat=bruno))
    all_pages_answer(table, match_id)
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert sheet["next"]["seats"] == [anna, carla]
    assert sheet["next"]["dealer"] == anna  # Dario is out, Bruno gone
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert 'name="values-1"' not in page and 'name="closer" value="1"' not in page
    assert "left" in text_of(client.get(f"/matches/{match_id}"))
    # The totals kept in sight above the entry say who is out and who left.
    assert strip_states(page) == {"Anna": "", "Bruno": "left", "Carla": "", "Dario": "out"}
    # An entry for the leaver is refused, naming him; nothing stored.
    version = sheet["version"]
    refused = play_deal(table, match_id, carla, {anna: 95, bruno: 5})
    assert refused.status_code == 422 and "Bruno" in text_of(refused)
    assert table.sheet(match_id)["version"] == version

    # Deal 4: Elena closes for Carla; Anna's 95 put her out: Carla's seat wins.
    deal4 = {anna: 95, carla: None}
    ok(play_deal(table, match_id, carla, {anna: 95}))
    totals = added(totals, penalties(deal4, carla))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert totals[anna] >= threshold
    assert sheet["status"] == "finished" and sheet["winners"] == [carla]
    # Later outs rank higher: Anna (deal 4), Bruno (left after deal 3), Dario (deal 2),
    # whatever their totals.
    assert [entry["seats"][0] for entry in sheet["ranking"]] == [carla, anna, bruno, dario]
    assert len({entry["place"] for entry in sheet["ranking"]}) == 4
    all_pages_answer(table, match_id)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert cells(page, "deal-4")[bruno] == ""  # after he left: empty
    assert cells(page, "deal-4")[dario] == "out"
    with app.app_context():
        assert len(db.session.get(Match, match_id).seats) == 4


def test_a_quarantotto_joiner_seated_between_two_players(table, client):
    match_id = table.new_match("quarantotto", ["Anna", "Bruno", "Carla"], first_dealer=0)
    anna, bruno, carla, dario = range(4)
    game1 = {anna: None, bruno: 20, carla: 10}
    ok(play_game(table, match_id, anna, [None, 20, 10]))
    totals = added([0, 0, 0], quarantotto_scores(game1, anna))
    # Dario sits down between Anna and Bruno: he deals next, after Anna.
    ok(change(table, match_id, "join", name="Dario", at=1))
    sheet = table.sheet(match_id)
    totals = [*totals, min(totals)]
    assert sheet["totals"] == totals
    assert sheet["next"]["dealer"] == dario
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert names_row(page) == ["Anna", "Dario", "Bruno", "Carla"]
    # The keypads come in turn order too.
    pads = [int(seat) for seat in re.findall(r'name="values-(\d)"', page)]
    assert pads == [anna, dario, bruno, carla]
    assert cells(page, "game-1")[1] == ""  # Dario's column, before he joined
    ok(change(table, match_id, "sit_out", seat=carla))
    # Game 2 saved with htmx: the answer is the row saved, in turn order, Carla out.
    game2 = {anna: 5, bruno: 30, dario: None}
    response = play_game(table, match_id, dario, [5, 30, None, None],
                         headers={"HX-Request": "true"})
    assert response.status_code == 200, text_of(response)[:2000]
    answer = response.get_data(as_text=True)
    totals = added(totals, quarantotto_scores(game2, dario))
    assert table.sheet(match_id)["totals"] == totals
    assert cells(answer, "game-2") == cells(client.get(f"/matches/{match_id}").get_data(
        as_text=True), "game-2")
    assert cells(answer, "game-2")[3] == "out"
    # Game 2 corrected: its form offers the three dealt in; Carla's entry stays None.
    url = f"/matches/{match_id}/quarantotto/2/edit"
    form = client.get(url).get_data(as_text=True)
    assert 'name="values-2"' not in form and 'name="closer" value="2"' not in form
    assert 'name="values-1"' in form and 'name="closer" value="3" checked' in form
    ok(table.post(url, game_form(table.sheet(match_id), dario, [5, 40, None, None])
                  | {"number": 2}))
    game2[bruno] = 40
    totals = added(added([0, 0, 0], quarantotto_scores(game1, anna)), {})
    totals = added([*totals, min(totals)], quarantotto_scores(game2, dario))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals
    assert sheet["hands"][1]["inputs"]["points"] == [5, 40, None, None]
    all_pages_answer(table, match_id)
