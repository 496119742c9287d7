"""Navawhist's words: what case 4 says of each player, counts in the singular and the
plural, in English and Italian; and the bids and tricks in its CSV."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from .test_history import history
from .test_sheets_games import cavallore_deal, fortyfive_hand

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
EN = {"Accept-Language": "en"}
IT = {"Accept-Language": "it"}


def text(response) -> str:
    """The page's words, tags dropped and spaces collapsed."""
    words = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return re.sub(r"\s+", " ", html.unescape(words))


def case_4_match(table) -> str:
    """Three players up to hand 5 (five cards, Carla deals), where Anna, Bruno and Carla bid
    0, 0 and 4 (the rules' example of case 4)."""
    match_id = table.new_match("navawhist", NAMES[:3], first_dealer=1)
    for cards in range(1, 5):
        table.play_navawhist(match_id, [0, 0, 0], [cards, 0, 0])
    for bid in (0, 0, 4):
        assert table.bid(match_id, bid).status_code == 303
    return match_id


def preview(table, match_id: str, tricks: list[int], headers: dict[str, str]) -> dict[str, str]:
    """Each player's line of the tricks panel once the tricks are all given."""
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": sheet["next"]["number"], "trump": "",
            "action": "preview", **{f"values-{s}": t for s, t in enumerate(tricks)}}
    response = table.post(f"/matches/{match_id}/navawhist/tricks", data, headers=headers)
    assert response.status_code == 200
    legends = re.findall(r"<legend>(.*?)</legend>", response.get_data(as_text=True), re.S)
    lines = [re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", legend))).strip()
             for legend in legends]
    return {line.split(" ", 1)[0]: line.split(" · ", 1)[1] for line in lines if " · " in line}


@pytest.mark.parametrize("headers, closest, other", [
    (EN, "all missed: the closest", "all missed: not the closest"),
    (IT, "tutti sbagliati: il più vicino", "tutti sbagliati: non il più vicino"),
])
def test_case_4_calls_only_the_closest_the_closest(table, headers, closest, other):
    match_id = case_4_match(table)
    # Tricks 3, 2, 0: errors 3, 2, 4; Bruno is the closest and scores 5 - 2 = 3.
    assert preview(table, match_id, [3, 2, 0], headers) == {
        "Anna": other, "Bruno": closest, "Carla": other}
    # The sheet's cells say the same in their titles once the hand is saved.
    assert table.tricks(match_id, [3, 2, 0]).status_code == 303
    page = table.client.get(f"/matches/{match_id}", headers=headers).get_data(as_text=True)
    row = re.search(r'<tr[^>]*id="hand-5".*?</tr>', page, re.S).group(0)
    assert re.findall(r'title="([^"]*)">[^<]*</span>', row) == [other, closest, other]


def test_case_4_everybody_equally_far_is_everybody_closest(table):
    match_id = case_4_match(table)
    # Tricks 2, 2, 1 against bids 0, 0, 4: errors 2, 2, 3; Anna and Bruno are the closest.
    assert preview(table, match_id, [2, 2, 1], EN) == {
        "Anna": "all missed: the closest", "Bruno": "all missed: the closest",
        "Carla": "all missed: not the closest"}


@pytest.mark.parametrize("headers, one, many", [
    (EN, "they must add up to the 1 card dealt.", "they must add up to the 2 cards dealt."),
    (IT, "devono essere pari alla carta distribuita (1).",
     "devono essere pari alle 2 carte distribuite."),
])
def test_the_cards_dealt_in_the_singular_and_the_plural(table, headers, one, many):
    match_id = table.new_match("navawhist", NAMES)
    for bid in (0, 0, 0, 0):
        assert table.bid(match_id, bid).status_code == 303
    refused = table.tricks(match_id, [1, 1, 0, 0], headers=headers)
    assert refused.status_code == 422
    assert one in text(refused)
    assert "1 cards" not in text(refused) and "1 carte" not in text(refused)
    assert table.tricks(match_id, [1, 0, 0, 0]).status_code == 303
    for bid in (0, 0, 0, 0):
        assert table.bid(match_id, bid).status_code == 303
    refused = table.tricks(match_id, [2, 1, 0, 0], headers=headers)
    assert refused.status_code == 422
    assert many in text(refused)


@pytest.mark.parametrize("headers, message", [
    (EN, "Anna deals and may not bid 1: the bids would add up to the 1 card dealt."),
    (IT, "Anna fa il mazziere e non può dichiarare 1: la somma delle dichiarazioni sarebbe "
         "pari alla carta distribuita (1)."),
])
def test_the_dealers_refusal_counts_one_card(table, headers, message):
    match_id = table.new_match("navawhist", NAMES)
    for bid in (0, 0, 0):
        assert table.bid(match_id, bid).status_code == 303
    refused = table.bid(match_id, 1, headers=headers)
    assert refused.status_code == 422
    assert message in text(refused)


def test_the_history_counts_one_trick_and_two_tricks(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
    table.play_navawhist(match_id, [0, 0, 0, 0], [2, 0, 0, 0])
    said = history(client, match_id)
    assert "Anna 2 tricks, Bruno 0, Carla 0, Dario 0" in said[0]
    assert "Anna 1 trick, Bruno 0, Carla 0, Dario 0" in said[1]
    client.set_cookie("lang", "it")
    said = history(client, match_id)
    assert "Anna 2 prese, Bruno 0, Carla 0, Dario 0" in said[0]
    assert "Anna 1 presa, Bruno 0, Carla 0, Dario 0" in said[1]


@pytest.mark.parametrize("headers, bid, tricks", [(EN, "Bid", "Tricks"),
                                                   (IT, "Dichiarazione", "Prese")])
def test_the_csv_has_each_players_bid_and_tricks(table, headers, bid, tricks):
    match_id = table.new_match("navawhist", NAMES)
    # Hand 1, one card, Anna deals: Anna and Bruno bid 1, Bruno takes it.
    table.play_navawhist(match_id, [1, 1, 0, 0], [0, 1, 0, 0])
    # Hand 2, two cards, Bruno deals: Carla bids 2 and takes 1, Dario takes the other.
    table.play_navawhist(match_id, [0, 1, 2, 0], [0, 0, 1, 1])
    response = table.client.get(f"/matches/{match_id}.csv", headers=headers)
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0][:10] == [rows[0][0], rows[0][1], *(f"{bid}: {n}" for n in NAMES),
                            *(f"{tricks}: {n}" for n in NAMES)]
    assert rows[0][10:14] == NAMES
    sheet = table.sheet(match_id)
    assert rows[1] == ["1", "Anna", "1", "1", "0", "0", "0", "1", "0", "0",
                       *map(str, sheet["hands"][0]["points"]),
                       *map(str, sheet["hands"][0]["totals"])]
    assert rows[2][:10] == ["2", "Bruno", "0", "1", "2", "0", "0", "0", "1", "1"]
    assert rows[3] == [rows[3][0], "", *[""] * 8, *map(str, sheet["totals"]), *[""] * 4]


def test_other_games_count_one_in_their_history_too(table, client):
    match_id = table.new_match("fortyfive", NAMES)
    fortyfive_hand(table, match_id, side_tricks=[1, 4], bonus_side=1)
    assert history(client, match_id)[0].startswith("Hand 1: Anna + Carla 1 trick, Bruno + Dario 4")
    match_id = table.new_match("cavallore", NAMES[:2])
    cavallore_deal(table, match_id, 1, 0)
    assert history(client, match_id) == ["Deal 1: Anna; 1 card placed"]
    client.set_cookie("lang", "it")
    assert "1 carta sistemata" in history(client, match_id)[0]
