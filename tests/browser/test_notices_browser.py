"""What a phone at 390x844 is told about changes: never "another phone" for its own, at
once for another phone's, inline when it was removed from the table, and why its correction
came second, its values kept.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of what the viewport shows.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from ..test_notices_web import remove
from .conftest import SHOTS, invitation_path, settled, take_pen
from .test_entry_flow import in_view
from .test_navawhist_browser import bid, create_match, key, tricks

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Dario"]
ANOTHER = re.compile("another phone", re.IGNORECASE)


def seen(page: Page, name: str) -> None:
    """What the viewport shows, under SCOREKEEPER_SHOTS when it is set."""
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png")


def polls(page: Page) -> list[str]:
    """The addresses of the phone's questions "did the sheet change?", as they are asked."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/live?since=" in r.url else None)
    return asked


def joined(page: Page, base: str, table, match_id: str) -> None:
    """The browser joins the table of the match ``table`` (the other phone) started."""
    take_pen(page, base + invitation_path(table, match_id))
    expect(page.locator(".entry")).to_be_visible()


def test_a_phone_alone_is_never_told_another_phone_saved(page, live_server):
    create_match(page, live_server)
    asked = polls(page)
    for _ in range(4):  # Hand 1, one card: every bid 0 (Anna deals and may bid 0)
        bid(page, 0)
    expect(page.locator("#tricks")).to_be_visible()
    page.wait_for_timeout(10_000)
    expect(page.get_by_text(ANOTHER)).to_have_count(0)
    tricks(page, [1, 0, 0, 0])
    expect(page.locator("#notice")).to_have_text(re.compile(r"^\s*Hand 1 saved\."))
    page.wait_for_timeout(10_000)
    expect(page.get_by_text(ANOTHER)).to_have_count(0)
    expect(page.locator("#notice")).to_contain_text("Hand 1 saved.")
    assert len(asked) >= 4, asked  # the phone did ask, all along


def test_another_phone_s_bid_and_undo_are_told_within_a_poll(page, live_server, table):
    match_id = table.new_match("navawhist", NAMES)
    joined(page, live_server, table, match_id)
    settled(page)
    start = time.monotonic()
    assert table.bid(match_id, 0).status_code == 303
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Hand 1: another phone entered a bid: this is the sheet now.",
                                   timeout=6_000)
    assert time.monotonic() - start < 6
    expect(page.locator("#bid-prompt")).to_have_text("Carla bids:")
    assert in_view(notice)
    seen(page, "notice-another-phone-bid")
    sheet = table.sheet(match_id)
    assert table.post(f"/matches/{match_id}/undo", {"version": sheet["version"]}).status_code == 303
    expect(notice).to_contain_text("Hand 1: another phone undid a change: this is the sheet now.",
                                   timeout=6_000)
    expect(page.locator("#bid-prompt")).to_have_text("Bruno bids:")


def test_a_removed_phone_s_tap_says_so_inside_the_page(page, live_server, table):
    match_id = table.new_match("navawhist", NAMES)
    joined(page, live_server, table, match_id)
    remove(table, match_id)
    settled(page)
    page.locator("#bid-form .keypad button[value='0']").click()
    line = page.locator("#notice")
    expect(line).to_have_text("This phone was removed from the table: you can still follow "
                              "the sheet.")
    expect(page.locator("header")).to_have_count(1)
    expect(page.locator(".brand")).to_have_count(1)
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("#entry, #bid-form, button[name=bid]")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(0)
    expect(page.locator(".viewing")).to_contain_text("You are following this sheet")
    settled(page)
    assert in_view(line)
    expect(line).to_be_focused()
    seen(page, "notice-removed-phone")
    # The line stays while nothing changes, and the page follows the sheet as a follower's.
    page.wait_for_timeout(5_000)
    expect(line).to_be_visible()
    assert table.bid(match_id, 0).status_code == 303
    expect(line).to_contain_text("Hand 1: another phone entered a bid", timeout=6_000)
    expect(page.locator("#hand-1")).to_contain_text("0/")
    expect(page.locator("header")).to_have_count(1)
    expect(page.locator("#entry")).to_have_count(0)


def test_a_stale_correction_keeps_its_values_and_says_why(page, live_server, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0, 0], [1, 0, 0, 0])
    joined(page, live_server, table, match_id)
    page.get_by_role("link", name="Correct hand 1").click()
    expect(page.locator("h1")).to_have_text("Correct hand 1")
    # The other phone corrects hand 1 first: Bruno took the trick.
    version = table.sheet(match_id)["version"]
    data = {"version": version, "number": 1, "trump": "",
            **{f"bids-{i}": 0 for i in range(4)},
            **{f"values-{i}": int(i == 1) for i in range(4)}}
    assert table.post(f"/matches/{match_id}/navawhist/1/edit", data).status_code == 303
    # This phone meant Carla took it, with hearts.
    key(page, "values-0", 0)
    key(page, "values-2", 1)
    page.locator(".trump-pick label.key", has_text="♥").click()
    page.get_by_role("button", name="Save the correction").click()
    message = page.locator("#entry-error")
    expect(message).to_contain_text("Hand 1: another phone saved a correction (")
    expect(message).to_contain_text("Your values are kept in the form below")
    expect(message).to_be_focused()
    assert in_view(message)
    seen(page, "notice-stale-correction")
    for name, value in (("values-0", "0"), ("values-1", "0"), ("values-2", "1")):
        expect(page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()
    expect(page.locator("input[name=trump][value='♥']")).to_be_checked()
    # The sheet as it is now: the other phone's correction.
    expect(page.locator("#hand-1 td").nth(2)).to_contain_text("0/1")
    # Saved again, this phone's values replace it.
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#notice")).to_contain_text("Correction saved.")
    assert table.sheet(match_id)["hands"][0]["inputs"]["tricks"] == [0, 0, 1, 0]
