"""On a phone at 390x844: installable (manifest, icons, Chromium's own check), calm when the
network drops (a sheet opened before still reads, a tap made offline is kept and sent once
by itself, a form outside the sheet waits for Send again), and the same without service
workers. Pages run under the real Content-Security-Policy.

Set SCOREKEEPER_SHOTS to a folder to keep a screenshot of each step looked at.
"""

from __future__ import annotations

import re
import struct

from flask import Flask
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from scorekeeper.db import db
from scorekeeper.models import Change, Hand, Match

from ..conftest import count
from .conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, settled, shot
from .test_games_browser import create_match

BANNER = "No connection: what you enter waits on this phone until the server answers."


def controlled(page: Page) -> None:
    """Wait until the service worker runs this page: once it is active, it claims the pages
    open; a page it did not claim (loaded while it was still installing, on a busy machine)
    is its own from the next load, as a browser's would be."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    try:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=5_000)
    except PlaywrightTimeout:
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=30_000)


def stored(app: Flask, match_id: str) -> tuple[int, int]:
    """(hands, changes) the server holds for the match."""
    with app.app_context():
        hands = db.session.query(Hand).filter_by(match_id=match_id).count()
        changes = db.session.query(Change).filter_by(match_id=match_id).count()
        db.session.remove()
        return hands, changes


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_and_icons_load_and_chromium_finds_the_app_installable(
        browser, live_server, tmp_path):
    # Chromium never offers to install from an incognito window, which a new context is: a
    # profile of its own on disk, as on a phone.
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=PHONE,
        locale="en-GB", device_scale_factor=1)
    try:
        installable(context.new_page(), live_server)
    finally:
        context.close()


def installable(page: Page, live_server: str) -> None:
    page.goto(live_server)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    response = page.request.get(live_server + href)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["name"] == "Scorekeeper" and manifest["short_name"]
    assert manifest["theme_color"] == "#1f6f4a" and manifest["background_color"] == "#f7f6f2"
    themes = page.locator("meta[name=theme-color]")
    assert [themes.nth(i).get_attribute("media") for i in range(2)] == [
        "(prefers-color-scheme: light)", "(prefers-color-scheme: dark)"]
    sizes = {}
    for icon in manifest["icons"]:
        answer = page.request.get(live_server + icon["src"])
        assert answer.ok and answer.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            sizes[icon["sizes"]] = png_size(answer.body())
        else:
            assert answer.body().startswith(b"<svg")
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    controlled_now = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert controlled_now == live_server + "/"
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest_seen = cdp.send("Page.getAppManifest")
    assert manifest_seen["errors"] == [] and manifest_seen["url"].endswith("/manifest.webmanifest")


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    body = response.get_data(as_text=True)
    # The static files it keeps are the versioned ones the pages name.
    page = client.get("/").get_data(as_text=True)
    for name in ("css/app.css", "js/app.js", "vendor/htmx-2.0.11/htmx.min.js"):
        start = page.index(f"/static/{name}?v=")
        assert page[start:page.index('"', start)] in body


def test_offline_a_sheet_reads_and_an_entry_waits_to_be_sent_once(phone, live_server, app):
    page = phone()
    create_match(page, live_server, "cavallore", ["Anna"])
    match_id = page.url.rsplit("/", 1)[1]
    controlled(page)
    page.reload()  # now through the worker, which keeps this sheet
    expect(page.locator(".entry h2")).to_have_text("Deal 1")

    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".entry h2")).to_have_text("Deal 1")
    expect(page.locator("#offline")).to_have_text(BANNER)
    settled(page)
    page.fill("#cr-placed", "12")
    page.locator(".cr-typed button").click()
    expect(page.locator("#pending-note")).to_have_text(
        "Not sent yet: Other (0 to 36): 12. The next deal waits for the connection.")
    expect(page.locator(".cr-typed button")).to_have_class(re.compile("pending"))
    expect(page.locator("#cr-placed")).to_have_value("12")
    shot(page, "offline-kept")
    assert stored(app, match_id) == (0, 0)

    page.evaluate("window.notReloaded = true")
    page.context.set_offline(False)
    # Sent by itself once the server answers, and answered as the tap would have been.
    expect(page.locator("#deal-1")).to_contain_text("12")
    expect(page.locator(".entry h2")).to_have_text("Deal 2")
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#pending-note")).to_have_count(0)
    assert page.evaluate("window.notReloaded") is True  # the kept entry was not thrown away
    assert stored(app, match_id) == (1, 1)


def test_back_online_the_banner_goes_and_the_sheet_refreshes(phone, live_server, app):
    page = phone()
    create_match(page, live_server, "cavallore", ["Anna"])
    controlled(page)
    page.reload()
    page.context.set_offline(True)
    page.reload()
    # A document loaded offline is told so again: Chromium 150 starts it as online under
    # the context's emulated offline network, where a phone's browser says it is offline.
    # Nothing answers in the blink it is online (an answer would reload the page at once).
    unreached = ("**/health", "**/live?*")
    for address in unreached:
        page.route(address, lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(False)
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    for address in unreached:
        page.unroute(address)
    expect(page.locator("#offline")).to_have_text(BANNER)
    shot(page, "offline-banner")
    page.evaluate("window.notReloaded = true")
    page.context.set_offline(False)
    page.wait_for_function("() => window.notReloaded === undefined")
    expect(page.locator("#offline")).to_be_hidden()
    page.locator(".cr-win-button").click()
    expect(page.locator("#deal-1")).to_contain_text("won")


def test_a_server_that_answers_again_refreshes_the_sheet_the_browser_never_lost(
        phone, live_server, app):
    """The Wi-Fi stays up while the server is away (the laptop restarting it): the browser
    never says it went offline, the poll fails and the banner shows; at the poll the server
    answers again, the banner goes and the sheet is shown as it is now."""
    page = phone()
    create_match(page, live_server, "cavallore", ["Anna"])
    settled(page)
    page.route("**/live?*", lambda route: route.abort("connectionrefused"))
    expect(page.locator("#offline")).to_be_visible(timeout=15_000)
    assert page.evaluate("navigator.onLine") is True
    page.evaluate("window.notReloaded = true")
    page.unroute("**/live?*")
    page.wait_for_function("() => window.notReloaded === undefined", timeout=15_000)
    expect(page.locator("#offline")).to_be_hidden()
    page.locator(".cr-win-button").click()
    expect(page.locator("#deal-1")).to_contain_text("won")


def test_a_button_form_made_offline_sends_its_button(phone, live_server, app):
    """The quick buttons send their value by the button itself: sent again, it still does."""
    page = phone()
    create_match(page, live_server, "cavallore", ["Anna"])
    match_id = page.url.rsplit("/", 1)[1]
    settled(page)
    page.context.set_offline(True)
    page.locator(".cr-quick button[value='30']").click()
    expect(page.locator("#offline")).to_have_text(BANNER)
    expect(page.locator(".cr-quick button[value='30']")).to_have_class(re.compile("pending"))
    assert stored(app, match_id) == (0, 0)
    page.context.set_offline(False)
    expect(page.locator("#deal-1")).to_contain_text("30")
    expect(page.locator("#deal-1")).to_contain_text("lost")
    assert stored(app, match_id) == (1, 1)


def test_a_form_outside_the_sheet_made_offline_is_sent_again(phone, live_server, app):
    """A form the queue does not keep (a new match) waits on its page, with Send again once
    the server answers."""
    page = phone()
    page.goto(f"{live_server}/matches/new?game=cavallore")
    settled(page)
    page.fill("#players-0", "Anna")
    page.context.set_offline(True)
    page.locator("button[value=start]").click()
    resend = page.locator(".resend")
    expect(resend).to_contain_text("Not sent")
    send = resend.get_by_role("button", name="Send again")
    expect(send).to_be_hidden()
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(send).to_be_visible()
    expect(page.locator("#players-0")).to_have_value("Anna")
    send.click()
    expect(page.locator(".entry h2")).to_have_text("Deal 1")
    assert count(app, Match) == 1


def test_without_service_workers_everything_works_as_before(phone, live_server, app):
    page = phone(service_workers="block")
    create_match(page, live_server, "cavallore", ["Anna"])
    match_id = page.url.rsplit("/", 1)[1]
    assert page.evaluate("navigator.serviceWorker.controller") is None
    page.locator(".cr-win-button").click()
    expect(page.locator("#deal-1")).to_contain_text("won")
    settled(page)
    page.context.set_offline(True)
    page.locator(".cr-quick button[value='30']").click()
    expect(page.locator("#offline")).to_have_text(BANNER)
    expect(page.locator("#pending-note")).to_have_text(
        "Not sent yet: Lost: cards placed: 30. The next deal waits for the connection.")
    page.context.set_offline(False)
    expect(page.locator("#deal-2")).to_contain_text("lost")
    assert stored(app, match_id) == (2, 2)
