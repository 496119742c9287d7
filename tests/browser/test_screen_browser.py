"""The table screen in a browser, on a laptop (1280x720) and in a phone's browser (390x844),
in Italian and dark: each game's current state, no control, nothing serious for axe, under
the site's CSP; it follows a save made on another phone within one poll, and a table's
screen moves on to the table's next match."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.db import db
from scorekeeper.models import Match, Table

from ..test_fortyfive_web import FortyFive
from ..test_quarantotto_web import play as play_quarantotto
from ..test_scala40_web import play as play_scala40
from .conftest import PHONE, shot
from .test_accessibility import serious

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 720}
NAMES = ["Anna", "Bruno", "Carla", "Dario"]
CONTROLS = "form, button, input, select, textarea"
POLL_WAIT = 12_000  # ms: one poll (4 s) and the answer, with room for a slow machine


def matches(table) -> dict[str, str]:
    """One match of each game, in progress, with a hand or two played (a Navawhist hand
    half bid: the dealer's bid is forbidden)."""
    played = {}
    played["navawhist"] = table.new_match("navawhist", NAMES)
    table.play_navawhist(played["navawhist"], [1, 1, 0, 0], [0, 1, 0, 0])
    for bid in (0, 0, 1):
        assert table.bid(played["navawhist"], bid).status_code == 303
    played["scala40"] = table.new_match("scala40", NAMES)
    assert play_scala40(table, played["scala40"], 0,
                        {1: "A", 2: "Q Q 9", 3: "* * A K 9 8 7 6 5"}).status_code == 303
    played["fortyfive"] = table.new_match("fortyfive", NAMES)
    assert FortyFive(table, played["fortyfive"]).side_tricks([4, 1], 0).status_code == 303
    played["quarantotto"] = table.new_match("quarantotto", NAMES, length="games", games=5)
    assert play_quarantotto(table, played["quarantotto"], 0,
                            [None, "A K 7", "10+15", 9]).status_code == 303
    played["cavallore"] = table.new_match("cavallore", ["Anna"])
    sheet = table.sheet(played["cavallore"])
    assert table.post(f"/matches/{played['cavallore']}/cavallore/deal", {
        "version": sheet["version"], "number": 1, "placed": 36, "seat": 0}).status_code == 303
    return played


# What each game's screen says of its state, in Italian.
SAYS = {
    "navawhist": ["Mano 2 di 16", "Mazziere: Bruno", "Dichiara Bruno:",
                  "Il mazziere non può dichiarare 1"],
    "scala40": ["Smazzata 2", "Carla", "72", "Dario"],
    "fortyfive": ["Mano 2", "20", "40"],
    "quarantotto": ["Giro 2 di 5", "Mancano 4 giri"],
    "cavallore": ["Smazzata 2", "1 su 10", "100%"],
}


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x720", "390x844"])
def test_each_game_s_screen_reads_in_italian_and_dark(phone, live_server, table,
                                                      viewport):
    found = {}
    for game, match_id in matches(table).items():
        page = phone(viewport=viewport, locale="it-IT", dark=True)
        assert page.goto(f"{live_server}/matches/{match_id}/screen").status == 200
        screen = page.locator("#screen")
        for words in SAYS[game]:
            expect(screen).to_contain_text(words)
        assert page.locator(CONTROLS).count() == 0
        assert page.locator("html").get_attribute("lang") == "it"
        # Dark: light text on a dark background.
        colours = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
                                        getComputedStyle(document.body).color]""")
        assert colours == ["rgb(15, 17, 19)", "rgb(241, 239, 234)"]
        # The whole screen is in view, without scrolling sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, f"screen-{game}-{viewport['width']}")
        problems = serious(page)
        if problems:
            found[game] = problems
    assert found == {}


def test_the_leader_and_the_last_hand_are_marked(phone, live_server, table):
    match_id = matches(table)["navawhist"]
    page = phone(viewport=LAPTOP, dark=True)
    page.goto(f"{live_server}/matches/{match_id}/screen")
    leader = page.locator(".standings tbody tr").first
    expect(leader).to_have_class(re.compile(r"\bleader\b"))
    expect(leader).to_contain_text("Bruno")
    expect(page.locator(".standings thead")).to_contain_text("Hand 1")
    # Readable from 2 m: a total is at least 40 px high on a 1280x720 screen.
    assert page.locator(".standings .total").first.bounding_box()["height"] >= 40
    # The whole standings and the hand fit the screen: nothing to scroll.
    assert page.evaluate("document.documentElement.scrollHeight") <= LAPTOP["height"]


def test_the_screen_follows_a_save_on_another_phone(phone, live_server, table):
    match_id = table.new_match("navawhist", NAMES)
    page = phone(viewport=LAPTOP, dark=True)
    page.goto(f"{live_server}/matches/{match_id}/screen")
    screen = page.locator("#screen")
    expect(screen).to_contain_text("Bruno bids:")
    assert table.bid(match_id, 1).status_code == 303  # the phone keeping the sheet
    expect(screen).to_contain_text("Carla bids:", timeout=POLL_WAIT)
    expect(page.locator(".bids li").first).to_contain_text("1")
    assert page.locator(CONTROLS).count() == 0
    # Where the browser allows it (a secure context), the screen asked to stay awake.
    assert page.evaluate("document.documentElement.dataset.wakeLock") in ("held", "refused")


def test_the_table_screen_moves_to_the_next_match(app, phone, live_server, table):
    first = table.new_match("quarantotto", NAMES[:2], length="games", games=1)
    with app.app_context():
        found = db.session.get(Table, db.session.get(Match, first).table_id)
        address = f"/tables/{found.id}/screen/{found.screen_token}"
    page = phone(viewport=LAPTOP, dark=True)
    page.goto(live_server + address)
    screen = page.locator("#screen")
    expect(screen).to_have_attribute("data-match", first)
    assert play_quarantotto(table, first, 0, [None, "K 7"]).status_code == 303
    expect(screen).to_contain_text("Final ranking", timeout=POLL_WAIT)
    expect(screen).to_contain_text("Anna wins.")
    second = table.new_match("navawhist", NAMES)
    expect(screen).to_have_attribute("data-match", second, timeout=POLL_WAIT)
    expect(screen).to_contain_text("Hand 1 of 16")
    assert page.url == live_server + address
    assert page.locator(CONTROLS).count() == 0


def test_the_light_theme_when_asked(phone, live_server, table):
    match_id = table.new_match("navawhist", NAMES)
    page = phone()
    page.goto(f"{live_server}/matches/{match_id}/screen")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 17, 19)"
    page.goto(f"{live_server}/matches/{match_id}/screen?theme=light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") \
        == "rgb(247, 246, 242)"
    assert serious(page) == []


SHARE_SHEET = """
navigator.share = data => { window.shared = data; return Promise.resolve(); };
navigator.canShare = data => Boolean(data.files);
"""


def test_share_offers_the_phone_s_share_sheet_where_there_is_one(phone, live_server,
                                                                  table):
    match_id = table.new_match("navawhist", NAMES)
    without = phone(dark=True)
    without.goto(f"{live_server}/matches/{match_id}/share")
    expect(without.locator(f"a[href='{live_server}/matches/{match_id}/screen']")).to_be_visible()
    expect(without.get_by_role("button", name="Share the follow link")).to_be_hidden()
    page = phone(dark=True)
    page.add_init_script(SHARE_SHEET)
    page.goto(f"{live_server}/matches/{match_id}/share")
    page.get_by_role("button", name="Share the follow link").click()
    shared = page.wait_for_function("() => window.shared").json_value()
    assert shared == {"title": "Navawhist", "url": f"{live_server}/matches/{match_id}"}
    page.evaluate("() => { window.shared = null; }")
    page.get_by_role("button", name="Share the PDF").click()
    page.wait_for_function("() => window.shared", timeout=30_000)
    assert page.evaluate("() => [window.shared.files[0].name, window.shared.files[0].type]") == [
        re.sub(r"^.*filename=", "", table.client.get(f"/matches/{match_id}.pdf").headers[
            "Content-Disposition"]).strip('"'), "application/pdf"]
