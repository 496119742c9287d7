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
from .test_accessibility import serious

pytestmark = pytest.mark.browser

TEN = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Luca", "Marta",
       "Nico"]
SIX = TEN[:6]
# Ten whose names a narrow column would cut alike at their end ("Franc…", "Maria…").
ALIKE = ["Anna", "Francesco", "Maria Grazia", "Dario", "Elena", "Franco", "Gina",
         "Maria Luisa", "Bartolomeo", "Nico"]
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


def names_apart(page: Page, boxes: str, *, in_order: bool = True) -> list[str]:
    """The names ``boxes`` show, checked: all different, none cut by the browser (the text
    fits its box), each whole name in its title and for a screen reader."""
    shown = page.locator(boxes).evaluate_all("""es => es.map(e => {
        const short = e.querySelector('.short');
        return {text: (short || e).textContent.trim(), fits: e.scrollWidth <= e.clientWidth,
                full: short ? short.title : e.textContent.trim(),
                said: short ? short.nextElementSibling.textContent : e.textContent.trim()};
    })""")
    order = (lambda names: names) if in_order else sorted
    assert order([name["full"] for name in shown]) == order(ALIKE)
    assert order([name["said"] for name in shown]) == order(ALIKE)
    texts = [name["text"] for name in shown]
    assert len(set(texts)) == len(texts), texts
    assert all(name["fits"] for name in shown), shown
    return texts


def test_large_type_doubles_the_totals_and_fits_a_ten_player_sheet(phone, live_server, table):
    match_id = table.new_match("navawhist", ALIKE)
    table.play_navawhist(match_id, [0] * 10, [1] + [0] * 9)
    page = phone()
    take_pen(page, live_server + invitation_path(table, match_id))
    settled(page)
    normal = sizes(page)
    assert page.evaluate(NO_SIDEWAYS)
    # Franco and Francesco, Maria Grazia and Maria Luisa: told apart on the sheet and the
    # strip, nothing cut by the browser.
    heads = names_apart(page, "#names-row th.player .name")
    assert heads[1:3] == ["Fr…sco", "Mar…ia"] and heads[5] == "Franco"
    assert names_apart(page, "#strip .who")[1:3] == ["Fra…sco", "Mari…ia"]
    assert sorted(names_apart(page, ".bids .bidder-name", in_order=False)) == sorted(heads)
    assert serious(page) == []
    shot(page, "navawhist-10-names")
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
    assert names_apart(page, "#names-row th.player .name") == heads
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
