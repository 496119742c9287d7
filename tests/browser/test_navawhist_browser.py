"""Navawhist at 390x844 in Chromium: the flow a phone at the table goes through."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import shot
from .test_games_browser import unfold

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def create_match(page: Page, base: str, names: list[str] = NAMES) -> None:
    page.goto(f"{base}/matches/new")
    for index, name in enumerate(names):
        if index >= page.locator(".players li").count():
            page.get_by_role("button", name=re.compile("Add a player|Aggiungi")).click()
            expect(page.locator(".players li")).to_have_count(index + 1)
        page.fill(f"#players-{index}", name)
    while page.locator(".players li").count() > len(names):
        rows = page.locator(".players li").count()
        page.locator(f"button[value='remove:{rows - 1}']").click()
        expect(page.locator(".players li")).to_have_count(rows - 1)
    page.locator("button[value=start]").click()
    expect(page.locator(".entry")).to_be_visible()


def bid(page: Page, value: int) -> None:
    bidder = page.locator("input[name=seat]").get_attribute("value")
    page.locator(f".keypad button[value='{value}']").click()
    expect(page.locator("input[name=seat]").or_(page.locator("#tricks"))).not_to_have_attribute(
        "value", bidder or "")


def tricks(page: Page, taken: list[int]) -> None:
    for seat, count in enumerate(taken):
        unfold(page, f"#tricks fieldset.seat-keys:has(input[name='values-{seat}'])")
        page.locator(f"label.key:has(input[name='values-{seat}'][value='{count}'])").click()
        expect(page.locator(f"input[name='values-{seat}'][value='{count}']")).to_be_checked()
    page.locator("button[value=save]").click()


def key(page: Page, name: str, value: int) -> None:
    """Tap ``value`` on the keys ``name`` (``bids-2``, ``values-2``) of a correction, opening
    that player's line first when it is folded."""
    line = page.locator(f"fieldset.seat-keys:has(input[name='{name}'])")
    if "open" not in (line.get_attribute("class") or "").split():
        line.click(position={"x": 12, "y": 12})
        expect(line).to_have_class(re.compile(r"\bopen\b"))
    page.locator(f"label.key:has(input[name='{name}'][value='{value}'])").click()
    expect(page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()


def totals(page: Page) -> list[str]:
    return [t.strip().lstrip("★") for t in page.locator("tr.totals td").all_inner_texts()]


def test_play_three_hands_with_the_forbidden_bid(page, live_server):
    create_match(page, live_server)
    expect(page.locator(".entry h2")).to_contain_text("Hand 1 of 16")
    # Hand 1 (one card, Anna deals): Bruno, Carla, Dario bid 0; Anna may not bid 1.
    for _ in range(3):
        bid(page, 0)
    forbidden = page.locator(".keypad button[value='1']")
    expect(forbidden).to_be_disabled()
    expect(page.locator("#forbidden-note")).to_contain_text("may not bid 1")
    # The server refuses it too, even when the button is forced.
    forbidden.evaluate("b => b.disabled = false")
    forbidden.click()
    expect(page.locator(".alert")).to_contain_text("Anna deals and may not bid 1")
    bid(page, 0)
    tricks(page, [1, 0, 0, 0])
    expect(page.locator(".entry h2")).to_contain_text("Hand 2 of 16")
    # Anna bid 0 and took the trick: off by one, 0; the others were exact: 1 + 0.
    assert totals(page) == ["0", "1", "1", "1"]
    # Hand 2 (two cards, Bruno deals): Carla, Dario, Anna bid 1, 0, 0; Bruno not 1.
    for value in (1, 0, 0):
        bid(page, value)
    expect(page.locator(".keypad button[value='1']")).to_be_disabled()
    bid(page, 2)
    tricks(page, [0, 2, 0, 0])
    # Hand 3: three cards, Carla deals.
    for value in (0, 0, 1):
        bid(page, value)
    expect(page.locator(".keypad button[value='2']")).to_be_disabled()
    bid(page, 0)
    # The tricks left to assign follow the taps; the last one fills itself in. Dario bids
    # first, so his keys are the ones open: Anna's and Bruno's lines are opened by a tap.
    unfold(page, "#tricks fieldset.seat-keys:has(input[name='values-0'])")
    page.locator("label.key:has(input[name='values-0'][value='1'])").click()
    expect(page.locator(".left")).to_contain_text("2")
    unfold(page, "#tricks fieldset.seat-keys:has(input[name='values-1'])")
    page.locator("label.key:has(input[name='values-1'][value='2'])").click()
    expect(page.locator(".left")).to_contain_text("0")
    expect(page.locator(".preview").first).to_be_visible()
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_contain_text("Hand 4 of 16")
    expect(page.locator("#hand-3 td").nth(1)).to_contain_text("0/1")


def test_correct_a_past_hand(page, live_server):
    create_match(page, live_server)
    for value in (0, 0, 0, 0):
        bid(page, value)
    tricks(page, [0, 1, 0, 0])
    before = totals(page)
    # The row's button, named in words, 44 px high, in a sheet that does not scroll sideways.
    correct = page.get_by_role("link", name="Correct hand 1")
    assert correct.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    correct.click()
    expect(page.locator("h1")).to_contain_text("Correct hand 1")
    # The entry's keys: the bids in bid order (Anna deals, last), then the tricks, prefilled.
    bidders = page.locator("#correct-bids ~ fieldset legend").all_inner_texts()
    assert [name.split()[0] for name in bidders] == \
        ["Bruno", "Carla", "Dario", "Anna"]
    expect(page.locator("input[name='values-1'][value='1']")).to_be_checked()
    key(page, "values-1", 0)
    key(page, "values-0", 1)
    shot(page, "navawhist-correction")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".entry h2")).to_contain_text("Hand 2 of 16")
    after = totals(page)
    assert after != before
    assert after == ["0", "1", "1", "1"]


def test_switch_language(page, live_server):
    page.goto(live_server)
    expect(page.get_by_role("link", name="New match")).to_be_visible()
    page.get_by_role("button", name="Italiano").click()
    expect(page.get_by_role("link", name="Nuova partita")).to_be_visible()
    page.goto(f"{live_server}/matches/new")
    expect(page.locator("h1")).to_have_text("Nuova partita")


def test_a_hand_without_javascript(make_page, live_server):
    page = make_page(javascript=False)
    create_match(page, live_server, ["Anna", "Bruno"])
    expect(page.locator(".entry h2")).to_contain_text("2 cards")
    for value in (1, 0):
        page.locator(f".keypad button[value='{value}']").click()
    page.locator("label.key:has(input[name='values-0'][value='1'])").click()
    page.locator("label.key:has(input[name='values-1'][value='1'])").click()
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_contain_text("Hand 2 of 18")
    # Anna deals, so Bruno bids first: Bruno bid 1 made 1 (2 + 1), Anna bid 0 made 1.
    assert totals(page) == ["0", "3"]


# A CSRF token is signed once a second, so a reload a second later carries another one.
SWAPPED = """() => ['table.sheet', '#strip', '#chart', '#actions'].map(
    selector => document.querySelector(selector).outerHTML
        .replace(/ ?htmx-(added|settling|swapping|request)/g, '').replace(/ class=""/g, '')
        .replace(/name="csrf_token" value="[^"]*"/g, 'name="csrf_token"'))"""


def test_a_save_redraws_the_turn_and_what_it_changed_as_a_reload_shows_them(page, live_server):
    """A save's answer is the turn and, out of band, the rows, totals, strip, chart and
    actions it changed: the page it leaves is the one a reload of the sheet shows."""
    create_match(page, live_server)
    answers: list[str] = []
    page.on("response", lambda response: answers.append(response.text())
            if response.url.endswith("/navawhist/tricks")
            and "action=save" in (response.request.post_data or "") else None)
    for number, (bids, taken) in enumerate([([0, 0, 0, 0], [1, 0, 0, 0]),
                                            ([1, 0, 0, 2], [0, 2, 0, 0])], start=1):
        for value in bids:
            bid(page, value)
        tricks(page, taken)
        expect(page.locator(".entry h2")).to_contain_text(f"Hand {number + 1} of 16")
        expect(page.locator("#notice")).to_contain_text(f"Hand {number} saved.")
        expect(page.locator("#notice button", has_text="Undo")).to_be_visible()
        assert page.evaluate("document.querySelector('#turn').getBoundingClientRect().top") \
            < 200
        # htmx puts the classes of what it swapped back as they were once it settles.
        page.wait_for_function("!document.querySelector('.htmx-settling, .htmx-added')")
        swapped = page.evaluate(SWAPPED)
        page.reload()
        expect(page.locator(".entry h2")).to_contain_text(f"Hand {number + 1} of 16")
        assert page.evaluate(SWAPPED) == swapped
    # The answers held the turn and what changed, not the whole sheet.
    assert len(answers) == 2 and all(
        answer.lstrip().startswith('<div id="turn"') and 'id="live"' not in answer
        and f'id="hand-{number}"' in answer and f'id="hand-{number + 2}"' not in answer
        for number, answer in enumerate(answers, start=1))
    assert totals(page) == ["2", "5", "1", "3"]
