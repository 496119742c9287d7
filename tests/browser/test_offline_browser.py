"""On a phone at 390x844, taps on the live sheet made while the server cannot be reached
(the phone offline, or the server stopped with the Wi-Fi up) wait pending, then are stored
exactly once when it answers again; a conflict meanwhile keeps them in view, to be entered
again. Pages run under the real Content-Security-Policy.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot (of the viewport) of each step.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Locator, Page, expect
from werkzeug.serving import WSGIRequestHandler, make_server

from scorekeeper.db import db
from scorekeeper.models import Change, Hand, RequestKey

from .conftest import PHONE, SHOTS, invitation_path, settled, take_pen
from .test_games_browser import unfold

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla"]
BANNER = "No connection: what you enter waits on this phone until the server answers."
PENDING = "Not sent yet: it will be sent when the server answers."


def waits(tap: str, what: str = "bid") -> str:
    """The line under a kept tap whose answer the next step waits for."""
    return f"Not sent yet: {tap}. The next {what} waits for the connection."

CONFLICT = "Another phone saved first: enter these again:"


class OneRequestEach(WSGIRequestHandler):
    """HTTP/1.0: no connection outlives a request, so a stopped server answers nothing."""

    protocol_version = "HTTP/1.0"


class Stoppable:
    """The app served on a port that stays its own while the server is stopped and started
    again: the server went away, the phone's Wi-Fi did not."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True,
                                  request_handler=OneRequestEach)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def stoppable(app: Flask) -> Iterator[Stoppable]:
    server = Stoppable(app)
    yield server
    server.stop()


def view_shot(page: Page, name: str) -> None:
    """A screenshot of what the phone shows (the viewport), under SCOREKEEPER_SHOTS."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png")


def whole_in_view(locator: Locator) -> bool:
    """True when the element lies wholly in the 390x844 viewport."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1


def stored(app: Flask, match_id: str) -> tuple[int, int, int]:
    """(hands, changes, request keys) the server holds for the match."""
    with app.app_context():
        counts = tuple(db.session.query(model).filter_by(match_id=match_id).count()
                       for model in (Hand, Change, RequestKey))
        db.session.remove()
        return counts


def history(page: Page, base: str, match_id: str) -> str:
    page.goto(f"{base}/matches/{match_id}/history")
    return page.locator("main").inner_text()


def pen(phone: Callable[..., Page], base: str, table, match_id: str) -> Page:
    """A phone of the match's table, on its sheet."""
    page = phone()
    take_pen(page, base + invitation_path(table, match_id))
    settled(page)
    return page


def bid_key(page: Page, bid: int) -> Locator:
    return page.locator(f"#bid-form .keypad button[value='{bid}']")


def test_taps_made_offline_wait_pending_then_are_stored_once(phone, live_server, app, table):
    match_id = table.new_match("navawhist", NAMES)
    table.play_navawhist(match_id, [0, 0, 0], [1, 0, 0])
    for seat, bid in ((2, 1), (0, 0), (1, 0)):  # hand 2, two cards, Bruno deals
        assert table.bid(match_id, bid, seat=seat).status_code == 303
    page = pen(phone, live_server, table, match_id)
    expect(page.locator("#tricks")).to_be_visible()

    page.context.set_offline(True)
    expect(page.locator("#offline")).to_have_text(BANNER)
    for seat, tricks in ((2, 1), (0, 1), (1, 0)):
        # Carla bids first: her keys are open, Anna's and Bruno's lines open by a tap, offline too.
        unfold(page, f"#tricks fieldset.seat-keys:has([name='values-{seat}'])")
        page.locator(f"#tricks label.key:has([name='values-{seat}'][value='{tricks}'])").click()
    note = page.locator("#pending-note")
    expect(note).to_have_text(PENDING)  # previews: the next tap needs no answer of theirs
    save = page.get_by_role("button", name="Save the hand")
    save.click()
    expect(note).to_have_text(waits("Hand 2 of 18 · 2 cards", "hand"))
    expect(save).to_have_class(re.compile("pending"))
    expect(page.locator("#tricks label.key.pending")).to_have_count(3)
    assert whole_in_view(note)
    view_shot(page, "offline-pending")
    assert stored(app, match_id) == (2, 7, 0)

    page.evaluate("window.notReloaded = true")
    page.context.set_offline(False)
    expect(page.locator("#notice")).to_contain_text("Hand 2 saved.")
    expect(note).to_have_count(0)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator(".entry h2")).to_contain_text("Hand 3 of")
    expect(page.locator("#hand-2")).to_contain_text("1/1")
    assert page.evaluate("window.notReloaded") is True
    assert stored(app, match_id) == (2, 8, 1)  # the previews stored nothing, the save once
    assert table.sheet(match_id)["hands"][1]["inputs"]["tricks"] == [1, 0, 1]
    assert history(page, live_server, match_id).count("Anna 1 trick, Bruno 0, Carla 1") == 1


def test_a_reload_keeps_what_waits_and_sends_it(phone, stoppable, app, table):
    match_id = table.new_match("navawhist", NAMES)
    page = pen(phone, stoppable.url, table, match_id)
    # The worker installs while the invitation leads to the sheet; a document that was
    # loading while it activated may stay uncontrolled, as a phone's would. Once it is active,
    # the reload goes through it, and it keeps the sheet for a reload without a server.
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)") is True
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    settled(page)
    stoppable.stop()
    bid_key(page, 1).click()
    expect(page.locator("#pending-note")).to_have_text(waits("Bruno bids: 1"))
    page.reload()  # the sheet the worker kept; the tap, from IndexedDB
    expect(page.locator("#pending-note")).to_have_text(waits("Bruno bids: 1"))
    expect(bid_key(page, 1)).to_have_class(re.compile("pending"))
    assert stored(app, match_id) == (0, 0, 0)
    stoppable.start()
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page.locator("#bid-prompt")).to_have_text("Carla bids:")
    expect(page.locator("#pending-note")).to_have_count(0)
    assert stored(app, match_id) == (1, 1, 1)


def test_a_bid_made_while_the_server_is_stopped_is_sent_when_it_answers(
        phone, stoppable, app, table):
    match_id = table.new_match("navawhist", NAMES)
    page = pen(phone, stoppable.url, table, match_id)
    expect(page.locator("#bid-prompt")).to_have_text("Bruno bids:")

    stoppable.stop()
    bid_key(page, 1).click()
    expect(page.locator("#offline")).to_have_text(BANNER)  # the Wi-Fi is up: the tap told
    expect(page.locator("#pending-note")).to_have_text(waits("Bruno bids: 1"))
    expect(bid_key(page, 1)).to_have_class(re.compile("pending"))
    assert page.evaluate("navigator.onLine") is True
    view_shot(page, "server-stopped-pending")
    assert stored(app, match_id) == (0, 0, 0)

    page.evaluate("window.notReloaded = true")
    stoppable.start()
    # No online event comes: the next poll (every 4 s) finds the server, and the bid goes.
    expect(page.locator("#bid-prompt")).to_have_text("Carla bids:", timeout=12_000)
    expect(page.locator("#pending-note")).to_have_count(0)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#hand-1")).to_contain_text("1/")
    assert page.evaluate("window.notReloaded") is True
    assert stored(app, match_id) == (1, 1, 1)
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 1, None]
    assert history(page, stoppable.url, match_id).count("Bruno bid 1") == 1


def test_back_in_focus_the_kept_bid_goes_without_waiting_for_the_poll(
        phone, stoppable, app, table):
    match_id = table.new_match("navawhist", NAMES)
    page = pen(phone, stoppable.url, table, match_id)
    stoppable.stop()
    # Nothing tapped yet: the poll that finds no server says so.
    expect(page.locator("#offline")).to_have_text(BANNER, timeout=6_000)
    bid_key(page, 0).click()
    expect(page.locator("#pending-note")).to_have_text(waits("Bruno bids: 0"))
    stoppable.start()
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page.locator("#bid-prompt")).to_have_text("Carla bids:", timeout=2_000)
    assert stored(app, match_id) == (1, 1, 1)


def test_a_lost_answer_is_sent_again_and_stored_once(phone, live_server, app, table):
    """The bid reaches the server, its answer never comes back: sent again with its key, it
    is answered with the sheet and stored once."""
    match_id = table.new_match("navawhist", NAMES)
    page = pen(phone, live_server, table, match_id)
    lost = []

    def answer_lost(route) -> None:
        if lost:
            route.continue_()
            return
        lost.append(route.request.headers["idempotency-key"])
        route.fetch()  # served and stored...
        route.abort()  # ...but the answer is lost on the way back

    page.route("**/navawhist/bid", answer_lost)
    bid_key(page, 1).click()
    expect(page.locator("#bid-prompt")).to_have_text("Carla bids:", timeout=12_000)
    expect(page.locator("#pending-note")).to_have_count(0)
    assert len(lost) == 1
    assert stored(app, match_id) == (1, 1, 1)
    with app.app_context():
        assert db.session.scalar(db.select(RequestKey.key)) == lost[0]
        db.session.remove()


def test_a_conflict_while_offline_keeps_the_taps_in_view(phone, live_server, app, table):
    match_id = table.new_match("navawhist", NAMES)
    first = pen(phone, live_server, table, match_id)
    second = pen(phone, live_server, table, match_id)

    first.context.set_offline(True)
    expect(first.locator("#offline")).to_have_text(BANNER)
    bid_key(first, 1).click()
    expect(first.locator("#pending-note")).to_have_text(waits("Bruno bids: 1"))
    # The other phone enters Bruno's bid meanwhile.
    bid_key(second, 0).click()
    expect(second.locator("#bid-prompt")).to_have_text("Carla bids:")
    assert stored(app, match_id) == (1, 1, 1)

    first.context.set_offline(False)
    unsent = first.locator("#unsent")
    expect(unsent).to_contain_text(CONFLICT)
    expect(unsent.locator("li")).to_have_text(["Bruno bids: 1"])
    expect(first.locator("#pending-note")).to_have_count(0)
    expect(first.locator("#bid-prompt")).to_have_text("Carla bids:")
    expect(first.locator("#hand-1")).to_contain_text("0/")
    settled(first)
    assert whole_in_view(unsent)
    view_shot(first, "offline-conflict")
    assert stored(app, match_id) == (1, 1, 1)  # nothing of the first phone's
    assert table.sheet(match_id)["next"]["info"]["bids"] == [None, 0, None]
    # It stays through the next refresh of the sheet, until this phone saves.
    first.reload()
    expect(unsent).to_contain_text("Bruno bids: 1")
    bid_key(first, 1).click()  # Carla's bid: a bid answers with the entry, the list stays
    expect(first.locator("#bid-prompt")).to_have_text("Anna bids:")
    expect(unsent).to_be_visible()


def test_what_the_queue_says_is_in_italian_too(table):
    match_id = table.new_match("navawhist", NAMES)
    table.post("/lang/it", {"next": f"/matches/{match_id}"})
    page = table.client.get(f"/matches/{match_id}").get_data(as_text=True)
    for words in ("Non ancora inviato: verrà inviato appena il server risponde.",
                  "Un altro telefono ha salvato prima: inserisci di nuovo questi valori:",
                  "Non registrato: inserisci di nuovo questi valori:",
                  "Non ancora inviato: {tap}.", "La mano successiva aspetta la connessione.",
                  "La dichiarazione successiva aspetta la connessione.",
                  "Copia salvata delle {time}, mano {hand}: potrebbe essere indietro.",
                  "Copia salvata delle {time}: potrebbe essere indietro."):
        assert words in page
