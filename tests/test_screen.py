"""The table screen: a read-only page showing a match's current state for the whole table,
following it by itself; a table's screen follows whichever match the table plays now."""

from __future__ import annotations

import re

import pytest

from scorekeeper.db import db
from scorekeeper.models import Match, Table
from tests.test_fortyfive_web import FortyFive
from tests.test_quarantotto_web import play as play_quarantotto
from tests.test_scala40_web import play as play_scala40

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
HTMX = {"HX-Request": "true"}
CONTROLS = re.compile(r"<(form|button|input|select|textarea)\b")


def screen(client, match_id: str, **kwargs) -> str:
    response = client.get(f"/matches/{match_id}/screen", **kwargs)
    assert response.status_code == 200, response.get_data(as_text=True)[:2000]
    page = response.get_data(as_text=True)
    assert not CONTROLS.search(page)
    return text(page)


def text(page: str) -> str:
    """The words of a page, tags dropped and spaces squeezed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def table_of(app, match_id: str) -> Table:
    with app.app_context():
        table = db.session.get(Table, db.session.get(Match, match_id).table_id)
        db.session.expunge(table)
        return table


def test_navawhist_shows_the_hand_the_bids_and_the_dealer_s_forbidden_bid(table, client):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 1, 0, 0], [0, 1, 0, 0])
    # Hand 2 (two cards, Bruno deals): Carla, Dario and Anna bid 0, 0, 1: Bruno may not bid 1.
    for bid in (0, 0, 1):
        assert table.bid(match_id, bid).status_code == 303
    words = screen(client, match_id)
    assert "Hand 2 of 16" in words and "2 cards" in words
    assert "Dealer: Bruno" in words and "Bruno bids:" in words
    assert "The dealer may not bid 1: the bids would add up to the cards dealt." in words
    assert "Carla 0 Dario 0 Anna 1 Bruno D …" in words
    # The ranking, the leader marked, with hand 1's points beside each total.
    totals = table.sheet(match_id)["totals"]
    assert totals[1] == max(totals)
    assert f"1 Bruno 1st D {totals[1]} {totals[1]}" in words
    assert "Hand 1" in words


def test_scala40_lists_the_players_closest_to_the_threshold_and_who_is_out(table, client):
    match_id = table.new_match("scala40", NAMES)
    response = play_scala40(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"})
    assert response.status_code == 303
    words = screen(client, match_id)
    assert "Deal 2" in words and "Out at 101 points" in words
    # Closest first: Carla (29) has 72 to go, then Bruno, then Anna.
    assert re.search(r"Carla 72 points to go Bruno 100 points to go Anna 101 points to go",
                     words), words
    assert "Dario out in deal 1" in words
    page = client.get(f"/matches/{match_id}/screen").get_data(as_text=True)
    assert page.count('class="closest"') == 1
    # Penalty points are bad news: the last deal's 29 is marked as such, not as a gain.
    assert re.search(r'class="num last neg">29<', page), page
    # Before a deal is scored nobody is closer than another: nobody is marked.
    fresh = table.new_match("scala40", NAMES)
    assert "closest" not in client.get(f"/matches/{fresh}/screen").get_data(as_text=True)


def test_fortyfive_shows_the_points_each_side_needs(table, client):
    match_id = table.new_match("fortyfive", NAMES)
    assert FortyFive(table, match_id).side_tricks([4, 1], 0).status_code == 303
    words = screen(client, match_id)
    assert "Hand 2" in words and "Target: 45." in words
    assert "Anna + Carla 20 points to go" in words
    assert "Bruno + Dario 40 points to go" in words


def test_quarantotto_shows_the_games_left(table, client):
    match_id = table.new_match("quarantotto", NAMES, length="games", games=5)
    assert play_quarantotto(table, match_id, 0, [None, "A K 7", "10+15", 9]).status_code == 303
    words = screen(client, match_id)
    assert "Game 2 of 5" in words and "4 games left" in words


def test_cavallore_shows_deals_and_win_rate_against_one_in_ten(table, client):
    match_id = table.new_match("cavallore", ["Anna"])
    for placed in (36, 12):
        sheet = table.sheet(match_id)
        assert table.post(f"/matches/{match_id}/cavallore/deal", {
            "version": sheet["version"], "number": sheet["next"]["number"], "placed": placed,
            "seat": 0}).status_code == 303
    words = screen(client, match_id)
    assert "Deal 3" in words and "odds: 1 in 10" in words
    assert re.search(r"Anna 2 1 50% too few deals to compare with 1 in 10 yet", words), words


def test_a_finished_match_shows_its_final_ranking_and_winner(table, client):
    match_id = table.new_match("quarantotto", NAMES[:2], length="games", games=1)
    assert play_quarantotto(table, match_id, 0, [None, "K 7"]).status_code == 303
    words = screen(client, match_id)
    assert "Final ranking" in words and "Anna wins." in words


def test_the_screen_speaks_italian(table, client):
    match_id = table.new_match("navawhist", NAMES)
    client.post("/lang/it", data={"csrf_token": table.csrf(), "next": "/"})
    words = screen(client, match_id)
    assert "Mano 1 di 16" in words and "Mazziere: Anna" in words


def test_the_poll_answers_204_until_the_match_changes(table, client):
    match_id = table.new_match("navawhist", NAMES)
    version = table.sheet(match_id)["version"]
    poll = f"/matches/{match_id}/screen?since={version}"
    assert f'hx-get="{poll}"' in client.get(f"/matches/{match_id}/screen").get_data(
        as_text=True)
    assert client.get(poll, headers=HTMX).status_code == 204
    assert table.bid(match_id, 1).status_code == 303
    response = client.get(poll, headers=HTMX)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert page.startswith('<div id="screen"') and "<html" not in page
    assert f"since={version + 1}" in page


def test_the_table_screen_follows_the_next_match(app, table, client):
    first = table.new_match("quarantotto", NAMES[:2], length="games", games=1)
    found = table_of(app, first)
    address = f"/tables/{found.id}/screen/{found.screen_token}"
    page = client.get(address).get_data(as_text=True)
    assert f'data-match="{first}"' in page and not CONTROLS.search(page)
    poll = re.search(r'hx-get="([^"]+)"', page).group(1).replace("&amp;", "&")
    assert client.get(poll, headers=HTMX).status_code == 204
    # The match ends: the screen shows its final ranking, and keeps it while no other starts.
    assert play_quarantotto(table, first, 0, [None, "K 7"]).status_code == 303
    response = client.get(poll, headers=HTMX)
    assert "Final ranking" in response.get_data(as_text=True)
    poll = re.search(r'hx-get="([^"]+)"', response.get_data(as_text=True)).group(1)
    poll = poll.replace("&amp;", "&")
    assert client.get(poll, headers=HTMX).status_code == 204
    # The next match of the table starts: the next poll brings it.
    second = table.new_match("navawhist", NAMES)
    assert table_of(app, second).id == found.id
    response = client.get(poll, headers=HTMX)
    assert response.status_code == 200
    assert f'data-match="{second}"' in response.get_data(as_text=True)
    assert "Hand 1 of 16" in text(response.get_data(as_text=True))


def test_the_current_match_is_the_newest_in_play(app, table, client):
    playing = table.new_match("navawhist", NAMES)
    given_up = table.new_match("navawhist", NAMES)
    assert table.post(f"/matches/{given_up}/abandon", {
        "version": table.sheet(given_up)["version"]}).status_code == 303
    found = table_of(app, playing)
    page = client.get(f"/tables/{found.id}/screen/{found.screen_token}").get_data(as_text=True)
    assert f'data-match="{playing}"' in page


def test_a_match_just_finished_stays_on_the_table_screen_over_an_older_one_in_play(
        app, table, client):
    older = table.new_match("navawhist", NAMES)  # left unfinished, as tables do
    table.play_navawhist(older, [0, 0, 0, 0], [1, 0, 0, 0])
    newer = table.new_match("quarantotto", NAMES[:2], length="games", games=1)
    found = table_of(app, newer)
    address = f"/tables/{found.id}/screen/{found.screen_token}"
    assert play_quarantotto(table, newer, 0, [None, "K 7"]).status_code == 303
    page = client.get(address).get_data(as_text=True)
    assert f'data-match="{newer}"' in page and "Final ranking" in page
    # A hand saved in the older match brings it back: the table plays it now.
    assert table.bid(older, 0).status_code == 303
    assert f'data-match="{older}"' in client.get(address).get_data(as_text=True)


def test_an_empty_table_s_screen_waits_for_its_first_match(app, table, client):
    match_id = table.new_match("navawhist", NAMES)
    found = table_of(app, match_id)
    with app.app_context():
        db.session.delete(db.session.get(Match, match_id))
        db.session.commit()
    response = client.get(f"/tables/{found.id}/screen/{found.screen_token}")
    assert response.status_code == 200
    assert "No match at this table yet" in response.get_data(as_text=True)


@pytest.mark.parametrize("token", ["wrong", "x" * 22])
def test_a_wrong_token_is_a_404(app, table, client, token):
    found = table_of(app, table.new_match("navawhist", NAMES))
    assert client.get(f"/tables/{found.id}/screen/{token}").status_code == 404
    assert client.get(f"/tables/nosuchtable/screen/{found.screen_token}").status_code == 404
    # A screen left open on a changed address says so and stops asking.
    gone = client.get(f"/tables/{found.id}/screen/{token}", headers=HTMX)
    assert gone.status_code == 404 and "hx-get" not in gone.get_data(as_text=True)
    assert "address has changed" in gone.get_data(as_text=True)


def test_the_screen_token_gives_no_membership(app, table):
    match_id = table.new_match("navawhist", NAMES)
    found = table_of(app, match_id)
    other = app.test_client()
    assert other.get(f"/tables/{found.id}/screen/{found.screen_token}").status_code == 200
    assert other.get(f"/matches/{match_id}/screen").status_code == 200
    assert other.get(f"/tables/{found.id}").status_code == 403


def test_each_table_has_its_own_token_and_removing_a_phone_changes_it(app, table, client):
    found = table_of(app, table.new_match("navawhist", NAMES))
    other = table_of(app, type(table)(app.test_client()).new_match("navawhist", NAMES))
    assert found.screen_token and found.screen_token != other.screen_token
    assert found.screen_token != found.secret
    with app.app_context():
        from scorekeeper.models import Device, Membership
        device = Device()
        db.session.add(device)
        db.session.flush()
        db.session.add(Membership(table_id=found.id, device_id=device.id))
        db.session.commit()
        device_id = device.id
    assert table.post(f"/tables/{found.id}/phones/{device_id}/remove", {}).status_code == 303
    with app.app_context():
        assert db.session.get(Table, found.id).screen_token != found.screen_token
    assert client.get(f"/tables/{found.id}/screen/{found.screen_token}").status_code == 404


def test_the_table_page_and_share_link_the_screens(app, table, client):
    match_id = table.new_match("navawhist", NAMES)
    found = table_of(app, match_id)
    share = client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    assert f'/matches/{match_id}/screen"' in share
    assert "data-web-share" in share
    page = client.get(f"/tables/{found.id}").get_data(as_text=True)
    assert f"/tables/{found.id}/screen/{found.screen_token}" in page
    assert 'class="qr"' in page.split("screen-link", 1)[-1]


def test_the_screen_is_dark_unless_asked_for_light(table, client):
    match_id = table.new_match("navawhist", NAMES)
    assert '<html lang="en" class="dark">' in client.get(
        f"/matches/{match_id}/screen").get_data(as_text=True)
    assert '<html lang="en" class="light">' in client.get(
        f"/matches/{match_id}/screen?theme=light").get_data(as_text=True)
