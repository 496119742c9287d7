"""Large type on a 390x844 phone: the switch on the bar takes effect without a reload and
survives one; the totals (strip and sheet) and the dealer's D are twice their size, and a
10-player Navawhist sheet and a six-player Scala 40 entry still fit the width (the sheet
scrolls in its own frame). axe's check in large type is in test_accessibility.py.

Set SCOREKEEPER_SHOTS to a folder to keep the screenshots looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..test_scala40_web import play as play_scala40
from .conftest import invitation_path, settled, shot, take_pen

pytestmark = pytest.mark.browser

TEN = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Luca", "Marta",
       "Nico"]
SIX = TEN[:6]
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
FONT = "e => parseFloat(getComputedStyle(e).fontSize)"


def sizes(page: Page) -> dict[str, float]:
    """The font sizes of the strip's first total, the sheet's first total and the dealer's D
    in the strip, in px."""
    return {"strip": page.locator("#strip .total").first.evaluate(FONT),
            "sheet": page.locator("tr.totals td").first.evaluate(FONT),
            "dealer": page.locator("#strip li.dealt .badge").last.evaluate(FONT)}


def switch(page: Page) -> None:
    """A tap on the bar's Large type, then wait for htmx's answer."""
    page.locator("#type-switch button").click()
    settled(page)


def test_large_type_doubles_the_totals_and_fits_a_ten_player_sheet(phone, live_server, table):
    match_id = table.new_match("navawhist", TEN)
    table.play_navawhist(match_id, [0] * 10, [1] + [0] * 9)
    page = phone()
    take_pen(page, live_server + invitation_path(table, match_id))
    settled(page)
    normal = sizes(page)
    assert page.evaluate(NO_SIDEWAYS)
    loads = page.evaluate("() => performance.getEntriesByType('navigation').length")
    page.evaluate("() => { window.notReloaded = true; }")
    switch(page)
    expect(page.locator("html")).to_have_class("large")
    expect(page.locator("#type-switch button")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => window.notReloaded === true")  # no reload, no flash
    assert loads == 1
    large = sizes(page)
    assert large == {key: 2 * value for key, value in normal.items()}, (normal, large)
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, "large-navawhist-10")
    page.reload()
    expect(page.locator("html")).to_have_class("large")
    assert sizes(page) == large
    # Off again, and the page is as it was.
    switch(page)
    expect(page.locator("html")).not_to_have_class("large")
    assert sizes(page) == normal


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark-italian"])
def test_large_type_fits_a_six_player_scala40_entry(phone, live_server, table, dark):
    match_id = table.new_match("scala40", SIX)
    # Totals of three digits in the strip and the sheet: 106, 87, 100 (never opened).
    nine = "* * A K 9 8 7 6 5"
    assert play_scala40(table, match_id, 0, {1: "A", 2: "Q Q 9", 3: nine, 4: "* A K Q J",
                                             5: nine}).status_code == 303
    page = phone(dark=dark, locale="it-IT" if dark else "en-GB")
    take_pen(page, live_server + invitation_path(table, match_id))
    switch(page)
    expect(page.locator("html")).to_have_class("large")
    page.locator("label.key.pick", has_text="Carla").click()
    expect(page.locator(".closed-line", has_text="Carla")).to_be_visible()
    settled(page)
    assert page.locator("#strip .total").first.evaluate(FONT) == 32
    assert page.evaluate(NO_SIDEWAYS)
    # Every total of the strip is inside its box: nothing spills or is cut.
    assert page.locator("#strip .total").evaluate_all(
        "es => es.every(e => e.scrollWidth <= e.parentElement.clientWidth)")
    # And every total of the sheet inside its cell.
    assert page.locator("tr.totals td").evaluate_all(
        "es => es.every(e => e.scrollWidth <= e.clientWidth)")
    shot(page, f"large-scala40-6-{'dark' if dark else 'light'}")
