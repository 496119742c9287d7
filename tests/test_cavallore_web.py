"""A Cavallo Re log kept over HTTP: deals, statistics beside the odds, refusals, corrections."""

from __future__ import annotations

import random

import pytest

from scorekeeper.games.cavallore import distribution_chart
from scorekeeper.models import Change
from scorekeeper.rules import cavallore

from .conftest import count

HTMX = {"HX-Request": "true"}


def add(table, match_id: str, placed, seat=0, **kwargs):
    sheet = table.sheet(match_id)
    return table.post(f"/matches/{match_id}/cavallore/deal", {
        "version": sheet["version"], "number": sheet["next"]["number"],
        "placed": placed, "seat": seat}, **kwargs)


def random_deals(rng: random.Random, deals: int) -> list[int]:
    """Cards placed as real deals place them, from shuffled 40-card decks."""
    deck = sorted(cavallore.DECK)
    placed = []
    for _ in range(deals):
        rng.shuffle(deck)
        placed.append(cavallore.play(deck))
    return placed


def test_a_log_of_twenty_deals(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Deal 1" in page and "Won (36)" in page and 'inputmode="numeric"' in page
    placed = random_deals(random.Random(45), 18) + [36, 36]
    for number, value in enumerate(placed, start=1):
        response = add(table, match_id, value)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        assert table.sheet(match_id)["next"]["number"] == number + 1
    sheet = table.sheet(match_id)
    expected = cavallore.statistics(placed)
    assert sheet["details"]["statistics"] == [expected.as_dict()]
    assert sheet["totals"] == [expected.wins] and sheet["status"] == "in progress"
    assert expected.deals == 20 and expected.current_streak == 2 and expected.best_streak >= 2
    assert sheet["details"]["expected"]["win_rate"] == 0.1
    assert sheet["details"]["expected"]["mean"] == 28.8
    assert [h["inputs"]["placed"] for h in sheet["hands"]] == placed
    assert [h["notes"][0] for h in sheet["hands"]] == [
        "won" if p == 36 else "lost" for p in placed]
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Deal 21" in page and "<svg" in page and "<polyline" in page
    assert "Win rate" in page and "Best streak" in page and "28.8" in page
    assert f"<dd>{float(expected.mean):.1f}" in page
    # Newest first: the last deal's row comes before the first's.
    assert page.index('id="deal-20"') < page.index('id="deal-1"')


def test_the_won_button_and_the_typed_number(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    assert add(table, match_id, "36").status_code == 303
    assert add(table, match_id, " 7 ").status_code == 303
    response = add(table, match_id, 0, headers=HTMX)
    text = response.get_data(as_text=True)
    assert response.status_code == 200 and text.lstrip().startswith('<div id="live"')
    assert "Deal 4" in text
    sheet = table.sheet(match_id)
    assert [h["points"] for h in sheet["hands"]] == [[36], [7], [0]]
    assert sheet["details"]["statistics"][0]["counts"][7] == 1


@pytest.mark.parametrize(("placed", "message"), [
    ("37", "Anna: the cards placed must be from 0 to 36."),
    ("-1", "Anna: the cards placed must be from 0 to 36."),
    ("x", "Anna: the cards placed must be a whole number."),
    ("", "Anna: the cards placed must be a whole number."),
    ("12.5", "Anna: the cards placed must be a whole number."),
])
def test_numbers_outside_the_cells_are_refused(table, app, placed, message):
    match_id = table.new_match("cavallore", ["Anna"])
    add(table, match_id, 30)
    before = count(app, Change)
    response = add(table, match_id, placed)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert count(app, Change) == before
    assert len(table.sheet(match_id)["hands"]) == 1


def test_several_players_keep_their_own_logs(table, client):
    match_id = table.new_match("cavallore", ["Anna", "Bruno"])
    assert add(table, match_id, 36, seat=1).status_code == 303
    response = add(table, match_id, 20, seat=1)
    assert response.headers["Location"].endswith("?saved=2#turn")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Deal 3 · Anna" in page  # players take turns: after Bruno, Anna again
    add(table, match_id, 12, seat=0)
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Deal 4 · Bruno" in page
    sheet = table.sheet(match_id)
    stats = sheet["details"]["statistics"]
    assert stats[0] == cavallore.statistics([12]).as_dict()
    assert stats[1] == cavallore.statistics([36, 20]).as_dict()
    assert sheet["totals"] == [0, 1]
    response = add(table, match_id, 5, seat=2)
    assert response.status_code == 422 and "player must be a seat" in \
        response.get_data(as_text=True)


def test_correcting_a_deal(table, client, app):
    match_id = table.new_match("cavallore", ["Anna"])
    for value in (36, 30, 36):
        add(table, match_id, value)
    assert table.sheet(match_id)["details"]["statistics"][0]["best_streak"] == 1
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    edit = f"/matches/{match_id}/cavallore/2/edit"
    assert f'href="{edit}"' in page
    page = client.get(edit).get_data(as_text=True)
    assert "Correct deal 2" in page and 'value="30"' in page
    version = table.sheet(match_id)["version"]
    before = count(app, Change)
    response = table.post(edit, {"version": version, "number": 2, "seat": 0, "placed": 37})
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Anna: the cards placed must be from 0 to 36." in text and "Correct deal 2" in text
    assert count(app, Change) == before
    response = table.post(edit, {"version": version, "number": 2, "seat": 0, "placed": 36})
    assert response.status_code == 303
    stats = table.sheet(match_id)["details"]["statistics"][0]
    assert stats == cavallore.statistics([36, 36, 36]).as_dict() and stats["best_streak"] == 3
    assert client.get(f"/matches/{match_id}/cavallore/4/edit").status_code == 404


def test_undo_removes_the_last_deal(table):
    match_id = table.new_match("cavallore", ["Anna"])
    add(table, match_id, 36)
    add(table, match_id, 3)
    response = table.post(f"/matches/{match_id}/undo",
                          {"version": table.sheet(match_id)["version"]})
    assert response.status_code == 303
    assert table.sheet(match_id)["details"]["statistics"][0]["deals"] == 1


def test_a_stale_deal_is_stored_once(table):
    match_id = table.new_match("cavallore", ["Anna"])
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 1, "placed": 36, "seat": 0}
    assert table.post(f"/matches/{match_id}/cavallore/deal", data).status_code == 303
    assert table.post(f"/matches/{match_id}/cavallore/deal", data).status_code == 409
    assert len(table.sheet(match_id)["hands"]) == 1


def test_the_chart_scales_shares_of_deals(client, table):
    expected = [float(p) for p in cavallore.expected_distribution()]
    assert distribution_chart({"deals": 0, "counts": [0] * 37}, expected) is None
    stats = cavallore.statistics([36, 36, 30, 12]).as_dict()
    chart = distribution_chart(stats, expected)
    tallest = min(chart.bars, key=lambda b: b.y)
    assert tallest.placed == 36 and tallest.y == chart.top  # 2 of 4 deals: the top
    assert chart.bars[30].height == pytest.approx(chart.bars[36].height / 2, abs=0.2)
    assert chart.bars[0].height == 0 and len(chart.expected.split()) == 37


def test_other_games_do_not_answer_here(table, client):
    other = table.new_match("fortyfive", ["Anna", "Bruno"])
    assert table.post(f"/matches/{other}/cavallore/deal", {"version": 0}).status_code == 404
    assert client.get(f"/matches/{other}/cavallore/1/edit").status_code == 404
