"""People who come and go in a Forty-Five match, through the web: played alone, a join
(with the lowest total), a sit-out and a return, a substitute and leavers, with a correction
and an undo in between; in partnerships, a join and a sit-out refused, a substitute taking
a seat, and a partner leaving, which ends the match. Totals are worked out here from
docs/rules.md#forty-five-tricks-and-points: 5 a trick, 10 instead for the best trump."""

from __future__ import annotations

import re

from .conftest import pdf_text
from .test_fortyfive_web import FortyFive, hidden
from .test_people_web import change, pages_of, step

NAMES = ["Anna", "Bruno", "Carla"]
TRICK, BONUS = 5, 10


def hand_points(winners: list[int], bonus: int | None) -> dict[int, int]:
    """Each seat's points in a hand: 5 a trick won; the trick of the best trump (won by
    ``bonus``, None when no trump was played) is worth 10 instead of 5."""
    points: dict[int, int] = {}
    for seat in winners:
        points[seat] = points.get(seat, 0) + TRICK
    if bonus is not None:
        points[bonus] += BONUS - TRICK
    return points


def add(totals: list[int], points: dict[int, int]) -> list[int]:
    return [total + points.get(seat, 0) for seat, total in enumerate(totals)]


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def row_html(page: str, number: int) -> str:
    """The row of hand ``number`` of the live sheet."""
    return re.search(rf'<tr id="hand-{number}">(.*?)</tr>', page, re.S).group(1)


def empty_cells(row: str) -> int:
    """How many cells of a row are empty: a seat not yet joined, or gone."""
    return re.sub(r"\s", "", row).count('<tdclass="absent"></td>')


def all_pages_answer(table, match_id: str) -> None:
    """Every page of the match answers, and none prints a missing value as "None"."""
    pages = pages_of(table, match_id)
    assert set(pages.values()) == {200}, pages
    for page in ("", "/live", "/history", ".csv"):
        assert "None" not in text(table.client.get(f"/matches/{match_id}{page}")), page


def tap_buttons(page: str) -> list[str]:
    return re.findall(r'value="tap:(\d+)"', page)


def test_a_solo_match_with_a_join_a_sit_out_a_substitute_and_leavers(table, client):
    match_id = table.new_match("fortyfive", NAMES, target=120)
    ff = FortyFive(table, match_id)

    # Hands 1 and 2, three players alone.
    hand1 = ([0, 1, 2, 0, 1], 0)
    assert ff.tap_winners(*hand1).status_code == 303
    hand2 = ([1, 2, 2, 0, 1], None)
    assert ff.tap_winners(hand2[0], "none").status_code == 303
    totals = add(add([0, 0, 0], hand_points(*hand1)), hand_points(*hand2))
    assert totals == [20, 20, 15]
    assert table.sheet(match_id)["totals"] == totals

    # Dario joins after hand 2 with the lowest total of those still playing.
    assert f"Joins with {min(totals)}." in text(client.get(f"/matches/{match_id}/players"))
    assert change(table, match_id, "join", name="Dario").status_code == 303
    totals = [*totals, min(totals)]
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals and sheet["next"]["seats"] == [0, 1, 2, 3]
    assert sheet["columns"] == [[0], [1], [2], [3]]  # still alone at four (case 19)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Dario joins at hand 3 with 15" in page
    assert sorted(tap_buttons(page)) == ["0", "1", "2", "3"]
    # His column is empty before he joined: no "out", no 0.
    assert "out" not in row_html(page, 1) and empty_cells(row_html(page, 1)) == 1
    all_pages_answer(table, match_id)

    hand3 = ([3, 3, 0, 1, 2], 3)
    assert ff.tap_winners(*hand3).status_code == 303
    totals = add(totals, hand_points(*hand3))
    assert table.sheet(match_id)["totals"] == totals == [25, 25, 20, 30]

    # A correction of hand 2, before the join: the entry total is worked out again.
    edit = f"/matches/{match_id}/fortyfive/2/edit"
    page = client.get(edit).get_data(as_text=True)
    assert "Correct hand 2" in page and tap_buttons(page) == ["0", "1", "2"]
    assert client.get(f"/matches/{match_id}/fortyfive/3/edit").status_code == 200
    corrected = ([1, 0, 1, 0, 1], None)
    response = table.post(edit, {"version": table.sheet(match_id)["version"], "number": 2,
                                 "mode": "winners", "winners": "1,0,1,0,1", "bonus": "none",
                                 "action": "save"})
    assert response.status_code == 303, text(response)[:2000]
    before = add(add([0, 0, 0], hand_points(*hand1)), hand_points(*corrected))
    entry = min(before)
    corrected_totals = add([*before, entry], hand_points(*hand3))
    assert entry == 5 and corrected_totals == [30, 30, 10, 20]
    sheet = table.sheet(match_id)
    assert sheet["totals"] == corrected_totals
    assert sheet["hands"][1]["inputs"]["side_tricks"] == [2, 3, 0]
    assert sheet["hands"][2]["inputs"]["side_tricks"] == [1, 1, 1, 2]
    all_pages_answer(table, match_id)

    # Undo takes the correction back, Redo puts it back.
    assert step(table, match_id, "undo").status_code == 303
    assert table.sheet(match_id)["totals"] == totals
    assert step(table, match_id, "redo").status_code == 303
    totals = corrected_totals
    assert table.sheet(match_id)["totals"] == totals

    # Bruno sits out hand 4: it is played by the others, dealt by Dario, Anna leading.
    assert change(table, match_id, "sit_out", seat=1).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [0, 2, 3] and sheet["next"]["dealer"] == 3
    assert sheet["next"]["info"]["leader"] == 0
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert tap_buttons(page) == ["0", "2", "3"]
    assert "Bruno sits out from hand 4" in page and "sitting out" in page
    current = re.search(r'<tr class="current">(.*?)</tr>', page, re.S).group(1)
    assert current.count(">out<") == 1
    all_pages_answer(table, match_id)
    # A trick won by the player sitting out is refused.
    ff.start("winners")
    refused = ff.send("tap:1")
    assert refused.status_code == 422 and "Bruno is not dealt in" in text(refused)

    # Hand 4 through the trick helper, three cards a trick; no trump is played.
    tricks = [["2♣", "3♣", "K♣"],  # Anna leads; Dario's K wins
              ["4♦", "5♦", "6♦"],  # Dario leads; Carla's 6 wins
              ["7♥", "8♥", "9♥"],  # Carla leads; Anna's 9 wins
              ["10♥", "J♥", "Q♥"],  # Anna leads; Dario's Q wins
              ["2♥", "3♥", "4♥"]]  # Dario leads; Carla's 4 wins
    ff = FortyFive(table, match_id)
    ff.start("cards", trump="♠")
    for number, trick in enumerate(tricks):
        for card in trick:
            response = ff.send(f"card:{card[:-1]}", suit=card[-1])
            assert response.status_code == 200, text(response)[:2000]
        if number == 0:
            assert "→ Dario" in text(response)
    leaders = re.search(r'<select name="leader".*?</select>', response.get_data(as_text=True),
                        re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', leaders) == ["0", "2", "3"]
    assert ff.send("save").status_code == 303
    hand4 = ([3, 2, 0, 3, 2], None)
    stored = table.sheet(match_id)["hands"][3]["inputs"]
    assert stored["trick_winners"] == hand4[0] and stored["bonus_seat"] is None
    assert stored["plays"] == tricks and stored["leader"] == 0
    assert stored["side_tricks"] == [1, None, 2, 2]
    totals = add(totals, hand_points(*hand4))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals == [35, 30, 20, 30]
    assert sheet["hands"][3]["points"] == [5, None, 10, 10]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert ">out<" in row_html(page, 4)

    # Hand 5, still without Bruno, by tricks per player: the last count is filled in.
    ff = FortyFive(table, match_id, htmx=True)
    ff.start("sides", **{"side-0": 1, "side-2": 3})
    form = re.sub(r"\s+", " ", ff.send("").get_data(as_text=True))
    assert 'name="side-1"' not in form and 'value="1" id="side-3-1" checked' in form
    ff.state.update({"side-3": 1, "filled": hidden(form, "filled"), "bonus_side": 2})
    assert ff.send("save").status_code == 200
    hand5 = {0: 1 * TRICK, 2: 2 * TRICK + BONUS, 3: 1 * TRICK}
    totals = add(totals, hand5)
    assert table.sheet(match_id)["totals"] == totals == [40, 30, 40, 35]
    assert table.sheet(match_id)["hands"][4]["inputs"]["side_tricks"] == [1, None, 3, 1]
    # Corrections of the hands Bruno sat out keep their shape: hand 4's cards, three a
    # trick, and hand 5's counts, where no trump was played after all (then undone).
    page = client.get(f"/matches/{match_id}/fortyfive/4/edit").get_data(as_text=True)
    assert "Correct hand 4" in page and "→ Dario" in page
    assert hidden(page, "cards") == " ".join(" ".join(trick) for trick in tricks)
    response = table.post(f"/matches/{match_id}/fortyfive/4/edit", {
        "version": table.sheet(match_id)["version"], "number": 4, "mode": "cards",
        "trump": "♠", "leader": 0, "cards": hidden(page, "cards"), "action": "save"})
    assert response.status_code == 303 and table.sheet(match_id)["totals"] == totals
    edit = f"/matches/{match_id}/fortyfive/5/edit"
    page = re.sub(r"\s+", " ", client.get(edit).get_data(as_text=True))
    assert 'name="side-1"' not in page and 'value="3" id="side-2-3" checked' in page
    response = table.post(edit, {"version": table.sheet(match_id)["version"], "number": 5,
                                 "mode": "sides", "side-0": 1, "side-2": 3, "side-3": 1,
                                 "bonus_side": "none", "action": "save"})
    assert response.status_code == 303, text(response)[:2000]
    assert table.sheet(match_id)["totals"] == add(totals, {2: TRICK - BONUS})
    assert table.sheet(match_id)["hands"][4]["inputs"]["side_tricks"] == [1, None, 3, 1]
    assert step(table, match_id, "undo").status_code == 303
    assert table.sheet(match_id)["totals"] == totals

    # Bruno is back; Elena plays for Carla from hand 6.
    assert change(table, match_id, "back", seat=1).status_code == 303
    assert change(table, match_id, "substitute", seat=2, name="Elena").status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["next"]["seats"] == [0, 1, 2, 3] and sheet["totals"] == totals
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Bruno sits out hands 4-5" in page and "Elena plays for Carla from hand 6" in page
    page = client.get(f"/matches/{match_id}?entry=winners").get_data(as_text=True)
    assert ">Elena</button>" in page and ">Carla</button>" not in page
    all_pages_answer(table, match_id)
    ff = FortyFive(table, match_id)
    hand6 = ([2, 2, 1, 0, 3], 2)
    assert ff.tap_winners(*hand6).status_code == 303
    totals = add(totals, hand_points(*hand6))
    assert table.sheet(match_id)["totals"] == totals == [45, 35, 55, 40]

    # Dario goes home: the match goes on without him, his total frozen.
    assert change(table, match_id, "leave", seat=3).status_code == 303
    assert table.sheet(match_id)["next"]["seats"] == [0, 1, 2]
    all_pages_answer(table, match_id)
    hand7 = ([0, 0, 1, 2, 2], None)
    assert ff.tap_winners(hand7[0], "none").status_code == 303
    totals = add(totals, hand_points(*hand7))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals == [55, 40, 65, 40]
    assert sheet["hands"][6]["points"] == [10, 5, 10, None]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Dario leaves after hand 6" in page and "left" in page
    assert empty_cells(row_html(page, 7)) == 1
    assert "None" not in text(client.get(f"/matches/{match_id}"))

    # On paper: "out" for the hands Bruno sat out, nothing where nobody played, no None.
    pdf, _pages, _images = pdf_text(client.get(f"/matches/{match_id}.pdf"))
    lines = {int(m.group(1)): m.group(0) for m in re.finditer(r"^ *(\d+) .*$", pdf, re.M)}
    assert [n for n in range(1, 8) if " out " in lines[n]] == [4, 5]
    assert "None" not in pdf
    # Hand 1 prints three cells of three figures (tricks, points, total), nothing for Dario.
    assert len(lines[1].split()) == 2 + 3 * 3 + 1  # number, dealer, the bonus mark ▲
    csv = client.get(f"/matches/{match_id}.csv").get_data(as_text=True)
    assert "None" not in csv

    # Bruno, then Anna leave: Carla's seat, the last left, wins; the later leaver ranks
    # higher, and Dario, who left first, is last.
    assert change(table, match_id, "leave", seat=1).status_code == 303
    hand8 = ([0, 2, 0, 2, 0], 0)
    assert ff.tap_winners(*hand8).status_code == 303
    totals = add(totals, hand_points(*hand8))
    assert table.sheet(match_id)["totals"] == totals == [75, 40, 75, 40]
    assert change(table, match_id, "leave", seat=0).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["winners"] == [2]
    assert [(r["place"], r["seats"]) for r in sheet["ranking"]] == [
        (1, [2]), (2, [0]), (3, [1]), (4, [3])]
    all_pages_answer(table, match_id)
    refused = change(table, match_id, "join", name="Fabio")
    assert refused.status_code == 422 and "This match is finished" in text(refused)


def test_a_partnership_match_takes_a_substitute_and_ends_when_a_partner_leaves(table, client):
    match_id = table.new_match("fortyfive", [*NAMES, "Dario"])
    ff = FortyFive(table, match_id)
    sides = [[0, 2], [1, 3]]

    def side_points(winners: list[int], bonus: int | None) -> list[int]:
        points = hand_points(winners, bonus)
        return [sum(points.get(seat, 0) for seat in side) for side in sides]

    hand1 = ([0, 1, 2, 0, 3], 1)
    assert ff.tap_winners(*hand1).status_code == 303
    totals = side_points(*hand1)
    assert table.sheet(match_id)["totals"] == totals == [15, 15]

    # Partnerships take no new player and no sitting out: a substitute may take the seat.
    for action, fields in (("join", {"name": "Elena"}), ("sit_out", {"seat": 1})):
        version = table.sheet(match_id)["version"]
        refused = change(table, match_id, action, **fields)
        assert refused.status_code == 422
        assert "a substitute may take the seat" in text(refused)
        assert table.sheet(match_id)["version"] == version
    all_pages_answer(table, match_id)

    # Elena plays for Bruno: the seat keeps its side and its total.
    assert change(table, match_id, "substitute", seat=1, name="Elena").status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["columns"] == sides and sheet["totals"] == totals
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Elena plays for Bruno from hand 2" in page
    assert ">Elena</button>" in page and ">Bruno</button>" not in page
    assert "Elena + Dario" in page
    all_pages_answer(table, match_id)
    # The table screen names her too: she deals hand 2.
    screen = text(client.get(f"/matches/{match_id}/screen"))
    assert "Dealer: Elena · Carla leads" in screen and "Elena + Dario" in screen
    hand2 = ([1, 1, 3, 0, 2], 3)
    assert ff.tap_winners(*hand2).status_code == 303
    totals = [a + b for a, b in zip(totals, side_points(*hand2), strict=True)]
    assert table.sheet(match_id)["totals"] == totals == [25, 35]

    # Carla leaves: her side is out, the match ends at once, Anna and Carla last.
    assert change(table, match_id, "leave", seat=2).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished" and sheet["next"] is None
    assert [(r["place"], r["seats"]) for r in sheet["ranking"]] == [(1, [1, 3]), (2, [0, 2])]
    assert sheet["totals"] == totals
    all_pages_answer(table, match_id)
    assert "Carla leaves after hand 2" in client.get(f"/matches/{match_id}").get_data(
        as_text=True)


def test_a_joiner_seated_between_two_players_gets_a_column_there(table, client):
    match_id = table.new_match("fortyfive", NAMES)
    ff = FortyFive(table, match_id)
    hand1 = ([0, 0, 1, 2, 2], 2)
    assert ff.tap_winners(*hand1).status_code == 303
    totals = add([0, 0, 0], hand_points(*hand1))
    assert totals == [10, 5, 15]
    # Dario sits between Anna and Bruno, joining with the lowest total.
    assert change(table, match_id, "join", name="Dario", at=1).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["totals"] == [*totals, min(totals)]
    # Anna dealt hand 1: Dario, after her, deals hand 2, and Bruno leads.
    assert sheet["next"]["seats"] == [0, 3, 1, 2] and sheet["next"]["dealer"] == 3
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    header = re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    assert re.findall(r'<span class="name">(\w+)</span>', header) == [
        "Anna", "Dario", "Bruno", "Carla"]
    assert tap_buttons(page) == ["0", "3", "1", "2"]
    hand2 = ([3, 3, 1, 0, 2], 3)
    assert ff.tap_winners(*hand2).status_code == 303
    totals = add([*totals, min(totals)], hand_points(*hand2))
    assert table.sheet(match_id)["totals"] == totals == [15, 10, 20, 20]

    # Bruno sits out and Carla leaves: Anna and Dario play on; then Dario sits out too and
    # the next hand waits for someone to come back (decided case 21).
    assert change(table, match_id, "sit_out", seat=1).status_code == 303
    assert change(table, match_id, "leave", seat=2).status_code == 303
    assert table.sheet(match_id)["next"]["seats"] == [0, 3]
    refused = change(table, match_id, "sit_out", seat=3)
    assert refused.status_code == 422 and "at least 2 players" in text(refused)
    hand3 = ([0, 0, 0, 3, 3], None)
    assert ff.tap_winners(hand3[0], "none").status_code == 303
    totals = add(totals, hand_points(*hand3))
    sheet = table.sheet(match_id)
    assert sheet["totals"] == totals and sheet["hands"][2]["points"] == [15, None, None, 10]
    all_pages_answer(table, match_id)
    # Anna leaves too: with Bruno sitting out, Dario is the only one dealt in.
    assert change(table, match_id, "leave", seat=0).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["next"] is None and sheet["status"] == "in progress"
    all_pages_answer(table, match_id)
    assert "a player sitting out must come back before hand 4" in text(
        client.get(f"/matches/{match_id}"))
    assert change(table, match_id, "back", seat=1).status_code == 303
    assert table.sheet(match_id)["next"]["seats"] == [3, 1]
    all_pages_answer(table, match_id)
