"""Browser fixtures: the app served on 127.0.0.1 in a thread, and Debian's Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from werkzeug.serving import make_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}

SHOTS = os.environ.get("SCOREKEEPER_SHOTS")


def shot(page: Page, name: str) -> None:
    """A full-page screenshot under SCOREKEEPER_SHOTS, when it is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


# A name a phone on the Wi-Fi may know the computer by: Caddy makes a certificate for
# whatever name a phone opens (`tls internal`, on demand).
LAN_NAME = "scorekeeper-table.local"


def trusting_phone(browser: Browser, plain_port: int, folder: Path, *, locale: str = "en-GB",
                   dark: bool = False) -> BrowserContext:
    """A phone's browser that trusts the table's certificate authority, as it does once it
    installed the certificate page's file (an NSS database of its own, which Chromium on
    Linux reads), and finds LAN_NAME at 127.0.0.1; a profile on disk under ``folder``, as a
    phone's browser has (an incognito one cannot install apps)."""
    certutil = shutil.which("certutil")
    assert certutil, "certutil is missing: install the libnss3-tools package (.ci/run does)"
    home = folder / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    root = folder / "scorekeeper-ca.crt"  # as the certificate page hands it out
    with urllib.request.urlopen(f"http://127.0.0.1:{plain_port}/certificate/"
                                "scorekeeper-ca.crt", timeout=10) as answer:
        root.write_bytes(answer.read())
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Scorekeeper",
                    "-i", str(root)], check=True)
    context = browser.browser_type.launch_persistent_context(
        str(folder / "profile"), executable_path=CHROMIUM, env={**os.environ, "HOME": str(home)},
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
        viewport=PHONE, locale=locale, color_scheme="dark" if dark else "light",
        device_scale_factor=1)
    context.set_default_timeout(15_000)
    return context


def settled(page: Page) -> None:
    """Wait until the page has loaded and htmx has swapped in its answer and wired up the new
    elements: for a few milliseconds after a swap they answer no event, faster than a finger
    but not a robot. Before the load, a tap can find its button not wired yet, and send a
    plain form."""
    page.wait_for_function(
        "() => document.readyState === 'complete' && !document.querySelector("
        "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')")


def invitation_path(table, match_id: str) -> str:
    """A fresh invitation to the match's table, made on its share page by a phone of it."""
    share = table.client.get(f"/matches/{match_id}/share").get_data(as_text=True)
    table_id = re.search(r'/tables/([^/"]+)/invitations', share).group(1)
    made = table.post(f"/tables/{table_id}/invitations", {"match": match_id})
    assert made.status_code == 303  # made, then shown at an address a reload only shows
    page = table.client.get(made.headers["Location"])
    return urlsplit(re.search(r'data-invite="([^"]+)"', page.get_data(as_text=True)).group(1)) \
        ._replace(scheme="", netloc="").geturl()


def take_pen(page: Page, url: str) -> None:
    """Open an invitation and join the table: the phone lands on the sheet it was made for."""
    page.goto(url)
    page.locator("form[action*='/join/'] button").click()
    page.wait_for_url("**/matches/**")


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """The app served by a threaded server on a free port; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless; the tests fail (never skip) when it is missing."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install the chromium package"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def make_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Makes phone-sized pages (390x844), each in its own context, closed after the test."""
    contexts = []

    def make(*, locale: str = "en-GB", dark: bool = False, javascript: bool = True) -> Page:
        context = browser.new_context(
            viewport=PHONE, locale=locale, color_scheme="dark" if dark else "light",
            java_script_enabled=javascript, device_scale_factor=1, bypass_csp=True)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(make_page: Callable[..., Page]) -> Page:
    return make_page()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Pages under the site's CSP (a phone's, unless told otherwise); a CSP violation or
    script error fails the test."""
    contexts, problems = [], []

    def make(*, service_workers: str = "allow", viewport: dict[str, int] = PHONE,
             locale: str = "en-GB", dark: bool = False) -> Page:
        context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1,
                                      color_scheme="dark" if dark else "light",
                                      service_workers=service_workers)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    # The network errors of the offline steps are expected (htmx's own, a request that finds
    # no network or no server, a conflict's 409), and the style Playwright adds to take a
    # screenshot; nothing else is.
    expected = ("net::ERR_INTERNET_DISCONNECTED", "Failed to load resource",
                "htmx:afterRequest", "htmx:sendError",
                *(("Applying inline style",) if SHOTS else ()))
    assert [p for p in problems if not any(e in p for e in expected)] == []
