"""axe-core on every page a player sees: no violation of serious or critical impact."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()


def serious(page: Page) -> list[str]:
    """The serious and critical violations on the page, one line each."""
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


def pages(table) -> dict[str, str]:
    """One match of each game, in progress, plus the home and new-match pages."""
    urls = {"home": "/", "new": "/matches/new"}
    for game in ("navawhist", "quarantotto", "scala40", "fortyfive", "cavallore"):
        urls[f"new-{game}"] = f"/matches/new?game={game}"
    bidding = table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    urls["bidding"] = f"/matches/{bidding}"
    tricks = table.new_match("navawhist", ["Anna", "Bruno", "Carla"])
    table.play_navawhist(tricks, [0, 0, 0], [1, 0, 0])
    table.play_navawhist(tricks, [1, 0, 0], [1, 1, 0])
    for _ in range(3):
        table.bid(tricks, 0)
    urls["tricks"] = f"/matches/{tricks}"
    urls["edit"] = f"/matches/{tricks}/hands/1/edit"
    return urls


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_no_serious_violations(make_page, live_server, table, dark):
    found = {}
    for name, url in pages(table).items():
        page = make_page(dark=dark)
        page.goto(live_server + url)
        problems = serious(page)
        if problems:
            found[name] = problems
    assert found == {}


def test_the_check_finds_a_violation(page):
    page.set_content("<html lang=en><body><main><img src='x.png'><button></button></main></body>")
    found = " ".join(serious(page))
    assert "image-alt" in found and "button-name" in found
