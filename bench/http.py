"""A tap over HTTP, the way a phone meets the server: gunicorn with one sync worker on
loopback (which answers one request per connection and closes it: the client connects again
for the next, for Scorekeeper and the floor alike), the worker's CPU time read from /proc
before and after a run of requests. Scorekeeper's bid, and a whole 4-player round as the
page posts it (four bids and the tricks, each followed by the live read the page makes),
beside the floor app's bare POST (bench/floor.py) measured the same way in the same run.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from bench.served import ROOT, free_port

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The CPU seconds process ``pid`` has used: the time its main thread (a sync worker's,
    which serves every request) ran, in nanoseconds (``/proc/<pid>/schedstat``), else the
    process's user and system time in clock ticks (a hundredth of a second: several
    requests' worth, which only many requests average out)."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK


@contextmanager
def worker(app: str, env: dict[str, str]) -> Iterator[tuple[http.client.HTTPConnection, int]]:
    """gunicorn serving ``app`` with one sync worker: a connection to it (made again for each
    request, which the sync worker closes after its answer) and the worker's pid."""
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--workers", "1", "--worker-class",
         "sync", "--keep-alive", "30", "--bind", f"127.0.0.1:{port}", "--log-level",
         "warning", app], cwd=ROOT, env={**os.environ, **env})
    try:
        for _ in range(200):
            children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text()
            if children.split():
                try:
                    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                    probe.request("GET", "/health")
                    probe.getresponse().read()
                    probe.close()
                    break
                except OSError:
                    pass
            time.sleep(0.05)
        pid = int(Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()[0])
        yield http.client.HTTPConnection("127.0.0.1", port, timeout=30), pid
    finally:
        server.terminate()
        server.wait(10)


class Client:
    """One browser on one connection (reopened by ``http.client`` for each request): its
    cookie and CSRF token."""

    def __init__(self, connection: http.client.HTTPConnection, token_path: str) -> None:
        self.connection = connection
        self.cookie = ""
        status, page = self.send("GET", token_path, headers={"Accept-Encoding": "identity"})
        found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
        self.token = found.group(1).decode() if found else page.decode()

    def send(self, method: str, path: str, form: dict | None = None,
             headers: dict | None = None) -> tuple[int, bytes]:
        headers = {"HX-Request": "true", "Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode({"csrf_token": self.token, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, data

    def json(self, path: str) -> dict:
        import json

        status, data = self.send("GET", path, headers={"Accept-Encoding": "identity"})
        assert status == 200, (path, status)
        return json.loads(data)


def taps(database: Path, directory: Path, match_ids: list[str],
         hands: list[dict]) -> dict[str, float]:
    """Scorekeeper and the floor app over HTTP, side by side: each hand of ``hands`` is played
    as a whole round on each match of ``match_ids`` (4 players, empty) as the page posts it
    (four bids and the tricks, each followed by the page's live read), then five bare POSTs
    are sent to the floor, so that both are measured under the same load of the machine.
    Worker CPU seconds per bid, per round, per save of the tricks, per live read and per bare
    POST, and the wall medians of a round and of five bare POSTs."""
    env = {"DATABASE_URL": f"sqlite:///{database}", "SCOREKEEPER_OPEN_EDIT": "1"}
    floor = f"bench.floor:floor_app({str(directory / 'floor-http.db')!r})"
    with worker("scorekeeper:create_app()", env) as (connection, pid), \
            worker(floor, {}) as (floor_connection, floor_pid):
        client, bare = Client(connection, "/matches/new"), Client(floor_connection, "/token")
        for _ in range(3):  # the first requests warm the workers
            bare.send("GET", "/health")
            client.send("GET", "/health")
        floor_versions = iter(range(10**6))
        bids, rounds, walls, posts, floor_walls, reads, saves = [], [], [], [], [], [], []
        for match_id in match_ids:
            for hand in hands:
                sheet = client.json(f"/matches/{match_id}.json")
                number, version = sheet["next"]["number"], sheet["version"]
                start_cpu, start = cpu_seconds(pid), time.perf_counter()
                for seat in sheet["next"]["info"]["order"]:
                    before = cpu_seconds(pid)
                    status, _ = client.send("POST", f"/matches/{match_id}/navawhist/bid", {
                        "version": version, "number": number, "seat": seat,
                        "bid": hand["bids"][seat]})
                    assert status == 200, status
                    bids.append(cpu_seconds(pid) - before)
                    version += 1
                    before = cpu_seconds(pid)
                    client.send("GET", f"/matches/{match_id}/live?since={version}")
                    reads.append(cpu_seconds(pid) - before)
                before = cpu_seconds(pid)
                status, _ = client.send("POST", f"/matches/{match_id}/navawhist/tricks", {
                    "version": version, "number": number, "action": "save",
                    **{f"values-{s}": t for s, t in enumerate(hand["tricks"])}})
                assert status == 200, status
                saves.append(cpu_seconds(pid) - before)
                client.send("GET", f"/matches/{match_id}/live?since={version + 1}")
                walls.append(time.perf_counter() - start)
                rounds.append(cpu_seconds(pid) - start_cpu)
                start_cpu, start = cpu_seconds(floor_pid), time.perf_counter()
                for _ in range(5):
                    status, _ = bare.send("POST", "/bid", {"bid": 2,
                                                           "version": next(floor_versions)})
                    assert status == 200, status
                floor_walls.append(time.perf_counter() - start)
                posts.append((cpu_seconds(floor_pid) - start_cpu) / 5)
    return {"bid": sum(bids) / len(bids), "round": sum(rounds) / len(rounds),
            "tricks": sum(saves) / len(saves), "read": sum(reads) / len(reads),
            "post": sum(posts) / len(posts), "wall": sorted(walls)[len(walls) // 2],
            "floor_wall": sorted(floor_walls)[len(floor_walls) // 2]}
