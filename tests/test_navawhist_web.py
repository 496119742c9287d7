"""A Navawhist match played over HTTP, and every refusal on the way."""

from __future__ import annotations

import random
import re

import pytest

from scorekeeper.models import Change, Hand, Match, Player
from scorekeeper.rules import navawhist

from .conftest import count

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def legal_hand(rng: random.Random, cards: int, players: int, dealer: int):
    """Random bids the dealer's restriction allows, and tricks adding up to ``cards``."""
    order = navawhist.bidding_order(players, dealer)
    bids = [0] * players
    for seat in order[:-1]:
        bids[seat] = rng.randint(0, cards)
    forbidden = navawhist.forbidden_bid(cards, [bids[s] for s in order[:-1]])
    bids[dealer] = rng.choice([b for b in range(cards + 1) if b != forbidden])
    tricks = [0] * players
    for _ in range(cards):
        tricks[rng.randrange(players)] += 1
    return bids, tricks


def test_a_whole_four_player_match(table, app):
    match_id = table.new_match("navawhist", NAMES, first_dealer=1)
    rng = random.Random(2026)
    expected = [0, 0, 0, 0]
    schedule = navawhist.deal_schedule(4)
    assert len(schedule) == 16
    for number, cards in enumerate(schedule, start=1):
        sheet = table.sheet(match_id)
        assert sheet["status"] == "in progress"
        assert sheet["next"]["number"] == number
        dealer = (1 + number - 1) % 4
        assert sheet["next"]["dealer"] == dealer
        bids, tricks = legal_hand(rng, cards, 4, dealer)
        table.play_navawhist(match_id, bids, tricks)
        points = navawhist.score_hand(cards, bids, tricks)
        expected = [t + p for t, p in zip(expected, points, strict=True)]
        assert table.sheet(match_id)["totals"] == expected
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished"
    assert len(sheet["hands"]) == 16
    assert [p["name"] for p in sheet["players"]] == NAMES
    best = max(expected)
    assert sorted(sheet["winners"]) == [s for s in range(4) if expected[s] == best]
    assert sheet["ranking"][0]["total"] == best
    places = {r["column"]: r["place"] for r in sheet["ranking"]}
    for seat in range(4):
        assert places[seat] == 1 + sum(t > expected[seat] for t in expected)
    # A finished match is read-only until reopened.
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 17, "seat": 0, "bid": 0})
    assert response.status_code == 409
    edit = {"version": sheet["version"], "number": 1, "bids-0": 0, "bids-1": 0, "bids-2": 0,
            "bids-3": 0, "values-0": 1, "values-1": 0, "values-2": 0, "values-3": 0}
    response = table.post(f"/matches/{match_id}/navawhist/1/edit", edit)
    assert response.status_code == 422
    assert "Correct a hand to change one" in response.get_data(as_text=True)


def test_match_page_shows_the_sheet(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    for name in NAMES:
        assert name in page
    assert "Hand 2 of 16" in page
    # hand 1: Anna bid 1 made 1 -> 1 + 1 = 2 points
    assert "+2" in page


def test_the_dealer_s_forbidden_bid_is_shown_and_refused(table, client, app):
    match_id = table.new_match("navawhist", NAMES, first_dealer=3)
    for _ in range(3):  # hand 1, one card: seats 0, 1, 2 bid 0
        assert table.bid(match_id, 0).status_code == 303
    sheet = table.sheet(match_id)
    assert sheet["next"]["info"]["bidder"] == 3
    assert sheet["next"]["info"]["forbidden"] == 1
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert re.search(r'name="bid" value="1"\s+disabled', page)
    assert "The dealer may not bid 1" in page
    before = count(app, Change)
    response = table.bid(match_id, 1)
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "Dario deals and may not bid 1" in text
    assert count(app, Change) == before
    assert table.sheet(match_id)["next"]["info"]["bids"] == [0, 0, 0, None]
    assert table.bid(match_id, 0).status_code == 303


def test_the_hook_can_be_switched_off(table):
    match_id = table.new_match("navawhist", NAMES, hook=False)
    for _ in range(3):
        table.bid(match_id, 0)
    assert table.sheet(match_id)["next"]["info"]["forbidden"] is None
    assert table.bid(match_id, 1).status_code == 303


@pytest.mark.parametrize("bid", ["5", "-1", "two", "", "1.5", "99999999999999"])
def test_a_bid_out_of_range_is_refused(table, app, bid):
    match_id = table.new_match("navawhist", NAMES)
    table.post(f"/matches/{match_id}/navawhist/bid", {})  # an empty form changes nothing either
    before = count(app, Change)
    response = table.bid(match_id, bid)
    assert response.status_code in (409, 422)
    assert count(app, Change) == before
    if bid:
        assert "Bruno" in response.get_data(as_text=True)


def test_tricks_that_do_not_add_up_are_refused(table, app):
    match_id = table.new_match("navawhist", NAMES)
    for bid in (0, 0, 0, 0):
        table.bid(match_id, bid)
    before = count(app, Change)
    response = table.tricks(match_id, [1, 1, 0, 0])
    assert response.status_code == 422
    assert "add up to 2" in response.get_data(as_text=True)
    response = table.tricks(match_id, ["x", 0, 1, 0])
    assert response.status_code == 422
    assert "Anna" in response.get_data(as_text=True)
    assert count(app, Change) == before
    assert table.tricks(match_id, [1, 0, 0, 0]).status_code == 303


def test_the_last_player_gets_the_tricks_left(table):
    match_id = table.new_match("navawhist", NAMES)
    for _ in range(4):
        assert table.bid(match_id, 0).status_code == 303
    assert table.tricks(match_id, ["", "", "", ""]).status_code == 422
    assert table.tricks(match_id, ["", "", "", "1"]).status_code == 303
    assert table.sheet(match_id)["hands"][0]["inputs"]["tricks"] == [0, 0, 0, 1]


def test_tricks_preview_shows_left_and_points(table):
    match_id = table.new_match("navawhist", NAMES)
    for _ in range(4):
        table.bid(match_id, 0)
    sheet = table.sheet(match_id)
    base = {"version": sheet["version"], "number": 1, "action": "preview"}
    response = table.post(f"/matches/{match_id}/navawhist/tricks", {**base, "values-0": 1},
                          headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Tricks left to assign: 0" in text
    assert "all missed" not in text and "off by one" in text
    assert table.sheet(match_id)["hands"] == []


def test_bid_with_htmx_returns_a_small_fragment(table, client):
    match_id = table.new_match("navawhist", NAMES)
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 1, "seat": 1, "bid": 1},
        headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == 200
    # a tap answers with the panel that replaces itself (the form targets #entry)
    assert "HX-Retarget" not in response.headers
    assert text.lstrip().startswith('<section class="entry" id="entry"')
    assert "<html" not in text and 'id="live"' not in text
    assert "Carla bids" in text
    # the row of hand 1 (Bruno's bid shown), the names (Carla to act), Undo, which takes
    # back Bruno's bid, and Abandon, whose form carries the new version too; nothing else
    # among the actions changes, and it is not sent
    assert 'id="hand-1" hx-swap-oob="true"' in text and "1/</span>" in text
    assert 'id="names-row" hx-swap-oob="true"' in text
    undo = text.split('id="undo-redo" hx-swap-oob="true"', 1)[1].split("</span>", 1)[0]
    assert "Undo: Bruno bid 1" in undo and f'value="{sheet["version"] + 1}"' in undo
    abandon = text.split('id="abandon" hx-swap-oob="true"', 1)[1].split("</span>", 1)[0]
    assert "Abandon the match" in abandon and f'value="{sheet["version"] + 1}"' in abandon
    assert 'id="actions"' not in text and "History" not in text
    # a refusal sends the panel again with its message beside the keypad, focused
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"] + 1, "number": 1, "seat": 2, "bid": 9},
        headers={"HX-Request": "true"})
    text = response.get_data(as_text=True)
    assert response.status_code == 422 and 'id="live"' not in text
    error = text.split('id="entry-error"', 1)[1]
    assert 'role="alert"' in error.split(">", 1)[0] and "Carla" in error.split("</p>", 1)[0]
    assert text.index('class="keypad"') < text.index('id="entry-error"')
    # a tap on an older page sends the whole live sheet, saying what came in meanwhile
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 1, "seat": 2, "bid": 0},
        headers={"HX-Request": "true"})
    assert response.status_code == 409 and response.headers["HX-Retarget"] == "#live"
    assert "Hand 1: another phone entered a bid" in response.get_data(as_text=True)


def test_a_stale_or_double_submission_stores_one_bid(table, app):
    match_id = table.new_match("navawhist", NAMES)
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 1, "seat": 1, "bid": 0}
    assert table.post(f"/matches/{match_id}/navawhist/bid", data).status_code == 303
    response = table.post(f"/matches/{match_id}/navawhist/bid", data)
    assert response.status_code == 409
    assert "Bruno’s bid of 0 was already saved." in response.get_data(as_text=True)
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 0, None, None]
    # Another bid for Bruno, tapped on a page from before his: it says what was not saved
    # and why, marked apart from a save.
    response = table.post(f"/matches/{match_id}/navawhist/bid", {**data, "bid": 1})
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    notice = page.split('id="notice"', 1)[0].rsplit("<div", 1)[1] + page.split(
        'id="notice"', 1)[1].split("</span>", 1)[0]
    assert "stale" in notice
    assert "Your bid of 1 for Bruno was not saved: Bruno already bid 0." in notice
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 0, None, None]
    # Tapped on a page htmx keeps, it is said in the page's live region too.
    response = table.post(f"/matches/{match_id}/navawhist/bid", {**data, "bid": 1},
                          headers={"HX-Request": "true"})
    said = response.get_data(as_text=True).split('id="announce"', 1)[1].split("</div>", 1)[0]
    assert response.status_code == 409
    assert "Your bid of 1 for Bruno was not saved: Bruno already bid 0." in said


def test_an_earlier_bid_of_the_hand_being_bid_can_be_changed(table):
    match_id = table.new_match("navawhist", NAMES)
    for _ in range(2):
        assert table.bid(match_id, 0).status_code == 303  # Bruno, then Carla bid 0
    sheet = table.sheet(match_id)
    base = {"version": sheet["version"], "number": 1}
    # The tap on Bruno's bid asks it again and stores nothing.
    response = table.post(f"/matches/{match_id}/navawhist/bid", {**base, "change": 1},
                          headers={"HX-Request": "true"})
    assert response.status_code == 200 and "New bid of Bruno" in response.get_data(as_text=True)
    assert table.sheet(match_id)["version"] == sheet["version"]
    # Without JavaScript: a redirect to the page that asks it, so a reload posts nothing.
    response = table.post(f"/matches/{match_id}/navawhist/bid", {**base, "change": 1})
    assert response.status_code == 303
    address = response.headers["Location"]
    assert address == f"/matches/{match_id}?n=1&ask=1#turn"
    page = table.client.get(address).get_data(as_text=True)
    assert "New bid of Bruno" in page and 'name="seat" value="1"' in page
    assert "New bid of" not in table.client.get(address.replace("ask=1", "ask=3")).get_data(
        as_text=True)  # Dario has not bid: nothing to ask again
    assert table.sheet(match_id)["version"] == sheet["version"]
    assert table.post(f"/matches/{match_id}/navawhist/bid", {**base, "seat": 1, "bid": 1}
                      ).status_code == 303
    info = table.sheet(match_id)["next"]["info"]
    assert info["bids"] == [None, 1, 0, None] and info["bidder"] == 3
    assert (info["bid_total"], info["bids_off"]) == (1, 0)
    # Dario has not bid: his bid cannot be "changed"; nor any bid once bidding is over.
    sheet = table.sheet(match_id)
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 1, "seat": 0, "bid": 0})
    assert response.status_code == 409
    assert table.bid(match_id, 0).status_code == 303
    assert table.bid(match_id, 1).status_code == 303  # Anna, the dealer: 1 + 0 + 0 + 1 = 2
    sheet = table.sheet(match_id)
    assert sheet["next"]["info"]["phase"] == "tricks"
    response = table.post(f"/matches/{match_id}/navawhist/bid", {
        "version": sheet["version"], "number": 1, "seat": 1, "bid": 0})
    assert response.status_code == 409


def test_correcting_a_past_hand_changes_later_totals(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])  # 2 0 0 0... seat 3 off by 1
    table.play_navawhist(match_id, [2, 0, 0, 1], [2, 0, 0, 0])
    before = table.sheet(match_id)["totals"]
    page = client.get(f"/matches/{match_id}/navawhist/1/edit")
    assert page.status_code == 200
    sheet = table.sheet(match_id)
    data = {"version": sheet["version"], "number": 1, "trump": "♥"}
    data.update({f"bids-{i}": b for i, b in enumerate([1, 0, 0, 1])})
    data.update({f"values-{i}": t for i, t in enumerate([0, 0, 0, 1])})
    response = table.post(f"/matches/{match_id}/navawhist/1/edit", data)
    assert response.status_code == 303
    after = table.sheet(match_id)
    first = navawhist.score_hand(1, [1, 0, 0, 1], [0, 0, 0, 1])
    second = navawhist.score_hand(2, [2, 0, 0, 1], [2, 0, 0, 0])
    assert after["totals"] == [a + b for a, b in zip(first, second, strict=True)]
    assert after["totals"] != before
    assert after["hands"][0]["inputs"]["trump"] == "♥"
    # a correction is checked like an entry
    data["values-0"] = 5
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", {
        **data, "version": after["version"]}).status_code == 422
    assert client.get(f"/matches/{match_id}/navawhist/9/edit").status_code == 404


def test_undo_steps_back(table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 0, 1], [1, 0, 0, 0])
    totals = table.sheet(match_id)["totals"]
    table.bid(match_id, 0)

    def undo():
        return table.post(f"/matches/{match_id}/undo",
                          {"version": table.sheet(match_id)["version"]})

    assert undo().status_code == 303  # the bid
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None] * 4
    assert undo().status_code == 303  # the tricks of hand 1
    sheet = table.sheet(match_id)
    assert sheet["hands"] == [] and sheet["next"]["info"]["phase"] == "tricks"
    assert table.tricks(match_id, [1, 0, 0, 0]).status_code == 303
    assert table.sheet(match_id)["totals"] == totals


def test_undo_of_the_last_hand_reopens_a_finished_match(table):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    for cards in navawhist.deal_schedule(2):
        table.play_navawhist(match_id, [0, 0], [cards, 0])
    sheet = table.sheet(match_id)
    assert sheet["status"] == "finished"
    response = table.post(f"/matches/{match_id}/undo", {"version": sheet["version"]})
    assert response.status_code == 303
    assert table.sheet(match_id)["status"] == "in progress"


def test_reopen_a_finished_match(table):
    match_id = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    for cards in navawhist.deal_schedule(2):
        table.play_navawhist(match_id, [0, 0], [cards, 0])
    sheet = table.sheet(match_id)
    edit = {"version": sheet["version"], "number": 1, "bids-0": 0, "bids-1": 0,
            "values-0": 0, "values-1": 2}
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", edit).status_code == 422
    assert table.post(f"/matches/{match_id}/reopen",
                      {"version": sheet["version"]}).status_code == 303
    edit["version"] = table.sheet(match_id)["version"]
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", edit).status_code == 303
    change = [a - b for a, b in zip(navawhist.score_hand(2, [0, 0], [0, 2]),
                                    navawhist.score_hand(2, [0, 0], [2, 0]), strict=True)]
    assert table.sheet(match_id)["totals"] == [
        t + c for t, c in zip(sheet["totals"], change, strict=True)]


@pytest.mark.parametrize(("names", "message"), [
    (["Anna", ""], "Navawhist needs at least 2 players: 1 named."),
    (["Anna", "x" * 31], "at most 30 characters"),
    (["Anna", "anna "], "Anna is in this match twice"),
    (["Anna"], "Navawhist needs at least 2 players: 1 named."),
    ([f"P{i}" for i in range(11)], "Navawhist is played by 2 to 10 players"),
])
def test_bad_players_are_refused(table, app, names, message):
    data = {"game": "navawhist", "action": "start"}
    data.update({f"players-{i}": n for i, n in enumerate(names)})
    response = table.post("/matches/new", data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert count(app, Match) == 0 and count(app, Player) == 0


def test_unknown_match_and_game(client, table):
    assert client.get("/matches/nope").status_code == 404
    assert client.get("/matches/nope.json").status_code == 404
    assert table.post("/matches/nope/navawhist/bid", {"bid": 1}).status_code == 404
    assert client.get("/matches/new?game=poker").status_code == 400


def test_match_ids_are_not_sequential(table):
    first = table.new_match("navawhist", NAMES)
    second = table.new_match("navawhist", NAMES)
    assert len(first) >= 16 and not first.isdigit() and first != second


def test_players_are_remembered_and_reordered(table, client, app):
    table.new_match("navawhist", NAMES)
    page = client.get("/matches/new").get_data(as_text=True)
    assert 'value="pick:Carla"' in page
    data = {"game": "navawhist", "players-0": "Anna", "players-1": "Bruno",
            "players-2": "Carla", "action": "up:2"}
    text = table.post("/matches/new", data).get_data(as_text=True)
    assert text.index('value="Carla"') < text.index('value="Bruno"')
    data["action"] = "remove:0"
    text = table.post("/matches/new", data).get_data(as_text=True)
    assert 'value="Anna"' not in text.split("known-players")[0]
    assert count(app, Match) == 1
    assert count(app, Hand) == 0


def test_a_post_without_csrf_token_is_refused(client, table):
    match_id = table.new_match("navawhist", NAMES)
    response = client.post(f"/matches/{match_id}/navawhist/bid", data={"bid": 0, "seat": 1})
    assert response.status_code == 400


def test_home_lists_matches_in_progress_first(table, client):
    done = table.new_match("navawhist", ["Anna", "Bruno"], hook=False)
    for cards in navawhist.deal_schedule(2):
        table.play_navawhist(done, [0, 0], [cards, 0])
    table.new_match("navawhist", ["Carla", "Dario"])
    page = client.get("/").get_data(as_text=True)
    # (the table is named after the first match's players: the cards list the matches)
    assert page.index("<span>Carla, Dario</span>") < page.index("<span>Anna, Bruno</span>")
    # Anna bid 0 and took every trick, Bruno bid 0 and took none, hand after hand.
    assert "Hand 1 of 18" in page and "Won by Bruno" in page


def test_language_from_browser_and_switch(client, table):
    page = client.get("/", headers={"Accept-Language": "it-IT,it;q=0.9"}).get_data(as_text=True)
    assert "Nuova partita" in page
    response = table.post("/lang/en", {"next": "/matches/new"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/matches/new")
    page = client.get("/", headers={"Accept-Language": "it-IT"}).get_data(as_text=True)
    assert "New match" in page
    assert table.post("/lang/it", {"next": "https://evil.example/"}).headers[
        "Location"] == "/"


def test_a_stale_tricks_preview_is_answered_over_the_whole_sheet(table):
    """A preview made on a page another phone has moved on from: the sheet as it is now,
    swapped over the whole of #live, not nested inside the tricks panel."""
    match_id = table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    order = table.sheet(match_id)["next"]["info"]["order"]
    for seat in order:
        table.bid(match_id, 0, seat=seat)
    stale = table.sheet(match_id)
    table.tricks(match_id, [1, 0, 0])  # another phone saves the hand first
    answer = table.post(f"/matches/{match_id}/navawhist/tricks", {
        "version": stale["version"], "number": stale["next"]["number"], "action": "preview",
        "values-0": 1}, headers={"HX-Request": "true"})
    assert answer.status_code == 409
    assert answer.headers["HX-Retarget"] == "#live"
    assert answer.headers["HX-Reswap"] == "outerHTML"
