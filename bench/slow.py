"""Slow and idle clients held open against a server, and what other phones meet meanwhile.

A slow client sends a request's head one byte every half second and never finishes it; an
idle one connects and sends nothing. ``make bench`` measures /health and a bid while they
are held; tests/test_serve.py checks that the server keeps answering.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterator

TRICKLE = b"POST /matches/x/navawhist/bid HTTP/1.1\r\nHost: slow.test\r\nContent-Length: 90\r\n"


@contextlib.contextmanager
def held(host: str, port: int, slow: int = 8, idle: int = 8) -> Iterator[list[socket.socket]]:
    """``slow`` trickling and ``idle`` silent connections to ``host``:``port`` while inside."""
    stop = threading.Event()
    sockets = [socket.create_connection((host, port), timeout=5) for _ in range(slow + idle)]

    def trickle(sock: socket.socket) -> None:
        for index in range(10**6):
            if stop.wait(0.5):
                return
            try:
                sock.sendall(TRICKLE[index % len(TRICKLE):][:1])
            except OSError:
                return

    threads = [threading.Thread(target=trickle, args=(sock,), daemon=True)
               for sock in sockets[:slow]]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1)  # every one of them connected and trickling
        yield sockets
    finally:
        stop.set()
        for sock in sockets:
            sock.close()
        for thread in threads:
            thread.join(2)


# Made once: loading the system's certificates takes longer than a request.
_CLIENT_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
_CLIENT_TLS.check_hostname = False
_CLIENT_TLS.verify_mode = ssl.CERT_NONE


def connection(host: str, port: int, secure: bool) -> http.client.HTTPConnection:
    if secure:
        return http.client.HTTPSConnection(host, port, timeout=5, context=_CLIENT_TLS)
    return http.client.HTTPConnection(host, port, timeout=5)


def timed_gets(host: str, port: int, path: str, count: int, secure: bool = False) -> list[float]:
    """Seconds each of ``count`` GETs of ``path`` took, each on a new connection."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        client = connection(host, port, secure)
        client.request("GET", path)
        response = client.getresponse()
        response.read()
        client.close()
        assert response.status == 200, response.status
        times.append(time.perf_counter() - start)
    return times


class Phone:
    """A phone on a keep-alive connection, with the session cookie and CSRF token a page
    gives it."""

    def __init__(self, host: str, port: int, secure: bool = True) -> None:
        self.client = connection(host, port, secure)
        # A browser's same-origin POST names its page; over HTTPS the CSRF check wants it.
        self.referer = f"{'https' if secure else 'http'}://{host}:{port}/"
        self.client.request("GET", "/matches/new")
        response = self.client.getresponse()
        page = response.read().decode()
        self.cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        self.token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

    def request(self, method: str, path: str, body: str = "") -> tuple[int, bytes]:
        headers = {"Cookie": self.cookie, "HX-Request": "true", "Referer": self.referer}
        if body:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.client.request(method, path, body=body or None, headers=headers)
        response = self.client.getresponse()
        return response.status, response.read()

    def json(self, path: str) -> dict:
        import json

        status, body = self.request("GET", path)
        assert status == 200, status
        return json.loads(body)

    def bid_and_undo(self, match_id: str) -> float:
        """Seconds one bid took (then undone, so that the next one bids the same hand)."""
        sheet = self.json(f"/matches/{match_id}.json")
        form = (f"csrf_token={self.token}&version={sheet['version']}"
                f"&number={sheet['next']['number']}&seat={sheet['next']['info']['bidder']}"
                "&bid=0")
        start = time.perf_counter()
        status, _ = self.request("POST", f"/matches/{match_id}/navawhist/bid", form)
        took = time.perf_counter() - start
        assert status == 200, status
        status, _ = self.request("POST", f"/matches/{match_id}/undo",
                                 f"csrf_token={self.token}&version={sheet['version'] + 1}")
        assert status in (200, 303), status
        return took
