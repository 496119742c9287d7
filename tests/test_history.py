"""The history of each game in words: player names, the game's own words, no stored field
names; times in the reader's zone, or labelled UTC while the browser has not told it."""

from __future__ import annotations

import re

from .test_sheets_games import cavallore_deal, fortyfive_hand, quarantotto_game

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
RAW = ("trick_winners", "bonus_seat", "side_tricks", "closer", "never_opened",
       "seat 0", "None", "{")


def history(client, match_id: str) -> list[str]:
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    for word in RAW:
        assert word not in page.split("<main>", 1)[1], word
    return [re.sub(r"\s+", " ", s).strip()
            for s in re.findall(r"<summary>(.*?)<time", page, re.S)]


def test_fortyfive_quarantotto_and_cavallore_in_words(table, client):
    match_id = table.new_match("fortyfive", NAMES)
    fortyfive_hand(table, match_id, winners=[0, 1, 2, 0, 3], bonus=1)
    fortyfive_hand(table, match_id, side_tricks=[3, 2], bonus_side=1)
    assert history(client, match_id) == [
        "Hand 2: Anna + Carla 3 tricks, Bruno + Dario 2; best trump: Bruno + Dario",
        "Hand 1: tricks won by Anna · Bruno · Carla · Anna · Dario; best trump: Bruno",
    ]
    match_id = table.new_match("quarantotto", NAMES)
    quarantotto_game(table, match_id, "stock", [20, 10, 30, 20])
    assert history(client, match_id) == [
        "Game 1: Anna 20 in hand, Bruno 10, Carla 30, Dario 20; the stock ran out"]
    match_id = table.new_match("cavallore", NAMES[:2])
    cavallore_deal(table, match_id, 36, 1)
    assert history(client, match_id) == ["Deal 1: Bruno; 36 cards placed"]


def test_times_are_labelled_utc_until_the_browser_tells_its_zone(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    cavallore_deal(table, match_id, 12)
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Times in UTC." in page and re.search(r"\d{1,2}:\d{2}\s*[AP]M UTC</time>", page)
    client.set_cookie("tz", "Not/AZone")
    assert "Times in UTC." in client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    client.set_cookie("tz", "Asia/Tokyo")
    page = client.get(f"/matches/{match_id}/history").get_data(as_text=True)
    assert "Times in Asia/Tokyo." in page and " UTC</time>" not in page
    assert 'src="/static/js/tz.js' in page


def test_the_zone_in_the_address_wins_over_a_missing_or_older_cookie(table, client):
    match_id = table.new_match("navawhist", NAMES)
    page = client.get(f"/matches/{match_id}/history?tz=America/New_York").get_data(as_text=True)
    assert 'data-tz="America/New_York"' in page
    client.set_cookie("tz", "Asia/Tokyo")
    page = client.get(f"/matches/{match_id}/history?tz=Europe/Rome").get_data(as_text=True)
    assert 'data-tz="Europe/Rome"' in page
    page = client.get(f"/matches/{match_id}/history?tz=Not/AZone").get_data(as_text=True)
    assert "Times in UTC." in page
