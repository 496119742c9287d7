"""The tap as the player feels it: Chromium as a modest phone at the table, from the finger's
tap to the answer painted on the screen.

``scorekeeper serve`` (2 workers) on loopback, opened over HTTPS by a LAN name
(``scorekeeper-table.local``, mapped to 127.0.0.1 by the browser's resolver), Caddy's local
certificate trusted by its keys (``--ignore-certificate-errors-spki-list``: the SHA-256 of
the public keys of the chain Caddy presents, checked first against Caddy's root as a phone
checks it once it installed the certificate page's file). The page is
390x844, its CPU slowed 4 times and 40 ms added to every request's round trip (Chrome's
DevTools protocol: ``Emulation.setCPUThrottlingRate``, ``Network.emulateNetworkConditions``).
Another phone starts a Navawhist match of 4 players and invites this one; it joins the table
by the invitation's page, as a phone does, then plays whole hands: the four bids on the bid
keys, then each player's tricks and Save. A capture listener on the document notes the time
of the click on a bid key or on Save; after htmx's ``htmx:afterSettle`` for its answer, two
``requestAnimationFrame``s later (the frame with the answer painted) the time is noted again.
"""

from __future__ import annotations

import base64
import hashlib
import socket
import ssl
import time
from pathlib import Path

from bench.phones import LAN_NAME, Phone, root_of, trusting
from bench.served import served

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROUNDS = 30  # hands played: 4 bids and a save each (two matches: one has 16 hands)
LIMIT = 200.0  # seconds the taps may take at most

# Noted in the page: the click on a key (capture phase, before htmx sees it), and the frame
# after htmx settled the answer.
WATCH = """() => {
  if (window.__taps) return;
  window.__taps = [];
  window.__requests = [];
  window.__start = null;
  document.addEventListener('click', (event) => {
    if (event.target.closest('#bid-form .keypad button, button[value=save]')) {
      window.__start = performance.now();
      performance.mark('tap');
    }
  }, true);
  document.addEventListener('htmx:afterSettle', () => {
    const start = window.__start;
    if (start === null) return;
    window.__start = null;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      performance.mark('painted');
      window.__taps.push(performance.now() - start);
      // The tap's request, from its start to its answer's last byte.
      const sent = performance.getEntriesByType('resource').filter(
        (entry) => entry.startTime >= start && entry.name.includes('/navawhist/'));
      window.__requests.push(sent.length ? sent[0].responseEnd - sent[0].startTime : -1);
    }));
  });
}"""


def spki_hash(der: bytes) -> str:
    """The base64 SHA-256 of a certificate's public key (SubjectPublicKeyInfo)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    key = x509.load_der_x509_certificate(der).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(key).digest()).decode()


def chain_keys(port: int, context: ssl.SSLContext) -> str:
    """The hashes of the keys of the chain the server presents for ``LAN_NAME``, checked
    against its root first: Chromium's list matches a key of the chain the server sends,
    which ends at the intermediate (the phone holds the root)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock, \
            context.wrap_socket(sock, server_hostname=LAN_NAME) as tls:
        return ",".join(spki_hash(cert) for cert in tls.get_verified_chain())


def phone_taps(database: Path, rounds: int = ROUNDS) -> dict[str, list[float]]:
    """Seconds from each tap to its answer painted, the bids' and the saves', and of each
    the part its request took (Resource Timing: from its start to its answer's last
    byte, the added latency included)."""
    from playwright.sync_api import expect, sync_playwright

    got: dict[str, list[float]] = {"bid": [], "save": [], "bid request": [],
                                   "save request": []}
    with served(database, 2) as server, sync_playwright() as playwright:
        root = root_of(server)
        context_tls = trusting(root)
        base = f"https://{LAN_NAME}:{server.secure_port}"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            *ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={chain_keys(server.secure_port, context_tls)}"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844},
                                          locale="en-GB", device_scale_factor=1)
            context.set_default_timeout(20_000)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 40, "downloadThroughput": -1,
                "uploadThroughput": -1})
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            deadline = time.monotonic() + LIMIT
            played = 0
            while played < rounds and time.monotonic() < deadline:
                host = Phone(server.secure_port, context_tls)
                match_id = host.start_match()
                page.goto(base + host.invitation(match_id))
                page.get_by_role("button", name="Join the table").click()
                page.wait_for_url(f"{base}/matches/{match_id}*")
                page.evaluate(WATCH)
                while played < rounds and time.monotonic() < deadline:
                    if page.locator("#bid-form").count() == 0:
                        break  # the match is over
                    play_hand(page, got, expect)
                    played += 1
        finally:
            browser.close()
    return got


def taps_seen(page) -> int:
    return page.evaluate("window.__taps.length")


def timed_tap(page, locator, kind: str, got: dict[str, list[float]]) -> None:
    """Tap ``locator`` and wait for its answer painted; note the time it took."""
    seen = taps_seen(page)
    settled(page)
    locator.click()
    page.wait_for_function("(seen) => window.__taps.length > seen", arg=seen)
    got[kind].append(page.evaluate("window.__taps[window.__taps.length - 1]") / 1000)
    got[f"{kind} request"].append(
        page.evaluate("window.__requests[window.__requests.length - 1]") / 1000)


def settled(page) -> None:
    """htmx has swapped in its answer and wired up the new elements."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, "
        ".htmx-added')")


def play_hand(page, got: dict[str, list[float]], expect) -> None:
    """Four bids (the first key the player may tap), then every trick to the first
    player, and Save."""
    cards = page.locator("#bid-form .keypad button").count() - 1
    for _bid in range(4):
        timed_tap(page, page.locator("#bid-form .keypad button:not([disabled])").first, "bid",
                  got)
    expect(page.locator("#tricks")).to_be_visible()
    for seat in range(4):
        fold = f"#tricks fieldset.seat-keys:has(input[name='values-{seat}'])"
        keys = page.locator(f"{fold} .keypad").first
        settled(page)
        if not keys.is_visible():
            page.locator(fold).click(position={"x": 12, "y": 12})
            expect(keys).to_be_visible()
        count = cards if seat == 0 else 0
        page.locator(f"label.key:has(input[name='values-{seat}'][value='{count}'])").click()
        expect(page.locator(f"input[name='values-{seat}'][value='{count}']")).to_be_checked()
    timed_tap(page, page.locator("button[value=save]"), "save", got)
    settled(page)
