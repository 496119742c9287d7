"""The notices of success on a phone (390x844), in English and Italian, light and dark:
joining a table by its invitation, removing a phone without JavaScript, a deal that puts a
player out, and undo and redo, whose notice says what it did in at most two lines."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ..test_access import table_of
from ..test_scala40_web import ok
from ..test_scala40_web import play as play_scala40
from .conftest import invitation_path, settled, shot, take_pen
from .test_tables_browser import as_phone

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
LANGS = {"en": "en-GB", "it": "it-IT"}


def lines(page: Page, selector: str) -> float:
    """How many lines the text of ``selector`` takes: its height over its line height."""
    return page.locator(selector).evaluate(
        "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)")


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "You joined the table “Anna, Bruno, Carla, Dario”: this phone can now enter scores."),
    ("it", "Questo telefono ora fa parte del tavolo “Anna, Bruno, Carla, Dario”: può "
           "segnare i punti."),
])
def test_joining_lands_on_the_sheet_saying_what_the_phone_may_do(
        make_page, live_server, table, lang, said):
    match_id = table.new_match("navawhist", NAMES)
    page = make_page(locale=LANGS[lang], dark=lang == "it")
    take_pen(page, live_server + invitation_path(table, match_id))
    expect(page.locator("#notice")).to_have_text(said)
    expect(page.locator("#notice")).to_be_in_viewport()
    shot(page, f"joined-{lang}")


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "remove", "ask", "said"), [
    ("en", "Remove Phone 2", "Remove Phone 2?",
     "Phone 2 removed: it can no longer enter scores here"),
    ("it", "Togli Telefono 2", "Togliere Telefono 2?",
     "Telefono 2 tolto: non può più segnare punti qui"),
])
def test_removing_a_phone_asks_first_without_javascript(
        make_page, live_server, table, lang, remove, ask, said):
    match_id = table.new_match("navawhist", NAMES)
    guest = make_page()
    take_pen(guest, live_server + invitation_path(table, match_id))
    keeper = make_page(locale=LANGS[lang], javascript=False)
    as_phone(keeper, live_server, table)
    keeper.goto(f"{live_server}/tables/{table_of(table, match_id)}")
    expect(keeper.locator(".phones li")).to_have_count(2)
    keeper.get_by_role("link", name=remove).click()
    expect(keeper.locator("h1")).to_have_text(ask)
    shot(keeper, f"remove-ask-{lang}")
    keeper.get_by_role("button", name=remove).click()
    expect(keeper.locator("p.notice[role=status]")).to_contain_text(said)
    expect(keeper.locator(".phones li")).to_have_count(1)
    shot(keeper, f"removed-{lang}")


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Deal 1 saved. Bruno is out (120)."),
    ("it", "Smazzata 1 salvata. Bruno è fuori (120)."),
])
def test_a_deal_that_puts_a_player_out_says_so(make_page, live_server, table, lang, said):
    match_id = table.new_match("scala40", ["Anna", "Bruno", "Carla"])
    ok(play_scala40(table, match_id, 0, {1: 120, 2: 5}))
    page = make_page(locale=LANGS[lang])
    as_phone(page, live_server, table)
    page.goto(f"{live_server}/matches/{match_id}?saved=1#turn")
    expect(page.locator("#notice > span")).to_have_text(said)
    assert lines(page, "#notice > span") <= 2.2
    shot(page, f"out-{lang}")


@pytest.mark.browser
@pytest.mark.parametrize(("lang", "dark", "undone", "redone"), [
    ("en", False, "Undone: Hand 2.", "Redone: Hand 2."),
    ("it", False, "Annullata: Mano 2.", "Ripristinata: Mano 2."),
    ("en", True, "Undone: Hand 2.", "Redone: Hand 2."),
])
def test_undo_and_redo_say_what_in_two_lines_at_most(
        make_page, live_server, table, lang, dark, undone, redone):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [1, 0, 1, 1], [1, 0, 0, 0])
    table.play_navawhist(match_id, [2, 0, 1, 0], [0, 1, 0, 1])
    page = make_page(locale=LANGS[lang], dark=dark)
    as_phone(page, live_server, table)
    page.goto(f"{live_server}/matches/{match_id}?saved=2#turn")
    page.locator("#notice form[action$='/undo'] button").click()
    settled(page)
    expect(page.locator("#notice > span")).to_have_text(undone)
    shot(page, f"undone-{lang}{'-dark' if dark else ''}")
    # The notice and its buttons: each at most two lines on the phone.
    assert lines(page, "#notice > span") <= 2.2
    for button in page.locator("#notice button").all():
        assert button.evaluate("e => e.getBoundingClientRect().height") <= 2.2 * button.evaluate(
            "e => parseFloat(getComputedStyle(e).lineHeight)") + button.evaluate(
            "e => parseFloat(getComputedStyle(e).paddingTop) + "
            "parseFloat(getComputedStyle(e).paddingBottom) + 4")
    shot(page, f"undone-{lang}{'-dark' if dark else ''}")
    page.locator("#notice form[action$='/redo'] button").click()
    settled(page)
    expect(page.locator("#notice > span")).to_have_text(redone)
    assert lines(page, "#notice > span") <= 2.2
    shot(page, f"redone-{lang}{'-dark' if dark else ''}")
