"""Undo that people trust, at 390x844: Undo takes back the latest change and says which,
Redo puts it back, an undo of the redo takes it back again; the buttons are in view beside
the entry after each tap, and the history tells every step."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import settled, shot
from .test_entry_flow import in_view
from .test_games_browser import create_match

pytestmark = pytest.mark.browser


def step(page: Page, name: str) -> None:
    """Tap the Undo or Redo button (the one beside the entry), once it is in view."""
    button = page.locator("#turn").get_by_role("button", name=name)
    expect(button).to_be_visible()
    settled(page)
    assert in_view(button), f"{name} is out of view"
    button.click()


def test_undo_redo_and_the_undo_of_a_redo(page, live_server):
    create_match(page, live_server, "cavallore", ["Anna"])
    page.locator(".cr-win-button").click()
    expect(page.locator("#deal-1")).to_contain_text("won")
    settled(page)
    page.locator(".cr-quick button[value='30']").click()
    expect(page.locator("#deal-2")).to_contain_text("30")
    shot(page, "undo-0-saved")

    step(page, "Undo: delete Deal 2")
    expect(page.locator("#notice")).to_contain_text("Undone: Deal 2.")
    expect(page.locator("#deal-2")).to_have_count(0)
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    expect(page.locator("#deal-1")).to_contain_text("won")  # only the latest is taken back
    shot(page, "undo-1-undone")

    step(page, "Redo: save Deal 2 again")
    expect(page.locator("#notice")).to_contain_text("Redone: Deal 2.")
    expect(page.locator("#deal-2")).to_contain_text("30")
    expect(page.locator(".entry h2")).to_have_text("Deal 3")
    shot(page, "undo-2-redone")

    step(page, "Undo: delete Deal 2")  # the undo of the redo
    expect(page.locator("#deal-2")).to_have_count(0)
    expect(page.locator("#deal-1")).to_contain_text("won")
    redo = page.locator("#turn").get_by_role("button", name="Redo: save Deal 2 again")
    expect(redo).to_be_visible()
    shot(page, "undo-3-undone-again")

    page.goto(page.url.split("#")[0].split("?")[0] + "/history")
    entries = page.locator("main").inner_text()
    assert entries.count("redone") == 1, entries
    assert entries.count("undone") >= 2, entries
