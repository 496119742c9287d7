"""A published round with check-in, on phones at 390x844 that open `scorekeeper serve` by a LAN
name over HTTPS: the organiser draws round 1, swaps two entrants and publishes it; two table
phones check in by their tables' codes (one, which said it is an entrant of table 2, tries
table 1's code first and is told where to go); a follower in Italian and dark, which said
it is an entrant, sees its line within one poll of the publishing. A screenshot after each
step; axe finds nothing serious on the drawn round, the follower's page and the screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from bench.served import Server, served

from .conftest import LAN_NAME, settled, shot, trusting_phone
from .test_accessibility import serious
from .test_games_browser import create_match

pytestmark = pytest.mark.browser

ENTRANTS = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Ugo"]
POLL_WAIT = 15_000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with served(tmp_path / "evening.db") as running:
        yield running


def seated(page: Page) -> list[list[str]]:
    """Each table's entrants in seat order, as the seating page lists them."""
    return [[re.split(r" ·", line)[0].strip() for line in table.locator(".seats li")
             .all_inner_texts()] for table in page.locator("section.seating").all()]


def claim(page: Page, address: str, name: str) -> None:
    """Say "this is me" for ``name`` on the tournament's page (in any language)."""
    page.goto(address)
    number = ENTRANTS.index(name)
    page.locator(f"form:has(input[name=entrant][value='{number}']) button").click()
    expect(page.locator("#where-title")).to_have_text(name)


def test_a_round_drawn_swapped_published_and_checked_in(browser, server, tmp_path):
    base = f"https://{LAN_NAME}:{server.secure_port}"
    organiser, first, second, follower = (
        (context.pages[0] if context.pages else context.new_page()) for context in (
            trusting_phone(browser, server.port, tmp_path / name, locale=locale, dark=dark)
            for name, locale, dark in (("org", "en-GB", False), ("t1", "en-GB", False),
                                       ("t2", "en-GB", False), ("it", "it-IT", True))))
    create_match(organiser, base, "quarantotto", ["Org", "Helper"])
    organiser.goto(f"{base}/tables")
    organiser.locator("main a[href*='/tables/']").first.click()
    organiser.get_by_role("link", name="New tournament").click()
    organiser.get_by_role("button", name="Quarantotto").click()
    settled(organiser)
    organiser.fill("#name", "Friday evening")
    organiser.fill("#entrants", "\n".join(ENTRANTS))
    organiser.get_by_role("button", name="Create the tournament").click()
    expect(organiser.locator("h1")).to_have_text("Friday evening")
    address = organiser.url

    # The Italian follower says who it is before anything is published.
    claim(follower, address, "Anna")
    organiser.get_by_role("button", name="Seat round 1").click()
    expect(organiser.locator("#drawn-title")).to_have_text("Round 1 is drawn")
    expect(organiser.locator("section.seating .qr")).to_have_count(0)
    drawn = seated(organiser)
    mover, other = drawn[0][1], drawn[1][2]
    organiser.select_option("#swap-first", label=mover)
    organiser.select_option("#swap-second", label=other)
    organiser.get_by_role("button", name="Swap the two").click()
    expect(organiser.locator(".swap").first).to_have_text(f"Swapped {mover} and {other}")
    tables = seated(organiser)
    assert tables[0][1] == other and tables[1][2] == mover
    expect(organiser.locator("#swap-second")).to_have_value(str(ENTRANTS.index(tables[1][0])))
    shot(organiser, "draw-1-drawn-and-swapped")
    assert serious(organiser) == []
    follower.reload()
    expect(follower.locator(".where")).not_to_contain_text("Turno 1")
    organiser.get_by_role("button", name="Publish round 1").click()
    expect(organiser.locator("section.seating > div.qr")).to_have_count(2)
    codes = [re.sub(r"^https?://[^/]+", base, href) for href in
             organiser.locator("section.seating .link-text a").evaluate_all(
                 "links => links.map(a => a.href)")]
    shot(organiser, "draw-2-published")

    # Within one poll the follower reads where Anna goes, in Italian.
    table = next(n for n, names in enumerate(tables, start=1) if "Anna" in names)
    seat = tables[table - 1].index("Anna") + 1
    expect(follower.locator(".where-line")).to_contain_text(
        f"Turno 1: tavolo {table}, posto {seat}", timeout=POLL_WAIT)
    expect(follower.locator("#round-1")).to_be_visible()  # the page loaded again, whole
    shot(follower, "draw-3-where-to-go-it-dark")
    assert serious(follower) == []

    # A phone that said it is an entrant of table 2 scans table 1's code: told where to go.
    claim(first, address, tables[1][0])
    first.goto(codes[0])
    expect(first.locator("main")).to_contain_text("You are at table 2 in round 1.")
    shot(first, "draw-4-wrong-table")
    first.goto(codes[1])
    first.get_by_role("button", name="Keep this table’s sheet on this phone").click()
    expect(first.locator(".entry")).to_be_visible()
    second.goto(codes[0])
    second.get_by_role("button", name="Keep this table’s sheet on this phone").click()
    expect(second.locator(".entry")).to_be_visible()

    organiser.reload()
    expect(organiser.locator(".checked-in")).to_have_text(["✓ Checked in", "✓ Checked in"])
    shot(organiser, "draw-5-checked-in")

    # The tournament's screen, on a laptop: who goes where, by name.
    organiser.set_viewport_size({"width": 1280, "height": 720})
    organiser.goto(f"{address}/screen")
    expect(organiser.locator(".goes li")).to_have_count(8)
    shot(organiser, "draw-6-screen")
    assert serious(organiser) == []
