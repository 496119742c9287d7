"""Tables in a phone-sized browser: the table page, an invitation by QR code from one phone
to another, a phone removed, and the statistics page (axe-clean, light and dark)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.web.links import qr_svg

from .conftest import shot
from .test_accessibility import serious

ANNA_ALL = {"winners": "0,0,0,0,0", "bonus": "0"}
BRUNO_ALL = {"winners": "1,1,1,1,1", "bonus": "1"}


def start_match(page: Page, base: str, names: list[str]) -> str:
    """A Navawhist match started from the new-match form; its id."""
    page.goto(f"{base}/matches/new")
    for seat, name in enumerate(names):
        page.fill(f"#players-{seat}", name)
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r".*/matches/(?!new)[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


def as_phone(page: Page, base: str, table) -> None:
    """Let the browser be the phone of the ``table`` helper: the same cookie."""
    page.context.add_cookies([{"name": "session", "url": base,
                               "value": table.client.get_cookie("session").value}])


def test_invitation_by_qr_code_from_one_phone_to_another(make_page, live_server, app):
    keeper, guest = make_page(), make_page()
    match_id = start_match(keeper, live_server, ["Anna", "Bruno", "Carla", "Dario"])
    keeper.goto(live_server)
    keeper.get_by_role("link", name="Anna, Bruno, Carla, Dario").first.click()
    expect(keeper.locator("h1")).to_have_text("Anna, Bruno, Carla, Dario")
    expect(keeper.locator(".phones li")).to_have_count(1)
    assert serious(keeper) == []
    shot(keeper, "table")
    keeper.get_by_role("button", name="Invite to this table").click()
    qr = keeper.locator(".qr[data-invite]")
    link = qr.get_attribute("data-invite")
    # The code shown is the link itself: scanned, it opens the invitation.
    with app.test_request_context():
        drawn = qr_svg(link, "x")
    assert re.search(r'<path[^>]* d="([^"]+)"', drawn).group(1) in qr.inner_html()
    assert serious(keeper) == []
    shot(keeper, "invitation")

    guest.goto(live_server + link[link.index("/join/"):])
    guest.get_by_label("Whose phone is this?").fill("Bruno")  # asked as it joins
    shot(guest, "join-named")
    guest.get_by_role("button", name="Join the table").click()
    # The notice is said once: the address keeps no ?joined=1 for a reload to say it again.
    guest.wait_for_url(re.compile(r".*/tables/[\w-]+$"))
    expect(guest.locator("p.notice[role=status]")).to_contain_text("You joined the table")
    expect(guest.locator("#phone-name")).to_have_value("Bruno")
    guest.reload()
    expect(guest.locator("#phone-name")).to_have_value("Bruno")
    expect(guest.locator("main")).not_to_contain_text("You joined the table")
    guest.goto(f"{live_server}/matches/{match_id}")
    expect(guest.locator("input[name=bid], button[name=bid]").first).to_be_visible()
    # A second phone cannot use the same code.
    late = make_page()
    late.goto(live_server + link[link.index("/join/"):])
    expect(late.locator("main")).to_contain_text("already been used")

    keeper.goto(live_server)
    keeper.get_by_role("link", name="Anna, Bruno, Carla, Dario").first.click()
    expect(keeper.locator(".phones li")).to_have_count(2)
    expect(keeper.locator(".phones")).to_contain_text("Bruno's phone")
    shot(keeper, "table-two-phones")
    keeper.get_by_role("link", name="Remove Bruno's phone").click()
    expect(keeper.locator("h1")).to_have_text("Remove Bruno's phone?")
    keeper.get_by_role("button", name="Remove Bruno's phone").click()
    expect(keeper.locator(".phones li")).to_have_count(1)
    expect(keeper.locator("p.notice[role=status]")).to_contain_text("Bruno's phone removed")
    # The removed phone still follows the sheet, but may change nothing from now on.
    guest.reload()
    expect(guest.locator("input[name=bid], button[name=bid]")).to_have_count(0)
    expect(guest.locator("main")).to_contain_text("Anna")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_statistics_page(make_page, live_server, table, dark):
    for hands in ([ANNA_ALL, ANNA_ALL], [BRUNO_ALL, BRUNO_ALL], [ANNA_ALL, ANNA_ALL]):
        match_id = table.new_match("fortyfive", ["Anna", "Bruno"])
        for data in hands:
            sheet = table.sheet(match_id)
            assert table.post(f"/matches/{match_id}/fortyfive/hand", {
                "version": sheet["version"], "number": sheet["next"]["number"],
                "mode": "winners", "action": "save", **data}).status_code == 303
    table.play_navawhist(table.new_match("navawhist", ["Anna", "Carla"]), [2, 1], [2, 0])
    page = make_page(dark=dark)
    as_phone(page, live_server, table)
    page.goto(live_server)
    page.get_by_role("link", name="Anna, Bruno").first.click()
    page.get_by_role("link", name="Statistics").click()
    expect(page.locator("h1")).to_have_text("Statistics")
    expect(page.locator("#game-fortyfive")).to_be_visible()
    expect(page.locator(".chart polyline")).to_have_count(2)
    expect(page.locator(".h2h")).to_contain_text("2–1")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide"
    assert serious(page) == []
    shot(page, f"statistics-{'dark' if dark else 'light'}")
