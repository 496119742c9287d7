"""axe-core on every page a player sees: no violation of serious or critical impact."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from .conftest import invitation_path, take_pen

pytestmark = pytest.mark.browser

AXE = Axe()


def serious(page: Page) -> list[str]:
    """The serious and critical violations on the page, one line each."""
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


NAMES = ["Anna", "Bruno", "Carla"]
# Where each game's next hand is posted, and two or three hands of it as the page posts them.
ENTRY = {"quarantotto": "quarantotto/game", "scala40": "scala40/deal",
         "fortyfive": "fortyfive/hand", "cavallore": "cavallore/deal"}
HANDS: dict[str, list[dict[str, Any]]] = {
    "quarantotto": [{"action": "save", "closer": 0, "values-1": "K 5", "values-2": "10+2"},
                    {"action": "save", "closer": 1, "values-0": "A", "values-2": "7 7"}],
    "scala40": [{"action": "save", "closer": 0, "values-1": "K", "values-2": "7 7"},
                {"action": "save", "closer": 2, "values-0": "A", "never": 1}],
    # The trick helper's cards (hearts are trumps, Bruno leads), then five trick winners.
    "fortyfive": [{"action": "save", "mode": "cards", "trump": "♥",
                   "cards": "2♣ K♣ 3♣ 5♥ 3♠ 4♠ Q♦ J♦ 10♦ A♠ 2♥ 8♦ 6♠ 7♠ K♠"},
                  {"action": "save", "mode": "winners", "winners": "0,1,2,0,1", "bonus": "none"}],
    "cavallore": [{"placed": 36, "seat": 0}, {"placed": 20, "seat": 0}, {"placed": 31, "seat": 0}],
}
EDIT = {"quarantotto": "quarantotto/1/edit", "scala40": "scala40/1/edit",
        "fortyfive": "fortyfive/1/edit?entry=cards", "cavallore": "cavallore/1/edit"}


def play(table, game: str, hands: list[dict[str, Any]]) -> str:
    """A new match of ``game`` with ``hands`` entered over HTTP."""
    match_id = table.new_match(game, NAMES[:1] if game == "cavallore" else NAMES)
    for data in hands:
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/{ENTRY[game]}", {
            "version": sheet["version"], "number": sheet["next"]["number"], **data})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return match_id


def pages(table) -> dict[str, str | tuple[str, str]]:
    """One match of each game, in progress, plus the home and new-match pages; a pair is an
    invitation taken, then the page to look at."""
    urls = {"home": "/", "new": "/matches/new", "sheets": "/sheets", "backup": "/backup"}
    for game in ("navawhist", "quarantotto", "scala40", "fortyfive", "cavallore"):
        urls[f"new-{game}"] = f"/matches/new?game={game}"
    bidding = table.new_match("navawhist", NAMES)
    urls["bidding"] = invitation_path(table, bidding)
    urls["follow"] = f"/matches/{bidding}"
    tricks = table.new_match("navawhist", NAMES)
    table.play_navawhist(tricks, [0, 0, 0], [1, 0, 0])
    table.play_navawhist(tricks, [1, 0, 0], [1, 1, 0])
    for _ in range(3):
        table.bid(tricks, 0)
    urls["tricks"] = invitation_path(table, tricks)
    urls["edit"] = f"/matches/{tricks}/navawhist/1/edit"
    for game, hands in HANDS.items():
        urls[f"{game}-entry"] = invitation_path(table, play(table, game, []))
        match_id = play(table, game, hands)
        urls[f"{game}-sheet"] = invitation_path(table, match_id)
        urls[f"{game}-edit"] = f"/matches/{match_id}/{EDIT[game]}"
        urls[f"{game}-share"] = f"/matches/{match_id}/share"
        urls[f"{game}-history"] = f"/matches/{match_id}/history"
    urls["forbidden"] = f"/matches/{match_id}/cavallore/1/edit"  # not a phone of the table
    sides = play(table, "fortyfive", [])  # one count given, the other filled in
    urls["fortyfive-sides"] = (invitation_path(table, sides), f"/matches/{sides}?n=1&mode=sides"
                               "&side-0=3&bonus_side=1")
    abandoned = play(table, "quarantotto", HANDS["quarantotto"][:1])
    version = table.sheet(abandoned)["version"]
    assert table.post(f"/matches/{abandoned}/abandon", {"version": version}).status_code == 303
    urls["abandoned"] = invitation_path(table, abandoned)
    return urls


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_no_serious_violations(make_page, live_server, table, dark):
    found = {}
    for name, url in pages(table).items():
        page = make_page(dark=dark)
        url, then = url if isinstance(url, tuple) else (url, None)
        if "/join/" in url:
            take_pen(page, live_server + url)
        else:
            page.goto(live_server + url)
        if then:
            assert page.goto(live_server + then).status == 200, then
        problems = serious(page)
        if problems:
            found[name] = problems
    assert found == {}


# Large type (a phone's choice, html.large): a page of each kind, an entry of each game.
LARGE = ("home", "new", "bidding", "tricks", "edit", "quarantotto-entry", "scala40-entry",
         "fortyfive-sheet", "cavallore-sheet", "abandoned")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_no_serious_violations_in_large_type(make_page, live_server, table, dark):
    found = {}
    urls = pages(table)
    for name in LARGE:
        page = make_page(dark=dark)
        page.context.add_cookies([{"name": "large", "value": "on", "url": live_server}])
        url = urls[name]
        if "/join/" in url:
            take_pen(page, live_server + url)
        else:
            page.goto(live_server + url)
        assert page.locator("html.large").count() == 1, name
        problems = serious(page)
        if problems:
            found[name] = problems
    assert found == {}


def test_the_check_finds_a_violation(page):
    page.set_content("<html lang=en><body><main><img src='x.png'><button></button></main></body>")
    found = " ".join(serious(page))
    assert "image-alt" in found and "button-name" in found
