"""A phone at the real table: `scorekeeper serve` opened by a LAN name, over HTTPS (Caddy, on
the port after the plain one), with Caddy's local certificate authority trusted the way a
phone trusts it after the certificate page (here: an NSS database of the test's own, which
Chromium on Linux reads; the root certificate is the one the page hands out).

Over HTTPS the page is a secure context: the service worker controls it, the screen is kept
awake and the app can be installed. Over plain HTTP the same page offers the secure address.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from bench.served import Server, served

from .conftest import LAN_NAME, shot, trusting_phone
from .test_games_browser import create_match

pytestmark = pytest.mark.browser



@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """`scorekeeper serve` with one worker on a loopback port."""
    with served(tmp_path / "lan.db") as running:
        yield running


@pytest.fixture
def phone(browser: Browser, server: Server, tmp_path: Path) -> Iterator[Page]:
    """A Chromium that trusts the server's certificate authority and finds LAN_NAME at
    127.0.0.1; a phone-sized page in it."""
    context = trusting_phone(browser, server.port, tmp_path)
    context.set_default_timeout(10_000)
    yield context.pages[0] if context.pages else context.new_page()
    context.close()


def test_over_https_by_its_lan_name_the_phone_gets_what_secure_pages_get(phone, server):
    page = phone
    base = f"https://{LAN_NAME}:{server.secure_port}"
    create_match(page, base, "quarantotto", ["Anna", "Bruno", "Carla"])
    assert page.url.startswith(base + "/matches/")
    assert page.evaluate("window.isSecureContext") is True
    # No offer of a secure address on a secure page.
    expect(page.locator(".secure-offer")).to_have_count(0)

    # The screen is kept awake while the sheet is open.
    page.wait_for_function("document.documentElement.dataset.wakeLock === 'held'")

    # The service worker takes the page over from the next load on.
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30_000)

    # Chromium finds nothing that stops the app from being installed.
    session = page.context.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    shot(page, "lan-https-sheet")


def test_over_plain_http_the_page_offers_the_secure_address(phone, server):
    page = phone
    base = f"http://{LAN_NAME}:{server.port}"
    page.goto(base + "/matches/new?game=quarantotto")
    assert page.evaluate("window.isSecureContext") is False
    offer = page.locator(".secure-offer")
    expect(offer).to_be_visible()
    link = offer.locator(f"a[href^='https://{LAN_NAME}:{server.secure_port}/matches/new']")
    expect(link).to_have_count(1)
    # This phone trusts the certificate (its probe image loads from the secure address): the
    # step that installs it is gone, and the secure address is the bold link.
    expect(offer).to_have_class(re.compile(r"\btrusted\b"))
    expect(offer.locator("a[href$='/certificate']")).to_be_hidden()
    assert link.evaluate("a => getComputedStyle(a).fontWeight") == "700"
    shot(page, "lan-http-offer")
    # The offer leads to the same page, secure.
    link.click()
    page.wait_for_url(f"https://{LAN_NAME}:{server.secure_port}/matches/new?game=quarantotto")
    assert page.evaluate("window.isSecureContext") is True


def test_a_phone_that_does_not_trust_the_certificate_is_led_to_install_it_first(browser: Browser,
                                                                              server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/matches/new?game=quarantotto")
    offer = page.locator(".secure-offer")
    expect(offer).to_have_class(re.compile(r"\buntrusted\b"))
    install, secure = offer.locator("li a").all()[:2]
    expect(install).to_have_text("First install the certificate")
    expect(install).to_be_visible()
    assert install.get_attribute("href") == "/certificate"
    assert install.evaluate("a => getComputedStyle(a).fontWeight") == "700"
    expect(offer).to_contain_text("its browser shows the secure address as “not private”")
    assert secure.get_attribute("href").startswith(f"https://127.0.0.1:{server.secure_port}/")
    expect(secure).to_be_visible()
    shot(page, "lan-http-untrusted")
    context.close()
