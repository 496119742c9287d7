"""A club night on one server: 1,000 following phones and 20 tables entering hands.

``scorekeeper serve`` (Caddy and 2 gunicorn workers, as ``make run`` starts them) on
loopback, plain HTTP as the phones at the table use it, with phones' rights as a club has
them: each of the 20 tables' phones starts its own match, so it alone may edit it. In one
asyncio loop, for a bounded time: each of 1,000 followers keeps a connection to the server,
reads the live part of one of the 20 matches, then asks every 4 s whether it changed since
the version it shows, as its page does (htmx, ``live?since=``); each table plays Navawhist
on its match at a brisk table's pace, a tap a second (a bid, or all the tricks), each tap
followed by the live read its page makes. After the first 8 s (every phone has opened its
page), the time from sending each request to reading its whole answer is recorded: the
bench reports the 95th percentile of the bids and of the followers' polls."""

from __future__ import annotations

import asyncio
import gzip
import json
import random
import re
import resource
import time
from pathlib import Path
from urllib.parse import urlencode

from bench.served import served
from scorekeeper.rules import GAMES

FOLLOWERS = 1000
TABLES = 20
POLL = 4.0  # seconds between a follower's reads, as static/js/sheet.js polls
TAP = 1.0  # seconds between a table's taps
WARM = 2 * POLL  # seconds the phones take to open their pages, before the measure starts


class Phone:
    """One phone's keep-alive connection: its cookie, its CSRF token and its timings."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""

    async def send(self, method: str, path: str, headers: dict[str, str] | None = None,
                   body: str = "") -> tuple[int, dict[str, str], bytes]:
        """Send one request on the connection (opened again when the server closed it)."""
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = {"Host": f"127.0.0.1:{self.port}", "Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            head["Cookie"] = self.cookie
        if body:
            head["Content-Type"] = "application/x-www-form-urlencoded"
            head["Content-Length"] = str(len(body))
        lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
        self.writer.write(f"{method} {path} HTTP/1.1\r\n{lines}\r\n{body}".encode())
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, value = line.decode().split(":", 1)
            answer[name.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(answer.get("content-length", 0)))
        if "set-cookie" in answer:
            self.cookie = answer["set-cookie"].split(";", 1)[0]
        if answer.get("connection", "").lower() == "close":
            self.writer.close()
            self.writer = None
        return status, answer, data


def shown_version(answer: dict[str, str], data: bytes) -> int:
    """The version a live part shows (its ``data-version``)."""
    if answer.get("content-encoding") == "gzip":
        data = gzip.decompress(data)
    return int(re.search(rb'data-version="(\d+)"', data).group(1))


async def follow(port: int, match_id: str, since: float, until: float,
                 polls: list[float]) -> None:
    """A follower: the live part, then every 4 s whether it changed since the version its
    page shows."""
    phone = Phone(port)
    await asyncio.sleep(random.uniform(0, POLL))  # phones do not all open at once
    status, answer, data = await phone.send("GET", f"/matches/{match_id}/live")
    assert status == 200, status
    version = shown_version(answer, data)
    await asyncio.sleep(POLL)
    while time.perf_counter() < until:
        start = time.perf_counter()
        status, answer, data = await phone.send(
            "GET", f"/matches/{match_id}/live?since={version}", {"HX-Request": "true"})
        if start >= since:
            polls.append(time.perf_counter() - start)
        assert status in (200, 204), status
        if status == 200:
            version = shown_version(answer, data)
        await asyncio.sleep(POLL - (time.perf_counter() - start) % POLL)


async def start_match(port: int) -> tuple[Phone, str, str]:
    """A table's phone starting its match (4 players): the phone, its CSRF token and the
    match's id."""
    phone = Phone(port)
    _, _, page = await phone.send("GET", "/matches/new", {"Accept-Encoding": "identity"})
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    form = {"csrf_token": token, "game": "navawhist", "first_dealer": 0, "action": "start",
            **{f"players-{n}": name for n, name in enumerate(("Anna", "Bruno", "Carla",
                                                               "Dario"))},
            **{f"opt_{option.key}": "y" if option.default is True else option.default
               for option in GAMES["navawhist"].options
               if option.default not in (False, None)}}
    status, answer, _ = await phone.send("POST", "/matches/new", body=urlencode(form))
    assert status == 303, status
    return phone, token, answer["location"].rsplit("/", 1)[1]


async def play(phone: Phone, token: str, match_id: str, hands: list[dict], since: float,
               until: float, bids: list[float]) -> None:
    """A table: bids and tricks a tap a second, each followed by its page's live read."""
    htmx = {"HX-Request": "true"}
    await asyncio.sleep(random.uniform(0, TAP))
    for hand in hands:
        _, _, data = await phone.send("GET", f"/matches/{match_id}.json",
                                      {"Accept-Encoding": "identity"})
        sheet = json.loads(data)
        number, version = sheet["next"]["number"], sheet["version"]
        taps = [("bid", {"seat": seat, "bid": hand["bids"][seat]})
                for seat in sheet["next"]["info"]["order"]]
        taps.append(("tricks", {"action": "save", **{
            f"values-{s}": t for s, t in enumerate(hand["tricks"])}}))
        for kind, form in taps:
            if time.perf_counter() >= until:
                return
            start = time.perf_counter()
            status, answer, _ = await phone.send(
                "POST", f"/matches/{match_id}/navawhist/{kind}", htmx, urlencode(
                    {"csrf_token": token, "version": version, "number": number, **form}))
            if kind == "bid" and start >= since:
                bids.append(time.perf_counter() - start)
            assert status == 200, (kind, status)
            version = int(answer["x-match-version"])
            await phone.send("GET", f"/matches/{match_id}/live?since={version}", htmx)
            await asyncio.sleep(max(0.0, TAP - (time.perf_counter() - start)))


async def night(port: int, hands: list[dict],
                seconds: float) -> tuple[list[float], list[float]]:
    tables = await asyncio.gather(*(start_match(port) for _ in range(TABLES)))
    since = time.perf_counter() + WARM
    until = since + seconds
    bids: list[float] = []
    polls: list[float] = []
    await asyncio.gather(
        *(play(*table, hands, since, until, bids) for table in tables),
        *(follow(port, tables[n % TABLES][2], since, until, polls) for n in range(FOLLOWERS)))
    return bids, polls


def club_night(database: Path, hands: list[dict],
               seconds: float = 40) -> tuple[list[float], list[float]]:
    """The seconds each bid and each poll took, on the server over ``database`` (migrated),
    each table playing ``hands`` on a match of its own."""
    # A thousand phones hold a thousand connections, here and in the server's Caddy.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    with served(database, 2) as server:
        return asyncio.run(night(server.port, hands, seconds))
