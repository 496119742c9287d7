"""The evening at the table in Chromium at 390x844: the screen kept awake, the start of a
match, tap targets and words.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import settled, shot
from .test_games_browser import create_match, pick_closer

pytestmark = pytest.mark.browser

HIDE = """hidden => {
    Object.defineProperty(document, 'visibilityState', {value: hidden ? 'hidden' : 'visible',
                                                         configurable: true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def wake(page: Page) -> str | None:
    """What static/js/wake.js last did: held, released or refused."""
    return page.evaluate("() => document.documentElement.dataset.wakeLock || null")


def test_the_screen_stays_awake_while_the_match_is_played(page, live_server):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    assert page.evaluate("() => 1") == 1
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    assert page.evaluate("() => isSecureContext && 'wakeLock' in navigator")
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_contain_text(": yes")
    page.wait_for_function("() => document.documentElement.dataset.wakeLock === 'held'")
    shot(page, "wake-on")
    # The browser lets the lock go when the page is hidden; it is taken again on return.
    page.evaluate(HIDE, True)
    assert wake(page) == "released"
    page.evaluate(HIDE, False)
    page.wait_for_function("() => document.documentElement.dataset.wakeLock === 'held'")
    # Off by hand: released, and still off after a reload (remembered on this phone).
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text(": no")
    assert wake(page) == "released"
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert wake(page) is None
    toggle.click()
    page.wait_for_function("() => document.documentElement.dataset.wakeLock === 'held'")
    # A deal that ends the match: the toggle goes and the lock is let go.
    pick_closer(page, "Anna")
    page.fill("#values-1", "120")
    settled(page)
    page.locator("button[value=save]").click()
    expect(page.locator(".ranking, .match-head strong").first).to_be_visible()
    expect(toggle).to_have_count(0)
    page.wait_for_function("() => document.documentElement.dataset.wakeLock === 'released'")
    assert errors == []


def test_a_refused_wake_lock_changes_nothing_else(make_page, live_server):
    page = make_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("""navigator.wakeLock.request = () =>
        Promise.reject(new DOMException('battery saver', 'NotAllowedError'));""")
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    page.wait_for_function("() => document.documentElement.dataset.wakeLock === 'refused'")
    expect(page.get_by_role("button", name="Keep the screen on")).to_be_visible()
    expect(page.locator(".entry h2")).to_have_text("Deal 1")
    assert errors == []


def test_no_toggle_where_the_screen_cannot_be_held(make_page, live_server):
    page = make_page()
    page.add_init_script("delete Navigator.prototype.wakeLock;")
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    assert page.evaluate("() => 'wakeLock' in navigator") is False
    expect(page.locator("[data-wake-toggle]")).to_be_hidden()
    assert wake(page) is None


def test_starting_a_match_shows_only_the_options_in_force(page, live_server):
    page.goto(f"{live_server}/matches/new?game=quarantotto")
    page.fill("#players-0", "Anna")
    page.fill("#players-1", "Bruno")
    games, target = page.locator("#opt_games"), page.locator("#opt_target")
    # As many games as players: no length field; one field for the length chosen.
    expect(games).to_be_hidden()
    expect(target).to_be_hidden()
    page.select_option("#opt_length", "games")
    expect(games).to_be_visible()
    expect(target).to_be_hidden()
    page.select_option("#opt_length", "target")
    expect(target).to_be_visible()
    expect(games).to_be_hidden()
    shot(page, "new-quarantotto-target")
    # Switching game keeps the names typed.
    page.get_by_role("button", name="Scala 40").click()
    expect(page.locator("input[name=game]")).to_have_value("scala40")
    settled(page)
    expect(page.locator("#players-0")).to_have_value("Anna")
    expect(page.locator("#players-1")).to_have_value("Bruno")
    expect(page.locator("#opt_deals")).to_be_hidden()
    expect(page.locator("#opt_reentry_limit")).to_be_hidden()
    page.locator("#opt_reentry").check()
    expect(page.locator("#opt_reentry_limit")).to_be_visible()
    page.select_option("#opt_end", "deals")
    expect(page.locator("#opt_deals")).to_be_visible()
    expect(page.locator("#opt_threshold")).to_be_hidden()


def test_forty_five_partners_follow_the_names(page, live_server):
    page.goto(f"{live_server}/matches/new?game=fortyfive")
    for index, name in enumerate(["Anna", "Bruno", "Carla", "Dario"]):
        page.fill(f"#players-{index}", name)
    partners = page.locator(".partners li")
    expect(partners).to_have_text(["Anna + Carla", "Bruno + Dario"])
    page.fill("#players-3", "Elsa")
    expect(partners.nth(1)).to_have_text("Bruno + Elsa")
    for _ in range(2):
        settled(page)
        page.get_by_role("button", name="Add a player").click()
    settled(page)
    page.fill("#players-4", "Fede")
    page.fill("#players-5", "Gino")
    expect(page.locator(".partners:visible li")).to_have_text(
        ["Anna + Carla + Fede", "Bruno + Elsa + Gino"])
    page.locator("#opt_three_pairs").check()
    expect(page.locator(".partners:visible li")).to_have_text(
        ["Anna + Elsa", "Bruno + Fede", "Carla + Gino"])
    shot(page, "new-fortyfive-three-pairs")


def test_a_known_player_fills_the_first_empty_row(page, live_server):
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    page.goto(f"{live_server}/matches/new?game=navawhist")
    page.fill("#players-0", "Carla")
    page.get_by_role("button", name="Bruno").click()
    expect(page.locator("#players-1")).to_have_value("Bruno")
    expect(page.locator(".players li")).to_have_count(4)


def test_the_stalemate_is_an_action_asked_twice_away_from_save(page, live_server):
    create_match(page, live_server, "scala40", ["Anna", "Bruno", "Carla"])
    save = page.locator("button[value=save]")
    opener = page.locator(".stalemate summary")
    expect(opener).to_have_text("Deal annulled - stalemate")
    confirm = page.get_by_role("button", name="Yes, annul deal 1")
    expect(confirm).to_be_hidden()
    # Apart from Save: a finger aimed at one cannot land on the other.
    gap = opener.bounding_box()["y"] - (save.bounding_box()["y"] + save.bounding_box()["height"])
    assert gap >= 24, gap
    opener.click()
    expect(confirm).to_be_visible()
    shot(page, "scala40-stalemate")
    settled(page)
    confirm.click()
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    expect(page.locator("#deal-1")).to_contain_text("annulled")


def test_the_stalemate_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    page.locator(".stalemate summary").click()
    page.get_by_role("button", name="Yes, annul deal 1").click()
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
