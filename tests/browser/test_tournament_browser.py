"""A tournament evening on phones at 390x844, under the site's CSP: the organiser creates
it from the table's page and seats round 1; a table's phone scans its table's code (the QR
code read from the seating page's pixels) and keeps that match alone; the standings page,
followed by another phone, moves after a save within one poll. axe finds nothing serious on
any of these pages, in English and in Italian dark."""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import Page, expect

from .conftest import settled, shot
from .test_accessibility import serious
from .test_games_browser import create_match

pytestmark = pytest.mark.browser

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
POLL_WAIT = 12_000


def decoded(page: Page, selector: str) -> str:
    """The text of the QR code drawn in ``selector``, read from a screenshot of it."""
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(page.locator(selector).screenshot())))
    assert [code.format for code in found] == [zxingcpp.BarcodeFormat.QRCode]
    return found[0].text


def test_an_evening_from_creation_to_the_standings(phone, live_server):
    organiser = phone()
    create_match(organiser, live_server, "quarantotto", ["Org", "Helper"])
    organiser.goto(f"{live_server}/tables")
    organiser.locator("main a[href*='/tables/']").first.click()
    organiser.get_by_role("link", name="New tournament").click()
    organiser.get_by_role("button", name="Quarantotto").click()
    expect(organiser.locator("button[value='game:quarantotto']")).to_have_attribute(
        "aria-current", "page")
    settled(organiser)
    organiser.fill("#name", "Friday evening")
    organiser.fill("#entrants", "\n".join(ENTRANTS))
    shot(organiser, "tournament-new")
    assert serious(organiser) == []
    organiser.get_by_role("button", name="Create the tournament").click()
    expect(organiser.locator("h1")).to_have_text("Friday evening")
    expect(organiser.locator("#entrants-title")).to_have_text("8 entrants")
    assert serious(organiser) == []
    shot(organiser, "tournament-before")

    organiser.get_by_role("button", name="Seat round 1").click()
    expect(organiser.locator("h1")).to_have_text("Round 1")
    organiser.get_by_role("button", name="Publish round 1").click()
    expect(organiser.locator(".seating > div.qr")).to_have_count(2)
    expect(organiser.locator(".seating")).to_have_count(2)  # 8 entrants at tables of 4
    assert serious(organiser) == []
    shot(organiser, "tournament-seating")
    keep = decoded(organiser, "#table-1 ~ .qr")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/tournaments/keep/[A-Za-z0-9_-]{20,}", keep)
    seated = organiser.locator(".seating").first.locator(".seats li").all_inner_texts()

    # Table 1's phone scans the code and keeps that match.
    table_phone = phone()
    table_phone.goto(keep)
    expect(table_phone.locator(".seats li")).to_have_count(4)
    assert serious(table_phone) == []
    table_phone.get_by_role("button", name="Keep this table’s sheet on this phone").click()
    expect(table_phone.locator(".entry")).to_be_visible()  # it may enter the scores
    names = table_phone.locator(".sheet thead .name").all_inner_texts()
    assert [n.split(" · ")[0] for n in seated] == names or len(names) == 4
    shot(table_phone, "tournament-table-phone")
    table_one = table_phone.url.split("/matches/")[1].split("?")[0]

    # Another phone follows the standings.
    follower = phone(locale="it-IT", dark=True)
    organiser.goto(f"{live_server}/tournaments/" + organiser.url.split("/tournaments/")[1]
                   .split("/")[0] + "/standings")
    standings_url = organiser.url
    follower.goto(standings_url)
    expect(follower.locator("h1")).to_have_text("Friday evening")
    expect(follower.locator("#standings caption").first).to_contain_text("Generale")
    assert serious(follower) == []
    shot(follower, "tournament-standings-it-dark")
    before = follower.locator("#standings tbody").first.inner_text()

    # The table's phone saves game 1: the standings follow within one poll.
    table_phone.goto(f"{live_server}/matches/{table_one}")
    token = table_phone.locator("input[name=csrf_token]").first.get_attribute("value")
    version = table_phone.locator(".entry input[name=version]").first.get_attribute("value")
    response = table_phone.request.post(
        f"{live_server}/matches/{table_one}/quarantotto/game",
        form={"csrf_token": token, "version": version, "number": "1", "action": "save",
              "closer": "0", "values-1": "40", "values-2": "20", "values-3": "10"},
        max_redirects=0)
    assert response.status == 303
    expect(follower.locator("#standings tbody").first).not_to_have_text(before,
                                                                      timeout=POLL_WAIT)
    expect(follower.locator("#standings caption").first).to_contain_text("provvisoria")
    shot(follower, "tournament-standings-after-save")
    settled(follower)
    assert serious(follower) == []


def test_a_round_closed_early_is_confirmed_and_reopened_without_javascript(
        phone, make_page, live_server):
    """The organiser closes round 1 with both tables still playing: a page names them and
    what each entrant gets, and only its button closes the round; the round reopens. The
    same steps without JavaScript, at 390x844; axe finds nothing serious on the pages."""
    setup = phone()
    create_match(setup, live_server, "quarantotto", ["Org", "Helper"])
    setup.goto(f"{live_server}/tables")
    setup.locator("main a[href*='/tables/']").first.click()
    setup.get_by_role("link", name="New tournament").click()
    setup.get_by_role("button", name="Quarantotto").click()
    expect(setup.locator("button[value='game:quarantotto']")).to_have_attribute(
        "aria-current", "page")
    settled(setup)
    setup.fill("#name", "Friday evening")
    setup.fill("#entrants", "\n".join(ENTRANTS))
    setup.get_by_role("button", name="Create the tournament").click()
    expect(setup.locator("h1")).to_have_text("Friday evening")
    address = setup.url
    setup.get_by_role("button", name="Seat round 1").click()
    expect(setup.locator("h1")).to_have_text("Round 1")
    setup.get_by_role("button", name="Publish round 1").click()
    expect(setup.locator(".seating > div.qr")).to_have_count(2)

    organiser = make_page(javascript=False)
    organiser.context.add_cookies(setup.context.cookies())
    organiser.goto(address)
    organiser.get_by_role("link", name="Close round 1 and seat round 2").click()
    expect(organiser.locator("h1")).to_have_text("Close round 1?")
    expect(organiser.locator("main section")).to_have_count(2)
    expect(organiser.locator("main tbody tr")).to_have_count(8)
    assert set(organiser.locator("main tbody td:nth-child(2)").all_inner_texts()) == {"1.5"}
    shot(organiser, "tournament-close-confirm")
    setup.goto(organiser.url)
    assert serious(setup) == []
    organiser.get_by_role("link", name="Keep playing round 1").click()
    expect(organiser.locator("#next-round ~ p").first).to_have_text("Round 1 is being played.")
    organiser.get_by_role("link", name="Close round 1 and seat round 2").click()
    organiser.get_by_role("button", name="Close round 1 and seat round 2").click()
    expect(organiser.locator("h1")).to_have_text("Round 2")

    organiser.goto(address)
    expect(organiser.locator("#round-1")).to_contain_text("round closed")
    shot(organiser, "tournament-closed-reopen-offered")
    organiser.get_by_role("button", name="Reopen round 1").click()
    expect(organiser.locator("h1")).to_have_text("Friday evening")
    expect(organiser.locator("#next-round")).to_have_text("Round 1")
    expect(organiser.locator("#round-2")).to_have_count(0)
    expect(organiser.locator("#round-1")).not_to_contain_text("round closed")
    expect(organiser.get_by_role("link", name="Close round 1 and seat round 2")).to_be_visible()
    shot(organiser, "tournament-reopened")
    setup.goto(address)
    assert serious(setup) == []
