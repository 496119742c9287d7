"""Rematch, through the web: the same options and whoever is at the table as the match ended,
in turn order, the next player dealing first; Forty-Five's next hands, and its rematch, are
entered the way the last hand was."""

from __future__ import annotations

import re

from .test_access import table_of
from .test_fortyfive_web import FortyFive
from .test_people_web import change


def rematch(table, match_id: str) -> str:
    response = table.post(f"/matches/{match_id}/rematch", {})
    assert response.status_code == 303
    return response.headers["Location"]


def chosen_mode(page: str) -> str:
    return re.search(r'<a [^>]*aria-current="page"[^>]*>([^<]+)</a>', page.split(
        'class="ff-modes"', 1)[1]).group(1).strip()


def test_a_rematch_seats_who_is_there_in_turn_order(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla"], target=120)
    ff = FortyFive(table, match_id)
    assert ff.tap_winners([0, 1, 2, 0, 1], 0).status_code == 303
    # Dario sits down between Anna and Bruno; Elena takes Carla's seat; Bruno leaves.
    assert change(table, match_id, "join", name="Dario", at=1).status_code == 303
    assert change(table, match_id, "substitute", seat=2, name="Elena").status_code == 303
    assert change(table, match_id, "leave", seat=1).status_code == 303
    location = rematch(table, match_id)
    again = table.sheet(location.split("?")[0].rsplit("/", 1)[1])
    assert [p["name"] for p in again["players"]] == ["Anna", "Dario", "Elena"]
    # Anna dealt first; the next in turn still at the table, Dario, deals first now.
    assert again["first_dealer"] == 1
    assert again["options"] == table.sheet(match_id)["options"]


def test_a_rematch_the_options_cannot_follow_goes_to_the_new_match_page(table):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]
    match_id = table.new_match("fortyfive", names, three_pairs=True)
    assert change(table, match_id, "leave", seat=5).status_code == 303
    before = table.client.get("/").get_data(as_text=True).count("/matches/")
    location = rematch(table, match_id)
    assert "/matches/new?" in location and "game=fortyfive" in location
    assert "table=" in location
    assert table.client.get(location).status_code == 200
    assert table.client.get("/").get_data(as_text=True).count("/matches/") == before


def test_forty_five_keeps_the_way_of_entering_across_hands_and_rematch(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla", "Dario"])
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert chosen_mode(page) == "Trick winners"
    ff = FortyFive(table, match_id)
    assert ff.side_tricks([3, 2], 0).status_code == 303
    # Another phone opening the match enters the next hand by sides too.
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert chosen_mode(page) == "Tricks per side"
    location = rematch(table, match_id)
    assert location.endswith("?entry=sides")
    assert chosen_mode(table.client.get(location).get_data(as_text=True)) == "Tricks per side"


def proposed(page: str) -> tuple[str, list[str], int]:
    """The new-match page's game, the names in its rows and the row marked to deal first."""
    game = re.search(r'name="game" value="(\w+)"', page).group(1)
    names = re.findall(r'name="players-\d+" id="players-\d+" value="([^"]*)"', page)
    dealer = re.search(r'name="first_dealer" value="(\d+)"[^>]*checked', page).group(1)
    return game, names, int(dealer)


def test_a_new_match_at_a_table_proposes_who_is_there_the_next_dealing(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla"], target=120)
    table_id = table_of(table, match_id)
    page = table.client.get(f"/matches/new?table={table_id}").get_data(as_text=True)
    assert proposed(page) == ("fortyfive", ["Anna", "Bruno", "Carla"], 1)
    assert change(table, match_id, "join", name="Dario", at=1).status_code == 303
    assert change(table, match_id, "substitute", seat=2, name="Elena").status_code == 303
    assert change(table, match_id, "leave", seat=1).status_code == 303
    page = table.client.get(f"/matches/new?table={table_id}").get_data(as_text=True)
    assert proposed(page) == ("fortyfive", ["Anna", "Dario", "Elena"], 1)
    # Another game taking as many players gets them too.
    page = table.client.get(f"/matches/new?table={table_id}&game=quarantotto")
    assert proposed(page.get_data(as_text=True)) == ("quarantotto", ["Anna", "Dario", "Elena"], 1)
    # A new match without a table chosen starts blank, as before.
    page = table.client.get("/matches/new").get_data(as_text=True)
    assert set(proposed(page)[1]) == {""}


def test_a_finished_sheet_offers_a_new_match_at_its_table_with_who_is_there(table):
    match_id = table.new_match("fortyfive", ["Anna", "Bruno", "Carla"])
    ff = FortyFive(table, match_id)
    for _hand in range(2):  # Anna takes every trick and the best trump: 30 a hand, out at 45
        assert ff.tap_winners([0, 0, 0, 0, 0], 0).status_code == 303
    assert table.sheet(match_id)["next"] is None  # over
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    link = f'href="/matches/new?table={table_of(table, match_id)}"'
    assert link in page and "New match at this table" in page
    proposed = table.client.get(f"/matches/new?table={table_of(table, match_id)}") \
        .get_data(as_text=True)
    assert all(f'value="{name}"' in proposed for name in ("Anna", "Bruno", "Carla"))
    # Everyone the table knows is proposed: no heading over an empty list of others.
    assert "Players you know:" not in proposed
