"""The live region of the match page, as a screen reader finds it in Chromium's accessibility
tree: a save is said once on the phone that made it and once on a phone following the sheet,
never on the follower's first load nor again at its next poll; axe still finds nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import settled, shot
from .test_accessibility import serious
from .test_games_browser import create_match

pytestmark = pytest.mark.browser

SAVED = re.compile(r"^Deal 1 saved\. Points: Anna \d+\.$")
POLL_S = 4  # every follower asks every 4 s (templates/matches/_live.html)


def spoken(page: Page) -> list[tuple[str, str]]:
    """Each live region of Chromium's accessibility tree that is not ignored, with the text
    it holds: (its politeness, its text)."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    by_id = {node["nodeId"]: node for node in nodes}

    def text(node: dict) -> str:
        if node.get("role", {}).get("value") == "StaticText":
            return node.get("name", {}).get("value", "")
        return "".join(text(by_id[child]) for child in node.get("childIds", [])
                       if child in by_id)

    regions = []
    for node in nodes:
        live = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        if not node.get("ignored") and node.get("role", {}).get("value") == "status":
            regions.append((live.get("live"), text(node)))
    return regions


def test_a_save_is_said_once_on_both_phones(phone, live_server):
    keeper, follower = phone(), phone()
    create_match(keeper, live_server, "cavallore", ["Anna"])
    follower.goto(keeper.url.split("#")[0].split("?")[0])
    # First load: the region is there, polite, and says nothing.
    expect(follower.locator("#announce")).to_have_text("")
    assert spoken(follower) == [("polite", "")]
    follower.evaluate("""() => {
        window.said = [];
        const region = document.getElementById('announce');
        new MutationObserver(() => window.said.push(region.textContent))
            .observe(region, {childList: true, subtree: true, characterData: true});
    }""")

    settled(keeper)
    keeper.locator(".cr-quick button[value='30']").click()
    expect(keeper.locator("#deal-1")).to_contain_text("30")
    expect(keeper.locator("#announce")).to_have_text(SAVED)
    [(politeness, words)] = spoken(keeper)
    assert politeness == "polite" and SAVED.match(words)
    shot(keeper, "announce-saved")

    # The follower's poll brings the change: the same words, once.
    expect(follower.locator("#announce")).to_have_text(words, timeout=3 * POLL_S * 1000)
    assert spoken(follower) == [("polite", words)]
    follower.wait_for_timeout((POLL_S + 1) * 1000)  # a poll that finds nothing new
    assert follower.evaluate("window.said") == [words]
    assert spoken(follower) == [("polite", words)]
    # Seen by no one: the region takes no room on the page.
    box = follower.locator("#announce").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    assert serious(keeper) == [] and serious(follower) == []


def test_a_page_a_change_led_to_says_it_once_it_is_read(phone, live_server):
    keeper = phone()
    create_match(keeper, live_server, "cavallore", ["Anna"])
    settled(keeper)
    keeper.locator(".cr-quick button[value='30']").click()
    expect(keeper.locator("#announce")).to_have_text(SAVED)
    words = keeper.locator("#announce").text_content()
    # The page a change made elsewhere leads to (who plays; a plain post) carries the words,
    # said once it is read; its address forgets them, and a reload says nothing.
    sheet = keeper.url.split("#")[0].split("?")[0]
    keeper.goto(f"{sheet}?step=players#turn")
    expect(keeper.locator("#announce")).to_have_text(words)
    assert spoken(keeper) == [("polite", words)]
    assert "step=" not in keeper.url
    keeper.reload()
    settled(keeper)
    keeper.wait_for_timeout(1000)
    expect(keeper.locator("#announce")).to_have_text("")


def test_a_new_match_at_the_table_is_told_within_a_poll_one_tap_away(phone, live_server):
    keeper, follower = phone(), phone()
    create_match(keeper, live_server, "cavallore", ["Anna"])
    old = keeper.url.split("#")[0].split("?")[0]
    follower.goto(old)
    # Another page of the table (the same phone's second tab here) starts a new match.
    other = keeper.context.new_page()
    create_match(other, live_server, "navawhist", ["Bruno", "Carla", "Dario"])
    told = "The table started a new match: Navawhist, Bruno deals first."
    for page in (keeper, follower):  # the editor's sheet.js poll, the follower's htmx poll
        notice = page.locator(".notice.moved")
        expect(notice).to_contain_text(told, timeout=3 * POLL_S * 1000)
        expect(page.locator("#announce")).to_have_text(told)
        page.wait_for_timeout((POLL_S + 1) * 1000)  # the next poll: nothing new, said once
        expect(notice).to_have_count(1)
    shot(keeper, "table-moved")
    assert serious(keeper) == []
    keeper.get_by_role("link", name="Open the new match").click()
    expect(keeper.locator("h1")).to_have_text("Navawhist")
    assert keeper.url.split("?")[0] == other.url.split("#")[0].split("?")[0]
