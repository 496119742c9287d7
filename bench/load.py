"""A small HTTP load generator: keep-alive GETs from several threads for a fixed time.

Usage: python -m bench.load URL SECONDS THREADS [COOKIE]  ->  prints the requests per second.
"""

from __future__ import annotations

import http.client
import sys
import threading
import time
from urllib.parse import urlsplit


def hammer(url: str, seconds: float, threads: int, cookie: str = "") -> float:
    """Requests per second answered 200 by ``url`` within ``seconds``, sent with ``cookie``
    (a browser's ``Cookie`` header) when given."""
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    deadline = time.perf_counter() + seconds
    counts = [0] * threads
    headers = {"Accept-Encoding": "gzip", **({"Cookie": cookie} if cookie else {})}

    def worker(index: int) -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        while time.perf_counter() < deadline:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                counts[index] += 1
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        connection.close()

    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return sum(counts) / (time.perf_counter() - started)


if __name__ == "__main__":
    print(f"{hammer(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), *sys.argv[4:5]):.1f}")
