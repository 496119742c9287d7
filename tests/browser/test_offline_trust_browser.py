"""Offline you can trust: on a phone at 390x844 that opens the server by a name on the Wi-Fi
(scorekeeper.lan), what the phone shows as not sent yet is what reaches the server, in
order, once; a tap whose answer says what comes next holds the keys until it is sent; a Save
tapped twice is stored once and never called another phone's; a sheet from the phone's saved
copy says that it is one, from when and at which hand.

The name is mapped to 127.0.0.1 (--host-resolver-rules) and, served over plain HTTP, treated
as a secure origin, as it is over the server's HTTPS: the service worker works there.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, settled
from .test_games_browser import unfold
from .test_offline_browser import bid_key, pen, stoppable, stored, view_shot  # noqa: F401

pytestmark = pytest.mark.browser

LAN = "scorekeeper.lan"
NAMES = ["Anna", "Bruno", "Carla"]


@pytest.fixture
def lan(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Phones that reach the server on ``port`` by the name scorekeeper.lan: ``lan(port)``
    gives a page; a script error fails the test (the network's are expected offline)."""
    browsers: dict[int, Browser] = {}
    problems: list[str] = []

    def make(port: int, *, locale: str = "en-GB", dark: bool = False) -> Page:
        if port not in browsers:
            browsers[port] = browser.browser_type.launch(
                executable_path=CHROMIUM,
                args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN} 127.0.0.1",
                      f"--unsafely-treat-insecure-origin-as-secure=http://{LAN}:{port}"])
        context = browsers[port].new_context(
            viewport=PHONE, locale=locale, device_scale_factor=1,
            color_scheme="dark" if dark else "light")
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        return page

    yield make
    for running in browsers.values():
        running.close()
    assert problems == []


def port_of(url: str) -> int:
    return urlsplit(url).port


def base(port: int) -> str:
    return f"http://{LAN}:{port}"


def test_offline_the_next_bid_waits_for_the_bid_not_sent(lan, live_server, app, table):
    """Bruno's bid, tapped offline, waits; a second tap (meant for Carla) is not taken, since
    the page cannot know who bids next: it would have replaced Bruno's."""
    match_id = table.new_match("navawhist", NAMES)
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    assert page.evaluate("location.hostname") == LAN
    prompt, note = page.locator("#bid-prompt"), page.locator("#pending-note")
    expect(prompt).to_have_text("Bruno bids:")

    page.context.set_offline(True)
    bid_key(page, 1).click()
    waiting = "Not sent yet: Bruno bids: 1. The next bid waits for the connection."
    expect(note).to_have_text(waiting)
    expect(bid_key(page, 1)).to_have_class(re.compile("pending"))
    bid_key(page, 0).click()  # meant for Carla: not taken
    expect(note).to_have_text(waiting)
    expect(bid_key(page, 0)).not_to_have_class(re.compile("pending"))
    assert page.evaluate("document.documentElement.dataset.queue") == "1"
    view_shot(page, "lan-bid-waits")

    page.context.set_offline(False)
    expect(prompt).to_have_text("Carla bids:")
    expect(note).to_have_count(0)
    settled(page)
    view_shot(page, "lan-bid-sent")
    assert stored(app, match_id) == (1, 1, 1)
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 1, None]
    bid_key(page, 1).click()  # now Carla's, as meant
    expect(prompt).to_have_text("Anna bids:")
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 1, 1]


def test_offline_the_next_trick_waits_for_the_trick_not_sent(lan, live_server, app, table):
    """Forty-Five: trick 1 to Anna, tapped offline, waits; a tap for trick 2 is not taken, since
    it would be sent with no trick filled in and take trick 1."""
    match_id = table.new_match("fortyfive", NAMES)
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    slots, taps = page.locator(".ff-slots li"), page.locator(".ff-taps")
    note = page.locator("#pending-note")

    page.context.set_offline(True)
    taps.get_by_role("button", name="Anna").click()
    waiting = "Not sent yet: Trick 1: Anna. The next trick waits for the connection."
    expect(note).to_have_text(waiting)
    taps.get_by_role("button", name="Bruno").click()  # meant for trick 2: not taken
    expect(note).to_have_text(waiting)
    assert page.evaluate("document.documentElement.dataset.queue") == "1"
    view_shot(page, "lan-trick-waits")

    page.context.set_offline(False)
    expect(slots.nth(0)).to_contain_text("Anna")
    expect(note).to_have_count(0)
    expect(slots.nth(1)).to_contain_text("—")
    settled(page)
    for count, name in enumerate(["Bruno", "Anna", "Carla", "Anna"], start=2):
        taps.get_by_role("button", name=name).click()
        expect(slots.nth(count - 1)).to_contain_text(name)
        settled(page)
    expect(page.locator("input[name=winners]")).to_have_value("0,1,0,2,0")
    page.locator(".ff-bonus label", has_text="Bruno").click()
    settled(page)
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Hand 2")
    hand = table.sheet(match_id)["hands"][0]["inputs"]
    assert hand["trick_winners"] == [0, 1, 0, 2, 0], hand


def test_a_save_tapped_twice_offline_is_stored_once_and_no_conflict(lan, live_server, app,
                                                                     table):
    """Save, tapped twice while offline: the second tap is not taken (the next hand waits for
    the first), the hand is stored once, and nothing says another phone saved first, then
    or after a reload."""
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0], [1, 0, 0])
    for seat, bid in ((2, 1), (0, 0), (1, 0)):  # hand 2, two cards, Bruno deals
        assert table.bid(match_id, bid, seat=seat).status_code == 303
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    expect(page.locator("#tricks")).to_be_visible()
    note = page.locator("#pending-note")

    page.context.set_offline(True)
    for seat, tricks in ((2, 1), (0, 1), (1, 0)):
        unfold(page, f"#tricks fieldset.seat-keys:has([name='values-{seat}'])")
        page.locator(f"#tricks label.key:has([name='values-{seat}'][value='{tricks}'])").click()
    save = page.get_by_role("button", name="Save the hand")
    save.click()
    waiting = "Not sent yet: Hand 2 of"
    expect(note).to_contain_text(waiting)
    expect(note).to_contain_text("The next hand waits for the connection.")
    kept = page.evaluate("document.documentElement.dataset.queue")  # the previews, the save
    save.click()
    expect(note).to_contain_text(waiting)
    view_shot(page, "lan-save-waits")
    assert page.evaluate("document.documentElement.dataset.queue") == kept

    page.context.set_offline(False)
    expect(page.locator("#notice")).to_contain_text("Hand 2 saved.")
    page.wait_for_function("() => document.documentElement.dataset.queue === '0'")
    settled(page)
    expect(page.locator("#unsent")).to_have_count(0)
    assert stored(app, match_id)[0] == 2
    assert table.sheet(match_id)["hands"][1]["inputs"]["tricks"] == [1, 0, 1]
    page.reload()
    settled(page)
    expect(page.locator(".entry h2")).to_contain_text("Hand 3 of")
    expect(page.locator("#unsent")).to_have_count(0)
    view_shot(page, "lan-save-reloaded")


SCALA = [{"action": "save", "closer": 0, "values-1": "K", "values-2": "7 7"},
         {"action": "save", "closer": 2, "values-0": "A", "never": 1},
         {"action": "save", "closer": 0, "values-2": "K"}]


def play_scala(table, match_id: str, deals: list[dict] = SCALA) -> None:
    """Deals (three unless told), entered by another phone."""
    for data in deals:
        sheet = table.sheet(match_id)
        response = table.post(f"/matches/{match_id}/scala40/deal", {
            "version": sheet["version"], "number": sheet["next"]["number"], **data})
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]


def test_a_sheet_from_the_saved_copy_says_so(lan, stoppable, app, table):  # noqa: F811
    """Scala 40: the phone's worker kept the sheet at deal 1; three deals later, with the
    server down, the copy it gives says that it is a copy, from when and at which hand."""
    match_id = table.new_match("scala40", NAMES)
    page = pen(lambda: lan(stoppable.port), base(stoppable.port), table, match_id)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)") is True
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    settled(page)
    expect(page.locator("#saved-copy")).to_be_hidden()
    play_scala(table, match_id)
    # The poll brings the other phone's deals; the worker's copy stays at deal 1.
    expect(page.locator("#turn input[name=number]")).to_have_value("4", timeout=12_000)

    stoppable.stop()
    page.reload()
    copy = page.locator("#saved-copy")
    expect(copy).to_have_text(
        re.compile(r"^Saved copy from \d{2}:\d{2}, deal 1: it may be behind\.$"))
    expect(copy).to_be_visible()
    made = page.evaluate("""() => new Date(Number(document.documentElement.dataset.savedCopy))
        .toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'})""")
    expect(copy).to_contain_text(f"from {made},")
    view_shot(page, "lan-saved-copy")

    stoppable.start()
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page.locator("#turn input[name=number]")).to_have_value("4", timeout=12_000)
    expect(page.locator("#saved-copy")).to_be_hidden()


def test_a_conflict_list_goes_once_its_hand_is_over(lan, live_server, app, table):
    """What a conflict left to enter again stays while its hand is entered; once the hand is
    saved (here by the other phone) it is behind, gone from the page and from a reload."""
    match_id = table.new_match("navawhist", NAMES)
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    page.context.set_offline(True)
    bid_key(page, 1).click()
    expect(page.locator("#pending-note")).to_be_visible()
    assert table.bid(match_id, 0).status_code == 303  # the other phone, first
    page.context.set_offline(False)
    unsent = page.locator("#unsent")
    expect(unsent).to_contain_text("Another phone saved first: enter these again:")
    page.reload()
    expect(unsent).to_contain_text("Bruno bids: 1")

    for bid in (0, 0):  # Carla, Anna
        assert table.bid(match_id, bid).status_code == 303
    assert table.tricks(match_id, [1, 0, 0]).status_code == 303
    expect(page.locator(".entry h2")).to_contain_text("Hand 2 of", timeout=12_000)
    expect(unsent).to_have_count(0)
    page.reload()
    settled(page)
    expect(page.locator(".entry h2")).to_contain_text("Hand 2 of")
    expect(unsent).to_have_count(0)


def test_cavallo_re_the_next_deal_waits_for_the_deal_not_sent(lan, live_server, app, table):
    """Cavallo Re: a lost deal tapped offline waits; a second tap would be sent as the same
    deal and be refused as another phone's: it is not taken."""
    match_id = table.new_match("cavallore", ["Anna"])
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    note = page.locator("#pending-note")
    page.context.set_offline(True)
    page.locator(".cr-quick button[value='30']").click()
    waiting = "Not sent yet: Lost: cards placed: 30. The next deal waits for the connection."
    expect(note).to_have_text(waiting)
    page.locator(".cr-quick button[value='28']").click()  # not taken
    expect(note).to_have_text(waiting)

    page.context.set_offline(False)
    expect(page.locator("#deal-1")).to_contain_text("lost")
    expect(note).to_have_count(0)
    settled(page)
    expect(page.locator("#unsent")).to_have_count(0)
    assert [hand["inputs"] for hand in table.sheet(match_id)["hands"]] == [
        {"placed": 30, "seat": 0}]
    page.locator(".cr-quick button[value='28']").click()  # now deal 2, as meant
    expect(page.locator("#deal-2")).to_contain_text("lost")
    assert stored(app, match_id)[0] == 2


def test_a_kept_save_sent_twice_under_two_keys_is_no_conflict(lan, live_server, app, table):
    """A phone that kept the same Save twice, under two keys (as one on the code before this
    kept two taps of it): the first is stored, the second gets a conflict, since the version
    moved under it. That conflict is this phone's own: dropped, never listed as another
    phone's."""
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0], [1, 0, 0])
    for seat, bid in ((2, 1), (0, 0), (1, 0)):
        assert table.bid(match_id, bid, seat=seat).status_code == 303
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    page.route("**/navawhist/tricks", lambda route: route.abort())  # the server is away
    for seat, tricks in ((2, 1), (0, 1), (1, 0)):
        unfold(page, f"#tricks fieldset.seat-keys:has([name='values-{seat}'])")
        page.locator(f"#tricks label.key:has([name='values-{seat}'][value='{tricks}'])").click()
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#pending-note")).to_contain_text("The next hand waits")
    page.evaluate("""async (match) => {
        const store = idbKeyval.createStore("scorekeeper", "replay");
        const queue = await idbKeyval.get("queue:" + match, store);
        const copy = JSON.parse(JSON.stringify(queue[queue.length - 1]));
        copy.key = copy.headers["Idempotency-Key"] = "00000000-0000-4000-8000-000000000002";
        queue.push(copy);
        await idbKeyval.set("queue:" + match, queue, store);
    }""", match_id)
    page.unroute("**/navawhist/tricks")
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.queue === '0'")
    settled(page)
    expect(page.locator(".entry h2")).to_contain_text("Hand 3 of")
    expect(page.locator("#unsent")).to_have_count(0)
    assert stored(app, match_id)[0] == 2
    assert table.sheet(match_id)["hands"][1]["inputs"]["tricks"] == [1, 0, 1]
    page.reload()
    settled(page)
    expect(page.locator("#unsent")).to_have_count(0)


def test_a_conflict_list_kept_by_the_code_before_goes_on_a_finished_match(lan, live_server, app,
                                                                          table):
    """A list left by the code before (no hand noted with it) on a match that is over: there
    is nothing left to enter, so it is gone from the page, from a reload and from the phone."""
    match_id = table.new_match("scala40", NAMES)
    play_scala(table, match_id)
    port = port_of(live_server)
    page = pen(lambda: lan(port), base(port), table, match_id)
    page.evaluate("""async (match) => {
        const store = idbKeyval.createStore("scorekeeper", "replay");
        await idbKeyval.set("unsent:" + match, {conflict: true, labels: ["Hand 4: Save"]}, store);
    }""", match_id)
    play_scala(table, match_id, [{"action": "save", "closer": 0, "never": 2}])  # Anna wins
    assert table.sheet(match_id)["status"] == "finished"
    page.reload()
    expect(page.locator(".match-head")).to_contain_text("Finished")
    settled(page)
    expect(page.locator("#unsent")).to_have_count(0)
    page.wait_for_function("""(match) => idbKeyval.get("unsent:" + match,
        idbKeyval.createStore("scorekeeper", "replay")).then((found) => found === undefined)""",
                           arg=match_id)
    page.reload()
    expect(page.locator(".match-head")).to_contain_text("Finished")
    expect(page.locator("#unsent")).to_have_count(0)
