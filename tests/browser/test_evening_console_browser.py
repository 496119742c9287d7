"""The new-tournament form in the browser, under the site's CSP: a switch of game and a
change of format redraw the form in place (htmx) with the name, the entrants and the
options still valid kept; the same with JavaScript off, through the form's own buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import settled
from .test_games_browser import create_match

pytestmark = pytest.mark.browser

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]


def new_tournament(page: Page, base: str) -> None:
    """From the organiser's table page to its new-tournament form."""
    create_match(page, base, "quarantotto", ["Org", "Helper"])
    page.goto(f"{base}/tables")
    page.locator("main a[href*='/tables/']").first.click()
    page.get_by_role("link", name="New tournament").click()
    expect(page.locator("h1")).to_have_text("New tournament")


def switch_game(page: Page, key: str, name: str) -> None:
    page.get_by_role("button", name=name).click()
    expect(page.locator(f"button[value='game:{key}']")).to_have_attribute(
        "aria-current", "page")


def check_kept(page: Page) -> None:
    expect(page.locator("#name")).to_have_value("Venerdì sera")
    expect(page.locator("#entrants")).to_have_value("\n".join(ENTRANTS))
    expect(page.locator("#opt_entry")).to_have_value("zero")


def test_a_switch_of_game_or_format_keeps_what_was_typed(phone, live_server):
    organiser = phone()
    new_tournament(organiser, live_server)
    url = organiser.url
    organiser.fill("#name", "Venerdì sera")
    organiser.fill("#entrants", "\n".join(ENTRANTS))
    organiser.select_option("#opt_entry", "zero")  # Navawhist, the first game
    organiser.evaluate("window.kept = true")  # gone if the page were loaded again
    switch_game(organiser, "quarantotto", "Quarantotto")
    settled(organiser)
    check_kept(organiser)
    expect(organiser.locator("#opt_length")).to_have_value("games")
    expect(organiser.locator("#go_on")).to_be_hidden()
    organiser.select_option("#format", "knockout")
    expect(organiser.locator("#go_on")).to_be_visible()
    settled(organiser)
    check_kept(organiser)
    assert organiser.evaluate("window.kept") is True and organiser.url == url
    organiser.get_by_role("button", name="Create the tournament").click()
    expect(organiser.locator("h1")).to_have_text("Venerdì sera")


def test_without_javascript_the_form_comes_back_with_what_was_typed(make_page, live_server):
    setup = make_page()
    create_match(setup, live_server, "quarantotto", ["Org", "Helper"])
    organiser = make_page(javascript=False)
    organiser.context.add_cookies(setup.context.cookies())
    organiser.goto(f"{live_server}/tables")
    organiser.locator("main a[href*='/tables/']").first.click()
    organiser.get_by_role("link", name="New tournament").click()
    organiser.fill("#name", "Venerdì sera")
    organiser.fill("#entrants", "\n".join(ENTRANTS))
    organiser.select_option("#opt_entry", "zero")
    switch_game(organiser, "fortyfive", "Forty-Five")
    check_kept(organiser)
    organiser.select_option("#format", "knockout")
    organiser.get_by_role("button", name="Show this format’s choices").click()
    expect(organiser.locator("#go_on")).to_be_visible()
    check_kept(organiser)
    expect(organiser.locator("#format")).to_have_value("knockout")
