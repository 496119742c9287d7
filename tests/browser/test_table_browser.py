"""The evening at the table in Chromium at 390x844: the screen kept awake, the start of a
match, tap targets and words.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import settled, shot
from .test_accessibility import serious
from .test_games_browser import TRICKS, TRUMP, create_match, pick_closer

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


# Every control a finger may tap in the page's main part: buttons, links, fields, choices
# (a radio or checkbox is tapped through its label) and disclosures; what is hidden is skipped.
SMALL_TARGETS = """() => {
  const small = [], seen = new Set();
  for (const el of document.querySelectorAll(
      'main button, main a, main select, main input, main summary, main label.key')) {
    if (el.type === 'hidden') continue;
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      target = el.closest('label') || document.querySelector(`label[for="${el.id}"]`) || el;
    }
    if (seen.has(target)) continue;
    seen.add(target);
    const box = target.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    if (box.width < 44 || box.height < 44) {
      small.push(`${target.tagName.toLowerCase()}.${target.className} `
                 + `"${target.textContent.trim().slice(0, 24)}" ${box.width}x${box.height}`);
    }
  }
  return [seen.size, small];
}"""

# Text that overflows its key or label: a word broken across the edge.
OVERFLOWING = """() => [...document.querySelectorAll('main .key, main label, main legend')]
  .filter(el => el.getBoundingClientRect().width && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.textContent.trim().slice(0, 24))"""


def check_targets(page: Page, where: str) -> None:
    """Every tap target of the page is at least 44x44 CSS px and no text overflows its key."""
    settled(page)
    counted, small = page.evaluate(SMALL_TARGETS)
    assert counted > 5, where
    assert small == [], where
    assert page.evaluate(OVERFLOWING) == [], where
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, where


SEVEN = ["Annalisa", "Bartolomeo", "Carla", "Dario", "Elisabetta", "Fede", "Gianmaria"]


def test_every_entry_control_is_a_44_pixel_target(page, live_server):
    create_match(page, live_server, "navawhist", SEVEN)
    check_targets(page, "navawhist bids")
    for _ in range(7):
        settled(page)
        page.locator(".keypad button:not([disabled])").first.click()
    expect(page.locator("#tricks")).to_be_visible()
    check_targets(page, "navawhist tricks, 7 players")
    shot(page, "targets-navawhist-tricks")
    create_match(page, live_server, "fortyfive", SEVEN[:6])
    for mode in ("Trick winners", "Tricks per side", "Trick helper"):
        page.locator(".ff-modes a", has_text=mode).click()
        expect(page.locator(".ff-modes a[aria-current]")).to_have_text(mode)
        check_targets(page, f"fortyfive {mode}")
    page.locator(".ff-trump label.key").nth(1).click()
    check_targets(page, "fortyfive trick helper with a trump")
    create_match(page, live_server, "scala40", SEVEN[:6])
    check_targets(page, "scala40")
    pick_closer(page, SEVEN[0])
    check_targets(page, "scala40 with the keypads")
    shot(page, "targets-scala40")
    page.locator(".stalemate summary").click()
    check_targets(page, "scala40 stalemate asked")
    create_match(page, live_server, "quarantotto", SEVEN[:4])
    page.locator("label.key.pick").first.click()
    check_targets(page, "quarantotto")
    create_match(page, live_server, "cavallore", SEVEN[:1])
    check_targets(page, "cavallore")
    page.goto(f"{live_server}/matches/new?game=scala40")
    check_targets(page, "new match")


def test_the_joker_key_is_as_large_as_the_others(page, live_server):
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    pick_closer(page, "Anna")
    pad = page.locator("#pad-1")
    joker = pad.get_by_role("button", name="Joker")
    king = pad.locator("button[value='1:K']")
    size = "el => getComputedStyle(el).fontSize"
    assert joker.evaluate(size) == king.evaluate(size)
    assert joker.evaluate("el => el.scrollWidth <= el.clientWidth")


def test_the_plus_key_types_a_sum(page, live_server):
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    pick_closer(page, "Anna")
    field = page.locator("#values-1")
    field.fill("10")
    page.locator("#pad-1 .key.plus").click()
    expect(field).to_have_value("10+")
    expect(field).to_be_focused()
    page.keyboard.type("15")
    page.keyboard.press("Tab")
    expect(page.locator("#pad-value-1")).to_have_text("25")


@pytest.mark.parametrize(("locale", "dark"), [("en-GB", False), ("it-IT", True)],
                         ids=["english-light", "italian-dark"])
def test_the_pages_changed_here_pass_axe(make_page, live_server, locale, dark):
    page = make_page(locale=locale, dark=dark)
    found = {}
    page.goto(f"{live_server}/matches/new?game=fortyfive")
    for index, name in enumerate(SEVEN[:6]):
        if index >= page.locator(".players li").count():
            settled(page)
            page.locator("button[value=add]").click()
            expect(page.locator(".players li")).to_have_count(index + 1)
        page.fill(f"#players-{index}", name)
    page.locator("#opt_three_pairs").check()
    found["new fortyfive, six"] = serious(page)
    shot(page, f"axe-new-fortyfive-{locale}")
    page.goto(f"{live_server}/matches/new?game=scala40")
    for index, name in enumerate(SEVEN[:4]):
        page.fill(f"#players-{index}", name)
    page.locator("#opt_reentry").check()
    found["new scala40, re-entry"] = serious(page)
    page.locator("button[value=start]").click()
    expect(page.locator(".entry")).to_be_visible()
    page.locator(".stalemate summary").click()
    found["scala40, stalemate asked"] = serious(page)
    shot(page, f"axe-scala40-stalemate-{locale}")
    page.locator("label.key.pick").first.click()
    settled(page)
    for seat in (1, 2, 3):
        page.fill(f"#values-{seat}", "150")
        page.locator(f"#values-{seat}").press("Tab")
        settled(page)
    page.locator("button[value=save]").click()
    expect(page.locator(".ranking")).to_be_visible()
    settled(page)
    page.get_by_role("button", name="Correct a hand" if locale == "en-GB" else "Correggi una mano")\
        .click()
    expect(page.locator("#correcting")).to_be_visible()
    found["finished, to correct"] = serious(page)
    shot(page, f"axe-correcting-{locale}")
    page.goto(f"{live_server}/")
    found["home"] = serious(page)
    assert {k: v for k, v in found.items() if v} == {}


def test_the_trick_helper_keeps_its_keys_still(page, live_server):
    names = ["Annalisa", "Bartolomeo", "Carla", "Dario"]
    create_match(page, live_server, "fortyfive", names)
    page.locator(".ff-modes a", has_text="Trick helper").click()
    expect(page.locator("#card-prompt")).to_have_text("Choose the trump")
    settled(page)
    page.locator(f".ff-trump input[value='{TRUMP}']").check()
    expect(page.locator("#card-prompt")).to_have_text("Card played by Bartolomeo:")
    suits = page.locator(".ff-suits[role=radiogroup]")
    ranks = page.locator(".ff-ranks")

    def where() -> tuple[float, float]:
        """The top of the suit and rank keys on the page (not in the scrolled viewport)."""
        settled(page)
        top = "el => el.getBoundingClientRect().top + window.scrollY"
        return suits.evaluate(top), ranks.evaluate(top)

    start = where()
    played = []
    for trick in TRICKS:
        for card in trick:
            suits.locator(f"input[value='{card[-1]}']").check()
            assert where() == start
            ranks.get_by_role("button", name=card[:-1], exact=True).click()
            played.append(card)
            expect(page.locator("input[name=cards]")).to_have_value(" ".join(played))
            assert where() == start, card
    expect(page.locator("#card-prompt")).to_have_text("The five tricks are in.")
    shot(page, "fortyfive-helper-done")


def test_a_sixth_trick_winner_is_answered(page, live_server):
    create_match(page, live_server, "fortyfive", ["Anna", "Bruno", "Carla"])
    taps = page.locator(".ff-taps")
    for name in ["Anna", "Bruno", "Anna", "Bruno", "Carla"]:
        settled(page)
        taps.get_by_role("button", name=name).click()
    expect(page.locator("input[name=winners]")).to_have_value("0,1,0,1,2")
    settled(page)
    taps.get_by_role("button", name="Anna").click()
    expect(page.locator(".alert")).to_contain_text(
        "The five trick winners are in: save the hand, or clear the last tap to change one.")
    expect(page.locator("input[name=winners]")).to_have_value("0,1,0,1,2")


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_abandon_then_delete_a_match(make_page, live_server, javascript):
    page = make_page(javascript=javascript)
    create_match(page, live_server, "scala40", ["Anna", "Bruno"])
    url = page.url
    page.get_by_role("button", name="Abandon the match").click()
    expect(page.locator(".match-head")).to_contain_text("Abandoned")
    expect(page.locator(".entry")).to_have_count(0)
    page.goto(f"{live_server}/")
    expect(page.locator("h3.list-head:has-text('Abandoned') + .cards .card")).to_have_count(1)
    page.goto(url)
    page.get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Delete this match?")).to_be_visible()
    shot(page, f"delete-confirm-{javascript}")
    if javascript:  # axe runs inside the page
        assert serious(page) == []
    page.get_by_role("button", name="Yes, delete it").click()
    expect(page.get_by_text("No match in progress.")).to_be_visible()
    expect(page.locator(".card")).to_have_count(0)
