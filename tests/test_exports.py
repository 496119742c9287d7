"""Exports people can read: the Cavallo Re CSV without an empty Dealer column and with its
totals in their own columns; the JSON readable in a browser and raw for programs; the Cavallo
Re page naming the player, labelling its charts and comparing the win rate with the odds."""

from __future__ import annotations

import csv
import io
import json

from scorekeeper.rules import cavallore

from .test_sheets_games import CAVALLORE_DEALS, cavallore_deal, play_cavallore

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_cavallore_csv(table, client):
    match_id = play_cavallore(table)
    sheet = table.sheet(match_id)
    response = client.get(f"/matches/{match_id}.csv")
    assert response.mimetype == "text/csv"
    assert 'filename="cavallore-' in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["Deal", "Cards placed: Anna", "Cards placed: Bruno",
                       "Cards placed: Carla", "Wins: Anna", "Wins: Bruno", "Wins: Carla"]
    assert all(len(row) == 7 for row in rows)
    for row, hand in zip(rows[1:-1], sheet["hands"], strict=True):
        assert row[1:4] == ["" if p is None else str(p) for p in hand["points"]]
        assert row[4:] == [str(t) for t in hand["totals"]]
    placed = [sum(p for s, p in CAVALLORE_DEALS if s == seat) for seat in range(3)]
    assert rows[-1] == ["Total", *map(str, placed), *map(str, sheet["totals"])]


def test_other_games_keep_their_dealer_column(table, client):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"])
    table.play_navawhist(match_id, [0, 1], [1, 1])
    rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match_id}.csv")
                                       .get_data(as_text=True))))
    assert rows[0] == ["Hand", "Dealer", "Bid: Anna", "Bid: Bruno", "Tricks: Anna",
                       "Tricks: Bruno", "Anna", "Bruno", "Total: Anna", "Total: Bruno"]
    assert rows[1][1] == "Anna"


def test_json_for_programs_and_for_people(table, client):
    match_id = play_cavallore(table)
    raw = client.get(f"/matches/{match_id}.json")
    assert raw.mimetype == "application/json" and "Accept" in raw.headers["Vary"]
    data = raw.get_json()
    assert data["totals"] == [1, 1, 0]
    assert client.get(f"/matches/{match_id}.json",
                      headers={"Accept": "application/json"}).get_json() == data
    page = client.get(f"/matches/{match_id}.json", headers={"Accept": BROWSER})
    assert page.mimetype == "text/html" and "Accept" in page.headers["Vary"]
    html = page.get_data(as_text=True)
    assert f'href="/matches/{match_id}.json?raw=1"' in html
    assert '\n  &#34;totals&#34;: [\n    1,\n    1,\n    0\n  ]' in html  # indented
    forced = client.get(f"/matches/{match_id}.json?raw=1", headers={"Accept": BROWSER})
    assert forced.mimetype == "application/json" and json.loads(forced.data) == data


def test_cavallore_page_names_labels_and_compares(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    for placed in (36, 12, 30, 36, 5):
        cavallore_deal(table, match_id, placed)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Statistics of Anna" in page
    assert "Cards placed per deal" in page and "Wins after each deal" in page
    low, high = cavallore.win_interval(2, 5)
    assert f"{low * 100:.1f}%" in page and f"{high * 100:.1f}%" in page
    assert "too few deals to compare with 1 in 10 yet" in page
    rng_deals = [36 if i % 10 == 0 else 20 for i in range(55)]  # 6 wins in 60: 1 in 10
    for placed in rng_deals:
        cavallore_deal(table, match_id, placed)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "too few deals" not in page and "consistent with 1 in 10" in page
    stats = table.sheet(match_id)["details"]["statistics"][0]
    assert stats["deals"] == 60 and stats["verdict"] == "within"
    assert stats["interval"] == list(cavallore.win_interval(stats["wins"], 60))


def test_cavallore_stats_verdicts():
    assert cavallore.verdict(1, 49) == "few"
    assert cavallore.verdict(5, 50) == "within"
    assert cavallore.verdict(15, 50) == "above"
    assert cavallore.verdict(0, 100) == "below"
    low, high = cavallore.win_interval(10, 100)
    assert 0 <= low < 0.1 < high <= 1
    stats = cavallore.statistics([36, 12, 36])
    assert stats.placed == 84 and stats.as_dict()["placed"] == 84
